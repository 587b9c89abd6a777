"""A game as a sequence of rounds: RULES.md "Who calls next", "Game end", "Rule-set options"
and the "Worked example"."""

from __future__ import annotations

import math

import pytest

from scoring.rules import (
    GameState,
    Points,
    Result,
    RoundInput,
    RuleSet,
    RuleViolation,
    Side,
    next_seat,
    replay,
    seat_side,
)

STANDARD = RuleSet()
CLOSABLE = RuleSet(close_by_director_allowed=True)

WIN_A = RoundInput(Result.GEWONE_WINST, Side.A)
WIN_B = RoundInput(Result.GEWONE_WINST, Side.B)
REDEAL = RoundInput(Result.REDEAL, Side.A)


def _play(rules: RuleSet, rounds: list[RoundInput], *, caller: int | None = None) -> GameState:
    state = GameState(rules=rules, caller=caller)
    for rnd in rounds:
        state = state.apply(rnd).state
    return state


# ---------------------------------------------------------------- seats


@pytest.mark.parametrize(
    ("seat", "side"),
    [(1, Side.A), (2, Side.B), (3, Side.A), (4, Side.B)],
    ids=["seat-1-a", "seat-2-b", "seat-3-a", "seat-4-b"],
)
def test_seats_one_and_three_are_team_a(seat: int, side: Side) -> None:
    # RULES.md "Terms": seats 1+3 are one team, 2+4 the other
    assert seat_side(seat) is side


@pytest.mark.parametrize("seat", [0, 5, -1])
def test_seat_outside_one_to_four_is_refused(seat: int) -> None:
    # RULES.md "Terms": four seats
    with pytest.raises(RuleViolation) as caught:
        seat_side(seat)
    assert caught.value.code == "seat_invalid"


@pytest.mark.parametrize(("seat", "following"), [(1, 2), (2, 3), (3, 4), (4, 1)])
def test_next_seat_is_clockwise(seat: int, following: int) -> None:
    # RULES.md "Who calls next": the player on the left, the next seat clockwise (001 §7)
    assert next_seat(seat) == following


# ---------------------------------------------------------------- caller rotation
# RULES.md "Who calls next" (001 §7, 004 §7; redeal: 003 "The redeal"). "Wins the round" =
# the caller's team receives the points of that round.

ROTATION = [
    # The caller's team gets the points: the same player calls again.
    pytest.param(Result.GEWONE_WINST, "own", False, id="own-gewone_winst-stays-001s7"),
    pytest.param(Result.KAP, "own", False, id="own-kap-stays-001s7"),
    pytest.param(Result.KAP_PARTNER, "own", False, id="own-kap_partner-stays-001s7"),
    pytest.param(Result.BAUNIE, "own", False, id="own-baunie-stays-001s7"),
    pytest.param(Result.BAUNIE_MISLUKT, "other", False, id="their-baunie_mislukt-stays-000"),
    pytest.param(Result.KAP_TE_VROEG, "other", False, id="their-kap_te_vroeg-stays-000"),
    # A redeal: the caller does not change (003 "The redeal").
    pytest.param(Result.REDEAL, "own", False, id="redeal-stays-003"),
    pytest.param(Result.REDEAL, "other", False, id="redeal-other-side-stays-003"),
    # The other team scores: calling passes to the next seat clockwise.
    pytest.param(Result.GEWONE_WINST, "other", True, id="their-gewone_winst-passes-001s7"),
    pytest.param(Result.KAP, "other", True, id="their-kap-passes-001s7"),
    pytest.param(Result.KAP_PARTNER, "other", True, id="their-kap_partner-passes-001s7"),
    pytest.param(Result.BAUNIE, "other", True, id="their-baunie-passes-001s7"),
    pytest.param(Result.BAUNIE_MISLUKT, "own", True, id="own-baunie_mislukt-passes-000"),
    pytest.param(Result.KAP_TE_VROEG, "own", True, id="own-kap_te_vroeg-passes-000"),
]


