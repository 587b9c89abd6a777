"""Squad eligibility (scoring/rules/eligibility.py). The rule is issue 3's ("Competition
formats and schedules"): "a koppel may only hold players on its club's squad; an ineligible
player makes the match lost (forfeit) or, if it was lost anyway, costs the club points (the
deduction is a competition setting, 3 by default)"; its "Departures and choices": "When both
sides fielded ineligible players, both lose"."""

from __future__ import annotations

import pytest

from scoring.rules import Forfeit
from scoring.rules.eligibility import (
    FieldedKoppel,
    IneligiblePenalty,
    eligibility_applies,
    ineligible_forfeit,
    ineligible_penalties,
    ineligible_players,
)

# Clubs 10 (entry 1) and 20 (entry 2); players 101–104 on club 10's squad, 201–204 on 20's.
CLUBS: dict[int, int | None] = {1: 10, 2: 20, 3: None}
SQUADS = {(10, player) for player in (101, 102, 103, 104)} | {
    (20, player) for player in (201, 202, 203, 204)
}


def koppel(
    match: int, side: str, entry: int, first: int, second: int
) -> FieldedKoppel[int, int, int]:
    return FieldedKoppel(match, side, entry, ((first, f"P{first}"), (second, f"P{second}")))


@pytest.mark.parametrize(
    ("club_competition", "squads_required", "applies"),
    [
        # issue 3: squads are per club; the rule is the competition's "squads required"
        pytest.param(True, True, True, id="clubs-with-squads"),
        pytest.param(True, False, False, id="clubs-without-squads"),
        pytest.param(False, True, False, id="pairs-has-no-clubs"),
        pytest.param(False, False, False, id="pairs"),
    ],
)
def test_the_rule_holds_in_a_club_competition_requiring_squads(
    club_competition: bool, squads_required: bool, applies: bool
) -> None:
    assert (
        eligibility_applies(club_competition=club_competition, squads_required=squads_required)
        is applies
    )


@pytest.mark.parametrize(
    ("fielded", "found"),
    [
        pytest.param(
            [koppel(7, "home", 1, 101, 102), koppel(7, "away", 2, 201, 202)],
            {},
            id="everyone-on-the-squad",
        ),
        # issue 3: "a koppel may only hold players on its club's squad"
        pytest.param(
            [koppel(7, "home", 1, 101, 109), koppel(7, "away", 2, 201, 202)],
            {7: {"home": ["P109"]}},
            id="one-player-on-no-squad",
        ),
        pytest.param(
            [koppel(7, "home", 1, 101, 102), koppel(7, "away", 2, 201, 103)],
            {7: {"away": ["P103"]}},
            id="on-the-other-clubs-squad",
        ),
        pytest.param(
            [koppel(7, "home", 1, 108, 109)],
            {7: {"home": ["P108", "P109"]}},
            id="both-players-in-order",
        ),
        pytest.param(
            [koppel(7, "home", 1, 101, 109), koppel(7, "home", 1, 109, 102)],
            {7: {"home": ["P109"]}},
            id="named-once-a-match-side",
        ),
        pytest.param(
            [koppel(7, "away", 2, 201, 209), koppel(7, "home", 1, 109, 102)],
            {7: {"away": ["P209"], "home": ["P109"]}},
            id="sides-in-the-order-fielded",
        ),
        pytest.param(
            [koppel(7, "home", 1, 109, 102), koppel(8, "home", 1, 109, 102)],
            {7: {"home": ["P109"]}, 8: {"home": ["P109"]}},
            id="each-match-on-its-own",
        ),
        pytest.param(
            [koppel(7, "home", 4, 109, 102), koppel(7, "away", 3, 209, 202)],
            {},
            id="entries-without-a-club-passed-over",
        ),
    ],
)
def test_ineligible_players_are_those_not_on_their_clubs_squad(
    fielded: list[FieldedKoppel[int, int, int]], found: dict[int, dict[str, list[str]]]
) -> None:
    assert ineligible_players(fielded, clubs=CLUBS, squads=SQUADS) == found


FORFEIT_HOME = IneligiblePenalty("home", forfeit=True)
FORFEIT_AWAY = IneligiblePenalty("away", forfeit=True)


@pytest.mark.parametrize(
    ("sides", "home_points", "away_points", "deduction", "penalties"),
    [
        pytest.param([], 20, 10, 3, [], id="nobody-ineligible"),
        # issue 3: "an ineligible player makes the match lost (forfeit)"
        pytest.param(["home"], 20, 10, 3, [FORFEIT_HOME], id="home-won-so-forfeits"),
        pytest.param(["away"], 10, 20, 3, [FORFEIT_AWAY], id="away-won-so-forfeits"),
        # a draw is not a loss: the side that drew loses the match by forfeit
        pytest.param(["home"], 15, 15, 3, [FORFEIT_HOME], id="drawn-so-forfeits"),
        # issue 3: "or, if it was lost anyway, costs the club points"
        pytest.param(
            ["home"],
            10,
            20,
            3,
            [IneligiblePenalty("home", forfeit=False, points=3)],
            id="home-lost-anyway-so-deduction",
        ),
        pytest.param(
            ["away"],
            20,
            5,
            2,
            [IneligiblePenalty("away", forfeit=False, points=2)],
            id="away-lost-anyway-the-competitions-deduction",
        ),
        pytest.param(
            ["home"],
            0,
            20,
            0,
            [IneligiblePenalty("home", forfeit=False, points=0)],
            id="a-deduction-of-nought-is-still-no-forfeit",
        ),
        # issue 3 "Departures and choices": "When both sides fielded ineligible players, both
        # lose", the side that lost on the board too
        pytest.param(
            ["home", "away"], 10, 20, 3, [FORFEIT_HOME, FORFEIT_AWAY], id="both-sides-forfeit"
        ),
        pytest.param(
            ["away", "home"], 20, 20, 3, [FORFEIT_AWAY, FORFEIT_HOME], id="in-the-order-given"
        ),
    ],
)
def test_a_side_with_an_ineligible_player_forfeits_or_loses_points(
    sides: list[str],
    home_points: int,
    away_points: int,
    deduction: int,
    penalties: list[IneligiblePenalty],
) -> None:
    assert (
        ineligible_penalties(
            sides, home_points=home_points, away_points=away_points, deduction=deduction
        )
        == penalties
    )


@pytest.mark.parametrize(
    ("penalties", "forfeit"),
    [
        pytest.param([], None, id="no-penalty"),
        pytest.param([IneligiblePenalty("home", forfeit=False, points=3)], None, id="deduction"),
        pytest.param([FORFEIT_HOME], Forfeit.HOME, id="home"),
        pytest.param([FORFEIT_AWAY], Forfeit.AWAY, id="away"),
        pytest.param([FORFEIT_AWAY, FORFEIT_HOME], Forfeit.BOTH, id="both"),
    ],
)
def test_the_forfeit_the_penalties_make(
    penalties: list[IneligiblePenalty], forfeit: Forfeit | None
) -> None:
    assert ineligible_forfeit(penalties) is forfeit
