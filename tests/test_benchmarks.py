"""The benchmark harness (`python -m benchmarks`, BENCHMARKS.md) runs and reports every row.

A smoke test at a tiny size: it checks the table, never a timing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.harness import ROW_NAMES, bench, table_markdown

pytestmark = pytest.mark.django_db


def test_bench_reports_every_row_of_issue_7s_table(tmp_path: Path) -> None:
    report = bench(
        sizes=[4],
        matchdays=2,
        repeat=1,
        budget=0,
        swiss_entries=8,
        swiss_rounds=2,
        cache=tmp_path,
    )

    assert sorted(row["measure"] for row in report["rows"]) == sorted(ROW_NAMES)
    table = table_markdown(report)
    for name in ROW_NAMES:
        assert f"| {name} |" in table
    by_name = {row["measure"]: row for row in report["rows"]}
    assert by_name["import_competition"]["floor_s"] is not None
    assert by_name["standings_rebuild"]["extra"]["floor_agrees"] is True
    assert by_name["standings page"]["bytes"] > 0
