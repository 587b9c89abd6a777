"""round_record: every RULES.md round result and rule option, through the service."""

from __future__ import annotations

import pytest

from scoring.models import Game, Round
from scoring.rules import RuleViolation
from scoring.services.rounds import MAX_ROUNDS_PER_GAME, RoundRecord, game_rounds_load, round_record
from tests.builders import record
from tests.refreshes import queued_refreshes
from tests.seen import next_round
from troefclub.rule_messages import rule_message


def seat_player(game: Game, seat: int) -> int:
    player_id = game.seats[seat - 1]
    assert player_id is not None
    return player_id


@pytest.mark.parametrize(
    ("result", "side", "tricks", "points"),
    [
        # RULES.md "Round results"; 000 "Puntentelling", 001 §6
        pytest.param("gewone_winst", "a", (7, 3), (2, 0), id="gewone_winst-2-to-side"),
        pytest.param("kap", "b", (0, 7), (0, 5), id="kap-5-to-side"),
        pytest.param("kap_partner", "a", (7, 0), (2, 0), id="kap_partner-2-to-side"),
        pytest.param("baunie", "a", (13, 0), (15, 0), id="baunie-15-to-side"),
        # 000 "Kap en baunie": a failed baunie gives 2 to the other team, nothing to side
        pytest.param("baunie_mislukt", "a", (9, 1), (0, 2), id="baunie_mislukt-2-to-other"),
        # 000 "Kap en baunie" (only source): early tap gives 2 to the other team
        pytest.param("kap_te_vroeg", "b", (0, 6), (2, 0), id="kap_te_vroeg-2-to-other"),
        # 000 variants, 001 §7, 003 "The redeal"
        pytest.param("redeal", "a", None, (0, 0), id="redeal-0"),
    ],
)
def test_each_result_scores_as_the_rules_say(game, result, side, tricks, points):
    rnd = record(
        game,
        result=result,
        side=side,
        tricks=tricks,
    )

    assert (rnd.points_a, rnd.points_b) == points
    assert rnd.number == 1
    game.refresh_from_db()
    assert (game.score_a, game.score_b) == points


def test_worked_example_kap_by_the_seventh_trick_winner_scores_five(game):
    # RULES.md "Worked example" (001 §5, 004 §5): players 1 and 4 are one team (seats 1+3).
    rnd = record(
        game,
        result="kap",
        side="a",
        caller_id=seat_player(game, 1),
        tricks=(7, 0),
    )
    assert (rnd.points_a, rnd.points_b) == (5, 0)


def test_kap_at_eight_nil_is_refused_and_nothing_is_saved(game):
    # RULES.md "Consequences": kap only at exactly 7–0; from 8–0 the team plays for all 13.
    with pytest.raises(RuleViolation) as caught:
        record(
            game,
            result="kap",
            side="a",
            tricks=(8, 0),
        )

    assert caught.value.code == "kap_only_at_seven_nil"
    assert caught.value.params["round"] == 1
    assert not Round.objects.exists()
    game.refresh_from_db()
    assert (game.score_a, game.score_b, game.status) == (0, 0, Game.Status.OPEN)


@pytest.mark.parametrize(
    ("result", "side", "tricks", "code"),
    [
        # RULES.md "Consequences": trick counts must fit the result
        pytest.param("gewone_winst", "a", (7, 0), "tricks_do_not_fit", id="gewone-at-7-0"),
        pytest.param("baunie", "a", (12, 1), "tricks_do_not_fit", id="baunie-not-13"),
        pytest.param("baunie_mislukt", "a", (7, 2), "tricks_do_not_fit", id="mislukt-2-lost"),
        pytest.param("kap_te_vroeg", "a", (7, 0), "tricks_do_not_fit", id="early-at-7"),
        pytest.param("redeal", "a", (0, 0), "tricks_with_redeal", id="redeal-with-tricks"),
        pytest.param("gewone_winst", "a", (7, 7), "tricks_invalid", id="fourteen-tricks"),
        pytest.param("kap_partner", "b", (1, 7), "kap_only_at_seven_nil", id="kap-partner-7-1"),
    ],
)
def test_tricks_that_do_not_fit_the_result_are_refused(game, result, side, tricks, code):
    with pytest.raises(RuleViolation) as caught:
        record(
            game,
            result=result,
            side=side,
            tricks=tricks,
        )
    assert caught.value.code == code
    assert not Round.objects.exists()


def test_unknown_result_is_refused(game):
    with pytest.raises(RuleViolation) as caught:
        record(game, result="slam", side="a")
    assert caught.value.code == "result_unknown"


