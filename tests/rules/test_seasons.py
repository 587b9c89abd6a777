"""Season rankings (scoring/rules/seasons.py): issue 10, "Season rankings per player, per
koppel and per club ...: games, wins, draws, losses, game points for and against, kaps,
baunies, failed baunies, early kaps, rounds won as caller vs not", "Best-N-of-M season
averages ... (e.g. the best 6 of 8 evenings count)", and "a transfer between seasons never
moves old games to the new club". Every expected number is worked out by hand below."""

from __future__ import annotations

from collections.abc import Hashable
from datetime import date
from fractions import Fraction

import pytest

from scoring.rules import (
    RuleViolation,
    SeasonBy,
    SeasonGame,
    SeasonSide,
    SeasonTally,
    best_n_of_m,
    season_tallies,
)

# A small season. Koppels: K1 = ann + bea, K2 = cor + dik (both of club Y), K3 = eva (club
# X) + fem (club Y). ann plays for X until she transfers to Y before g3; bea stays at X.
G1 = SeasonGame(
    date(2026, 9, 5),
    "g1",
    SeasonSide(
        "K1", ("ann", "bea"), ("X", "X"), 20, kaps=2, baunies=1, won_as_caller=3, won_not_caller=2
    ),
    SeasonSide(
        "K2",
        ("cor", "dik"),
        ("Y", "Y"),
        12,
        kaps=1,
        failed_baunies=1,
        early_kaps=1,
        won_as_caller=1,
        won_not_caller=1,
    ),
)  # K1 wins 20-12
G2 = SeasonGame(
    date(2026, 9, 12),
    "g2",
    SeasonSide("K2", ("cor", "dik"), ("Y", "Y"), 15, kaps=1, won_as_caller=2, won_not_caller=1),
    SeasonSide("K3", ("eva", "fem"), ("X", "Y"), 15, baunies=1, won_as_caller=1, won_not_caller=2),
)  # a draw, 15-15 (closed by the director)
G3 = SeasonGame(
    date(2026, 10, 3),
    "g3",
    SeasonSide(
        "K1", ("ann", "bea"), ("Y", "X"), 8, early_kaps=1, won_as_caller=1, won_not_caller=1
    ),
    SeasonSide("K3", ("eva", "fem"), ("X", "Y"), 20, kaps=3, won_as_caller=2, won_not_caller=3),
)  # K3 wins 20-8; ann now plays for Y
# Given out of date order: the tallies sort by date.
SEASON = [G3, G1, G2]

# (games, wins, draws, losses, points_for, points_against, kaps, baunies, failed_baunies,
#  early_kaps, won_as_caller, won_not_caller)
K1 = (2, 1, 0, 1, 28, 32, 2, 1, 0, 1, 4, 3)
# g1 W 20-12 + g3 L 8-20: for 20+8=28, against 12+20=32; kaps 2+0, baunies 1+0,
# early kaps 0+1, as caller 3+1=4, not as caller 2+1=3
K2 = (2, 0, 1, 1, 27, 35, 2, 0, 1, 1, 3, 2)
# g1 L 12-20 + g2 D 15-15: for 12+15=27, against 20+15=35; kaps 1+1, failed 1+0,
# early 1+0, as caller 1+2=3, not 1+1=2
K3 = (2, 1, 1, 0, 35, 23, 3, 1, 0, 0, 3, 5)
# g2 D 15-15 + g3 W 20-8: for 15+20=35, against 15+8=23; kaps 0+3, baunies 1+0,
# as caller 1+2=3, not 2+3=5
CLUB_X = (4, 2, 1, 1, 63, 55, 5, 2, 0, 1, 7, 8)
# X's sides: g1 K1 (ann, bea: once) W 20-12; g2 K3 (eva) D 15-15; g3 K1 (bea) L 8-20;
# g3 K3 (eva) W 20-8. for 20+15+8+20=63, against 12+15+20+8=55; kaps 2+0+0+3=5,
# baunies 1+1+0+0=2, early 0+0+1+0=1, as caller 3+1+1+2=7, not 2+2+1+3=8
CLUB_Y = (5, 1, 2, 2, 70, 78, 5, 1, 1, 2, 7, 8)
# Y's sides: g1 K2 L 12-20; g2 K2 D 15-15; g2 K3 (fem) D 15-15; g3 K1 (ann) L 8-20;
# g3 K3 (fem) W 20-8. for 12+15+15+8+20=70, against 20+15+15+20+8=78; kaps 1+1+0+0+3=5,
# baunies 0+0+1+0+0=1, failed 1, early 1+0+0+1+0=2, as caller 1+2+1+1+2=7,
# not 1+1+2+1+3=8


