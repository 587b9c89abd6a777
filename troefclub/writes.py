"""What every write service shares: the database's refusals turned into `RuleViolation`s
(`integrity_violation`, `trigger_violations`) and who a write is recorded as
(`acting_user`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, ParamSpec, TypeVar

from django.db import IntegrityError

from scoring.rules import RuleViolation

P = ParamSpec("P")

R = TypeVar("R")


def trigger_violations(service: Callable[P, R]) -> Callable[P, R]:
    """Decorate a service so an error of the database's triggers becomes its RuleViolation.

    The services check who plays where (`scoring.rules.places`) before they write, with the
    entries and the place named; the triggers (migrations tournaments/0004, scoring/0003)
    still refuse what a concurrent write slipped past that check. Their IntegrityError
    becomes `RuleViolation(code)` (`integrity_violation`), so a view shows
    the rule (422) instead of a 500. Put it above `transaction.atomic`: the service's
    transaction (or savepoint) is rolled back before the violation leaves. Other
    IntegrityErrors pass unchanged.
    """

    @wraps(service)
    def guarded(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return service(*args, **kwargs)
        except IntegrityError as exc:
            violation = integrity_violation(exc)
            if violation is None:
                raise
            raise violation from exc

    return guarded


def acting_user(user: Any) -> Any:
    """The user to store as who did a write: `user` when logged in, else None (a table's
    phone, an import, a command or an anonymous request)."""
    return user if getattr(user, "is_authenticated", False) else None


# Codes the database's triggers raise (`troefclub:<code>` in the error's text); see the
# migrations tournaments/0004_one_place_a_matchday and scoring/0003_game_places.
INTEGRITY_CODES = (
    "entry_other_competition",
    "entry_twice_on_matchday",
    "matchday_competition_fixed",
    "entry_scheduled_fixed",
    "pairs_match_one_game",
    "game_koppels_not_of_match",
    "koppel_twice_in_sitting",
)


# Unique constraints that say part of the same rule, as PostgreSQL (constraint name) and
# SQLite (columns) name them in their errors.
_CONSTRAINT_CODES = {
    "match_home_once_per_matchday": "entry_twice_on_matchday",
    "match_away_once_per_matchday": "entry_twice_on_matchday",
    "bye_once_per_matchday": "entry_twice_on_matchday",
    "tournaments_match.matchday_id, tournaments_match.home_id": "entry_twice_on_matchday",
    "tournaments_match.matchday_id, tournaments_match.away_id": "entry_twice_on_matchday",
    "tournaments_bye.matchday_id, tournaments_bye.entry_id": "entry_twice_on_matchday",
    "game_distinct_players": "seat_player_twice",
    # Two admins (or a crafted form) entering one koppel or club at once (issue 18).
    "entry_team_once": "entry_koppel_entered_twice",
    "entry_club_once": "entry_club_entered_twice",
    "tournaments_entry.competition_id, tournaments_entry.team_id": "entry_koppel_entered_twice",
    "tournaments_entry.competition_id, tournaments_entry.club_id": "entry_club_entered_twice",
}


def integrity_violation(exc: Exception) -> RuleViolation | None:
    """The RuleViolation behind a database error raised by one of our triggers (or by a
    unique constraint that says part of the same rule), or None.

    `exc` is usually a `django.db.IntegrityError`; a trigger's text holds
    `troefclub:<code>` on PostgreSQL and SQLite alike.
    """
    text = str(exc)
    for code in INTEGRITY_CODES:
        if f"troefclub:{code}" in text:
            return RuleViolation(code)
    for constraint, code in _CONSTRAINT_CODES.items():
        if constraint in text:
            return RuleViolation(code)
    return None
