#!/usr/bin/python3
"""Sandbox implementation of the Payment Collection Service API (v1).

Python 3 standard library only. In-memory storage guarded by one lock.
See README.md for how to run it and for every choice where the reference
is silent.
"""
import json
import os
import re
import secrets
import threading
import uuid
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit, urlunsplit

PORT = int(os.environ.get("PORT", "4811"))
DEFECT = os.environ.get("DEFECT", "").strip()
KEYS = {
    os.environ.get("SECRET_KEY") or "sk_sandbox_independent_pystd_0001": 1,
    os.environ.get("SECOND_SECRET_KEY") or "sk_sandbox_independent_pystd_0002": 2,
}
MAX_BODY = 1024 * 1024
INT_MAX = 9223372036854775807  # bigint range


def now():
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def type_name(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, float):
        return "float"
    if isinstance(v, str):
        return "str"
    if isinstance(v, list):
        return "list"
    return "dict"


def valid_url(s):
    try:
        parts = urlsplit(s)
    except ValueError:
        return False
    return parts.scheme.lower() in ("http", "https") and bool(parts.hostname)


EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
PHONE_RE = re.compile(r"^\+?[0-9]{4,15}$")
COUNTRY_RE = re.compile(r"^[A-Za-z]{2}$")


class ApiError(Exception):
    def __init__(self, status, body):
        super().__init__(status)
        self.status = status
        self.body = body


NOT_FOUND = {"detail": "Not found."}


# --------------------------------------------------------------------------
# Store
# --------------------------------------------------------------------------
class Store:
    def __init__(self):
        self.lock = threading.Lock()
        self.seq = {"customer": 0, "transaction": 0, "payment_method": 0}
        self.customers = {}
        self.transactions = {}
        self.tokens = {}  # token string -> transaction id
        self.intents = []
        t = now()
        self.balances = {
            1: {"id": 1, "amount": 0, "mode": "mtn", "account_id": 1,
                "created_at": t, "updated_at": t},
            2: {"id": 2, "amount": 0, "mode": "mtn", "account_id": 2,
                "created_at": t, "updated_at": t},
        }
        self.currencies = {}
        for cid in (1, 2):
            self.currencies[cid] = {
                "id": cid, "name": "FCFA", "iso": "XOF",
                "modes": ["mtn", "moov"], "prefix": "", "suffix": "F CFA",
                "account_id": cid, "created_at": t, "updated_at": t,
                "default": True,
            }

    def next_id(self, kind):
        self.seq[kind] += 1
        return self.seq[kind]


STORE = Store()


def public_currency(c):
    return {k: c[k] for k in ("id", "name", "modes", "prefix", "suffix",
                              "account_id", "created_at", "updated_at",
                              "default")}


def public_transaction(t):
    return {k: t[k] for k in ("id", "reference", "amount", "description",
                              "callback_url", "status", "created_at",
                              "updated_at")}


# --------------------------------------------------------------------------
# Validation helpers (DRF-style error dicts)
# --------------------------------------------------------------------------
def validate_phone(value, errors_out, number_int_ok=True):
    """Return a normalised phone dict or None; fill errors_out on problems."""
    if not isinstance(value, dict):
        errors_out["non_field_errors"] = [
            "Invalid data. Expected a dictionary, but got %s." % type_name(value)]
        return None
    number = value.get("number")
    country = value.get("country")
    if "number" not in value or number is None:
        errors_out["number"] = ["This field is required."] if "number" not in value \
            else ["This field may not be null."]
    elif is_int(number) and number_int_ok:
        if number < 0:
            errors_out["number"] = ["Enter a valid phone number."]
    elif isinstance(number, str):
        n = number.strip()
        if n == "":
            errors_out["number"] = ["This field may not be blank."]
        elif not PHONE_RE.match(n.replace(" ", "")):
            errors_out["number"] = ["Enter a valid phone number."]
        else:
            number = n
    else:
        errors_out["number"] = ["Not a valid string."]
    if "country" not in value or country is None:
        errors_out["country"] = ["This field is required."] if "country" not in value \
            else ["This field may not be null."]
    elif not isinstance(country, str):
        errors_out["country"] = ["Not a valid string."]
    elif country.strip() == "":
        errors_out["country"] = ["This field may not be blank."]
    elif not COUNTRY_RE.match(country.strip()):
        errors_out["country"] = ["Enter a valid two-letter country code."]
    else:
        country = country.strip()
    if errors_out:
        return None
    return {"number": number, "country": country}


def validate_optional_string(data, field, errors, allow_null=False):
    if field not in data:
        return None, False
    v = data[field]
    if v is None:
        if allow_null:
            return None, True
        errors[field] = ["This field may not be null."]
        return None, True
    if not isinstance(v, str):
        errors[field] = ["Not a valid string."]
        return None, True
    return v.strip(), True


