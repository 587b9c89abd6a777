"""The API's writes of a whole game (issue 21): totals, close, reopen, seats, confirm, dispute
and its decision; each kept under its Idempotency-Key, refused when stale (409) or against
the rules (422), and writing nothing when it changes nothing."""

from __future__ import annotations

import uuid

import pytest

from api.models import IdempotencyRecord
from scoring.models import Game, GameDispute
from scoring.services.games import game_seats_token
from scoring.services.rounds import round_record
from scoring.services.table import table_round_record
from tests.api.writes_helpers import bearer, director_token, link_of, post, table
from tests.factories import CompetitionFactory, GameFactory
from tests.refreshes import queued_refreshes
from tests.seen import game_token_now

pytestmark = pytest.mark.django_db


def version(game: Game) -> str:
    return game_token_now(game_id=game.pk)


def finished_at_the_table(game: Game) -> None:
    """Four kaps for koppel A entered through koppel A's link: 20–0, over."""
    link = link_of(game, "a")
    for number in range(1, 5):
        table_round_record(token=link.token, expected_number=number, result="kap", side="a")


@pytest.fixture
def closable(db: None) -> Game:
    return GameFactory.create(competition=CompetitionFactory.create(close_by_director_allowed=True))


@pytest.fixture
def confirming(db: None) -> Game:
    return GameFactory.create(competition=CompetitionFactory.create(confirmation_required=True))


def test_totals_are_entered_and_the_same_key_answers_again_without_a_write(client, game):
    token = director_token(game.match.matchday.competition)
    key = uuid.uuid4()
    body = {"total_a": 20, "total_b": 4, "version": version(game)}
    first = post(client, f"games/{game.pk}/totals/", body, auth=bearer(token), key=key)
    assert first.status_code == 200
    assert first.json()["by_totals"] is True and first.json()["status"] == "finished"
    history = Game.history.filter(id=game.pk).count()
    again = post(client, f"games/{game.pk}/totals/", body, auth=bearer(token), key=key)
    assert again.status_code == 200 and again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert Game.history.filter(id=game.pk).count() == history
    assert IdempotencyRecord.objects.count() == 1
    reused = post(
        client, f"games/{game.pk}/totals/", {**body, "total_b": 6}, auth=bearer(token), key=key
    )
    assert reused.status_code == 422 and reused.json()["code"] == "idempotency_key_reused"


def test_implausible_totals_are_422_and_nothing_is_kept_under_the_key(client, game):
    token = director_token(game.match.matchday.competition)
    key = uuid.uuid4()
    body = {"total_a": 1, "total_b": 20, "version": version(game)}
    response = post(client, f"games/{game.pk}/totals/", body, auth=bearer(token), key=key)
    assert response.status_code == 422 and response.json()["code"]
    assert not IdempotencyRecord.objects.exists()  # the key is free to send a fixed request
    fixed = post(
        client, f"games/{game.pk}/totals/", {**body, "total_a": 2}, auth=bearer(token), key=key
    )
    assert fixed.status_code == 200


def test_the_same_totals_again_write_nothing(client, game, django_capture_on_commit_callbacks):
    token = director_token(game.match.matchday.competition)
    body = {"total_a": 20, "total_b": 4, "version": version(game)}
    post(client, f"games/{game.pk}/totals/", body, auth=bearer(token))
    history = Game.history.filter(id=game.pk).count()
    with django_capture_on_commit_callbacks() as callbacks:
        response = post(client, f"games/{game.pk}/totals/", body, auth=bearer(token))
    assert response.status_code == 200
    assert Game.history.filter(id=game.pk).count() == history
    assert queued_refreshes(callbacks) == []


