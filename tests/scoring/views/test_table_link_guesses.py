"""Guessing table links is throttled per client address (issue 19, item 6;
troefclub/secret_links.py).

After TABLE_LINK_MISS_LIMIT links that open nothing, the address gets 429 on every table
URL (the page, the queue's JSON endpoint, the manifest) until the count expires, without
its tokens being looked up; a phone that opened its link before keeps working, on the same
address; a link revoked since is no guess.
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from django.core.cache.backends import base as cache_base
from django.core.cache.backends import locmem
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import GameLink
from scoring.services.table import game_link_revoke, game_links_ensure
from tests.factories import GameFactory
from tests.seen import next_round
from tests.settings_env import settings_in_subprocess
from troefclub import secret_links
from troefclub.secret_links import PROOF_COOKIE

pytestmark = pytest.mark.django_db

LIMIT = 3
WINDOW = 60


@pytest.fixture(autouse=True)
def _limits(settings: pytest.FixtureRequest) -> None:
    settings.TABLE_LINK_MISS_LIMIT = LIMIT  # type: ignore[attr-defined]
    settings.TABLE_LINK_MISS_SECONDS = WINDOW  # type: ignore[attr-defined]


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[float]]:
    """The cache's clock (the in-memory cache of the tests), moved by hand."""
    now = [time.time()]
    fake = SimpleNamespace(time=lambda: now[0])
    monkeypatch.setattr(locmem, "time", fake)
    monkeypatch.setattr(cache_base, "time", fake)
    yield now


@pytest.fixture
def link() -> GameLink:
    game = GameFactory.create()
    return game_links_ensure(game_ids=[game.pk])[game.pk]["a"]


def page(token: str) -> str:
    return reverse("table_sheet", kwargs={"token": token})


def sent(token: str) -> str:
    return reverse("table_round_send", kwargs={"token": token})


def manifest(token: str) -> str:
    return reverse("table_manifest", kwargs={"token": token})


def guesses(client: Client, count: int) -> list[int]:
    return [client.get(page(f"guess{number:020d}")).status_code for number in range(count)]


def test_the_guess_after_the_limit_is_refused_with_429(client: Client) -> None:
    assert guesses(client, LIMIT) == [404] * LIMIT
    response = client.get(page("one-more-guess"))
    assert response.status_code == 429
    assert response["Retry-After"] == str(WINDOW)
    assert "Too many unknown links" in response.content.decode()


@pytest.mark.nl
def test_the_429_page_is_in_the_readers_language(client: Client) -> None:
    guesses(client, LIMIT)
    response = client.get(page("one-more-guess"), HTTP_ACCEPT_LANGUAGE="nl")
    assert response.status_code == 429
    assert "Te veel onbekende links" in response.content.decode()


def test_a_blocked_address_has_no_token_looked_up(client: Client, link: GameLink) -> None:
    """Blocked, a guess learns nothing: a real token of another phone answers 429 as well
    (without a query), on every URL a table link opens."""
    guesses(client, LIMIT)
    for url in (page(link.token), manifest(link.token)):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 429, url
        assert not [q for q in queries.captured_queries if "scoring_gamelink" in q["sql"]]
    assert client.post(sent(link.token), {}).status_code == 429


def test_the_queue_endpoint_counts_and_answers_429_as_a_page(client: Client) -> None:
    """The phone's queue keeps a round that got no JSON answer (static/js/table_queue.js):
    a 429 must not look like a refusal."""
    for number in range(LIMIT):
        assert client.post(sent(f"guess{number}"), {}).status_code == 404
    response = client.post(sent("guess-more"), {})
    assert response.status_code == 429
    assert response["Content-Type"].startswith("text/html")


def test_a_phone_that_opened_its_link_keeps_working_on_the_same_address(
    client: Client, link: GameLink
) -> None:
    assert client.get(page(link.token)).status_code == 200  # the phone at the table
    assert PROOF_COOKIE in client.cookies
    stranger = Client()  # same address (127.0.0.1): the club's Wi-Fi
    guesses(stranger, LIMIT + 5)
    assert stranger.get(page("another-guess")).status_code == 429
    assert client.get(page(link.token)).status_code == 200
    answer = client.post(
        sent(link.token),
        {"key": "k1", "number": next_round(link.game_id), "result": "gewone_winst", "side": "a",
         "seen": ""},
    )  # fmt: skip
    assert answer.status_code in (200, 409), answer.content  # answered by the rules, in JSON
    assert "refused" in answer.json() or answer.json()["stored"]


def test_a_proof_opens_its_own_link_only(client: Client, link: GameLink) -> None:
    client.get(page(link.token))
    other = game_links_ensure(game_ids=[link.game_id])[link.game_id]["b"]
    guesses(client, LIMIT)
    assert client.get(page(other.token)).status_code == 429
    assert client.get(page(link.token)).status_code == 200


