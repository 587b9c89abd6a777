"""`manage.py standings SLUG --format table|csv|json [--refresh]`: the stored standings."""

from __future__ import annotations

import csv
import io
import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from interchange.importer import competition_import
from scoring.models import Standing
from tests.paths import STCB

pytestmark = pytest.mark.django_db

COLUMNS = [
    "rank", "entry", "played", "won", "drawn", "lost", "points", "points_for",
    "points_against", "saldo", "kaps", "baunies",
]  # fmt: skip


@pytest.fixture
def stcb():
    return competition_import(data=json.loads(STCB.read_text(encoding="utf-8")))


def standings(*args: str) -> str:
    out = StringIO()
    call_command("standings", *args, stdout=out)
    return out.getvalue()


def test_json_has_exactly_the_columns_and_entry_keys(stcb):
    rows = json.loads(standings("stcb-2019", "--format", "json"))

    assert [list(row) for row in rows] == [COLUMNS] * 8
    assert rows[0] == {
        "rank": 1, "entry": "formula", "played": 1, "won": 1, "drawn": 0, "lost": 0,
        "points": 2, "points_for": 91, "points_against": 49, "saldo": 42, "kaps": 0,
        "baunies": 0,
    }  # fmt: skip
    assert [row["entry"] for row in rows] == [
        "formula", "ekta", "pintoboys", "toppers", "kolibrie", "shaktie", "t-hofje",
        "openbaar-groen",
    ]  # fmt: skip
    assert [row["points"] for row in rows] == [2, 2, 2, 2, 0, 0, 0, 0]
    assert [row["saldo"] for row in rows] == [42, 25, 13, 7, -7, -13, -25, -42]


def test_csv_has_a_header_and_one_row_per_entry(stcb):
    rows = list(csv.reader(io.StringIO(standings("stcb-2019", "--format", "csv"))))

    assert rows[0] == COLUMNS
    assert rows[1] == ["1", "formula", "1", "1", "0", "0", "2", "91", "49", "42", "0", "0"]
    assert len(rows) == 9


def test_table_is_aligned_with_entry_names(stcb):
    lines = standings("stcb-2019").splitlines()

    assert lines[0].split() == [
        "rank", "entry", "played", "won", "drawn", "lost", "points", "points", "for", "points",
        "against", "saldo", "kaps", "baunies",
    ]  # fmt: skip
    assert "Openbaar Groen" in lines[8] and "'t Hofje" in lines[7]
    assert len({len(line) for line in lines[:9]}) == 1  # every row as wide as the header
    assert lines[9].startswith("as of ")


def test_prints_the_stored_rows_and_refresh_rebuilds_them(stcb):
    Standing.objects.filter(competition=stcb, entry__club__key="formula").update(points=7)
    assert json.loads(standings("stcb-2019", "--format", "json"))[0]["points"] == 7

    rows = json.loads(standings("stcb-2019", "--format", "json", "--refresh"))
    assert rows[0]["points"] == 2

    Standing.objects.all().delete()
    assert json.loads(standings("stcb-2019", "--format", "json")) == []
    assert len(json.loads(standings("stcb-2019", "--format", "json", "--refresh"))) == 8


def test_unknown_slug():
    with pytest.raises(CommandError, match="No competition with slug “nope”"):
        standings("nope")


def test_unknown_format(stcb):
    with pytest.raises(CommandError):
        standings("stcb-2019", "--format", "xml")
