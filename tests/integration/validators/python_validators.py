"""Django's and pydantic 1's validators, with their defaults, on the values read from stdin (JSON lines of
{"kind": "url" | "email", "value": ...}); prints one JSON object: the validators run, those skipped (with why)
and every value refused. Run with Debian's /usr/bin/python3, which sees Debian's python3-django and pydantic."""
import json
import sys

refused = []
ran = []
skipped = []
values = [json.loads(line) for line in sys.stdin if line.strip()]
urls = [entry["value"] for entry in values if entry["kind"] == "url"]
emails = [entry["value"] for entry in values if entry["kind"] == "email"]


def refuse(validator, kind, value, reason):
    refused.append({"validator": validator, "kind": kind, "value": value, "reason": str(reason)[:200]})


try:
    from django.conf import settings

    settings.configure(USE_I18N=False)
    from django.core.exceptions import ValidationError
    from django.core.validators import EmailValidator, MaxLengthValidator, URLValidator

    # models.URLField: URLValidator and max_length 200 (what DRF's ModelSerializer keeps);
    # models.EmailField: EmailValidator and max_length 254.
    fields = {
        "url": ("Django models.URLField (URLValidator, max_length 200)", [URLValidator(), MaxLengthValidator(200)]),
        "email": ("Django models.EmailField (EmailValidator, max_length 254)", [EmailValidator(), MaxLengthValidator(254)]),
    }
    for kind, (name, validators) in fields.items():
        ran.append(name)
        for value in urls if kind == "url" else emails:
            for validator in validators:
                try:
                    validator(value)
                except ValidationError as error:
                    refuse(name, kind, value, "; ".join(error.messages))
                    break
except ImportError as error:
    skipped.append({"validator": "Django", "reason": f"python3-django is not installed ({error})"})

try:
    import pydantic
    from pydantic import BaseModel, HttpUrl

    class Callback(BaseModel):
        url: HttpUrl

    name = f"pydantic {pydantic.VERSION} HttpUrl"
    ran.append(name)
    for value in urls:
        try:
            Callback(url=value)
        except pydantic.ValidationError as error:
            refuse(name, "url", value, error.errors()[0]["msg"])
    try:
        from pydantic import EmailStr

        class Customer(BaseModel):
            email: EmailStr

        name = f"pydantic {pydantic.VERSION} EmailStr (email-validator)"
        ran.append(name)
        for value in emails:
            try:
                Customer(email=value)
            except pydantic.ValidationError as error:
                refuse(name, "email", value, error.errors()[0]["msg"])
    except ImportError as error:
        skipped.append({"validator": "pydantic EmailStr", "reason": f"email-validator is not installed ({error})"})
except ImportError as error:
    skipped.append({"validator": "pydantic", "reason": f"pydantic is not installed ({error})"})

print(json.dumps({"ran": ran, "skipped": skipped, "refused": refused}))
