"""Sandbox implementation of the Payment Collection Service API (v1).

Run:  PORT=4802 /usr/bin/python3 server.py
"""
import os
import secrets
import threading
import uuid
import json
import urllib.request
from datetime import datetime, timezone
from typing import Any, Dict, List, Optional
from urllib.parse import urlsplit, urlunsplit

import uvicorn
from fastapi import APIRouter, BackgroundTasks, Depends, FastAPI, HTTPException, Path, Request, Response, status
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import AnyHttpUrl, BaseModel, conint, constr
from pydantic.error_wrappers import ErrorWrapper

DEFECT = os.environ.get("DEFECT", "").strip()

SECRET_KEYS = {
    os.environ.get("SECRET_KEY") or "sk_sandbox_independent_py_0001": 1,
    os.environ.get("SECOND_SECRET_KEY") or "sk_sandbox_independent_py_0002": 2,
}


def now() -> datetime:
    return datetime.now(timezone.utc)


# ---------------------------------------------------------------------------
# Pydantic models
# ---------------------------------------------------------------------------

PhoneNumberStr = constr(strip_whitespace=True, regex=r"^\+?[0-9]{4,15}$")
CountryCode = constr(strip_whitespace=True, to_upper=True, regex=r"^[A-Za-z]{2}$")
EmailLike = constr(strip_whitespace=True, max_length=254, regex=r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


class PhoneNumber(BaseModel):
    # Accepts a JSON number or a string (pydantic coerces numbers to str).
    number: PhoneNumberStr
    country: CountryCode


class CurrencyRef(BaseModel):
    iso: constr(strip_whitespace=True, to_upper=True, min_length=1)


class CustomerIn(BaseModel):
    id: Optional[int] = None
    email: Optional[EmailLike] = None
    firstname: Optional[constr(max_length=255)] = None
    lastname: Optional[constr(max_length=255)] = None
    phone_number: Optional[PhoneNumber] = None


class TransactionCreate(BaseModel):
    description: Optional[constr(max_length=1000)] = None
    amount: conint(gt=0, strict=True)
    currency: CurrencyRef
    callback_url: Optional[AnyHttpUrl] = None
    custom_metadata: Optional[Dict[str, Any]] = None
    customer: Optional[CustomerIn] = None
    mode: Optional[constr(strip_whitespace=True, min_length=1)] = None


class SendTransaction(BaseModel):
    # Documented as integer, but the token operation returns a string:
    # pydantic coerces an integer to its string form.
    token: constr(strip_whitespace=True, min_length=1)
    phone_number: Optional[PhoneNumber] = None


class Transaction(BaseModel):
    id: int
    reference: str
    amount: int
    description: Optional[str]
    callback_url: Optional[str]
    status: str
    mode: Optional[str]
    currency_id: int
    customer_id: Optional[int]
    custom_metadata: Optional[Dict[str, Any]]
    created_at: datetime
    updated_at: datetime
    approved_at: Optional[datetime]


class PaymentLink(BaseModel):
    token: str
    url: str


class PaymentIntent(BaseModel):
    reference: str
    amount: int
    status: str
    currency_id: int
    mode: str
    last_error_code: Optional[str]
    created_at: datetime
    updated_at: datetime
    approved_at: Optional[datetime]
    canceled_at: Optional[datetime]
    deleted_at: Optional[datetime]
    payment_method_id: Optional[int]
    transaction_key: str
    account_id: int


class Balance(BaseModel):
    id: int
    amount: int
    mode: str
    account_id: int
    created_at: datetime
    updated_at: datetime


class Currency(BaseModel):
    id: int
    name: str
    iso: str
    modes: List[str]
    prefix: Optional[str]
    suffix: Optional[str]
    account_id: int
    created_at: datetime
    updated_at: datetime
    default: bool


# ---------------------------------------------------------------------------
# In-memory store
# ---------------------------------------------------------------------------

class Store:
    def __init__(self) -> None:
        self.lock = threading.RLock()
        t0 = now()
        self.balances: Dict[int, dict] = {
            1: dict(id=1, amount=0, mode="mtn", account_id=1, created_at=t0, updated_at=t0),
            2: dict(id=2, amount=0, mode="mtn", account_id=2, created_at=t0, updated_at=t0),
        }
        self.currencies: Dict[int, dict] = {
            cid: dict(id=cid, name="FCFA", iso="XOF", modes=["mtn", "moov"], prefix=None,
                      suffix="F CFA", account_id=cid, created_at=t0, updated_at=t0, default=True)
            for cid in (1, 2)
        }
        self.customers: Dict[int, dict] = {}
        self.transactions: Dict[int, dict] = {}
        self.tokens: Dict[str, int] = {}  # payment token -> transaction id
        self.intents: List[dict] = []
        self.payment_methods: Dict[tuple, int] = {}
        self.next_customer_id = 1
        self.next_transaction_id = 1
        self.next_payment_method_id = 1


store = Store()


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------

bearer = HTTPBearer(auto_error=False, bearerFormat="JWT")


def get_account(request: Request,
                credentials: Optional[HTTPAuthorizationCredentials] = Depends(bearer)) -> int:
    if credentials is None:
        if DEFECT == "no-auth" and "authorization" not in request.headers:
            return 1
        raise HTTPException(status_code=status.HTTP_401_UNAUTHORIZED,
                            detail="No valid secret key provided",
                            headers={"WWW-Authenticate": "Bearer"})
    account_id = SECRET_KEYS.get(credentials.credentials)
    if account_id is None:
        raise HTTPException(status_code=status.HTTP_401_UNAUTHORIZED,
                            detail="No valid secret key provided",
                            headers={"WWW-Authenticate": "Bearer"})
    return account_id


def validation_error(loc: tuple, msg: str) -> RequestValidationError:
    """Build an error with FastAPI's default 422 body shape."""
    return RequestValidationError([ErrorWrapper(ValueError(msg), loc=loc)])


def not_found(what: str) -> HTTPException:
    return HTTPException(status_code=status.HTTP_404_NOT_FOUND, detail=f"{what} not found")


def strip_query(url: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))


