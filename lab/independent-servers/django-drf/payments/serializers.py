from rest_framework import serializers

from .models import Balance, Currency, Customer, PaymentIntent, Transaction

# Largest value SQLite can store in an INTEGER column; bigger ids are
# rejected by validation instead of overflowing in the database driver.
MAX_DB_ID = 2**63 - 1


def _account(serializer):
    return serializer.context["request"].user


# --------------------------------------------------------------------------
# Customers
# --------------------------------------------------------------------------
class PhoneNumberSerializer(serializers.Serializer):
    # DRF's CharField also accepts JSON numbers (coerced to their string form),
    # which covers both payload shapes of the reference (number as integer in
    # transaction creation, as string in send).
    number = serializers.CharField(max_length=32)
    country = serializers.CharField(max_length=2)


class CustomerSerializer(serializers.ModelSerializer):
    phone_number = PhoneNumberSerializer(required=False, allow_null=True)

    class Meta:
        model = Customer
        fields = ["id", "email", "firstname", "lastname", "phone_number", "created_at", "updated_at"]


class TransactionCustomerSerializer(serializers.Serializer):
    """The `customer` object of a transaction: an existing customer by id, or a new one."""

    id = serializers.IntegerField(required=False, min_value=1, max_value=MAX_DB_ID)
    email = serializers.EmailField(required=False, max_length=254)
    firstname = serializers.CharField(required=False, max_length=255)
    lastname = serializers.CharField(required=False, max_length=255)
    phone_number = PhoneNumberSerializer(required=False, allow_null=True)

    def validate(self, attrs):
        if "id" in attrs:
            customer = Customer.objects.filter(account=_account(self), pk=attrs["id"]).first()
            if customer is None:
                raise serializers.ValidationError(
                    {"id": ['Invalid pk "%s" - object does not exist.' % attrs["id"]]}
                )
            return customer
        missing = [f for f in ("email", "firstname", "lastname") if f not in attrs]
        if missing:
            raise serializers.ValidationError({f: ["This field is required."] for f in missing})
        return attrs


# --------------------------------------------------------------------------
# Transactions
# --------------------------------------------------------------------------
class TransactionCurrencySerializer(serializers.Serializer):
    iso = serializers.CharField(max_length=3)

    def validate(self, attrs):
        currency = (
            Currency.objects.filter(account=_account(self), iso__iexact=attrs["iso"])
            .order_by("-is_default", "id")
            .first()
        )
        if currency is None:
            raise serializers.ValidationError({"iso": ['Currency "%s" is not available.' % attrs["iso"]]})
        return currency


class TransactionSerializer(serializers.ModelSerializer):
    """Validates the creation payload and renders the Transaction object."""

    currency = TransactionCurrencySerializer(write_only=True)
    customer = TransactionCustomerSerializer(write_only=True, required=False, allow_null=True)
    custom_metadata = serializers.DictField(write_only=True, required=False)
    mode = serializers.CharField(write_only=True, required=False, max_length=50)
    # The bounds DRF derives from a PositiveIntegerField on database backends
    # that report integer ranges; SQLite reports none, so they are spelled out.
    amount = serializers.IntegerField(min_value=0, max_value=2147483647)

    class Meta:
        model = Transaction
        fields = [
            "id", "reference", "amount", "description", "callback_url", "status",
            "created_at", "updated_at",
            "currency", "customer", "custom_metadata", "mode",
        ]
        read_only_fields = ["id", "reference", "status", "created_at", "updated_at"]

    def validate(self, attrs):
        mode = attrs.get("mode")
        if mode is not None and mode not in attrs["currency"].modes:
            raise serializers.ValidationError({"mode": ['"%s" is not a valid mode for this currency.' % mode]})
        return attrs

    def create(self, validated_data):
        customer = validated_data.pop("customer", None)
        if isinstance(customer, dict):
            customer = Customer.objects.create(account=validated_data["account"], **customer)
        validated_data["customer"] = customer
        return super().create(validated_data)


class PaymentLinkSerializer(serializers.Serializer):
    token = serializers.CharField()
    url = serializers.URLField()


class SendTransactionSerializer(serializers.Serializer):
    """Body of POST /transactions/{mode}; the mode comes from the path (context)."""

    # Typed integer in the reference's payload shape; DRF's IntegerField also
    # accepts the all-digit string the token-link operation returns.
    token = serializers.IntegerField()
    phone_number = PhoneNumberSerializer(required=False)

    def validate(self, attrs):
        account = _account(self)
        mode = self.context["mode"]
        errors = {}
        transaction = (
            Transaction.objects.select_related("currency", "customer")
            .filter(account=account, token=str(attrs["token"]))
            .first()
        )
        if transaction is None:
            errors["token"] = ["Invalid token."]
        elif transaction.status != Transaction.STATUS_PENDING:
            errors["token"] = ["Transaction is %s, only a pending transaction can be sent." % transaction.status]
        if transaction is not None:
            modes = transaction.currency.modes
        else:
            modes = {m for c in Currency.objects.filter(account=account) for m in c.modes}
        if mode not in modes:
            errors["mode"] = ['"%s" is not a valid mode.' % mode]
        if errors:
            raise serializers.ValidationError(errors)
        attrs["transaction"] = transaction
        return attrs


class PaymentIntentSerializer(serializers.ModelSerializer):
    currency_id = serializers.IntegerField(read_only=True)
    payment_method_id = serializers.IntegerField(read_only=True)
    account_id = serializers.IntegerField(read_only=True)

    class Meta:
        model = PaymentIntent
        fields = [
            "reference", "amount", "status", "currency_id", "mode", "last_error_code",
            "created_at", "updated_at", "approved_at", "canceled_at", "deleted_at",
            "payment_method_id", "transaction_key", "account_id",
        ]
        read_only_fields = fields


# --------------------------------------------------------------------------
# Balances and currencies
# --------------------------------------------------------------------------
class BalanceSerializer(serializers.ModelSerializer):
    account_id = serializers.IntegerField(read_only=True)

    class Meta:
        model = Balance
        fields = ["id", "amount", "mode", "account_id", "created_at", "updated_at"]
        read_only_fields = fields


class CurrencySerializer(serializers.ModelSerializer):
    modes = serializers.ListField(child=serializers.CharField(), read_only=True)
    account_id = serializers.IntegerField(read_only=True)
    default = serializers.BooleanField(source="is_default", read_only=True)

    class Meta:
        model = Currency
        fields = ["id", "name", "modes", "prefix", "suffix", "account_id", "created_at", "updated_at", "default"]
        read_only_fields = fields
