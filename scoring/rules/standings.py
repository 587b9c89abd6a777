"""Standings from match outcomes: competition points, columns and tie-breaks.

DESIGN.md "Interchange format" (tie-break keys) and "standings" columns. Entries are any
hashable ids (database ids, or keys in the interchange format); the caller orders them as
they should appear within a tie (e.g. by name).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations, groupby
from operator import attrgetter
from typing import Any, NamedTuple

from scoring.rules.errors import RuleViolation
from scoring.rules.metrics import METRICS
from scoring.rules.types import Forfeit, MatchResult

# The tie-break keys, in the order the admin offers them (`scoring.rules.metrics`).
TIEBREAK_KEYS = tuple(metric.key for metric in METRICS)


@dataclass(frozen=True, slots=True)
class PointsScheme:
    """Competition points for a won, drawn and lost match (RULES.md: 2/1/0 by default)."""

    win: int = 2
    draw: int = 1
    loss: int = 0


class MatchOutcome(NamedTuple):
    """A finished match between two entries: game points summed over its games.

    `*_kaps` / `*_baunies` count the rounds each side won as kap (or kap_partner) / baunie.
    `forfeit` is the side that forfeited (`Forfeit`): it loses whatever the points say,
    and the other side wins (DESIGN.md; issue 3 forfeits).

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
    forfeit: Forfeit | None = None

    def results(self) -> tuple[MatchResult, MatchResult]:
        """The `MatchResult` of home and of away."""
        decided = None if self.forfeit is None else _FORFEITED.get(self.forfeit)
        if decided is not None:
            return decided
        if self.home_points == self.away_points:
            return (MatchResult.DRAW, MatchResult.DRAW)
        if self.home_points > self.away_points:
            return (MatchResult.WIN, MatchResult.LOSS)
        return (MatchResult.LOSS, MatchResult.WIN)


@dataclass(frozen=True, slots=True)
class ByeOutcome:
    """A matchday without opponent, scored as the competition says: `result`, with
    `points_for`/`points_against` game points (issue 3 byes)."""

    entry: Hashable
    result: MatchResult = MatchResult.WIN
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
    """Check a competition's tie-breaks as a director or a file gives them: each a key of
    TIEBREAK_KEYS (DESIGN.md "Interchange format"), each once (a second time would never
    separate anybody; the admin's ordered choice refuses it too).

    Raises RuleViolation: `tiebreak_unknown` (param key), `tiebreak_twice` (param key).
    """
    _check_known(tiebreaks)
    seen: set[str] = set()
    for key in tiebreaks:
        if key in seen:
            raise RuleViolation("tiebreak_twice", key=key)
        seen.add(key)


def _check_known(tiebreaks: Sequence[str]) -> None:
    # What ranking needs: a key stored twice (before `tiebreak_twice` existed) still ranks.
    for key in tiebreaks:
        if key not in TIEBREAK_KEYS:
            raise RuleViolation("tiebreak_unknown", key=key)


# A `MatchOutcome`'s fields as a plain tuple, in its order: what a database row gives (its
# forfeit the stored string, which equals its `Forfeit`).
OutcomeRow = tuple[Hashable, Hashable, int, int, int, int, int, int, "str | None"]