def test_close_and_reopen(client, closable, django_capture_on_commit_callbacks):
    game = closable
    token = director_token(game.match.matchday.competition)
    round_record(
        game_id=game.pk, expected_number=1, result="kap", side="a", caller_id=game.seat_1_id
    )
    with django_capture_on_commit_callbacks() as callbacks:
        closed = post(
            client, f"games/{game.pk}/close/", {"version": version(game)}, auth=bearer(token)
        )
    assert closed.status_code == 200 and closed.json()["status"] == "closed"
    assert queued_refreshes(callbacks) == [game.match.matchday.competition_id]
    # Closed already: a stale close changes nothing, writes nothing.
    history = Game.history.filter(id=game.pk).count()
    with django_capture_on_commit_callbacks() as callbacks:
        again = post(client, f"games/{game.pk}/close/", {"version": "stale"}, auth=bearer(token))
    assert again.status_code == 200 and again.json()["status"] == "closed"
    assert Game.history.filter(id=game.pk).count() == history
    assert queued_refreshes(callbacks) == []
    reopened = post(
        client,
        f"games/{game.pk}/reopen/",
        {"version": closed.json()["version"]},
        auth=bearer(token),
    )
    assert reopened.status_code == 200 and reopened.json()["status"] == "open"


def test_an_unstarted_game_is_not_closed(client, closable):
    """The score sheet refuses it (closing records a 0–0 draw); so does the API."""
    token = director_token(closable.match.matchday.competition)
    response = post(
        client, f"games/{closable.pk}/close/", {"version": version(closable)}, auth=bearer(token)
    )
    assert response.status_code == 422 and response.json()["code"] == "game_not_started"
    closable.refresh_from_db()
    assert closable.status == Game.Status.OPEN


def test_close_on_a_stale_version_is_409_with_the_game_now(client, closable):
    game = closable
    token = director_token(game.match.matchday.competition)
    round_record(
        game_id=game.pk, expected_number=1, result="kap", side="a", caller_id=game.seat_1_id
    )
    old = version(game)
    round_record(
        game_id=game.pk, expected_number=2, result="kap", side="b", caller_id=game.seat_1_id
    )
    response = post(client, f"games/{game.pk}/close/", {"version": old}, auth=bearer(token))
    assert response.status_code == 409
    assert response.json()["current"]["version"] == version(game)
    assert len(response.json()["current"]["rounds"]) == 2


def test_a_missing_version_is_refused_as_the_form_refuses_it(client, closable):
    token = director_token(closable.match.matchday.competition)
    response = post(client, f"games/{closable.pk}/close/", {"version": ""}, auth=bearer(token))
    assert response.status_code == 400
    assert response.json()["code"] == "seen_missing"
    assert response.json()["place"] == {"field": "version"}


def test_seats_and_first_caller(client, db):
    game = GameFactory.create(seat_1=None, seat_2=None, seat_3=None, seat_4=None)
    token = director_token(game.match.matchday.competition)
    seats_version = game_seats_token(game, [])
    body = {
        "seat_1": game.team_a.player_2_id,
        "seat_2": game.team_b.player_1_id,
        "first_caller": game.team_b.player_1_id,
        "version": seats_version,
    }
    response = post(client, f"games/{game.pk}/seats/", body, auth=bearer(token))
    assert response.status_code == 200
    answer = response.json()
    assert answer["seats"] == [
        game.team_a.player_2_id,
        game.team_b.player_1_id,
        game.team_a.player_1_id,
        game.team_b.player_2_id,
    ]
    assert answer["first_caller"] == 2
    # A player of the wrong koppel in seat 1: the form's own refusal, with its code.
    wrong = post(
        client,
        f"games/{game.pk}/seats/",
        {**body, "seat_1": game.team_b.player_2_id, "version": answer["seats_version"]},
        auth=bearer(token),
    )
    assert wrong.status_code == 400 and wrong.json()["code"] == "invalid_choice"
    assert wrong.json()["place"] == {"field": "seat_1"}


