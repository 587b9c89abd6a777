"""A real Celery worker process against real Redis writes the standings.

Needs PostgreSQL (the worker must see the test database) and a Redis broker
(`CELERY_BROKER_URL`). Locally it skips without them; with CI=true it fails instead.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from scoring.models import Standing
from scoring.services import round_record
from tests.factories import CompetitionFactory, GameFactory
from troefclub.celery import app as celery_app

pytestmark = pytest.mark.worker

ROOT = Path(__file__).resolve().parents[2]


def _missing(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI needs a real Celery worker test: {reason}")
    pytest.skip(reason)


def _broker_ready() -> str:
    broker = os.environ.get("CELERY_BROKER_URL", "")
    if not broker or settings.CELERY_TASK_ALWAYS_EAGER:
        _missing("no CELERY_BROKER_URL set, Celery runs eagerly")
    try:
        import redis

        redis.Redis.from_url(broker, socket_connect_timeout=2).ping()
    except Exception as exc:
        _missing(f"Redis at {broker} is not reachable: {exc}")
    return broker


def _database_url() -> str:
    if connection.vendor != "postgresql":
        _missing("the worker test needs PostgreSQL (a worker can't see SQLite's test database)")
    db = connection.settings_dict
    user = db["USER"] or "postgres"
    password = f":{db['PASSWORD']}" if db["PASSWORD"] else ""
    host = db["HOST"] or "127.0.0.1"
    port = db["PORT"] or 5432
    return f"postgres://{user}{password}@{host}:{port}/{db['NAME']}"


@pytest.mark.django_db(transaction=True)
def test_worker_process_writes_standings_after_a_saved_result(tmp_path):
    broker = _broker_ready()
    database_url = _database_url()
    celery_app.control.purge()  # tasks left by an earlier run name competitions now gone

    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": broker,
        "SECRET_KEY": os.environ.get("SECRET_KEY", "worker-test-not-secret"),
        "DEBUG": "false",
    }
    log = (tmp_path / "worker.log").open("w")
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "troefclub",
            "worker",
            "--pool=solo",
            "--loglevel=info",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        competition = CompetitionFactory.create()
        game = GameFactory.create(competition=competition)
        for _ in range(4):  # four kaps: 20–0, the game is over
            round_record(game_id=game.pk, result="kap", side="a")

        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            rows = dict(
                Standing.objects.filter(competition=competition).values_list("entry_id", "points")
            )
            if rows.get(game.match.home_id) == 2:
                break
            assert worker.poll() is None, (tmp_path / "worker.log").read_text()
            time.sleep(0.5)
        else:
            pytest.fail("no standings from the worker:\n" + (tmp_path / "worker.log").read_text())
        assert rows == {game.match.home_id: 2, game.match.away_id: 0}
        assert "standings_refresh" in (tmp_path / "worker.log").read_text()
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()
        log.close()