@pytest.mark.parametrize("seat", [1, 2, 3, 4], ids=lambda seat: f"caller-{seat}")
@pytest.mark.parametrize(("result", "whose", "passes"), ROTATION)
def test_caller_rotation(result: Result, whose: str, passes: bool, seat: int) -> None:
    own = seat_side(seat)
    side = own if whose == "own" else own.other
    state = GameState(rules=STANDARD, caller=seat)
    after = state.apply(RoundInput(result, side, caller=seat)).state
    assert after.caller == (next_seat(seat) if passes else seat)


@pytest.mark.parametrize("seat", [1, 2, 3, 4], ids=lambda seat: f"caller-{seat}")
@pytest.mark.parametrize(("result", "whose", "passes"), ROTATION)
def test_caller_rotation_with_stinkende_bonus(
    result: Result, whose: str, passes: bool, seat: int
) -> None:
    # Same rotation with the bonus on (RULES.md "Rule-set options": caller always recorded)
    own = seat_side(seat)
    side = own if whose == "own" else own.other
    rules = RuleSet(stinkende_kap_bonus=2, stinkende_baunie_bonus=5)
    after = GameState(rules=rules, caller=seat).apply(RoundInput(result, side, caller=seat)).state
    assert after.caller == (next_seat(seat) if passes else seat)


def test_calling_goes_round_the_table_clockwise() -> None:
    # RULES.md "Who calls next": 1 → 2 → 3 → 4 → 1 when the caller's team keeps losing
    state = GameState(rules=STANDARD, caller=1)
    callers = []
    for _ in range(5):
        caller = state.caller
        assert caller is not None
        callers.append(caller)
        lost = RoundInput(Result.GEWONE_WINST, seat_side(caller).other, caller=caller)
        state = state.apply(lost).state
    assert callers == [1, 2, 3, 4, 1]
    assert state.caller == 2


def test_caller_out_of_turn_is_refused_naming_the_expected_caller() -> None:
    # RULES.md "Who calls next": rejected "with a message naming the expected caller"
    state = GameState(rules=STANDARD, caller=1).apply(RoundInput(Result.KAP, Side.B, caller=1))
    assert state.state.caller == 2
    with pytest.raises(RuleViolation) as caught:
        state.state.apply(RoundInput(Result.GEWONE_WINST, Side.A, caller=1))
    assert caught.value.code == "caller_out_of_turn"
    assert caught.value.params == {"expected": 2, "given": 1}


def test_caller_is_required_when_the_competition_records_callers() -> None:
    # RULES.md "Who calls next": "When a competition records callers"
    rules = RuleSet(callers_required=True)
    with pytest.raises(RuleViolation) as caught:
        GameState(rules=rules).apply(WIN_A)
    assert caught.value.code == "caller_required"
    # Even when the rotation already knows who calls.
    with pytest.raises(RuleViolation) as caught:
        GameState(rules=rules, caller=3).apply(WIN_A)
    assert caught.value.code == "caller_required"


def test_stinkende_bonus_needs_every_caller_even_when_the_rotation_knows_it() -> None:
    # RULES.md "Rule-set options": with the bonus on, a round without a caller is refused
    rules = RuleSet(stinkende_kap_bonus=3)
    with pytest.raises(RuleViolation) as caught:
        GameState(rules=rules, caller=1).apply(RoundInput(Result.KAP, Side.B))
    assert caught.value.code == "caller_required_for_bonus"


def test_stinkende_kap_in_a_game_uses_the_callers_seat() -> None:
    # 000 "Bijzondere regels": caller in seat 2 (team b), team a makes the kap: 5 + 3
    rules = RuleSet(stinkende_kap_bonus=3)
    step = GameState(rules=rules, caller=2).apply(RoundInput(Result.KAP, Side.A, caller=2))
    assert step.points == Points(8, 0)
    assert step.state.caller == 3


