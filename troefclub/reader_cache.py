"""The readers' pages served from the shared cache (issue 23): the standings, a matchday, the
hall display, the season rankings and the rating list, which players refresh all evening.

A page is stored under a key made of what it shows and of the **versions** of its data:
one random token per scope (`competition_scope`, `season_scope`, `RATINGS_SCOPE`) kept
in the cache with no expiry. The writes and refreshes that change a scope's data replace
its token once they commit (`reader_cache_bump_on_commit`, called by the app that owns
the write), so every page stored before is never read again: no page is stale beyond
that bump. A version missing from the cache (evicted, Redis restarted) becomes a new
token, which matches no page stored before.

Only what may be shared is stored: an anonymous GET or HEAD with no pending message,
answered 200 by the view (`reader_cached`). A logged-in user (a director) always gets a
fresh render. The CSRF token the page carries (base.html's `hx-headers`, the language
form) is stored as `CSRF_PLACEHOLDER` (`reader_cache_csrf`, a context processor) and
each answer gets the asking request's own token. A cache that fails (Redis down) is
logged and the page rendered as if there were none: a reader page never fails for it.

Active only with `READER_CACHE_SECONDS` > 0 and a shared cache (`CACHE_URL`): with each
process' own memory a bump made in one gunicorn worker would not reach the others.
"""

from __future__ import annotations

import hashlib
import logging
import operator
import secrets
import threading
from collections.abc import Callable, Iterable
from functools import reduce, wraps
from typing import Any

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.db import transaction
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.utils import timezone, translation

from troefclub.live import VERSION_PARAMETER, live_polled, live_version_shown

logger = logging.getLogger(__name__)

# What a stored page holds in place of the CSRF token it was rendered with: letters and
# digits only (the masked token's alphabet), so escaping never changes it.
CSRF_PLACEHOLDER = "troefclubReaderCacheCsrfToken0placeholder"
# Set on a request whose render may be stored: the context processor renders the placeholder.
_STORING = "_reader_cache_storing"
# The headers a view sets that a stored page keeps (middleware adds the rest on each answer).
_KEPT_HEADERS = ("Content-Type", "Content-Language", "HX-Reswap", "HX-Retarget", "X-Robots-Tag")

RATINGS_SCOPE = "ratings"
# The names and dates every reader page shows beside its own data (clubs, players,
# koppels, matchdays), edited in the admin outside the scoring services: part of every
# page's key, so a renamed koppel shows at the next request, not when the page expires.
NAMES_SCOPE = "names"


def competition_scope(competition_id: int) -> str:
    """The scope of a competition's pages: its standings, matchdays and hall display."""
    return f"competition:{competition_id}"


def season_scope(season: str) -> str:
    """The scope of a season's rankings (`season` as `Competition.season` spells it)."""
    return "season:" + hashlib.sha256(season.encode()).hexdigest()[:24]


def reader_cache_active() -> bool:
    """Whether reader pages are cached: `READER_CACHE_SECONDS` > 0 with a shared cache."""
    return settings.READER_CACHE_SECONDS > 0 and bool(settings.CACHE_URL)


def _version_key(scope: str) -> str:
    return f"reader-version:{scope}"


def reader_versions(scopes: Iterable[str]) -> list[str]:
    """The current version token of each scope, in order; a scope without one gets a new
    one (stored without expiry: `add`, so concurrent readers agree on one). May raise
    whatever the cache backend raises."""
    keys = [_version_key(scope) for scope in scopes]
    found = cache.get_many(keys)
    versions = []
    for key in keys:
        version = found.get(key)
        if version is None:
            version = secrets.token_hex(8)
            if not cache.add(key, version, timeout=None):
                version = cache.get(key) or version
        versions.append(version)
    return versions


def _id_key(kind: str, key: str) -> str:
    return f"reader-id:{kind}:" + hashlib.sha256(key.encode()).hexdigest()[:32]


def reader_cache_id(kind: str, key: str, find: Callable[[], int | None]) -> int | None:
    """The id of the `kind` of thing a URL names by `key` (a competition by its slug), kept
    in the cache for `READER_CACHE_SECONDS` so that a page served from the cache needs no
    query; `find()` reads it on a miss (None: nothing has that key, nothing is kept). The
    owner of the thing forgets a key whose thing changed (`reader_cache_forget_id`). May
    raise what the cache raises."""
    cache_key = _id_key(kind, key)
    found = cache.get(cache_key)
    if found is None:
        found = find()
        if found is not None:
            cache.set(cache_key, found, timeout=settings.READER_CACHE_SECONDS)
    return found


