#!/bin/sh
# Starts the sandbox server: single-process Mojolicious daemon on 127.0.0.1:$PORT.
# Reads PORT, SECRET_KEY, SECOND_SECRET_KEY, DEFECT, CALLBACKS from the environment.
cd "$(dirname "$0")" || exit 1
exec /usr/bin/perl app.pl daemon -m production -l "http://127.0.0.1:${PORT:-3000}"
