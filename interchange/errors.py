"""What an import refuses, and where: `InterchangeError(place, message)`.

Places name objects the way a director reads them (docs/interchange.md "Errors"):
`competition, rules`, `players[p07]`, `matchday 2, match kampoe-toppers, game table 3,
round 5`; `_join` puts the parts of a place together and `_violation` words a rule the
engine refuses (`troefclub.rule_messages.rule_message`), with a game's round number in the place.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from scoring.rules import RuleViolation
from troefclub.rule_messages import rule_message


class InterchangeError(Exception):
    """A document that can't be imported: `place` says where, `message` what is wrong.

    `code` is the RuleViolation code when a rule was broken, None for a malformed document.
    """

    def __init__(self, place: str, message: str, *, code: str | None = None) -> None:
        super().__init__(place, message)
        self.place = place
        self.message = message
        self.code = code

    def __str__(self) -> str:
        return f"{self.place}: {self.message}"


def _join(*parts: str) -> str:
    return ", ".join(part for part in parts if part)


def _violation(
    place: str, exc: RuleViolation, *, seat_names: dict[int, str] | None = None
) -> InterchangeError:
    """A rule violation as an InterchangeError; a game's round number goes into the place."""
    params = {key: value for key, value in exc.params.items() if key != "round"}
    if "round" in exc.params:
        place = _join(place, _("round %(number)s") % {"number": exc.params["round"]})
    text = rule_message(RuleViolation(exc.code, **params), seat_names=seat_names)
    return InterchangeError(place, text, code=exc.code)
