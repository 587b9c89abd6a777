"""The order games are taken in (`rankings.selectors.GAME_ORDER`): by date, an undated
matchday at the date of the nearest dated matchday of its competition (earlier first,
else later), so the ratings rate it between its neighbours, not before every dated game
of every season (a second tester found 2025's undated evening rated before 2023's games).
"""

from __future__ import annotations

import datetime

import pytest

from rankings.models import RatedGame
from rankings.selectors import game_rows
from rankings.services import ratings_rebuild, ratings_refresh
from scoring.selectors.counted import games_counted
from tests.builders import finished_game, pairs_game, pairs_matchday
from tests.factories import MatchdayFactory
from tournaments.models import Matchday

pytestmark = pytest.mark.django_db


def _evening(season: int, dates: list[datetime.date | None]) -> list[int]:
    """A pairs competition of `season` with one finished game on each matchday of
    `dates` (in number order); the games' ids in that order."""
    competition, first, entries = pairs_matchday(2)
    competition.season = f"{season}-{season + 1}"
    competition.save()
    days = [first] + [
        MatchdayFactory.create(competition=competition, number=n) for n in range(2, len(dates) + 1)
    ]
    games = []
    for day, when in zip(days, dates, strict=True):
        day.date = when
        day.save()
        games.append(finished_game(pairs_game(day, entries[0], entries[1], table=1)).pk)
    return games


def test_an_undated_matchday_is_taken_between_its_dated_neighbours():
    d = datetime.date
    old = _evening(2023, [d(2023, 10, 6), d(2023, 10, 13)])
    new = _evening(2025, [d(2025, 10, 31), None, d(2025, 11, 28)])
    only_later = _evening(2024, [None, d(2024, 10, 4)])  # no earlier date: the later one's
    undated = _evening(2022, [None])  # a competition without any date: first of all

    expected = [*undated, *old, only_later[0], only_later[1], *new]
    assert [row.game for row in game_rows(games_counted())] == expected
    ratings_rebuild()
    assert list(RatedGame.objects.order_by("position").values_list("game", flat=True)) == expected
    # The date shown stays the matchday's own: none.
    assert [row.date for row in game_rows(games_counted()) if row.game == new[1]] == [None]


def test_dating_an_undated_matchday_later_moves_its_game_in_the_ratings():
    d = datetime.date
    games = _evening(2025, [d(2025, 10, 31), None, d(2025, 11, 28)])
    ratings_rebuild()
    Matchday.objects.filter(date__isnull=True).update(date=d(2025, 12, 5))
    assert ratings_refresh() == 2  # the signature (its date) changed: replayed from there
    order = list(RatedGame.objects.order_by("position").values_list("game", flat=True))
    assert order == [games[0], games[2], games[1]]
