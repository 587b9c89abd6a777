"""The load benchmark runs (issue 20): at a tiny size, its scorers entering rounds through
both doors, the director's score sheet and the table link (the phone's queued round with
its idempotency key), against gunicorn and the README's Celery workers on a private Redis
and real PostgreSQL. It checks the report (every game finished through its door, no
error, each door's figures, the CPU), never a time.

The benchmark runs as its own process, as it is run by hand: it works in a database of
its own beside the test database (`<NAME>_load_bench`, made, marked and dropped here) and
takes the private Redis as its broker. Needs PostgreSQL and `redis-server`: locally it
skips without them, with CI=true it fails.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import throwaway
from tests.scoring.test_worker import ROOT, _database_url
from tests.scoring.test_worker import private_redis as private_redis  # the fixture

pytestmark = pytest.mark.worker


@pytest.mark.django_db
def test_the_load_benchmark_runs_through_the_sheet_and_the_table_link(
    private_redis, tmp_path: Path
) -> None:
    url = _database_url()  # the test database's server (skips without PostgreSQL)
    _load_url, name = throwaway.database_beside(url, "load")
    report_file = tmp_path / "load.json"
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "CELERY_BROKER_URL": private_redis.url,
        "TROEF_BENCH_CACHE": str(tmp_path / "cache"),
    }
    env.pop("DJANGO_SETTINGS_MODULE", None)  # the benchmark sets its own
    try:
        run = subprocess.run(
            [sys.executable, "-m", "benchmarks.load", "--koppels", "4", "--scorers", "2",
             "--rounds", "12", "--pause", "0", "--workers", "1", "--concurrency", "1",
             "--door", "both", "--fresh", "--json", str(report_file)],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False,
        )  # fmt: skip
    finally:
        throwaway.database_drop(url, name)  # only the benchmark's own (its mark)
    assert report_file.exists(), run.stdout + run.stderr
    report = json.loads(report_file.read_text())
    assert report["errors"] == 0, report["error_samples"]
    assert report["games_finished"] == 2
    # One scorer through each door: its page, then 12 rounds.
    assert {door: d["requests"] for door, d in report["doors"].items()} == {
        "sheet": 13,
        "table": 13,
    }
    assert report["standings_lag_s"] is not None  # the standings caught up
    assert set(report["cpu"]["role_cpu_s"]) >= {"gunicorn", "standings worker", "load generator"}
    assert "| ↳ table link |" in run.stdout and "CPU while the scorers posted" in run.stdout
