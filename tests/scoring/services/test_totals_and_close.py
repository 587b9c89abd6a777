"""Totals entry (games and matches known only as totals) and closing by the director."""

from __future__ import annotations

import pytest

from scoring.models import Game
from scoring.rules import RuleViolation
from scoring.services.games import game_close, game_reopen, game_totals_enter, match_totals_enter
from tests.builders import record
from tests.seen import game_token_now, match_token_now, round_seen


def test_game_totals_finish_the_game(game):
    game_totals_enter(game_id=game.pk, seen=game_token_now(game_id=game.pk), total_a=20, total_b=14)
    game.refresh_from_db()
    assert (game.score_a, game.score_b, game.status) == (20, 14, Game.Status.FINISHED)


@pytest.mark.parametrize(
    ("total_a", "total_b", "code"),
    [
        # DESIGN.md: a team total of 1 or 3 can't happen with 2/5/15-point results
        pytest.param(20, 1, "total_impossible", id="one"),
        pytest.param(3, 20, "total_impossible", id="three"),
        # RULES.md "Consequences": only one team scores a round, so only one reaches 20
        pytest.param(20, 22, "totals_both_reached_target", id="both-at-target"),
        pytest.param(40, 2, "total_overshoots_target", id="overshoot"),
        pytest.param(12, 10, "totals_below_target", id="nobody-at-target"),
    ],
)
def test_implausible_game_totals_are_refused(game, total_a, total_b, code):
    with pytest.raises(RuleViolation) as caught:
        game_totals_enter(
            game_id=game.pk, seen=game_token_now(game_id=game.pk), total_a=total_a, total_b=total_b
        )
    assert caught.value.code == code
    game.refresh_from_db()
    assert (game.total_a, game.status) == (None, Game.Status.OPEN)


def test_totals_and_rounds_do_not_mix(game):
    record(game, result="kap", side="a")
    with pytest.raises(RuleViolation) as caught:
        game_totals_enter(
            game_id=game.pk, seen=game_token_now(game_id=game.pk), total_a=20, total_b=4
        )
    assert caught.value.code == "game_has_rounds"


def test_a_totals_game_takes_no_rounds_until_the_totals_are_cleared(game):
    game_totals_enter(game_id=game.pk, seen=game_token_now(game_id=game.pk), total_a=20, total_b=4)
    with pytest.raises(RuleViolation) as caught:
        record(game, result="kap", side="a")
    assert caught.value.code == "game_has_totals"

    game_reopen(game_id=game.pk, seen=game_token_now(game_id=game.pk))
    record(game, result="kap", side="a")
    game.refresh_from_db()
    assert (game.total_a, game.score_a, game.status) == (None, 5, Game.Status.OPEN)


def test_match_totals_are_checked_for_plausibility(game):
    match = game.match
    with pytest.raises(RuleViolation) as caught:
        match_totals_enter(
            match_id=match.pk, seen=match_token_now(match_id=match.pk), total_home=91, total_away=49
        )
    assert caught.value.code == "match_has_games"

    game.delete()
    with pytest.raises(RuleViolation) as caught:
        match_totals_enter(
            match_id=match.pk, seen=match_token_now(match_id=match.pk), total_home=91, total_away=3
        )
    assert (caught.value.code, caught.value.params["team"]) == ("total_impossible", "away")

    match_totals_enter(
        match_id=match.pk, seen=match_token_now(match_id=match.pk), total_home=91, total_away=49
    )
    match.refresh_from_db()
    assert (match.total_home, match.total_away) == (91, 49)


def test_director_close_is_refused_unless_the_competition_allows_it(game):
    with pytest.raises(RuleViolation) as caught:
        game_close(game_id=game.pk, seen=game_token_now(game_id=game.pk))
    assert caught.value.code == "close_not_allowed"


def test_director_close_at_a_level_score_is_a_draw_and_can_be_reopened(make_game):
    game = make_game(close_by_director_allowed=True)
    record(game, result="gewone_winst", side="a")
    record(game, result="gewone_winst", side="b")
    game_close(game_id=game.pk, seen=game_token_now(game_id=game.pk))
    game.refresh_from_db()
    assert game.status == Game.Status.CLOSED
    assert game.winner is None

    with pytest.raises(RuleViolation) as caught:
        record(game, result="kap", side="a")
    assert caught.value.code == "game_finished"

    game_reopen(game_id=game.pk, seen=game_token_now(game_id=game.pk))
    record(game, result="kap", side="a")
    game.refresh_from_db()
    assert (game.score_a, game.status) == (7, Game.Status.OPEN)


def test_reopen_refuses_a_game_not_closed_by_the_director(game):
    with pytest.raises(RuleViolation) as caught:
        game_reopen(game_id=game.pk, seen=game_token_now(game_id=game.pk))
    assert caught.value.code == "game_not_closed"


def test_a_closed_game_stays_closed_through_a_correction(make_game):
    from scoring.services.rounds import round_correct

    game = make_game(close_by_director_allowed=True)
    rnd = record(game, result="gewone_winst", side="a")
    game_close(game_id=game.pk, seen=game_token_now(game_id=game.pk))
    round_correct(round_id=rnd.pk, seen=round_seen(rnd.pk), result="kap", side="b")
    game.refresh_from_db()
    assert (game.status, game.score_b) == (Game.Status.CLOSED, 5)
