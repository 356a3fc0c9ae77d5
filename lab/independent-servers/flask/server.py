#!/usr/bin/python3
"""Sandbox implementation of the Payment Collection Service API (v1) in Flask.

Run:  PORT=4816 /usr/bin/python3 server.py
All state lives in memory; the server never makes outbound requests.
"""
import logging
import os
import secrets
import threading
from datetime import datetime, timezone
from urllib.parse import urlsplit, urlunsplit

from flask import Blueprint, Flask, abort, g, jsonify, request
from werkzeug.exceptions import HTTPException

DEFECT = os.environ.get("DEFECT", "").strip()
PORT = int(os.environ.get("PORT", "4816"))

SECRET_KEYS = {
    os.environ.get("SECRET_KEY") or "sk_sandbox_independent_flask_0001": 1,
    os.environ.get("SECOND_SECRET_KEY") or "sk_sandbox_independent_flask_0002": 2,
}

CHECKOUT_BASE = "https://checkout.sandbox.invalid/pay/"


def now():
    """UTC timestamp, ISO 8601 with milliseconds and a trailing 'Z'."""
    return datetime.now(timezone.utc).replace(tzinfo=None).isoformat(timespec="milliseconds") + "Z"


# --------------------------------------------------------------------------
# In-memory store
# --------------------------------------------------------------------------
lock = threading.Lock()
_started = now()

balances = {
    1: {"id": 1, "amount": 0, "mode": "mtn", "account_id": 1, "created_at": _started, "updated_at": _started},
    2: {"id": 2, "amount": 0, "mode": "mtn", "account_id": 2, "created_at": _started, "updated_at": _started},
}


def _currency(cid, account_id):
    return {
        "id": cid,
        "name": "FCFA",
        "iso": "XOF",
        "code": 952,
        "modes": ["mtn", "moov"],
        "prefix": None,
        "suffix": "FCFA",
        "account_id": account_id,
        "created_at": _started,
        "updated_at": _started,
        "default": True,
    }


currencies = {1: _currency(1, 1), 2: _currency(2, 2)}
customers = {}      # id -> record (with private account_id)
transactions = {}   # id -> record (with private fields)
tokens = {}         # token string -> transaction id
intents = {}        # id -> intent
counters = {"customer": 0, "transaction": 0, "intent": 0, "payment_method": 0}


def next_id(kind):
    counters[kind] += 1
    return counters[kind]


# --------------------------------------------------------------------------
# App, errors, auth
# --------------------------------------------------------------------------
app = Flask(__name__)
app.json.sort_keys = False
bp = Blueprint("v1", __name__, url_prefix="/v1")


@app.errorhandler(HTTPException)
def http_error(e):
    resp = jsonify({"error": {"status": e.code, "message": e.description}})
    resp.status_code = e.code
    if e.code == 401:
        resp.headers["WWW-Authenticate"] = "Bearer"
    return resp


@app.errorhandler(Exception)
def unhandled(e):
    resp = jsonify({"error": {"status": 500, "message": "Internal server error."}})
    resp.status_code = 500
    return resp


@bp.before_request
def authenticate():
    header = request.headers.get("Authorization")
    if header is None:
        if DEFECT == "no-auth":
            g.account_id = 1
            return None
        abort(401, "No valid secret key provided.")
    parts = header.split(None, 1)
    if len(parts) != 2 or parts[0].lower() != "bearer" or parts[1].strip() not in SECRET_KEYS:
        abort(401, "No valid secret key provided.")
    g.account_id = SECRET_KEYS[parts[1].strip()]


def json_object():
    """Flask's get_json (400 on non-JSON / wrong Content-Type); must be an object."""
    body = request.get_json()
    if not isinstance(body, dict):
        abort(400, "The request body must be a JSON object.")
    return body


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def opt_str(body, key, where=""):
    v = body.get(key)
    if v is not None and not isinstance(v, str):
        abort(400, f"'{where}{key}' must be a string.")
    return v


