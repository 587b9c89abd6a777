"""History across seasons (issue 22): a club's, koppel's and player's all-time table, and
the archive of past seasons.

An all-time table adds up the published standings (`scoring.models.Standing`, the rows
each competition's standings page shows) season by season. A standing's `points` already
has its deductions taken off (`Standing.deducted` says how many), so summing `points`
counts every deduction exactly once, as each season's own table shows it; the deductions
are never read again from `Deduction` (sportsmanagement #1715: an all-time table that
ignored deductions; reading them twice would be the opposite fault).

Whose rows: a club's are its entries in club competitions; a koppel's its entries in
pairs competitions; a player's are the entries of every koppel they played in (pairs
competitions: a club match has no standing of a koppel or a player; those games are in the
player's season rankings).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Q, Sum

from scoring.models import Standing
from tournaments.models import Club, Competition, Division, Player, Team

# Summed per season: the columns of a standings row that add up.
_SUMMED = (
    "played",
    "won",
    "drawn",
    "lost",
    "points",
    "deducted",
    "points_for",
    "points_against",
    "saldo",
    "kaps",
    "baunies",
)


@dataclass(frozen=True, slots=True, kw_only=True)
class AllTimeLine:
    """One season's line (or the total's, `season` None) of an all-time table: the number
    of `competitions`, then the standings columns added up (`points` with the deductions
    already off, `deducted` the points they took)."""

    season: str | None
    competitions: int
    played: int
    won: int
    drawn: int
    lost: int
    points: int
    deducted: int
    points_for: int
    points_against: int
    saldo: int
    kaps: int
    baunies: int


@dataclass(frozen=True, slots=True, kw_only=True)
class AllTimeTable:
    """An all-time table: its `seasons`' lines, newest first, and their `total`."""

    seasons: list[AllTimeLine]
    total: AllTimeLine


def _table(rows: Q) -> AllTimeTable:
    """The all-time table of the standings `rows` pick: one query."""
    sums = {name: Sum(name) for name in _SUMMED}
    lines = [
        AllTimeLine(
            season=row["competition__season"],
            competitions=row["competitions"],
            **{name: row[name] or 0 for name in _SUMMED},
        )
        for row in Standing.objects.filter(rows)
        .values("competition__season")
        .annotate(competitions=Count("competition", distinct=True), **sums)
        .order_by("-competition__season")
    ]
    total = AllTimeLine(
        season=None,
        competitions=sum(line.competitions for line in lines),
        **{name: sum(getattr(line, name) for line in lines) for name in _SUMMED},
    )
    return AllTimeTable(seasons=lines, total=total)


def club_all_time(*, club: Club) -> AllTimeTable:
    """The club's all-time table: its entries in club competitions. One query."""
    return _table(Q(entry__club=club))


def koppel_all_time(*, koppel: Team) -> AllTimeTable:
    """The koppel's all-time table: its entries in pairs competitions. One query."""
    return _table(Q(entry__team=koppel))


def player_all_time(*, player: Player) -> AllTimeTable:
    """The player's all-time table: the entries of every koppel they played in. One
    query."""
    return _table(Q(entry__team__player_1=player) | Q(entry__team__player_2=player))


@dataclass(frozen=True, slots=True, kw_only=True)
class ArchivedSeason:
    """A season of the archive: its name (`season`, "" for competitions without one) and
    its `competitions`, by name; `has_divisions` when the season's competitions are grouped
    in divisions (its page then shows promotion and relegation)."""

    season: str
    competitions: list[Competition]
    has_divisions: bool = False


def seasons_archive() -> list[ArchivedSeason]:
    """Every season with its competitions, newest season first, competitions by name
    (their pages link to their standings), and whether each has divisions. Two queries."""
    divided = set(Division.objects.values_list("season", flat=True).distinct())
    archive: list[ArchivedSeason] = []
    for competition in Competition.objects.order_by("-season", "name", "slug"):
        if not archive or archive[-1].season != competition.season:
            archive.append(
                ArchivedSeason(
                    season=competition.season,
                    competitions=[],
                    has_divisions=competition.season in divided,
                )
            )
        archive[-1].competitions.append(competition)
    return archive
