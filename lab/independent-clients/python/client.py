#!/usr/bin/env python3
"""Black-box integration client for the Payment Collection Service API (v1).

Standard library only.  Written from /work/shared/api-reference.md alone.

Environment:
  BASE_URL (or COLLECT_CONFORMANCE_PROXY_URL)  base address ending in /v1
  API_KEY                                       secret key of account A
  SECOND_API_KEY        (optional)              secret key of account B
  BALANCE_ID, CURRENCY_ID (optional)            ids belonging to account A
  SECOND_BALANCE_ID     (optional)              a balance of account B
  PAYMENT_MODE  (default mtn)   CURRENCY_ISO  (default XOF)
  PHONE_NUMBER  (default +22997000001)  PHONE_COUNTRY (default BJ)
  REQUEST_TIMEOUT (default 10 seconds)  CLIENT_VERBOSE=1 prints bodies

Exit codes: 0 run completed, 2 usage problem, 3 server unreachable.
"""

import http.client
import json
import os
import random
import socket
import ssl
import sys
import time
import urllib.parse

EXIT_OK = 0
EXIT_USAGE = 2
EXIT_UNREACHABLE = 3

UNKNOWN_ID = 987654321          # an id that should not exist anywhere
UNKNOWN_KEY = "sk_test_unknownkey0000000000000000000000"
UNKNOWN_MODE = "nosuchmode"

_NO_BODY = object()
_DEFAULT_AUTH = object()


class Unreachable(Exception):
    pass


class Response:
    def __init__(self, status, headers, raw):
        self.status = status
        self.headers = headers
        self.raw = raw
        self.text = raw.decode("utf-8", "replace")
        self.json = None
        self.is_json = False
        if raw.strip():
            try:
                self.json = json.loads(self.text)
                self.is_json = True
            except ValueError:
                pass

    @property
    def ok(self):
        return self.status is not None and 200 <= self.status < 300


def _matches(status, expect):
    """expect: None/'any', '2xx', '4xx', an int, or a tuple of those."""
    if expect is None or expect == "any":
        return True
    if status is None:
        return False
    if isinstance(expect, tuple):
        return any(_matches(status, e) for e in expect)
    if isinstance(expect, int):
        return status == expect
    if isinstance(expect, str) and len(expect) == 3 and expect.endswith("xx"):
        return status // 100 == int(expect[0])
    return False


def _expect_str(expect):
    if isinstance(expect, tuple):
        return "/".join(str(e) for e in expect)
    return str(expect)


