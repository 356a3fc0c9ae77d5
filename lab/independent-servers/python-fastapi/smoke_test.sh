#!/bin/bash
# Manual curl smoke test. Usage: ./smoke_test.sh PORT
B=http://127.0.0.1:${1:-4802}/v1; K="Authorization: Bearer sk_sandbox_independent_py_0001"; K2="Authorization: Bearer sk_sandbox_independent_py_0002"; J="Content-Type: application/json"
c(){ echo "--- $*"; curl -s -w ' [%{http_code}]\n' "$@"; }
c -X POST $B/transactions -H "$K" -H "$J" -d '{"description":"t","amount":1000,"currency":{"iso":"XOF"},"callback_url":"https://example.com/cb?a=1&b=2","custom_metadata":{"x":1},"customer":{"email":"a@b.co","firstname":"A","lastname":"B","phone_number":{"number":22997000001,"country":"bj"}}}'
c -X POST $B/transactions -H "$K" -H "$J" -d '{"amount":500,"currency":{"iso":"xof"},"customer":{"id":1}}'
c -X POST $B/transactions -H "$K2" -H "$J" -d '{"amount":500,"currency":{"iso":"XOF"},"customer":{"id":1}}'
c -X POST $B/transactions -H "$K" -H "$J" -d '{"amount":500,"currency":{"iso":"EUR"}}'
c -X POST $B/transactions -H "$K" -H "$J" -d '{"amount":-5,"currency":{"iso":"XOF"},"callback_url":"notaurl"}'
c -X POST $B/transactions -H "$K" -H "$J" -d '{bad'
c -X POST $B/transactions -H "$J" -d '{"amount":5,"currency":{"iso":"XOF"}}'
c -X POST $B/transactions -H "Authorization: Bearer nope" -H "$J" -d '{"amount":5,"currency":{"iso":"XOF"}}'
c -X POST $B/transactions -H "Authorization: Basic sk_sandbox_independent_py_0001" -H "$J" -d '{"amount":5,"currency":{"iso":"XOF"}}'
c -X POST $B/transactions/1/token -H "$K"
c -X POST $B/transactions/1/token -H "$K2"
c -X POST $B/transactions/99/token -H "$K"
c -X POST $B/transactions/abc/token -H "$K"
TOK=$(curl -s -X POST $B/transactions/1/token -H "$K" | python3 -c 'import sys,json;print(json.load(sys.stdin)["token"])')
TOK2=$(curl -s -X POST $B/transactions/2/token -H "$K" | python3 -c 'import sys,json;print(json.load(sys.stdin)["token"])')
c -X POST $B/transactions/orange -H "$K" -H "$J" -d "{\"token\":\"$TOK\"}"
c -X POST $B/transactions/mtn -H "$K" -H "$J" -d '{"token":"zzz"}'
c -X POST $B/transactions/mtn -H "$K2" -H "$J" -d "{\"token\":\"$TOK\"}"
c -X POST $B/transactions/mtn -H "$K" -H "$J" -d "{\"token\":\"$TOK\",\"phone_number\":{\"number\":\"+22997000001\",\"country\":\"BJ\"}}"
c -X POST $B/transactions/mtn -H "$K" -H "$J" -d "{\"token\":\"$TOK\"}"
c -X POST $B/transactions/moov -H "$K" -H "$J" -d "{\"token\":\"$TOK2\"}"
c -X POST $B/transactions/mtn -H "$K" -H "$J" -d "{}"
c -X POST $B/transactions/1/token -H "$K"
c $B/balances/1 -H "$K"; c $B/balances/2 -H "$K"; c $B/balances/2 -H "$K2"; c $B/balances/x -H "$K"
c $B/currencies/1 -H "$K"; c $B/currencies/1 -H "$K2"; c $B/currencies/3 -H "$K"; c $B/currencies/1
c -X DELETE $B/customers/1 -H "$K2"
c -X DELETE $B/customers/1 -H "$K"
c -X DELETE $B/customers/1 -H "$K"
c -X DELETE $B/customers/1
c -X POST $B/transactions -H "$K" -H "$J" -d '{"amount":500,"currency":{"iso":"XOF"},"customer":{"id":1}}'
c -X POST $B/transactions -H "$K" -H "$J" -d '{"amount":500,"currency":{"iso":"XOF"},"mode":"orange"}'
