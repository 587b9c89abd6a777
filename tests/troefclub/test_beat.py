"""One celery beat sends, however many run (`troefclub.beat.SingleBeatScheduler`, issue 23).

The process test starts two real `celery beat` processes on the test database and the
configured Redis broker: only one sends, each periodic job goes out once an interval in
all, and when the leader is killed (-9) the standby sends within seconds. The in-process
tests drive `tick()` with the sending itself replaced. PostgreSQL and Redis: skipped
locally without them, failing with CI=true.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import psycopg
import pytest
from celery.beat import Scheduler
from django.db import connection

from tests.paths import REPO_ROOT
from tests.services import redis_broker, service_missing
from troefclub.beat import LOCK_NAME, STANDBY_SECONDS, SingleBeatScheduler, lock_connection_params
from troefclub.celery import app as celery_app
from troefclub.celery import eager_set


def _postgresql() -> None:
    if connection.vendor != "postgresql":
        service_missing("the single-beat lock is PostgreSQL's")


def _database_url() -> str:
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db["PASSWORD"] else ""
    host, port = db["HOST"] or "127.0.0.1", db["PORT"] or 5432
    return f"postgres://{db['USER'] or 'postgres'}{password}@{host}:{port}/{db['NAME']}"


@pytest.fixture
def scheduler(tmp_path: Path, settings: Any) -> Iterator[SingleBeatScheduler]:
    """A scheduler on the test database whose sending is counted, not done (`sent`)."""
    _postgresql()
    settings.BEAT_HEARTBEAT_FILE = str(tmp_path / "heartbeat")
    made = SingleBeatScheduler(app=celery_app, lazy=True)
    made.always_leads = False  # even where the tests run Celery eagerly
    with mock.patch.object(Scheduler, "tick", return_value=0.5) as sent:
        made.sent = sent  # type: ignore[attr-defined]
        yield made
    made.close()


@pytest.fixture
def other_beat() -> Iterator[psycopg.Connection[Any]]:
    """Another beat's session: it can take and keep the lock."""
    with psycopg.connect(**lock_connection_params(), autocommit=True) as other:
        yield other


@pytest.mark.django_db
def test_the_first_beat_leads_and_a_second_stands_by(
    scheduler: SingleBeatScheduler, other_beat: psycopg.Connection[Any]
) -> None:
    assert scheduler.tick() == 0.5
    assert scheduler.sent.call_count == 1  # type: ignore[attr-defined]
    taken = other_beat.execute("SELECT pg_try_advisory_lock(hashtext(%s))", [LOCK_NAME])
    assert taken.fetchone() == (False,)
    assert Path(scheduler.heartbeat).exists()


@pytest.mark.django_db
def test_a_standby_sends_nothing_and_takes_over_when_the_lock_is_freed(
    scheduler: SingleBeatScheduler, other_beat: psycopg.Connection[Any]
) -> None:
    other_beat.execute("SELECT pg_advisory_lock(hashtext(%s))", [LOCK_NAME])
    Path(scheduler.heartbeat).unlink(missing_ok=True)
    assert scheduler.tick() == STANDBY_SECONDS
    assert scheduler.tick() == STANDBY_SECONDS
    assert scheduler.sent.call_count == 0  # type: ignore[attr-defined]
    assert Path(scheduler.heartbeat).exists()  # a standby is alive too
    other_beat.execute("SELECT pg_advisory_unlock(hashtext(%s))", [LOCK_NAME])
    assert scheduler.tick() == 0.5
    assert scheduler.leading


@pytest.mark.django_db
def test_a_leader_whose_connection_is_lost_steps_down_then_leads_again(
    scheduler: SingleBeatScheduler, other_beat: psycopg.Connection[Any]
) -> None:
    assert scheduler.tick() == 0.5
    assert scheduler._lock_connection is not None
    pid = scheduler._lock_connection.info.backend_pid
    other_beat.execute("SELECT pg_terminate_backend(%s)", [pid])
    time.sleep(0.2)
    assert scheduler.tick() == STANDBY_SECONDS  # the lock may be someone else's now
    assert not scheduler.leading
    assert scheduler.tick() == 0.5  # reconnected, the lock was free: leads again
    assert scheduler.sent.call_count == 2  # type: ignore[attr-defined]