@pytest.mark.parametrize("caller", [0, 5, -1], ids=lambda c: f"seat-{c}")
def test_caller_outside_the_table_is_refused(caller: int) -> None:
    # RULES.md "Terms": four seats
    with pytest.raises(RuleViolation) as caught:
        GameState(rules=STANDARD).apply(RoundInput(Result.GEWONE_WINST, Side.A, caller=caller))
    assert caught.value.code == "caller_invalid"


def test_rotation_is_inferred_when_a_caller_is_not_written_down() -> None:
    # RULES.md "Who calls next": the rotation still says who called an unrecorded round
    state = _play(
        STANDARD,
        [
            RoundInput(Result.GEWONE_WINST, Side.A, caller=1),  # 1 wins: 1 again
            RoundInput(Result.GEWONE_WINST, Side.B),  # 1 (inferred) loses: 2 next
            REDEAL,  # 2 stays
            RoundInput(Result.KAP, Side.A),  # 2 (team b) loses: 3 next
        ],
    )
    assert state.caller == 3
    with pytest.raises(RuleViolation) as caught:
        state.apply(RoundInput(Result.GEWONE_WINST, Side.A, caller=2))
    assert caught.value.params == {"expected": 3, "given": 2}
    assert state.apply(RoundInput(Result.GEWONE_WINST, Side.A, caller=3)).state.caller == 3


def test_rotation_stays_unknown_until_a_caller_is_written_down() -> None:
    # RULES.md "Who calls next": the app records the first caller; it does not simulate it
    state = _play(STANDARD, [WIN_A, WIN_B, REDEAL])
    assert state.caller is None
    # The first written caller starts the rotation, whoever it is.
    state = state.apply(RoundInput(Result.GEWONE_WINST, Side.A, caller=4)).state
    assert state.caller == 1


# ---------------------------------------------------------------- game end
# RULES.md "Game end": 000, 001 §4, 003 "Winning the game"; fixed rounds 001 §8.


@pytest.mark.parametrize("target", [20, 15, 50, 7, 1, 2, 33], ids=lambda t: f"target-{t}")
def test_game_ends_the_moment_a_team_reaches_the_target(target: int) -> None:
    rules = RuleSet(target_score=target)
    state = GameState(rules=rules)
    needed = math.ceil(target / 2)
    for number in range(1, needed + 1):
        assert not state.finished
        state = state.apply(WIN_B).state
        assert state.finished is (number == needed)
    assert state.score == Points(0, 2 * needed)
    assert state.winner is Side.B
    assert not state.drawn


def test_game_ends_on_a_kap_or_baunie_that_passes_the_target() -> None:
    # RULES.md "Game end": 18 + 15 = 33 for a 20-target; the game ends there
    state = _play(STANDARD, [WIN_A] * 9 + [RoundInput(Result.BAUNIE, Side.A)])
    assert state.score == Points(33, 0)
    assert state.finished and state.winner is Side.A


def test_fixed_rounds_end_the_game_and_redeals_do_not_count() -> None:
    # RULES.md "Game end": fixed rounds (001 §8); a redeal is not a played round
    rules = RuleSet(target_score=None, fixed_rounds=3)
    state = _play(rules, [WIN_A, REDEAL, REDEAL, WIN_B])
    assert (state.rounds, state.played) == (4, 2)
    assert not state.finished
    state = state.apply(RoundInput(Result.KAP, Side.A)).state
    assert state.finished
    assert state.score == Points(7, 2)
    assert state.winner is Side.A


def test_fixed_rounds_can_end_in_a_draw() -> None:
    # RULES.md "Game end": "Then a game can end level: a draw" (001 §8)
    rules = RuleSet(target_score=None, fixed_rounds=4)
    state = _play(rules, [WIN_A, WIN_B, RoundInput(Result.KAP, Side.B), WIN_A])
    assert state.score == Points(4, 7)
    assert state.winner is Side.B
    state = _play(rules, [WIN_A, WIN_B, WIN_B, WIN_A])
    assert state.finished and state.drawn and state.winner is None


