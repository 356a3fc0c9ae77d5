"""Seed data created at every start (the database is fresh each time)."""
from django.conf import settings

from .models import Account, Balance, Currency

MODES = ["mtn", "moov", "mtn_ci", "moov_tg", "togocel"]


def seed():
    for account_id in (1, 2):
        account = Account.objects.create(
            id=account_id, name="Sandbox account %d" % account_id, secret_key=settings.API_KEYS[account_id]
        )
        # Ids are pinned: account N owns balance N and currency N.
        Balance.objects.create(id=account_id, account=account, amount=0, mode="mtn")
        Currency.objects.create(
            id=account_id, account=account, name="FCFA", iso="XOF", modes=MODES,
            prefix="", suffix="FCFA", is_default=True,
        )
