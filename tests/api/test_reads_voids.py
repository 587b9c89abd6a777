"""The API shows a voided match and game read-only (issue 22): `voided`, the reason, the
state "voided" and the replay's id; a voided game leaves its koppel's games."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client

from scoring.services.voids import game_void, match_replay_schedule, match_void
from tests.api.reads_scene import ok
from tests.builders import finished_game, pairs_game, pairs_matchday

pytestmark = pytest.mark.django_db


def test_a_voided_match_and_its_replay_read_through_the_api(client: Client) -> None:
    competition, matchday, entries = pairs_matchday(4)
    game = finished_game(pairs_game(matchday, entries[0], entries[1], table=1))
    match_void(match_id=game.match_id, reason="hall closed")
    replay = match_replay_schedule(match_id=game.match_id, date=datetime.date(2026, 11, 6))

    data = ok(client, f"matches/{game.match_id}/")

    assert (data["voided"], data["void_reason"], data["state"]) == (True, "hall closed", "voided")
    assert data["replayed_by"] == replay.pk
    fresh = ok(client, f"matches/{replay.pk}/")
    assert (fresh["voided"], fresh["void_reason"], fresh["replayed_by"]) == (False, "", None)
    assert competition.slug == data["competition"]


def test_a_voided_game_reads_voided_and_leaves_its_koppels_games(client: Client) -> None:
    _, matchday, entries = pairs_matchday(2)
    game = finished_game(pairs_game(matchday, entries[0], entries[1], table=1))
    koppel = entries[0].team
    assert koppel is not None
    key = koppel.key
    assert [row["id"] for row in ok(client, f"koppels/{key}/games/")["results"]] == [game.pk]

    game_void(game_id=game.pk, reason="wrong koppel")

    row = ok(client, f"matches/{game.match_id}/")["games"][0]
    assert (row["voided"], row["void_reason"]) == (True, "wrong koppel")
    assert ok(client, f"koppels/{key}/games/")["results"] == []
