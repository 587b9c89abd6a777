"""A node whose cache (CACHE_URL, Redis) is out of reach (issue 23, found by a tester):
the table phones, the API and the reader pages keep working, /readyz says the cache is
down so the balancer and compose can tell, and the reader pages a write could not bump
are bumped once the cache is back (`ReaderCacheBumpOwed`), never left stale until they
expire.

"Down" is a real Redis client against a port where nothing listens: connection refused,
the error production sees.
"""

from __future__ import annotations

import socket
import uuid
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from scoring.services.rounds import round_record
from scoring.services.table import game_links_ensure
from tests.builders import league_in_play
from tests.factories import CompetitionFactory, GameFactory
from tests.seen import game_token_now
from tests.troefclub.test_reader_cache import matchday_url
from troefclub import health
from troefclub.models import ReaderCacheBumpOwed
from troefclub.reader_cache import (
    competition_scope,
    reader_cache_bump,
    reader_cache_bumps_owed_pay,
    reader_versions,
)
from troefclub.tasks import reader_cache_bumps_owed_pay as pay_task

pytestmark = pytest.mark.django_db

WORKING = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}


def _nothing_listens() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def cache_down(settings: Any) -> None:
    """CACHE_URL set (a shared cache) and every call to it refused."""
    settings.CACHE_URL = f"redis://127.0.0.1:{_nothing_listens()}/0"
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": settings.CACHE_URL,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }


def cache_back(settings: Any) -> None:
    settings.CACHES = WORKING


# ---------------------------------------------------------------- the doors keep working


def test_a_table_phone_opens_its_link_and_sends_a_round(client: Client, cache_down: None):
    game = GameFactory.create()
    link = game_links_ensure(game_ids=[game.pk])[game.pk]["a"]
    assert client.get(reverse("table_sheet", kwargs={"token": link.token})).status_code == 200
    sent = client.post(
        reverse("table_round_send", kwargs={"token": link.token}),
        {
            "key": str(uuid.uuid4()),
            "seen": game_token_now(game_id=game.pk),
            "number": 1,
            "quick": "a",
        },
    )
    assert sent.status_code == 200 and sent.json()["stored"] is True
    assert game.rounds.count() == 1


def test_a_link_that_opens_nothing_is_the_friendly_404_not_a_500(client: Client, cache_down: None):
    response = client.get(reverse("table_sheet", kwargs={"token": "guess" + "0" * 20}))
    assert response.status_code == 404


def test_the_api_answers_without_its_throttle_counters(client: Client, cache_down: None):
    competition = CompetitionFactory.create()
    url = reverse("api:competition-standings", kwargs={"slug": competition.slug})
    assert client.get(url).status_code == 200


# ---------------------------------------------------------------- /readyz


def test_readyz_names_the_cache_when_it_is_down(client: Client, cache_down: None):
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["checks"]["cache"] == {
        "ok": False,
        "detail": "check raised ConnectionError",
    }


@pytest.mark.parametrize("cache_url", ["", "redis://shared-cache-test"])
def test_the_cache_check_passes_with_a_cache_that_answers_or_none_shared(
    settings: Any, cache_url: str
):
    settings.CACHE_URL = cache_url
    settings.CACHES = WORKING
    assert health.cache_ready() is None


# ---------------------------------------------------------------- owed bumps


def test_a_bump_the_cache_missed_is_owed_and_made_once_it_is_back(settings: Any, cache_down: None):
    scope = competition_scope(7)
    reader_cache_bump(scope)
    (owed,) = ReaderCacheBumpOwed.objects.all()
    assert owed.scope == scope
    assert reader_cache_bumps_owed_pay() == 0  # still down: kept
    assert ReaderCacheBumpOwed.objects.count() == 1

    cache_back(settings)
    before = reader_versions([scope])
    assert pay_task() == 1
    assert reader_versions([scope]) != before  # pages stored under `before` are done
    assert not ReaderCacheBumpOwed.objects.exists()
    assert pay_task() == 0  # nothing owed: nothing written


def test_a_bump_owed_again_while_being_paid_stays_owed(settings: Any, monkeypatch: Any):
    """The row is deleted only if no failure came after it was read: a write whose bump
    failed during the payment is not forgotten with the one paid."""
    settings.CACHE_URL = "redis://shared-cache-test"
    settings.CACHES = WORKING
    scope = competition_scope(8)
    ReaderCacheBumpOwed.objects.create(scope=scope, owed_at="2026-12-03T07:00:00Z")
    from troefclub import reader_cache

    replace = reader_cache._versions_replace

    def owed_again_meanwhile(scopes: Any) -> None:
        replace(scopes)
        ReaderCacheBumpOwed.objects.filter(scope=scope).update(owed_at="2026-12-03T07:00:05Z")

    monkeypatch.setattr(reader_cache, "_versions_replace", owed_again_meanwhile)
    assert reader_cache_bumps_owed_pay() == 1
    assert ReaderCacheBumpOwed.objects.filter(scope=scope).exists()


def test_a_round_saved_while_the_cache_is_down_shows_once_it_is_back(
    settings: Any, django_capture_on_commit_callbacks: Any
):
    """The tester's evening: a matchday page stored, a round saved on a node whose cache
    was away, the cache back. Before the fix the stored page (2–0) was served until it
    expired (READER_CACHE_SECONDS); now the beat's payment bumps it."""
    settings.CACHE_URL = "redis://shared-cache-test"
    settings.READER_CACHE_SECONDS = 300
    settings.CACHES = WORKING
    cache.clear()
    league = league_in_play(6)
    reader = Client()
    url = matchday_url(league)
    assert "5–0" not in reader.get(url).content.decode()  # stored

    down = f"redis://127.0.0.1:{_nothing_listens()}/0"
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": down}
    }
    with django_capture_on_commit_callbacks(execute=True):
        round_record(game_id=league.games[2].pk, expected_number=1, result="kap", side="a")
    assert ReaderCacheBumpOwed.objects.exists()

    settings.CACHES = WORKING  # back, with the page stored before the round
    pay_task()
    assert "5–0" in reader.get(url).content.decode()