def reader_cache_forget_id(kind: str, key: str) -> None:
    """Forget the id kept for `key` (`reader_cache_id`): after a commit that gave the key to
    another thing or took it away. A cache that fails is logged, never raised."""
    if not settings.CACHE_URL:
        return
    try:
        cache.delete(_id_key(kind, key))
    except Exception as exc:
        logger.warning("reader cache id of %s %r not forgotten (%r)", kind, key, exc)


def reader_cache_bump(*scopes: str) -> None:
    """Replace the version tokens of `scopes` now: every page stored under the old ones is
    never served again. Called after a commit (`reader_cache_bump_on_commit`); only with a
    shared cache (`CACHE_URL`), whatever `READER_CACHE_SECONDS` says here. A cache that
    fails is logged, never raised (the write is saved) and the bumps are kept in the
    database as owed (`reader_cache_bumps_owed_pay` makes them once it answers)."""
    if not scopes or not settings.CACHE_URL:
        return
    try:
        _versions_replace(scopes)
    except Exception as exc:
        logger.warning(
            "reader cache versions not bumped (%r), owed until the cache answers: %s",
            exc,
            ", ".join(scopes),
        )
        _bumps_owe(scopes)


def _versions_replace(scopes: Iterable[str]) -> None:
    cache.set_many({_version_key(scope): secrets.token_hex(8) for scope in scopes}, timeout=None)


def _bumps_owe(scopes: Iterable[str]) -> None:
    """Keep `scopes` in the database as owed (`ReaderCacheBumpOwed`): the cache missed
    their bump, and until it is made the pages stored before the write would be served.
    A database that fails too is logged: the pages then expire after
    `READER_CACHE_SECONDS`."""
    from troefclub.models import ReaderCacheBumpOwed

    now = timezone.now()
    try:
        with transaction.atomic():
            for scope in scopes:
                ReaderCacheBumpOwed.objects.update_or_create(scope=scope, defaults={"owed_at": now})
    except Exception as exc:
        logger.error("reader cache bumps not kept as owed (%r): %s", exc, ", ".join(scopes))


def reader_cache_bumps_owed_pay() -> int:
    """Make the bumps the cache missed (`ReaderCacheBumpOwed`), now that it answers, and
    delete their rows; a row owed again while this ran stays for the next run. Run by
    the beat every STANDINGS_SWEEP_SECONDS (`troefclub.tasks`), so a page is stale at
    most that long after the cache is back. Returns the number of scopes bumped; 0 when
    nothing is owed or the cache still fails (logged, the rows kept)."""
    from troefclub.models import ReaderCacheBumpOwed

    owed = list(ReaderCacheBumpOwed.objects.values_list("pk", "scope", "owed_at"))
    if not owed:
        return 0
    scopes = [scope for _pk, scope, _at in owed]
    try:
        _versions_replace(scopes)
    except Exception as exc:
        logger.warning("reader cache bumps still owed (%r): %s", exc, ", ".join(scopes))
        return 0
    paid = [Q(pk=pk, owed_at=owed_at) for pk, _scope, owed_at in owed]
    ReaderCacheBumpOwed.objects.filter(reduce(operator.or_, paid)).delete()
    logger.info("reader cache bumps owed made: %s", ", ".join(scopes))
    return len(scopes)


class _Bump:
    """The on-commit callback bumping one scope for one transaction: registered by each
    write (a savepoint rolled back takes only its own registration), run once."""

    __slots__ = ("done", "scope")

    def __init__(self, scope: str) -> None:
        self.scope = scope
        self.done = False

    def __call__(self) -> None:
        if not self.done:
            self.done = True
            reader_cache_bump(self.scope)


class _Pending(threading.local):
    def __init__(self) -> None:
        self.bumps: dict[str, _Bump] = {}


_pending = _Pending()


def reader_cache_bump_on_commit(*scopes: str) -> None:
    """In a write's transaction: bump `scopes` (`reader_cache_bump`) once it commits, once
    a transaction however many writes ask (nothing if it rolls back). Outside a
    transaction: now. Nothing without a shared cache (no callback to run); with one, even
    while `READER_CACHE_SECONDS` is 0 in this process: a worker started without it must
    still bump the pages the web nodes keep."""
    if not settings.CACHE_URL:
        return
    for scope in scopes:
        bump = _pending.bumps.get(scope)
        if bump is None or bump.done:
            bump = _pending.bumps[scope] = _Bump(scope)
        transaction.on_commit(bump)


