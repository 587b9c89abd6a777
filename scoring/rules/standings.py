"""Standings from match outcomes: competition points, columns and tie-breaks.

DESIGN.md "Interchange format" (tie-break keys) and "standings" columns. Entries are any
hashable ids (database ids, or keys in the interchange format); the caller orders them as
they should appear within a tie (e.g. by name).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, NamedTuple

from scoring.rules.errors import RuleViolation

TIEBREAK_KEYS = (
    "points",
    "saldo",
    "points_for",
    "wins",
    "kaps",
    "baunies",
    "buchholz",
    "head_to_head",
)


@dataclass(frozen=True, slots=True)
class PointsScheme:
    """Competition points for a won, drawn and lost match (RULES.md: 2/1/0 by default)."""

    win: int = 2
    draw: int = 1
    loss: int = 0


class MatchOutcome(NamedTuple):
    """A finished match between two entries: game points summed over its games.

    `*_kaps` / `*_baunies` count the rounds each side won as kap (or kap_partner) / baunie.
    `forfeit` is the side that forfeited ("home", "away", or "both"): it loses whatever
    the points say, and the other side wins (DESIGN.md; issue 3 forfeits).

    A NamedTuple rather than a frozen dataclass: as immutable, and made ten times faster (a
    1,000-koppel league has 7,500 of them per rebuild; issue 7).
    """

    home: Hashable
    away: Hashable
    home_points: int
    away_points: int
    home_kaps: int = 0
    away_kaps: int = 0
    home_baunies: int = 0
    away_baunies: int = 0
    forfeit: str | None = None

    def results(self) -> tuple[str, str]:
        """("win" | "draw" | "loss") for home and for away."""
        if self.forfeit == "both":
            return ("loss", "loss")
        if self.forfeit == "home":
            return ("loss", "win")
        if self.forfeit == "away":
            return ("win", "loss")
        if self.home_points == self.away_points:
            return ("draw", "draw")
        return ("win", "loss") if self.home_points > self.away_points else ("loss", "win")


@dataclass(frozen=True, slots=True)
class ByeOutcome:
    """A matchday without opponent, scored as the competition says: `result` is "win",
    "draw" or "loss", with `points_for`/`points_against` game points (issue 3 byes)."""

    entry: Hashable
    result: str = "win"
    points_for: int = 0
    points_against: int = 0


@dataclass(slots=True)
class StandingRow:
    """One row of the table; `rank` is shared by entries tied on every tie-break key."""

    entry: Hashable
    rank: int = 0
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    points: int = 0
    points_for: int = 0
    points_against: int = 0
    kaps: int = 0
    baunies: int = 0
    buchholz: int = 0
    byes: int = 0
    deducted: int = 0
    head_to_head: int | None = None
    opponents: list[Hashable] = field(default_factory=list)

    @property
    def saldo(self) -> int:
        return self.points_for - self.points_against


def check_tiebreaks(tiebreaks: Sequence[str]) -> None:
    """Raises RuleViolation("tiebreak_unknown", key=…) for a key not in TIEBREAK_KEYS."""
    for key in tiebreaks:
        if key not in TIEBREAK_KEYS:
            raise RuleViolation("tiebreak_unknown", key=key)


def compute_standings(
    entries: Sequence[Hashable],
    matches: Iterable[MatchOutcome],
    *,
    scheme: PointsScheme,
    tiebreaks: Sequence[str],
    byes: Iterable[ByeOutcome] = (),
    deductions: Mapping[Any, int] | None = None,
) -> list[StandingRow]:
    """The ranked table: one row per entry, best first.

    A bye counts as a played match with its result and game points but no opponent (so it
    adds nothing to buchholz or head-to-head). `deductions` are competition points taken
    off an entry (kept in `deducted`; `points` is what is left, and may go below 0).

    Competition points always rank first ("points" is put in front when the list lacks it);
    then each tie-break key, in order, separates only the entries still tied on every key
    before it, higher being better. `head_to_head` is the mini-table of competition points
    among the tied entries, used only when every two of them met equally often. Entries tied
    on every key share a rank (1, 2, 2, 4) and keep the order of `entries`.

    Raises RuleViolation: `tiebreak_unknown`, `entry_unknown` (a match, bye or deduction
    names an entry not in `entries`).
    """
    check_tiebreaks(tiebreaks)
    rows = {entry: StandingRow(entry=entry) for entry in entries}
    played: list[MatchOutcome] = []
    for match in matches:
        home, away = rows.get(match.home), rows.get(match.away)
        if home is None or away is None:
            raise RuleViolation("entry_unknown", entry=match.home if home is None else match.away)
        played.append(match)
        home_result, away_result = match.results()
        _count(home, match.home_points, match.away_points, home_result, scheme)
        _count(away, match.away_points, match.home_points, away_result, scheme)
        home.kaps += match.home_kaps
        away.kaps += match.away_kaps
        home.baunies += match.home_baunies
        away.baunies += match.away_baunies
        home.opponents.append(match.away)
        away.opponents.append(match.home)
    for bye in byes:
        if bye.entry not in rows:
            raise RuleViolation("entry_unknown", entry=bye.entry)
        _count(rows[bye.entry], bye.points_for, bye.points_against, bye.result, scheme)
        rows[bye.entry].byes += 1
    for entry, points in (deductions or {}).items():
        if entry not in rows:
            raise RuleViolation("entry_unknown", entry=entry)
        rows[entry].deducted += points
        rows[entry].points -= points
    for row in rows.values():
        row.buchholz = sum(rows[opponent].points for opponent in row.opponents)

    keys = list(tiebreaks) if "points" in tiebreaks else ["points", *tiebreaks]
    groups: list[list[Hashable]] = [list(entries)]
    meetings = _Meetings(played)
    for key in keys:
        groups = [part for group in groups for part in _split(group, key, rows, meetings, scheme)]

    ranked: list[StandingRow] = []
    for group in groups:
        rank = len(ranked) + 1
        for entry in group:
            rows[entry].rank = rank
            ranked.append(rows[entry])
    return ranked


def _count(row: StandingRow, own: int, other: int, result: str, scheme: PointsScheme) -> None:
    row.played += 1
    row.points_for += own
    row.points_against += other
    if result == "win":
        row.won += 1
        row.points += scheme.win
    elif result == "draw":
        row.drawn += 1
        row.points += scheme.draw
    else:
        row.lost += 1
        row.points += scheme.loss


_AWARD: dict[str, Callable[[PointsScheme], int]] = {
    "win": lambda scheme: scheme.win,
    "draw": lambda scheme: scheme.draw,
    "loss": lambda scheme: scheme.loss,
}

_COLUMN: dict[str, Callable[[StandingRow], int]] = {
    "points": lambda row: row.points,
    "saldo": lambda row: row.saldo,
    "points_for": lambda row: row.points_for,
    "wins": lambda row: row.won,
    "kaps": lambda row: row.kaps,
    "baunies": lambda row: row.baunies,
    "buchholz": lambda row: row.buchholz,
}


class _Meetings:
    """The matches played, found by entry: a head-to-head among a few tied entries reads
    their matches only, not every match of the competition (issue 7: 1,000 entries, 7,500
    matches, dozens of tied groups). Indexed on first use."""

    def __init__(self, matches: list[MatchOutcome]) -> None:
        self.matches = matches
        self._by_home: dict[Hashable, list[MatchOutcome]] | None = None

    def among(self, members: set[Hashable]) -> list[MatchOutcome]:
        """The matches between two different entries of `members` (in no given order)."""
        if self._by_home is None:
            self._by_home = defaultdict(list)
            for match in self.matches:
                self._by_home[match.home].append(match)
        return [
            match
            for home in members
            for match in self._by_home.get(home, ())
            if match.away in members and match.away != match.home
        ]


def _split(
    group: list[Hashable],
    key: str,
    rows: dict[Hashable, StandingRow],
    matches: _Meetings,
    scheme: PointsScheme,
) -> list[list[Hashable]]:
    """Split one tied group by `key` into sub-groups, best first; order inside is kept."""
    if len(group) < 2:
        return [group]
    if key == "head_to_head":
        values = _head_to_head(group, matches, scheme)
        if values is None:
            return [group]
        for entry, value in values.items():
            rows[entry].head_to_head = value
    else:
        column = _COLUMN[key]
        values = {entry: column(rows[entry]) for entry in group}
    by_value: dict[int, list[Hashable]] = defaultdict(list)
    for entry in group:
        by_value[values[entry]].append(entry)
    return [by_value[value] for value in sorted(by_value, reverse=True)]


def _head_to_head(
    group: list[Hashable], matches: _Meetings, scheme: PointsScheme
) -> dict[Hashable, int] | None:
    """Competition points each entry of `group` earned against the others of `group`.

    None when the mini-table would be unfair: some two of them met more often than others
    (or never), so head-to-head separates nobody.
    """
    members = set(group)
    meetings: Counter[frozenset[Hashable]] = Counter()
    mini = dict.fromkeys(group, 0)
    for match in matches.among(members):
        meetings[frozenset((match.home, match.away))] += 1
        for entry, result in zip((match.home, match.away), match.results(), strict=True):
            mini[entry] += _AWARD[result](scheme)
    counts = {meetings[frozenset(pair)] for pair in combinations(group, 2)}
    if len(counts) != 1 or 0 in counts:
        return None
    return mini