def compute_standings(
    entries: Sequence[Hashable],
    matches: Iterable[MatchOutcome | OutcomeRow],
    *,
    scheme: PointsScheme,
    tiebreaks: Sequence[str],
    byes: Iterable[ByeOutcome] = (),
    deductions: Mapping[Any, int] | None = None,
) -> list[StandingRow]:
    """The ranked table: one row per entry, best first.

    `matches` are `MatchOutcome`s, or tuples of their fields in the same order (a database
    row, unwrapped: issue 7, 7,500 of them at 1,000 koppels).

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
    _check_known(tiebreaks)
    rows = {entry: StandingRow(entry=entry) for entry in entries}
    played = list(matches)
    row_of = rows.get
    # The one loop over every match, kept to what a match changes: game points, kaps,
    # baunies, opponents and one result a side. Every match and bye gives a side exactly
    # one result, so `played` and `points` follow from the results once all are counted.
    for (
        home_id, away_id, home_points, away_points,
        home_kaps, away_kaps, home_baunies, away_baunies, forfeit,
    ) in played:  # fmt: skip
        home, away = row_of(home_id), row_of(away_id)
        if home is None or away is None:
            raise RuleViolation("entry_unknown", entry=home_id if home is None else away_id)
        home.points_for += home_points
        home.points_against += away_points
        away.points_for += away_points
        away.points_against += home_points
        home.kaps += home_kaps
        away.kaps += away_kaps
        home.baunies += home_baunies
        away.baunies += away_baunies
        home.opponents.append(away_id)
        away.opponents.append(home_id)
        decided = None if forfeit is None else _FORFEITED.get(forfeit)
        if decided is None:
            if home_points > away_points:
                home.won += 1
                away.lost += 1
            elif home_points < away_points:
                away.won += 1
                home.lost += 1
            else:
                home.drawn += 1
                away.drawn += 1
        else:
            _tally(home, decided[0])
            _tally(away, decided[1])
    for bye in byes:
        row = rows.get(bye.entry)
        if row is None:
            raise RuleViolation("entry_unknown", entry=bye.entry)
        row.points_for += bye.points_for
        row.points_against += bye.points_against
        row.byes += 1
        _tally(row, bye.result)
    for entry, points in (deductions or {}).items():
        if entry not in rows:
            raise RuleViolation("entry_unknown", entry=entry)
        rows[entry].deducted += points
    win, draw, loss = scheme.win, scheme.draw, scheme.loss
    for row in rows.values():
        row.played = row.won + row.drawn + row.lost
        row.points = row.won * win + row.drawn * draw + row.lost * loss - row.deducted
    points_of = {entry: row.points for entry, row in rows.items()}
    for row in rows.values():
        row.buchholz = sum(map(points_of.__getitem__, row.opponents))

    keys = list(tiebreaks) if "points" in tiebreaks else ["points", *tiebreaks]
    groups: list[list[Hashable]] = [list(entries)]
    start = 0
    while start < len(keys) and any(len(group) > 1 for group in groups):
        if keys[start] == "head_to_head":
            # Indexes the matches between tied entries only (issue 7: 7,500 matches, a few
            # dozen tied entries).
            tied = {entry for group in groups if len(group) > 1 for entry in group}
            meetings = _Meetings(played, tied)
            groups = [
                part
                for group in groups
                for part in (_split(group, rows, meetings, scheme) if len(group) > 1 else (group,))
            ]
            start += 1
            continue
        # A run of column keys separates in one stable sort by all of them together, what
        # splitting by each in turn gives.
        end = start
        while end < len(keys) and keys[end] != "head_to_head":
            end += 1
        columns = attrgetter(*(TIEBREAK_ATTRIBUTES[key] for key in keys[start:end]))
        groups = [
            part
            for group in groups
            for part in (_sort(group, rows, columns) if len(group) > 1 else (group,))
        ]
        start = end

    ranked: list[StandingRow] = []
    for group in groups:
        rank = len(ranked) + 1
        for entry in group:
            rows[entry].rank = rank
            ranked.append(rows[entry])
    return ranked


# The results of a forfeited match, home then away (`MatchOutcome.results`). Keyed by
# `str`: a database row (`OutcomeRow`) gives the stored string, which finds its `Forfeit`.
_FORFEITED: dict[str, tuple[MatchResult, MatchResult]] = {
    Forfeit.BOTH: (MatchResult.LOSS, MatchResult.LOSS),
    Forfeit.HOME: (MatchResult.LOSS, MatchResult.WIN),
    Forfeit.AWAY: (MatchResult.WIN, MatchResult.LOSS),
}


def _tally(row: StandingRow, result: MatchResult) -> None:
    # One result (a win, a draw, anything else a loss); points follow from the tallies.
    if result == MatchResult.WIN:
        row.won += 1
    elif result == MatchResult.DRAW:
        row.drawn += 1
    else:
        row.lost += 1


_AWARD: dict[MatchResult, Callable[[PointsScheme], int]] = {
    MatchResult.WIN: lambda scheme: scheme.win,
    MatchResult.DRAW: lambda scheme: scheme.draw,
    MatchResult.LOSS: lambda scheme: scheme.loss,
}

# The `StandingRow` attribute each column tie-break key compares (its metric's column);
# head_to_head is compared by its mini-table (`_split`), its column set only when it
# decides a tie.
TIEBREAK_ATTRIBUTES: dict[str, str] = {
    metric.key: metric.column for metric in METRICS if metric.key != "head_to_head"
}


class _Meetings:
    """The matches between entries of `tied`, found by entry: a head-to-head among a few
    tied entries reads their matches only, not every match of the competition (issue 7:
    1,000 entries, 7,500 matches, dozens of tied groups)."""

    def __init__(self, matches: list[MatchOutcome | OutcomeRow], tied: set[Hashable]) -> None:
        self._by_home: dict[Hashable, list[MatchOutcome]] = defaultdict(list)
        for match in matches:
            if match[0] in tied and match[1] in tied:
                self._by_home[match[0]].append(MatchOutcome._make(match))

    def among(self, members: set[Hashable]) -> list[MatchOutcome]:
        """The matches between two different entries of `members` (in no given order);
        `members` lie within `tied`."""
        return [
            match
            for home in members
            for match in self._by_home.get(home, ())
            if match.away in members and match.away != match.home
        ]


def _sort(
    group: list[Hashable], rows: dict[Hashable, StandingRow], columns: Callable[[Any], Any]
) -> list[list[Hashable]]:
    """Split one tied group by the values `columns` reads off its rows into sub-groups,
    highest first; order inside is kept (the sort is stable)."""
    values = [columns(rows[entry]) for entry in group]
    order = sorted(range(len(group)), key=values.__getitem__, reverse=True)
    return [
        [group[index] for index in indexes]
        for _value, indexes in groupby(order, key=values.__getitem__)
    ]


def _split(
    group: list[Hashable],
    rows: dict[Hashable, StandingRow],
    matches: _Meetings,
    scheme: PointsScheme,
) -> list[list[Hashable]]:
    """Split one tied group by head-to-head into sub-groups, best first; order inside is
    kept. Sets each entry's `head_to_head` when the mini-table counts."""
    values = _head_to_head(group, matches, scheme)
    if values is None:
        return [group]
    for entry, value in values.items():
        rows[entry].head_to_head = value
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
    if len(meetings) < len(group) * (len(group) - 1) // 2:
        # Some two never met. Said before listing every pair: 1,000 entries tied before any
        # match is played are half a million pairs.
        return None
    counts = {meetings[frozenset(pair)] for pair in combinations(group, 2)}
    if len(counts) != 1 or 0 in counts:
        return None
    return mini
