"""The Swiss pairing service writes a matchday's matches and games in bulk (issue 7:
"Swiss pairing of 1,000 entries < 1 s every round"): its queries don't grow with the
field, and every match and game still gets its history row."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.models import Game
from scoring.services.schedule import swiss_matchday_pair
from tests.factories import CompetitionFactory, TeamEntryFactory
from tournaments.models import Match

pytestmark = pytest.mark.django_db


def _pairing_queries(entries: int, matchdays: int) -> list[int]:
    """Queries of each of `matchdays` pairings of a Swiss field of `entries` (no results
    entered: the director overrides the unfinished check)."""
    competition = CompetitionFactory.create(schedule_format="swiss")
    TeamEntryFactory.create_batch(entries, competition=competition)
    counts = []
    for number in range(1, matchdays + 1):
        with CaptureQueriesContext(connection) as queries:
            swiss_matchday_pair(
                competition_id=competition.pk, number=number, override_reason="test"
            )
        counts.append(len(queries))
    return counts


def test_pairing_queries_do_not_grow_with_the_field() -> None:
    # The first matchday skips the previous-matchday queries; after it, the same count.
    small, large = _pairing_queries(7, 3), _pairing_queries(41, 3)
    assert small == large
    assert small[1] == small[2] < 40


def test_every_paired_match_and_game_has_its_history_row() -> None:
    competition = CompetitionFactory.create(schedule_format="swiss")
    TeamEntryFactory.create_batch(9, competition=competition)
    matchday = swiss_matchday_pair(competition_id=competition.pk, number=1)
    matches = list(matchday.matches.order_by("table"))
    assert [match.table for match in matches] == [1, 2, 3, 4]
    assert all(match.pairing_reason["code"] == "same_score_group" for match in matches)
    games = Game.objects.filter(match__matchday=matchday)
    assert sorted((g.match.table, g.table, g.team_a_id, g.team_b_id) for g in games) == [
        (m.table, m.table, m.home.team_id, m.away.team_id) for m in matches
    ]
    assert Match.history.filter(matchday_id=matchday.pk, history_type="+").count() == 4
    assert Game.history.filter(match__matchday=matchday, history_type="+").count() == 4
