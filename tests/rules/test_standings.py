"""Standings: RULES.md "Rule-set options" (points per game for standings: win 2, draw 1,
loss 0; competition-level, DESIGN.md), DESIGN.md "Interchange format" tie-break keys."""

from __future__ import annotations

import json

import pytest

from scoring.rules import (
    TIEBREAK_KEYS,
    ByeOutcome,
    Forfeit,
    MatchOutcome,
    MatchResult,
    PointsScheme,
    RuleViolation,
    StandingRow,
    check_tiebreaks,
    compute_standings,
)
from tests.paths import REPO_ROOT

STANDARD = PointsScheme()


def _by_entry(rows: list[StandingRow]) -> dict[object, StandingRow]:
    return {row.entry: row for row in rows}


def _order(rows: list[StandingRow]) -> list[tuple[object, int]]:
    return [(row.entry, row.rank) for row in rows]


# ---------------------------------------------------------------- competition points


@pytest.mark.parametrize(
    ("scheme", "expected"),
    [
        # RULES.md "Rule-set options": points per game for standings, win 2 / draw 1 / loss 0
        pytest.param(PointsScheme(), {"a": 2, "b": 0, "c": 1, "d": 1}, id="2-1-0-default"),
        pytest.param(PointsScheme(3, 1, 0), {"a": 3, "b": 0, "c": 1, "d": 1}, id="3-1-0"),
        pytest.param(PointsScheme(1, 0, 0), {"a": 1, "b": 0, "c": 0, "d": 0}, id="1-0-0"),
        pytest.param(PointsScheme(2, 1, -1), {"a": 2, "b": -1, "c": 1, "d": 1}, id="2-1-minus-1"),
    ],
)
def test_competition_points_follow_the_scheme(scheme: PointsScheme, expected: dict) -> None:
    rows = compute_standings(
        ["a", "b", "c", "d"],
        [MatchOutcome("a", "b", 30, 20), MatchOutcome("c", "d", 25, 25)],
        scheme=scheme,
        tiebreaks=[],
    )
    assert {row.entry: row.points for row in rows} == expected


def test_columns_of_a_row() -> None:
    matches = [
        MatchOutcome("x", "p", 30, 10, home_kaps=2, away_kaps=1, home_baunies=1),
        MatchOutcome("q", "x", 20, 20, home_kaps=1, away_kaps=1, away_baunies=2),
        MatchOutcome("x", "r", 10, 25, home_kaps=0, away_kaps=3),
        MatchOutcome("p", "q", 22, 20),
    ]
    rows = _by_entry(
        compute_standings(["x", "p", "q", "r"], matches, scheme=STANDARD, tiebreaks=[])
    )
    x = rows["x"]
    assert (x.played, x.won, x.drawn, x.lost) == (3, 1, 1, 1)
    assert (x.points, x.points_for, x.points_against, x.saldo) == (3, 60, 55, 5)
    assert (x.kaps, x.baunies) == (3, 3)
    # Buchholz: the competition points of the opponents met (p 2, q 1, r 2).
    assert x.buchholz == rows["p"].points + rows["q"].points + rows["r"].points == 5
    assert x.opponents == ["p", "q", "r"]
    assert (rows["r"].kaps, rows["r"].saldo, rows["r"].buchholz) == (3, 15, 3)


def test_entries_without_matches_get_an_empty_row() -> None:
    rows = compute_standings(
        ["a", "b", "idle"], [MatchOutcome("a", "b", 20, 10)], scheme=STANDARD, tiebreaks=[]
    )
    idle = _by_entry(rows)["idle"]
    assert (idle.played, idle.points, idle.saldo, idle.rank) == (0, 0, 0, 2)


# ---------------------------------------------------------------- tie-breaks
# Each case: x and y tie on competition points; `y` comes first in the entries, so only the
# tie-break can put x above it. DESIGN.md "Interchange format" tie-break keys.

