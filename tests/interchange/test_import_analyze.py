"""Issue 20: an import leaves the planner statistics of every table it wrote up to date
(ANALYZE after its commit, `troefclub.analyze`), so the evening's pages are not planned
with a guess (the board at cost 642,744, 1.0–1.7 s of JIT for a 25 ms query)."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from interchange.errors import InterchangeError
from interchange.importer import IMPORT_WRITES, competition_import
from scoring.models import Round
from tests.paths import DATA
from troefclub.analyze import written_tables

pytestmark = pytest.mark.django_db

SAMPLE = DATA / "club-evening-sample.json"


def _analyzed(queries: list[dict[str, str]]) -> list[str]:
    return [
        query["sql"].removeprefix("ANALYZE ").strip('"`')
        for query in queries
        if query["sql"].startswith("ANALYZE ")
    ]


def test_an_import_analyzes_every_table_it_wrote_after_its_commit(
    django_capture_on_commit_callbacks,
) -> None:
    data = json.loads(SAMPLE.read_text(encoding="utf-8"))
    with (
        CaptureQueriesContext(connection) as before_commit,
        django_capture_on_commit_callbacks(execute=False) as callbacks,
    ):
        competition_import(data=data)
    assert _analyzed(before_commit.captured_queries) == []  # not inside the import's work

    with CaptureQueriesContext(connection) as after_commit:
        for callback in callbacks:
            callback()

    analyzed = _analyzed(after_commit.captured_queries)
    if connection.vendor == "postgresql":
        assert analyzed == written_tables(IMPORT_WRITES)
        assert Round._meta.db_table in analyzed
        assert Round.history.model._meta.db_table in analyzed
    else:
        assert analyzed == []  # SQLite keeps no statistics the app relies on


def test_a_refused_import_analyzes_nothing(django_capture_on_commit_callbacks) -> None:
    data = json.loads(SAMPLE.read_text(encoding="utf-8"))
    data["matchdays"][0]["matches"][0]["home"] = "no-such-koppel"
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        CaptureQueriesContext(connection) as queries,
        pytest.raises(InterchangeError),
    ):
        competition_import(data=data)
    assert _analyzed(queries.captured_queries) == []
    assert callbacks == []