def test_the_other_koppel_confirms_through_its_link_and_the_director_through_the_api(
    client, confirming
):
    finished_at_the_table(confirming)
    entering = post(
        client,
        f"games/{confirming.pk}/confirm/",
        {"version": version(confirming)},
        auth=table(link_of(confirming, "a")),
    )
    assert entering.status_code == 422 and entering.json()["code"] == "table_own_rounds"
    response = post(
        client,
        f"games/{confirming.pk}/confirm/",
        {"version": version(confirming)},
        auth=table(link_of(confirming, "b")),
    )
    assert response.status_code == 200 and response.json()["confirmed"] is True
    confirming.refresh_from_db()
    assert confirming.confirmed_side == "b"


def test_the_director_confirms(client, confirming):
    round_record(
        game_id=confirming.pk,
        expected_number=1,
        result="kap",
        side="a",
        caller_id=confirming.seat_1_id,
    )
    token = director_token(confirming.match.matchday.competition)
    body = {"total_a": 20, "total_b": 4}
    confirming.rounds.all().delete()
    post(
        client,
        f"games/{confirming.pk}/totals/",
        {**body, "version": version(confirming)},
        auth=bearer(token),
    )
    response = post(
        client,
        f"games/{confirming.pk}/confirm/",
        {"version": version(confirming)},
        auth=bearer(token),
    )
    assert response.status_code == 200 and response.json()["confirmed"] is True


def test_a_dispute_through_the_link_and_its_decision_by_the_director(client, confirming):
    finished_at_the_table(confirming)
    token = director_token(confirming.match.matchday.competition)
    body = {"comment": "Round 4 was ours", "version": version(confirming)}
    director = post(client, f"games/{confirming.pk}/dispute/", body, auth=bearer(token))
    assert director.status_code == 403
    raised = post(
        client, f"games/{confirming.pk}/dispute/", body, auth=table(link_of(confirming, "b"))
    )
    assert raised.status_code == 200
    assert raised.json()["dispute"]["comment"] == "Round 4 was ours"
    assert raised.json()["dispute"]["side"] == "b"
    decision = {"resolution": "rejected", "version": raised.json()["version"]}
    resolved = post(client, f"games/{confirming.pk}/dispute/resolve/", decision, auth=bearer(token))
    assert resolved.status_code == 200
    assert resolved.json()["rounds"] == [] and resolved.json()["dispute"] is None
    assert GameDispute.objects.get().resolution == "rejected"
    other = post(
        client,
        f"games/{confirming.pk}/dispute/resolve/",
        {"resolution": "accepted", "version": resolved.json()["version"]},
        auth=bearer(token),
    )
    assert other.status_code == 422 and other.json()["code"] == "dispute_resolved_already"


def test_a_dispute_without_words_is_refused_as_on_the_phone(client, confirming):
    finished_at_the_table(confirming)
    body = {"comment": "", "version": version(confirming)}
    response = post(
        client, f"games/{confirming.pk}/dispute/", body, auth=table(link_of(confirming, "b"))
    )
    assert response.status_code == 400 and response.json()["code"] == "required"  # the form's
    assert response.json()["place"] == {"field": "comment"}
    assert not GameDispute.objects.exists()


def test_a_game_without_a_dispute_has_none_to_decide(client, game):
    token = director_token(game.match.matchday.competition)
    body = {"resolution": "accepted", "version": version(game)}
    response = post(client, f"games/{game.pk}/dispute/resolve/", body, auth=bearer(token))
    assert response.status_code == 422 and response.json()["code"] == "dispute_unknown"


def test_unknown_game_is_404(client, game):
    token = director_token(game.match.matchday.competition)
    for game_id in (999999, 2**63, 10**30):  # beyond any id column too: no database error
        response = post(client, f"games/{game_id}/close/", {"version": "x"}, auth=bearer(token))
        assert response.status_code == 404 and response.json()["code"] == "not_found"
    response = post(client, f"matches/{10**30}/forfeit/", {"forfeit": ""}, auth=bearer(token))
    assert response.status_code == 404