def fire_callback(url: str, payload: dict) -> None:
    """Best-effort POST of a transaction update to its callback_url."""
    # Added by collect-conformance's lab (not the server's author): CALLBACKS=off keeps test runs on loopback.
    if os.environ.get("CALLBACKS") == "off":
        return
    try:
        data = json.dumps(jsonable_encoder(payload)).encode()
        req = urllib.request.Request(url, data=data, method="POST",
                                     headers={"Content-Type": "application/json"})
        urllib.request.urlopen(req, timeout=3).close()
    except Exception:
        pass


# ---------------------------------------------------------------------------
# Routes
# ---------------------------------------------------------------------------

router = APIRouter(prefix="/v1")


@router.delete("/customers/{id}", status_code=status.HTTP_204_NO_CONTENT,
               response_class=Response)
async def delete_customer(id: int = Path(...), account_id: int = Depends(get_account)):
    with store.lock:
        customer = store.customers.get(id)
        if customer is None or customer["account_id"] != account_id:
            if DEFECT == "delete-500":
                raise HTTPException(status_code=500, detail="Internal Server Error")
            raise not_found("Customer")
        del store.customers[id]
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.post("/transactions", response_model=Transaction, status_code=status.HTTP_201_CREATED)
async def create_transaction(body: TransactionCreate, account_id: int = Depends(get_account)):
    with store.lock:
        currency = next((c for c in store.currencies.values()
                         if c["account_id"] == account_id and c["iso"] == body.currency.iso), None)
        if currency is None:
            raise validation_error(("body", "currency", "iso"), "unknown currency iso")
        if body.mode is not None and body.mode not in currency["modes"]:
            raise validation_error(("body", "mode"), "mode not available for this currency")

        customer_id = None
        if body.customer is not None:
            c = body.customer
            if c.id is not None:
                existing = store.customers.get(c.id)
                if existing is None or existing["account_id"] != account_id:
                    raise validation_error(("body", "customer", "id"), "customer does not exist")
                customer_id = c.id
            else:
                t = now()
                customer_id = store.next_customer_id
                store.next_customer_id += 1
                store.customers[customer_id] = dict(
                    id=customer_id, account_id=account_id, email=c.email,
                    firstname=c.firstname, lastname=c.lastname,
                    phone_number=c.phone_number.dict() if c.phone_number else None,
                    created_at=t, updated_at=t)

        callback_url = str(body.callback_url) if body.callback_url is not None else None
        if callback_url and DEFECT == "drop-callback-query":
            callback_url = strip_query(callback_url)
        amount = body.amount + 1 if DEFECT == "amount-plus-one" else body.amount

        t = now()
        tx_id = store.next_transaction_id
        store.next_transaction_id += 1
        tx = dict(id=tx_id, reference="trx_" + secrets.token_hex(8), amount=amount,
                  description=body.description, callback_url=callback_url, status="pending",
                  mode=body.mode, currency_id=currency["id"], customer_id=customer_id,
                  custom_metadata=body.custom_metadata, created_at=t, updated_at=t,
                  approved_at=None, account_id=account_id, token=None)
        store.transactions[tx_id] = tx
        return tx