TIEBREAK_CASES = [
    pytest.param(
        "saldo",
        [MatchOutcome("x", "p", 30, 10), MatchOutcome("y", "q", 22, 20)],
        id="saldo-20-vs-2",
    ),
    pytest.param(
        "points_for",
        [MatchOutcome("x", "p", 40, 30), MatchOutcome("y", "q", 20, 10)],
        id="points_for-40-vs-20",
    ),
    pytest.param(
        "wins",
        # x: a win and a loss (2 points); y: two draws (2 points)
        [
            MatchOutcome("x", "p", 30, 20),
            MatchOutcome("q", "x", 30, 20),
            MatchOutcome("y", "p", 20, 20),
            MatchOutcome("y", "q", 20, 20),
        ],
        id="wins-1-vs-0",
    ),
    pytest.param(
        "kaps",
        [MatchOutcome("x", "p", 30, 20, home_kaps=3), MatchOutcome("y", "q", 30, 20, home_kaps=1)],
        id="kaps-3-vs-1",
    ),
    pytest.param(
        "baunies",
        [MatchOutcome("p", "x", 20, 30, away_baunies=1), MatchOutcome("y", "q", 30, 20)],
        id="baunies-1-vs-0",
    ),
    pytest.param(
        "buchholz",
        # x beat p, who then beat q; y beat q, who has nothing
        [
            MatchOutcome("x", "p", 30, 20),
            MatchOutcome("y", "q", 30, 20),
            MatchOutcome("p", "q", 30, 20),
        ],
        id="buchholz-2-vs-0",
    ),
    pytest.param(
        "head_to_head",
        # x beat y by 1; y has the better saldo, but head-to-head alone decides here
        [MatchOutcome("x", "y", 21, 20), MatchOutcome("y", "p", 30, 20)],
        id="head_to_head-x-beat-y",
    ),
]


@pytest.mark.parametrize(("key", "matches"), TIEBREAK_CASES)
def test_tiebreak_key_separates_a_tie(key: str, matches: list[MatchOutcome]) -> None:
    entries = ["y", "x", "p", "q"]
    untied = _by_entry(compute_standings(entries, matches, scheme=STANDARD, tiebreaks=[key]))
    assert untied["x"].points == untied["y"].points
    assert untied["x"].rank < untied["y"].rank
    # Without the tie-break they share a rank.
    tied = _by_entry(compute_standings(entries, matches, scheme=STANDARD, tiebreaks=[]))
    assert tied["x"].rank == tied["y"].rank


def test_every_tiebreak_key_is_covered() -> None:
    covered = {case.values[0] for case in TIEBREAK_CASES} | {"points"}
    assert covered == set(TIEBREAK_KEYS)


def test_points_always_rank_first() -> None:
    # compute_standings: "points" is put in front when the list lacks it. c has by far the
    # best saldo but fewer points than a.
    matches = [
        MatchOutcome("a", "b", 22, 20),
        MatchOutcome("a", "d", 22, 20),
        MatchOutcome("c", "d", 20, 22),
        MatchOutcome("c", "b", 60, 10),
    ]
    rows = compute_standings(["b", "d", "c", "a"], matches, scheme=STANDARD, tiebreaks=["saldo"])
    assert [(row.entry, row.points, row.saldo) for row in rows] == [
        ("a", 4, 4),
        ("c", 2, 48),
        ("d", 2, 0),
        ("b", 0, -52),
    ]
    assert [row.rank for row in rows] == [1, 2, 3, 4]


def test_points_tiebreak_can_be_listed_explicitly() -> None:
    matches = [MatchOutcome("a", "b", 22, 20)]
    rows = compute_standings(["b", "a"], matches, scheme=STANDARD, tiebreaks=["points"])
    assert _order(rows) == [("a", 1), ("b", 2)]


def test_later_tiebreaks_only_separate_entries_still_tied() -> None:
    # saldo separates y from x first; points_for (where x is better) must not reorder them
    matches = [MatchOutcome("x", "p", 50, 45), MatchOutcome("y", "q", 22, 10)]
    rows = compute_standings(
        ["x", "y", "p", "q"], matches, scheme=STANDARD, tiebreaks=["saldo", "points_for"]
    )
    assert [row.entry for row in rows[:2]] == ["y", "x"]


