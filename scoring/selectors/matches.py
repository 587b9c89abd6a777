"""Reads of one match: the movement of a club match's koppels over the sittings and the
score per sitting.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import groupby
from typing import Any

from scoring.models import Game
from scoring.rules import RuleViolation
from tournaments.models import Competition, Match, Team
from tournaments.schedules import club_movement
from tournaments.selectors import TEAM_JOINS


@dataclass(frozen=True, slots=True)
class SittingScore:
    """One sitting of a club match: its games, the match score after it, and the koppels
    that sit out (facing an empty place: they score nothing this sitting)."""

    number: int
    games: list[Game]
    home: int
    away: int
    running_home: int
    running_away: int
    sits_out: list[Team] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class MatchMovement:
    """How a club match's stored lineup was played: the movement ran over `tables` koppels
    a side for `sittings` sittings (`planned`: the competition's number); `sits_out` by
    sitting number the koppels facing an empty place."""

    tables: int
    sittings: int
    planned: int
    sits_out: dict[int, list[Team]]

    @property
    def capped(self) -> bool:
        """Fewer sittings than the competition plans: too few koppels a side for them."""
        return 0 < self.sittings < self.planned


def match_movement(*, match: Match) -> MatchMovement | None:
    """The movement of a club match from its stored lineup (`Match.lineup`), in one query.

    None for a pairs match or a match without a stored lineup (imported or reported data).
    """
    competition = match.matchday.competition
    lineup = match.lineup or {}
    if competition.kind != Competition.Kind.CLUBS or not lineup:
        return None
    home = [t for t in lineup.get("home") or [] if t is not None]
    away = [t for t in lineup.get("away") or [] if t is not None]
    late = {int(team_id): sitting for team_id, sitting in (lineup.get("late") or {}).items()}
    tables = max(len(home), len(away))
    sittings = min(competition.sittings, tables)
    if not home or not away:
        return MatchMovement(tables, 0, competition.sittings, {})
    try:
        movement = club_movement(
            home + [None] * (tables - len(home)),
            away + [None] * (tables - len(away)),
            sittings=sittings,
            late=late,
        )
    except RuleViolation:
        return None  # a lineup the movement no longer takes: show the games only
    idle: dict[int, list[int]] = {}
    for number, places in enumerate(movement, start=1):
        alone = [
            koppel
            for place in places
            if (place.home is None) != (place.away is None)
            for koppel in (place.home, place.away)
            if koppel is not None
        ]
        if alone:
            idle[number] = alone
    teams = (
        Team.objects.select_related(*TEAM_JOINS).in_bulk({k for ks in idle.values() for k in ks})
        if idle
        else {}
    )
    sits_out = {
        number: [teams[koppel] for koppel in koppels if koppel in teams]
        for number, koppels in idle.items()
    }
    return MatchMovement(tables, sittings, competition.sittings, sits_out)


@dataclass(frozen=True, slots=True)
class TopKoppel:
    """The koppel of one side with the most game points in a match."""

    team: Team
    points: int


def match_sittings(
    *, games: Sequence[Game], movement: MatchMovement | None = None
) -> tuple[list[SittingScore], dict[str, TopKoppel]]:
    """Per sitting the games, the running match score and who sits out (from `movement`);
    the top koppel of each side, once a game has points.

    `games` are ordered by sitting and table. A koppel's points are the game points it
    scored in all its games of the match.
    """
    sits_out = movement.sits_out if movement is not None else {}
    by_sitting = {
        number: list(group) for number, group in groupby(games, key=lambda game: game.sitting)
    }
    sittings: list[SittingScore] = []
    running = [0, 0]
    by_koppel: dict[str, dict[int, list[Any]]] = {"home": {}, "away": {}}
    scored = False
    for number in sorted(set(by_sitting) | set(sits_out)):
        played = by_sitting.get(number, [])
        home = away = 0
        for game in played:
            home_team, away_team = (
                (game.team_a, game.team_b) if game.a_is_home else (game.team_b, game.team_a)
            )
            home_points, away_points = (
                (game.score_a, game.score_b) if game.a_is_home else (game.score_b, game.score_a)
            )
            home += home_points
            away += away_points
            scored = scored or bool(home_points or away_points)
            for side, team, points in (
                ("home", home_team, home_points),
                ("away", away_team, away_points),
            ):
                slot = by_koppel[side].setdefault(team.pk, [team, 0])
                slot[1] += points
        running[0] += home
        running[1] += away
        sittings.append(
            SittingScore(
                number, played, home, away, running[0], running[1], sits_out.get(number, [])
            )
        )
    top: dict[str, TopKoppel] = {}
    for side, koppels in by_koppel.items():
        if koppels and scored:
            # Most points first; on a tie, the koppel that played first (stable order).
            team, points = max(koppels.values(), key=lambda slot: slot[1])
            top[side] = TopKoppel(team, points)
    return sittings, top