@router.post("/transactions/{id}/token", response_model=PaymentLink)
async def transaction_token(request: Request, id: int = Path(...),
                            account_id: int = Depends(get_account)):
    with store.lock:
        tx = store.transactions.get(id)
        if tx is None or tx["account_id"] != account_id:
            raise not_found("Transaction")
        if tx["status"] != "pending":
            raise HTTPException(status_code=status.HTTP_409_CONFLICT,
                                detail=f"Transaction is {tx['status']}")
        if tx["token"] is None:
            token = secrets.token_urlsafe(24)
            tx["token"] = token
            store.tokens[token] = id
        url = f"{str(request.base_url).rstrip('/')}/v1/checkout/{tx['token']}"
        return PaymentLink(token=tx["token"], url=url)


@router.post("/transactions/{mode}", response_model=List[PaymentIntent])
async def send_transaction(body: SendTransaction, background: BackgroundTasks,
                           mode: str = Path(...), account_id: int = Depends(get_account)):
    with store.lock:
        tx_id = store.tokens.get(body.token)
        tx = store.transactions.get(tx_id) if tx_id is not None else None
        if tx is None or tx["account_id"] != account_id:
            raise validation_error(("body", "token"), "invalid transaction token")
        currency = store.currencies[tx["currency_id"]]
        if mode not in currency["modes"]:
            raise validation_error(("path", "mode"), "mode not available for this currency")
        if tx["status"] != "pending":
            raise HTTPException(status_code=status.HTTP_409_CONFLICT,
                                detail=f"Transaction is {tx['status']}")

        phone = body.phone_number.dict() if body.phone_number else None
        if phone is None and tx["customer_id"] in store.customers:
            phone = store.customers[tx["customer_id"]].get("phone_number")
        payment_method_id = None
        if phone is not None:
            key = (account_id, mode, phone["number"], phone["country"])
            if key not in store.payment_methods:
                store.payment_methods[key] = store.next_payment_method_id
                store.next_payment_method_id += 1
            payment_method_id = store.payment_methods[key]

        t = now()
        intent = dict(reference="pi_" + secrets.token_hex(8), amount=tx["amount"], status="sent",
                      currency_id=tx["currency_id"], mode=mode, last_error_code=None,
                      created_at=t, updated_at=t, approved_at=t, canceled_at=None,
                      deleted_at=None, payment_method_id=payment_method_id,
                      transaction_key=str(uuid.uuid4()), account_id=account_id)
        store.intents.append(intent)

        tx.update(status="approved", mode=mode, approved_at=t, updated_at=t)
        for bal in store.balances.values():
            if bal["account_id"] == account_id and bal["mode"] == mode:
                bal["amount"] += tx["amount"]
                bal["updated_at"] = t

        if tx["callback_url"]:
            payload = {"name": "transaction.approved",
                       "entity": Transaction(**tx).dict()}
            background.add_task(fire_callback, tx["callback_url"], payload)
        return [intent]


@router.get("/balances/{id}", response_model=List[Balance])
async def get_balance(id: int = Path(...), account_id: int = Depends(get_account)):
    bal = store.balances.get(id)
    if bal is None or bal["account_id"] != account_id:
        raise not_found("Balance")
    return [bal]


@router.get("/currencies/{id}", response_model=List[Currency])
async def get_currency(id: int = Path(...), account_id: int = Depends(get_account)):
    cur = store.currencies.get(id)
    if cur is None or cur["account_id"] != account_id:
        raise not_found("Currency")
    return [cur]


app = FastAPI(title="Payment Collection Service (sandbox)", version="1")
app.include_router(router)


if __name__ == "__main__":
    uvicorn.run(app, host="127.0.0.1", port=int(os.environ.get("PORT", "4802")),
                log_level="warning", access_log=False)
