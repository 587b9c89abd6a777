"""game_setup_check: who may sit at a game, checked before the admin saves it."""

from __future__ import annotations

import pytest

from scoring.models import Game
from scoring.rules import RuleViolation
from scoring.selectors.sheet import game_setup_check
from tests.builders import record
from tests.factories import (
    ClubEntryFactory,
    CompetitionFactory,
    MatchdayFactory,
    MatchFactory,
    PlayerFactory,
    TeamFactory,
)


def check(game: Game, **changes: object) -> bool:
    values: dict[str, object] = {
        "match": game.match,
        "team_a": game.team_a,
        "team_b": game.team_b,
        "seats": [game.seat_1, game.seat_2, game.seat_3, game.seat_4],
        "game": game,
    }
    values.update(changes)
    return game_setup_check(**values)  # type: ignore[arg-type]


def test_the_match_koppels_in_either_order(game):
    assert check(game) is True
    assert check(game, team_a=game.team_b, team_b=game.team_a, seats=[None] * 4) is False


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ("outsider_b", "koppel_not_in_match"),
        ("same_koppel", "game_same_koppel"),
        ("three_seats", "seats_incomplete"),
        ("a_player_in_seat_2", "seats_do_not_fit"),
        ("same_player_twice", "seat_player_twice"),
    ],
)
def test_wrong_setups_are_refused(game, change, code):
    a1, b1, a2, b2 = game.seat_1, game.seat_2, game.seat_3, game.seat_4
    changes: dict[str, object] = {
        "outsider_b": {"team_b": TeamFactory.create(), "seats": [None] * 4},
        "same_koppel": {"team_b": game.team_a},
        "three_seats": {"seats": [a1, b1, a2, None]},
        "a_player_in_seat_2": {"seats": [a1, a2, b1, b2]},
        "same_player_twice": {"seats": [a1, b1, a1, b2]},
    }[change]
    with pytest.raises(RuleViolation) as caught:
        check(game, **changes)
    assert caught.value.code == code


def test_a_match_with_reported_totals_takes_no_game(game):
    game.match.total_home, game.match.total_away = 20, 10
    with pytest.raises(RuleViolation) as caught:
        check(game)
    assert caught.value.code == "match_reported_totals"


def test_koppels_of_the_two_clubs_in_a_club_match(db):
    competition = CompetitionFactory.create(kind="clubs")
    home = ClubEntryFactory.create(competition=competition)
    away = ClubEntryFactory.create(competition=competition)
    match = MatchFactory.create(
        matchday=MatchdayFactory.create(competition=competition), home=home, away=away
    )

    def koppel(club):
        return TeamFactory.create(
            player_1=PlayerFactory.create(club=club), player_2=PlayerFactory.create(club=club)
        )

    ours, theirs = koppel(home.club), koppel(away.club)
    assert game_setup_check(match=match, team_a=theirs, team_b=ours, seats=[None] * 4) is False
    mixed = TeamFactory.create(
        player_1=PlayerFactory.create(club=home.club), player_2=PlayerFactory.create(club=away.club)
    )
    with pytest.raises(RuleViolation) as caught:
        game_setup_check(match=match, team_a=mixed, team_b=theirs, seats=[None] * 4)
    assert caught.value.code == "koppel_not_in_match"


def test_a_game_with_rounds_keeps_its_koppels_and_seats(game):
    record(
        game,
        result="kap",
        side="a",
        caller_id=game.seat_1_id,
    )
    with pytest.raises(RuleViolation) as caught:
        check(game, seats=[None] * 4)
    assert caught.value.code == "game_has_rounds_setup"
    assert check(game) is True  # unchanged is fine