# --------------------------------------------------------------------------
# Operations
# --------------------------------------------------------------------------
def op_delete_customer(account, cid):
    with STORE.lock:
        c = STORE.customers.get(cid)
        if c is None or c["account_id"] != account or c["deleted_at"] is not None:
            if DEFECT == "delete-500":
                raise ApiError(500, {"detail": "A server error occurred."})
            raise ApiError(404, NOT_FOUND)
        c["deleted_at"] = now()
        c["updated_at"] = c["deleted_at"]
    return 204, None


def op_create_transaction(account, data):
    if not isinstance(data, dict):
        raise ApiError(400, {"non_field_errors": [
            "Invalid data. Expected a dictionary, but got %s." % type_name(data)]})
    errors = {}

    # amount
    amount = data.get("amount")
    if "amount" not in data:
        errors["amount"] = ["This field is required."]
    elif amount is None:
        errors["amount"] = ["This field may not be null."]
    elif not is_int(amount):
        errors["amount"] = ["A valid integer is required."]
    elif amount < 1:
        errors["amount"] = ["Ensure this value is greater than or equal to 1."]
    elif amount > INT_MAX:
        errors["amount"] = ["Ensure this value is less than or equal to %d." % INT_MAX]

    # description
    description, _ = validate_optional_string(data, "description", errors)
    if description is None:
        description = ""

    # callback_url
    callback_url = None
    if "callback_url" in data and data["callback_url"] is not None:
        v = data["callback_url"]
        if not isinstance(v, str):
            errors["callback_url"] = ["Not a valid string."]
        elif v == "":
            callback_url = ""
        elif not valid_url(v):
            errors["callback_url"] = ["Enter a valid URL."]
        else:
            callback_url = v
            if DEFECT == "drop-callback-query":
                p = urlsplit(v)
                callback_url = urlunsplit((p.scheme, p.netloc, p.path, "", p.fragment))

    # custom_metadata
    custom_metadata = None
    if "custom_metadata" in data and data["custom_metadata"] is not None:
        if not isinstance(data["custom_metadata"], dict):
            errors["custom_metadata"] = [
                'Expected a dictionary of items but got type "%s".'
                % type_name(data["custom_metadata"])]
        else:
            custom_metadata = data["custom_metadata"]

    # mode (checked against the currency below)
    mode = None
    if "mode" in data and data["mode"] is not None:
        if not isinstance(data["mode"], str):
            errors["mode"] = ["Not a valid string."]
        else:
            mode = data["mode"].strip()

    with STORE.lock:
        # currency
        currency = None
        if "currency" not in data:
            errors["currency"] = ["This field is required."]
        elif data["currency"] is None:
            errors["currency"] = ["This field may not be null."]
        elif not isinstance(data["currency"], dict):
            errors["currency"] = {"non_field_errors": [
                "Invalid data. Expected a dictionary, but got %s."
                % type_name(data["currency"])]}
        else:
            iso = data["currency"].get("iso")
            if "iso" not in data["currency"]:
                errors["currency"] = {"iso": ["This field is required."]}
            elif iso is None:
                errors["currency"] = {"iso": ["This field may not be null."]}
            elif not isinstance(iso, str):
                errors["currency"] = {"iso": ["Not a valid string."]}
            elif iso.strip() == "":
                errors["currency"] = {"iso": ["This field may not be blank."]}
            else:
                for c in STORE.currencies.values():
                    if c["account_id"] == account and c["iso"] == iso.strip():
                        currency = c
                        break
                if currency is None:
                    errors["currency"] = {"iso": [
                        'Currency "%s" is not available.' % iso.strip()]}
        if mode is not None and "mode" not in errors and currency is not None:
            if mode not in currency["modes"]:
                errors["mode"] = ['"%s" is not a valid choice.' % mode]

        # customer
        customer_ref = None
        new_customer = None
        if "customer" in data and data["customer"] is not None:
            cust = data["customer"]
            cerr = {}
            if not isinstance(cust, dict):
                cerr["non_field_errors"] = [
                    "Invalid data. Expected a dictionary, but got %s." % type_name(cust)]
            elif "id" in cust and cust["id"] is not None:
                cid = cust["id"]
                if not is_int(cid):
                    cerr["id"] = ["Incorrect type. Expected pk value, received %s."
                                  % type_name(cid)]
                else:
                    c = STORE.customers.get(cid)
                    if c is None or c["account_id"] != account or c["deleted_at"]:
                        cerr["id"] = ['Invalid pk "%d" - object does not exist.' % cid]
                    else:
                        customer_ref = cid
            else:
                fields = {}
                for f in ("email", "firstname", "lastname"):
                    v, _ = validate_optional_string(cust, f, cerr, allow_null=True)
                    fields[f] = v
                if "email" not in cerr and fields.get("email"):
                    if not EMAIL_RE.match(fields["email"]):
                        cerr["email"] = ["Enter a valid email address."]
                phone = None
                if "phone_number" in cust and cust["phone_number"] is not None:
                    perr = {}
                    phone = validate_phone(cust["phone_number"], perr)
                    if perr:
                        cerr["phone_number"] = perr
                if not cerr and not any(fields.values()) and phone is None:
                    cerr["non_field_errors"] = [
                        "Provide an existing customer id or customer details "
                        "(email, firstname, lastname or phone_number)."]
                fields["phone_number"] = phone
                new_customer = fields
            if cerr:
                errors["customer"] = cerr

        if errors:
            raise ApiError(400, errors)

        t = now()
        if new_customer is not None:
            cid = STORE.next_id("customer")
            STORE.customers[cid] = {
                "id": cid, "account_id": account,
                "email": new_customer["email"] if new_customer["email"] is not None else "",
                "firstname": new_customer["firstname"] if new_customer["firstname"] is not None else "",
                "lastname": new_customer["lastname"] if new_customer["lastname"] is not None else "",
                "phone_number": new_customer["phone_number"],
                "created_at": t, "updated_at": t, "deleted_at": None,
            }
            customer_ref = cid
        tid = STORE.next_id("transaction")
        if DEFECT == "amount-plus-one":
            amount = amount + 1
        trx = {
            "id": tid, "account_id": account,
            "reference": "trx_" + secrets.token_hex(8),
            "amount": amount, "description": description,
            "callback_url": callback_url, "status": "pending",
            "created_at": t, "updated_at": t,
            "currency_id": currency["id"], "customer_id": customer_ref,
            "mode": mode, "custom_metadata": custom_metadata, "token": None,
        }
        STORE.transactions[tid] = trx
        return 201, public_transaction(trx)