def test_head_to_head_counts_only_matches_among_the_still_tied() -> None:
    # a, b, c all on 2 points (a beat b, b beat c, c beat a). Saldo: a +10, b -5, c -5.
    # Between b and c only their own match counts (b won); with a in the mini-table the
    # cycle would tie all three.
    matches = [
        MatchOutcome("a", "b", 35, 20),
        MatchOutcome("b", "c", 30, 20),
        MatchOutcome("c", "a", 25, 20),
    ]
    rows = compute_standings(
        ["c", "b", "a"], matches, scheme=STANDARD, tiebreaks=["saldo", "head_to_head"]
    )
    assert _order(rows) == [("a", 1), ("b", 2), ("c", 3)]
    rows = compute_standings(["c", "b", "a"], matches, scheme=STANDARD, tiebreaks=["saldo"])
    assert _order(rows) == [("a", 1), ("c", 2), ("b", 2)]


def test_three_way_tie_is_resolved_by_the_mini_table() -> None:
    # a, b, c on 4 points each; among themselves a won twice, b once, c never
    matches = [
        MatchOutcome("a", "b", 30, 20),
        MatchOutcome("a", "c", 30, 20),
        MatchOutcome("b", "c", 30, 20),
        MatchOutcome("b", "d", 30, 20),
        MatchOutcome("c", "d", 30, 20),
        MatchOutcome("c", "e", 30, 20),
    ]
    entries = ["c", "b", "a", "d", "e"]
    rows = compute_standings(entries, matches, scheme=STANDARD, tiebreaks=["head_to_head"])
    assert [row.points for row in rows[:3]] == [4, 4, 4]
    # d and e never met: head-to-head can't separate them.
    assert _order(rows) == [("a", 1), ("b", 2), ("c", 3), ("d", 4), ("e", 4)]


@pytest.mark.parametrize(
    "matches",
    [
        pytest.param(
            # a-b met twice, a-c and b-c once: a mini-table would favour a
            [
                MatchOutcome("a", "b", 30, 20),
                MatchOutcome("b", "a", 30, 20),
                MatchOutcome("a", "c", 30, 20),
                MatchOutcome("c", "b", 30, 20),
                MatchOutcome("b", "d", 30, 20),
                MatchOutcome("c", "d", 30, 20),
            ],
            id="a-b-met-twice",
        ),
        pytest.param(
            # b and c never met
            [
                MatchOutcome("a", "b", 30, 20),
                MatchOutcome("c", "a", 30, 20),
                MatchOutcome("b", "d", 30, 20),
            ],
            id="b-c-never-met",
        ),
    ],
)
def test_head_to_head_separates_nobody_when_not_every_two_met_equally_often(
    matches: list[MatchOutcome],
) -> None:
    rows = compute_standings(
        ["c", "b", "a", "d"], matches, scheme=STANDARD, tiebreaks=["head_to_head"]
    )
    tied = [row for row in rows if row.entry in {"a", "b", "c"}]
    assert len({row.points for row in tied}) == 1
    assert [(row.entry, row.rank) for row in tied] == [("c", 1), ("b", 1), ("a", 1)]


def test_fully_tied_entries_share_a_rank_and_keep_the_given_order() -> None:
    # w 2 points; x and y drew each other (1 each, same saldo, same points_for); z 0
    matches = [MatchOutcome("w", "z", 30, 20), MatchOutcome("x", "y", 20, 20)]
    tiebreaks = ["saldo", "points_for", "wins", "kaps", "baunies", "buchholz", "head_to_head"]
    rows = compute_standings(["w", "y", "x", "z"], matches, scheme=STANDARD, tiebreaks=tiebreaks)
    assert _order(rows) == [("w", 1), ("y", 2), ("x", 2), ("z", 4)]
    rows = compute_standings(["z", "x", "y", "w"], matches, scheme=STANDARD, tiebreaks=tiebreaks)
    assert _order(rows) == [("w", 1), ("x", 2), ("y", 2), ("z", 4)]


