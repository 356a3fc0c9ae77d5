#!/bin/bash
# Self-check of the sandbox server with curl. Usage: ./test.sh  (starts its own servers)
cd "$(dirname "$0")"
PASS=0; FAIL=0
K1=sk_test_one; K2=sk_test_two
start() { # $1 port $2 defect
  PORT=$1 SECRET_KEY=$K1 SECOND_SECRET_KEY=$K2 DEFECT=$2 CALLBACKS=off setsid ./run.sh >/tmp/pm_srv_$1.log 2>&1 &
  SRV_PID=$!
  for i in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$1/v1/balances/1" && return; sleep 0.1; done
  echo "server did not start"; exit 1
}
stop() { kill -TERM -- -$SRV_PID 2>/dev/null; wait $SRV_PID 2>/dev/null; }
# req METHOD PATH KEY [BODY] -> sets CODE and BODY
req() {
  local m=$1 p=$2 k=$3 b=$4; local args=(-s -o /tmp/pm_body -w "%{http_code}" -X "$m")
  [ -n "$k" ] && args+=(-H "Authorization: Bearer $k")
  [ -n "$b" ] && args+=(-H 'Content-Type: application/json' --data-binary "$b")
  CODE=$(curl "${args[@]}" "$BASE$p"); BODY=$(cat /tmp/pm_body)
}
check() { # description expected_code [jq-filter that must be true]
  local ok=1
  [ "$CODE" = "$2" ] || ok=0
  if [ $ok = 1 ] && [ -n "$3" ]; then echo "$BODY" | jq -e "$3" >/dev/null 2>&1 || ok=0; fi
  if [ $ok = 1 ]; then PASS=$((PASS+1)); else FAIL=$((FAIL+1)); echo "FAIL: $1 (got $CODE) ${BODY:0:200}"; fi
}
ISO='test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?Z$")'

# ------------------------------------------------------------------ correct server
PORT=18181; BASE=http://127.0.0.1:$PORT/v1; start $PORT ""

req GET /balances/1 ""; check "no auth" 401 '.error|type=="string"'
req GET /balances/1 wrong; check "wrong key" 401
req GET /balances/1 "$K1 extra"; check "key with junk" 401
CODE=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Basic $K1" $BASE/balances/1); check "basic scheme" 401
CODE=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: bearer $K1" $BASE/balances/1); check "lowercase bearer" 200
CODE=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization:" $BASE/balances/1); check "empty auth header" 401

req GET /balances/1 $K1; check "balance 1" 200 "type==\"array\" and length==1 and (.[0]|.id==1 and .account_id==1 and (.amount|type)==\"number\" and (.mode|type)==\"string\" and (.created_at|$ISO) and (.updated_at|$ISO))"
req GET /balances/2 $K2; check "balance 2" 200 '.[0].id==2 and .[0].account_id==2'
req GET /balances/2 $K1; check "balance 2 other account" 404
req GET /balances/1 $K2; check "balance 1 other account" 404
req GET /balances/999 $K1; check "balance unknown" 404
req GET /balances/abc $K1; check "balance non-int" 404
req GET /balances/99999999999999999999999999 $K1; check "balance huge" 404
req GET /balances/-1 $K1; check "balance negative" 404
req GET /currencies/1 $K1; check "currency 1" 200 "type==\"array\" and (.[0]|.id==1 and .account_id==1 and .default==true and (.modes|index(\"mtn\"))!=null and (.name|type)==\"string\" and (.prefix|type)==\"string\" and (.suffix|type)==\"string\" and (.created_at|$ISO))"
req GET /currencies/2 $K2; check "currency 2" 200 '.[0].id==2 and .[0].account_id==2'
req GET /currencies/2 $K1; check "currency other account" 404
req GET /currencies/1.5 $K1; check "currency dotted" 404
req GET /currencies/1 ""; check "currency no auth" 401