def test_game_ends_at_the_target_and_refuses_another_round(game):
    # RULES.md "Game end": the moment a team reaches the target (20); no round after it.
    for _ in range(3):
        record(game, result="kap", side="a")
    record(game, result="baunie", side="b")
    record(game, result="kap", side="a")
    game.refresh_from_db()
    assert (game.score_a, game.score_b, game.status) == (20, 15, Game.Status.FINISHED)

    with pytest.raises(RuleViolation) as caught:
        record(game, result="gewone_winst", side="b")
    assert caught.value.code == "game_finished"
    assert game.rounds.count() == 5


@pytest.mark.parametrize("target", [15, 20, 50, 7])
def test_any_positive_target_ends_the_game(make_game, target):
    # RULES.md "Game end": standard 20; 15 and 50 common; any positive target allowed.
    game = make_game(target_score=target)
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.OPEN:
            break
        record(game, result="gewone_winst", side="a")
    assert game.score_a == target + target % 2


def test_fixed_rounds_can_end_in_a_draw_and_redeals_do_not_count(make_game):
    # RULES.md "Game end", variant: fixed number of rounds (001 §8); a redeal is not played.
    game = make_game(target_score=None, fixed_rounds=2)
    record(game, result="gewone_winst", side="a")
    record(game, result="redeal", side="a")
    record(game, result="gewone_winst", side="b")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert (game.score_a, game.score_b) == (2, 2)
    assert game.winner is None


def test_target_and_fixed_rounds_end_at_whichever_comes_first(make_game):
    # RULES.md "Game end": both set, the game ends at whichever comes first.
    game = make_game(target_score=10, fixed_rounds=5)
    record(game, result="kap", side="a")
    record(game, result="kap", side="a")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def test_kap_by_partner_is_refused_when_the_competition_forbids_it(make_game):
    # RULES.md "Rule-set options": kap by partner allowed yes/no (000 vs 001 §8, 004 §8).
    game = make_game(kap_partner_allowed=False)
    with pytest.raises(RuleViolation) as caught:
        record(game, result="kap_partner", side="a")
    assert caught.value.code == "kap_partner_not_allowed"


def test_redeal_is_refused_when_the_competition_forbids_it(make_game):
    # RULES.md "Rule-set options": no-picture redeal allowed / not allowed (000, 001 §7).
    game = make_game(redeal_allowed=False)
    with pytest.raises(RuleViolation) as caught:
        record(game, result="redeal", side="a")
    assert caught.value.code == "redeal_not_allowed"


@pytest.mark.parametrize(
    ("caller_seat", "result", "side", "points"),
    [
        # RULES.md "Rule-set options", stinkende kap/baunie (000 "Bijzondere regels")
        pytest.param(2, "kap", "a", (5 + 3, 0), id="non-caller-kap-gets-bonus"),
        pytest.param(2, "kap_partner", "a", (2 + 3, 0), id="non-caller-kap-partner-bonus"),
        pytest.param(2, "baunie", "a", (15 + 10, 0), id="non-caller-baunie-gets-bonus"),
        pytest.param(1, "kap", "a", (5, 0), id="caller-kap-no-bonus"),
        pytest.param(2, "gewone_winst", "a", (2, 0), id="gewone-winst-no-bonus"),
    ],
)
def test_stinkende_bonus_goes_to_the_team_that_did_not_call(
    make_game, caller_seat, result, side, points
):
    game = make_game(stinkende_kap_bonus=3, stinkende_baunie_bonus=10)
    rnd = record(
        game,
        result=result,
        side=side,
        caller_id=seat_player(game, caller_seat),
    )
    assert (rnd.points_a, rnd.points_b) == points


def test_stinkende_bonus_refuses_a_round_without_caller(make_game):
    game = make_game(stinkende_kap_bonus=3)
    with pytest.raises(RuleViolation) as caught:
        record(game, result="kap", side="a")
    assert caught.value.code == "caller_required_for_bonus"


def test_caller_stays_on_a_win_and_passes_left_on_a_loss(game):
    # RULES.md "Who calls next" (001 §7, 004 §7): caller's team wins → same caller;
    # otherwise the next seat clockwise; after a redeal the caller stays (003).
    seat = {n: seat_player(game, n) for n in (1, 2, 3, 4)}
    record(
        game,
        result="gewone_winst",
        side="a",
        caller_id=seat[1],
    )
    record(
        game,
        result="redeal",
        side="a",
        caller_id=seat[1],
    )
    record(
        game,
        result="gewone_winst",
        side="b",
        caller_id=seat[1],
    )
    record(
        game,
        result="baunie_mislukt",
        side="b",
        caller_id=seat[2],
    )
    record(
        game,
        result="gewone_winst",
        side="a",
        caller_id=seat[3],
    )

    with pytest.raises(RuleViolation) as caught:
        record(
            game,
            result="gewone_winst",
            side="a",
            caller_id=seat[4],
        )
    assert caught.value.code == "caller_out_of_turn"
    assert (caught.value.params["expected"], caught.value.params["given"]) == (3, 4)
    assert caught.value.params["round"] == 6


