#!/bin/sh
# Start the sandbox. Reads PORT, SECRET_KEY, SECOND_SECRET_KEY, DEFECT, CALLBACKS.
cd "$(dirname "$0")" || exit 1
exec /usr/bin/python3 server.py
