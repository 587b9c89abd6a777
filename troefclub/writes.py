"""What every write service shares: the database's trigger refusals turned into
`RuleViolation`s (`trigger_violations`) and who a write is recorded as (`acting_user`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, ParamSpec, TypeVar

from django.db import IntegrityError

from scoring.messages import integrity_violation

P = ParamSpec("P")

R = TypeVar("R")


def trigger_violations(service: Callable[P, R]) -> Callable[P, R]:
    """Decorate a service so an error of the database's triggers becomes its RuleViolation.

    The services check who plays where (`scoring.rules.places`) before they write, with the
    entries and the place named; the triggers (migrations tournaments/0004, scoring/0003)
    still refuse what a concurrent write slipped past that check. Their IntegrityError
    becomes `RuleViolation(code)` (`scoring.messages.integrity_violation`), so a view shows
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
