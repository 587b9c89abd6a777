"""Export of the competition-format keys: every one round-trips, defaults stay out."""

from __future__ import annotations

import datetime
import json

import pytest

from interchange.exporter import competition_export
from interchange.importer import competition_import
from scoring.services.schedule import schedule_round_robin_create
from tests.factories import CompetitionFactory, TeamEntryFactory
from tests.interchange.documents import SAMPLE, STCB, document, load, run, run_import
from tests.interchange.test_import_formats import clubs_document, pairs_document
from tournaments.models import Club, Competition, Squad

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("make", [pairs_document, clubs_document], ids=["pairs", "clubs"])
def test_every_new_key_round_trips(tmp_path, make):
    original = make()
    run_import(tmp_path, original)

    exported = json.loads(run("export_competition", original["competition"]["slug"]))

    assert exported == original


def test_a_reimport_of_the_export_gives_the_same_file():
    first = competition_export(competition=competition_import(data=clubs_document()))
    first["competition"]["slug"] = "copy"
    second = competition_export(competition=competition_import(data=first))
    assert second == first


@pytest.mark.parametrize("path", [SAMPLE, STCB], ids=["sample", "stcb"])
def test_the_data_files_get_no_new_keys(tmp_path, path):
    original = load(path)
    run_import(tmp_path, original)
    exported = json.loads(run("export_competition", original["competition"]["slug"]))
    assert set(exported) == set(original)
    assert set(exported["competition"]) == set(original["competition"])


def test_objects_are_exported_with_their_non_default_members_only():
    data = document()
    data["competition"]["bye"] = {"score": [15, 5]}
    data["competition"]["club_matches"] = {"koppels": 4}  # min_koppels, sittings follow: 4
    competition = competition_import(data=data)
    assert (competition.min_koppels, competition.sittings) == (4, 4)

    exported = competition_export(competition=competition)["competition"]

    assert exported["bye"] == {"score": [15, 5]}
    assert exported["club_matches"] == {"koppels": 4}
    assert "schedule" not in exported and "forfeit_score" not in exported


def test_a_round_robin_made_in_the_app_exports_its_tables_and_bye_reasons():
    competition = CompetitionFactory.create(schedule_format="round_robin", season="2026-2027")
    for _ in range(3):
        TeamEntryFactory.create(competition=competition)
    schedule_round_robin_create(competition_id=competition.pk, start=datetime.date(2026, 10, 2))

    exported = competition_export(competition=competition)

    assert exported["competition"]["schedule"] == "round_robin"
    first = exported["matchdays"][0]
    assert first["byes"] == [
        {"entry": first["byes"][0]["entry"], "reason": {"code": "round_robin"}}
    ]
    assert first["matches"][0]["table"] == 1
    exported["competition"]["slug"] = "copy"
    copy = competition_import(data=exported)
    assert competition_export(competition=copy) == exported
    assert Competition.objects.count() == 2


def test_squads_of_other_seasons_stay_out():
    competition = competition_import(data=clubs_document())
    kampoe = Squad.objects.get(club__key="kampoe").club
    Squad.objects.create(club=kampoe, season="2027-2028")
    exported = competition_export(competition=competition)
    assert [squad["season"] for squad in exported["squads"]] == ["2026-2027"] * 2


def test_a_pairs_competition_exports_no_squads():
    pairs = competition_import(data=document())
    Squad.objects.create(club=Club.objects.get(key="kampoe"), season=pairs.season)
    assert "squads" not in competition_export(competition=pairs)