def check_phone(pn, where, number_types):
    if pn is None:
        return None
    if not isinstance(pn, dict):
        abort(400, f"'{where}phone_number' must be an object.")
    number, country = pn.get("number"), pn.get("country")
    ok_number = (isinstance(number, str) and number.strip() != "") or (
        "int" in number_types and is_int(number))
    if not ok_number:
        abort(400, f"'{where}phone_number.number' is required and must be a "
                   + ("string or integer." if "int" in number_types else "string."))
    if not isinstance(country, str) or country.strip() == "":
        abort(400, f"'{where}phone_number.country' is required and must be a string.")
    return {"number": number, "country": country}


def public(record):
    return {k: v for k, v in record.items() if not k.startswith("_")}


# --------------------------------------------------------------------------
# 1. Delete a customer
# --------------------------------------------------------------------------
@bp.delete("/customers/<int:id>")
def delete_customer(id):
    with lock:
        cust = customers.get(id)
        if cust is None or cust["_account_id"] != g.account_id:
            if DEFECT == "delete-500":
                raise RuntimeError("customer lookup failed")
            abort(404, "Customer not found.")
        del customers[id]
    return "", 204


# --------------------------------------------------------------------------
# 2. Create a transaction
# --------------------------------------------------------------------------
@bp.post("/transactions")
def create_transaction():
    body = json_object()
    acct = g.account_id

    amount = body.get("amount")
    if not is_int(amount) or amount <= 0:
        abort(400, "'amount' is required and must be a positive integer.")
    description = opt_str(body, "description")
    callback_url = opt_str(body, "callback_url")
    if callback_url is not None:
        parts = urlsplit(callback_url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            abort(400, "'callback_url' must be an absolute http(s) URL.")
        if DEFECT == "drop-callback-query":
            callback_url = urlunsplit((parts.scheme, parts.netloc, parts.path, "", parts.fragment))
    metadata = body.get("custom_metadata")
    if metadata is not None and not isinstance(metadata, dict):
        abort(400, "'custom_metadata' must be an object.")

    currency_in = body.get("currency")
    if currency_in is not None:
        if not isinstance(currency_in, dict) or not isinstance(currency_in.get("iso"), str):
            abort(400, "'currency' must be an object with a string 'iso'.")
    mode = opt_str(body, "mode")

    cust_in = body.get("customer")
    if cust_in is not None:
        if not isinstance(cust_in, dict):
            abort(400, "'customer' must be an object.")
        cid = cust_in.get("id")
        if cid is not None and not is_int(cid):
            abort(400, "'customer.id' must be an integer.")
        fields = {}
        for k in ("email", "firstname", "lastname"):
            if cust_in.get(k) is not None:
                fields[k] = opt_str(cust_in, k, "customer.")
        if cust_in.get("phone_number") is not None:
            fields["phone_number"] = check_phone(cust_in["phone_number"], "customer.", ("str", "int"))

    with lock:
        if currency_in is None:
            currency = next((c for c in currencies.values()
                             if c["account_id"] == acct and c["default"]), None)
        else:
            iso = currency_in["iso"].strip().upper()
            currency = next((c for c in currencies.values()
                             if c["account_id"] == acct and c["iso"] == iso), None)
            if currency is None:
                abort(400, f"Unknown currency iso '{currency_in['iso']}'.")
        if mode is not None and mode not in currency["modes"]:
            abort(400, f"Mode '{mode}' is not available for currency {currency['iso']}.")

        customer_id = None
        if cust_in is not None:
            ts = now()
            if cid is not None:
                cust = customers.get(cid)
                if cust is None or cust["_account_id"] != acct:
                    abort(404, "Customer not found.")
                if fields:
                    cust.update(fields)
                    cust["updated_at"] = ts
            else:
                cid = next_id("customer")
                cust = {"id": cid, "email": None, "firstname": None, "lastname": None,
                        "phone_number": None, "created_at": ts, "updated_at": ts,
                        "_account_id": acct}
                cust.update(fields)
                customers[cid] = cust
            customer_id = cid

        if DEFECT == "amount-plus-one":
            amount = amount + 1
        ts = now()
        tid = next_id("transaction")
        trx = {
            "id": tid,
            "reference": "trx_" + secrets.token_hex(8),
            "amount": amount,
            "description": description,
            "callback_url": callback_url,
            "status": "pending",
            "currency_id": currency["id"],
            "customer_id": customer_id,
            "mode": mode,
            "custom_metadata": metadata,
            "created_at": ts,
            "updated_at": ts,
            "_account_id": acct,
            "_token": None,
        }
        transactions[tid] = trx
        return jsonify(public(trx)), 201


# --------------------------------------------------------------------------
# 3. Get the payment link for a transaction
# --------------------------------------------------------------------------
@bp.post("/transactions/<int:id>/token")
def transaction_token(id):
    with lock:
        trx = transactions.get(id)
        if trx is None or trx["_account_id"] != g.account_id:
            abort(404, "Transaction not found.")
        if trx["_token"] is None:
            token = secrets.token_hex(16)
            trx["_token"] = token
            tokens[token] = id
        token = trx["_token"]
    return jsonify({"token": token, "url": CHECKOUT_BASE + token}), 200


# --------------------------------------------------------------------------
# 4. Send a transaction for payment
# --------------------------------------------------------------------------
@bp.post("/transactions/<mode>")
def send_transaction(mode):
    acct = g.account_id
    with lock:
        known_modes = {m for c in currencies.values() if c["account_id"] == acct for m in c["modes"]}
    if mode not in known_modes:
        abort(404, f"Unknown payment mode '{mode}'.")

    body = json_object()
    token = body.get("token")
    if is_int(token):
        token = str(token)
    if not isinstance(token, str) or token == "":
        abort(400, "'token' is required and must be a string or integer.")
    phone = check_phone(body.get("phone_number"), "", ("str",))

    with lock:
        tid = tokens.get(token)
        trx = transactions.get(tid) if tid is not None else None
        if trx is None or trx["_account_id"] != acct:
            abort(404, "Transaction not found for this token.")
        currency = currencies[trx["currency_id"]]
        if mode not in currency["modes"]:
            abort(400, f"Mode '{mode}' is not available for currency {currency['iso']}.")
        if trx["status"] != "pending":
            abort(400, f"Transaction is {trx['status']} and cannot be sent.")
        ts = now()
        iid = next_id("intent")
        intent = {
            "id": iid,
            "reference": "pi_" + secrets.token_hex(8),
            "amount": trx["amount"],
            "status": "pending",
            "currency_id": currency["id"],
            "mode": mode,
            "last_error_code": None,
            "created_at": ts,
            "updated_at": ts,
            "approved_at": None,
            "canceled_at": None,
            "deleted_at": None,
            "payment_method_id": next_id("payment_method"),
            "transaction_key": secrets.token_hex(16),
            "account_id": acct,
            "transaction_id": trx["id"],
            "phone_number": phone,
        }
        intents[iid] = intent
        trx["mode"] = mode
        trx["updated_at"] = ts
        return jsonify([intent]), 200


# --------------------------------------------------------------------------
# 5. Get a balance / 6. Get a currency
# --------------------------------------------------------------------------
@bp.get("/balances/<int:id>")
def get_balance(id):
    with lock:
        bal = balances.get(id)
        if bal is None or bal["account_id"] != g.account_id:
            abort(404, "Balance not found.")
        return jsonify([dict(bal)]), 200


@bp.get("/currencies/<int:id>")
def get_currency(id):
    with lock:
        cur = currencies.get(id)
        if cur is None or cur["account_id"] != g.account_id:
            abort(404, "Currency not found.")
        return jsonify([dict(cur)]), 200


app.register_blueprint(bp)

if __name__ == "__main__":
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    import flask.cli
    flask.cli.show_server_banner = lambda *args, **kwargs: None  # keep stdout quiet
    app.run(host="127.0.0.1", port=PORT, threaded=True, debug=False)
