"""Python's json.loads with its defaults (as Flask's get_json and Starlette's request.json call it) on texts read
from stdin, one JSON-encoded string per line; prints one JSON line per text: {"read": false} or {"read": true,
"value": ...}, non-finite numbers written as the strings "NaN", "Infinity", "-Infinity"."""
import json
import math
import sys


def plain(value):
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, list):
        return [plain(item) for item in value]
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    return value


for line in sys.stdin:
    text = json.loads(line)
    try:
        print(json.dumps({"read": True, "value": plain(json.loads(text))}))
    except ValueError:
        print(json.dumps({"read": False}))