def test_target_and_fixed_rounds_end_at_the_target_when_it_comes_first() -> None:
    # RULES.md "Game end": "whichever comes first"
    rules = RuleSet(target_score=20, fixed_rounds=10)
    state = _play(rules, [RoundInput(Result.KAP, Side.A)] * 4)
    assert state.played == 4
    assert state.finished and state.winner is Side.A


def test_target_and_fixed_rounds_end_at_the_rounds_when_they_come_first() -> None:
    # RULES.md "Game end": "whichever comes first"; level after the rounds is a draw
    rules = RuleSet(target_score=20, fixed_rounds=10)
    state = _play(rules, [WIN_A, WIN_B] * 5)
    assert state.score == Points(10, 10)
    assert state.finished and state.drawn


def test_an_open_game_has_no_winner_and_is_no_draw() -> None:
    # RULES.md "Game end": a winner only once the game is over
    state = _play(STANDARD, [WIN_A, WIN_B])
    assert not state.finished
    assert state.winner is None and not state.drawn


@pytest.mark.parametrize(
    ("rules", "rounds"),
    [
        pytest.param(STANDARD, [RoundInput(Result.KAP, Side.A)] * 4, id="target-20-reached"),
        pytest.param(RuleSet(target_score=7), [WIN_A] * 4, id="target-7-reached"),
        pytest.param(RuleSet(target_score=None, fixed_rounds=2), [WIN_A, WIN_B], id="fixed-2"),
    ],
)
@pytest.mark.parametrize(
    "extra",
    [WIN_A, WIN_B, REDEAL, RoundInput(Result.BAUNIE_MISLUKT, Side.A)],
    ids=["win-a", "win-b", "redeal", "baunie_mislukt"],
)
def test_no_round_can_be_added_to_a_finished_game(
    rules: RuleSet, rounds: list[RoundInput], extra: RoundInput
) -> None:
    # RULES.md "Game end": "No round can be added to a finished game"
    state = _play(rules, rounds)
    assert state.finished
    with pytest.raises(RuleViolation) as caught:
        state.apply(extra)
    assert caught.value.code == "game_finished"
    assert caught.value.params == {"score_a": state.score.a, "score_b": state.score.b}


def test_counts_kaps_and_baunies_per_team() -> None:
    # GameState.kaps / baunies feed the standings columns (kap_partner counts as a kap)
    state = _play(
        STANDARD,
        [
            RoundInput(Result.KAP, Side.A),
            RoundInput(Result.KAP_PARTNER, Side.B),
            RoundInput(Result.KAP_PARTNER, Side.B),
            RoundInput(Result.BAUNIE_MISLUKT, Side.A),
            RoundInput(Result.BAUNIE, Side.B),
        ],
    )
    assert state.kaps == Points(1, 2)
    assert state.baunies == Points(0, 1)


# ---------------------------------------------------------------- closing by the director


def test_close_is_refused_when_the_competition_does_not_allow_it() -> None:
    # RuleSet.close_by_director_allowed (off by default)
    with pytest.raises(RuleViolation) as caught:
        GameState(rules=STANDARD).close()
    assert caught.value.code == "close_not_allowed"


def test_closing_a_finished_game_is_refused() -> None:
    state = _play(CLOSABLE, [RoundInput(Result.KAP, Side.A)] * 4)
    assert state.finished
    with pytest.raises(RuleViolation) as caught:
        state.close()
    assert caught.value.code == "game_finished"


def test_closing_at_a_level_score_is_a_draw() -> None:
    # RULES.md "Game end": a draw is possible with a director's close (time limit)
    state = _play(CLOSABLE, [WIN_A, WIN_B]).close()
    assert state.closed and state.finished and state.drawn and state.winner is None
    with pytest.raises(RuleViolation) as caught:
        state.apply(WIN_A)
    assert caught.value.code == "game_finished"


def test_closing_with_a_lead_gives_the_leader_the_game() -> None:
    state = _play(CLOSABLE, [WIN_A, RoundInput(Result.KAP, Side.B)]).close()
    assert state.finished and state.winner is Side.B and not state.drawn


