# Single Puma process (no cluster workers), many threads: the harness keeps up
# to ~30 keep-alive connections busy at once.
max_threads_count = Integer(ENV.fetch("RAILS_MAX_THREADS") { 32 })
min_threads_count = Integer(ENV.fetch("RAILS_MIN_THREADS") { max_threads_count })
threads min_threads_count, max_threads_count

# Listen on the loopback interface only.
bind "tcp://127.0.0.1:#{Integer(ENV.fetch('PORT') { 3000 })}"

environment ENV.fetch("RAILS_ENV") { "production" }

# Do not let one keep-alive connection hold a thread while others wait
# (Puma 5 otherwise waits up to 0.2 s for the next request on that connection).
max_fast_inline 1

# No pidfile / state file: several servers may run from this folder at once.

# run.sh creates a fresh database for every start: remove it when Puma exits.
if ENV["SANDBOX_DISCARD_DB"] == "1" && (database = ENV["DATABASE_PATH"])
  at_exit do
    ["", "-wal", "-shm", "-journal"].each { |suffix| File.delete("#{database}#{suffix}") if File.exist?("#{database}#{suffix}") }
  end
end
