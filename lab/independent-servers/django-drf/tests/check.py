#!/usr/bin/env python3
"""Self-check of the sandbox: starts the server once per DEFECT mode and exercises it.

Usage: /usr/bin/python3 tests/check.py [port]
"""
import http.client
import json
import os
import signal
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PORT = int(sys.argv[1]) if len(sys.argv) > 1 else 18123
K1, K2 = "sk_test_account_one", "sk_test_account_two"
FAILURES = []


class Client:
    def __init__(self, key=K1):
        self.key = key
        self.conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)

    def req(self, method, path, body=None, key="default", headers=None, raw=None):
        h = dict(headers or {})
        key = self.key if key == "default" else key
        if key is not None:
            h["Authorization"] = "Bearer " + key
        data = raw
        if body is not None:
            data = json.dumps(body).encode()
            h.setdefault("Content-Type", "application/json")
        chunked = h.pop("X-Chunked", None)
        self.conn.request(method, "/v1" + path, body=data, headers=h, encode_chunked=bool(chunked))
        r = self.conn.getresponse()
        payload = r.read()
        try:
            parsed = json.loads(payload) if payload else None
        except ValueError:
            parsed = payload
        return r.status, parsed


def check(name, cond, detail=""):
    if not cond:
        FAILURES.append("%s %s" % (name, detail))
        print("FAIL", name, detail)


def expect(name, got, status):
    ok = got[0] == status if isinstance(status, int) else got[0] in status
    check(name, ok, "-> %s %r" % (got[0], got[1] if not isinstance(got[1], bytes) else got[1][:80]))
    return got[1]


def start(defect=""):
    env = dict(os.environ, PORT=str(PORT), SECRET_KEY=K1, SECOND_SECRET_KEY=K2, DEFECT=defect, CALLBACKS="off")
    p = subprocess.Popen(["./run.sh"], cwd=HERE, env=env, start_new_session=True)
    t0 = time.time()
    while time.time() - t0 < 20:
        try:
            c = http.client.HTTPConnection("127.0.0.1", PORT, timeout=2)
            c.request("GET", "/v1/balances/1")
            c.getresponse().read()
            print("server (DEFECT=%r) ready in %.2fs" % (defect, time.time() - t0))
            return p
        except OSError:
            time.sleep(0.1)
    raise SystemExit("server did not start")


def stop(p):
    os.killpg(p.pid, signal.SIGTERM)
    p.wait(10)


def is_dt(v):
    from datetime import datetime
    return isinstance(v, str) and datetime.fromisoformat(v.replace("Z", "+00:00")) is not None


def tx_body(**kw):
    b = {"description": "Order 42", "amount": 1500, "currency": {"iso": "XOF"},
         "callback_url": "https://merchant.example.com/cb?order=42&x=1",
         "custom_metadata": {"order": 42}, "customer": {"email": "a@example.com", "firstname": "Ada",
                                                       "lastname": "Lovelace",
                                                       "phone_number": {"number": 22997000001, "country": "BJ"}}}
    b.update(kw)
    return b


