"""Swiss pairing of large fields block by block (issue 7: "Swiss pairing of 1,000 entries
< 1 s every round"): the block path must pair as well as the whole-field matching by the
same cost, at every level the issue ranks (rematches, the bye, the score floats), and stay
deterministic. The blocks are made tiny here so that fields of a dozen entrants cross many
block boundaries; the whole-field graph of the same field is the reference."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.schedules.test_swiss import (
    _as_pairing,
    _check_basics,
    _entrants,
    _play,
    _priorities,
    _Record,
    entrants_of,
)
from tournaments.schedules import SwissEntrant, SwissRound, swiss_pair
from tournaments.schedules import swiss as swiss_module

TINY = {"BLOCK": 6, "LOOKAHEAD": 3}


def _cost(entrants: Sequence[SwissEntrant[int]], result: SwissRound[int]) -> int:
    """The matchday's total cost by swiss.py's own cost function (all four levels)."""
    field = swiss_module._Field(entrants)
    rank = {entrant.id: position for position, entrant in enumerate(field.entrants)}
    total = sum(field.cost(*sorted((rank[p.home], rank[p.away]))) for p in result.pairs)
    if result.bye is not None:
        total += field.cost(rank[result.bye], field.bye)
    return total


def _both(
    entrants: Sequence[SwissEntrant[int]], monkeypatch: pytest.MonkeyPatch
) -> tuple[SwissRound[int], SwissRound[int]]:
    """(block path with tiny blocks, whole-field graph) for the same entrants."""
    monkeypatch.setattr(swiss_module, "FULL_GRAPH_MAX", 2)
    for name, value in TINY.items():
        monkeypatch.setattr(swiss_module, name, value)
    blocks = swiss_pair(entrants)
    monkeypatch.undo()
    return blocks, swiss_pair(entrants)


def _rounds(count: int, seed: int, sizes: tuple[int, int]) -> Iterator[list[SwissEntrant[int]]]:
    """The entrants of every matchday of `count` random tournaments paired by the whole
    field, over 1–9 rounds."""
    rng = random.Random(seed)
    for _ in range(count):
        records = {key: _Record() for key in rng.sample(range(1000), rng.randint(*sizes))}
        for _ in range(rng.randint(1, 9)):
            entrants = _entrants(records)
            yield entrants
            _play(records, swiss_pair(entrants), rng)


@pytest.mark.heavy
def test_blocks_pair_as_well_as_the_whole_field_on_random_tournaments(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Rematches, the bye and the squared floats are equal (the levels the issue ranks);
    # the Dutch order, the lowest level, may cost a little more across a block boundary.
    rounds = list(_rounds(120, seed=2026_12_01, sizes=(8, 40)))
    dutch_worse = 0
    for entrants in rounds:
        blocks, whole = _both(entrants, monkeypatch)
        _check_basics(entrants, blocks)
        assert _priorities(entrants, _as_pairing(blocks)) == _priorities(
            entrants, _as_pairing(whole)
        ), entrants
        assert _cost(entrants, blocks) >= _cost(entrants, whole)
        dutch_worse += _cost(entrants, blocks) > _cost(entrants, whole)
    assert len(rounds) > 500
    assert dutch_worse < len(rounds) // 10


_histories = st.integers(min_value=8, max_value=24).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(0, 6), min_size=n, max_size=n),
        st.lists(st.integers(0, 1), min_size=n, max_size=n),
        st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=2 * n),
    )
)


@settings(max_examples=300, deadline=None)
@given(_histories)
def test_any_history_gets_from_the_blocks_what_the_whole_field_gives(
    history: tuple[list[int], list[int], set[tuple[int, int]]],
) -> None:
    entrants = entrants_of(history)
    with pytest.MonkeyPatch.context() as monkeypatch:
        blocks, whole = _both(entrants, monkeypatch)
    _check_basics(entrants, blocks)
    assert _priorities(entrants, _as_pairing(blocks)) == _priorities(entrants, _as_pairing(whole))


def test_a_big_score_group_is_paired_in_dutch_order_across_its_slices(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 40 entrants on 0 points, blocks of 6: seven slices, still 1–21, 2–22, …, 20–40.
    for name, value in {**TINY, "FULL_GRAPH_MAX": 2}.items():
        monkeypatch.setattr(swiss_module, name, value)
    result = swiss_pair([SwissEntrant(id=i, points=0) for i in range(1, 41)])
    assert [(p.home, p.away) for p in result.pairs] == [(i, i + 20) for i in range(1, 21)]


def test_a_group_that_lost_its_top_to_a_float_still_pairs_in_dutch_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # One entrant on 2 points floats to the top of 21 on 0; the other 20 pair 2–12 … 11–21
    # (each 10 places apart, the Dutch distance in a group of 21), as the whole field does.
    for name, value in {**TINY, "FULL_GRAPH_MAX": 2}.items():
        monkeypatch.setattr(swiss_module, name, value)
    entrants = [SwissEntrant(id=0, points=2)] + [SwissEntrant(id=i, points=0) for i in range(1, 22)]
    blocks = swiss_pair(entrants)
    monkeypatch.undo()
    assert blocks == swiss_pair(entrants)
    assert [(p.home, p.away) for p in blocks.pairs] == [(0, 1)] + [
        (i, i + 10) for i in range(2, 12)
    ]


def test_the_bye_goes_to_the_lowest_without_one_in_a_large_field(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name, value in {**TINY, "FULL_GRAPH_MAX": 2}.items():
        monkeypatch.setattr(swiss_module, name, value)
    entrants = [SwissEntrant(id=i, points=20 - i, byes=int(i > 16)) for i in range(21)]
    result = swiss_pair(entrants)
    assert (result.bye, result.bye_reason) == (16, "bye_lowest_without_bye")
    assert result.bye_params == {"points": 4, "byes": 0, "passed_over": 0}


def test_a_block_that_cannot_be_paired_without_a_rematch_falls_back_to_the_whole_field(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Everybody met everybody: no block can pair anyone, the whole field pairs with the
    # fewest rematches.
    for name, value in {**TINY, "FULL_GRAPH_MAX": 2}.items():
        monkeypatch.setattr(swiss_module, name, value)
    ids = range(12)
    entrants = [
        SwissEntrant(id=i, points=0, opponents=tuple(j for j in ids if j != i)) for i in ids
    ]
    assert swiss_module._Field(entrants).match_in_blocks() is None
    result = swiss_pair(entrants)
    _check_basics(entrants, result)
    assert {p.reason for p in result.pairs} == {"rematch_unavoidable"}


def test_the_block_path_gives_the_same_round_for_the_same_input(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name, value in {**TINY, "FULL_GRAPH_MAX": 2}.items():
        monkeypatch.setattr(swiss_module, name, value)
    entrants = next(e for e in _rounds(5, seed=3, sizes=(30, 30)) if e[0].opponents)
    first = swiss_pair(entrants)
    assert all(swiss_pair(list(entrants)) == first for _ in range(3))
