"""Round robin by Berger tables: every entry meets every other once per cycle.

The issue "Round robin for any number of entries": Berger tables, a bye when the count is
odd, single or double (the second cycle with home and away swapped), generated in one go
for the whole season. Entries are any hashable ids; the caller's order gives the Berger
numbers (the first entry is number 1), so the same input always gives the same schedule.

Shape: one `RoundPairing` per matchday, `pairs` as (home, away), in board order.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from scoring.rules import RuleViolation

H = TypeVar("H", bound=Hashable)


@dataclass(frozen=True, slots=True)
class RoundPairing(Generic[H]):
    """One matchday: the matches as (home, away) and the entry sitting out, if any."""

    pairs: tuple[tuple[H, H], ...]
    bye: H | None = None


def round_robin(entries: Sequence[H], *, double: bool = False) -> list[RoundPairing[H]]:
    """Every matchday of a round robin over `entries`, by the Berger tables.

    n entries give n − 1 matchdays when n is even, n matchdays with one bye each when n is
    odd (the bye takes the place of Berger number n + 1). Home and away follow the Berger
    rule, so per cycle every entry's home and away matches differ by at most one (and are
    equal when n is odd). `double=True` appends a second cycle, same order, home and away
    swapped.

    Raises RuleViolation: `schedule_too_few_entries` (count), `schedule_duplicate_entry`
    (entry).
    """
    if len(entries) < 2:
        raise RuleViolation("schedule_too_few_entries", count=len(entries))
    seen: set[H] = set()
    for entry in entries:
        if entry in seen:
            raise RuleViolation("schedule_duplicate_entry", entry=entry)
        seen.add(entry)

    numbered: list[H | None] = [None, *entries]  # Berger numbers are 1-based
    if len(entries) % 2:
        numbered.append(None)  # the bye sits on the fixed number n
    first = [_matchday(numbered, table) for table in berger_tables(len(numbered) - 1)]
    if not double:
        return first
    second = [
        RoundPairing(pairs=tuple((away, home) for home, away in day.pairs), bye=day.bye)
        for day in first
    ]
    return first + second


def berger_tables(n: int) -> list[list[tuple[int, int]]]:
    """The Berger tables for an even `n`: per round, (home, away) Berger numbers by board.

    FIDE Handbook C.05 Annex 1. Number n is fixed on board 1 and plays away in odd
    rounds, at home in even rounds; the others meet when their numbers add up to
    round + 1 (mod n − 1), the lower number at home when the sum is odd, the higher when it
    is even. For n = 4: [1–4, 2–3], [4–3, 1–2], [2–4, 3–1].
    """
    if n < 2 or n % 2:
        raise ValueError(f"Berger tables need an even number ≥ 2, not {n}")
    m = n - 1
    rounds: list[list[tuple[int, int]]] = []
    for rnd in range(1, n):
        # the number that meets n this round: 2·p ≡ rnd + 1 (mod m), with p in 1..m
        fixed_partner = (rnd + 1) * (m + 1) // 2 % m or m  # (m + 1) / 2 is ½ mod m
        boards = [(fixed_partner, n) if rnd % 2 else (n, fixed_partner)]
        for board in range(1, n // 2):
            a = (fixed_partner + board - 1) % m + 1
            b = (fixed_partner - board - 1) % m + 1
            low, high = min(a, b), max(a, b)
            boards.append((low, high) if (low + high) % 2 else (high, low))
        rounds.append(boards)
    return rounds


def _matchday(numbered: list[H | None], boards: list[tuple[int, int]]) -> RoundPairing[H]:
    pairs: list[tuple[H, H]] = []
    bye: H | None = None
    for home_number, away_number in boards:
        home, away = numbered[home_number], numbered[away_number]
        if home is None:
            bye = away
        elif away is None:
            bye = home
        else:
            pairs.append((home, away))
    return RoundPairing(pairs=tuple(pairs), bye=bye)