def test_a_game_with_only_a_target_never_ends_level() -> None:
    # RULES.md "Consequences": one team scores per round, so the target is reached by one team
    for rounds in ([WIN_A, WIN_B] * 9 + [WIN_B], [WIN_A] * 3 + [RoundInput(Result.BAUNIE, Side.A)]):
        state = _play(STANDARD, rounds)
        assert state.finished and not state.drawn


# ---------------------------------------------------------------- replay


def test_replay_gives_the_points_of_each_round_and_running_totals() -> None:
    result = replay(
        STANDARD,
        [WIN_A, REDEAL, RoundInput(Result.KAP, Side.B), RoundInput(Result.BAUNIE_MISLUKT, Side.B)],
    )
    assert result.points == (Points(2, 0), Points(0, 0), Points(0, 5), Points(2, 0))
    assert result.running == (Points(2, 0), Points(2, 0), Points(2, 5), Points(4, 5))
    assert result.state.score == Points(4, 5)


@pytest.mark.parametrize(
    ("rounds", "first_caller", "code", "number"),
    [
        pytest.param(
            [RoundInput(Result.GEWONE_WINST, Side.A, caller=2)],
            1,
            "caller_out_of_turn",
            1,
            id="first-caller-mismatch-round-1",
        ),
        pytest.param(
            [WIN_A, WIN_B, RoundInput(Result.KAP, Side.A, tricks=(8, 0))],
            None,
            "kap_only_at_seven_nil",
            3,
            id="kap-8-0-round-3",
        ),
        pytest.param(
            [
                RoundInput(Result.GEWONE_WINST, Side.A, caller=1),
                RoundInput(Result.GEWONE_WINST, Side.B, caller=1),
                RoundInput(Result.GEWONE_WINST, Side.B, caller=1),
            ],
            None,
            "caller_out_of_turn",
            3,
            id="out-of-turn-round-3",
        ),
        pytest.param(
            [RoundInput(Result.KAP, Side.A)] * 4 + [WIN_B],
            None,
            "game_finished",
            5,
            id="after-the-end-round-5",
        ),
        pytest.param(
            [WIN_A, RoundInput(Result.REDEAL, Side.A, tricks=(0, 0))],
            None,
            "tricks_with_redeal",
            2,
            id="redeal-tricks-round-2",
        ),
    ],
)
def test_replay_errors_carry_the_round_number(
    rounds: list[RoundInput], first_caller: int | None, code: str, number: int
) -> None:
    # RuleViolation: "params['round'] is the 1-based number of the round that broke the rule"
    with pytest.raises(RuleViolation) as caught:
        replay(STANDARD, rounds, first_caller=first_caller)
    assert caught.value.code == code
    assert caught.value.params["round"] == number


def test_replay_redeal_refused_carries_its_round_number() -> None:
    rules = RuleSet(redeal_allowed=False)
    with pytest.raises(RuleViolation) as caught:
        replay(rules, [WIN_A, WIN_B, WIN_A, REDEAL])
    assert (caught.value.code, caught.value.params) == ("redeal_not_allowed", {"round": 4})


def test_replay_closed_closes_after_the_last_round() -> None:
    result = replay(CLOSABLE, [WIN_A, WIN_B], closed=True)
    assert result.state.closed and result.state.drawn


def test_replay_close_errors_carry_no_round() -> None:
    with pytest.raises(RuleViolation) as caught:
        replay(STANDARD, [WIN_A], closed=True)
    assert caught.value.code == "close_not_allowed"
    assert "round" not in caught.value.params


# ---------------------------------------------------------------- rule sets


