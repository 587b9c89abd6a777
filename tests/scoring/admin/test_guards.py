"""What the admin's guards of results share (issue 6, "admin side doors";
`scoring.admin.guards`): a bulk delete that refuses several rows names each of them, in the
plural. What each model's admin guards is tested with that model (test_matches.py,
test_matchdays.py, test_byes.py, test_scheduled_entries.py, test_competitions.py,
test_games.py)."""

from __future__ import annotations

import pytest

from tests.admin_pages import bulk_delete, said
from tests.admin_scenes import game_with_rounds, pairs_day
from tests.factories import MatchdayFactory

pytestmark = pytest.mark.django_db


def test_several_refused_rows_are_named_in_the_plural(admin_client):
    first, (a, b, c, d) = pairs_day()
    game_with_rounds(first, a, b)
    second = MatchdayFactory.create(competition=first.competition, number=2)
    game_with_rounds(second, c, d)

    chosen, _confirmed = bulk_delete(admin_client, [first, second])

    message = said(chosen)
    assert "are played (a match has a result)" in message
    assert str(first) in message and str(second) in message
