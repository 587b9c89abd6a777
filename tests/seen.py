"""What a director's page would send along with a write, read from the database now.

The services require what the form saw (the round number a new round gets, a `seen`
token). Tests that only set a scene call the services as a page opened just now would:
these helpers read those values. The guards themselves (a stale or missing value is
refused) are tested in tests/scoring/services/test_stale_writes.py and
tests/scoring/test_double_submit.py.
"""

from __future__ import annotations

from django.db.models import Max

from scoring.models import Round
from scoring.tokens import game_token_now, match_token_now, matchday_token
from tournaments.models import Matchday
from tournaments.tokens import deductions_token

__all__ = [
    "deductions_token",
    "game_token_now",
    "match_token_now",
    "matchday_token",
    "next_matchday",
    "next_round",
    "round_seen",
]


def next_round(game_id: int) -> int:
    """The round number the score sheet of `game_id` offers now."""
    return Round.objects.filter(game_id=game_id).count() + 1


def round_seen(round_id: int) -> str:
    """The token a correction or delete page of `round_id` carries now."""
    return Round.objects.get(pk=round_id).token


def next_matchday(competition_id: int) -> int:
    """The matchday number the schedule page of `competition_id` offers to add or pair now."""
    last = Matchday.objects.filter(competition_id=competition_id).aggregate(n=Max("number"))["n"]
    return (last or 0) + 1