def reader_cache_csrf(request: HttpRequest) -> dict[str, str]:
    """Context processor: while a page is rendered to be stored, its CSRF token is the
    placeholder (the request's own is put in on every answer); the cookie is set as on
    any render. Otherwise nothing (Django's own `csrf_token` stands)."""
    if getattr(request, _STORING, False):
        get_token(request)
        return {"csrf_token": CSRF_PLACEHOLDER}
    return {}


def _shareable(request: HttpRequest) -> bool:
    """An anonymous GET/HEAD with no pending message (a message is shown once, to one)."""
    if request.method not in ("GET", "HEAD"):
        return False
    user = getattr(request, "user", None)
    if user is None or user.is_authenticated:
        return False
    return len(get_messages(request)) == 0


def _page_key(request: HttpRequest, versions: list[str], *, by_version: bool) -> str:
    """The key of `request`'s page: path, query (an htmx request's without the poll's `v`,
    unless the answer depends on it: `by_version`), htmx or not, language, today, versions."""
    htmx = bool(getattr(request, "htmx", False))
    if htmx:
        pairs = sorted(
            (name, value)
            for name, values in request.GET.lists()
            for value in values
            if by_version or name != VERSION_PARAMETER
        )
        query = repr(pairs) + ("|polled" if live_polled(request) else "")
    else:
        query = request.META.get("QUERY_STRING", "")  # the full page's `next` carries it all
    parts = (
        request.path,
        query,
        "htmx" if htmx else "page",
        translation.get_language() or "",
        timezone.localdate().isoformat(),  # "in play" and the polling end with the day
        *versions,
    )
    digest = hashlib.sha256("\x1f".join(parts).encode()).hexdigest()
    return f"reader-page:{digest}"


def _answer(request: HttpRequest, entry: dict[str, Any]) -> HttpResponse:
    """The stored page as an answer to `request`: its own CSRF token put in."""
    if live_polled(request) and entry.get("live") == request.GET.get(VERSION_PARAMETER):
        return HttpResponse(status=204)
    content: bytes = entry["content"]
    if CSRF_PLACEHOLDER.encode() in content:
        content = content.replace(CSRF_PLACEHOLDER.encode(), get_token(request).encode())
    response = HttpResponse(content, status=200)
    for name, value in entry["headers"]:
        response[name] = value
    return response


def _entry(request: HttpRequest, response: HttpResponse) -> dict[str, Any] | None:
    """What is stored of `response`; None when it is not to be stored."""
    if response.status_code != 200 or response.streaming or response.cookies:
        return None
    if response.has_header("Cache-Control") and "private" in response["Cache-Control"]:
        return None
    headers = [(name, response[name]) for name in _KEPT_HEADERS if response.has_header(name)]
    return {"content": response.content, "headers": headers, "live": live_version_shown(request)}


def reader_cached(
    scopes: Callable[..., list[str] | None], *, by_version: bool = False
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """A reader page served from the cache (the module says when). `scopes(request,
    **url kwargs)` names the scopes of the data the page shows (may query; None: not
    cached, the view answers, a 404 say). `by_version`: the view's answer to a poll
    depends on the version it holds (the hall display sends only what moved since), so
    that version is part of the key.
    """

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not reader_cache_active() or not _shareable(request):
                return view(request, *args, **kwargs)
            key = None
            try:
                names = scopes(request, **kwargs)
                if names is not None:
                    versions = reader_versions([*names, NAMES_SCOPE])
                    key = _page_key(request, versions, by_version=by_version)
                    entry = cache.get(key)
                    if entry is not None:
                        return _answer(request, entry)
            except Exception as exc:  # one line a request while it lasts, no traceback
                logger.warning("reader cache unavailable (%r): %s rendered", exc, request.path)
                key = None
            if key is None:
                return view(request, *args, **kwargs)
            setattr(request, _STORING, True)
            response = view(request, *args, **kwargs)
            entry = _entry(request, response)
            if entry is not None:
                try:
                    cache.set(key, entry, timeout=settings.READER_CACHE_SECONDS)
                except Exception as exc:
                    logger.warning("reader cache unavailable (%r): %s not kept", exc, request.path)
            if not response.streaming and CSRF_PLACEHOLDER.encode() in response.content:
                response.content = response.content.replace(
                    CSRF_PLACEHOLDER.encode(), get_token(request).encode()
                )
            return response

        return wrapper

    return decorator
