import secrets

from django.db import models


def _random(prefix, nbytes=9):
    return prefix + secrets.token_hex(nbytes)


def new_transaction_reference():
    return _random("trx_")


def new_intent_reference():
    return _random("pi_")


def new_transaction_key():
    return secrets.token_hex(16)


def new_link_token():
    """Payment-link token: a string of 15 decimal digits, no leading zero.

    The reference types the token as a string in the token-link answer but as
    an integer in the send payload; an all-digit token satisfies both (DRF's
    IntegerField accepts "123..." as well as 123...), and 15 digits stay
    exact in clients that hold JSON numbers as doubles.
    """
    return str(secrets.randbelow(9 * 10**14) + 10**14)


class Account(models.Model):
    """A merchant account; requests authenticate as one with its secret key."""

    name = models.CharField(max_length=100)
    secret_key = models.CharField(max_length=255, db_index=True)

    # Lets DRF's IsAuthenticated treat the account as the request user.
    is_authenticated = True
    is_anonymous = False

    def __str__(self):
        return self.name


class Currency(models.Model):
    account = models.ForeignKey(Account, on_delete=models.CASCADE, related_name="currencies")
    name = models.CharField(max_length=100)
    iso = models.CharField(max_length=3)
    modes = models.JSONField(default=list)
    prefix = models.CharField(max_length=10, blank=True, default="")
    suffix = models.CharField(max_length=10, blank=True, default="")
    is_default = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)


class Balance(models.Model):
    account = models.ForeignKey(Account, on_delete=models.CASCADE, related_name="balances")
    amount = models.BigIntegerField(default=0)
    mode = models.CharField(max_length=50)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)


class Customer(models.Model):
    account = models.ForeignKey(Account, on_delete=models.CASCADE, related_name="customers")
    email = models.EmailField()
    firstname = models.CharField(max_length=255)
    lastname = models.CharField(max_length=255)
    # {"number": "<string>", "country": "<string>"} or null
    phone_number = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)


class Transaction(models.Model):
    STATUS_PENDING = "pending"
    STATUS_APPROVED = "approved"
    STATUS_CANCELED = "canceled"
    STATUS_CHOICES = [(s, s) for s in (STATUS_PENDING, STATUS_APPROVED, STATUS_CANCELED)]

    account = models.ForeignKey(Account, on_delete=models.CASCADE, related_name="transactions")
    reference = models.CharField(max_length=64, unique=True, default=new_transaction_reference)
    amount = models.PositiveIntegerField()
    description = models.TextField(blank=True, default="")
    callback_url = models.URLField(blank=True, default="")
    status = models.CharField(max_length=20, choices=STATUS_CHOICES, default=STATUS_PENDING)
    currency = models.ForeignKey(Currency, on_delete=models.PROTECT, related_name="transactions")
    customer = models.ForeignKey(
        Customer, null=True, blank=True, on_delete=models.SET_NULL, related_name="transactions"
    )
    custom_metadata = models.JSONField(default=dict, blank=True)
    mode = models.CharField(max_length=50, blank=True, default="")
    token = models.CharField(max_length=32, unique=True, null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)


class PaymentMethod(models.Model):
    """The instrument a transaction was sent through (mode + phone number)."""

    account = models.ForeignKey(Account, on_delete=models.CASCADE, related_name="payment_methods")
    mode = models.CharField(max_length=50)
    number = models.CharField(max_length=32, blank=True, default="")
    country = models.CharField(max_length=2, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)


class PaymentIntent(models.Model):
    STATUS_CHOICES = [(s, s) for s in ("pending", "scheduled", "sent", "failed")]

    account = models.ForeignKey(Account, on_delete=models.CASCADE, related_name="payment_intents")
    transaction = models.ForeignKey(Transaction, on_delete=models.CASCADE, related_name="intents")
    reference = models.CharField(max_length=64, unique=True, default=new_intent_reference)
    amount = models.BigIntegerField()
    status = models.CharField(max_length=20, choices=STATUS_CHOICES, default="pending")
    currency = models.ForeignKey(Currency, on_delete=models.PROTECT, related_name="+")
    mode = models.CharField(max_length=50)
    last_error_code = models.CharField(max_length=100, null=True, blank=True)
    payment_method = models.ForeignKey(PaymentMethod, on_delete=models.PROTECT, related_name="+")
    transaction_key = models.CharField(max_length=64, unique=True, default=new_transaction_key)
    approved_at = models.DateTimeField(null=True, blank=True)
    canceled_at = models.DateTimeField(null=True, blank=True)
    deleted_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
