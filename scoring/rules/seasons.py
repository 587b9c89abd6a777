"""Season rankings: tallies per player, koppel and club, and best-N-of-M averages.

Issue 10: "Season rankings per player, per koppel and per club, across all competitions of
a season ...: games, wins, draws, losses, game points for and against, kaps, baunies,
failed baunies, early kaps, rounds won as caller vs not", and "Best-N-of-M season averages
as a setting (as klaverjas clubs do: e.g. the best 6 of 8 evenings count)".

Past results keep the club and koppel a player played for at the time (issue 10: "a
transfer between seasons never moves old games to the new club, and recomputing changes
nothing"): each `SeasonGame` carries the club of every player as it was at that game, and
the tallies read only that, never a player's current club.

Filtering (competition kind, club, season) is the caller's: it passes the games it wants
counted. Entries are any hashable ids (database ids in the app).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from fractions import Fraction

from scoring.rules.errors import RuleViolation


class SeasonBy(StrEnum):
    """What a season ranking ranks: players, koppels or clubs (issue 10)."""

    PLAYER = "player"
    KOPPEL = "koppel"
    CLUB = "club"


@dataclass(frozen=True, slots=True)
class SeasonSide:
    """One side of a finished game, as the season rankings read it.

    - `koppel`: the koppel's id; `players`: its two players' ids.
    - `clubs`: the club each of `players` played for at the time of the game (same order;
      None for a player without a club, e.g. in an open tournament). The two may differ.
    - `points`: the side's game points in the game (never negative).
    - `kaps`: rounds the side won with a kap or a kap by partner; `baunies`: baunies the
      side made; `failed_baunies`: baunies the side called and failed (`baunie_mislukt`
      about this side); `early_kaps`: kaps the side tapped too early (`kap_te_vroeg`
      about this side). RULES.md "Round results".
    - `won_as_caller` / `won_not_caller`: rounds the side won while one of its players
      called / while the other side called (rounds without a recorded caller count in
      neither).
    """

    koppel: Hashable
    players: tuple[Hashable, Hashable]
    clubs: tuple[Hashable | None, Hashable | None]
    points: int
    kaps: int = 0
    baunies: int = 0
    failed_baunies: int = 0
    early_kaps: int = 0
    won_as_caller: int = 0
    won_not_caller: int = 0


@dataclass(frozen=True, slots=True)
class SeasonGame:
    """One finished game of the season: its `date` (a `datetime.date`), its id `game`, and
    its two sides `a` and `b` (`SeasonSide`). The side with more game points won; level
    points are a draw (a game closed by the director may end level)."""

    date: date
    game: Hashable
    a: SeasonSide
    b: SeasonSide


@dataclass(frozen=True, slots=True)
class SeasonTally:
    """One entry's columns in a season ranking (issue 10).

    `entry` is the player, koppel or club id. `games` = `wins` + `draws` + `losses`;
    `points_for` / `points_against` are game points of the entry's side and of its
    opponents; the other columns add up the entry's side's `SeasonSide` counts.
    """

    entry: Hashable
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points_for: int = 0
    points_against: int = 0
    kaps: int = 0
    baunies: int = 0
    failed_baunies: int = 0
    early_kaps: int = 0
    won_as_caller: int = 0
    won_not_caller: int = 0

    @property
    def saldo(self) -> int:
        return self.points_for - self.points_against


# The SeasonTally columns after `entry`, in order; _add keeps a list of them per entry.
_COLUMNS = 12


def _side_entries(side: SeasonSide, by: SeasonBy) -> list[Hashable]:
    if by is SeasonBy.KOPPEL:
        return [side.koppel]
    if by is SeasonBy.PLAYER:
        return list(dict.fromkeys(side.players))
    # One game counts once for a club, however many of the koppel's players played for it.
    return [club for club in dict.fromkeys(side.clubs) if club is not None]


def _row(side: SeasonSide, other: SeasonSide) -> tuple[int, ...]:
    won = side.points > other.points
    lost = side.points < other.points
    return (
        1,
        int(won),
        int(not won and not lost),
        int(lost),
        side.points,
        other.points,
        side.kaps,
        side.baunies,
        side.failed_baunies,
        side.early_kaps,
        side.won_as_caller,
        side.won_not_caller,
    )


def season_tallies(
    games: Iterable[SeasonGame], *, by: SeasonBy | str
) -> dict[Hashable, SeasonTally]:
    """Each player's, koppel's or club's `SeasonTally` over `games` (issue 10).

    `by` is a `SeasonBy` (or its value: "player", "koppel", "club"). A player is credited
    with their side's whole game (both players of a koppel get the same row); a club with
    every game one of its players played for it *at the time* (`SeasonSide.clubs`), once
    per game and side however many of the koppel's players played for it, and not at all
    for players without a club. A game between two koppels of the same club counts for
    that club once per side (a win and a loss, or two draws): the club played both.

    Returns a dict keyed by entry, in the order entries first appear in the games sorted
    by date (a stable sort: same-day games keep the order given). Entries without games
    are absent. Raises RuleViolation("season_by_unknown", by=…) for any other `by`.
    """
    try:
        ranking = SeasonBy(by)
    except ValueError:
        raise RuleViolation("season_by_unknown", by=str(by)) from None
    totals: dict[Hashable, list[int]] = {}
    for game in sorted(games, key=lambda game: game.date):
        for side, other in ((game.a, game.b), (game.b, game.a)):
            row = _row(side, other)
            for entry in _side_entries(side, ranking):
                total = totals.setdefault(entry, [0] * _COLUMNS)
                for index, value in enumerate(row):
                    total[index] += value
    return {entry: SeasonTally(entry, *total) for entry, total in totals.items()}


def best_n_of_m(evenings: Sequence[int | Fraction], n: int) -> Fraction | None:
    """The best-N-of-M season average (issue 10: "as klaverjas clubs do: e.g. the best 6 of
    8 evenings count"): the `n` highest of `evenings` (one score per evening played; M is
    how many there are) added up and divided by `n`. An evening not played counts as 0, so
    a player with fewer than `n` evenings is not ranked above those who played more on
    the strength of one good evening (a second tester's finding: averaging only the
    evenings played put a one-evening guest first). Ranking on this average is ranking on
    the sum of the best `n` evenings.

    Returns an exact `Fraction`, so averages that are equal compare equal and ties stay
    ties: no rounding happens here; a page rounds only to show it (the ranking itself
    compares the fractions). Evenings with the same score are interchangeable, so which
    of them counts does not matter. None when no evening was played (no average, rather
    than an average of 0).

    Raises RuleViolation("best_of_invalid", count=n) when `n` is below 1.
    """
    if n < 1:
        raise RuleViolation("best_of_invalid", count=n)
    if not evenings:
        return None
    best = sorted(evenings, reverse=True)[:n]
    return Fraction(sum(best, Fraction(0)), n)
