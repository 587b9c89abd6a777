"""Query budgets of the ranked tables' API reads (issue 21): flat as the data grows, and
no more than stated here. The same builders as the pages' budgets
(tests/test_query_budgets.py: a competition of 4 and of 24 koppels, with a forfeit, a
deduction and an open game; tests/rankings/test_season_queries.py: a season grown
threefold).

Budgets, each read once warm (the 304's single query apart):
- standings: the competition (the stamp), a page of rows, the summary, the game counts,
  the adjustments (forfeited matches, their scores in two, deductions) and their entries
  and matches: 10;
- season ranking: the season and its state (the stamp), its clubs, the stored ranking, a
  page of lines: 4;
- ratings: the ratings lock (the stamp), the clubs, the count below, a page: 4;
- any of them unchanged (If-None-Match): 1.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from rankings.models import PlayerRating
from rankings.season_refresh import season_rankings_refresh
from tests.rankings.test_season_queries import SEASON, first_club, grow
from tests.test_query_budgets import LARGE, SMALL, Built, build

# Each holds one query for the stamp's names (`api.stamps.names_version`): the stored
# rows name entries by id, so a rename is only seen there.
STANDINGS_BUDGET = 11
SEASON_BUDGET = 5
RATINGS_BUDGET = 5
UNCHANGED_BUDGET = 2


@pytest.fixture(autouse=True)
def _throttles() -> None:
    cache.clear()


def counted(client: Client, url: str, **headers: str) -> tuple[int, Any]:
    client.get(url, headers=headers)  # warm
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, headers=headers)
    assert response.status_code in (200, 304), (url, response.status_code)
    return len(captured.captured_queries), response


@pytest.fixture(scope="module")
def built_sizes(module_atomic: None, django_db_blocker: Any) -> tuple[Built, Built]:
    with django_db_blocker.unblock():
        return build(SMALL), build(LARGE)


def standings_url(built: Built, query: str = "") -> str:
    return reverse("api:competition-standings", kwargs={"slug": built.competition.slug}) + query


@pytest.mark.parametrize(
    "query", ["", "?page_size=5", "?ordering=-saldo", "?ordering=entry", "?q=Player"]
)
def test_standings_queries_are_flat_and_in_budget(
    db: None, built_sizes: tuple[Built, Built], client: Client, query: str
) -> None:
    counts = [counted(client, standings_url(built, query))[0] for built in built_sizes]
    assert counts[0] == counts[1] <= STANDINGS_BUDGET, counts


def test_the_next_standings_page_costs_the_same(
    db: None, built_sizes: tuple[Built, Built], client: Client
) -> None:
    counts = []
    for built in built_sizes:
        first = client.get(standings_url(built, "?page_size=2")).json()
        counts.append(counted(client, first["next"])[0])
    assert counts[0] == counts[1] <= STANDINGS_BUDGET, counts


def test_unchanged_standings_cost_one_query(
    db: None, built_sizes: tuple[Built, Built], client: Client
) -> None:
    for built in built_sizes:
        etag = client.get(standings_url(built))["ETag"]
        count, response = counted(client, standings_url(built), **{"if-none-match": etag})
        assert response.status_code == 304 and count == UNCHANGED_BUDGET


def season_url(query: str = "") -> str:
    return reverse("api:season-ranking", kwargs={"season": SEASON}) + query


SEASON_QUERIES = [
    lambda: "",
    lambda: "?by=koppel",
    lambda: "?by=club",
    lambda: f"?kind=pairs&club={first_club()}",
    lambda: "?ordering=-saldo&page_size=3",
]


def _rated_club() -> str:
    """The key of a club with a rated player: the ratings' club filter answers 404 for a
    club none of whose players is listed (`first_club` may be such a club)."""
    key = (
        PlayerRating.objects.filter(player__club__isnull=False)
        .order_by("player__club_id")
        .values_list("player__club__key", flat=True)
        .first()
    )
    assert key is not None
    return key


def test_season_and_rating_queries_are_flat_and_in_budget(
    db: None, client: Client, settings: Any
) -> None:
    settings.RATING_MIN_GAMES = 1  # every rated player listed, whatever the environment
    counts: list[list[int]] = []
    for games in (2, 6):
        grow(games)
        season_rankings_refresh(season=SEASON)
        sizes = [counted(client, season_url(query()))[0] for query in SEASON_QUERIES]
        sizes.append(counted(client, reverse("api:rating-list"))[0])
        sizes.append(counted(client, reverse("api:rating-list") + f"?club={_rated_club()}")[0])
        counts.append(sizes)
    assert counts[0] == counts[1], counts
    assert max(counts[1][: len(SEASON_QUERIES)]) <= SEASON_BUDGET, counts
    assert max(counts[1][len(SEASON_QUERIES) :]) <= RATINGS_BUDGET, counts
    etag = client.get(season_url())["ETag"]
    count, response = counted(client, season_url(), **{"if-none-match": etag})
    assert response.status_code == 304 and count == UNCHANGED_BUDGET