def op_token(account, tid, base_url):
    with STORE.lock:
        trx = STORE.transactions.get(tid)
        if trx is None or trx["account_id"] != account:
            raise ApiError(404, NOT_FOUND)
        if trx["token"] is None:
            while True:
                tok = str(secrets.randbelow(9 * 10 ** 17) + 10 ** 17)  # 18 digits
                if tok not in STORE.tokens:
                    break
            trx["token"] = tok
            STORE.tokens[tok] = tid
        tok = trx["token"]
    return 200, {"token": tok, "url": "%s/pay/%s" % (base_url, tok)}


def op_send(account, mode, data):
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ApiError(400, {"non_field_errors": [
            "Invalid data. Expected a dictionary, but got %s." % type_name(data)]})
    errors = {}
    token = None
    if "token" not in data:
        errors["token"] = ["This field is required."]
    elif data["token"] is None:
        errors["token"] = ["This field may not be null."]
    elif is_int(data["token"]):
        token = str(data["token"])
    elif isinstance(data["token"], str):
        token = data["token"].strip()
        if token == "":
            errors["token"] = ["This field may not be blank."]
            token = None
    else:
        errors["token"] = ["A valid integer is required."]

    phone = None
    if "phone_number" in data and data["phone_number"] is not None:
        perr = {}
        phone = validate_phone(data["phone_number"], perr)
        if perr:
            errors["phone_number"] = perr

    with STORE.lock:
        trx = None
        if token is not None:
            tid = STORE.tokens.get(token)
            if tid is not None and STORE.transactions[tid]["account_id"] == account:
                trx = STORE.transactions[tid]
            else:
                errors["token"] = ["Invalid token."]
        if trx is not None:
            modes = STORE.currencies[trx["currency_id"]]["modes"]
        else:
            modes = set()
            for c in STORE.currencies.values():
                if c["account_id"] == account:
                    modes.update(c["modes"])
        if mode not in modes:
            errors["mode"] = ['"%s" is not a valid choice.' % mode]
        if trx is not None and trx["status"] != "pending" and "token" not in errors:
            errors["non_field_errors"] = [
                "Transaction is %s and can no longer be sent." % trx["status"]]
        if errors:
            raise ApiError(400, errors)

        t = now()
        pm_id = None
        if phone is not None:
            pm_id = STORE.next_id("payment_method")
        intent = {
            "reference": "pi_" + secrets.token_hex(8),
            "amount": trx["amount"],
            "status": "sent" if phone is not None else "scheduled",
            "currency_id": trx["currency_id"],
            "mode": mode,
            "last_error_code": None,
            "created_at": t,
            "updated_at": t,
            "approved_at": t if phone is not None else None,
            "canceled_at": None,
            "deleted_at": None,
            "payment_method_id": pm_id,
            "transaction_key": uuid.uuid4().hex,
            "account_id": account,
        }
        STORE.intents.append((trx["id"], intent))
        trx["mode"] = mode
        return 200, [dict(intent)]