def _columns(tally: SeasonTally) -> tuple[int, ...]:
    return (
        tally.games,
        tally.wins,
        tally.draws,
        tally.losses,
        tally.points_for,
        tally.points_against,
        tally.kaps,
        tally.baunies,
        tally.failed_baunies,
        tally.early_kaps,
        tally.won_as_caller,
        tally.won_not_caller,
    )


@pytest.mark.parametrize(
    ("by", "expected"),
    [
        # Entries in the order they first appear by date: g1 (K1, K2), g2 (K3).
        pytest.param(SeasonBy.KOPPEL, {"K1": K1, "K2": K2, "K3": K3}, id="koppel"),
        # A player gets their koppel's whole game.
        pytest.param(
            SeasonBy.PLAYER,
            {"ann": K1, "bea": K1, "cor": K2, "dik": K2, "eva": K3, "fem": K3},
            id="player",
        ),
        # X first appears in g1 (K1), Y in g1 (K2).
        pytest.param(SeasonBy.CLUB, {"X": CLUB_X, "Y": CLUB_Y}, id="club"),
        pytest.param("club", {"X": CLUB_X, "Y": CLUB_Y}, id="club-as-stored-string"),
    ],
)
def test_season_tallies_of_a_small_season(
    by: SeasonBy | str, expected: dict[str, tuple[int, ...]]
) -> None:
    tallies = season_tallies(SEASON, by=by)
    assert list(tallies) == list(expected)
    assert {entry: _columns(tally) for entry, tally in tallies.items()} == expected
    assert all(entry == tally.entry for entry, tally in tallies.items())


def test_tally_columns_add_up() -> None:
    for by in SeasonBy:
        for tally in season_tallies(SEASON, by=by).values():
            assert tally.games == tally.wins + tally.draws + tally.losses
    k3 = season_tallies(SEASON, by=SeasonBy.KOPPEL)["K3"]
    assert k3.saldo == 35 - 23 == 12


def _solo(day: date, game: str, club_a: str, points_a: int, points_b: int) -> SeasonGame:
    # ann + bea (ann's club `club_a`, bea without a club) against cor + dik of club Z.
    return SeasonGame(
        day,
        game,
        SeasonSide("K1", ("ann", "bea"), (club_a, None), points_a, kaps=1),
        SeasonSide("K2", ("cor", "dik"), ("Z", "Z"), points_b),
    )


def test_a_transfer_never_moves_old_games() -> None:
    # Issue 10: "a transfer between seasons never moves old games to the new club, and
    # recomputing changes nothing". ann plays two games for X, then transfers to Y.
    before = [
        _solo(date(2026, 3, 1), "old1", "X", 20, 10),
        _solo(date(2026, 4, 1), "old2", "X", 9, 20),
    ]
    after = [_solo(date(2026, 10, 1), "new1", "Y", 20, 18)]
    clubs = season_tallies(before + after, by=SeasonBy.CLUB)
    # X: old1 W 20-10 + old2 L 9-20 -> 2 games, for 29, against 30, kaps 1+1=2
    assert _columns(clubs["X"]) == (2, 1, 0, 1, 29, 30, 2, 0, 0, 0, 0, 0)
    # Y: new1 W 20-18 -> 1 game, for 20, against 18, kaps 1
    assert _columns(clubs["Y"]) == (1, 1, 0, 0, 20, 18, 1, 0, 0, 0, 0, 0)
    # X's numbers are those it had before the transfer; recomputing changes nothing.
    assert season_tallies(before, by=SeasonBy.CLUB)["X"] == clubs["X"]
    assert season_tallies(before + after, by=SeasonBy.CLUB) == clubs
    # bea plays for no club: she is in no club's row, but is a player like any other.
    assert set(clubs) == {"X", "Y", "Z"}
    assert season_tallies(before + after, by=SeasonBy.PLAYER)["bea"].games == 3


