#!/usr/bin/env bash
# Starts the sandbox API: PORT=4814 ./run.sh
set -euo pipefail

cd "$(dirname "$0")"
PORT="${PORT:-4814}"

DATA_DIR="$(mktemp -d "${TMPDIR:-/tmp}/phplv-sandbox.XXXXXX")"
export DB_PATH="$DATA_DIR/database.sqlite"
php init.php "$DB_PATH"

export PHP_CLI_SERVER_WORKERS=4
export DEFECT="${DEFECT:-}"

# The watcher outlives this shell's exec: it follows the php main process (this PID)
# and kills its worker processes and removes the temp dir once the main process is gone.
setsid ./watcher.sh "$$" "$DATA_DIR" </dev/null >/dev/null 2>&1 &

exec php -d variables_order=EGPCS -S "127.0.0.1:$PORT" router.php
