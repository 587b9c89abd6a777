"""Void and replay through the interchange format (issue 22): a voided match with its
reason, a voided game and a replay's link to its voided match are imported through the
services, counted nowhere, exported as they were and imported again unchanged; a replay
naming no match, or a match not voided, is refused where the file says it."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from interchange.errors import InterchangeError
from interchange.exporter import competition_export
from interchange.importer import competition_import
from scoring.models import Game, Standing
from tests.interchange.documents import document
from tournaments.models import Match

pytestmark = pytest.mark.django_db

VOIDED = {"at": "2026-10-02T21:15:00+00:00", "reason": "hall closed"}


def replayed(**replay: Any) -> dict[str, Any]:
    """Noord – zuid voided on matchday 1 and replayed on matchday 2 (zuid wins there)."""
    doc = document(match={"voided": VOIDED})
    again = copy.deepcopy(doc["matchdays"][0]["matches"][0])
    del again["voided"]
    again["games"][0]["rounds"] = [{"result": "kap", "side": "b"} for _ in range(4)]
    again["replay_of"] = {"matchday": 1, "match": "noord-zuid"}
    again.update(replay)
    doc["matchdays"].append({"number": 2, "date": "2026-10-09", "matches": [again]})
    return doc


def test_a_voided_match_and_its_replay_round_trip_and_only_the_replay_counts():
    data = replayed()

    competition = competition_import(data=data)

    original = Match.objects.get(matchday__number=1)
    assert original.void_reason == "hall closed" and original.replayed_by is not None
    assert original.replayed_by.matchday.number == 2
    won = dict(Standing.objects.values_list("entry__team__key", "won"))
    assert won == {"noord": 0, "zuid": 1}
    assert competition_export(competition=competition) == data
    assert competition_import(data=data, replace=True).pk == competition.pk  # unchanged


def test_a_voided_game_round_trips_and_its_match_does_not_count():
    data = document(game={"voided": VOIDED})

    competition = competition_import(data=data)

    assert Game.objects.get().void_reason == "hall closed"
    assert set(Standing.objects.values_list("played", flat=True)) == {0}
    assert competition_export(competition=competition) == data


@pytest.mark.parametrize(
    ("data", "place", "words"),
    [
        (
            replayed(replay_of={"matchday": 1, "match": "zuid-noord"}),
            "matchday 2, match noord-zuid, replay_of",
            "no match",
        ),
        (
            document(match={"replay_of": {"matchday": 1, "match": "noord-zuid"}}),
            "matchday 1, match noord-zuid, replay_of",
            "Only a voided match can be replayed",
        ),
        (
            document(match={"voided": {"at": "2026-10-02T21:15:00+00:00", "reason": " "}}),
            "voided",
            "reason",
        ),
    ],
)
def test_a_void_or_replay_the_services_refuse_is_named_where_the_file_says_it(data, place, words):
    with pytest.raises(InterchangeError) as caught:
        competition_import(data=data)
    assert place in caught.value.place and words in str(caught.value)
    assert not Match.objects.exists()
