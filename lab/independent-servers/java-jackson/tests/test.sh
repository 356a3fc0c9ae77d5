#!/bin/bash
# Functional checks with curl. Starts the server once per DEFECT mode on $TEST_PORT (default 28931),
# runs the checks and stops it. Usage: tests/test.sh [mode...]   (modes: none amount-plus-one no-auth
# delete-500 drop-callback-query; default: all)
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
PORT=${TEST_PORT:-28931}
B="http://127.0.0.1:$PORT/v1"
K1=sk_test_one K2=sk_test_two
A1="Authorization: Bearer $K1"; A2="Authorization: Bearer $K2"
WORK=$(mktemp -d)
PASS=0 FAIL=0
trap 'stop_server; rm -rf "$WORK"' EXIT

start_server() {
    (cd "$HERE"; PORT=$PORT SECRET_KEY=$K1 SECOND_SECRET_KEY=$K2 DEFECT="$1" CALLBACKS=off \
        setsid ./run.sh >"$WORK/server.log" 2>&1 & echo $! >"$WORK/pid")
    for _ in $(seq 1 200); do
        curl -s -o /dev/null "$B/balances/1" && return 0
        sleep 0.1
    done
    echo "server did not start"; cat "$WORK/server.log"; exit 1
}
stop_server() {
    [ -f "$WORK/pid" ] || return 0
    local pid; pid=$(cat "$WORK/pid")
    kill -TERM -- "-$pid" 2>/dev/null
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    rm -f "$WORK/pid"
}

# req METHOD PATH AUTHHEADER BODY -> sets CODE and BODY
req() {
    local args=(-s -o "$WORK/body" -w '%{http_code}' -X "$1" "$B$2")
    [ -n "$3" ] && args+=(-H "$3")
    [ -n "${4-}" ] && args+=(-H 'Content-Type: application/json' --data-binary "$4")
    CODE=$(curl "${args[@]}")
    BODY=$(cat "$WORK/body")
}
check() { # name expected-code [jq-like python expression on J]
    local name=$1 want=$2 expr=${3-}
    local ok=1
    [ "$CODE" = "$want" ] || ok=0
    if [ $ok = 1 ] && [ -n "$expr" ]; then
        python3 -c "import json,sys; J=json.loads(sys.argv[1]); sys.exit(0 if ($expr) else 1)" "$BODY" 2>/dev/null || ok=0
    fi
    if [ $ok = 1 ]; then PASS=$((PASS+1)); else FAIL=$((FAIL+1)); echo "FAIL [$MODE] $name: got $CODE $BODY"; fi
}
jget() { python3 -c "import json,sys; J=json.loads(sys.argv[1]); print($2)" "$BODY"; }

ISO='__import__("re").match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$", %s)'
iso() { printf "$ISO" "$1"; }

