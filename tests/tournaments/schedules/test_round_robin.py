"""Round robin by Berger tables: the issue "Round robin for any number of entries (Berger
tables; a bye when the count is odd), single or double (home and away swapped)"."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from scoring.rules import RuleViolation
from tournaments.schedules import RoundPairing, berger_tables, round_robin

COUNTS = range(2, 21)


def _cycles(days: list[RoundPairing[int]], n: int, double: bool) -> list[list[RoundPairing[int]]]:
    length = n - 1 if n % 2 == 0 else n
    assert len(days) == length * (2 if double else 1)
    return [days[start : start + length] for start in range(0, len(days), length)]


@pytest.mark.parametrize("double", [False, True], ids=["single", "double"])
@pytest.mark.parametrize("n", COUNTS)
def test_every_pair_meets_exactly_once_per_cycle(n: int, double: bool) -> None:
    entries = list(range(n))
    for cycle in _cycles(round_robin(entries, double=double), n, double):
        met = Counter(frozenset(pair) for day in cycle for pair in day.pairs)
        assert met == Counter(frozenset(pair) for pair in combinations(entries, 2))


@pytest.mark.parametrize("double", [False, True], ids=["single", "double"])
@pytest.mark.parametrize("n", COUNTS)
def test_every_entry_plays_once_per_matchday_and_odd_counts_give_one_bye(
    n: int, double: bool
) -> None:
    entries = list(range(n))
    for cycle in _cycles(round_robin(entries, double=double), n, double):
        for day in cycle:
            playing = [entry for pair in day.pairs for entry in pair]
            if n % 2:
                assert day.bye is not None
                playing.append(day.bye)
            else:
                assert day.bye is None
            assert sorted(playing) == entries
        if n % 2:
            # each entry sits out exactly once per cycle
            assert sorted(day.bye for day in cycle if day.bye is not None) == entries


@pytest.mark.parametrize("double", [False, True], ids=["single", "double"])
@pytest.mark.parametrize("n", COUNTS)
def test_home_and_away_matches_differ_by_at_most_one_per_cycle(n: int, double: bool) -> None:
    for cycle in _cycles(round_robin(list(range(n)), double=double), n, double):
        home = Counter(pair[0] for day in cycle for pair in day.pairs)
        away = Counter(pair[1] for day in cycle for pair in day.pairs)
        for entry in range(n):
            # odd n: n − 1 matches (even), so exactly as many home as away
            assert abs(home[entry] - away[entry]) <= (0 if n % 2 else 1)


@pytest.mark.parametrize("n", COUNTS)
def test_double_round_robin_repeats_the_first_cycle_with_home_and_away_swapped(n: int) -> None:
    single = round_robin(list(range(n)))
    double = round_robin(list(range(n)), double=True)
    assert double[: len(single)] == single
    for first, second in zip(single, double[len(single) :], strict=True):
        assert second.pairs == tuple((away, home) for home, away in first.pairs)
        assert second.bye == first.bye


def test_berger_tables_for_six_match_the_fide_table() -> None:
    # FIDE Handbook C.05 Annex 1, Berger table for 5 or 6 players.
    assert berger_tables(6) == [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ]


def test_berger_tables_for_four_match_the_fide_table() -> None:
    assert berger_tables(4) == [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]


def test_odd_count_gives_the_bye_where_berger_number_n_plus_one_would_play() -> None:
    days = round_robin(["kampoe", "toppers", "formula", "ekta", "pintoboys"])
    # Berger 6: round 1 is 1–6, 2–5, 3–4, so number 1 (kampoe) sits out.
    assert days[0] == RoundPairing(
        pairs=(("toppers", "pintoboys"), ("formula", "ekta")), bye="kampoe"
    )


def test_entries_may_be_any_hashable_ids_and_the_schedule_is_deterministic() -> None:
    entries = [("club", 1), ("club", 2), ("club", 3), ("club", 4)]
    assert round_robin(entries) == round_robin(list(entries))
    assert round_robin(entries)[0].pairs == ((("club", 1), ("club", 4)), (("club", 2), ("club", 3)))


def test_a_thousand_entries_give_999_matchdays_of_500_matches() -> None:
    days = round_robin(list(range(1000)))
    assert len(days) == 999
    assert all(len(day.pairs) == 500 and day.bye is None for day in days)


@pytest.mark.parametrize("entries", [[], ["t1"]], ids=["none", "one"])
def test_fewer_than_two_entries_are_refused(entries: list[str]) -> None:
    with pytest.raises(RuleViolation) as caught:
        round_robin(entries)
    assert caught.value.code == "schedule_too_few_entries"
    assert caught.value.params == {"count": len(entries)}


def test_a_duplicate_entry_is_refused() -> None:
    with pytest.raises(RuleViolation) as caught:
        round_robin(["t1", "t2", "t1"])
    assert caught.value.code == "schedule_duplicate_entry"
    assert caught.value.params == {"entry": "t1"}


@pytest.mark.parametrize("n", [0, 3, -2])
def test_berger_tables_need_an_even_count(n: int) -> None:
    with pytest.raises(ValueError, match="even"):
        berger_tables(n)
