"""The movement of a club match: which home koppel meets which away koppel, per sitting.

DESIGN.md "How the real game is organised": club against club, each side fielding several
koppels (up to 6), over several sittings; every sitting each home koppel plays one away
koppel. The issue: the away koppels move on (lopende koppels) so each home koppel meets
different away koppels; a club may field fewer koppels than the match has tables (the
competition sets the minimum, e.g. 5 of 6) and bring one in after a set sitting.

Shape: one tuple per sitting, tables 1..N in order, each `MovementTable(table, home, away)`;
None marks a table side without a koppel (an empty slot, or a koppel not yet arrived).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from scoring.rules import RuleViolation

H = TypeVar("H", bound=Hashable)


@dataclass(frozen=True, slots=True)
class MovementTable(Generic[H]):
    """One table in one sitting: the home koppel (stays) against the away koppel (moves)."""

    table: int
    home: H | None
    away: H | None


def away_place(table: int, sitting: int, koppels: int) -> int:
    """The away place (1-based) at `table` in `sitting` (both 1-based), `koppels` a side.

    The movement's one formula: the away koppels move one table on per sitting, so table
    t meets away place (t + s − 2) mod N + 1. `club_movement` builds sittings with it and
    the director's lineup form reads a stored lineup back with it.
    """
    return (table + sitting - 2) % koppels + 1


def club_movement(
    home: Sequence[H | None],
    away: Sequence[H | None],
    *,
    sittings: int,
    late: Mapping[H, int] | None = None,
    minimum: int = 1,
) -> list[tuple[MovementTable[H], ...]]:
    """The tables of every sitting of a club match with N koppels a side.

    `home` and `away` are the N slots of each side (None: the club fields nobody there).
    In sitting s (0-based) table i has home slot i against away slot (i + s) mod N: the
    away koppels move one table on per sitting, so in S ≤ N sittings each home koppel meets
    S different away koppels. `late` maps a koppel to the first sitting (1-based) it plays;
    before that its slot is None. `minimum`: the fewest koppels a side must have at the
    first sitting (the competition's rule, e.g. 5 of 6).

    Raises RuleViolation: `movement_sides_differ` (home, away: the slot counts),
    `movement_no_tables`, `movement_too_many_sittings` (koppels, sittings),
    `movement_duplicate_koppel` (koppel), `movement_late_unknown` (koppel),
    `movement_late_sitting` (koppel, sitting, sittings), `movement_too_few_koppels`
    (side: "home"/"away", koppels, minimum).
    """
    n = len(home)
    if len(away) != n:
        raise RuleViolation("movement_sides_differ", home=n, away=len(away))
    if n == 0:
        raise RuleViolation("movement_no_tables")
    if not 1 <= sittings <= n:
        raise RuleViolation("movement_too_many_sittings", koppels=n, sittings=sittings)
    seen: set[H] = set()
    for koppel in (*home, *away):
        if koppel is None:
            continue
        if koppel in seen:
            raise RuleViolation("movement_duplicate_koppel", koppel=koppel)
        seen.add(koppel)
    first_sitting = dict(late or {})
    for koppel, sitting in first_sitting.items():
        if koppel not in seen:
            raise RuleViolation("movement_late_unknown", koppel=koppel)
        if not 1 <= sitting <= sittings:
            raise RuleViolation(
                "movement_late_sitting", koppel=koppel, sitting=sitting, sittings=sittings
            )
    for side, slots in (("home", home), ("away", away)):
        present = sum(1 for k in slots if k is not None and first_sitting.get(k, 1) == 1)
        if present < minimum:
            raise RuleViolation(
                "movement_too_few_koppels", side=side, koppels=present, minimum=minimum
            )

    def playing(koppel: H | None, sitting: int) -> H | None:
        if koppel is None or first_sitting.get(koppel, 1) > sitting:
            return None
        return koppel

    return [
        tuple(
            MovementTable(
                table=i + 1,
                home=playing(home[i], s + 1),
                away=playing(away[away_place(i + 1, s + 1, n) - 1], s + 1),
            )
            for i in range(n)
        )
        for s in range(sittings)
    ]
