"""No NUL character past the door (issue 19, item 3: `/t/%00/` was a 500).

PostgreSQL can't hold a NUL (U+0000) in text, not even to compare with: a query given one
fails ("PostgreSQL text fields cannot contain NUL (0x00) bytes", a DataError) and the page
became a 500. Any text of a request can carry one: a path argument (`/t/%00/`, a table
link's token), a query value or name (`?q=%00`, `?club=%00`, the admin's search and
filters), a cookie (`sessionid="\\000…"`: the session is looked up by it), a header (the
login lockout stores the user agent). None of them ever needs one: no address, name, key
or word of this site has a NUL, and HTTP forbids it in a header.

So `NulRefusedMiddleware` answers such a request at once with the 400 page ("This address
can't be opened", in the reader's language: it runs after `LocaleMiddleware`), before any
view, form or middleware looks at it. One check at the door rather than one in every view
and selector that passes a parameter to the database: a view added later is covered too.
What is posted is not looked at here: every form field refuses a NUL with a message on its
field (Django's `ProhibitNullCharactersValidator`, `troefclub.validators`), which is the
better answer for something typed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse
from django.urls import get_resolver

NUL = "\x00"


def nul_where(request: HttpRequest) -> str:
    """Where `request` carries a NUL before its body: "path", "query", "cookie" or
    "header"; "" when nowhere."""
    if NUL in request.path_info or NUL in request.path:
        return "path"
    if any(
        NUL in name or any(NUL in value for value in values) for name, values in request.GET.lists()
    ):
        return "query"
    if any(NUL in name or NUL in value for name, value in request.COOKIES.items()):
        return "cookie"
    if any(NUL in str(value) for name, value in request.META.items() if name.startswith("HTTP_")):
        return "header"
    return ""


class NulRefusedMiddleware:
    """Answer a request with a NUL in its path, query, cookies or headers (`nul_where`)
    with the site's 400 page (`handler400`, templates/400.html). Its place in MIDDLEWARE:
    after `LocaleMiddleware` (the page in the reader's language), before anything that
    reads the session or the query."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        where = nul_where(request)
        if where:
            handler = cast(
                "Callable[[HttpRequest, Exception], HttpResponse]",
                get_resolver().resolve_error_handler(400),
            )
            return handler(request, BadRequest(f"NUL character in the request's {where}"))
        return self.get_response(request)
