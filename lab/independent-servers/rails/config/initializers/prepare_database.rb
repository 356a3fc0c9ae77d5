# run.sh starts every server on a new, empty SQLite file and sets
# SANDBOX_PREPARE_DB=1: the server process itself then loads db/schema.rb and
# db/seeds.rb once it has booted (the same as `bin/rails db:schema:load db:seed`,
# without booting Rails a second time).
if ENV["SANDBOX_PREPARE_DB"] == "1"
  Rails.application.config.after_initialize do
    unless ActiveRecord::Base.connection.table_exists?(:accounts)
      ActiveRecord::Schema.verbose = false
      load Rails.root.join("db/schema.rb").to_s
      Rails.application.load_seed
    end
    ActiveRecord::Base.clear_active_connections!
  end
end
