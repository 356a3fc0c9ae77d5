#!/bin/sh
# Starts one server per DEFECT mode (empty = correct server), runs test/smoke.rb
# against each, stops it with SIGTERM to its process group.
cd "$(dirname "$0")/.."
export SECRET_KEY="${SECRET_KEY:-sk_test_account_one}" SECOND_SECRET_KEY="${SECOND_SECRET_KEY:-sk_test_account_two}" CALLBACKS=off
port=${BASE_PORT:-4600}
status=0
for defect in "" amount-plus-one no-auth delete-500 drop-callback-query; do
  port=$((port + 1))
  log=$(mktemp)
  PORT=$port DEFECT=$defect setsid ./run.sh >"$log" 2>&1 &
  pid=$!
  start=$(date +%s.%N)
  until curl -s -o /dev/null "http://127.0.0.1:$port/v1/balances/1"; do sleep 0.1; done
  ready=$(echo "$(date +%s.%N) - $start" | bc)
  PORT=$port DEFECT=$defect ruby test/smoke.rb "http://127.0.0.1:$port/v1" || status=1
  echo "  (DEFECT='$defect' ready in ${ready}s)"
  kill -TERM -$pid
  wait $pid
  rm -f "$log"
done
exit $status
