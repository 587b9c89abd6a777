"""One rule, one message, one history row, whatever the door (issue 21).

The same rounds recorded (and the last one undone and recorded again) through the
director's score sheet, through a koppel's table link page and through the API end in the
same rounds, the same history rows (count and types) and the same standings. And every
API write that changes nothing writes nothing: no history row, no refresh queued.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Game, Round, Standing
from scoring.services.games import game_seats_token
from scoring.services.rounds import round_record
from scoring.services.standings import standings_rebuild
from tests.api.writes_helpers import bearer, director_token, link_of, post, table
from tests.builders import pairs_competition
from tests.factories import (
    CompetitionFactory,
    GameFactory,
    MatchdayFactory,
    MatchFactory,
    league_staff,
)
from tests.pages import game_url
from tests.seen import game_token_now, match_token_now
from tests.test_history_doors import history_rows

pytestmark = pytest.mark.django_db

# Koppel A wins 20–4 at round 6: kap, gewone winst (B), failed baunie (A: 2 to B), kaps.
ROUNDS = [
    ("kap", "a"),
    ("gewone_winst", "b"),
    ("baunie_mislukt", "a"),
    ("kap", "a"),
    ("kap", "a"),
    ("kap", "a"),
]

Door = Callable[[Client, Game], tuple[Callable[[int, str, str], None], Callable[[], None]]]


def last_round(game: Game) -> Round:
    found = game.rounds.order_by("number").last()
    assert found is not None
    return found


def sheet_door(client: Client, game: Game) -> Any:
    client.force_login(league_staff())

    def record(number: int, result: str, side: str) -> None:
        data = {"number": number, "result": result, "side": side}
        response = client.post(game_url("game_sheet", game), data)
        assert response.status_code == 302, response.status_code

    def undo() -> None:
        data = {"round": last_round(game).pk, "seen": game_token_now(game_id=game.pk)}
        response = client.post(game_url("round_undo", game), {**data, "confirmed": "on"})
        assert response.status_code == 302, response.status_code

    return record, undo


def table_door(client: Client, game: Game) -> Any:
    url = reverse("table_sheet", kwargs={"token": link_of(game).token})

    def record(number: int, result: str, side: str) -> None:
        data = {"action": "round", "number": number, "result": result, "side": side}
        data |= {"key": str(uuid.uuid4()), "seen": game_token_now(game_id=game.pk)}
        assert client.post(url, data).status_code == 302

    def undo() -> None:
        data = {"round": last_round(game).pk, "seen": game_token_now(game_id=game.pk)}
        assert client.post(url, {"action": "undo", **data}).status_code == 302

    return record, undo


def api_door(client: Client, game: Game) -> Any:
    token = bearer(director_token(game.match.matchday.competition))

    def record(number: int, result: str, side: str) -> None:
        body = {"number": number, "result": result, "side": side}
        body["version"] = game_token_now(game_id=game.pk)
        response = post(client, f"games/{game.pk}/rounds/record/", body, auth=token)
        assert response.status_code == 201, response.json()

    def undo() -> None:
        body = {"round": last_round(game).pk, "version": game_token_now(game_id=game.pk)}
        response = post(client, f"games/{game.pk}/rounds/undo/", body, auth=token)
        assert response.status_code == 200, response.json()

    return record, undo


def api_table_door(client: Client, game: Game) -> Any:
    auth = table(link_of(game))

    def record(number: int, result: str, side: str) -> None:
        body = {"number": number, "result": result, "side": side}
        body["version"] = game_token_now(game_id=game.pk)
        response = post(client, f"games/{game.pk}/rounds/record/", body, auth=auth)
        assert response.status_code == 201, response.json()

    def undo() -> None:
        body = {"round": last_round(game).pk, "version": game_token_now(game_id=game.pk)}
        response = post(client, f"games/{game.pk}/rounds/undo/", body, auth=auth)
        assert response.status_code == 200, response.json()

    return record, undo


DOORS = {
    "score sheet": sheet_door,
    "table link page": table_door,
    "API, director": api_door,
    "API, table link": api_table_door,
}


def played_through(door: Door, client: Client) -> dict[str, Any]:
    """`ROUNDS` through `door` on a new game of its own competition, the last one undone
    and recorded again; what that left: rounds, history, standings."""
    game = GameFactory.create(competition=CompetitionFactory.create())
    record, undo = door(client, game)
    for number, (result, side) in enumerate(ROUNDS, start=1):
        record(number, result, side)
    undo()
    record(len(ROUNDS), *ROUNDS[-1])
    competition_id = game.match.matchday.competition_id
    standings_rebuild(competition_id=competition_id)
    game.refresh_from_db()
    return {
        "game": (game.status, game.score_a, game.score_b, game.kaps_a, game.baunies_a),
        "rounds": list(
            game.rounds.order_by("number").values_list(
                "number", "result", "side", "caller_id", "tricks_a", "points_a", "points_b"
            )
        ),
        "round history": list(
            Round.history.filter(game_id=game.pk)
            .order_by("history_id")
            .values_list("history_type", "number", "result")
        ),
        "game history": list(
            Game.history.filter(id=game.pk).order_by("history_id").values_list("status", flat=True)
        ),
        "standings": list(
            Standing.objects.filter(competition_id=competition_id)
            .order_by("rank", "entry__team__name")
            .values_list(
                "rank", "played", "won", "drawn", "lost", "points", "points_for", "saldo", "kaps"
            )
        ),
    }


def test_every_door_leaves_the_same_rounds_history_and_standings(client):
    results = {name: played_through(door, client) for name, door in DOORS.items()}
    sheet = results.pop("score sheet")
    assert sheet["game"] == ("finished", 20, 4, 4, 0)
    assert [row[0] for row in sheet["round history"]] == ["+"] * 6 + ["-", "+"]
    assert len(sheet["standings"]) == 2
    for name, result in results.items():
        assert result == sheet, name


# ---------------------------------------------------------------- no change, no write


def closed_game() -> tuple[Game, str]:
    game = GameFactory.create(competition=CompetitionFactory.create(close_by_director_allowed=True))
    round_record(game_id=game.pk, expected_number=1, result="gewone_winst", side="a")
    return game, director_token(game.match.matchday.competition)


def no_op_writes(client: Client) -> list[tuple[str, Callable[[], Any]]]:
    """(name, a write through the API that changes nothing), each its own scene, built now."""
    game = GameFactory.create()
    token = bearer(director_token(game.match.matchday.competition))
    rnd = round_record(
        game_id=game.pk, expected_number=1, result="kap", side="a", caller_id=game.seat_1_id
    )
    totals_game = GameFactory.create(competition=game.match.matchday.competition)
    totals = {"total_a": 20, "total_b": 4, "version": game_token_now(game_id=totals_game.pk)}
    post(client, f"games/{totals_game.pk}/totals/", totals, auth=token)
    match = MatchFactory.create(
        matchday=MatchdayFactory.create(competition=game.match.matchday.competition)
    )
    forfeit = {"forfeit": "", "reason": "", "version": match_token_now(match_id=match.pk)}
    seats = {
        "seat_1": game.seat_1_id,
        "seat_2": game.seat_2_id,
        "version": game_seats_token(game, [rnd]),
    }
    swiss = pairs_competition(4, schedule_format="swiss")
    swiss.directors.add(*game.match.matchday.competition.directors.all())
    post(client, f"competitions/{swiss.slug}/matchdays/pair/", {"number": 1}, auth=token)
    return [
        (
            "correct, as it is",
            lambda: post(
                client,
                f"games/{game.pk}/rounds/{rnd.pk}/correct/",
                {"result": "kap", "side": "a", "caller": game.seat_1_id, "version": "stale"},
                auth=token,
            ),
        ),
        (
            "the same totals",
            lambda: post(
                client, f"games/{totals_game.pk}/totals/", {**totals, "version": "x"}, auth=token
            ),
        ),
        (
            "reopen an open game",
            lambda: post(client, f"games/{game.pk}/reopen/", {"version": "x"}, auth=token),
        ),
        (
            "the seats as they are",
            lambda: post(client, f"games/{game.pk}/seats/", seats, auth=token),
        ),
        (
            "no forfeit lifted",
            lambda: post(client, f"matches/{match.pk}/forfeit/", forfeit, auth=token),
        ),
        (
            "a pairing sent again",
            lambda: post(
                client, f"competitions/{swiss.slug}/matchdays/pair/", {"number": 1}, auth=token
            ),
        ),
    ]


def test_an_api_write_that_changes_nothing_writes_nothing(
    client, django_capture_on_commit_callbacks
):
    writes = no_op_writes(client)
    for name, write in writes:
        rows = history_rows()
        with django_capture_on_commit_callbacks() as queued:
            response = write()
        assert response.status_code in (200, 409), (name, response.json())
        assert history_rows() == rows, name
        assert not queued, f"{name}: queued work (a standings refresh)"


def test_a_keyed_write_sent_again_writes_nothing(client, django_capture_on_commit_callbacks):
    game, token = closed_game()
    key = uuid.uuid4()
    body = {"version": game_token_now(game_id=game.pk)}
    first = post(client, f"games/{game.pk}/close/", body, auth=bearer(token), key=key)
    assert first.status_code == 200
    rows = history_rows()
    with django_capture_on_commit_callbacks() as queued:
        again = post(client, f"games/{game.pk}/close/", body, auth=bearer(token), key=key)
    assert again.status_code == 200 and again.json() == first.json()
    assert history_rows() == rows and not queued
