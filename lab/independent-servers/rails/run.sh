#!/bin/sh
# Start the sandbox: fresh SQLite database, schema + seed, then Puma (exec'd, so
# SIGTERM reaches it directly). Reads PORT, SECRET_KEY, SECOND_SECRET_KEY, DEFECT,
# CALLBACKS from the environment.
set -e
cd "$(dirname "$0")"

export RAILS_ENV=production
export PORT="${PORT:-3000}"
export RAILS_MAX_THREADS="${RAILS_MAX_THREADS:-32}"
# One fresh database file per server (several servers may run from this folder at
# once); Puma deletes it when it stops (config/puma.rb).
mkdir -p tmp/db
export DATABASE_PATH="${DATABASE_PATH:-$PWD/tmp/db/sandbox-$PORT.sqlite3}"
export SANDBOX_DISCARD_DB=1
rm -f "$DATABASE_PATH" "$DATABASE_PATH-wal" "$DATABASE_PATH-shm" "$DATABASE_PATH-journal"

# The server loads db/schema.rb and db/seeds.rb into the new file when it boots
# (config/initializers/prepare_database.rb).
export SANDBOX_PREPARE_DB=1

exec bundle exec puma -C config/puma.rb config.ru