class Client:
    def __init__(self, base_url, api_key, timeout=10.0, verbose=False):
        u = urllib.parse.urlsplit(base_url.rstrip("/"))
        if u.scheme not in ("http", "https") or not u.hostname:
            raise ValueError("base URL must be an http(s) URL: %r" % base_url)
        self.scheme = u.scheme
        self.host = u.hostname
        self.port = u.port
        self.base_path = u.path.rstrip("/")
        self.api_key = api_key
        self.timeout = timeout
        self.verbose = verbose
        self.count = 0
        self.classes = {}
        self.unexpected = 0
        self.errors = 0
        self.responded = 0
        self.consecutive_failures = 0

    def _conn(self):
        if self.scheme == "https":
            return http.client.HTTPSConnection(
                self.host, self.port, timeout=self.timeout,
                context=ssl.create_default_context())
        return http.client.HTTPConnection(self.host, self.port,
                                          timeout=self.timeout)

    def request(self, method, path, label, expect="any", key=None,
                auth=_DEFAULT_AUTH, json_body=_NO_BODY, raw=None,
                check=None):
        """Send one request; print one line; never raise except Unreachable.

        auth: _DEFAULT_AUTH -> "Bearer <key or api_key>"; None -> no header;
              a string -> used verbatim as the Authorization value.
        json_body: a Python value serialised as JSON; raw: bytes sent as-is
              (still labelled application/json, for malformed-body tests).
        check: optional callable(Response) -> str|None, a shape note.
        """
        full_path = self.base_path + path
        headers = {"Accept": "application/json",
                   "User-Agent": "independent-client-python/1.0"}
        if auth is _DEFAULT_AUTH:
            headers["Authorization"] = "Bearer " + (key or self.api_key)
        elif auth is not None:
            headers["Authorization"] = auth
        body = None
        if raw is not None:
            body = raw
            headers["Content-Type"] = "application/json"
        elif json_body is not _NO_BODY:
            body = json.dumps(json_body, ensure_ascii=False).encode("utf-8")
            headers["Content-Type"] = "application/json"
        if body is not None:
            headers["Content-Length"] = str(len(body))

        self.count += 1
        conn = self._conn()
        try:
            conn.request(method, full_path, body=body, headers=headers)
            r = conn.getresponse()
            resp = Response(r.status, dict(r.getheaders()), r.read())
        except ValueError as e:  # e.g. a header value http.client refuses
            conn.close()
            self.errors += 1
            print("%s %s ERR  %s (client-side: %s)" % (method, full_path,
                                                      label, e), flush=True)
            return Response(None, {}, b"")
        except (OSError, http.client.HTTPException, socket.timeout) as e:
            self.errors += 1
            self.consecutive_failures += 1
            print("%s %s ERR  %s (%s: %s)" % (method, full_path, label,
                                             type(e).__name__, e), flush=True)
            if self.responded == 0 or self.consecutive_failures >= 3:
                raise Unreachable(str(e))
            return Response(None, {}, b"")
        finally:
            conn.close()

        self.responded += 1
        self.consecutive_failures = 0
        cls = "%dxx" % (resp.status // 100)
        self.classes[cls] = self.classes.get(cls, 0) + 1
        notes = []
        if not _matches(resp.status, expect):
            self.unexpected += 1
            notes.append("UNEXPECTED (wanted %s)" % _expect_str(expect))
        if check is not None and resp.ok:
            try:
                n = check(resp)
            except Exception as e:  # a check must never break the run
                n = "check error: %s" % e
            if n:
                notes.append("shape: " + n)
        print("%s %s %s  %s%s" % (method, full_path, resp.status, label,
                                  ("  [" + "; ".join(notes) + "]") if notes
                                  else ""), flush=True)
        if self.verbose and resp.raw:
            print("    <- " + resp.text[:400].replace("\n", " "), flush=True)
        return resp


# ---------------------------------------------------------------- helpers

def unwrap(value):
    """Return the resource object: the value itself, or a single wrapped
    object under 'data'/'transaction' when the server wraps its answers."""
    if isinstance(value, dict):
        if "id" in value or "token" in value:
            return value
        for k in ("data", "transaction", "item", "result"):
            if isinstance(value.get(k), dict):
                return value[k]
    return value


def int_id(value):
    obj = unwrap(value)
    if isinstance(obj, dict):
        v = obj.get("id")
        if isinstance(v, int) and not isinstance(v, bool):
            return v
    return None


def check_transaction(resp):
    obj = unwrap(resp.json)
    if not isinstance(obj, dict):
        return "transaction is not an object"
    missing = [f for f in ("id", "status") if f not in obj]
    if missing:
        return "missing " + ",".join(missing)
    if not isinstance(obj["id"], int):
        return "id is not an integer"
    return None


def check_link(resp):
    obj = unwrap(resp.json)
    if not isinstance(obj, dict):
        return "link is not an object"
    missing = [f for f in ("token", "url") if f not in obj]
    if missing:
        return "missing " + ",".join(missing)
    if not isinstance(obj["url"], str):
        return "url is not a string"
    return None


def check_array(what):
    def _check(resp):
        if not isinstance(resp.json, list):
            return "%s is not a JSON array" % what
        if not all(isinstance(x, dict) for x in resp.json):
            return "%s holds non-objects" % what
        return None
    return _check


def check_no_body(resp):
    if resp.status == 204 and resp.raw.strip():
        return "204 with a body"
    if resp.status != 204:
        return "deletion answered %d, reference says 204" % resp.status
    return None


def check_customer(resp):
    if int_id(resp.json) is None:
        return "no integer id"
    return None


def one_char_changed(key, avoid=()):
    """The key with one character (in the middle) replaced, never equal to
    the key itself nor to any key in avoid (e.g. account B's key)."""
    pos = len(key) // 2
    for repl in "abcdefghijklmnopqrstuvwxyz0123456789":
        cand = key[:pos] + repl + key[pos + 1:]
        if cand != key and cand not in avoid:
            return cand
    return key + "x"


# ---------------------------------------------------------------- the run

class Run:
    def __init__(self, c, env):
        self.c = c
        self.key_a = env["API_KEY"].strip()
        self.key_b = (env.get("SECOND_API_KEY") or "").strip() or None
        self.balance_id = env.get("BALANCE_ID") or None
        self.currency_id = env.get("CURRENCY_ID") or None
        self.balance_b = env.get("SECOND_BALANCE_ID") or None
        self.mode = env.get("PAYMENT_MODE") or "mtn"
        self.iso = env.get("CURRENCY_ISO") or "XOF"
        self.phone = env.get("PHONE_NUMBER") or "+22997000001"
        self.country = env.get("PHONE_COUNTRY") or "BJ"
        digits = "".join(ch for ch in self.phone if ch.isdigit())
        self.phone_int = int(digits) if digits else 22997000001
        self.run_id = "%d-%04x" % (int(time.time()), random.randrange(0x10000))
        self.seq = 0

    # -- small builders
    def desc(self, what):
        self.seq += 1
        return "client-python %s #%d %s" % (self.run_id, self.seq, what)

    def currency(self):
        return {"iso": self.iso}

    def send_phone(self):
        return {"number": self.phone, "country": self.country}

    def skip(self, why):
        print("SKIP  %s" % why, flush=True)

    def mode_path(self, mode=None):
        return "/transactions/" + urllib.parse.quote(mode or self.mode, safe="")

    # -- operations
    def create_customer(self, what):
        body = {"email": "client-python+%s-%s@example.com" % (self.run_id, what),
                "firstname": "Test", "lastname": "Customer " + what,
                "phone_number": {"number": self.phone, "country": self.country}}
        r = self.c.request("POST", "/customers",
                           "create customer %s (optional, not in reference)" % what,
                           json_body=body, check=check_customer)
        if r.status in (400, 422):
            body["phone_number"] = {"number": self.phone_int,
                                    "country": self.country}
            r = self.c.request("POST", "/customers",
                               "create customer %s, phone number as integer" % what,
                               json_body=body, check=check_customer)
        return int_id(r.json) if r.ok else None

    def create_txn(self, label, body, key=None, expect="2xx"):
        r = self.c.request("POST", "/transactions", "create transaction: " + label,
                           expect=expect, key=key, json_body=body,
                           check=check_transaction)
        return int_id(r.json) if r.ok else None

    def get_link(self, tid, label, key=None, expect="2xx", auth=_DEFAULT_AUTH):
        r = self.c.request("POST", "/transactions/%s/token" % tid,
                           "payment link: " + label, expect=expect, key=key,
                           auth=auth, check=check_link)
        if r.ok:
            obj = unwrap(r.json)
            if isinstance(obj, dict) and obj.get("token") not in (None, ""):
                return obj["token"]
        return None

    def send(self, token, label, phone=True, mode=None, key=None,
             expect="2xx", auth=_DEFAULT_AUTH, extra=None):
        body = {"token": token}
        if phone:
            body["phone_number"] = self.send_phone()
        if extra:
            body.update(extra)
        return self.c.request("POST", self.mode_path(mode), "send: " + label,
                              expect=expect, key=key, auth=auth, json_body=body,
                              check=check_array("send response"))

    def new_link(self, label, key=None, body_extra=None):
        """Create a transaction and get its link; returns (tid, token)."""
        body = {"description": self.desc(label), "amount": 1000,
                "currency": self.currency()}
        if body_extra:
            body.update(body_extra)
        tid = self.create_txn(label, body, key=key)
        if tid is None:
            self.skip("no transaction id for '%s'" % label)
            return None, None
        tok = self.get_link(tid, label, key=key)
        if tok is None:
            self.skip("no token for '%s'" % label)
        return tid, tok

    # ------------------------------------------------------------ sections
    def section(self, title):
        print("# " + title, flush=True)

    def run(self):
        c = self.c
        self.section("setup: customers (POST /customers is optional)")
        self.cust1 = self.create_customer("one")
        self.cust2 = None
        if self.cust1 is None:
            self.skip("POST /customers not usable; customer-by-id and "
                      "deletion of a real customer are skipped")
        elif self.key_b:
            self.cust2 = self.create_customer("two")

        self.valid_creation()
        self.links_and_sends()
        self.reads()
        self.invalid_creation()
        self.invalid_links_sends()
        self.invalid_reads_and_deletes()
        self.authentication()
        if self.key_b:
            self.cross_account()
        else:
            self.skip("SECOND_API_KEY not set: cross-account cases skipped")
        self.deletion()

    def valid_creation(self):
        self.section("create transactions: valid bodies")
        self.t_min = self.create_txn(
            "minimal (amount, currency)",
            {"amount": 1000, "currency": self.currency()})
        self.t_desc = self.create_txn(
            "with description",
            {"description": self.desc("described"), "amount": 1100,
             "currency": self.currency()})
        self.t_full = self.create_txn(
            "description, callback_url, custom_metadata",
            {"description": self.desc("full ünïcødé"), "amount": 1200,
             "currency": self.currency(),
             "callback_url": "https://example.com/callbacks/collect",
             "custom_metadata": {"order_id": "order-" + self.run_id,
                                 "source": "client-python",
                                 "nested": {"n": 1, "tags": ["a", "b"]}}})
        self.t_inline = self.create_txn(
            "inline customer, phone number as integer",
            {"description": self.desc("inline customer"), "amount": 1300,
             "currency": self.currency(),
             "customer": {"firstname": "Ada", "lastname": "Inline",
                          "email": "inline+%s@example.com" % self.run_id,
                          "phone_number": {"number": self.phone_int,
                                           "country": self.country}}})
        self.create_txn(
            "inline customer, phone number as string",
            {"description": self.desc("inline customer str"), "amount": 1350,
             "currency": self.currency(),
             "customer": {"firstname": "Bea", "lastname": "Inline",
                          "email": "inline2+%s@example.com" % self.run_id,
                          "phone_number": {"number": self.phone,
                                           "country": self.country}}})
        if self.cust1 is not None:
            self.create_txn(
                "existing customer by id",
                {"description": self.desc("existing customer"), "amount": 1400,
                 "currency": self.currency(), "customer": {"id": self.cust1}})
        else:
            self.skip("create transaction with an existing customer id")
        self.t_mode = self.create_txn(
            "with mode",
            {"description": self.desc("with mode"), "amount": 1500,
             "currency": self.currency(), "mode": self.mode})
        self.create_txn(
            "every documented field at once",
            {"description": self.desc("all fields"), "amount": 1600,
             "currency": self.currency(), "mode": self.mode,
             "callback_url": "https://example.com/callbacks/all",
             "custom_metadata": {"k": "v"},
             "customer": {"firstname": "Cy", "lastname": "All",
                          "email": "all+%s@example.com" % self.run_id,
                          "phone_number": {"number": self.phone_int,
                                           "country": self.country}}})

    def links_and_sends(self):
        self.section("payment links and sends")
        # the payment link twice for one transaction, then send with phone
        if self.t_full is not None:
            tok1 = self.get_link(self.t_full, "first call")
            tok2 = self.get_link(self.t_full, "second call, same transaction")
            tok = tok2 if tok2 is not None else tok1
            if tok is not None:
                self.send(tok, "token as returned, with phone number")
                self.send(tok, "same token sent a second time", expect="any")
        else:
            self.skip("payment link twice (no transaction)")
        # send without phone number (the transaction has an inline customer)
        if self.t_inline is not None:
            tok = self.get_link(self.t_inline, "inline-customer transaction")
            if tok is not None:
                self.send(tok, "without phone number", phone=False)
        # token as a JSON number when it is all digits
        if self.t_desc is not None:
            tok = self.get_link(self.t_desc, "for numeric token")
            if tok is not None:
                if str(tok).isdigit():
                    self.send(int(str(tok)), "token as a JSON number")
                else:
                    self.skip("token %r is not all digits: numeric form not sent"
                              % tok)
                    self.send(tok, "token as returned (not numeric)")
        # an unknown mode first, then the configured one
        if self.t_min is not None:
            tok = self.get_link(self.t_min, "minimal transaction")
            if tok is not None:
                self.send(tok, "unknown payment mode", mode=UNKNOWN_MODE,
                          expect="4xx")
                self.send(tok, "same token, configured mode")
        if self.t_mode is not None:
            self.get_link(self.t_mode, "transaction created with mode")

    def reads(self):
        self.section("balances and currencies")
        if self.balance_id:
            self.c.request("GET", "/balances/%s" % self.balance_id,
                           "balance of account A", expect="2xx",
                           check=check_array("balance response"))
        else:
            self.skip("BALANCE_ID not set")
        if self.currency_id:
            self.c.request("GET", "/currencies/%s" % self.currency_id,
                           "currency of account A", expect="2xx",
                           check=check_array("currency response"))
        else:
            self.skip("CURRENCY_ID not set")

    def invalid_creation(self):
        self.section("create transactions: invalid bodies")
        c = self.c
        cur = self.currency()
        c.request("POST", "/transactions", "malformed JSON", expect="4xx",
                  raw=b'{"amount": 1000, "currency": {"iso": "XOF"},')
        c.request("POST", "/transactions", "empty body with JSON content type",
                  expect="4xx", raw=b"")
        c.request("POST", "/transactions", "body is a JSON array", expect="4xx",
                  json_body=[{"amount": 1000, "currency": cur}])
        c.request("POST", "/transactions", "body is a JSON string", expect="4xx",
                  json_body="amount=1000")
        c.request("POST", "/transactions", "body is JSON null", expect="4xx",
                  json_body=None)
        c.request("POST", "/transactions", "body is a JSON number", expect="4xx",
                  json_body=1000)
        c.request("POST", "/transactions", "empty object", expect="4xx",
                  json_body={})
        base = {"description": "invalid " + self.run_id, "amount": 1000,
                "currency": cur}
        wrong = [
            ("amount as a string", {"amount": "1000abc"}),
            ("amount as a float", {"amount": 10.5}),
            ("amount as a boolean", {"amount": True}),
            ("amount as null", {"amount": None}),
            ("amount as an object", {"amount": {"value": 1000}}),
            ("currency as a string", {"currency": self.iso}),
            ("currency.iso as a number", {"currency": {"iso": 952}}),
            ("description as a number", {"description": 12345}),
            ("callback_url as a number", {"callback_url": 42}),
            ("custom_metadata as a string", {"custom_metadata": "meta"}),
            ("custom_metadata as an array", {"custom_metadata": [1, 2]}),
            ("customer as a string", {"customer": "someone"}),
            ("customer.id as a string", {"customer": {"id": "abc"}}),
            ("customer.phone_number as a string",
             {"customer": {"firstname": "X", "lastname": "Y",
                           "email": "x+%s@example.com" % self.run_id,
                           "phone_number": "not-an-object"}}),
            ("mode as a number", {"mode": 7}),
        ]
        for label, patch in wrong:
            body = dict(base)
            body.update(patch)
            c.request("POST", "/transactions", "wrong type: " + label,
                      expect="4xx", json_body=body, check=check_transaction)
        body = dict(base)
        body["customer"] = {"id": UNKNOWN_ID}
        c.request("POST", "/transactions", "unknown customer id",
                  expect="4xx", json_body=body, check=check_transaction)

    def invalid_links_sends(self):
        self.section("payment link and send: invalid requests")
        c = self.c
        c.request("POST", "/transactions/%d/token" % UNKNOWN_ID,
                  "payment link: unknown transaction id", expect="4xx")
        c.request("POST", "/transactions/abc/token",
                  "payment link: non-numeric transaction id", expect="4xx")
        c.request("POST", "/transactions/0/token",
                  "payment link: transaction id 0", expect="4xx")
        c.request("POST", "/transactions/-1/token",
                  "payment link: negative transaction id", expect="4xx")
        mp = self.mode_path()
        c.request("POST", mp, "send: malformed JSON", expect="4xx",
                  raw=b'{"token": "abc", "phone_number": {')
        c.request("POST", mp, "send: empty body with JSON content type",
                  expect="4xx", raw=b"")
        c.request("POST", mp, "send: body is a JSON array", expect="4xx",
                  json_body=[{"token": "abc"}])
        c.request("POST", mp, "send: body is a JSON string", expect="4xx",
                  json_body="token")
        c.request("POST", mp, "send: missing token (empty object)",
                  expect="4xx", json_body={})
        c.request("POST", mp, "send: missing token, phone number only",
                  expect="4xx", json_body={"phone_number": self.send_phone()})
        for label, tok in [("token null", None), ("token boolean", True),
                           ("token array", ["abc"]), ("token object", {"t": 1}),
                           ("token float", 1.5), ("token empty string", "")]:
            c.request("POST", mp, "send: wrong type, " + label, expect="4xx",
                      json_body={"token": tok,
                                 "phone_number": self.send_phone()})
        c.request("POST", mp, "send: unknown token (string)", expect="4xx",
                  json_body={"token": "unknowntoken" + self.run_id.replace("-", ""),
                             "phone_number": self.send_phone()})
        c.request("POST", mp, "send: unknown token (number)", expect="4xx",
                  json_body={"token": UNKNOWN_ID,
                             "phone_number": self.send_phone()})
        # wrong phone_number types, with a real token so only the phone is wrong
        _, tok = self.new_link("for phone-number type checks")
        if tok is not None:
            self.send(tok, "wrong type, phone_number as a string", phone=False,
                      extra={"phone_number": self.phone}, expect="4xx")
            self.send(tok, "wrong type, phone_number as an array", phone=False,
                      extra={"phone_number": [self.phone, self.country]},
                      expect="4xx")
            self.send(tok, "wrong type, phone_number.country as a number",
                      phone=False,
                      extra={"phone_number": {"number": self.phone,
                                              "country": 229}}, expect="4xx")
            # the reference types this number as a string; an integer may or
            # may not be accepted, so it is informational (and sent last)
            self.send(tok, "phone_number.number as an integer (informational)",
                      phone=False,
                      extra={"phone_number": {"number": self.phone_int,
                                              "country": self.country}},
                      expect="any")

    def invalid_reads_and_deletes(self):
        self.section("balances, currencies, customers: invalid ids")
        c = self.c
        c.request("GET", "/balances/%d" % UNKNOWN_ID, "unknown balance id",
                  expect="4xx")
        c.request("GET", "/balances/abc", "non-numeric balance id",
                  expect="4xx")
        c.request("GET", "/currencies/%d" % UNKNOWN_ID, "unknown currency id",
                  expect="4xx")
        c.request("GET", "/currencies/abc", "non-numeric currency id",
                  expect="4xx")
        c.request("GET", "/currencies/0", "currency id 0", expect="4xx")
        c.request("DELETE", "/customers/%d" % UNKNOWN_ID,
                  "delete unknown customer id", expect=404)
        c.request("DELETE", "/customers/abc", "delete non-numeric customer id",
                  expect="4xx")
        c.request("DELETE", "/customers/0", "delete customer id 0",
                  expect="4xx")

    def authentication(self):
        self.section("authentication")
        c = self.c
        k = self.key_a
        changed = one_char_changed(k, avoid=(self.key_b,))
        cases = [
            ("no Authorization header", None),
            ("unknown bearer key", "Bearer " + UNKNOWN_KEY),
            ("Basic scheme", "Basic " + k),
            ("Token scheme", "Token " + k),
            ("bearer key with one character changed", "Bearer " + changed),
            ("Bearer with an empty key", "Bearer "),
        ]
        tid, tok = self.new_link("for authentication checks")
        cust = self.cust1 if self.cust1 is not None else UNKNOWN_ID
        for label, auth in cases:
            if self.balance_id:
                c.request("GET", "/balances/%s" % self.balance_id,
                          "balance, " + label, expect=401, auth=auth)
            if self.currency_id:
                c.request("GET", "/currencies/%s" % self.currency_id,
                          "currency, " + label, expect=401, auth=auth)
            c.request("POST", "/transactions", "create transaction, " + label,
                      expect=401, auth=auth,
                      json_body={"description": self.desc("auth " + label),
                                 "amount": 1000, "currency": self.currency()})
            if tid is not None:
                c.request("POST", "/transactions/%s/token" % tid,
                          "payment link, " + label, expect=401, auth=auth)
            if tok is not None:
                c.request("POST", self.mode_path(), "send, " + label,
                          expect=401, auth=auth,
                          json_body={"token": tok,
                                     "phone_number": self.send_phone()})
            c.request("DELETE", "/customers/%s" % cust,
                      "delete customer, " + label, expect=401, auth=auth)
        # the same token still works with the right key
        if tok is not None:
            self.send(tok, "token after rejected attempts, valid key")

    def cross_account(self):
        self.section("cross-account (account B against account A's resources)")
        c = self.c
        kb = self.key_b
        # B asks for a payment link of A's transaction; then A does
        tid = self.t_mode
        if tid is None:
            tid, _ = self.new_link("for cross-account link")
        if tid is not None:
            self.get_link(tid, "account B, A's transaction", key=kb,
                          expect="4xx")
            self.get_link(tid, "account A again, own transaction")
        # B sends A's token; then A sends it
        _, tok = self.new_link("for cross-account send")
        if tok is not None:
            self.send(tok, "account B sends A's token", key=kb, expect="4xx")
            self.send(tok, "account A sends its own token afterwards")
        # B reads A's balance / currency; then A does
        if self.balance_id:
            c.request("GET", "/balances/%s" % self.balance_id,
                      "account B reads A's balance", key=kb, expect="4xx",
                      check=check_array("balance response"))
            c.request("GET", "/balances/%s" % self.balance_id,
                      "account A reads its balance again", expect="2xx",
                      check=check_array("balance response"))
        if self.currency_id:
            c.request("GET", "/currencies/%s" % self.currency_id,
                      "account B reads A's currency", key=kb, expect="any",
                      check=check_array("currency response"))
            c.request("GET", "/currencies/%s" % self.currency_id,
                      "account A reads its currency again", expect="2xx",
                      check=check_array("currency response"))
        # B's own balance, and A reading it
        if self.balance_b:
            c.request("GET", "/balances/%s" % self.balance_b,
                      "account B reads its own balance", key=kb, expect="2xx",
                      check=check_array("balance response"))
            c.request("GET", "/balances/%s" % self.balance_b,
                      "account A reads B's balance", expect="4xx",
                      check=check_array("balance response"))
        # B deletes A's customer; then A does (and again: 404)
        if self.cust2 is not None:
            c.request("DELETE", "/customers/%s" % self.cust2,
                      "account B deletes A's customer", key=kb, expect="4xx",
                      check=check_no_body)
            c.request("DELETE", "/customers/%s" % self.cust2,
                      "account A deletes its customer afterwards", expect=204,
                      check=check_no_body)
            c.request("DELETE", "/customers/%s" % self.cust2,
                      "account B deletes the already deleted customer",
                      key=kb, expect=404)
        else:
            self.skip("cross-account customer deletion (no customer)")
        # the other way round: B's own transaction, A tries to use it
        tid_b, tok_b = self.new_link("account B's own transaction", key=kb)
        if tid_b is not None:
            self.get_link(tid_b, "account A, B's transaction", expect="4xx")
        if tok_b is not None:
            self.send(tok_b, "account A sends B's token", expect="4xx")
            self.send(tok_b, "account B sends its own token afterwards",
                      key=kb)

    def deletion(self):
        self.section("customer deletion")
        c = self.c
        if self.cust1 is None:
            self.skip("deleting a real customer (no customer could be created)")
            return
        c.request("DELETE", "/customers/%s" % self.cust1, "delete customer",
                  expect=204, check=check_no_body)
        c.request("DELETE", "/customers/%s" % self.cust1,
                  "delete the same customer again", expect=404)
        self.create_txn("deleted customer referenced by id",
                        {"description": self.desc("deleted customer"),
                         "amount": 1000, "currency": self.currency(),
                         "customer": {"id": self.cust1}}, expect="4xx")


def main(argv):
    if len(argv) > 1 and argv[1] in ("-h", "--help"):
        print(__doc__)
        return EXIT_OK
    env = dict(os.environ)
    base = env.get("BASE_URL") or env.get("COLLECT_CONFORMANCE_PROXY_URL")
    if not base:
        print("usage: BASE_URL (or COLLECT_CONFORMANCE_PROXY_URL) must be set",
              file=sys.stderr)
        return EXIT_USAGE
    if not (env.get("API_KEY") or "").strip():
        print("usage: API_KEY must be set", file=sys.stderr)
        return EXIT_USAGE
    try:
        timeout = float(env.get("REQUEST_TIMEOUT") or 10)
        client = Client(base.strip(), env["API_KEY"].strip(), timeout=timeout,
                        verbose=env.get("CLIENT_VERBOSE") == "1")
    except ValueError as e:
        print("usage: %s" % e, file=sys.stderr)
        return EXIT_USAGE

    run = Run(client, env)
    print("# base %s, run %s, mode %s, currency %s, second account: %s"
          % (base, run.run_id, run.mode, run.iso,
             "yes" if run.key_b else "no"), flush=True)
    started = time.time()
    code = EXIT_OK
    try:
        run.run()
    except Unreachable as e:
        print("# server unreachable: %s" % e, file=sys.stderr, flush=True)
        code = EXIT_UNREACHABLE
    classes = ", ".join("%s=%d" % (k, v) for k, v in sorted(client.classes.items()))
    print("# total: %d requests (%s%serrors=%d), %d unexpected, %.1fs"
          % (client.count, classes, ", " if classes else "", client.errors,
             client.unexpected, time.time() - started), flush=True)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv))
