#!/usr/bin/env python3
"""Type-confusion fuzz: every field of every body gets every kind of JSON value; no answer may be 5xx."""
import http.client, json, os, sys, itertools
PORT = int(os.environ.get("PORT", "28931")); KEY = os.environ.get("SECRET_KEY", "sk_test_one")
VALUES = [None, True, False, 0, -1, 1, 2**63, -2**63 - 1, 10**30, 1.5, -0.0, 1e308, "", "x", "123", "+22997000001",
          "XOF", "mtn", "http://a.b/c?d=e", [], [1], {}, {"a": 1}, {"iso": "XOF"}, {"number": "+22997000001", "country": "BJ"},
          {"id": 1}, "\u0000", "é" * 10]
BASES = {
    "/transactions": {"description": "d", "amount": 10, "currency": {"iso": "XOF"}, "callback_url": "https://a.b/c",
                      "custom_metadata": {"k": "v"}, "mode": "mtn",
                      "customer": {"email": "a@b.co", "firstname": "f", "lastname": "l", "phone_number": {"number": "+22997000001", "country": "BJ"}}},
    "/customers": {"email": "a@b.co", "firstname": "f", "lastname": "l", "phone_number": {"number": "+22997000001", "country": "BJ"}},
    "/transactions/mtn": {"token": "123456789012345", "phone_number": {"number": "+22997000001", "country": "BJ"}},
}
def paths(obj, prefix=()):
    for k, v in obj.items():
        yield prefix + (k,)
        if isinstance(v, dict):
            yield from paths(v, prefix + (k,))
def setp(obj, p, v):
    o = json.loads(json.dumps(obj)); cur = o
    for k in p[:-1]: cur = cur[k]
    cur[p[-1]] = v; return o
conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=10)
h = {"Authorization": "Bearer " + KEY, "Content-Type": "application/json"}
bad = 0; n = 0; statuses = {}
for path, base in BASES.items():
    for p in list(paths(base)):
        for v in VALUES:
            conn.request("POST", "/v1" + path, body=json.dumps(setp(base, p, v)), headers=h)
            r = conn.getresponse(); data = r.read(); n += 1
            statuses[r.status] = statuses.get(r.status, 0) + 1
            if r.status >= 500:
                bad += 1; print("5xx", path, p, repr(v), data[:200])
raw = [b"", b"{", b"}", b"[", b"\"x\"", b"1", b"true", b"{\"a\":}", b"{\"amount\":1,}", b"\xff\xfe\x00", b"{\"amount\":01}",
       b"{'amount':1}", b"{\"amount\":1}{\"amount\":2}", b"\x00\x00\x00{", b"{\"amount\":1e99999}", b"{\"amount\":-}"]
for path in BASES:
    for b in raw:
        conn.request("POST", "/v1" + path, body=b, headers=h); r = conn.getresponse(); data = r.read(); n += 1
        statuses[r.status] = statuses.get(r.status, 0) + 1
        if r.status >= 500: bad += 1; print("5xx", path, b, data[:200])
for m, p in itertools.product(["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"],
                              ["/customers", "/customers/1", "/transactions", "/transactions/1", "/transactions/1/token",
                               "/balances/1", "/currencies/1", "/balances", "/x", "/", "/transactions/1/token/x"]):
    conn.request(m, "/v1" + p, headers=h); r = conn.getresponse(); data = r.read(); n += 1
    statuses[r.status] = statuses.get(r.status, 0) + 1
    if r.status >= 500: bad += 1; print("5xx", m, p, data[:200])
print(f"{n} requests, statuses {dict(sorted(statuses.items()))}, 5xx: {bad}")
sys.exit(1 if bad else 0)
