"""The director's sheet's queue endpoint (`/c/<slug>/game/<id>/sheet/round/`, issue 18): each
queued round answered in JSON, stored once, refused with the reason, and only for the
competition's directors."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoring.models import Game
from scoring.services.table import game_links_ensure, table_round_record
from tests.factories import CompetitionFactory, GameFactory, UserFactory
from tests.seen import game_token_now

pytestmark = pytest.mark.django_db


@pytest.fixture
def game() -> Game:
    return GameFactory.create(competition=CompetitionFactory.create(slug="club-evening"))


def director_of(game: Game) -> Any:
    user = UserFactory.create()
    game.match.matchday.competition.directors.add(user)
    return user


def url(game: Game) -> str:
    slug = game.match.matchday.competition.slug
    return reverse("sheet_round_send", kwargs={"slug": slug, "game_id": game.pk})


def queued(game: Game, number: int, **extra: Any) -> dict[str, Any]:
    return {
        "key": str(uuid.uuid4()),
        "seen": game_token_now(game_id=game.pk),
        "number": number,
        "result": "gewone_winst",
        "side": "a",
        **extra,
    }


def test_a_queued_round_is_stored_once_and_answered_with_the_next_token(client, game):
    client.force_login(director_of(game))
    data = queued(game, 1)
    answer = client.post(url(game), data)
    assert answer.status_code == 200
    assert answer.json() == {
        "stored": True,
        "already": False,
        "number": 1,
        "token": game_token_now(game_id=game.pk),
        "rounds": 1,
    }
    again = client.post(url(game), data)  # the answer was lost: sent again
    assert again.status_code == 200 and again.json()["already"] is True
    assert game.rounds.count() == 1
    assert str(game.rounds.get().client_key) == data["key"]


def test_html_asked_brings_the_fresh_sheet(client, game):
    client.force_login(director_of(game))
    answer = client.post(url(game), {**queued(game, 1), "html": "1"}).json()
    assert answer["html"].strip().startswith('<div id="sheet"')
    assert f'data-seen="{answer["token"]}"' in answer["html"]


@pytest.mark.parametrize(
    ("who", "status"),
    [
        pytest.param("anonymous", 302, id="anonymous: the login page"),
        pytest.param("other director", 403, id="a director of another competition"),
        pytest.param("plain user", 403, id="a user who directs nothing"),
    ],
)
def test_only_the_games_directors_can_send(client, game, who, status):
    if who == "other director":
        other = CompetitionFactory.create()
        user = UserFactory.create()
        other.directors.add(user)
        client.force_login(user)
    elif who == "plain user":
        client.force_login(UserFactory.create())
    response = client.post(url(game), queued(game, 1))
    assert response.status_code == status
    assert game.rounds.count() == 0


def test_a_table_phones_round_in_between_is_409_changed_meanwhile(client, game):
    client.force_login(director_of(game))
    data = queued(game, 1)
    link = game_links_ensure(game_ids=[game.pk])[game.pk]["b"]
    table_round_record(
        token=link.token,
        expected_number=1,
        result="gewone_winst",
        side="b",
        client_key=uuid.uuid4(),
        seen=data["seen"],
    )
    with translation.override("nl"):
        response = client.post(url(game), data, HTTP_ACCEPT_LANGUAGE="nl")
    assert response.status_code == 409
    answer = response.json()
    assert answer["refused"] == "game_changed_meanwhile"
    assert answer["token"] == game_token_now(game_id=game.pk) and answer["rounds"] == 1
    assert answer["message"] and "changed by someone else" not in answer["message"]
    assert [rnd.side for rnd in game.rounds.all()] == ["b"]


def test_a_rule_refusal_is_422_with_the_message(client, game):
    client.force_login(director_of(game))
    response = client.post(url(game), queued(game, 1, result="kap", tricks_a=3, tricks_b=2))
    assert response.status_code == 422
    answer = response.json()
    assert answer["refused"] and answer["message"]
    assert game.rounds.count() == 0


@pytest.mark.parametrize("missing", ["key", "number", "result"])
def test_a_form_not_from_the_sheet_is_422_form_invalid(client, game, missing):
    client.force_login(director_of(game))
    data = queued(game, 1)
    del data[missing]
    response = client.post(url(game), data)
    assert response.status_code == 422
    assert response.json()["refused"] == "form_invalid" and response.json()["message"]
    assert game.rounds.count() == 0


def test_get_is_not_allowed(client: Client, game):
    client.force_login(director_of(game))
    assert client.get(url(game)).status_code == 405