@pytest.mark.parametrize(
    ("options", "field"),
    [
        pytest.param({"target_score": 0}, "target_score", id="target-0"),
        pytest.param({"target_score": -20}, "target_score", id="target-negative"),
        pytest.param({"fixed_rounds": 0}, "fixed_rounds", id="fixed_rounds-0"),
        pytest.param({"target_score": None, "fixed_rounds": 0}, "fixed_rounds", id="fixed-0-only"),
        pytest.param({"target_score": None}, "target_score", id="no-way-to-end-a-game"),
        pytest.param({"early_kap_penalty": 0}, "early_kap_penalty", id="penalty-0"),
        pytest.param({"early_kap_penalty": -2}, "early_kap_penalty", id="penalty-negative"),
        pytest.param({"stinkende_kap_bonus": -1}, "stinkende_kap_bonus", id="kap-bonus-negative"),
        pytest.param(
            {"stinkende_baunie_bonus": -1}, "stinkende_baunie_bonus", id="baunie-bonus-negative"
        ),
    ],
)
def test_impossible_rule_sets_are_refused(options: dict[str, object], field: str) -> None:
    # RULES.md "Rule-set options": "any positive integer" target; N rounds; a game must end
    with pytest.raises(RuleViolation) as caught:
        RuleSet(**options)  # type: ignore[arg-type]
    assert caught.value.code == "rule_set_invalid"
    assert caught.value.params == {"field": field}


@pytest.mark.parametrize(
    "options",
    [
        pytest.param({}, id="defaults"),
        pytest.param({"target_score": 1}, id="target-1"),
        pytest.param({"target_score": 1000}, id="target-1000"),
        pytest.param({"target_score": None, "fixed_rounds": 1}, id="fixed-only"),
        pytest.param({"target_score": None, "close_by_director_allowed": True}, id="close-only"),
        pytest.param({"target_score": 15, "fixed_rounds": 8}, id="target-and-fixed"),
    ],
)
def test_possible_rule_sets_are_accepted(options: dict[str, object]) -> None:
    RuleSet(**options)  # type: ignore[arg-type]


def test_default_rule_set_is_the_standard() -> None:
    # RULES.md "Rule-set options": defaults in bold
    rules = RuleSet()
    assert rules.target_score == 20
    assert rules.fixed_rounds is None
    assert rules.kap_partner_allowed is True
    assert rules.early_kap_penalty == 2
    assert (rules.stinkende_kap_bonus, rules.stinkende_baunie_bonus) == (0, 0)
    assert rules.redeal_allowed is True


# ---------------------------------------------------------------- worked example
# RULES.md "Worked example" (001 §5, 004 §5): players 1 and 4 against players 2 and 3.
# Partners sit opposite each other, so players 1 and 4 take seats 1 and 3 (team a) and
# players 2 and 3 take seats 2 and 4 (team b). Player 1 calls (diamonds trumps).

PLAYER_SEAT = {1: 1, 4: 3, 2: 2, 3: 4}


def test_worked_example_players_map_to_one_team() -> None:
    assert seat_side(PLAYER_SEAT[1]) is seat_side(PLAYER_SEAT[4]) is Side.A
    assert seat_side(PLAYER_SEAT[2]) is seat_side(PLAYER_SEAT[3]) is Side.B


@pytest.mark.parametrize(
    ("result", "tricks", "points"),
    [
        # Player 4 wins the 7th trick and says "kap partij": 5 to players 1 and 4.
        pytest.param(Result.KAP, (7, 0), Points(5, 0), id="7th-trick-winner-kap-5-001s5"),
        # Had player 1 (the partner) said it: 2 (000; 001 §8 and 004 §8 call it a variant).
        pytest.param(Result.KAP_PARTNER, (7, 0), Points(2, 0), id="partner-kap-2-001s5"),
        # Had player 4 tapped during the 7th trick: 2 to players 2 and 3 (000 "Kap en baunie").
        pytest.param(Result.KAP_TE_VROEG, (6, 0), Points(0, 2), id="early-tap-2-to-them-000"),
    ],
)
def test_worked_example(result: Result, tricks: tuple[int, int], points: Points) -> None:
    caller = PLAYER_SEAT[1]
    team = seat_side(PLAYER_SEAT[4])
    step = GameState(rules=STANDARD, caller=caller).apply(
        RoundInput(result, team, caller=caller, tricks=tricks)
    )
    assert step.points == points
    assert step.state.score == points
