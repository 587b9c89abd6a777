"""Pages that follow the evening by polling: "unchanged" answered with 204, cheaply.

A live page's polling element asks for its own htmx partial every few seconds with the
version of what it shows (`?v=…`, `live_poll_url`). The view works out the current version
first, from a query or two that build nothing, and answers an unchanged poll with an empty
204 (`live_unchanged`): htmx then swaps nothing, and static/js/live.js takes it as "the
connection works". Otherwise the view renders its partial as for any htmx request, with
the new version in the next poll's URL. The version never reaches the links the page
renders (`live_version_drop`): a page link or a sort link followed later must not be
taken for a poll.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any, cast

from django.http import HttpRequest, HttpResponse

if TYPE_CHECKING:
    from django.http.request import _ImmutableQueryDict

VERSION_PARAMETER = "v"
# The version a live page shows, noted on its request: a copy of the page kept by the reader
# cache (`troefclub.reader_cache`) answers a poll holding it with 204, as the view does.
_SHOWN = "_live_version_shown"


def live_version(*parts: Any) -> str:
    """A short, stable hash of `parts` (their reprs): what the poll URL carries."""
    return hashlib.blake2b(repr(parts).encode(), digest_size=8).hexdigest()


def live_unchanged(request: HttpRequest, version: str) -> HttpResponse | None:
    """The empty 204 for an htmx poll that already shows `version`; None otherwise (the
    view renders as usual). Drops the version from the request's query either way
    (`live_version_drop`)."""
    asked = request.GET.get(VERSION_PARAMETER)
    setattr(request, _SHOWN, version)
    live_version_drop(request)
    if getattr(request, "htmx", False) and asked == version:
        return HttpResponse(status=204)
    return None


def live_polled(request: HttpRequest) -> bool:
    """Whether `request` is a live page's poll (an htmx request carrying a version), not
    a page link, a sort or a search of the same partial."""
    return bool(getattr(request, "htmx", False)) and VERSION_PARAMETER in request.GET


def live_version_drop(request: HttpRequest) -> None:
    """Take `v` out of `request.GET`, so that the links the page renders from the query
    (django-tables2's sort links, `{% querystring %}` page links) don't carry it."""
    if VERSION_PARAMETER in request.GET:
        query = request.GET.copy()
        del query[VERSION_PARAMETER]
        query._mutable = False
        request.GET = cast("_ImmutableQueryDict", query)


def live_poll_url(request: HttpRequest, version: str) -> str:
    """This page's URL, its query kept (a page, a sort, a search), with `v=version`: what
    the next poll asks for."""
    setattr(request, _SHOWN, version)
    query = request.GET.copy()
    query[VERSION_PARAMETER] = version
    return f"{request.path}?{query.urlencode()}"


def live_version_shown(request: HttpRequest) -> str | None:
    """The version `request`'s live page shows (`live_unchanged`, then `live_poll_url`,
    noted it); None for a page that follows nothing."""
    return getattr(request, _SHOWN, None)