@pytest.mark.parametrize(
    ("points", "expected"),
    [
        # Level game points are a draw for both sides (a game closed by the director).
        pytest.param(
            (14, 14), {"K1": (1, 0, 1, 0), "K2": (1, 0, 1, 0), "C": (2, 0, 2, 0)}, id="draw"
        ),
        # A club on both sides counts once per side: a win and a loss.
        pytest.param(
            (20, 5), {"K1": (1, 1, 0, 0), "K2": (1, 0, 0, 1), "C": (2, 1, 0, 1)}, id="win"
        ),
    ],
)
def test_a_game_within_one_club(
    points: tuple[int, int], expected: dict[str, tuple[int, ...]]
) -> None:
    game = SeasonGame(
        date(2026, 9, 5),
        "g",
        SeasonSide("K1", ("ann", "bea"), ("C", "C"), points[0]),
        SeasonSide("K2", ("cor", "dik"), ("C", "C"), points[1]),
    )
    tallies: dict[Hashable, SeasonTally] = {
        **season_tallies([game], by=SeasonBy.KOPPEL),
        **season_tallies([game], by=SeasonBy.CLUB),
    }
    assert {
        entry: (tally.games, tally.wins, tally.draws, tally.losses)
        for entry, tally in tallies.items()
    } == expected
    assert tallies["C"].points_for == tallies["C"].points_against == points[0] + points[1]


def test_no_games_no_rows() -> None:
    assert season_tallies([], by=SeasonBy.PLAYER) == {}


def test_an_unknown_ranking_is_refused() -> None:
    with pytest.raises(RuleViolation) as caught:
        season_tallies(SEASON, by="team")
    assert caught.value.code == "season_by_unknown"
    assert caught.value.params == {"by": "team"}


# ---------------------------------------------------------------- best N of M


@pytest.mark.parametrize(
    ("evenings", "n", "expected"),
    [
        # Issue 10: "the best 6 of 8 evenings count": 40+35+30+25+20+15 = 165, / 6 = 55/2
        pytest.param([30, 10, 20, 40, 25, 35, 15, 5], 6, Fraction(55, 2), id="best-6-of-8"),
        # Fewer evenings than N: the missing ones count as 0, (10+20+0+0+0+0) / 6 = 5
        pytest.param([10, 20], 6, Fraction(5), id="fewer-than-n"),
        # One good evening doesn't beat six fair ones: 35/3 < (28+27+42)/3
        pytest.param([35], 3, Fraction(35, 3), id="one-evening-guest"),
        pytest.param([42, 28, 27, 10, 5, 3], 3, Fraction(97, 3), id="six-evenings"),
        # Exactly N: (7+8+9) / 3 = 8
        pytest.param([7, 9, 8], 3, Fraction(8), id="exactly-n"),
        # Exact, not a float: (1+0+0) / 3 = 1/3
        pytest.param([1, 0, 0], 3, Fraction(1, 3), id="exact-third"),
        # Best 2 of 3 with a tie for second: (11+10) / 2 = 21/2, whichever 10 counts
        pytest.param([10, 11, 10], 2, Fraction(21, 2), id="tied-evenings"),
        # Fractions in, fractions out: best 1 of (1/3, 1/2) = 1/2
        pytest.param([Fraction(1, 3), Fraction(1, 2)], 1, Fraction(1, 2), id="fractions"),
        # Negative evening scores rank below zero: best 1 of (-2, 4) = 4; best 2 = 2/2 = 1
        pytest.param([-2, 4], 1, Fraction(4), id="negative-best-1"),
        pytest.param([-2, 4], 2, Fraction(1), id="negative-best-2"),
        # No evening played: no average
        pytest.param([], 6, None, id="no-evenings"),
    ],
)
def test_best_n_of_m(evenings: list[int | Fraction], n: int, expected: Fraction | None) -> None:
    average = best_n_of_m(evenings, n)
    assert average == expected
    assert average is None or isinstance(average, Fraction)


def test_best_n_of_m_ties_are_exact() -> None:
    # (20+10) / 2 = 15 and (15+15) / 2 = 15: equal, not nearly equal. Three evenings of
    # 1/3 each: (1/3+1/3+1/3) / 3 = 1/3 exactly, no rounding on the way.
    assert best_n_of_m([20, 10, 0], 2) == best_n_of_m([15, 15, 3], 2) == 15
    thirds = [Fraction(1, 3)] * 3
    assert best_n_of_m(thirds, 3) == Fraction(1, 3)


@pytest.mark.parametrize("n", [0, -1])
def test_best_n_of_m_needs_one_evening_at_least(n: int) -> None:
    with pytest.raises(RuleViolation) as caught:
        best_n_of_m([10, 20], n)
    assert caught.value.code == "best_of_invalid"
    assert caught.value.params == {"count": n}
