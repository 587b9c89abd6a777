"""The parsed document: the values `interchange.parse` read from a file, checked
and placed, ready for `competition_import` to write.

Each object keeps its `place` (docs/interchange.md "Errors") so that a rule the engine or
the services refuse later is named where the file says it; `instance` and `pk` are filled
in by the import as it writes the rows.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from scoring.rules import Forfeit
from tournaments.models import Match, Matchday


@dataclass
class _Round:
    place: str
    result: str
    side: str
    caller: str | None
    tricks: tuple[int, int] | None


@dataclass
class _Game:
    place: str
    table: int
    sitting: int
    team_a: str
    team_b: str
    a_is_home: bool
    seats: list[str] | None
    rounds: list[_Round]
    totals: tuple[int, int] | None
    closed: bool
    confirmed: bool = False
    pk: int | None = None
    voided: tuple[datetime.datetime, str] | None = None  # when, why (issue 22)


@dataclass
class _Match:
    place: str
    home: str
    away: str
    games: list[_Game]
    totals: tuple[int, int] | None
    table: int | None = None
    forfeit: tuple[Forfeit, str, Match.ForfeitCause] | None = None  # side, reason, cause
    pairing_reason: dict[str, Any] = field(default_factory=dict)
    instance: Match | None = None
    voided: tuple[datetime.datetime, str] | None = None  # when, why (issue 22)
    replay_of: tuple[int, str] | None = None  # the voided match's matchday number, slug

    @property
    def slug(self) -> str:
        return f"{self.home}-{self.away}"


@dataclass
class _Matchday:
    place: str
    number: int
    date: datetime.date | None
    matches: list[_Match]
    override_reason: str = ""
    time: datetime.time | None = None
    byes: list[tuple[str, dict[str, Any]]] = field(default_factory=list)  # entry, reason
    instance: Matchday | None = None


@dataclass
class _Deduction:
    place: str
    entry: str
    points: int
    reason: str
    match: _Match | None
    voided: tuple[datetime.datetime, str] | None = None  # when, why


@dataclass
class _Squad:
    place: str
    club: str
    season: str
    locked_on: datetime.date | None
    players: list[str]


@dataclass
class _Document:
    competition: dict[str, Any]
    clubs: dict[str, str] = field(default_factory=dict)  # key -> name, file order
    players: dict[str, tuple[str, str | None]] = field(default_factory=dict)  # name, club
    teams: dict[str, tuple[str, str, str]] = field(default_factory=dict)  # p1, p2, name
    entries: list[str] = field(default_factory=list)
    matchdays: list[_Matchday] = field(default_factory=list)
    deductions: list[_Deduction] = field(default_factory=list)
    squads: list[_Squad] = field(default_factory=list)
    withdrawals: list[dict[str, Any]] = field(default_factory=list)  # issue 22
    stages: dict[str, Any] = field(default_factory=dict)  # `interchange.stages`
