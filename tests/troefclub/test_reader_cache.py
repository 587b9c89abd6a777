"""The readers' pages served from the cache (issue 23, troefclub/reader_cache.py): a second
anonymous GET is an answer from the cache; a write or a refresh, once committed, bumps
the version so the next GET shows it; directors, languages, CSRF tokens and live polls
are kept apart; a cache that fails is a page rendered, never a 500.

The cache here is the tests' own memory (one process), declared shared (`CACHE_URL`) so
that the reader cache is on.
"""

from __future__ import annotations

import contextlib
import datetime
import re
import socket
from html import unescape
from typing import Any

import pytest
from django.core.cache import cache
from django.core.cache.backends.base import BaseCache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from rankings.services import ratings_refresh
from scoring.services.rounds import round_record
from scoring.services.standings import standings_rebuild
from tests.builders import League, league_in_play
from tests.factories import UserFactory
from tests.settings_env import settings_in_subprocess
from troefclub.reader_cache import (
    CSRF_PLACEHOLDER,
    RATINGS_SCOPE,
    competition_scope,
    reader_versions,
)

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


@pytest.fixture(autouse=True)
def reader_cache_on(settings: Any) -> Any:
    settings.CACHE_URL = "redis://reader-cache-test"  # never dialled: CACHES stays locmem
    settings.READER_CACHE_SECONDS = 300
    cache.clear()
    yield
    with contextlib.suppress(Exception):  # a test's failing cache is still in place
        cache.clear()


@pytest.fixture
def league() -> League:
    return league_in_play(6)


def standings_url(league: League) -> str:
    return reverse("competition_detail", kwargs={"slug": league.competition.slug})


def matchday_url(league: League) -> str:
    return reverse("matchday_detail", kwargs={"slug": league.competition.slug, "number": 2})


def page_token(html: str) -> str:
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert found, "no CSRF token on the page"
    return found.group(1)


def without_tokens(html: str) -> str:
    return re.sub(r"[A-Za-z0-9]{64}", "TOKEN", html)


def poll_url(html: str, element: str) -> str:
    found = re.search(rf'<div id="{element}"[^>]*?hx-get="([^"]+)"', html, re.S)
    assert found, f"#{element} does not poll"
    return unescape(found.group(1))


@pytest.mark.parametrize("page", ["standings", "matchday", "display"])
def test_a_second_anonymous_get_is_served_from_the_cache(
    client: Client, league: League, page: str, django_assert_num_queries: Any
) -> None:
    slug = league.competition.slug
    url = {
        "standings": standings_url(league),
        "matchday": matchday_url(league),
        "display": reverse("hall_display", kwargs={"slug": slug}),
    }[page]
    first = client.get(url)
    assert first.status_code == 200
    with django_assert_num_queries(0):  # the competition's id by its slug kept as well
        second = client.get(url)
    assert second.status_code == 200
    assert without_tokens(second.content.decode()) == without_tokens(first.content.decode())
    assert CSRF_PLACEHOLDER not in second.content.decode()


