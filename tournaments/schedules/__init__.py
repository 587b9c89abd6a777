"""Schedules: round robin (Berger tables), Swiss pairing, club-match movement.

Pure functions over frozen dataclasses, like `scoring.rules`: no Django, no I/O; entries
are any hashable ids and refusals are `RuleViolation(code, **params)` for the edges to
word. networkx is used by `swiss` only.
"""

from tournaments.schedules.movement import MovementTable, away_place, club_movement
from tournaments.schedules.round_robin import RoundPairing, berger_tables, round_robin
from tournaments.schedules.swiss import SwissEntrant, SwissPairing, SwissRound, swiss_pair

__all__ = [
    "MovementTable",
    "RoundPairing",
    "SwissEntrant",
    "SwissPairing",
    "SwissRound",
    "berger_tables",
    "away_place",
    "club_movement",
    "round_robin",
    "swiss_pair",
]
