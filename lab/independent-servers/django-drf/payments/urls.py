from django.urls import re_path
from rest_framework.routers import SimpleRouter

from . import views

router = SimpleRouter(trailing_slash=False)
router.register("customers", views.CustomerViewSet, basename="customer")
router.register("transactions", views.TransactionViewSet, basename="transaction")
router.register("balances", views.BalanceViewSet, basename="balance")
router.register("currencies", views.CurrencyViewSet, basename="currency")

urlpatterns = router.urls + [
    # Send a transaction for payment through a mode (e.g. /transactions/mtn).
    re_path(r"^transactions/(?P<mode>[^/]+)$", views.TransactionSendView.as_view(), name="transaction-send"),
]
