"""The API's one request body parser: JSON, refused in the reader's language when it isn't.

DRF's JSONParser says why in English ("JSON parse error - Expecting value: line 1 …") and
lets a body nested a few hundred levels deep through to a RecursionError (a 500).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


def surrogates_replaced(value: Any) -> Any:
    """`value` (parsed JSON) with each lone surrogate in its text replaced by U+FFFD."""
    if isinstance(value, str):
        return (
            value.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
            if any("\ud800" <= char <= "\udfff" for char in value)
            else value
        )
    if isinstance(value, list):
        return [surrogates_replaced(item) for item in value]
    if isinstance(value, dict):
        return {surrogates_replaced(k): surrogates_replaced(v) for k, v in value.items()}
    return value


class JsonBodyParser(JSONParser):
    """JSON (UTF-8, no NaN or Infinity), with each lone surrogate (JSON can spell one,
    "\\ud800"; no text holds one) replaced by U+FFFD, as Django decodes a page's form post:
    the page's form then sees what it would see from a browser, and no answer echoes a
    character UTF-8 can't say (the renderer's 500).

    Raises ParseError (400 `parse_error`): a body that is not JSON, or is nested deeper
    than Python's parser goes (a RecursionError, never a 500).
    """

    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except ParseError:
            raise ParseError(
                _("The body is not valid JSON: check its quotes, commas and brackets.")
            ) from None
        except RecursionError:
            raise ParseError(_("The body's JSON is nested too deep to read.")) from None
        try:
            return surrogates_replaced(data)
        except RecursionError:  # a structure too deep to walk, though the parser read it
            raise ParseError(_("The body's JSON is nested too deep to read.")) from None
