"""The API's reads give what its writes need (issue 21): a client that knows only what a
GET answered (a game's and a match's `version`, a round's `id` and `version`, the players'
ids) writes without provoking a 409 to learn the version, and every write moves both the
read's version and its ETag."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.api.writes_helpers import API, bearer, director_token, post
from tests.factories import CompetitionFactory, GameFactory, MatchdayFactory, MatchFactory
from tournaments.models import Match

pytestmark = pytest.mark.django_db


class Reader:
    """GETs one resource and remembers its last ETag, to check that each write moved it."""

    def __init__(self, client: Client, path: str) -> None:
        self.client, self.path, self.etag = client, API + path, ""

    def read(self) -> Any:
        response = self.client.get(self.path)
        assert response.status_code == 200, response.content[:300]
        assert response["ETag"] != self.etag, "a write moved the version, not the ETag"
        self.etag = response["ETag"]
        return response.json()


def test_a_game_is_seated_and_its_rounds_written_from_what_its_read_gives(client: Client) -> None:
    game = GameFactory.create(
        competition=CompetitionFactory.create(), seat_1=None, seat_2=None, seat_3=None, seat_4=None
    )
    auth = bearer(director_token(game.match.matchday.competition))
    reader = Reader(client, f"games/{game.pk}/")

    read = reader.read()
    assert read["seats"] is None and read["first_caller_player"] is None
    a_first, a_second = (p["id"] for p in read["koppel_a"]["players"])
    b_first = read["koppel_b"]["players"][0]["id"]
    seats = {"seat_1": a_first, "seat_2": b_first, "first_caller": a_first}
    seated = post(
        client, f"games/{game.pk}/seats/", {**seats, "version": read["seats_version"]}, auth=auth
    )
    assert seated.status_code == 200, seated.json()

    read = reader.read()
    assert [seat["id"] for seat in read["seats"]] == seated.json()["seats"]
    assert read["seats"][2]["id"] == a_second
    assert (read["first_caller"], read["first_caller_player"]) == (1, a_first)
    assert seated.json()["first_caller_player"] == a_first
    assert (read["version"], read["seats_version"]) == (
        seated.json()["version"],
        seated.json()["seats_version"],
    )
    caller = read["first_caller_player"]
    kap = {"number": len(read["rounds"]) + 1, "result": "kap", "side": "a", "caller": caller}
    recorded = post(
        client,
        f"games/{game.pk}/rounds/record/",
        {**kap, "version": read["version"]},
        auth=auth,
    )
    assert recorded.status_code == 201, recorded.json()

    before = read["version"]
    read = reader.read()
    assert read["version"] != before and read["version"] == recorded.json()["version"]
    (first,) = read["rounds"]
    assert first["id"] == recorded.json()["round"]["id"]
    assert first["version"] == recorded.json()["round"]["version"]
    assert first["caller"]["id"] == caller
    fix = {"result": "gewone_winst", "side": "b", "caller": first["caller"]["id"]}
    corrected = post(
        client,
        f"games/{game.pk}/rounds/{first['id']}/correct/",
        {**fix, "version": first["version"]},
        auth=auth,
    )
    assert corrected.status_code == 200, corrected.json()

    read = reader.read()
    assert read["version"] == corrected.json()["version"]
    assert read["rounds"][0]["side"] == "b" and read["score"]["a"] == 0 < read["score"]["b"]
    assert read["score"] == {"a": corrected.json()["score_a"], "b": corrected.json()["score_b"]}
    assert read["rounds"][0]["version"] == corrected.json()["rounds"][0]["version"]
    redeal = {"number": len(read["rounds"]) + 1, "result": "redeal", "caller": None}
    dealt = post(
        client,
        f"games/{game.pk}/rounds/record/",
        {**redeal, "version": read["version"]},
        auth=auth,
    )
    assert dealt.status_code == 201, dealt.json()
    assert dealt.json()["round"]["side"] is None  # as the read shows a redeal

    read = reader.read()
    assert read["rounds"][-1]["side"] is None
    assert [r["side"] for r in read["rounds"]] == [r["side"] for r in dealt.json()["rounds"]]
    undo = {"round": read["rounds"][-1]["id"], "version": read["version"]}
    undone = post(client, f"games/{game.pk}/rounds/undo/", undo, auth=auth)
    assert undone.status_code == 200, undone.json()

    read = reader.read()
    assert [r["id"] for r in read["rounds"]] == [first["id"]]
    assert read["version"] == undone.json()["version"]


def test_a_match_is_reported_and_forfeited_from_what_its_read_gives(client: Client) -> None:
    competition = CompetitionFactory.create()
    match = MatchFactory.create(matchday=MatchdayFactory.create(competition=competition))
    auth = bearer(director_token(competition))
    reader = Reader(client, f"matches/{match.pk}/")

    read = reader.read()
    totals = {"total_home": 20, "total_away": 12, "version": read["version"]}
    reported = post(client, f"matches/{match.pk}/totals/", totals, auth=auth)
    assert reported.status_code == 200, reported.json()

    before = read["version"]
    read = reader.read()
    assert read["version"] != before and read["version"] == reported.json()["version"]
    assert read["reported"] is True and read["score"] == {"home": 20, "away": 12}
    forfeit = {"forfeit": "away", "reason": "no show", "version": read["version"]}
    forfeited = post(client, f"matches/{match.pk}/forfeit/", forfeit, auth=auth)
    assert forfeited.status_code == 200, forfeited.json()

    read = reader.read()
    assert read["version"] == forfeited.json()["version"] and read["forfeit"] == "away"
    lift = {"forfeit": "", "version": read["version"]}
    lifted = post(client, f"matches/{match.pk}/forfeit/", lift, auth=auth)
    assert lifted.status_code == 200, lifted.json()

    read = reader.read()
    assert read["version"] == lifted.json()["version"] and read["forfeit"] is None
    assert Match.objects.get(pk=match.pk).forfeit == ""


def test_a_read_version_that_went_stale_is_409(client: Client) -> None:
    """The read's version is the one the writes check: another write since makes it stale."""
    game = GameFactory.create(competition=CompetitionFactory.create())
    auth = bearer(director_token(game.match.matchday.competition))
    read = client.get(f"{API}games/{game.pk}/").json()
    body = {
        "number": 1,
        "result": "kap",
        "side": "a",
        "caller": read["seats"][0]["id"],
        "version": read["version"],
    }
    assert post(client, f"games/{game.pk}/rounds/record/", body, auth=auth).status_code == 201
    close = post(client, f"games/{game.pk}/close/", {"version": read["version"]}, auth=auth)
    assert close.status_code == 409 and close.json()["code"] == "game_changed_meanwhile"
