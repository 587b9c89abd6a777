"""Value types of the rules engine: results, sides, rule sets, rounds and points.

All frozen; nothing here knows about Django or the database. RULES.md is the source.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from scoring.rules.errors import RuleViolation


class Result(StrEnum):
    """The outcome of one round (RULES.md "Round results")."""

    GEWONE_WINST = "gewone_winst"
    KAP = "kap"
    KAP_PARTNER = "kap_partner"
    BAUNIE = "baunie"
    BAUNIE_MISLUKT = "baunie_mislukt"
    KAP_TE_VROEG = "kap_te_vroeg"
    REDEAL = "redeal"


KAP_RESULTS = frozenset({Result.KAP, Result.KAP_PARTNER})


class Side(StrEnum):
    """A team at a game's table: `a` sits in seats 1 and 3, `b` in seats 2 and 4."""

    A = "a"
    B = "b"

    @property
    def other(self) -> Side:
        return Side.B if self is Side.A else Side.A


class Forfeit(StrEnum):
    """The side of a match that forfeited: it loses whatever the points say, the other side
    wins; both lose when both forfeit (DESIGN.md; issue 3 forfeits). The values are those
    stored in `Match.forfeit` (a StrEnum equals its value, so stored strings compare)."""

    HOME = "home"
    AWAY = "away"
    BOTH = "both"


class MatchResult(StrEnum):
    """A match's result for one side, or a bye's (`Competition.bye_result` stores these
    values); the competition's points scheme gives its competition points."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


SEATS = (1, 2, 3, 4)


def seat_side(seat: int) -> Side:
    """The team of a seat (1–4, clockwise): seats 1 and 3 are team a (RULES.md "Terms").

    Raises RuleViolation("seat_invalid") for anything but 1–4.
    """
    if seat not in SEATS:
        raise RuleViolation("seat_invalid", seat=seat)
    return Side.A if seat % 2 == 1 else Side.B


def next_seat(seat: int) -> int:
    """The next seat clockwise, the player on the left (RULES.md "Who calls next")."""
    return seat % 4 + 1


@dataclass(frozen=True, slots=True)
class Points:
    """Game points of the two teams, `a` and `b`; never negative."""

    a: int = 0
    b: int = 0

    def __add__(self, other: Points) -> Points:
        return Points(self.a + other.a, self.b + other.b)

    def of(self, side: Side) -> int:
        return self.a if side is Side.A else self.b

    @staticmethod
    def to(side: Side, amount: int) -> Points:
        """`amount` points to `side`, nothing to the other team."""
        return Points(amount, 0) if side is Side.A else Points(0, amount)

    @property
    def leader(self) -> Side | None:
        """The side with more points, None when level."""
        if self.a == self.b:
            return None
        return Side.A if self.a > self.b else Side.B


@dataclass(frozen=True, slots=True)
class RuleSet:
    """A competition's rule-set options (RULES.md "Rule-set options"); defaults are the standard.

    - `target_score`: a game ends when a team reaches it; None = no target (then
      `fixed_rounds` or closing by the director must end the game).
    - `fixed_rounds`: a game ends after this many played rounds (redeals don't count).
    - `kap_partner_allowed`: a kap stopped by the partner scores 2; if False it is refused.
    - `early_kap_penalty`: points to the opponents for a `kap_te_vroeg` (2).
    - `stinkende_kap_bonus` / `stinkende_baunie_bonus`: extra points when the team that did
      not call makes a kap or a baunie; either one above 0 makes a caller mandatory.
    - `redeal_allowed`: the no-picture redeal may be recorded.
    - `callers_required`: every round must name its caller (the competition records callers).
    - `close_by_director_allowed`: a director may end a game before its target (time limit).

    Raises RuleViolation("rule_set_invalid", field=…) for impossible settings.
    """

    target_score: int | None = 20
    fixed_rounds: int | None = None
    kap_partner_allowed: bool = True
    early_kap_penalty: int = 2
    stinkende_kap_bonus: int = 0
    stinkende_baunie_bonus: int = 0
    redeal_allowed: bool = True
    callers_required: bool = False
    close_by_director_allowed: bool = False

    def __post_init__(self) -> None:
        if self.target_score is not None and self.target_score < 1:
            raise RuleViolation("rule_set_invalid", field="target_score")
        if self.fixed_rounds is not None and self.fixed_rounds < 1:
            raise RuleViolation("rule_set_invalid", field="fixed_rounds")
        no_end = self.target_score is None and self.fixed_rounds is None
        if no_end and not self.close_by_director_allowed:
            raise RuleViolation("rule_set_invalid", field="target_score")
        for name in ("early_kap_penalty", "stinkende_kap_bonus", "stinkende_baunie_bonus"):
            if getattr(self, name) < 0:
                raise RuleViolation("rule_set_invalid", field=name)
        if self.early_kap_penalty < 1:
            raise RuleViolation("rule_set_invalid", field="early_kap_penalty")

    @property
    def stinkende_bonus_on(self) -> bool:
        return self.stinkende_kap_bonus > 0 or self.stinkende_baunie_bonus > 0

    @property
    def needs_caller(self) -> bool:
        """Whether every round must name its caller (recorded callers or the stinkende bonus)."""
        return self.callers_required or self.stinkende_bonus_on


@dataclass(frozen=True, slots=True)
class RoundInput:
    """What happened in one round, as recorded at the table.

    `side` is the team the result is about (RULES.md "Round results"); `caller` is the
    caller's seat (1–4) or None when not recorded; `tricks` is (team a, team b) or None.
    """

    result: Result
    side: Side
    caller: int | None = None
    tricks: tuple[int, int] | None = None