def test_the_rankings_pages_are_cached_and_a_ratings_refresh_bumps(
    client: Client,
    league: League,
    django_assert_num_queries: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    url = reverse("rating_list")
    assert client.get(url).status_code == 200
    with django_assert_num_queries(0):
        assert client.get(url).status_code == 200
    before = reader_versions([RATINGS_SCOPE])
    with django_capture_on_commit_callbacks(execute=True):
        ratings_refresh()
    assert reader_versions([RATINGS_SCOPE]) != before
    season = league.competition.season
    season_url = reverse("season_rankings", kwargs={"season": season})
    assert client.get(season_url).status_code == 200
    with django_assert_num_queries(0):
        assert client.get(season_url).status_code == 200


def test_a_round_saved_shows_on_the_next_get_once_committed(
    client: Client, league: League, django_capture_on_commit_callbacks: Any
) -> None:
    url = matchday_url(league)
    assert "5–0" not in client.get(url).content.decode()
    with django_capture_on_commit_callbacks() as callbacks:
        round_record(game_id=league.games[2].pk, expected_number=1, result="kap", side="a")
    # Not committed yet (the callbacks not run): the stored page is still what is read.
    assert "5–0" not in client.get(url).content.decode()
    for callback in callbacks:
        callback()
    assert "5–0" in client.get(url).content.decode()


def test_a_standings_refresh_bumps_the_competition(
    client: Client, league: League, django_capture_on_commit_callbacks: Any
) -> None:
    scope = competition_scope(league.competition.pk)
    client.get(standings_url(league))
    before = reader_versions([scope])
    with django_capture_on_commit_callbacks(execute=True):
        standings_rebuild(competition_id=league.competition.pk)
    assert reader_versions([scope]) != before
    with CaptureQueriesContext(connection) as queries:
        assert client.get(standings_url(league)).status_code == 200
    assert len(queries) > 1  # rendered again, not only the slug's id


def test_a_director_always_gets_a_fresh_render(client: Client, league: League) -> None:
    url = standings_url(league)
    client.get(url)  # stored for the readers
    client.force_login(UserFactory.create())
    for _ in range(2):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        assert len(queries) > 3  # the session, the user, the page's own reads


def test_languages_are_stored_apart(client: Client, league: League) -> None:
    url = standings_url(league)
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    dutch = client.get(url, HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert 'lang="en"' in english and 'lang="nl"' in dutch
    assert 'lang="en"' in client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_a_cached_page_gives_each_visitor_its_own_csrf_token(league: League) -> None:
    url = standings_url(league)
    first, second = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    first_token = page_token(first.get(url).content.decode())
    answer = second.get(url)
    second_token = page_token(answer.content.decode())
    assert second_token != first_token
    assert "csrftoken" in answer.cookies  # set as on a render
    switched = second.post(
        reverse("set_language"),
        {"language": "en", "next": url, "csrfmiddlewaretoken": second_token},
    )
    assert switched.status_code == 302
    assert switched.cookies["django_language"].value == "en"


def test_an_unchanged_poll_is_still_a_204_and_a_stored_poll_carries_the_next_version(
    league: League,
    django_capture_on_commit_callbacks: Any,
    django_assert_max_num_queries: Any,
) -> None:
    reader, other = Client(), Client()
    url = poll_url(reader.get(matchday_url(league)).content.decode(), "matches")
    assert reader.get(url, headers=HTMX).status_code == 204
    with django_capture_on_commit_callbacks(execute=True):
        round_record(game_id=league.games[2].pk, expected_number=1, result="kap", side="a")
    fresh = reader.get(url, headers=HTMX)
    assert fresh.status_code == 200 and "5–0" in fresh.content.decode()
    with django_assert_max_num_queries(0):
        stored = other.get(url, headers=HTMX)  # the same poll from another phone: from the cache
    assert stored.content == fresh.content
    following = poll_url(stored.content.decode(), "matches")
    assert following != url
    with django_assert_max_num_queries(0):
        assert other.get(following, headers=HTMX).status_code == 204


class FailingCache(BaseCache):
    """A cache whose server is down: every call raises."""

    def __init__(self, location: str, params: dict[str, Any]) -> None:
        super().__init__(params)

    def __getattribute__(self, name: str) -> Any:
        if name in {"get", "get_many", "set", "set_many", "add", "delete", "incr", "clear"}:
            raise ConnectionError("cache down")
        return super().__getattribute__(name)


def test_a_cache_that_fails_is_a_page_rendered(
    client: Client, league: League, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.CACHES = {"default": {"BACKEND": f"{__name__}.FailingCache"}}
    for url in (standings_url(league), matchday_url(league), reverse("rating_list")):
        assert client.get(url).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):  # the bump fails quietly
        round_record(game_id=league.games[2].pk, expected_number=1, result="kap", side="a")
    assert "5–0" in client.get(matchday_url(league)).content.decode()


@pytest.mark.parametrize("off", [{"CACHE_URL": ""}, {"READER_CACHE_SECONDS": 0}])
def test_off_without_a_shared_cache_or_seconds(
    client: Client, league: League, settings: Any, off: dict[str, Any]
) -> None:
    for name, value in off.items():
        setattr(settings, name, value)
    url = standings_url(league)
    client.get(url)
    assert not cache.get_many([f"reader-version:{competition_scope(league.competition.pk)}"])


def test_a_worker_without_the_setting_still_bumps(
    league: League, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """The bump follows CACHE_URL alone: a worker started with READER_CACHE_SECONDS=0 must
    not leave the web nodes' pages standing."""
    scope = competition_scope(league.competition.pk)
    before = reader_versions([scope])
    settings.READER_CACHE_SECONDS = 0
    with django_capture_on_commit_callbacks(execute=True):
        standings_rebuild(competition_id=league.competition.pk)
    assert reader_versions([scope]) != before


def test_the_hall_display_answers_its_unchanged_poll_from_the_cache(
    league: League, django_assert_max_num_queries: Any
) -> None:
    url = reverse("hall_display", kwargs={"slug": league.competition.slug})
    screen, other = Client(), Client()
    html = screen.get(url).content.decode()
    found = re.search(r'hx-get="([^"]+v=[^"]+)"', html)
    assert found, "the display does not poll"
    poll = unescape(found.group(1))
    assert screen.get(poll, headers=HTMX).status_code == 204  # the view's own 204
    with django_assert_max_num_queries(0):
        assert other.get(url).status_code == 200  # the page, from the cache


def test_a_redis_that_is_down_is_a_page_rendered(
    client: Client, league: League, settings: Any
) -> None:
    """A real Redis client against a port where nothing listens (connection refused)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{port}/0",
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
    assert client.get(standings_url(league)).status_code == 200
    assert client.get(standings_url(league), headers=HTMX).status_code == 200


@pytest.mark.settings_env
def test_the_seconds_come_from_the_environment() -> None:
    names = ["READER_CACHE_SECONDS", "CACHES"]
    assert settings_in_subprocess(names)["READER_CACHE_SECONDS"] == "300"
    off = settings_in_subprocess(names, READER_CACHE_SECONDS="0", CACHE_URL="redis://x:6379/3")
    assert off["READER_CACHE_SECONDS"] == "0"
    assert "socket_timeout" in off["CACHES"]  # a hanging Redis fails fast: the page renders


def test_a_competition_saved_bumps_its_pages_and_a_slug_given_on_is_followed(
    client: Client, league: League, django_capture_on_commit_callbacks: Any
) -> None:
    url = standings_url(league)
    competition = league.competition
    assert client.get(url).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        competition.name = "Renamed evening"
        competition.save()
    assert "Renamed evening" in client.get(url).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        competition.slug = "moved-on"
        competition.save()
    assert client.get(url).status_code == 404
    assert client.get(reverse("competition_detail", kwargs={"slug": "moved-on"})).status_code == 200


def test_a_koppel_renamed_or_a_matchday_moved_shows_at_the_next_get(
    client: Client, league: League, django_capture_on_commit_callbacks: Any
) -> None:
    """Names and dates edited outside the scoring services (the admin) bump every reader
    page (`NAMES_SCOPE`): not left until the stored page expires."""
    url, day = standings_url(league), matchday_url(league)
    assert client.get(url).status_code == 200
    before = without_tokens(client.get(day).content.decode())
    team = league.games[1].team_a
    with django_capture_on_commit_callbacks(execute=True):
        team.name = "Kampoe Renamed"
        team.save()
    assert "Kampoe Renamed" in client.get(url).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        league.tonight.date = datetime.date(2026, 10, 23)
        league.tonight.save()
    after = without_tokens(client.get(day).content.decode())
    assert after != before
    assert after == without_tokens(client.get(day).content.decode())  # stored again
