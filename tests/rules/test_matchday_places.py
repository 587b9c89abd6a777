"""Who plays where on a matchday (scoring/rules/places.py): issue 6 "One pairing, one result".

RULES.md doesn't cover the schedule; DESIGN.md "How the real game is organised" does: a
match is two entries meeting on a matchday, a pairs match one game between its koppels,
and every sitting of a club match each home koppel plays one away koppel.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from scoring.rules import (
    RuleViolation,
    found_at_bye,
    game_players_check,
    game_players_violations,
    matchday_places_check,
    matchday_places_violations,
    pairs_match_games_check,
    pairs_match_games_violations,
    sitting_koppels_check,
    sitting_koppels_violations,
)

Pair = tuple[str, str]


@pytest.mark.parametrize(
    ("matches", "byes"),
    [
        pytest.param([], [], id="empty-matchday"),
        pytest.param([("a", "b")], [], id="one-match"),
        pytest.param([("a", "b"), ("c", "d")], ["e"], id="two-matches-and-a-bye"),
        pytest.param([], ["a", "b"], id="two-byes-of-different-entries"),
    ],
)
def test_every_entry_once_is_accepted(matches: Sequence[Pair], byes: Sequence[str]) -> None:
    matchday_places_check(matches, byes, entries={"a", "b", "c", "d", "e"})


@pytest.mark.parametrize(
    ("matches", "byes", "expected"),
    [
        # ../shared/cases/c01-same-pairing-twice.json: A–B and B–A on one matchday
        pytest.param(
            [("a", "b"), ("b", "a")],
            [],
            {"entry": "b", "first": ("a", "b"), "second": ("b", "a"), "index": 1},
            id="c01-same-pairing-reversed",
        ),
        pytest.param(
            [("a", "b"), ("a", "b")],
            [],
            {"entry": "a", "first": ("a", "b"), "second": ("a", "b"), "index": 1},
            id="same-pairing-twice",
        ),
        # one koppel at two tables of a pairs matchday
        pytest.param(
            [("a", "b"), ("c", "a")],
            [],
            {"entry": "a", "first": ("a", "b"), "second": ("c", "a"), "index": 1},
            id="home-then-away",
        ),
        pytest.param(
            [("a", "b"), ("c", "d")],
            ["d"],
            {"entry": "d", "first": ("c", "d"), "second": None, "index": 0},
            id="a-match-and-the-bye",
        ),
        pytest.param(
            [],
            ["e", "e"],
            {"entry": "e", "first": None, "second": None, "index": 1},
            id="two-byes",
        ),
    ],
)
def test_an_entry_plays_at_most_once_a_matchday(
    matches: Sequence[Pair], byes: Sequence[str], expected: dict[str, Any]
) -> None:
    with pytest.raises(RuleViolation) as caught:
        matchday_places_check(matches, byes)
    assert caught.value.code == "entry_twice_on_matchday"
    assert caught.value.params == expected
    assert found_at_bye(caught.value) is (expected["second"] is None)


def test_a_match_of_an_entry_against_itself_is_refused() -> None:
    with pytest.raises(RuleViolation) as caught:
        matchday_places_check([("a", "b"), ("c", "c")])
    assert (caught.value.code, caught.value.params) == (
        "match_same_entry",
        {"entry": "c", "index": 1},
    )


@pytest.mark.parametrize(
    ("matches", "byes", "expected"),
    [
        pytest.param([("a", "x")], [], {"entry": "x", "match": ("a", "x"), "index": 0}, id="match"),
        pytest.param([("a", "b")], ["x"], {"entry": "x", "match": None, "index": 0}, id="bye"),
    ],
)
def test_an_entry_of_another_competition_is_refused(
    matches: Sequence[Pair], byes: Sequence[str], expected: dict[str, Any]
) -> None:
    with pytest.raises(RuleViolation) as caught:
        matchday_places_check(matches, byes, entries={"a", "b"})
    assert (caught.value.code, caught.value.params) == ("entry_other_competition", expected)
    assert found_at_bye(caught.value) is (expected["match"] is None)


def test_without_entries_any_entry_is_taken() -> None:
    matchday_places_check([("x", "y")])


def test_violations_lists_every_place_of_stored_data() -> None:
    found = list(
        matchday_places_violations(
            [("a", "b"), ("b", "a"), ("a", "x")], ["a"], entries={"a", "b", "c"}
        )
    )
    assert [(v.code, v.params.get("entry"), v.params["index"]) for v in found] == [
        ("entry_twice_on_matchday", "b", 1),
        ("entry_twice_on_matchday", "a", 1),
        ("entry_other_competition", "x", 2),
        ("entry_twice_on_matchday", "a", 2),
        ("entry_twice_on_matchday", "a", 0),
    ]


def test_ids_of_any_hashable_kind_are_taken() -> None:
    with pytest.raises(RuleViolation) as caught:
        matchday_places_check([(1, 2), (3, 4)], [2])
    assert caught.value.params["entry"] == 2


# ------------------------------------------------------------------ a pairs match's games


@pytest.mark.parametrize(
    "games",
    [
        pytest.param([], id="no-game-yet"),
        pytest.param([("h", "a")], id="home-as-koppel-a"),
        pytest.param([("a", "h")], id="away-as-koppel-a"),
    ],
)
def test_one_game_of_the_match_koppels_is_accepted(games: Sequence[Pair]) -> None:
    pairs_match_games_check("h", "a", games)


@pytest.mark.parametrize(
    ("games", "code", "params"),
    [
        # two games of one pairs match at different tables
        pytest.param(
            [("h", "a"), ("h", "a")],
            "pairs_match_one_game",
            {"games": 2, "index": 1},
            id="two-games",
        ),
        pytest.param(
            [("h", "x")],
            "game_koppels_not_of_match",
            {"koppel": "x", "home": "h", "away": "a", "index": 0},
            id="outsider-as-b",
        ),
        pytest.param(
            [("y", "a")],
            "game_koppels_not_of_match",
            {"koppel": "y", "home": "h", "away": "a", "index": 0},
            id="outsider-as-a",
        ),
        pytest.param([("h", "h")], "game_same_koppel", {"index": 0}, id="koppel-plays-itself"),
    ],
)
def test_a_pairs_match_has_one_game_between_its_koppels(
    games: Sequence[Pair], code: str, params: dict[str, Any]
) -> None:
    with pytest.raises(RuleViolation) as caught:
        pairs_match_games_check("h", "a", games)
    assert (caught.value.code, caught.value.params) == (code, params)


@pytest.mark.parametrize(
    ("games", "complete", "codes"),
    [
        pytest.param([], True, ["pairs_match_no_game"], id="stored-without-game"),
        pytest.param([], False, [], id="being-set-up"),
        pytest.param(
            [("h", "a"), ("a", "x"), ("h", "a")],
            True,
            ["game_koppels_not_of_match", "pairs_match_one_game"],
            id="three-games-one-foreign",
        ),
    ],
)
def test_pairs_match_violations_of_stored_games(
    games: Sequence[Pair], complete: bool, codes: list[str]
) -> None:
    found = pairs_match_games_violations("h", "a", games, complete=complete)
    assert [violation.code for violation in found] == codes


# ------------------------------------------------------------------ koppels in a sitting


@pytest.mark.parametrize(
    "games",
    [
        pytest.param([(1, "k1", "k2"), (1, "k3", "k4")], id="four-koppels-two-tables"),
        pytest.param([(1, "k1", "k2"), (2, "k1", "k3")], id="same-koppel-next-sitting"),
    ],
)
def test_a_koppel_at_one_table_a_sitting_is_accepted(games: Sequence[tuple[int, str, str]]) -> None:
    sitting_koppels_check(games)


@pytest.mark.parametrize(
    ("games", "expected"),
    [
        pytest.param(
            [(1, "k1", "k2"), (1, "k3", "k1")],
            {"koppel": "k1", "sitting": 1, "index": 1},
            id="as-koppel-b-at-another-table",
        ),
        pytest.param(
            [(2, "k1", "k2"), (1, "k3", "k4"), (2, "k2", "k5")],
            {"koppel": "k2", "sitting": 2, "index": 2},
            id="as-koppel-a-at-another-table",
        ),
    ],
)
def test_a_koppel_plays_one_game_per_sitting(
    games: Sequence[tuple[int, str, str]], expected: dict[str, Any]
) -> None:
    with pytest.raises(RuleViolation) as caught:
        sitting_koppels_check(games)
    assert (caught.value.code, caught.value.params) == ("koppel_twice_in_sitting", expected)


def test_sitting_violations_list_each_repeat_once() -> None:
    found = list(sitting_koppels_violations([(1, "k1", "k2"), (1, "k1", "k2"), (1, "k3", "k3")]))
    assert [(v.code, v.params.get("koppel"), v.params["index"]) for v in found] == [
        ("koppel_twice_in_sitting", "k1", 1),
        ("koppel_twice_in_sitting", "k2", 1),
        ("game_same_koppel", None, 2),
    ]


# ------------------------------------------------------------ one player, one place


KOPPELS = {"sr": ("sharda", "roy"), "ss": ("shanti", "sharda"), "rr": ("roy", "reshma"),
           "ab": ("anil", "bina")}  # fmt: skip


@pytest.mark.parametrize(
    ("matches", "expected"),
    [
        pytest.param([("sr", "ab")], [], id="no-player-shared"),
        pytest.param(
            [("sr", "ss")],
            [
                RuleViolation(
                    "match_entries_share_player", player="sharda", match=("sr", "ss"), index=0
                )
            ],
            id="both-entries-of-a-match-share-a-player",
        ),
        pytest.param(
            [("ab", "sr"), ("rr", "ss")],
            [
                RuleViolation(
                    "player_twice_on_matchday",
                    player="roy",
                    first=("ab", "sr"),
                    second=("rr", "ss"),
                    index=1,
                ),
                RuleViolation(
                    "player_twice_on_matchday",
                    player="sharda",
                    first=("ab", "sr"),
                    second=("rr", "ss"),
                    index=1,
                ),
            ],
            id="players-of-two-matches",
        ),
        pytest.param(
            [("sr", "ab"), ("sr", "rr")],
            [
                RuleViolation(
                    "entry_twice_on_matchday",
                    entry="sr",
                    first=("sr", "ab"),
                    second=("sr", "rr"),
                    index=1,
                ),
                RuleViolation(
                    "player_twice_on_matchday",
                    player="roy",
                    first=("sr", "ab"),
                    second=("sr", "rr"),
                    index=1,
                ),
            ],
            id="an-entry-twice-is-the-entrys-fault-not-its-players",
        ),
    ],
)
def test_a_player_plays_in_one_entry_of_a_matchdays_matches(
    matches: Sequence[Pair], expected: list[RuleViolation]
) -> None:
    found = list(matchday_places_violations(matches, players=KOPPELS))
    assert [(v.code, v.params) for v in found] == [(v.code, v.params) for v in expected]


def test_a_bye_is_no_game_for_the_players_check() -> None:
    matchday_places_check([("sr", "ab")], ["ss"], players=KOPPELS)


def test_without_players_the_check_is_the_entries_one() -> None:
    matchday_places_check([("sr", "ss")])


@pytest.mark.parametrize(
    ("koppel_a", "koppel_b", "seats", "expected"),
    [
        pytest.param(("p1", "p2"), ("p3", "p4"), ("p1", "p3", "p2", "p4"), [], id="four-players"),
        pytest.param(("p1", "p2"), ("p3", "p4"), (), [], id="no-seats"),
        pytest.param(("p1", "p2"), ("p3", "p4"), (None, None, None, None), [], id="empty-seats"),
        pytest.param(
            ("p1", "p2"),
            ("p1", "p3"),
            (),
            [("game_koppels_share_player", {"player": "p1"})],
            id="koppels-share-a-player",
        ),
        pytest.param(
            ("p1", "p2"),
            ("p2", "p1"),
            (),
            [
                ("game_koppels_share_player", {"player": "p1"}),
                ("game_koppels_share_player", {"player": "p2"}),
            ],
            id="one-koppel-reversed",
        ),
        pytest.param(
            ("p1", "p2"),
            ("p3", "p4"),
            ("p1", "p1", "p2", "p3"),
            [("seat_player_twice", {"player": "p1", "first_seat": 1, "seat": 2})],
            id="a-player-in-two-seats",
        ),
    ],
)
def test_a_game_seats_four_different_players(
    koppel_a: tuple[str, str],
    koppel_b: tuple[str, str],
    seats: Sequence[str | None],
    expected: list[tuple[str, dict[str, Any]]],
) -> None:
    found = game_players_violations(koppel_a, koppel_b, seats)
    assert [(v.code, v.params) for v in found] == expected
    if expected:
        with pytest.raises(RuleViolation) as caught:
            game_players_check(koppel_a, koppel_b, seats)
        assert caught.value.code == expected[0][0]
    else:
        game_players_check(koppel_a, koppel_b, seats)
