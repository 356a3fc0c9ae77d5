from django.apps import AppConfig
from django.db.backends.signals import connection_created


def _tune_sqlite(sender, connection, **kwargs):
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            # The database is throw-away (recreated at every start): no need
            # to fsync every commit.
            cursor.execute("PRAGMA synchronous=OFF")


class PaymentsConfig(AppConfig):
    name = "payments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        connection_created.connect(_tune_sqlite)
