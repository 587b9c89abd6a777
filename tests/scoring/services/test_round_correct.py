"""round_correct and round_delete: the whole game is replayed with the change."""

from __future__ import annotations

import pytest

from scoring.models import Game
from scoring.rules import RuleViolation
from scoring.services.rounds import round_correct, round_delete
from tests.builders import record
from tests.seen import round_seen


def seats(game: Game) -> dict[int, int]:
    return {n: pid for n, pid in enumerate(game.seats, start=1) if pid is not None}


def record_all(game: Game, rounds: list[tuple[str, str, int | None]]) -> list[int]:
    return [
        record(
            game,
            result=result,
            side=side,
            caller_id=caller,
        ).pk
        for result, side, caller in rounds
    ]


def test_correction_recomputes_points_and_running_score(game):
    ids = record_all(game, [("gewone_winst", "a", None), ("gewone_winst", "b", None)])
    round_correct(round_id=ids[0], seen=round_seen(ids[0]), result="kap", side="a")
    game.refresh_from_db()
    assert (game.score_a, game.score_b) == (5, 2)
    assert list(game.rounds.values_list("number", "points_a", "points_b")) == [
        (1, 5, 0),
        (2, 0, 2),
    ]


def test_correction_that_breaks_a_later_caller_is_refused_and_changes_nothing(game):
    # RULES.md "Who calls next": making round 1 a loss for the caller moves the call to
    # seat 2, so round 2 (called by seat 1) no longer fits the rotation.
    s = seats(game)
    ids = record_all(game, [("gewone_winst", "a", s[1]), ("gewone_winst", "a", s[1])])

    with pytest.raises(RuleViolation) as caught:
        round_correct(
            round_id=ids[0],
            seen=round_seen(ids[0]),
            result="gewone_winst",
            side="b",
            caller_id=s[1],
        )

    assert caught.value.code == "caller_out_of_turn"
    assert caught.value.params["round"] == 2
    assert list(game.rounds.values_list("side", "points_a")) == [("a", 2), ("a", 2)]


def test_correction_that_changes_the_winner_reopens_the_game(game):
    # RULES.md "Game end": a correction that changes the winner reopens or recloses it.
    ids = record_all(game, [("kap", "a", None)] * 4)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED

    round_correct(round_id=ids[-1], seen=round_seen(ids[-1]), result="gewone_winst", side="a")
    game.refresh_from_db()
    assert (game.score_a, game.status) == (17, Game.Status.OPEN)

    round_correct(round_id=ids[-1], seen=round_seen(ids[-1]), result="baunie", side="a")
    game.refresh_from_db()
    assert (game.score_a, game.status) == (30, Game.Status.FINISHED)


def test_correction_that_ends_the_game_early_is_refused(game):
    # No round after the end: a baunie in round 2 would end the game before round 3.
    ids = record_all(
        game, [("kap", "a", None), ("gewone_winst", "a", None), ("gewone_winst", "a", None)]
    )
    with pytest.raises(RuleViolation) as caught:
        round_correct(round_id=ids[1], seen=round_seen(ids[1]), result="baunie", side="a")
    # Said from the round being corrected, not from round 3 that merely follows it.
    assert caught.value.code == "correction_ends_game"
    assert caught.value.params == {"round": 2, "ends_at": 2, "rounds": 3}


def test_correction_with_a_bad_kap_names_the_round(game):
    ids = record_all(game, [("gewone_winst", "a", None)] * 3)
    with pytest.raises(RuleViolation) as caught:
        round_correct(
            round_id=ids[1], seen=round_seen(ids[1]), result="kap", side="a", tricks=(8, 0)
        )
    assert (caught.value.code, caught.value.params["round"]) == ("kap_only_at_seven_nil", 2)


def test_undo_the_last_round(game):
    ids = record_all(game, [("kap", "a", None)] * 4)
    round_delete(round_id=ids[-1], seen=round_seen(ids[-1]))
    game.refresh_from_db()
    assert (game.score_a, game.status, game.rounds.count()) == (15, Game.Status.OPEN, 3)


def test_deleting_a_middle_round_renumbers_the_rest(game):
    ids = record_all(
        game, [("gewone_winst", "a", None), ("kap", "b", None), ("baunie_mislukt", "a", None)]
    )
    round_delete(round_id=ids[1], seen=round_seen(ids[1]))
    assert list(game.rounds.values_list("number", "result")) == [
        (1, "gewone_winst"),
        (2, "baunie_mislukt"),
    ]
    game.refresh_from_db()
    assert (game.score_a, game.score_b) == (2, 2)


def test_deleting_a_round_the_rotation_depends_on_is_refused(game):
    s = seats(game)
    # Round 2 passed the call from seat 1 to seat 2; without it seat 1 would still call.
    ids = record_all(
        game,
        [("gewone_winst", "a", s[1]), ("gewone_winst", "b", s[1]), ("gewone_winst", "b", s[2])],
    )
    with pytest.raises(RuleViolation) as caught:
        round_delete(round_id=ids[1], seen=round_seen(ids[1]))
    assert (caught.value.code, caught.value.params["round"]) == ("caller_out_of_turn", 2)
    assert game.rounds.count() == 3


@pytest.mark.parametrize("service", [round_correct, round_delete])
def test_unknown_round_is_a_rule_violation(db, service):
    kwargs: dict[str, object] = {"round_id": 424242, "seen": ""}
    if service is round_correct:
        kwargs |= {"result": "kap", "side": "a"}
    with pytest.raises(RuleViolation) as caught:
        service(**kwargs)
    assert caught.value.code == "round_unknown"