@pytest.mark.parametrize("key", ["goals", "Points", "", "head-to-head"])
def test_unknown_tiebreak_is_refused(key: str) -> None:
    with pytest.raises(RuleViolation) as caught:
        compute_standings(["a"], [], scheme=STANDARD, tiebreaks=["saldo", key])
    assert caught.value.code == "tiebreak_unknown"
    assert caught.value.params == {"key": key}
    with pytest.raises(RuleViolation):
        check_tiebreaks([key])


def test_known_tiebreaks_pass_the_check() -> None:
    check_tiebreaks(list(TIEBREAK_KEYS))


def test_match_with_an_unknown_entry_is_refused() -> None:
    with pytest.raises(RuleViolation) as caught:
        compute_standings(
            ["a", "b"], [MatchOutcome("a", "z", 20, 10)], scheme=STANDARD, tiebreaks=[]
        )
    assert caught.value.code == "entry_unknown"
    assert caught.value.params == {"entry": "z"}


# ---------------------------------------------------------------- forfeits and byes

WIN, DRAW, LOSS = MatchResult.WIN, MatchResult.DRAW, MatchResult.LOSS


@pytest.mark.parametrize(
    ("forfeit", "home_points", "away_points", "expected"),
    [
        pytest.param(None, 30, 20, (WIN, LOSS), id="home-scores-more"),
        pytest.param(None, 20, 30, (LOSS, WIN), id="away-scores-more"),
        pytest.param(None, 25, 25, (DRAW, DRAW), id="level"),
        # A forfeit decides whatever the points say.
        pytest.param(Forfeit.HOME, 30, 20, (LOSS, WIN), id="home-forfeits"),
        pytest.param(Forfeit.AWAY, 20, 30, (WIN, LOSS), id="away-forfeits"),
        pytest.param(Forfeit.BOTH, 30, 20, (LOSS, LOSS), id="both-forfeit"),
    ],
)
def test_results_of_a_match(
    forfeit: Forfeit | None,
    home_points: int,
    away_points: int,
    expected: tuple[MatchResult, MatchResult],
) -> None:
    outcome = MatchOutcome("h", "a", home_points, away_points, forfeit=forfeit)
    assert outcome.results() == expected
    assert all(isinstance(result, MatchResult) for result in outcome.results())


def test_a_forfeit_decides_the_match_in_the_table() -> None:
    matches = [
        MatchOutcome("a", "b", 30, 20, forfeit=Forfeit.HOME),
        MatchOutcome("c", "d", 30, 20, forfeit=Forfeit.BOTH),
    ]
    rows = _by_entry(compute_standings("abcd", matches, scheme=STANDARD, tiebreaks=[]))
    assert [(rows[e].won, rows[e].lost, rows[e].points) for e in "abcd"] == [
        (0, 1, 0),
        (1, 0, 2),
        (0, 1, 0),
        (0, 1, 0),
    ]
    assert (rows["a"].points_for, rows["a"].saldo) == (30, 10)  # the game points still count


def test_a_database_row_with_the_stored_forfeit_string_counts_as_its_forfeit() -> None:
    # competition_match_outcomes hands over rows with the stored string ("away"), not a
    # Forfeit: a StrEnum equals its value.
    row = ("a", "b", 20, 30, 0, 0, 0, 0, "away")
    from_row = compute_standings("ab", [row], scheme=STANDARD, tiebreaks=["head_to_head"])
    typed = MatchOutcome("a", "b", 20, 30, forfeit=Forfeit.AWAY)
    from_outcome = compute_standings("ab", [typed], scheme=STANDARD, tiebreaks=["head_to_head"])
    assert from_row == from_outcome
    assert _order(from_row) == [("a", 1), ("b", 2)]