def op_balance(account, bid):
    with STORE.lock:
        b = STORE.balances.get(bid)
        if b is None or b["account_id"] != account:
            raise ApiError(404, NOT_FOUND)
        return 200, [dict(b)]


def op_currency(account, cid):
    with STORE.lock:
        c = STORE.currencies.get(cid)
        if c is None or c["account_id"] != account:
            raise ApiError(404, NOT_FOUND)
        return 200, [public_currency(c)]


# --------------------------------------------------------------------------
# Routing
# --------------------------------------------------------------------------
ROUTES = [
    (re.compile(r"^/v1/customers/([0-9]+)/?$"), {"DELETE": "delete_customer"}),
    (re.compile(r"^/v1/transactions/?$"), {"POST": "create_transaction"}),
    (re.compile(r"^/v1/transactions/([0-9]+)/token/?$"), {"POST": "token"}),
    (re.compile(r"^/v1/transactions/([^/]+)/?$"), {"POST": "send"}),
    (re.compile(r"^/v1/balances/([0-9]+)/?$"), {"GET": "balance"}),
    (re.compile(r"^/v1/currencies/([0-9]+)/?$"), {"GET": "currency"}),
]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"
    server_version = "PaymentSandbox/1.0"
    sys_version = ""

    def log_message(self, format, *args):  # quiet
        pass

    def send_json(self, status, body, extra_headers=None):
        data = b"" if body is None else json.dumps(body, ensure_ascii=True).encode("ascii")
        self.send_response(status)
        if body is not None:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Connection", "close")
        for k, v in (extra_headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if data and self.command != "HEAD":
            self.wfile.write(data)
        self.close_connection = True

    def authenticate(self):
        header = self.headers.get("Authorization")
        if header is None:
            if DEFECT == "no-auth":
                return 1
            raise ApiError(401, {"detail": "Authentication credentials were not provided."})
        parts = header.strip().split()
        if len(parts) != 2 or parts[0].lower() != "bearer" or parts[1] not in KEYS:
            raise ApiError(401, {"detail": "No valid secret key provided."})
        return KEYS[parts[1]]

    def read_body(self):
        length = self.headers.get("Content-Length")
        if not length:
            return b""
        try:
            n = int(length)
        except ValueError:
            raise ApiError(400, {"detail": "Invalid Content-Length header."})
        if n < 0:
            raise ApiError(400, {"detail": "Invalid Content-Length header."})
        if n > MAX_BODY:
            raise ApiError(413, {"detail": "Request body too large."})
        return self.rfile.read(n)

    def parse_json(self, raw):
        if not raw.strip():
            return {}
        try:
            return json.loads(raw.decode("utf-8"))
        except (ValueError, UnicodeDecodeError) as e:
            raise ApiError(400, {"detail": "JSON parse error - %s" % e})

    def handle_any(self):
        try:
            path = self.path.split("?", 1)[0].split("#", 1)[0]
            match = None
            for regex, methods in ROUTES:
                m = regex.match(path)
                if m:
                    match = (m, methods)
                    break
            if match is None:
                raise ApiError(404, NOT_FOUND)
            m, methods = match
            account = self.authenticate()
            op = methods.get(self.command)
            if op is None:
                raise ApiError(405, {"detail": 'Method "%s" not allowed.' % self.command})
            raw = self.read_body()
            if op == "delete_customer":
                status, body = op_delete_customer(account, int(m.group(1)))
            elif op == "create_transaction":
                status, body = op_create_transaction(account, self.parse_json(raw))
            elif op == "token":
                host = self.headers.get("Host") or "127.0.0.1:%d" % PORT
                status, body = op_token(account, int(m.group(1)), "http://%s/v1" % host)
            elif op == "send":
                status, body = op_send(account, m.group(1), self.parse_json(raw))
            elif op == "balance":
                status, body = op_balance(account, int(m.group(1)))
            else:
                status, body = op_currency(account, int(m.group(1)))
            self.send_json(status, body)
        except ApiError as e:
            headers = {}
            if e.status == 401:
                headers["WWW-Authenticate"] = 'Bearer realm="api"'
            if e.status == 405:
                for regex, methods in ROUTES:
                    if regex.match(self.path.split("?", 1)[0]):
                        headers["Allow"] = ", ".join(sorted(methods))
                        break
            self.send_json(e.status, e.body, headers)
        except Exception:  # pragma: no cover - last resort
            try:
                self.send_json(500, {"detail": "A server error occurred."})
            except Exception:
                pass

    do_GET = do_POST = do_DELETE = do_PUT = do_PATCH = do_HEAD = do_OPTIONS = handle_any


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    httpd = Server(("127.0.0.1", PORT), Handler)
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        httpd.server_close()


if __name__ == "__main__":
    main()
