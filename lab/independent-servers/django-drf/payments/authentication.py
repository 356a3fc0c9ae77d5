"""Bearer secret-key authentication ("Authorization: Bearer <secret key>")."""
from django.conf import settings
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication

from .models import Account


class BearerKeyAuthentication(BaseAuthentication):
    keyword = "bearer"

    def authenticate(self, request):
        header = request.META.get("HTTP_AUTHORIZATION")
        if header is None:
            if settings.DEFECT == "no-auth":
                # Planted defect: a request without any Authorization header
                # is served as account 1.
                return (Account.objects.get(pk=1), None)
            return None  # -> NotAuthenticated -> 401

        parts = header.split()
        if not parts or parts[0].lower() != self.keyword:
            return None  # another scheme: treated as no credentials -> 401
        if len(parts) == 1:
            raise exceptions.AuthenticationFailed("Invalid token header. No credentials provided.")
        if len(parts) > 2:
            raise exceptions.AuthenticationFailed("Invalid token header. Token string should not contain spaces.")

        key = parts[1]
        account = Account.objects.filter(secret_key=key).order_by("id").first()
        if account is None:
            raise exceptions.AuthenticationFailed("Invalid token.")
        return (account, key)

    def authenticate_header(self, request):
        # Having a WWW-Authenticate value makes DRF answer 401 (not 403).
        return 'Bearer realm="api"'