def test_callers_required_refuses_a_round_without_caller(make_game):
    # RULES.md "Who calls next": a competition that records callers checks each round.
    game = make_game(callers_required=True)
    with pytest.raises(RuleViolation) as caught:
        record(game, result="gewone_winst", side="a")
    assert caught.value.code == "caller_required"


def test_caller_must_sit_at_the_table(game):
    from tests.factories import PlayerFactory

    stranger = PlayerFactory.create()
    with pytest.raises(RuleViolation) as caught:
        record(
            game,
            result="gewone_winst",
            side="a",
            caller_id=stranger.pk,
        )
    assert caught.value.code == "caller_not_at_table"


def test_caller_needs_known_seats(game):
    caller = seat_player(game, 1)
    Game.objects.filter(pk=game.pk).update(seat_1=None, seat_2=None, seat_3=None, seat_4=None)
    with pytest.raises(RuleViolation) as caught:
        record(
            game,
            result="gewone_winst",
            side="a",
            caller_id=caller,
        )
    assert caught.value.code == "seats_required"


def test_unknown_game_is_a_rule_violation_not_a_crash(db):
    with pytest.raises(RuleViolation) as caught:
        round_record(game_id=987654, expected_number=next_round(987654), result="kap", side="a")
    assert caught.value.code == "game_unknown"


def test_a_saved_round_queues_one_standings_refresh_on_commit(
    game, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks() as callbacks:
        for _ in range(4):  # four kaps: the last one ends the game (and moves the standings)
            record(game, result="kap", side="a")
    # One refresh, of this game's competition: only the round that ended the game owed one.
    assert queued_refreshes(callbacks) == [game.match.matchday.competition_id]


def test_a_refused_round_queues_nothing(game, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks, pytest.raises(RuleViolation):
        record(
            game,
            result="kap",
            side="a",
            tricks=(8, 0),
        )
    assert callbacks == []


def test_round_record_refuses_a_round_beyond_the_rounds_a_game_can_hold(game):
    # A sanity bound, not a game rule: without it a sheet took redeals without end.
    game_rounds_load(
        game_id=game.pk, rounds=[RoundRecord(result="redeal", side="a")] * MAX_ROUNDS_PER_GAME
    )

    with pytest.raises(RuleViolation) as caught:
        round_record(
            game_id=game.pk,
            expected_number=MAX_ROUNDS_PER_GAME + 1,
            result="redeal",
            side="a",
        )

    assert caught.value.code == "game_too_many_rounds"
    assert caught.value.params == {"limit": MAX_ROUNDS_PER_GAME, "rounds": MAX_ROUNDS_PER_GAME + 1}
    assert Round.objects.filter(game=game).count() == MAX_ROUNDS_PER_GAME


def test_game_rounds_load_refuses_more_rounds_than_a_game_can_hold_and_saves_none(game):
    with pytest.raises(RuleViolation) as caught:
        game_rounds_load(
            game_id=game.pk,
            rounds=[RoundRecord(result="redeal", side="a")] * (MAX_ROUNDS_PER_GAME + 1),
        )

    assert caught.value.code == "game_too_many_rounds"
    assert "200" in rule_message(caught.value)
    assert not Round.objects.filter(game=game).exists()


@pytest.mark.parametrize(
    ("expected", "code", "words"),
    [
        (1, "sheet_changed", "Round 1 was recorded meanwhile"),
        (5, "sheet_rounds_removed", "This form was for round 5, but the game has 2 rounds now"),
    ],
)
def test_a_form_for_another_round_than_the_next_says_which_way_the_sheet_moved(
    game, expected, code, words
):
    """A form made before rounds were added elsewhere says so; one made for a later round
    than the next (rounds undone or deleted elsewhere, or a hand-made form) does not claim
    that its round "was recorded meanwhile": no such round exists."""
    for number, result in ((1, "kap"), (2, "gewone_winst")):
        round_record(game_id=game.pk, expected_number=number, result=result, side="a")
    with pytest.raises(RuleViolation) as refused:
        round_record(game_id=game.pk, expected_number=expected, result="baunie", side="b")
    assert refused.value.code == code
    assert rule_message(refused.value).startswith(words)
    assert Round.objects.filter(game=game).count() == 2
