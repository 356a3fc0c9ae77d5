"""
Django settings for the Payment Collection Service sandbox.

Everything is configured in code; the only inputs are environment variables:
PORT (read by server.py), SECRET_KEY / SECOND_SECRET_KEY (the API keys of
accounts 1 and 2), DEFECT (planted-defect mode, empty for a correct server),
CALLBACKS ("on" to post to callback URLs; anything else, e.g. "off", never
makes outbound requests) and PAYSANDBOX_DB (SQLite file, set by server.py).
"""
import os
import secrets
import tempfile
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent

# Django's own signing key.  It is unrelated to the API keys (which happen to
# arrive in an environment variable also called SECRET_KEY); nothing in this
# service signs anything, so a fresh random value per start is fine.
SECRET_KEY = "django-insecure-" + secrets.token_urlsafe(32)

DEBUG = False
# The server only listens on 127.0.0.1, so any Host header is accepted.
ALLOWED_HOSTS = ["*"]

INSTALLED_APPS = [
    "django.contrib.auth",          # needed by DRF for AnonymousUser
    "django.contrib.contenttypes",
    "django.contrib.staticfiles",   # for the browsable API's assets
    "rest_framework",
    "payments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.common.CommonMiddleware",
]

ROOT_URLCONF = "paysandbox.urls"
WSGI_APPLICATION = "paysandbox.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {"context_processors": ["django.template.context_processors.request"]},
    },
]

_db_path = os.environ.get("PAYSANDBOX_DB") or os.path.join(tempfile.gettempdir(), "paysandbox-dev.sqlite3")
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": _db_path,
        # busy timeout (seconds) for concurrent connections of the request threads
        "OPTIONS": {"timeout": 30},
        "CONN_MAX_AGE": None,
    }
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_L10N = True
USE_TZ = True

STATIC_URL = "/static/"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["payments.authentication.BearerKeyAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # DRF's default parsers, with the JSON one hardened (see payments/parsers.py).
    "DEFAULT_PARSER_CLASSES": [
        "payments.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # JSON only: with DRF's default BrowsableAPIRenderer, a request accepting text/html (a browser's Accept) was
    # answered 500 by the generic views that have no queryset (found by collect-conformance's REQUEST-FORM-NOT-5XX).
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
}

# Unhandled exceptions are logged to stderr even with DEBUG off.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"stderr": {"class": "logging.StreamHandler"}},
    "loggers": {
        "django.request": {"handlers": ["stderr"], "level": "ERROR", "propagate": False},
        "django.server": {"handlers": ["stderr"], "level": os.environ.get("ACCESS_LOG_LEVEL", "ERROR"), "propagate": False},
    },
}

# --- service configuration -------------------------------------------------
API_KEYS = {
    1: os.environ.get("SECRET_KEY") or "sk_sandbox_account_1",
    2: os.environ.get("SECOND_SECRET_KEY") or "sk_sandbox_account_2",
}
DEFECT = os.environ.get("DEFECT", "").strip()
CALLBACKS_ENABLED = os.environ.get("CALLBACKS", "off").strip().lower() == "on"
