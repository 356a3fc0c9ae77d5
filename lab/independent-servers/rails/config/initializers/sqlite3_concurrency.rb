# SQLite under many Puma threads.
#
# * The sqlite3 gem's busy_timeout sleeps inside C while holding Ruby's GVL, which
#   stops the very thread that holds the write lock; a Ruby busy handler sleeps
#   with the GVL released instead (same timeout, from database.yml).
# * Transactions start with BEGIN IMMEDIATE, so a transaction that reads and then
#   writes cannot fail with SQLITE_BUSY when another writer committed meanwhile.
# * WAL journal: readers never wait for the writer.
module SqliteConcurrency
  private

  def configure_connection
    super
    timeout = (self.class.type_cast_config_to_integer(@config[:timeout]) || 10_000) / 1000.0
    started = nil
    @connection.busy_handler do |count|
      now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      started = now if count.zero? || started.nil?
      if now - started < timeout
        sleep(count < 10 ? 0.001 : 0.005)
        true
      else
        false
      end
    end
    execute("PRAGMA journal_mode = WAL", "SCHEMA")
    execute("PRAGMA synchronous = NORMAL", "SCHEMA")
  end

  public

  def begin_db_transaction
    log("begin immediate transaction", "TRANSACTION") { @connection.transaction(:immediate) }
  end
end

ActiveSupport.on_load(:active_record_sqlite3adapter) do
  prepend SqliteConcurrency
end
