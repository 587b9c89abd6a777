"""Squad eligibility: who may play for a club, and what fielding anyone else costs.

Issue 3 ("Competition formats and schedules"): "Squad lists (moederlijst) per club and
season with a lock date; a koppel may only hold players on its club's squad; an
ineligible player makes the match lost (forfeit) or, if it was lost anyway, costs the club
points (the deduction is a competition setting, 3 by default)." Its "Departures and
choices" settle the rest: "For imported or reported data, an ineligible player turns the
match into a forfeit for that side, or costs `ineligible_deduction` points when it lost
anyway. When both sides fielded ineligible players, both lose." So:

- the rule holds in a club competition that requires squads (`eligibility_applies`);
- a player who sat for a club's entry without being on that club's squad (for the
  competition's season) is ineligible (`ineligible_players`);
- a side that fielded one loses the match by forfeit; when it is the only such side and
  lost the match anyway, it keeps that loss and loses `deduction` competition points
  instead (a draw is not a loss); when both sides did, both lose by forfeit
  (`ineligible_penalties`, `ineligible_forfeit`).

A lineup that breaks the rule is refused before it is stored; this is for results stored
anyway (imported or reported data). Sides are "home" and "away", as in `MatchOutcome`;
entries, clubs, players and matches are any hashable ids.
"""

from __future__ import annotations

from collections.abc import Collection, Container, Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import Generic, NamedTuple, TypeVar

from scoring.rules.standings import MatchOutcome
from scoring.rules.types import Forfeit, MatchResult

M = TypeVar("M", bound=Hashable)
E = TypeVar("E", bound=Hashable)
C = TypeVar("C", bound=Hashable)
P = TypeVar("P", bound=Hashable)


def eligibility_applies(*, club_competition: bool, squads_required: bool) -> bool:
    """Whether the squad rule holds: only in a club competition that requires squads."""
    return club_competition and squads_required


class FieldedKoppel(NamedTuple, Generic[M, E, P]):
    """A koppel that sat for one side ("home" / "away") of `match`, for `entry`, at one of
    its games: its two players as (id, name)."""

    match: M
    side: str
    entry: E
    players: tuple[tuple[P, str], tuple[P, str]]


def ineligible_players(
    fielded: Iterable[FieldedKoppel[M, E, P]],
    *,
    clubs: Mapping[E, C | None],
    squads: Container[tuple[C, P]],
) -> dict[M, dict[str, list[str]]]:
    """The players who sat for a club without being on its squad: by match, then side,
    their names, each once, in the order fielded. Matches and sides without one are left
    out.

    `clubs` is the club of each entry; `squads` holds (club, player) for every player on a
    club's squad. A koppel of an entry not in `clubs` (or without a club) is passed over:
    the caller leaves such results out (an entry of another competition).
    """
    found: dict[M, dict[str, list[str]]] = {}
    for koppel in fielded:
        club = clubs.get(koppel.entry)
        if club is None:
            continue
        for player, name in koppel.players:
            if (club, player) in squads:
                continue
            names = found.setdefault(koppel.match, {}).setdefault(koppel.side, [])
            if name not in names:
                names.append(name)
    return found


@dataclass(frozen=True, slots=True)
class IneligiblePenalty:
    """What fielding ineligible players costs one side ("home" / "away") of a match: the
    match lost by forfeit, or (`forfeit` False) `points` competition points deducted."""

    side: str
    forfeit: bool
    points: int = 0


def ineligible_penalties(
    sides: Collection[str], *, home_points: int, away_points: int, deduction: int
) -> list[IneligiblePenalty]:
    """The penalty of each of `sides` (those that fielded an ineligible player), in their
    order, for a match that ended `home_points`–`away_points` in game points.

    One side that lost the match anyway loses `deduction` competition points; one side
    that won or drew, or both sides, lose the match by forfeit.
    """
    home, away = MatchOutcome("home", "away", home_points, away_points).results()
    losing = {
        side for side, result in (("home", home), ("away", away)) if result == MatchResult.LOSS
    }
    return [
        IneligiblePenalty(side, forfeit=False, points=deduction)
        if side in losing and len(sides) == 1
        else IneligiblePenalty(side, forfeit=True)
        for side in sides
    ]


def ineligible_forfeit(penalties: Iterable[IneligiblePenalty]) -> Forfeit | None:
    """Who forfeits the match by `penalties`: home, away or both; None when no side does
    (no penalty, or a deduction only)."""
    forfeited = [penalty.side for penalty in penalties if penalty.forfeit]
    if len(forfeited) == 2:
        return Forfeit.BOTH
    return Forfeit(forfeited[0]) if forfeited else None
