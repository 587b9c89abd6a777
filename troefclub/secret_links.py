"""Secret links (a table's `/t/<token>/`): guesses throttled per client address (issue 19,
item 6).

Whoever holds a table link scores that game; the token (192 random bits) can't be guessed,
but nothing stopped a script from trying, as fast as the server answers. `secret_link` is
the decorator of every view a secret opens:

- a **miss** (a token that opens nothing: unknown or revoked) from a client address is
  counted in the Django cache (`CACHES`: Redis when `CACHE_URL` says so, else this
  process's memory), for `TABLE_LINK_MISS_SECONDS` from the first one;
- after `TABLE_LINK_MISS_LIMIT` misses the address is answered 429 (a page saying to wait,
  `Retry-After`) without even looking its tokens up, until the count expires: a guesser
  learns nothing more, whichever token it tries;
- a phone that has opened its link before keeps working all the same: the link's answer
  sets a cookie (`PROOF_COOKIE`, for that link's path only) holding an HMAC of the token,
  which only the server can make and only a holder of the token can have been given. A
  phone proving its token is never refused and its misses (its link revoked since) are
  not counted. A club's phones share one address (the club's Wi-Fi): a guesser among them
  holds up only a phone that opens a link for the first time, until the count expires.

The count is per address (`troefclub.auth.client_ip`, behind `TRUSTED_PROXY_COUNT`
proxies), a fixed window from the first miss.
"""

from __future__ import annotations

import hashlib
import logging
import math
from collections.abc import Callable
from functools import wraps
from typing import Any, Concatenate, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.crypto import constant_time_compare, salted_hmac

from troefclub.auth import client_ip

logger = logging.getLogger(__name__)

GUESSES_STATUS = 429  # Too Many Requests

# The cookie a link's answer leaves on the phone, for the link's own path: proof that this
# phone opened the link (an HMAC of the token; no secret of its own).
PROOF_COOKIE = "troefclub_link"
PROOF_MAX_AGE = 60 * 60 * 24 * 60  # two months: a season's evenings, seconds
_PROOF_SALT = "troefclub.secret_links.proof"

Found = TypeVar("Found")
Request = TypeVar("Request", bound=HttpRequest)


def _proof(secret: str) -> str:
    return salted_hmac(_PROOF_SALT, secret, algorithm="sha256").hexdigest()


def proven(request: HttpRequest, secret: str) -> bool:
    """True when `request` carries the cookie that the answer to `secret`'s link left."""
    sent = request.COOKIES.get(PROOF_COOKIE, "")
    return bool(sent) and constant_time_compare(sent, _proof(secret))


def _misses_key(request: HttpRequest) -> str:
    # Hashed: the address comes from a header, and a cache key must be short and plain.
    address = client_ip(request) or "unknown"
    return "secret-link-misses:" + hashlib.sha256(address.encode()).hexdigest()[:32]


def misses(request: HttpRequest) -> int:
    """The misses counted for `request`'s client address in the current window; 0 while
    the cache fails (logged): a phone's link keeps working through a cache outage, the
    192-bit token stays unguessable, and the count resumes when the cache is back."""
    try:
        return int(cache.get(_misses_key(request), 0))
    except Exception as exc:  # noqa: BLE001 - any cache failure: count nothing
        logger.warning("table link misses not read, the cache fails (%r)", exc)
        return 0


def miss_count(request: HttpRequest) -> None:
    """Count one miss for `request`'s address; the first starts a window of
    `TABLE_LINK_MISS_SECONDS` after which the count is gone. Nothing while the cache
    fails (logged, see `misses`)."""
    key = _misses_key(request)
    try:
        if cache.add(key, 1, timeout=settings.TABLE_LINK_MISS_SECONDS):
            return
        try:
            cache.incr(key)
        except ValueError:  # expired between the two calls: a new window
            cache.set(key, 1, timeout=settings.TABLE_LINK_MISS_SECONDS)
    except Exception as exc:  # noqa: BLE001 - any cache failure: the miss goes uncounted
        logger.warning("table link miss not counted, the cache fails (%r)", exc)


def blocked(request: HttpRequest) -> bool:
    """True when `request`'s address has had `TABLE_LINK_MISS_LIMIT` misses this window."""
    return misses(request) >= settings.TABLE_LINK_MISS_LIMIT


def too_many_guesses(request: HttpRequest) -> HttpResponse:
    """The 429 page of a blocked address, in the reader's language, with `Retry-After`.
    HTML for the phone's queue as well: it keeps a round that got no JSON answer and sends
    it again later, as when offline (static/js/table_queue.js)."""
    seconds: int = settings.TABLE_LINK_MISS_SECONDS
    response = render(
        request,
        "too_many_guesses.html",
        {"minutes": math.ceil(seconds / 60)},
        status=GUESSES_STATUS,
    )
    response["Retry-After"] = str(seconds)
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def _proof_path(request: HttpRequest, secret: str) -> str:
    """The link's own path, up to and with the secret ("/t/<token>/"), from the request's
    (the cookie is sent to that link's pages only)."""
    before, found, _after = request.path.partition(f"/{secret}/")
    return f"{before}/{secret}/" if found else request.path


def secret_link(
    find: Callable[[str], Found | None],
    *,
    invalid: Callable[[Request], HttpResponse],
    kwarg: str = "token",
) -> Callable[
    [Callable[Concatenate[Request, Found, ...], HttpResponse]], Callable[..., HttpResponse]
]:
    """A view opened by a secret in its URL (keyword argument `kwarg`), throttled as the
    module says.

    `find` returns what the secret opens, None when it opens nothing; the view is called
    as `view(request, found, **the other URL arguments)`. `invalid(request)` is the answer
    to a miss (the table's friendly 404). A blocked address gets `too_many_guesses`.
    """

    def decorator(
        view: Callable[Concatenate[Request, Found, ...], HttpResponse],
    ) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapper(request: Request, **kwargs: Any) -> HttpResponse:
            secret = str(kwargs.pop(kwarg))
            known = proven(request, secret)
            if not known and blocked(request):
                return too_many_guesses(request)
            found = find(secret)
            if found is None:
                if not known:  # a link this phone had is revoked: no guess
                    miss_count(request)
                return invalid(request)
            response = view(request, found, **kwargs)
            if not known:
                response.set_cookie(
                    PROOF_COOKIE,
                    _proof(secret),
                    max_age=PROOF_MAX_AGE,
                    path=_proof_path(request, secret),
                    secure=settings.SESSION_COOKIE_SECURE,
                    httponly=True,
                    samesite="Lax",
                )
            return response

        return wrapper

    return decorator
