"""Every round result, rule option and violation, through `manage.py import_competition`.

Each case is a small document from `document()` with its own rules and rounds (or totals);
an accepted one is checked for the game's score, a refused one for the place and the rule,
and for having saved nothing.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management.base import CommandError

from scoring.models import Game, Round, Standing
from tests.interchange.documents import GAME_PLACE, document, row_counts, run_import
from tournaments.models import Competition

pytestmark = pytest.mark.django_db


def r(result: str, side: str = "a", caller: str | None = None, tricks: Any = None) -> dict:
    row: dict[str, Any] = {"result": result, "side": side}
    if caller is not None:
        row["caller"] = caller
    if tricks is not None:
        row["tricks"] = tricks
    return row


# (id, rules, rounds, expected points per round, final score, status)
ACCEPTED = [
    ("gewone_winst", {}, [r("gewone_winst", "a", tricks=[7, 3])], [(2, 0)], "open"),
    ("gewone_winst_b", {}, [r("gewone_winst", "b", tricks=[6, 7])], [(0, 2)], "open"),
    ("kap", {}, [r("kap", "a", tricks=[7, 0])], [(5, 0)], "open"),
    ("kap_partner", {}, [r("kap_partner", "b", tricks=[0, 7])], [(0, 2)], "open"),
    ("baunie", {}, [r("baunie", "a", tricks=[13, 0])], [(15, 0)], "open"),
    ("baunie_mislukt", {}, [r("baunie_mislukt", "a", tricks=[9, 1])], [(0, 2)], "open"),
    ("kap_te_vroeg", {}, [r("kap_te_vroeg", "a", tricks=[6, 0])], [(0, 2)], "open"),
    ("redeal", {}, [r("redeal", "a")], [(0, 0)], "open"),
    ("target_20_reached", {}, [r("kap")] * 4, [(5, 0)] * 4, "finished"),
    ("target_15", {"target_score": 15}, [r("kap")] * 3, [(5, 0)] * 3, "finished"),
    ("target_50_not_yet", {"target_score": 50}, [r("kap")] * 4, [(5, 0)] * 4, "open"),
    (
        "fixed_rounds_draw",
        {"target_score": None, "fixed_rounds": 2},
        [r("gewone_winst", "a"), r("redeal"), r("gewone_winst", "b")],
        [(2, 0), (0, 0), (0, 2)],
        "finished",
    ),
    (
        "fixed_rounds_before_target",
        {"fixed_rounds": 2},
        [r("kap", "a"), r("baunie_mislukt", "a")],
        [(5, 0), (0, 2)],
        "finished",
    ),
    (
        "stinkende_kap_by_non_callers",
        {"stinkende_bonus": {"kap": 3, "baunie": 10}},
        [r("kap", "a", caller="bert", tricks=[7, 0])],
        [(8, 0)],
        "open",
    ),
    (
        "stinkende_baunie_by_non_callers",
        {"stinkende_bonus": {"kap": 3, "baunie": 10}},
        [r("baunie", "b", caller="anna")],
        [(0, 25)],
        "finished",
    ),
    (
        "no_stink_when_callers_win",
        {"stinkende_bonus": {"kap": 3, "baunie": 10}},
        [r("kap", "a", caller="anna")],
        [(5, 0)],
        "open",
    ),
    (
        "callers_in_turn",
        {"callers_required": True},
        # anna's team wins: anna again; then zuid wins: calling passes left to bert.
        [
            r("gewone_winst", "a", "anna"),
            r("gewone_winst", "b", "anna"),
            r("redeal", "a", "bert"),
            r("kap", "b", "bert"),
        ],
        [(2, 0), (0, 2), (0, 0), (0, 5)],
        "open",
    ),  # fmt: skip
    (
        "early_kap_penalty",
        {"early_kap_penalty": 5},
        [r("kap_te_vroeg", "b")],
        [(5, 0)],
        "open",
    ),
]


@pytest.mark.parametrize(
    ("rules", "rounds", "points", "status"),
    [case[1:] for case in ACCEPTED],
    ids=[case[0] for case in ACCEPTED],
)
def test_accepted(tmp_path, rules, rounds, points, status):
    out = run_import(tmp_path, document(rules=rules, rounds=rounds))

    assert f"{len(rounds)} rounds" in out
    game = Game.objects.get()
    assert list(Round.objects.order_by("number").values_list("points_a", "points_b")) == points
    assert (game.score_a, game.score_b) == tuple(map(sum, zip(*points, strict=True)))
    assert game.status == status
    assert Standing.objects.count() == 2


def test_fixed_rounds_draw_counts_in_the_standings(tmp_path):
    run_import(
        tmp_path,
        document(
            rules={"target_score": None, "fixed_rounds": 2},
            rounds=[r("gewone_winst", "a"), r("gewone_winst", "b")],
        ),
    )
    assert list(Standing.objects.values_list("rank", "drawn", "points")) == [(1, 1, 1), (1, 1, 1)]


def test_closed_by_the_director(tmp_path):
    run_import(
        tmp_path,
        document(
            rules={"close_by_director_allowed": True},
            game={"closed": True, "rounds": [r("kap"), r("gewone_winst", "b")]},
        ),
    )
    game = Game.objects.get()
    assert (game.status, game.score_a, game.score_b) == (Game.Status.CLOSED, 5, 2)
    assert list(Standing.objects.values_list("won", "lost")) == [(1, 0), (0, 1)]


def test_game_totals_and_match_totals(tmp_path):
    run_import(tmp_path, document(game={"rounds": None, "totals": [20, 12]}))
    game = Game.objects.get()
    assert (game.score_a, game.score_b, game.status) == (20, 12, "finished")

    run_import(
        tmp_path,
        document(match={"games": None, "totals": [81, 74]}, competition={
            **document()["competition"], "slug": "by-totals",
        }),
    )  # fmt: skip
    competition = Competition.objects.get(slug="by-totals")
    assert list(
        competition.standings.order_by("rank").values_list("entry__team__key", "saldo")
    ) == [("noord", 7), ("zuid", -7)]


def test_a_match_not_played_yet(tmp_path):
    run_import(tmp_path, document(match={"games": None}))
    assert list(Standing.objects.values_list("played", flat=True)) == [0, 0]


# (id, rules, game changes, place, message part)
REFUSED = [
    (
        "kap_at_8_0",
        {},
        {"rounds": [r("kap", "a", tricks=[8, 0])]},
        f"{GAME_PLACE}, round 1",
        "A kap can only be called at exactly 7–0 in tricks, not at 8–0",
    ),
    (
        "tricks_do_not_fit",
        {},
        {"rounds": [r("gewone_winst", "a", tricks=[7, 2]), r("gewone_winst", "a", tricks=[7, 0])]},
        f"{GAME_PLACE}, round 2",
        "Tricks 7–0 don't fit the result “gewone winst”",
    ),
    (
        "tricks_too_many",
        {},
        {"rounds": [r("baunie_mislukt", "b", tricks=[1, 13])]},
        f"{GAME_PLACE}, round 1",
        "Trick counts 1–13 are impossible",
    ),
    (
        "round_after_game_end",
        {},
        {"rounds": [r("kap")] * 4 + [r("gewone_winst", "b")]},
        f"{GAME_PLACE}, round 5",
        "The game is over (20–0): no more rounds can be added.",
    ),
    (
        "round_after_fixed_rounds",
        {"fixed_rounds": 1},
        {"rounds": [r("gewone_winst"), r("gewone_winst")]},
        f"{GAME_PLACE}, round 2",
        "The game is over (2–0)",
    ),
    (
        "caller_out_of_turn",
        {"callers_required": True},
        {"rounds": [r("gewone_winst", "a", "anna"), r("gewone_winst", "a", "bert")]},
        f"{GAME_PLACE}, round 2",
        "Bert (bert) cannot call this round: it is Anna (anna)'s turn to call.",
    ),
    (
        "caller_missing",
        {"callers_required": True},
        {"rounds": [r("gewone_winst", "a", "anna"), r("gewone_winst", "a")]},
        f"{GAME_PLACE}, round 2",
        "This competition records callers",
    ),
    (
        "caller_not_seated",
        {},
        {"seats": None, "rounds": [r("gewone_winst", "a", "anna")]},
        f"{GAME_PLACE}, round 1",
        "Callers can only be recorded when the four seats of the game are known.",
    ),
    (
        "kap_partner_not_allowed",
        {"kap_partner_allowed": False},
        {"rounds": [r("kap"), r("kap_partner", "b")]},
        f"{GAME_PLACE}, round 2",
        "does not allow a kap called by the partner",
    ),
    (
        "redeal_not_allowed",
        {"redeal_allowed": False},
        {"rounds": [r("redeal")]},
        f"{GAME_PLACE}, round 1",
        "does not allow a no-picture redeal",
    ),
    (
        "stinkende_bonus_without_caller",
        {"stinkende_bonus": {"kap": 3, "baunie": 0}},
        {"rounds": [r("kap", "a")]},
        f"{GAME_PLACE}, round 1",
        "The stinkende bonus is on, so every round needs its caller.",
    ),
    (
        "game_total_1",
        {},
        {"rounds": None, "totals": [20, 1]},
        GAME_PLACE,
        "A total of 1 for koppel B is impossible",
    ),
    (
        "game_total_3",
        {},
        {"rounds": None, "totals": [3, 20]},
        GAME_PLACE,
        "A total of 3 for koppel A is impossible",
    ),
    (
        "both_totals_at_target",
        {},
        {"rounds": None, "totals": [20, 22]},
        GAME_PLACE,
        "Both koppels cannot reach 20",
    ),
    (
        "close_not_allowed",
        {},
        {"closed": True, "rounds": [r("kap")]},
        GAME_PLACE,
        "does not let the director close a game",
    ),
]


@pytest.mark.parametrize(
    ("rules", "game", "place", "message"),
    [case[1:] for case in REFUSED],
    ids=[case[0] for case in REFUSED],
)
def test_refused(tmp_path, rules, game, place, message):
    before = row_counts()

    with pytest.raises(CommandError) as info:
        run_import(tmp_path, document(rules=rules, game=game))

    assert f"{place}: " in str(info.value)
    assert message in str(info.value)
    assert "Round " not in str(info.value)  # the round is in the place, said once
    assert row_counts() == before


def test_impossible_match_totals_are_refused(tmp_path):
    with pytest.raises(CommandError) as info:
        run_import(tmp_path, document(match={"games": None, "totals": [81, 3]}))
    assert "matchday 1, match noord-zuid: A total of 3 for the away side is impossible" in str(
        info.value
    )
    assert not Competition.objects.exists()


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ({"target_score": 0}, "competition, rules: .* not possible: check “target score”"),
        ({"target_score": None}, "competition, rules: The rule set is not possible"),
        ({"early_kap_penalty": 0}, "check “early-kap penalty”"),
        ({"stinkende_bonus": {"kap": -1, "baunie": 0}}, "check “stinkende kap bonus”"),
        ({"target": 20}, "competition, rules: unknown field “target”"),
    ],
)  # fmt: skip
def test_impossible_rule_sets_are_refused(tmp_path, rules, message):
    with pytest.raises(CommandError, match=message):
        run_import(tmp_path, document(rules=rules))
    assert not Competition.objects.exists()


def test_unknown_tiebreak_is_refused(tmp_path):
    data = document()
    data["competition"]["standings"]["tiebreaks"] = ["points", "coin_toss"]
    with pytest.raises(CommandError, match="competition, standings: “coin_toss” is not a known"):
        run_import(tmp_path, data)


def test_a_tiebreak_given_twice_is_refused(tmp_path):
    # The admin refused ["points", "points"] while the import stored it (found by a tester):
    # both now use the engine's `check_tiebreaks`.
    data = document()
    data["competition"]["standings"]["tiebreaks"] = ["points", "saldo", "points"]
    with pytest.raises(
        CommandError, match="competition, standings: “points” is chosen twice as a tie-break"
    ):
        run_import(tmp_path, data)
    assert not Competition.objects.exists()