def correct_server_suite():
    c, c2 = Client(K1), Client(K2)
    # ---- authentication
    for path, method in [("/balances/1", "GET"), ("/currencies/1", "GET"), ("/customers/1", "DELETE"),
                         ("/transactions", "POST"), ("/transactions/1/token", "POST"), ("/transactions/mtn", "POST"),
                         ("/customers", "POST")]:
        expect("noauth " + method + path, c.req(method, path, key=None), 401)
        expect("badkey " + method + path, c.req(method, path, key="nope"), 401)
        expect("basic " + method + path, c.req(method, path, key=None, headers={"Authorization": "Basic eDp5"}), 401)
        expect("bearer-empty " + method + path, c.req(method, path, key=None, headers={"Authorization": "Bearer"}), 401)
    expect("lowercase bearer", c.req("GET", "/balances/1", key=None, headers={"Authorization": "bearer " + K1}), 200)
    expect("key with latin1", c.req("GET", "/balances/1", key=None, headers={"Authorization": "Bearer \xe9\xe9"}), 401)

    # ---- balances / currencies
    b = expect("balance 1", c.req("GET", "/balances/1"), 200)
    check("balance shape", isinstance(b, list) and len(b) == 1 and b[0]["id"] == 1 and b[0]["account_id"] == 1
          and isinstance(b[0]["amount"], int) and isinstance(b[0]["mode"], str) and is_dt(b[0]["created_at"]), b)
    b = expect("balance 2 by account 2", c2.req("GET", "/balances/2"), 200)
    check("balance 2 shape", b[0]["account_id"] == 2, b)
    expect("balance 2 by account 1", c.req("GET", "/balances/2"), 404)
    expect("balance 1 by account 2", c2.req("GET", "/balances/1"), 404)
    for bad in ["999", "abc", "0", "-1", "1.5", "9" * 30, "%00", "%C3%A9", "%D9%A1"]:
        expect("balance " + bad, c.req("GET", "/balances/" + bad), 404)
        expect("currency " + bad, c.req("GET", "/currencies/" + bad), 404)
    cur = expect("currency 1", c.req("GET", "/currencies/1"), 200)
    check("currency shape", isinstance(cur, list) and cur[0]["id"] == 1 and "mtn" in cur[0]["modes"]
          and isinstance(cur[0]["default"], bool) and cur[0]["account_id"] == 1, cur)
    expect("currency 2 by 2", c2.req("GET", "/currencies/2"), 200)
    expect("currency 2 by 1", c.req("GET", "/currencies/2"), 404)
    expect("POST balance", c.req("POST", "/balances/1", body={}), 405)
    expect("GET balances list", c.req("GET", "/balances"), (404, 405))
    expect("DELETE currency", c.req("DELETE", "/currencies/1"), 405)
    expect("html accept", c.req("GET", "/balances/1", headers={"Accept": "text/html"}), 200)
    expect("OPTIONS", c.req("OPTIONS", "/transactions"), 200)
    expect("OPTIONS send", c.req("OPTIONS", "/transactions/mtn"), 200)
    expect("HEAD", c.req("HEAD", "/balances/1"), 200)
    expect("after HEAD, same connection", c.req("GET", "/balances/1"), 200)

    # ---- customers
    cu = expect("create customer", c.req("POST", "/customers", body={
        "email": "x@example.com", "firstname": "X", "lastname": "Y",
        "phone_number": {"number": "+22997000001", "country": "BJ"}}), 201)
    check("customer id int", isinstance(cu.get("id"), int), cu)
    cu_min = expect("create customer minimal", c.req("POST", "/customers", body={
        "email": "y@example.com", "firstname": "A", "lastname": "B"}), 201)
    for name, body in [("missing email", {"firstname": "a", "lastname": "b"}),
                       ("bad email", {"email": "nope", "firstname": "a", "lastname": "b"}),
                       ("firstname obj", {"email": "a@b.co", "firstname": {}, "lastname": "b"}),
                       ("phone str", {"email": "a@b.co", "firstname": "a", "lastname": "b", "phone_number": "123"}),
                       ("list body", [1, 2]), ("null body", None)]:
        if body is None:
            expect("customer " + name, c.req("POST", "/customers", raw=b"null", headers={"Content-Type": "application/json"}), 400)
        else:
            expect("customer " + name, c.req("POST", "/customers", body=body), 400)
    expect("delete other account's customer", c2.req("DELETE", "/customers/%d" % cu["id"]), 404)
    st, body = c.req("DELETE", "/customers/%d" % cu["id"])
    check("delete customer 204", st == 204 and body is None, (st, body))
    expect("delete again", c.req("DELETE", "/customers/%d" % cu["id"]), 404)
    for bad in ["999999", "abc", "9" * 40, "0", "1e3"]:
        expect("delete customer " + bad, c.req("DELETE", "/customers/" + bad), 404)
    expect("GET customer", c.req("GET", "/customers/%d" % cu_min["id"]), 405)

    # ---- transactions
    tx = expect("create tx", c.req("POST", "/transactions", body=tx_body()), 201)
    check("tx fields", set(tx) == {"id", "reference", "amount", "description", "callback_url", "status",
                                  "created_at", "updated_at"}, tx)
    check("tx values", tx["amount"] == 1500 and tx["status"] == "pending" and isinstance(tx["id"], int)
          and tx["callback_url"] == "https://merchant.example.com/cb?order=42&x=1" and is_dt(tx["updated_at"]), tx)
    tx_min = expect("create tx minimal", c.req("POST", "/transactions", body={"amount": 100, "currency": {"iso": "XOF"}}), 201)
    check("tx minimal strings", tx_min["description"] == "" and tx_min["callback_url"] == "", tx_min)
    expect("create tx by customer id", c.req("POST", "/transactions", body=tx_body(customer={"id": cu_min["id"]})), 201)
    expect("tx with mode", c.req("POST", "/transactions", body=tx_body(mode="mtn")), 201)
    expect("amount as string", c.req("POST", "/transactions", body=tx_body(amount="200")), 201)
    for name, kw in [("amount float", {"amount": 10.5}), ("amount bool", {"amount": True}),
                     ("amount huge", {"amount": 10**30}), ("amount negative", {"amount": -5}),
                     ("amount null", {"amount": None}), ("amount obj", {"amount": {}}),
                     ("amount 1e400", {"amount": 1e308 * 10}),
                     ("currency str", {"currency": "XOF"}), ("currency unknown", {"currency": {"iso": "EUR"}}),
                     ("currency empty", {"currency": {}}), ("customer other acct", {"customer": {"id": 10**6}}),
                     ("customer huge id", {"customer": {"id": 10**25}}), ("customer id str", {"customer": {"id": "x"}}),
                     ("customer incomplete", {"customer": {"email": "a@b.co"}}), ("customer list", {"customer": [1]}),
                     ("callback bad", {"callback_url": "not a url"}), ("callback int", {"callback_url": 5}),
                     ("metadata list", {"custom_metadata": [1]}), ("mode unknown", {"mode": "visa"}),
                     ("description obj", {"description": {"a": 1}}), ("nul char", {"description": "a\x00b"})]:
        expect("tx " + name, c.req("POST", "/transactions", body=tx_body(**kw)), 400)
    expect("tx missing amount", c.req("POST", "/transactions", body={"currency": {"iso": "XOF"}}), 400)
    expect("tx missing currency", c.req("POST", "/transactions", body={"amount": 5}), 400)
    expect("tx other account's customer", c2.req("POST", "/transactions", body=tx_body(customer={"id": cu_min["id"]})), 400)
    jh = {"Content-Type": "application/json"}
    expect("tx bad json", c.req("POST", "/transactions", raw=b"{bad", headers=jh), 400)
    expect("tx empty body", c.req("POST", "/transactions", raw=b"", headers=jh), 400)
    expect("tx no content-type", c.req("POST", "/transactions", raw=b'{"amount": 1}'), (400, 415))
    expect("tx text/plain", c.req("POST", "/transactions", raw=b'{"amount": 1}', headers={"Content-Type": "text/plain"}), 415)
    expect("tx form", c.req("POST", "/transactions", raw=b"amount=1&currency=XOF",
                            headers={"Content-Type": "application/x-www-form-urlencoded"}), 400)
    expect("tx multipart garbage", c.req("POST", "/transactions", raw=b"zzz",
                                         headers={"Content-Type": "multipart/form-data; boundary=x"}), 400)
    expect("tx deep json", c.req("POST", "/transactions", raw=b"[" * 100000 + b"]" * 100000, headers=jh), 400)
    expect("tx lone surrogate", c.req("POST", "/transactions", raw=b'{"amount":1,"currency":{"iso":"XOF"},"description":"\\ud800"}', headers=jh), 400)
    expect("tx surrogate iso", c.req("POST", "/transactions", raw=b'{"amount":1,"currency":{"iso":"\\udfff"}}', headers=jh), 400)
    expect("tx 5000 digits", c.req("POST", "/transactions", raw=b'{"amount":' + b"9" * 5000 + b'}', headers=jh), 400)
    expect("tx NaN", c.req("POST", "/transactions", raw=b'{"amount":NaN,"currency":{"iso":"XOF"}}', headers=jh), 400)
    expect("tx invalid utf8", c.req("POST", "/transactions", raw=b'{"description":"\xff\xfe"}', headers=jh), 400)
    expect("tx unicode ok", c.req("POST", "/transactions", body=tx_body(description="caf\u00e9 \U0001F600")), 201)
    expect("chunked body", c.req("POST", "/transactions", raw=iter([json.dumps(tx_body()).encode()]),
                                 headers=dict(jh, **{"Transfer-Encoding": "chunked", "X-Chunked": "1"})), 201)
    expect("after chunked, same connection", c.req("GET", "/balances/1"), 200)
    expect("GET transactions", c.req("GET", "/transactions"), 405)
    expect("unknown path", c.req("GET", "/nope"), 404)

    # ---- token
    link = expect("token", c.req("POST", "/transactions/%d/token" % tx["id"]), 200)
    check("token shape", isinstance(link.get("token"), str) and isinstance(link.get("url"), str), link)
    link2 = expect("token again", c.req("POST", "/transactions/%d/token" % tx["id"], body={"x": 1}), 200)
    check("token stable", link2 == link, (link, link2))
    expect("token other account", c2.req("POST", "/transactions/%d/token" % tx["id"]), 404)
    for bad in ["999999", "abc", "9" * 30]:
        expect("token " + bad, c.req("POST", "/transactions/%s/token" % bad), 404)
    expect("GET token", c.req("GET", "/transactions/%d/token" % tx["id"]), 405)

    # ---- send
    sent = expect("send str token", c.req("POST", "/transactions/mtn", body={
        "token": link["token"], "phone_number": {"number": "+22997000001", "country": "BJ"}}), 200)
    check("send shape", isinstance(sent, list) and len(sent) == 1, sent)
    it = sent[0]
    fields = {"reference", "amount", "status", "currency_id", "mode", "last_error_code", "created_at", "updated_at",
              "approved_at", "canceled_at", "deleted_at", "payment_method_id", "transaction_key", "account_id"}
    check("intent fields", set(it) == fields, it)
    check("intent values", it["amount"] == 1500 and it["mode"] == "mtn" and it["currency_id"] == 1
          and it["account_id"] == 1 and isinstance(it["payment_method_id"], int), it)
    expect("send int token", c.req("POST", "/transactions/mtn", body={"token": int(link["token"])}), 200)
    expect("send moov", c.req("POST", "/transactions/moov", body={"token": link["token"]}), 200)
    expect("send bad mode", c.req("POST", "/transactions/visa", body={"token": link["token"]}), 400)
    expect("send numeric mode", c.req("POST", "/transactions/12345", body={"token": link["token"]}), 400)
    expect("send bad token", c.req("POST", "/transactions/mtn", body={"token": 1}), 400)
    expect("send token alpha", c.req("POST", "/transactions/mtn", body={"token": "abc"}), 400)
    expect("send token huge", c.req("POST", "/transactions/mtn", body={"token": 10**200}), 400)
    expect("send no token", c.req("POST", "/transactions/mtn", body={}), 400)
    expect("send phone wrong", c.req("POST", "/transactions/mtn", body={"token": link["token"], "phone_number": 5}), 400)
    expect("send phone incomplete", c.req("POST", "/transactions/mtn", body={"token": link["token"], "phone_number": {"number": "1"}}), 400)
    expect("send other account", c2.req("POST", "/transactions/mtn", body={"token": link["token"]}), 400)
    expect("send bad json", c.req("POST", "/transactions/mtn", raw=b"[", headers=jh), 400)
    expect("GET send", c.req("GET", "/transactions/mtn"), 405)

    # ---- account 2 end to end
    t2 = expect("acct2 tx", c2.req("POST", "/transactions", body=tx_body()), 201)
    l2 = expect("acct2 token", c2.req("POST", "/transactions/%d/token" % t2["id"]), 200)
    s2 = expect("acct2 send", c2.req("POST", "/transactions/mtn", body={"token": l2["token"]}), 200)
    check("acct2 intent", s2[0]["account_id"] == 2 and s2[0]["currency_id"] == 2, s2)
    expect("acct1 token on acct2 tx", c.req("POST", "/transactions/%d/token" % t2["id"]), 404)


