"""Club-match movement: DESIGN.md "every sitting each home koppel plays one away koppel";
the issue "the movement rotates the away koppels (lopende koppels) so each home koppel
meets different away koppels; a club may field fewer koppels (the competition sets the
minimum, e.g. 5 of 6) and bring one in after a set sitting"."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from typing import TypeVar

import pytest

from scoring.rules import RuleViolation
from tournaments.schedules import MovementTable, club_movement

K = TypeVar("K", bound=Hashable)


def koppels_meet_counts(
    movement: Sequence[tuple[MovementTable[K], ...]],
    home: Sequence[K | None],
    away: Sequence[K | None],
) -> dict[K, Counter[K]]:
    """How often each home koppel met each away koppel. Checks on the way that every
    sitting has tables 1..N once each, the home koppels stay at their own table, and no
    away koppel sits at two tables of one sitting."""
    n = len(home)
    meets: dict[K, Counter[K]] = {k: Counter() for k in home if k is not None}
    for sitting in movement:
        assert [t.table for t in sitting] == list(range(1, n + 1))
        assert all(t.home in (None, home[t.table - 1]) for t in sitting)
        playing = [t.away for t in sitting if t.away is not None]
        assert len(playing) == len(set(playing))
        assert set(playing) <= set(away)
        for t in sitting:
            if t.home is not None and t.away is not None:
                meets[t.home][t.away] += 1
    return meets


def _sides(n: int) -> tuple[list[str | None], list[str | None]]:
    return [f"H{i}" for i in range(1, n + 1)], [f"A{i}" for i in range(1, n + 1)]


@pytest.mark.parametrize("n", [4, 5, 6])
def test_when_sittings_equal_koppels_every_home_koppel_meets_every_away_koppel_once(
    n: int,
) -> None:
    home, away = _sides(n)
    movement = club_movement(home, away, sittings=n)
    assert len(movement) == n
    meets = koppels_meet_counts(movement, home, away)
    assert all(counts == Counter(away) for counts in meets.values())


@pytest.mark.parametrize(("n", "sittings"), [(4, 1), (4, 3), (5, 2), (5, 4), (6, 3), (6, 4)])
def test_fewer_sittings_still_give_each_home_koppel_different_away_koppels(
    n: int, sittings: int
) -> None:
    home, away = _sides(n)
    movement = club_movement(home, away, sittings=sittings)
    assert len(movement) == sittings
    for counts in koppels_meet_counts(movement, home, away).values():
        assert sum(counts.values()) == sittings
        assert set(counts.values()) == {1}


@pytest.mark.parametrize("n", [4, 5, 6])
def test_each_sitting_uses_every_away_koppel_once(n: int) -> None:
    home, away = _sides(n)
    for sitting in club_movement(home, away, sittings=n):
        assert sorted(str(t.away) for t in sitting) == sorted(str(k) for k in away)


def test_the_away_koppels_move_one_table_on_per_sitting() -> None:
    # Kampoe–Toppers over 4 sittings (DESIGN.md's published example), 4 koppels a side.
    home = ["K1", "K2", "K3", "K4"]
    away = ["T1", "T2", "T3", "T4"]
    movement = club_movement(home, away, sittings=4)
    assert movement[0] == tuple(
        MovementTable(table=i + 1, home=home[i], away=away[i]) for i in range(4)
    )
    assert [(t.home, t.away) for t in movement[1]] == [
        ("K1", "T2"),
        ("K2", "T3"),
        ("K3", "T4"),
        ("K4", "T1"),
    ]
    assert [t.away for t in movement[3]] == ["T4", "T1", "T2", "T3"]


def test_a_club_fielding_five_of_six_leaves_one_table_side_empty_each_sitting() -> None:
    home, away = _sides(6)
    away[5] = None
    movement = club_movement(home, away, sittings=6, minimum=5)
    for sitting in movement:
        assert sum(1 for t in sitting if t.away is None) == 1
    meets = koppels_meet_counts(movement, home, away)
    # the empty slot moves too: every home koppel sits out against it exactly once
    assert all(counts == Counter(k for k in away if k is not None) for counts in meets.values())


def test_a_home_club_fielding_fewer_keeps_its_empty_table() -> None:
    home, away = _sides(5)
    home[2] = None
    movement = club_movement(home, away, sittings=3)
    assert all(sitting[2].home is None for sitting in movement)
    assert [sitting[2].away for sitting in movement] == ["A3", "A4", "A5"]


def test_fewer_koppels_than_the_competitions_minimum_are_refused() -> None:
    home, away = _sides(6)
    away[5] = None
    with pytest.raises(RuleViolation) as caught:
        club_movement(home, away, sittings=4, minimum=6)
    assert caught.value.code == "movement_too_few_koppels"
    assert caught.value.params == {"side": "away", "koppels": 5, "minimum": 6}


def test_a_late_koppel_plays_from_its_first_sitting_on() -> None:
    home, away = _sides(6)
    movement = club_movement(home, away, sittings=4, late={"A6": 3}, minimum=5)
    a6 = [
        next(t for t in sitting if (t.table - 1 + s) % 6 == 5) for s, sitting in enumerate(movement)
    ]
    assert [t.away for t in a6] == [None, None, "A6", "A6"]
    assert [t.home for t in a6] == ["H6", "H5", "H4", "H3"]
    meets = koppels_meet_counts(movement, home, away)
    assert all(max(counts.values()) == 1 for counts in meets.values() if counts)


def test_a_late_koppel_does_not_count_towards_the_minimum() -> None:
    home, away = _sides(6)
    with pytest.raises(RuleViolation) as caught:
        club_movement(home, away, sittings=4, late={"H1": 2}, minimum=6)
    assert caught.value.params == {"side": "home", "koppels": 5, "minimum": 6}


@pytest.mark.parametrize("sittings", [0, 5, 7])
def test_sittings_outside_one_to_koppels_are_refused(sittings: int) -> None:
    home, away = _sides(4)
    with pytest.raises(RuleViolation) as caught:
        club_movement(home, away, sittings=sittings)
    assert caught.value.code == "movement_too_many_sittings"
    assert caught.value.params == {"koppels": 4, "sittings": sittings}


@pytest.mark.parametrize(
    ("home", "away", "late", "code", "params"),
    [
        (["H1", "H2"], ["A1"], {}, "movement_sides_differ", {"home": 2, "away": 1}),
        ([], [], {}, "movement_no_tables", {}),
        (["H1", "H1"], ["A1", "A2"], {}, "movement_duplicate_koppel", {"koppel": "H1"}),
        (["H1", "H2"], ["A1", "A2"], {"X": 2}, "movement_late_unknown", {"koppel": "X"}),
        (
            ["H1", "H2"],
            ["A1", "A2"],
            {"A2": 3},
            "movement_late_sitting",
            {"koppel": "A2", "sitting": 3, "sittings": 2},
        ),
    ],
    ids=["sides-differ", "no-tables", "duplicate", "late-unknown", "late-after-last"],
)
def test_impossible_movements_are_refused(
    home: list[str], away: list[str], late: dict[str, int], code: str, params: dict[str, object]
) -> None:
    with pytest.raises(RuleViolation) as caught:
        club_movement(home, away, sittings=min(2, max(len(home), 1)), late=late)
    assert (caught.value.code, caught.value.params) == (code, params)
