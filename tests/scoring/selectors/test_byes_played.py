"""A bye counts once its matchday is played (issue 6): a matchday is played once one of its
matches has a result — a finished or closed game, reported totals or a forfeit
(`scoring.selectors.results.matchday_results`). Stored results decide, never the clock."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import cast

import pytest
from django.utils import timezone

from scoring.models import Game, Standing
from scoring.selectors.standings import competition_table
from scoring.services.schedule import schedule_round_robin_create
from scoring.services.standings import standings_rebuild
from tests.builders import kaps
from tests.factories import (
    CompetitionFactory,
    GameFactory,
    MatchdayFactory,
    MatchFactory,
    TeamEntryFactory,
)
from tournaments.models import Bye, Competition, Entry, Match, Matchday

pytestmark = pytest.mark.django_db


def rows(competition: Competition) -> dict[int, tuple[int, int, int]]:
    """(played, byes, points) by entry id, as a rebuild computes them now."""
    return {
        cast(int, row.entry): (row.played, row.byes, row.points)
        for row in competition_table(competition=competition)
    }


def round_robin_for_next_march() -> Competition:
    """Five koppels, a round robin generated now for dates next March: one bye a matchday."""
    competition = CompetitionFactory.create(schedule_format="round_robin")
    TeamEntryFactory.create_batch(5, competition=competition)
    next_march = datetime.date(timezone.localdate().year + 1, 3, 6)
    schedule_round_robin_create(competition_id=competition.pk, start=next_march)
    return competition


def test_a_round_robin_for_next_march_gives_nobody_a_bye_today():
    competition = round_robin_for_next_march()
    assert Bye.objects.filter(matchday__competition=competition).count() == 5

    standings_rebuild(competition_id=competition.pk)

    table = Standing.objects.filter(competition=competition)
    assert [(row.played, row.byes, row.points) for row in table] == [(0, 0, 0)] * 5


def test_the_first_result_of_a_matchday_lets_its_bye_count_and_no_other():
    competition = round_robin_for_next_march()
    first = Matchday.objects.get(competition=competition, number=1)
    resting = first.byes.get().entry_id
    game = Game.objects.filter(match__matchday=first).order_by("table").first()
    assert game is not None

    kaps(game, 4)  # the first result of matchday 1, months before its date

    table = rows(competition)
    assert table[resting] == (1, 1, 2)  # the bye of matchday 1 counts, as a win
    winner, loser = game.match.home_id, game.match.away_id
    assert table[winner] == (1, 0, 2)
    assert table[loser] == (1, 0, 0)
    later_byes = set(
        Bye.objects.filter(matchday__competition=competition)
        .exclude(matchday=first)
        .values_list("entry_id", flat=True)
    )
    assert all(table[entry][1] == 0 for entry in later_byes)  # not played yet: no bye
    assert sum(played for played, _byes, _points in table.values()) == 3


# ---------------------------------------------------------------- what "played" means


def close(match: Match) -> None:
    game = GameFactory.create(match=match)
    kaps(game, 1)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.CLOSED)


def finish(match: Match) -> None:
    kaps(GameFactory.create(match=match), 4)


def open_game(match: Match) -> None:
    kaps(GameFactory.create(match=match), 1)


def scheduled_game(match: Match) -> None:
    GameFactory.create(match=match)


def report_totals(match: Match) -> None:
    Match.objects.filter(pk=match.pk).update(total_home=20, total_away=12)


def forfeit(match: Match) -> None:
    Match.objects.filter(pk=match.pk).update(forfeit="away", forfeit_reason="no show")


@pytest.mark.parametrize(
    ("result", "played"),
    [
        (lambda match: None, False),
        (scheduled_game, False),
        (open_game, False),
        (finish, True),
        (close, True),
        (report_totals, True),
        (forfeit, True),
    ],
    ids=["nothing", "game-not-started", "game-in-play", "game-finished", "game-closed",
         "reported-totals", "forfeit"],
)  # fmt: skip
def test_a_bye_counts_once_a_match_of_its_matchday_has_a_result(
    result: Callable[[Match], None], played: bool
):
    competition = CompetitionFactory.create()
    home, away, resting = TeamEntryFactory.create_batch(3, competition=competition)
    first = MatchdayFactory.create(competition=competition, number=1)
    match = MatchFactory.create(matchday=first, home=home, away=away)
    Bye.objects.create(matchday=first, entry=resting)
    second = MatchdayFactory.create(competition=competition, number=2)
    MatchFactory.create(matchday=second, home=away, away=resting)
    Bye.objects.create(matchday=second, entry=home)

    result(match)

    table = rows(competition)
    assert table[resting.pk] == ((1, 1, 2) if played else (0, 0, 0))
    assert table[home.pk][1] == 0  # its bye on matchday 2: not played


def test_byes_in_the_standings_follow_the_played_matchdays(django_assert_max_num_queries):
    competition = CompetitionFactory.create()
    entries: list[Entry] = TeamEntryFactory.create_batch(3, competition=competition)
    for number in range(1, 4):
        matchday = MatchdayFactory.create(competition=competition, number=number)
        home, away, resting = entries[number % 3], entries[(number + 1) % 3], entries[number - 1]
        finish(MatchFactory.create(matchday=matchday, home=home, away=away))
        Bye.objects.create(matchday=matchday, entry=resting)

    with django_assert_max_num_queries(12):
        standings_rebuild(competition_id=competition.pk)

    assert sorted(
        Standing.objects.filter(competition=competition).values_list("byes", "played")
    ) == [
        (1, 3),
        (1, 3),
        (1, 3),
    ]
