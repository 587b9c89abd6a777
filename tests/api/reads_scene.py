"""The scene of the API's read tests (tests/api/test_reads*.py): the club evening sample
(`data/club-evening-sample.json`: every result kind, callers and tricks) as the importer
stores it, and a fourth matchday with a bye, a forfeit, reported totals and an open game.
"""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

from django.test import Client

from interchange.importer import competition_import
from tests.builders import pairs_game
from tournaments.models import Bye, Competition, Match, Matchday

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "club-evening-sample.json"
API = "/api/v1/"
SLUG = "club-evening-sample"


def get(client: Client, path: str, **headers: str) -> Any:
    """GET an API path (relative to /api/v1/); the response, its JSON in `.data_json`."""
    response = client.get(API + path, headers=headers)
    response.data_json = response.json() if response.content else None  # type: ignore[attr-defined]
    return response


def ok(client: Client, path: str) -> Any:
    """The JSON of a 200 answer to GET `path` (relative to /api/v1/)."""
    response = get(client, path)
    assert response.status_code == 200, (path, response.status_code, response.content[:300])
    return response.data_json


def sample_scene() -> Competition:
    """The club evening sample imported, and matchday 4: t01 has a bye, t02–t07 forfeited
    by the away side, t03–t06 known by its reported totals 31–25, t04–t05 not started."""
    competition = competition_import(data=json.loads(SAMPLE.read_text(encoding="utf-8")))
    entries = {entry.key: entry for entry in competition.entries.select_related("team")}
    day = Matchday.objects.create(
        competition=competition, number=4, date=datetime.date(2026, 10, 23)
    )
    Bye.objects.create(matchday=day, entry=entries["t01"])
    Match.objects.create(
        matchday=day,
        home=entries["t02"],
        away=entries["t07"],
        table=1,
        forfeit="away",
        forfeit_reason="did not come",
    )
    Match.objects.create(
        matchday=day, home=entries["t03"], away=entries["t06"], total_home=31, total_away=25
    )
    pairs_game(day, entries["t04"], entries["t05"], table=3)
    return competition