run_checks() {
    MODE=$1
    # --- authentication
    req GET /balances/1 ""; if [ "$MODE" = no-auth ]; then check "no header (no-auth defect)" 200; else check "no header" 401; fi
    req GET /balances/1 "Authorization: Bearer wrong"; check "wrong key" 401
    req GET /balances/1 "Authorization: Basic $K1"; check "basic scheme" 401
    req GET /balances/1 "Authorization: Bearer"; check "empty bearer" 401
    req DELETE /customers/1 ""; if [ "$MODE" = no-auth ]; then check "delete no header (no-auth)" 404; else check "delete no header" 401; fi
    # --- balances / currencies
    req GET /balances/1 "$A1"; check "balance 1" 200 "isinstance(J,list) and J[0]['id']==1 and J[0]['account_id']==1 and isinstance(J[0]['amount'],int) and $(iso "J[0]['created_at']")"
    req GET /balances/2 "$A2"; check "balance 2 acct2" 200 "J[0]['id']==2 and J[0]['account_id']==2"
    req GET /balances/2 "$A1"; check "balance 2 acct1" 404
    req GET /balances/abc "$A1"; check "balance abc" 404
    req GET /balances/99999999999999999999999 "$A1"; check "balance huge" 404
    req GET /currencies/1 "$A1"; check "currency 1" 200 "J[0]['id']==1 and 'mtn' in J[0]['modes'] and J[0]['default'] is True and $(iso "J[0]['updated_at']")"
    req GET /currencies/2 "$A2"; check "currency 2" 200 "J[0]['account_id']==2"
    req GET /currencies/1 "$A2"; check "currency 1 acct2" 404
    req POST /balances/1 "$A1" '{}'; check "balance POST" 405
    # --- customers
    req POST /customers "$A1" '{"email":"jane@example.com","firstname":"Jane","lastname":"Doe","phone_number":{"number":"+22997000001","country":"BJ"}}'
    check "create customer" 201 "isinstance(J['id'],int) and J['email']=='jane@example.com'"
    local cid; cid=$(jget "$BODY" "J['id']")
    req POST /customers "$A1" '{"firstname":"x"}'; check "customer no email" 400
    req POST /customers "$A1" '{"email":5'; check "customer bad json" 400
    req DELETE "/customers/$cid" "$A2"; if [ "$MODE" = delete-500 ]; then check "delete other acct (delete-500)" 500; else check "delete other acct" 404; fi
    req DELETE "/customers/$cid" "$A1"; check "delete customer" 204; [ -z "$BODY" ] || { FAIL=$((FAIL+1)); echo "FAIL 204 has body"; }
    req DELETE "/customers/$cid" "$A1"; if [ "$MODE" = delete-500 ]; then check "delete again (delete-500)" 500; else check "delete again" 404; fi
    req DELETE "/customers/xyz" "$A1"; if [ "$MODE" = delete-500 ]; then check "delete xyz (delete-500)" 500; else check "delete xyz" 404; fi
    # --- transactions
    req POST /customers "$A1" '{"email":"bob@example.com","firstname":"Bob","lastname":"B"}'; local cid2; cid2=$(jget "$BODY" "J['id']")
    local body='{"description":"Order 1","amount":1500,"currency":{"iso":"XOF"},"callback_url":"https://shop.example/cb?order=1&x=y","custom_metadata":{"order":1},"customer":{"id":'$cid2'}}'
    req POST /transactions "$A1" "$body"
    local amt=1500 cb='https://shop.example/cb?order=1&x=y'
    [ "$MODE" = amount-plus-one ] && amt=1501
    [ "$MODE" = drop-callback-query ] && cb='https://shop.example/cb'
    check "create transaction" 201 "isinstance(J['id'],int) and J['amount']==$amt and J['callback_url']=='$cb' and J['status']=='pending' and J['description']=='Order 1' and isinstance(J['reference'],str) and $(iso "J['created_at']") and $(iso "J['updated_at']")"
    local tid; tid=$(jget "$BODY" "J['id']")
    req POST /transactions "$A1" '{"amount":200,"currency":{"iso":"XOF"},"customer":{"email":"new@example.com","firstname":"N","lastname":"C","phone_number":{"number":22997000001,"country":"BJ"}}}'
    check "create transaction inline customer" 201
    req POST /transactions "$A1" '{"amount":200,"currency":{"iso":"XOF"},"mode":"mtn"}'; check "create with mode" 201
    req POST /transactions "$A1" '{"currency":{"iso":"XOF"}}'; check "no amount" 400
    req POST /transactions "$A1" '{"amount":-1,"currency":{"iso":"XOF"}}'; check "negative amount" 400
    req POST /transactions "$A1" '{"amount":"abc","currency":{"iso":"XOF"}}'; check "string amount" 400
    req POST /transactions "$A1" '{"amount":1e400}'; check "huge float amount" 400
    req POST /transactions "$A1" '{"amount":123456789012345678901234567890}'; check "huge int amount" 400
    req POST /transactions "$A1" '{"amount":5,"currency":{"iso":"ZZZ"}}'; check "unknown currency" 400
    req POST /transactions "$A1" '{"amount":5,"currency":[]}'; check "currency array" 400
    req POST /transactions "$A1" '{"amount":5,"callback_url":"not a url"}'; check "bad callback" 400
    req POST /transactions "$A1" '{"amount":5,"customer":{"id":987654}}'; check "unknown customer" 404
    req POST /transactions "$A2" "{\"amount\":5,\"customer\":{\"id\":$cid2}}"; check "other acct customer" 404
    req POST /transactions "$A1" '{"amount":5,"unknown_field":1}'; check "unknown field" 400
    req POST /transactions "$A1" 'not json'; check "not json" 400
    req POST /transactions "$A1" '[1,2]'; check "array body" 400
    req POST /transactions "$A1" 'null'; check "null body" 400
    req POST /transactions "$A1" ''; check "empty body" 400
    req GET /transactions "$A1"; check "GET /transactions" 405
    # --- token
    req POST "/transactions/$tid/token" "$A1"; check "token" 200 "isinstance(J['token'],str) and J['url'].startswith('http')"
    local tok; tok=$(jget "$BODY" "J['token']")
    req POST "/transactions/$tid/token" "$A2"; check "token other acct" 404
    req POST "/transactions/999999/token" "$A1"; check "token unknown" 404
    req POST "/transactions/abc/token" "$A1"; check "token abc" 404
    # --- send
    req POST /transactions/mtn "$A2" "{\"token\":\"$tok\"}"; check "send other acct" 404
    req POST /transactions/nosuchmode "$A1" "{\"token\":\"$tok\"}"; check "send bad mode" 400
    req POST /transactions/mtn "$A1" '{"phone_number":{"number":"+22997000001","country":"BJ"}}'; check "send no token" 400
    req POST /transactions/mtn "$A1" '{"token":"000"}'; check "send unknown token" 404
    req POST /transactions/mtn "$A1" "{\"token\":\"$tok\",\"phone_number\":{\"number\":\"12\",\"country\":\"BJ\"}}"; check "send bad phone" 400
    req POST /transactions/mtn "$A1" "{\"token\":$tok,\"phone_number\":{\"number\":\"+22997000001\",\"country\":\"BJ\"}}"
    check "send" 200 "isinstance(J,list) and len(J)==1 and J[0]['amount']==$amt and J[0]['mode']=='mtn' and J[0]['status'] in ('pending','scheduled','sent','failed') and J[0]['currency_id']==1 and J[0]['account_id']==1 and $(iso "J[0]['approved_at']") and isinstance(J[0]['transaction_key'],str)"
    req POST /transactions/mtn "$A1" "{\"token\":\"$tok\"}"; check "send twice" 409
    # --- second account full flow
    req POST /transactions "$A2" '{"description":"acct2","amount":777,"currency":{"iso":"XOF"}}'; check "acct2 create" 201
    local tid2; tid2=$(jget "$BODY" "J['id']")
    req POST "/transactions/$tid2/token" "$A2"; check "acct2 token" 200; local tok2; tok2=$(jget "$BODY" "J['token']")
    req POST /transactions/mtn "$A2" "{\"token\":\"$tok2\",\"phone_number\":{\"number\":\"+22997000001\",\"country\":\"BJ\"}}"
    check "acct2 send" 200 "J[0]['currency_id']==2 and J[0]['account_id']==2"
}

MODES=("$@"); [ ${#MODES[@]} -eq 0 ] && MODES=(none amount-plus-one no-auth delete-500 drop-callback-query)
for m in "${MODES[@]}"; do
    d=$m; [ "$m" = none ] && d=""
    start_server "$d"
    run_checks "$m"
    stop_server
done
echo "passed: $PASS  failed: $FAIL"
[ $FAIL -eq 0 ]
