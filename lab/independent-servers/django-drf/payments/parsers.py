"""DRF's JSONParser, hardened against two inputs that would otherwise end in a 500.

* Pathologically deep nesting raises RecursionError (not ValueError) in json.
* "\\ud800"-style lone surrogates decode to strings that cannot be encoded as
  UTF-8, so storing them in SQLite or rendering them back fails.

Both are reported exactly like any other malformed JSON: 400 with
{"detail": "JSON parse error - ..."}.
"""
from rest_framework import parsers
from rest_framework.exceptions import ParseError


def _has_lone_surrogate(value):
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - nesting too deep")
        if _has_lone_surrogate(data):
            raise ParseError("JSON parse error - invalid \\uXXXX escape (lone surrogate)")
        return data
