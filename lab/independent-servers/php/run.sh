#!/bin/sh
# Start the sandbox: PORT=4803 ./run.sh
set -e
cd "$(dirname "$0")"
PORT="${PORT:-4803}"
DB_DIR="$(mktemp -d "${TMPDIR:-/tmp}/independent-php-sandbox.XXXXXX")"
DB_PATH="$DB_DIR/sandbox.sqlite"
export DB_PATH
export SECRET_KEY="${SECRET_KEY:-sk_sandbox_independent_php_0001}"
export SECOND_SECRET_KEY="${SECOND_SECRET_KEY:-sk_sandbox_independent_php_0002}"
export DEFECT="${DEFECT:-}"
export PHP_CLI_SERVER_WORKERS="${PHP_CLI_SERVER_WORKERS:-4}"

# create schema and seed data once, before any worker starts
php -r 'require "lib.php"; init_db();'

# PHP 8.2's built-in server does not stop its worker processes when the
# master process is killed, so they would keep the port busy. This small
# watcher remembers the workers of this server (children of this pid, which
# becomes the php master after exec) and stops them, and removes the
# database, once the master is gone.
MASTER=$$
(
    trap '' INT HUP
    kids=""
    while kill -0 "$MASTER" 2>/dev/null; do
        case "$(ps -o stat= -p "$MASTER" 2>/dev/null)" in Z*) break ;; esac
        k="$(pgrep -P "$MASTER" -x php | tr '\n' ' ')" || true
        [ -n "$k" ] && kids="$k"
        sleep 0.5
    done
    [ -n "$kids" ] && kill $kids 2>/dev/null
    rm -rf "$DB_DIR"
) </dev/null >/dev/null 2>&1 &

exec php -S "127.0.0.1:$PORT" router.php