def test_head_to_head_counts_a_forfeit_as_its_result() -> None:
    # x and y on 2 points; y scored more against x but forfeited that match.
    matches = [
        MatchOutcome("x", "y", 20, 30, forfeit=Forfeit.AWAY),
        MatchOutcome("p", "x", 30, 20),
        MatchOutcome("p", "q", 30, 20),
        MatchOutcome("y", "r", 30, 20),
    ]
    entries = ["y", "x", "p", "q", "r"]
    rows = compute_standings(entries, matches, scheme=STANDARD, tiebreaks=["head_to_head"])
    assert [(row.entry, row.points, row.rank, row.head_to_head) for row in rows[:3]] == [
        ("p", 4, 1, None),
        ("x", 2, 2, 2),
        ("y", 2, 3, 0),
    ]


@pytest.mark.parametrize(
    ("result", "won_drawn_lost", "points"),
    [(WIN, (1, 0, 0), 3), (DRAW, (0, 1, 0), 1), (LOSS, (0, 0, 1), 0)],
)
def test_a_bye_counts_its_result_and_game_points(
    result: MatchResult, won_drawn_lost: tuple[int, int, int], points: int
) -> None:
    bye = ByeOutcome("a", result=result, points_for=20, points_against=5)
    rows = compute_standings(["a"], [], scheme=PointsScheme(3, 1, 0), tiebreaks=[], byes=[bye])
    a = rows[0]
    assert ((a.won, a.drawn, a.lost), a.points, a.played, a.byes) == (won_drawn_lost, points, 1, 1)
    assert (a.points_for, a.points_against, a.buchholz, a.opponents) == (20, 5, 0, [])


def test_a_bye_is_a_win_unless_told() -> None:
    assert ByeOutcome("a").result is MatchResult.WIN


# ---------------------------------------------------------------- real data


def test_stcb_2019_matchday_one_standings() -> None:
    # data/stcb-2019-08-24.json: STcB competitie 2019 as published, four matches
    data = json.loads((REPO_ROOT / "data" / "stcb-2019-08-24.json").read_text(encoding="utf-8"))
    standings = data["competition"]["standings"]
    scheme = PointsScheme(standings["win"], standings["draw"], standings["loss"])
    matches = [
        MatchOutcome(match["home"], match["away"], *match["totals"])
        for matchday in data["matchdays"]
        for match in matchday["matches"]
    ]
    assert len(matches) == 4
    rows = compute_standings(
        data["entries"], matches, scheme=scheme, tiebreaks=standings["tiebreaks"]
    )
    assert [row.entry for row in rows] == [
        "formula",
        "ekta",
        "pintoboys",
        "toppers",
        "kolibrie",
        "shaktie",
        "t-hofje",
        "openbaar-groen",
    ]
    assert [row.points for row in rows] == [2, 2, 2, 2, 0, 0, 0, 0]
    assert [row.saldo for row in rows] == [42, 25, 13, 7, -7, -13, -25, -42]
    assert [row.rank for row in rows] == [1, 2, 3, 4, 5, 6, 7, 8]


@pytest.mark.parametrize(
    "tiebreaks, key",
    [(["points", "points"], "points"), (["saldo", "kaps", "saldo"], "saldo")],
)
def test_a_tiebreak_given_twice_is_refused(tiebreaks: list[str], key: str) -> None:
    # DESIGN.md "Interchange format" (tie-break keys): each key once, as the admin's
    # ordered choice says; found by a tester importing ["points", "points"].
    with pytest.raises(RuleViolation) as caught:
        check_tiebreaks(tiebreaks)
    assert (caught.value.code, caught.value.params) == ("tiebreak_twice", {"key": key})


def test_a_tiebreak_stored_twice_still_ranks() -> None:
    # Stored before `tiebreak_twice` existed: the rebuild must not fail on it.
    matches = [MatchOutcome("a", "b", 20, 5)]
    rows = compute_standings(["a", "b"], matches, scheme=STANDARD, tiebreaks=["saldo", "saldo"])
    assert [(row.entry, row.rank) for row in rows] == [("a", 1), ("b", 2)]
