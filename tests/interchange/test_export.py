"""export_competition: the interchange format back, equal to the imported file."""

from __future__ import annotations

import json

import pytest
from django.core.management.base import CommandError

from interchange.exporter import competition_export
from interchange.importer import competition_import
from tests.builders import record
from tests.factories import GameFactory
from tests.interchange.documents import SAMPLE, STCB, document, load, run, run_import
from tournaments.models import Competition

pytestmark = pytest.mark.django_db


@pytest.mark.heavy
@pytest.mark.parametrize("path", [SAMPLE, STCB], ids=["sample", "stcb"])
def test_export_of_an_import_is_the_file(tmp_path, path):
    original = load(path)
    run_import(tmp_path, original)

    exported = json.loads(run("export_competition", original["competition"]["slug"]))

    assert exported == original


def test_export_to_a_file_is_indented_and_keeps_non_ascii(tmp_path):
    run_import(tmp_path, load(STCB))
    out = tmp_path / "out.json"

    run("export_competition", "stcb-2019", "-o", str(out))

    text = out.read_text(encoding="utf-8")
    assert text.startswith('{\n "format": "troefclub-competition/1",')
    assert json.loads(text) == load(STCB)


def test_extra_rule_fields_round_trip_only_when_set():
    data = document(
        rules={"callers_required": True, "close_by_director_allowed": True,
               "early_kap_penalty": 3},
        rounds=[{"result": "kap", "side": "a", "caller": "anna"}],
        game={"closed": True},
    )  # fmt: skip
    data["teams"][0]["name"] = "Noorderlicht"
    data["matchdays"][0]["date"] = None
    exported = competition_export(competition=competition_import(data=data))
    assert exported["competition"]["rules"]["early_kap_penalty"] == 3
    assert exported == data

    plain = document()
    plain["competition"]["slug"] = "plain"
    rules = competition_export(competition=competition_import(data=plain))["competition"]["rules"]
    assert set(rules) == {
        "target_score", "fixed_rounds", "kap_partner_allowed", "stinkende_bonus",
        "redeal_allowed",
    }  # fmt: skip


def test_export_of_a_competition_made_in_the_app_imports_again():
    game = GameFactory.create()
    record(
        game,
        result="kap",
        side="a",
        caller_id=game.seat_1_id,
    )
    competition = game.match.matchday.competition
    exported = competition_export(competition=competition)

    exported["competition"]["slug"] = "copy"
    copy = competition_import(data=exported)
    assert competition_export(competition=copy) == exported
    assert Competition.objects.count() == 2


def test_unknown_slug():
    with pytest.raises(CommandError, match="No competition with slug “nope”"):
        run("export_competition", "nope")
