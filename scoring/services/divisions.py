"""The roll of a league's divisions into the next season (`season_divisions_roll`):
promotion and relegation from the final standings, next season's competitions and
entries made in one go."""

from __future__ import annotations

import re
from typing import Any

from django.db import transaction

from scoring.rules import RuleViolation
from scoring.selectors.divisions import DivisionMoves, season_division_moves
from tournaments.models import Competition, Division, Entry
from tournaments.services.entries import entry_add

# Columns of a competition its next season does not take over: its key, name and season,
# and its standings bookkeeping.
NOT_CARRIED = {"id", "slug", "name", "season", "standings_stale_since", "standings_computed_at"}


def _next_text(text: str, season: str, next_season: str, *, limit: int) -> str:
    """`text` with the season in it made the next (or the next season added at the end)."""
    if season and season in text:
        return text.replace(season, next_season)[:limit]
    return f"{text[: limit - len(next_season) - 1]}-{next_season}"


def _next_competition(old: Competition, season: str, next_season: str) -> Competition:
    base = _next_text(old.slug, season, next_season, limit=76)
    base = re.sub(r"[^-a-zA-Z0-9_]", "-", base)
    slug, number = base, 1
    while Competition.objects.filter(slug=slug).exists():
        number += 1
        slug = f"{base}-{number}"
    carried = {
        column.attname: getattr(old, column.attname)
        for column in Competition._meta.concrete_fields
        if column.attname not in NOT_CARRIED
    }
    name = old.name.replace(season, next_season) if season and season in old.name else old.name
    new = Competition.objects.create(**carried, slug=slug, name=name, season=next_season)
    new.directors.set(old.directors.all())
    return new


@transaction.atomic
def season_divisions_roll(*, season: str, next_season: str, by: Any) -> list[Division]:
    """Make `next_season`'s divisions of every league with divisions in `season`: each a
    new competition with the old one's rules and directors, entered by those who stay, the
    `promoted` best of the division below and the `relegated` worst of the division above
    (`season_division_moves`). One transaction: all divisions or none. `by` is the league
    admin (the history rows name the request's user).

    Raises RuleViolation `division_same_season`, `division_none` (season),
    `division_season_exists` (season, league: next season has divisions already),
    `division_boundary_tied` (division, entries, rank: a shared rank across a line).
    """
    season, next_season = season.strip(), next_season.strip()
    if not next_season or season == next_season:
        raise RuleViolation("division_same_season")
    # Lock the season's divisions: two admins confirming at once must not make two next
    # seasons (the second waits, then finds next season made).
    divisions = list(
        Division.objects.select_for_update().filter(season=season).order_by("league", "level")
    )
    if not divisions:
        raise RuleViolation("division_none", season=season)
    leagues = sorted({division.league for division in divisions})
    existing = Division.objects.filter(season=next_season, league__in=leagues).first()
    if existing is not None:
        raise RuleViolation("division_season_exists", season=next_season, league=existing.league)
    moves = season_division_moves(season=season)
    for move in moves:
        if move.tied:
            rank, tied = move.tied[0]
            raise RuleViolation(
                "division_boundary_tied",
                division=move.division.name,
                entries=", ".join(map(str, tied)),
                rank=rank,
            )
    return [_division_next(move, moves, next_season) for move in moves]


def _division_next(move: DivisionMoves, moves: list[DivisionMoves], next_season: str) -> Division:
    old = move.division
    league = [other for other in moves if other.division.league == old.league]
    # The nearest level above sends its relegated down, the nearest below its promoted up.
    above = max(
        (m for m in league if m.division.level < old.level),
        key=lambda m: m.division.level,
        default=None,
    )
    below = min(
        (m for m in league if m.division.level > old.level),
        key=lambda m: m.division.level,
        default=None,
    )
    coming: list[Entry] = [
        *(above.down if above else []),
        *move.staying,
        *(below.up if below else []),
    ]
    competition = _next_competition(old.competition, old.season, next_season)
    for entry in coming:
        entry_add(competition_id=competition.pk, team_id=entry.team_id, club_id=entry.club_id)
    return Division.objects.create(
        league=old.league,
        season=next_season,
        name=old.name,
        level=old.level,
        competition=competition,
        promoted=old.promoted,
        relegated=old.relegated,
    )
