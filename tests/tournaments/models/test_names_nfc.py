"""Names are stored in Unicode NFC and found however they were typed (issue 6).

"Kolibrië" can be typed as one code point for the "ë" (NFC, most keyboards) or as "e" plus a
combining diaeresis (NFD: macOS file names, some phones, text pasted from PDFs). Both must
land in the database as NFC and both must find it in the admin's search.
"""

from __future__ import annotations

import json
import unicodedata

import pytest
from django.urls import reverse

from tests.factories import ClubFactory, CompetitionFactory, PlayerFactory, TeamFactory
from tests.interchange.documents import document, run_import
from tournaments.models import Club, Competition, Player, Team

pytestmark = pytest.mark.django_db

NFC = "Kolibrië"
NFD = unicodedata.normalize("NFD", NFC)


def test_the_two_spellings_differ():
    assert NFC != NFD
    assert len(NFD) == len(NFC) + 1


def test_import_stores_every_name_in_nfc(tmp_path):
    data = document()
    data["competition"]["name"] = f"{NFD} cup"
    data["clubs"][0]["name"] = NFD
    data["players"][0]["name"] = f"Anna {NFD}"
    data["teams"][0]["name"] = f"De {NFD}s"

    run_import(tmp_path, data)

    assert Competition.objects.get(slug="test-evening").name == f"{NFC} cup"
    assert Club.objects.get(key="kampoe").name == NFC
    assert Player.objects.get(key="anna").name == f"Anna {NFC}"
    assert Team.objects.get(key="noord").name == f"De {NFC}s"
    assert Player.objects.filter(name__contains=NFC).count() == 1


def test_import_counts_the_length_of_a_name_in_nfc(tmp_path):
    # 60 × "ë" is 120 characters in NFD, 60 in NFC: within the 120 of a club's name.
    name = unicodedata.normalize("NFD", "ë" * 60) + "x"
    data = document()
    data["clubs"][0]["name"] = name

    run_import(tmp_path, data)

    assert Club.objects.get(key="kampoe").name == "ë" * 60 + "x"


def test_an_exported_nfd_file_round_trips_as_nfc(tmp_path):
    data = document()
    data["players"][1]["name"] = NFD
    path = tmp_path / "nfd.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")

    run_import(tmp_path, path.read_text(encoding="utf-8"))

    assert Player.objects.get(key="bert").name == NFC


def _named_objects():
    player = PlayerFactory.create(name=f"Anna {NFC}")
    return {
        "club": ClubFactory.create(name=f"{NFC} Paramaribo"),
        "player": player,
        "team": TeamFactory.create(name="", player_1=player),
        "competition": CompetitionFactory.create(name=f"{NFC} cup"),
    }


@pytest.mark.parametrize("term", [NFC, NFD], ids=["nfc", "nfd"])
@pytest.mark.parametrize("model", ["club", "player", "team", "competition"])
def test_admin_search_finds_a_name_however_it_was_typed(admin_client, model, term):
    target = _named_objects()[model]

    response = admin_client.get(reverse(f"admin:tournaments_{model}_changelist"), {"q": term})

    assert response.status_code == 200
    assert list(response.context["cl"].queryset) == [target]


@pytest.mark.parametrize("term", [NFC, NFD], ids=["nfc", "nfd"])
def test_admin_autocomplete_finds_a_name_however_it_was_typed(admin_client, term):
    player = _named_objects()["player"]

    response = admin_client.get(
        reverse("admin:autocomplete"),
        {
            "term": term,
            "app_label": "tournaments",
            "model_name": "team",
            "field_name": "player_1",
        },
    )

    assert response.status_code == 200
    assert [row["id"] for row in response.json()["results"]] == [str(player.pk)]