# customers
req POST /customers $K1 '{"email":"a@example.com","firstname":"Ada","lastname":"L","phone_number":{"number":"+22997000001","country":"BJ"}}'
check "create customer" 200 '(.id|type)=="number" and .email=="a@example.com" and .phone_number.number=="+22997000001"'
C1=$(echo "$BODY" | jq .id)
req POST /customers $K1 '{"email":"b@example.com","firstname":"B","lastname":"C","phone_number":{"number":22997000001,"country":"BJ"}}'
check "create customer int phone" 200 '.phone_number.number==22997000001'
C2=$(echo "$BODY" | jq .id)
req POST /customers $K1 '{"email":5}'; check "customer bad email type" 400
req POST /customers $K1 '{"firstname":"x"}'; check "customer no email" 400
req POST /customers $K1 '{"email":"a@b.c","phone_number":"x"}'; check "customer bad phone" 400
req POST /customers $K1 '[1]'; check "customer array body" 400
req POST /customers $K1 '{bad json'; check "customer bad json" 400
req POST /customers "" '{"email":"a@b.c"}'; check "customer no auth" 401
req DELETE /customers/$C1 $K2; check "delete customer other account" 404
req DELETE /customers/$C1 ""; check "delete customer no auth" 401
req DELETE /customers/$C1 wrong; check "delete customer wrong key" 401
req DELETE /customers/$C1 $K1; check "delete customer" 204; [ -z "$BODY" ] || { FAIL=$((FAIL+1)); echo "FAIL: 204 has body"; }
req DELETE /customers/$C1 $K1; check "delete customer again" 404 '.error|type=="string"'
req DELETE /customers/999999 $K1; check "delete unknown" 404
req DELETE /customers/abc $K1; check "delete non-int" 404
req DELETE /customers/99999999999999999999999999999 $K1; check "delete huge" 404
req GET /customers/$C2 $K1; check "GET customer (wrong method)" 404
req PUT /customers/$C2 $K1 '{}'; check "PUT customer (wrong method)" 404

# transactions
TX='{"description":"Test","amount":1500,"currency":{"iso":"XOF"},"callback_url":"https://example.com/cb?a=1&b=two","custom_metadata":{"k":"v"},"customer":{"email":"c@example.com","firstname":"C","lastname":"D","phone_number":{"number":22997000001,"country":"BJ"}}}'
req POST /transactions $K1 "$TX"
check "create transaction" 200 "(.id|type)==\"number\" and (.reference|type)==\"string\" and .amount==1500 and .description==\"Test\" and .callback_url==\"https://example.com/cb?a=1&b=two\" and .status==\"pending\" and (.created_at|$ISO) and (.updated_at|$ISO)"
T1=$(echo "$BODY" | jq .id)
req POST /transactions $K1 "{\"description\":\"x\",\"amount\":10,\"customer\":{\"id\":$C2}}"; check "transaction with customer id" 200 '.amount==10 and .callback_url==null'
req POST /transactions $K1 "{\"description\":\"x\",\"amount\":10,\"customer\":{\"id\":$C1}}"; check "transaction deleted customer" 400
req POST /transactions $K2 "{\"description\":\"x\",\"amount\":10,\"customer\":{\"id\":$C2}}"; check "transaction other account customer" 400
req POST /transactions $K1 '{"amount":10,"mode":"mtn"}'; check "transaction minimal" 200
req POST /transactions $K1 '{"amount":10.0}'; check "transaction amount 10.0" 200 '.amount==10'
for bad in '{"amount":"10"}' '{"amount":1.5}' '{"amount":-5}' '{"amount":0}' '{"amount":true}' '{"amount":null}' '{}' \
  '{"amount":1e400}' '{"amount":99999999999999999999999999}' '{"amount":[1]}' '{"amount":10,"description":5}' \
  '{"amount":10,"currency":"XOF"}' '{"amount":10,"currency":{}}' '{"amount":10,"currency":{"iso":"ZZZ"}}' \
  '{"amount":10,"callback_url":5}' '{"amount":10,"callback_url":"not a url"}' '{"amount":10,"custom_metadata":[1]}' \
  '{"amount":10,"customer":5}' '{"amount":10,"customer":{"id":"1"}}' '{"amount":10,"mode":1}' \
  '{"amount":10,"customer":{"email":"x@y.z","phone_number":{"number":{},"country":"BJ"}}}' \
  'null' '"str"' '12' '' '{"amount":10' "$(printf '%.0s[' $(seq 1 3000))"; do
  req POST /transactions $K1 "$bad"; check "bad transaction $bad" 400
done
CODE=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $K1" -H 'Content-Type: application/json' --data-binary $'\xff\xfe' $BASE/transactions); check "non-utf8 body" 400
req POST /transactions "" '{"amount":10}'; check "transaction no auth" 401
req GET /transactions $K1; check "GET /transactions" 404

# token
req POST /transactions/$T1/token $K1; check "token" 200 '(.token|type)=="string" and (.url|type)=="string" and (.url|test("^https?://"))'
TOK=$(echo "$BODY" | jq -r .token); URL=$(echo "$BODY" | jq -r .url)
req POST /transactions/$T1/token $K1; check "token again same" 200 ".token==\"$TOK\""
req POST /transactions/$T1/token $K2; check "token other account" 404
req POST /transactions/$T1/token ""; check "token no auth" 401
req POST /transactions/999999/token $K1; check "token unknown" 404
req POST /transactions/abc/token $K1; check "token non-int" 404
req POST /transactions/999999999999999999999999/token $K1; check "token huge" 404
CODE=$(curl -s -o /dev/null -w '%{http_code}' "$URL"); check "payment url" 200

