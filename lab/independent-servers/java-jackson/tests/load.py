#!/usr/bin/env python3
"""Load check: N keep-alive clients issuing a mix of operations against a running server.
Usage: PORT=... SECRET_KEY=... SECOND_SECRET_KEY=... tests/load.py [clients] [requests_per_client]"""
import http.client, json, os, sys, threading, time

PORT = int(os.environ.get("PORT", "28931"))
KEYS = [os.environ.get("SECRET_KEY", "sk_test_one"), os.environ.get("SECOND_SECRET_KEY", "sk_test_two")]
CLIENTS = int(sys.argv[1]) if len(sys.argv) > 1 else 30
PER = int(sys.argv[2]) if len(sys.argv) > 2 else 200
errors, latencies, lock = [], [], threading.Lock()

def worker(n):
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=10)
    key = KEYS[n % 2]
    acct = n % 2 + 1
    h = {"Authorization": "Bearer " + key, "Content-Type": "application/json"}
    def call(method, path, body=None, expect=None):
        t0 = time.time()
        conn.request(method, "/v1" + path, body=None if body is None else json.dumps(body), headers=h)
        r = conn.getresponse(); data = r.read()
        with lock:
            latencies.append(time.time() - t0)
            if expect is not None and r.status != expect:
                errors.append((method, path, r.status, data[:200]))
        return r.status, (json.loads(data) if data and r.getheader("Content-Type", "").startswith("application/json") else None)
    for i in range(PER // 8):
        call("GET", f"/balances/{acct}", expect=200)
        call("GET", f"/currencies/{acct}", expect=200)
        _, c = call("POST", "/customers", {"email": f"u{n}_{i}@ex.com", "firstname": "A", "lastname": "B"}, expect=201)
        _, t = call("POST", "/transactions", {"description": "x", "amount": 100 + i, "currency": {"iso": "XOF"},
                                             "callback_url": "https://ex.com/cb?a=1", "customer": {"id": c["id"]}}, expect=201)
        _, tok = call("POST", f"/transactions/{t['id']}/token", expect=200)
        call("POST", "/transactions/mtn", {"token": tok["token"], "phone_number": {"number": "+22997000001", "country": "BJ"}}, expect=200)
        call("DELETE", f"/customers/{c['id']}", expect=204)
        call("POST", "/transactions", '{"amount": "bad"', expect=400)
    conn.close()

t0 = time.time()
threads = [threading.Thread(target=worker, args=(n,)) for n in range(CLIENTS)]
for t in threads: t.start()
for t in threads: t.join()
el = time.time() - t0
latencies.sort()
print(f"{len(latencies)} requests in {el:.2f}s ({len(latencies)/el:.0f}/s), p50={latencies[len(latencies)//2]*1000:.1f}ms "
      f"p99={latencies[int(len(latencies)*0.99)]*1000:.1f}ms max={latencies[-1]*1000:.1f}ms, errors={len(errors)}")
for e in errors[:10]: print(e)
sys.exit(1 if errors else 0)