def test_without_postgresql_or_a_broker_it_always_leads(tmp_path: Path, settings: Any) -> None:
    settings.BEAT_HEARTBEAT_FILE = str(tmp_path / "heartbeat")
    was = eager_set(always=True)
    try:
        made = SingleBeatScheduler(app=celery_app, lazy=True)
    finally:
        eager_set(always=was[0], propagates=was[1])
    assert made.always_leads
    with mock.patch.object(Scheduler, "tick", return_value=0.5):
        assert made.tick() == 0.5
    assert made._lock_connection is None


# ---------------------------------------------------------------- two real beat processes

SWEEP = 2  # seconds: STANDINGS_SWEEP_SECONDS of the beats
WATCHED = 8  # seconds both beats run side by side
SENDING = re.compile(r"Sending due task (\S+)")
UP = re.compile(r"beat: (holds the single-beat lock|another beat holds)")


def _beat(env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "troefclub", "beat", "-l", "info",
         "--scheduler", "troefclub.beat:SingleBeatScheduler"],
        cwd=REPO_ROOT,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
    )  # fmt: skip


def _sent(log: Path) -> list[str]:
    return SENDING.findall(log.read_text())


@pytest.mark.worker
@pytest.mark.django_db
def test_two_beat_processes_send_each_job_once_and_the_standby_takes_over(
    tmp_path: Path,
) -> None:
    _postgresql()
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "CELERY_BROKER_URL": redis_broker(),
        "SECRET_KEY": os.environ.get("SECRET_KEY", "beat-test-not-secret"),
        "DEBUG": "false",
        "STANDINGS_SWEEP_SECONDS": str(SWEEP),
        "BEAT_HEARTBEAT_FILE": str(tmp_path / "heartbeat"),
        "PYTHONUNBUFFERED": "1",  # the logs are read while the beats run
    }
    logs = [tmp_path / "beat1.log", tmp_path / "beat2.log"]
    beats = [_beat(env, log) for log in logs]
    try:
        # Both up (starting Django and Celery takes seconds), then 8 s watched.
        deadline = time.monotonic() + 120
        while not all(UP.search(log.read_text()) for log in logs):
            assert time.monotonic() < deadline, [log.read_text() for log in logs]
            assert all(process.poll() is None for process in beats), [x.read_text() for x in logs]
            time.sleep(0.2)
        before = [_sent(log) for log in logs]
        time.sleep(WATCHED)
        assert all(process.poll() is None for process in beats), [x.read_text() for x in logs]
        sent = [_sent(log) for log in logs]
        senders = [n for n, names in enumerate(sent) if names]
        assert len(senders) == 1, [log.read_text() for log in logs]
        leader = senders[0]
        watched = sent[leader][len(before[leader]) :]
        every_sweep = (
            "standings-refresh-stale",
            "ratings-refresh",
            "season-rankings-refresh-stale",
        )
        for name in every_sweep:
            # one an interval in all: WATCHED // SWEEP, give or take the window's edges
            assert WATCHED // SWEEP - 1 <= watched.count(name) <= WATCHED // SWEEP + 1, sent
        assert "api-idempotency-records-purge" not in sent[leader]  # daily
        assert (tmp_path / "heartbeat").exists()

        killed = time.monotonic()
        os.kill(beats[leader].pid, signal.SIGKILL)
        beats[leader].wait(timeout=10)
        standby = 1 - leader
        before_kill = len(_sent(logs[standby]))
        deadline = time.monotonic() + 10
        while len(_sent(logs[standby])) == before_kill and time.monotonic() < deadline:
            time.sleep(0.2)
        taken_over = len(_sent(logs[standby])) > before_kill
        assert taken_over, logs[standby].read_text()
        print(f"the standby sent {time.monotonic() - killed:.1f} s after the leader was killed")
    finally:
        for process in beats:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
        celery_app.control.purge()  # no worker takes the beats' tasks here
