"""Query budgets of the API's public reads (issue 21), as tests/test_query_budgets.py has
them for the pages: the same competition built at two sizes (its `build`: koppels, three
played matchdays, a forfeit, a deduction, an open game) costs the same number of queries
on each endpoint (flat), and no more than the endpoint's budget, stated here.

Each answer is its stamp (one query, `api.stamps`) and what the endpoint reads; the budget
of each is in its view's docstring too. A poll answered 304 is the stamp alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scoring.models import Game
from tests.factories import ClubFactory
from tests.test_query_budgets import LARGE, SMALL, Built, build
from tournaments.models import Club, Entry, Player

API = "/api/v1/"


@dataclass(frozen=True)
class Sized:
    """A built competition (`tests.test_query_budgets.build`) and the club its koppels'
    first players played for in it."""

    built: Built
    club: Club


def _sized(koppels: int) -> Sized:
    built = build(koppels)
    club = ClubFactory.create(key=f"club-{koppels}")
    entries = Entry.objects.filter(competition=built.competition)
    # Test data, not a write path: the players' club now and the club their entries kept.
    Player.objects.filter(pk__in=entries.values("team__player_1")).update(club=club)
    entries.update(player_1_club=club)
    # The competition counts results once confirmed: its games confirmed, so a player's,
    # koppel's and club's games have rows to page.
    Game.objects.filter(match__matchday__competition=built.competition).exclude(
        status=Game.Status.OPEN
    ).update(confirmed_at=timezone.now())
    return Sized(built, club)


def _koppel(s: Sized) -> str:
    return s.built.game.team_a.key


# Every read endpoint: (path from the built size, its queries: exactly these, at any size).
BUDGETS: dict[str, tuple[Callable[[Sized], str], int]] = {
    "clubs": (lambda s: "clubs/", 2),
    "club": (lambda s: f"clubs/{s.club.key}/", 2),
    "club games": (lambda s: f"clubs/{s.club.key}/games/", 3),
    "players": (lambda s: "players/", 2),
    "players of a club": (lambda s: f"players/?club={s.club.key}", 2),
    "player": (lambda s: f"players/{s.built.game.team_a.player_1.key}/", 2),
    "player games": (lambda s: f"players/{s.built.game.team_a.player_1.key}/games/", 4),
    "koppels": (lambda s: "koppels/", 2),
    "koppels of a club": (lambda s: f"koppels/?club={s.club.key}", 2),
    "koppel": (lambda s: f"koppels/{_koppel(s)}/", 2),
    "koppel games": (lambda s: f"koppels/{_koppel(s)}/games/", 3),
    "competitions": (lambda s: "competitions/", 2),
    "competition": (lambda s: f"competitions/{s.built.competition.slug}/", 2),
    "seasons": (lambda s: "seasons/", 2),
    "season": (lambda s: f"seasons/{s.built.competition.season}/", 3),
    "matchdays": (lambda s: f"competitions/{s.built.competition.slug}/matchdays/", 4),
    "matchday": (
        lambda s: f"competitions/{s.built.competition.slug}/matchdays/{s.built.matchday.number}/",
        3,
    ),
    "fixtures": (
        lambda s: (
            f"competitions/{s.built.competition.slug}/matchdays/{s.built.matchday.number}/matches/"
        ),
        5,
    ),
    "fixtures at a table": (
        lambda s: (
            f"competitions/{s.built.competition.slug}/matchdays/"
            f"{s.built.matchday.number}/matches/?table=2"
        ),
        5,
    ),
    "match": (lambda s: f"matches/{s.built.match.pk}/", 5),
    "game": (lambda s: f"games/{s.built.game.pk}/", 6),
}


@pytest.fixture(scope="module")
def built_sizes(module_atomic: None, django_db_blocker: Any) -> tuple[Sized, Sized]:
    """Built once for the module (`module_atomic`): no test changes them for the next."""
    with django_db_blocker.unblock():
        return _sized(SMALL), _sized(LARGE)


@pytest.fixture
def sizes(db: None, built_sizes: tuple[Sized, Sized]) -> tuple[Sized, Sized]:
    return built_sizes


def _queries(client: Client, path: str, **headers: str) -> tuple[int, Any]:
    client.get(API + path)  # warm: caches of the first request
    with CaptureQueriesContext(connection) as captured:
        response = client.get(API + path, headers=headers)
    return len(captured.captured_queries), response


@pytest.mark.parametrize("name", sorted(BUDGETS))
def test_read_queries_are_flat_and_in_budget(
    name: str, sizes: tuple[Sized, Sized], client: Client
) -> None:
    path_of, budget = BUDGETS[name]
    counts = []
    for size in sizes:
        count, response = _queries(client, path_of(size))
        assert response.status_code == 200, (name, response.content[:200])
        data = response.json()
        rows = data.get("results", data) if isinstance(data, dict) else data
        assert rows, f"{name}: an empty answer measures nothing"
        counts.append(count)
    assert counts[0] == counts[1], f"{name}: {counts[0]} queries at {SMALL}, {counts[1]} at {LARGE}"
    assert counts[1] == budget, f"{name}: {counts[1]} queries, budget {budget}"


@pytest.mark.parametrize("name", sorted(BUDGETS))
def test_a_poll_with_the_etag_is_one_query(
    name: str, sizes: tuple[Sized, Sized], client: Client
) -> None:
    path_of, _budget = BUDGETS[name]
    etag = client.get(API + path_of(sizes[1]))["ETag"]
    count, response = _queries(client, path_of(sizes[1]), **{"If-None-Match": etag})
    assert response.status_code == 304
    assert count == 1