def test_the_proof_cookie_is_for_the_links_own_path(client: Client, link: GameLink) -> None:
    response = client.get(page(link.token))
    cookie = response.cookies[PROOF_COOKIE]
    assert cookie["path"] == page(link.token)
    assert cookie["httponly"] is True
    assert cookie["samesite"] == "Lax"
    assert link.token not in cookie.value


def test_a_revoked_link_the_phone_had_is_no_guess(client: Client, link: GameLink) -> None:
    client.get(page(link.token))
    game_link_revoke(game_id=link.game_id, link_id=link.pk)
    for _ in range(LIMIT + 2):
        assert client.get(page(link.token)).status_code == 404
    assert client.get(page("a-real-guess")).status_code == 404  # not blocked: no guesses yet


def test_valid_links_are_not_counted(client: Client, link: GameLink) -> None:
    fresh = Client()  # no proof cookie: opens its link for the first time
    for _ in range(LIMIT + 2):
        fresh.cookies.clear()
        assert fresh.get(page(link.token)).status_code == 200
    assert guesses(client, LIMIT) == [404] * LIMIT


def test_the_count_expires(client: Client, clock: list[float]) -> None:
    guesses(client, LIMIT)
    assert client.get(page("guess")).status_code == 429
    clock[0] += WINDOW - 1
    assert client.get(page("guess")).status_code == 429
    clock[0] += 2
    assert guesses(client, LIMIT) == [404] * LIMIT
    assert client.get(page("guess")).status_code == 429


def test_addresses_are_counted_apart(client: Client, settings: pytest.FixtureRequest) -> None:
    guesses(client, LIMIT)
    assert client.get(page("guess"), REMOTE_ADDR="127.0.0.1").status_code == 429
    assert client.get(page("guess"), REMOTE_ADDR="192.0.2.7").status_code == 404


def test_behind_a_proxy_the_client_address_counts(
    client: Client, settings: pytest.FixtureRequest
) -> None:
    settings.TRUSTED_PROXY_COUNT = 1  # type: ignore[attr-defined]
    for number in range(LIMIT):
        client.get(page(f"g{number}"), HTTP_X_FORWARDED_FOR="198.51.100.1")
    assert client.get(page("g"), HTTP_X_FORWARDED_FOR="198.51.100.1").status_code == 429
    assert client.get(page("g"), HTTP_X_FORWARDED_FOR="198.51.100.2").status_code == 404


# ---------------------------------------------------------------- production: Redis


def _redis_url() -> str:
    """The Redis server of the broker (CI: redis://127.0.0.1:6379/15, per xdist worker);
    the test's keys have a prefix of their own and are deleted after it."""
    url = os.environ.get("CELERY_BROKER_URL", "")
    reason = "no CELERY_BROKER_URL (Redis) set"
    if url.startswith("redis://"):
        try:
            import redis

            redis.Redis.from_url(url, socket_connect_timeout=2).ping()
            return url
        except Exception as exc:
            reason = f"Redis at {url} is not reachable: {exc}"
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI needs the Redis cache test: {reason}")
    pytest.skip(reason)


def test_the_count_works_on_redis_as_in_production(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With CACHE_URL=redis://… the processes count together; the count expires there too
    (Redis keeps a key's time to live through INCR)."""
    import redis
    from django.core.cache.backends.redis import RedisCache

    url = _redis_url()
    prefix = f"test-guesses-{uuid.uuid4().hex}"
    monkeypatch.setattr(secret_links, "cache", RedisCache(url, {"KEY_PREFIX": prefix}))
    # A sync client (redis-py 6 annotates its answers as the async client's too).
    server: Any = redis.Redis.from_url(url)
    try:
        assert guesses(client, LIMIT) == [404] * LIMIT
        assert client.get(page("guess")).status_code == 429
        (key,) = server.keys(f"{prefix}:*")
        assert int(server.get(key) or 0) == LIMIT  # the 429 counted no more
        assert 0 < server.ttl(key) <= WINDOW
    finally:
        for key in server.keys(f"{prefix}:*"):
            server.delete(key)


# ---------------------------------------------------------------- settings


@pytest.mark.settings_env
def test_the_limits_and_the_cache_come_from_the_environment() -> None:
    names = ["TABLE_LINK_MISS_LIMIT", "TABLE_LINK_MISS_SECONDS", "CACHES"]
    defaults = settings_in_subprocess(names)
    assert defaults["TABLE_LINK_MISS_LIMIT"] == "30"
    assert defaults["TABLE_LINK_MISS_SECONDS"] == "60"
    assert "LocMemCache" in defaults["CACHES"]
    configured = settings_in_subprocess(
        names,
        TABLE_LINK_MISS_LIMIT="5",
        TABLE_LINK_MISS_SECONDS="300",
        CACHE_URL="redis://127.0.0.1:6379/3",
    )
    assert configured["TABLE_LINK_MISS_LIMIT"] == "5"
    assert configured["TABLE_LINK_MISS_SECONDS"] == "300"
    assert "RedisCache" in configured["CACHES"]
    assert "redis://127.0.0.1:6379/3" in configured["CACHES"]
