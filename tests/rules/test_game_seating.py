"""Who may sit at a game (scoring/rules/places.py `game_seating_check`): the one check of the
admin, the services and the importer (issue 9 point 3).

A game of a match is two koppels, one for each entry; its seats are all four players
clockwise or none, seats 1 and 3 koppel A's (RULES.md "Terms"); a player sits at one place.
"""

from __future__ import annotations

from typing import Any

import pytest

from scoring.rules import RuleViolation, game_seating_check, koppel_club

# A pairs match a–b: koppel a is anna & carla, koppel b is bert & dirk; a koppel is its own
# entry. A club match kampoe–toppers seats koppels by their players' club instead.
PLAYERS = {"a": ("anna", "carla"), "b": ("bert", "dirk"), "c": ("eva", "frank")}


def check(koppel_a: str = "a", koppel_b: str = "b", **given: Any) -> bool:
    values: dict[str, Any] = {
        "plays_for": (koppel_a, koppel_b),
        "players": (PLAYERS[koppel_a], PLAYERS[koppel_b]),
        "seats": (),
    }
    values.update(given)
    return game_seating_check("a", "b", koppel_a, koppel_b, **values)


@pytest.mark.parametrize(
    ("koppels", "seats", "a_is_home"),
    [
        pytest.param(("a", "b"), (), True, id="home-as-a-no-seats"),
        pytest.param(("b", "a"), (), False, id="away-as-a"),
        pytest.param(("a", "b"), ("anna", "bert", "carla", "dirk"), True, id="four-seats"),
        pytest.param(("a", "b"), ("carla", "dirk", "anna", "bert"), True, id="seats-turned"),
        pytest.param(("a", "b"), (None, None, None, None), True, id="four-empty-seats"),
        pytest.param(("b", "a"), ("bert", "anna", "dirk", "carla"), False, id="away-seated"),
    ],
)
def test_the_match_koppels_may_sit(
    koppels: tuple[str, str], seats: tuple[str | None, ...], a_is_home: bool
) -> None:
    assert check(*koppels, seats=seats) is a_is_home


@pytest.mark.parametrize(
    ("koppels", "given", "code", "params"),
    [
        pytest.param(("a", "a"), {}, "game_same_koppel", {}, id="koppel-plays-itself"),
        pytest.param(
            ("c", "b"), {}, "koppel_not_in_match",
            {"koppel": "c", "side": "a", "plays_for": "c"}, id="koppel-a-of-no-entry",
        ),
        pytest.param(
            ("a", "c"), {}, "koppel_not_in_match",
            {"koppel": "c", "side": "b", "plays_for": "c"}, id="koppel-b-of-no-entry",
        ),
        pytest.param(
            ("a", "b"), {"plays_for": ("a", "a")}, "koppel_not_in_match",
            {"koppel": "b", "side": "b", "plays_for": "a"}, id="both-for-one-entry",
        ),
        pytest.param(
            ("a", "b"), {"players": (("anna", "carla"), ("carla", "dirk"))},
            "game_koppels_share_player", {"player": "carla"}, id="koppels-share-a-player",
        ),
        pytest.param(
            ("a", "b"), {"seats": ("anna", "bert", "anna", "dirk")}, "seat_player_twice",
            {"player": "anna", "first_seat": 1, "seat": 3}, id="a-player-in-two-seats",
        ),
        pytest.param(
            ("a", "b"), {"seats": ("anna", "bert", "carla", None)}, "seats_incomplete", {},
            id="three-seats",
        ),
        pytest.param(
            ("a", "b"), {"seats": ("anna", "carla", "bert", "dirk")}, "seats_do_not_fit",
            {"side": "a"}, id="koppel-a-not-in-seats-1-and-3",
        ),
        pytest.param(
            ("a", "b"), {"seats": ("anna", "bert", "carla", "eva")}, "seats_do_not_fit",
            {"side": "b"}, id="an-outsider-in-seat-4",
        ),
    ],
)  # fmt: skip
def test_who_may_not_sit_is_refused(
    koppels: tuple[str, str], given: dict[str, Any], code: str, params: dict[str, Any]
) -> None:
    with pytest.raises(RuleViolation) as caught:
        check(*koppels, **given)
    assert (caught.value.code, caught.value.params) == (code, params)


def test_a_club_match_koppel_plays_for_its_players_club() -> None:
    plays_for = (koppel_club(["kampoe", "kampoe"]), koppel_club(["toppers", "toppers"]))
    assert plays_for == ("kampoe", "toppers")
    assert game_seating_check(
        "toppers", "kampoe", "k1", "t1", plays_for=plays_for, players=(("a", "b"), ("c", "d"))
    ) is False  # fmt: skip


@pytest.mark.parametrize(
    "clubs",
    [
        pytest.param(["kampoe", "toppers"], id="two-clubs"),
        pytest.param([None, None], id="no-club"),
        pytest.param(["kampoe", None], id="one-without-a-club"),
    ],
)
def test_a_koppel_of_mixed_clubs_plays_for_none(clubs: list[str | None]) -> None:
    assert koppel_club(clubs) is None
    with pytest.raises(RuleViolation) as caught:
        game_seating_check(
            "kampoe", "toppers", "k1", "k2",
            plays_for=(koppel_club(clubs), "toppers"), players=(("a", "b"), ("c", "d")),
        )  # fmt: skip
    assert caught.value.params == {"koppel": "k1", "side": "a", "plays_for": None}