# send
req POST /transactions/mtn $K1 '{}'; check "send no token" 400
req POST /transactions/mtn $K1 '{"token":true}'; check "send bool token" 400
req POST /transactions/mtn $K1 '{"token":1.5}'; check "send float token" 400
req POST /transactions/mtn $K1 '{"token":"nope"}'; check "send unknown token" 404
req POST /transactions/mtn $K1 '{"token":123456789012345678901234567890}'; check "send huge token (not a known token)" 404
req POST /transactions/mtn $K1 'garbage'; check "send bad json" 400
req POST /transactions/mtn $K2 "{\"token\":\"$TOK\"}"; check "send other account" 404
req POST /transactions/mtn "" "{\"token\":\"$TOK\"}"; check "send no auth" 401
req POST /transactions/zzz $K1 "{\"token\":\"$TOK\"}"; check "send unknown mode" 400
req POST /transactions/mtn $K1 "{\"token\":\"$TOK\",\"phone_number\":{\"number\":\"abc\",\"country\":\"BJ\"}}"; check "send bad phone" 400
req POST /transactions/mtn $K1 "{\"token\":\"$TOK\",\"phone_number\":{\"number\":\"+22997000001\",\"country\":\"BJX\"}}"; check "send bad country" 400
req POST /transactions/mtn $K1 "{\"token\":$TOK,\"phone_number\":{\"number\":\"+22997000001\",\"country\":\"BJ\"}}"
check "send (integer token)" 200 "type==\"array\" and length==1 and (.[0]| (.reference|type)==\"string\" and .amount==1500 and .status==\"sent\" and .currency_id==1 and .mode==\"mtn\" and .last_error_code==null and (.created_at|$ISO) and (.updated_at|$ISO) and (.approved_at|$ISO) and .canceled_at==null and .deleted_at==null and (.payment_method_id|type)==\"number\" and (.transaction_key|type)==\"string\" and .account_id==1)"
req POST /transactions/mtn $K1 "{\"token\":\"$TOK\"}"; check "send again" 409
req POST /transactions $K2 '{"description":"acct2","amount":700,"currency":{"iso":"XOF"}}'; check "acct2 transaction" 200 '.amount==700'
T2=$(echo "$BODY" | jq .id)
req POST /transactions/$T2/token $K2; TOK2=$(echo "$BODY" | jq -r .token)
req POST /transactions/mtn $K2 "{\"token\":\"$TOK2\",\"phone_number\":{\"number\":\"+22997000001\",\"country\":\"BJ\"}}"; check "send acct2 (string token)" 200 '.[0].account_id==2 and .[0].currency_id==2 and .[0].amount==700'

# concurrency: 30 parallel keep-alive clients
seq 1 600 | xargs -P 30 -I{} curl -s -o /dev/null -w '%{http_code}\n' -H "Authorization: Bearer $K1" -H 'Content-Type: application/json' --data-binary '{"description":"c","amount":5}' $BASE/transactions > /tmp/pm_conc
N=$(grep -c '^200$' /tmp/pm_conc); CODE=$N; check "600 concurrent creations" 600
stop

# ------------------------------------------------------------------ defects
PORT=18182; BASE=http://127.0.0.1:$PORT/v1
start $PORT amount-plus-one
req POST /transactions $K1 '{"description":"x","amount":100}'; check "defect amount-plus-one" 200 '.amount==101'
stop
start $PORT no-auth
req GET /balances/1 ""; check "defect no-auth: no header" 200 '.[0].account_id==1'
req GET /balances/1 wrong; check "defect no-auth: wrong key" 401
stop
start $PORT delete-500
req DELETE /customers/4242 $K1; check "defect delete-500" 500
req POST /customers $K1 '{"email":"z@example.com"}'; CID=$(echo "$BODY" | jq .id)
req DELETE /customers/$CID $K1; check "defect delete-500 existing" 204
stop
start $PORT drop-callback-query
req POST /transactions $K1 '{"amount":10,"callback_url":"https://example.com/cb?a=1"}'; check "defect drop-callback-query" 200 '.callback_url=="https://example.com/cb"'
stop

echo "PASS=$PASS FAIL=$FAIL"
[ $FAIL = 0 ]
