"""The API's writes of a round (issue 21): record, correct, undo; through a director's API
token and through a table link; keyed, versioned, refused in the reader's language."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse

from api.models import IdempotencyRecord
from scoring.models import Round
from scoring.services.rounds import round_correct, round_record
from tests.api.writes_helpers import bearer, director_token, link_of, post, table
from tests.factories import CompetitionFactory, UserFactory
from tests.refreshes import queued_refreshes
from tests.seen import game_token_now

pytestmark = pytest.mark.django_db


def kap(game, number=1, **extra):
    return {
        "number": number,
        "result": "kap",
        "side": "a",
        "caller": game.seat_1_id,
        "version": game_token_now(game_id=game.pk),
        **extra,
    }


def record_path(game):
    return f"games/{game.pk}/rounds/record/"


def test_a_director_records_a_round_and_gets_the_game_with_its_new_version(client, game):
    token = director_token(game.match.matchday.competition)
    response = post(client, record_path(game), kap(game), auth=bearer(token))
    assert response.status_code == 201
    answer = response.json()
    assert answer["already"] is False
    assert answer["round"]["number"] == 1 and answer["round"]["points_a"] == 5
    assert answer["score_a"] == 5 and answer["status"] == "open"
    assert answer["version"] == game_token_now(game_id=game.pk)
    stored = game.rounds.get()
    assert stored.recorded_by is not None and stored.link is None
    assert stored.client_key is not None
    assert not IdempotencyRecord.objects.exists()  # the round keeps its own key


def test_the_same_key_again_stores_the_round_once(client, game):
    token = director_token(game.match.matchday.competition)
    key = uuid.uuid4()
    body = kap(game)
    first = post(client, record_path(game), body, auth=bearer(token), key=key)
    again = post(client, record_path(game), body, auth=bearer(token), key=key)
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json()["already"] is True
    assert again.json()["round"] == first.json()["round"]
    assert game.rounds.count() == 1
    assert Round.history.filter(game_id=game.pk).count() == 1


def test_the_same_key_with_another_round_is_refused(client, game):
    token = director_token(game.match.matchday.competition)
    key = uuid.uuid4()
    post(client, record_path(game), kap(game), auth=bearer(token), key=key)
    other = kap(game, side="b", caller=game.seat_2_id)
    response = post(client, record_path(game), other, auth=bearer(token), key=key)
    assert response.status_code == 422
    assert response.json()["code"] == "idempotency_key_reused"
    assert game.rounds.count() == 1


def test_a_round_queued_on_the_phone_and_sent_again_through_the_api_is_stored_once(client, game):
    """The phone's offline queue sent it (`/t/<token>/round/`), the answer was lost, and a
    scorer app sends it again with the same key through the same table link."""
    link = link_of(game)
    key = uuid.uuid4()
    seen = game_token_now(game_id=game.pk)
    queued = client.post(
        reverse("table_round_send", kwargs={"token": link.token}),
        {"key": str(key), "seen": seen, "number": 1, "quick": "a"},
    )
    assert queued.status_code == 200
    body = {"number": 1, "result": "gewone_winst", "side": "a", "version": seen}
    response = post(client, record_path(game), body, auth=table(link), key=key)
    assert response.status_code == 200 and response.json()["already"] is True
    assert game.rounds.count() == 1
    assert Round.history.filter(game_id=game.pk).count() == 1


def test_a_table_link_records_its_own_games_rounds(client, game):
    link = link_of(game, "b")
    body = {
        "number": 1,
        "result": "gewone_winst",
        "side": "b",
        "version": game_token_now(game_id=game.pk),
    }
    response = post(client, record_path(game), body, auth=table(link))
    assert response.status_code == 201
    assert game.rounds.get().link == link
    # The other koppel's link may not enter once this one does (the phone page's rule).
    other = {**body, "number": 2, "version": response.json()["version"]}
    refused = post(client, record_path(game), other, auth=table(link_of(game, "a")))
    assert refused.status_code == 422 and refused.json()["code"] == "table_other_koppel_enters"


def test_a_table_link_records_no_tricks(client, game):
    body = kap(game, tricks_a=7, tricks_b=0)
    response = post(client, record_path(game), body, auth=table(link_of(game)))
    assert response.status_code == 400
    assert response.json()["code"] == "tricks_not_at_table"
    assert response.json()["place"] == {"field": "tricks_a"}
    assert not game.rounds.exists()


def test_a_round_on_a_stale_version_is_409_with_the_game_now(client, game):
    token = director_token(game.match.matchday.competition)
    old = game_token_now(game_id=game.pk)
    round_record(game_id=game.pk, expected_number=1, result="gewone_winst", side="b")
    response = post(client, record_path(game), kap(game, 2, version=old), auth=bearer(token))
    assert response.status_code == 409
    answer = response.json()
    assert answer["code"] == "game_changed_meanwhile"
    assert answer["current"]["version"] == game_token_now(game_id=game.pk)
    assert [r["number"] for r in answer["current"]["rounds"]] == [1]
    assert game.rounds.count() == 1


def test_a_round_the_rules_refuse_is_422_with_the_round_and_dutch_words(client, game):
    token = director_token(game.match.matchday.competition)
    body = kap(game, result="gewone_winst", tricks_a=7, tricks_b=0)
    response = post(client, record_path(game), body, auth=bearer(token), language="nl")
    assert response.status_code == 422
    answer = response.json()
    assert answer["code"] == "tricks_do_not_fit"
    assert answer["place"] == {"round": 1}
    assert answer["message"].startswith("Ronde 1:")
    english = post(client, record_path(game), body, auth=bearer(token), language="en").json()
    assert english["message"].startswith("Round 1:") and english["message"] != answer["message"]
    assert not game.rounds.exists()


def test_a_correction_goes_through_round_correct_and_answers_the_new_versions(client, game):
    token = director_token(game.match.matchday.competition)
    rnd = round_record(
        game_id=game.pk, expected_number=1, result="kap", side="a", caller_id=game.seat_1_id
    )
    body = {"result": "gewone_winst", "side": "b", "caller": game.seat_1_id, "version": rnd.token}
    path = f"games/{game.pk}/rounds/{rnd.pk}/correct/"
    response = post(client, path, body, auth=bearer(token))
    assert response.status_code == 200
    answer = response.json()
    assert answer["rounds"][0]["result"] == "gewone_winst" and answer["score_b"] == 2
    assert answer["rounds"][0]["version"] == Round.objects.get(pk=rnd.pk).token
    # On the round's old version: corrected meanwhile, 409.
    stale = post(client, path, {**body, "side": "a"}, auth=bearer(token))
    assert stale.status_code == 409 and stale.json()["code"] == "round_changed"
    assert stale.json()["current"]["rounds"][0]["side"] == "b"


def test_a_correction_that_changes_nothing_writes_nothing(
    client, game, django_capture_on_commit_callbacks
):
    token = director_token(game.match.matchday.competition)
    rnd = round_record(
        game_id=game.pk, expected_number=1, result="kap", side="a", caller_id=game.seat_1_id
    )
    history = Round.history.count()
    body = {"result": "kap", "side": "a", "caller": game.seat_1_id, "version": rnd.token}
    with django_capture_on_commit_callbacks() as callbacks:
        response = post(
            client, f"games/{game.pk}/rounds/{rnd.pk}/correct/", body, auth=bearer(token)
        )
    assert response.status_code == 200
    assert Round.history.count() == history
    assert queued_refreshes(callbacks) == []


def test_a_round_of_another_game_is_404(client, game):
    token = director_token(game.match.matchday.competition)
    other = round_record(
        game_id=game.pk, expected_number=1, result="kap", side="a", caller_id=game.seat_1_id
    )
    elsewhere = CompetitionFactory.create()
    from tests.factories import GameFactory

    second = GameFactory.create(competition=game.match.matchday.competition)
    body = {"result": "kap", "side": "b", "caller": second.seat_2_id, "version": other.token}
    response = post(
        client, f"games/{second.pk}/rounds/{other.pk}/correct/", body, auth=bearer(token)
    )
    assert response.status_code == 404
    assert elsewhere.pk  # another competition changes nothing here
    assert Round.objects.get(pk=other.pk).side == "a"


def test_undo_by_the_director_and_by_the_link_that_entered_it(client, game):
    token = director_token(game.match.matchday.competition)
    link = link_of(game)
    body = {
        "number": 1,
        "result": "gewone_winst",
        "side": "a",
        "version": game_token_now(game_id=game.pk),
    }
    recorded = post(client, record_path(game), body, auth=table(link)).json()
    undo = {"round": recorded["round"]["id"], "version": recorded["version"]}
    response = post(client, f"games/{game.pk}/rounds/undo/", undo, auth=table(link))
    assert response.status_code == 200 and response.json()["rounds"] == []
    assert Round.history.filter(game_id=game.pk, history_type="-").count() == 1
    rnd = round_record(game_id=game.pk, expected_number=1, result="gewone_winst", side="a")
    undo = {"round": rnd.pk, "version": game_token_now(game_id=game.pk)}
    # The link did not enter this one: the phone page can't undo it either.
    refused = post(client, f"games/{game.pk}/rounds/undo/", undo, auth=table(link))
    assert refused.status_code == 422 and refused.json()["code"] == "table_not_entering"
    done = post(client, f"games/{game.pk}/rounds/undo/", undo, auth=bearer(token))
    assert done.status_code == 200 and not game.rounds.exists()


def test_undo_on_a_stale_version_is_409(client, game):
    token = director_token(game.match.matchday.competition)
    first = round_record(game_id=game.pk, expected_number=1, result="gewone_winst", side="a")
    seen = game_token_now(game_id=game.pk)
    round_correct(round_id=first.pk, result="gewone_winst", side="b", seen=first.token)
    response = post(
        client,
        f"games/{game.pk}/rounds/undo/",
        {"round": first.pk, "version": seen},
        auth=bearer(token),
    )
    assert response.status_code == 409 and response.json()["code"] == "game_changed_meanwhile"
    assert game.rounds.count() == 1


@pytest.mark.parametrize(
    ("who", "status", "code"),
    [
        ("nobody", 401, "not_authenticated"),
        ("revoked", 401, "authentication_failed"),
        ("plain user", 403, "permission_denied"),
        ("director elsewhere", 403, "permission_denied"),
        ("link of another game", 403, "permission_denied"),
    ],
)
def test_who_may_record(client, game, who, status, code):
    from api.services import api_token_create, api_token_revoke
    from tests.factories import GameFactory

    if who == "nobody":
        auth = None
    elif who == "revoked":
        user = UserFactory.create()
        game.match.matchday.competition.directors.add(user)
        row, plain = api_token_create(user=user, name="old")
        api_token_revoke(token_id=row.pk, user=user)
        auth = bearer(plain)
    elif who == "plain user":
        auth = bearer(api_token_create(user=UserFactory.create(), name="x")[1])
    elif who == "director elsewhere":
        auth = bearer(director_token(CompetitionFactory.create()))
    else:
        auth = table(link_of(GameFactory.create()))
    response = post(client, record_path(game), kap(game), auth=auth)
    assert response.status_code == status
    assert response.json()["code"] == code and response.json()["message"]
    assert not game.rounds.exists()


@pytest.mark.parametrize(
    ("operation", "body"),
    [
        ("rounds/1/correct/", {"result": "kap", "side": "a", "version": "x"}),
        ("totals/", {"total_a": 20, "total_b": 4, "version": "x"}),
        ("close/", {"version": "x"}),
        ("reopen/", {"version": "x"}),
        ("seats/", {"seat_1": 1, "seat_2": 2, "version": "x"}),
        ("dispute/resolve/", {"resolution": "accepted", "version": "x"}),
    ],
)
def test_a_table_link_may_only_do_what_its_phone_page_does(client, game, operation, body):
    response = post(client, f"games/{game.pk}/{operation}", body, auth=table(link_of(game)))
    assert response.status_code == 403 and response.json()["code"] == "permission_denied"


@pytest.mark.parametrize(
    ("key", "code"),
    [(None, "idempotency_key_missing"), ("not-a-uuid", "idempotency_key_invalid")],
)
def test_a_write_without_a_valid_key_is_400_in_the_readers_language(client, game, key, code):
    token = director_token(game.match.matchday.competition)
    english = post(client, record_path(game), kap(game), auth=bearer(token), key=key)
    dutch = post(client, record_path(game), kap(game), auth=bearer(token), key=key, language="nl")
    assert english.status_code == dutch.status_code == 400
    assert english.json()["code"] == dutch.json()["code"] == code
    assert "Idempotency-Key" in english.json()["message"]
    assert english.json()["message"] != dutch.json()["message"]
    assert not game.rounds.exists()


def test_a_body_that_is_not_a_json_object_is_refused_in_the_error_shape(client, game):
    token = director_token(game.match.matchday.competition)
    headers = {"Authorization": bearer(token), "Idempotency-Key": str(uuid.uuid4())}
    path = f"/api/v1/{record_path(game)}"
    broken = client.post(path, "{not json", content_type="application/json", headers=headers)
    assert broken.status_code == 400 and broken.json()["code"] == "parse_error"
    listed = client.post(path, "[1, 2]", content_type="application/json", headers=headers)
    assert listed.status_code == 400 and listed.json()["fields"]
    text = client.post(path, "number=1", content_type="text/plain", headers=headers)
    assert text.status_code == 415 and text.json()["code"] == "unsupported_media_type"
    assert not game.rounds.exists()
