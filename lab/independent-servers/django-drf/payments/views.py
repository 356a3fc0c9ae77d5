import json
import logging
import threading
import urllib.request
from contextlib import contextmanager
from urllib.parse import urlsplit, urlunsplit

from django.conf import settings
from django.db import transaction as db_transaction
from django.http import Http404
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.generics import GenericAPIView, get_object_or_404
from rest_framework.response import Response

from .models import Balance, Currency, Customer, PaymentIntent, PaymentMethod, Transaction, new_link_token
from .serializers import (
    BalanceSerializer,
    CurrencySerializer,
    CustomerSerializer,
    PaymentIntentSerializer,
    PaymentLinkSerializer,
    SendTransactionSerializer,
    TransactionSerializer,
)

logger = logging.getLogger(__name__)

# SQLite allows one writer at a time.  The request threads of this single
# process take this lock around each write transaction, so writers queue here
# instead of racing for SQLite's lock (which can fail with "database is locked"
# when a transaction upgrades from reading to writing).
_WRITE_LOCK = threading.Lock()


@contextmanager
def write_transaction():
    with _WRITE_LOCK, db_transaction.atomic():
        yield


def parse_id(raw):
    """Path ids: ASCII decimal digits, 1..2**63-1; anything else is a 404."""
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 19:
        raise Http404
    value = int(raw)
    if not 1 <= value <= 2**63 - 1:
        raise Http404
    return value


class AccountScopedMixin:
    """Every resource belongs to an account; other accounts' objects are 404."""

    lookup_value_regex = "[^/]+"

    def get_queryset(self):
        return self.queryset.filter(account=self.request.user)

    def get_object(self):
        obj = get_object_or_404(self.get_queryset(), pk=parse_id(self.kwargs["pk"]))
        self.check_object_permissions(self.request, obj)
        return obj


# --------------------------------------------------------------------------
class CustomerViewSet(AccountScopedMixin, mixins.CreateModelMixin, mixins.DestroyModelMixin,
                      viewsets.GenericViewSet):
    """POST /customers (sandbox helper) and DELETE /customers/{id}."""

    queryset = Customer.objects.all()
    serializer_class = CustomerSerializer

    def perform_create(self, serializer):
        with write_transaction():
            serializer.save(account=self.request.user)

    def destroy(self, request, *args, **kwargs):
        try:
            instance = self.get_object()
        except Http404:
            if settings.DEFECT == "delete-500":
                raise RuntimeError("planted defect: delete-500")
            raise
        with write_transaction():
            instance.delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


# --------------------------------------------------------------------------
def _drop_query(url):
    parts = urlsplit(url)
    return urlunsplit(parts._replace(query=""))


def _post_callback(url, payload):
    def run():
        try:
            req = urllib.request.Request(
                url, data=json.dumps(payload).encode(), headers={"Content-Type": "application/json"}, method="POST"
            )
            urllib.request.urlopen(req, timeout=5).close()
        except Exception as exc:  # a callback failure never affects the API
            logger.warning("callback to %s failed: %s", url, exc)

    threading.Thread(target=run, daemon=True).start()


class TransactionViewSet(AccountScopedMixin, mixins.CreateModelMixin, viewsets.GenericViewSet):
    """POST /transactions and POST /transactions/{id}/token."""

    queryset = Transaction.objects.all()
    serializer_class = TransactionSerializer

    def get_serializer_class(self):
        if self.action == "token":
            return PaymentLinkSerializer
        return TransactionSerializer

    def perform_create(self, serializer):
        extra = {"account": self.request.user}
        if settings.DEFECT == "amount-plus-one":
            extra["amount"] = serializer.validated_data["amount"] + 1
        if settings.DEFECT == "drop-callback-query" and serializer.validated_data.get("callback_url"):
            extra["callback_url"] = _drop_query(serializer.validated_data["callback_url"])
        with write_transaction():
            serializer.save(**extra)

    @action(detail=True, methods=["post"])
    def token(self, request, pk=None):
        transaction = self.get_object()
        with write_transaction():
            transaction.refresh_from_db(fields=["token"])
            if not transaction.token:
                token = new_link_token()
                while Transaction.objects.filter(token=token).exists():
                    token = new_link_token()
                transaction.token = token
                transaction.save(update_fields=["token", "updated_at"])
        url = request.build_absolute_uri("/pay/%s" % transaction.token)
        return Response(PaymentLinkSerializer({"token": transaction.token, "url": url}).data)


class TransactionSendView(GenericAPIView):
    """POST /transactions/{mode}: send a transaction for payment through a mode."""

    serializer_class = SendTransactionSerializer

    def get_serializer_context(self):
        context = super().get_serializer_context()
        context["mode"] = self.kwargs["mode"]
        return context

    def post(self, request, mode):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        transaction = serializer.validated_data["transaction"]
        phone = serializer.validated_data.get("phone_number")
        if phone is None and transaction.customer is not None and transaction.customer.phone_number:
            phone = transaction.customer.phone_number
        phone = phone or {}
        with write_transaction():
            method = PaymentMethod.objects.create(
                account=request.user, mode=mode,
                number=phone.get("number", ""), country=phone.get("country", "").upper(),
            )
            intent = PaymentIntent.objects.create(
                account=request.user, transaction=transaction, amount=transaction.amount,
                currency=transaction.currency, mode=mode, payment_method=method,
            )
        if settings.CALLBACKS_ENABLED and transaction.callback_url:
            _post_callback(transaction.callback_url, {
                "name": "transaction.sent",
                "entity": TransactionSerializer(transaction).data,
            })
        return Response([PaymentIntentSerializer(intent).data])


# --------------------------------------------------------------------------
class BalanceViewSet(AccountScopedMixin, viewsets.GenericViewSet):
    """GET /balances/{id}: answered as a one-element array, as the reference shows."""

    queryset = Balance.objects.all()
    serializer_class = BalanceSerializer

    def retrieve(self, request, *args, **kwargs):
        return Response([self.get_serializer(self.get_object()).data])


class CurrencyViewSet(AccountScopedMixin, viewsets.GenericViewSet):
    """GET /currencies/{id}: answered as a one-element array, as the reference shows."""

    queryset = Currency.objects.all()
    serializer_class = CurrencySerializer

    def retrieve(self, request, *args, **kwargs):
        return Response([self.get_serializer(self.get_object()).data])