def load_suite():
    errors, count, lock = [], [0], threading.Lock()

    def worker(n):
        cl = Client(K1 if n % 2 else K2)
        try:
            for i in range(60):
                tx = cl.req("POST", "/transactions", body=tx_body(amount=1000 + i))
                if tx[0] != 201:
                    errors.append(("create", tx)); continue
                link = cl.req("POST", "/transactions/%d/token" % tx[1]["id"])
                sent = cl.req("POST", "/transactions/mtn", body={"token": link[1]["token"]})
                cu = cl.req("POST", "/customers", body={"email": "l@example.com", "firstname": "L", "lastname": "T"})
                de = cl.req("DELETE", "/customers/%d" % cu[1]["id"])
                bal = cl.req("GET", "/balances/%d" % (1 if n % 2 else 2))
                for name, r, st in [("token", link, 200), ("send", sent, 200), ("cust", cu, 201), ("del", de, 204), ("bal", bal, 200)]:
                    if r[0] != st:
                        errors.append((name, r))
                with lock:
                    count[0] += 6
        except Exception as exc:
            errors.append(("exception", repr(exc)))

    t0 = time.time()
    threads = [threading.Thread(target=worker, args=(n,)) for n in range(30)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    dt = time.time() - t0
    print("load: %d requests in %.1fs (%.0f req/s), %d errors" % (count[0], dt, count[0] / dt, len(errors)))
    check("load errors", not errors, errors[:5])


def defect_suite(defect):
    c = Client(K1)
    if defect == "amount-plus-one":
        tx = c.req("POST", "/transactions", body=tx_body(amount=1500))[1]
        check("defect amount-plus-one", tx["amount"] == 1501, tx)
    elif defect == "no-auth":
        check("defect no-auth served", c.req("GET", "/balances/1", key=None)[0] == 200)
        check("defect no-auth wrong key refused", c.req("GET", "/balances/1", key="nope")[0] == 401)
    elif defect == "delete-500":
        check("defect delete-500", c.req("DELETE", "/customers/999999")[0] == 500)
        cu = c.req("POST", "/customers", body={"email": "x@example.com", "firstname": "X", "lastname": "Y"})[1]
        check("defect delete-500 existing still 204", c.req("DELETE", "/customers/%d" % cu["id"])[0] == 204)
    elif defect == "drop-callback-query":
        tx = c.req("POST", "/transactions", body=tx_body())[1]
        check("defect drop-callback-query", tx["callback_url"] == "https://merchant.example.com/cb", tx)


if __name__ == "__main__":
    p = start("")
    try:
        correct_server_suite()
        load_suite()
        correct_server_suite()
    finally:
        stop(p)
    for defect in ["amount-plus-one", "no-auth", "delete-500", "drop-callback-query"]:
        p = start(defect)
        try:
            defect_suite(defect)
        finally:
            stop(p)
    print("FAILURES: %d" % len(FAILURES))
    sys.exit(1 if FAILURES else 0)
