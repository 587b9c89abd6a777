"""A real Celery worker process against real Redis writes the standings, and keeps them
fresh through faults: a worker killed mid-refresh, a broker outage, a dropped database
connection (issue 6, "Standings never stale for long").

Needs PostgreSQL (the worker must see the test database); the first test needs a Redis
broker (`CELERY_BROKER_URL`), the fault tests start their own `redis-server`. Locally they
skip without them; with CI=true they fail instead.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis
from django.db import connection, transaction
from django.urls import reverse

from scoring.models import STANDING_COLUMNS, Game, Standing
from scoring.selectors.standings import competition_table
from scoring.services.rounds import round_record
from tests.builders import record
from tests.factories import CompetitionFactory, GameFactory
from tests.paths import REPO_ROOT as ROOT
from tests.services import redis_broker, service_missing
from tournaments.models import Competition
from troefclub.celery import app as celery_app

pytestmark = pytest.mark.worker


def _database_url() -> str:
    if connection.vendor != "postgresql":
        service_missing(
            "the worker test needs PostgreSQL (a worker can't see SQLite's test database)"
        )
    db = connection.settings_dict
    user = db["USER"] or "postgres"
    password = f":{db['PASSWORD']}" if db["PASSWORD"] else ""
    host = db["HOST"] or "127.0.0.1"
    port = db["PORT"] or 5432
    return f"postgres://{user}{password}@{host}:{port}/{db['NAME']}"


@pytest.mark.django_db(transaction=True)
def test_worker_process_writes_standings_after_a_saved_result(tmp_path):
    broker = redis_broker()
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
        games = [GameFactory.create(competition=competition) for _ in range(2)]
        with transaction.atomic():  # two results in one transaction: one refresh (issue 7)
            for game in games:
                for _ in range(4):  # four kaps: 20–0, the game is over
                    record(game, result="kap", side="a")

        won = {game.match.home_id: 2 for game in games}
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            rows = dict(
                Standing.objects.filter(competition=competition).values_list("entry_id", "points")
            )
            if all(rows.get(entry_id) == 2 for entry_id in won):
                break
            assert worker.poll() is None, (tmp_path / "worker.log").read_text()
            time.sleep(0.5)
        else:
            pytest.fail("no standings from the worker:\n" + (tmp_path / "worker.log").read_text())
        assert rows == {**won, **{game.match.away_id: 0 for game in games}}
        log_text = (tmp_path / "worker.log").read_text()
        received = re.findall(
            r"Task scoring\.tasks\.standings_refresh\[[-0-9a-f]+\] received", log_text
        )
        assert len(received) == 1, log_text
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()
        log.close()


# ---------------------------------------------------------------- faults: kill, outage, drop
#
# Each test below runs its own redis-server on a free port and a real worker with embedded
# beat (`worker -B`, STANDINGS_SWEEP_SECONDS=3) against the test database, does harm (SIGKILL
# of the worker's process group mid-refresh, the broker stopped while results are saved, the
# worker's PostgreSQL connection terminated mid-refresh) and then waits, at most 60 s, for
# standings equal to what a rebuild computes now, with the stale mark cleared.

SWEEP_SECONDS = 3
FRESH_WITHIN = 60  # seconds: the "fresh standings within 60 s"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_for(check: Callable[[], bool], *, within: float, failure: Callable[[], str]) -> float:
    """Poll `check` until it holds; returns the seconds it took. Fails after `within` s."""
    start = time.monotonic()
    while time.monotonic() - start < within:
        if check():
            return time.monotonic() - start
        time.sleep(0.2)
    pytest.fail(failure())


class PrivateRedis:
    """A redis-server of the test's own, on a free port, without persistence."""

    def __init__(self, binary: str, folder: Path) -> None:
        self.binary, self.folder, self.port = binary, folder, _free_port()
        self.process: subprocess.Popen[bytes] | None = None
        folder.mkdir()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.folder)],
            stdout=(self.folder / "redis.log").open("ab"),
            stderr=subprocess.STDOUT,
        )  # fmt: skip

        def up() -> bool:
            assert self.process is not None
            if self.process.poll() is not None:
                service_missing("redis-server did not start:\n" + self.log())
            try:
                return bool(redis.Redis(port=self.port, socket_connect_timeout=1).ping())
            except redis.exceptions.ConnectionError:
                return False

        _wait_for(up, within=30, failure=lambda: "redis-server did not answer:\n" + self.log())

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=20)
        self.process = None

    def log(self) -> str:
        return (self.folder / "redis.log").read_text(errors="replace")


class WorkerProcess:
    """`celery -A troefclub worker -B` in its own process group, logging to a file."""

    def __init__(self, folder: Path, env: dict[str, str]) -> None:
        self.folder, self.env = folder, env
        self.process: subprocess.Popen[bytes] | None = None
        self.logs: list[Path] = []

    def start(self, **extra_env: str) -> None:
        log = self.folder / f"worker-{len(self.logs) + 1}.log"
        self.logs.append(log)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "troefclub", "worker", "-B",
             "--schedule", str(self.folder / "beat-schedule"), "--concurrency=1",
             "--loglevel=info", "--without-gossip", "--without-mingle", "--without-heartbeat",
             "--include", "tests.worker_hooks"],
            cwd=ROOT,
            env={**self.env, **extra_env},
            stdout=log.open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: pool and beat die with it
        )  # fmt: skip

        def ready() -> bool:
            assert self.process is not None
            if self.process.poll() is not None:
                service_missing("the Celery worker exited at start:\n" + self.log())
            return " ready." in log.read_text(errors="replace")

        _wait_for(ready, within=60, failure=lambda: "the worker never got ready:\n" + self.log())

    def kill(self) -> None:
        """SIGKILL the whole process group: no warm shutdown, no acknowledgement."""
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=20)
        self.process = None

    def stop(self) -> None:
        """At the end of a test: killed too (its Redis goes, its database connections close)."""
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                self.kill()

    def log(self) -> str:
        return "\n".join(
            f"--- {path.name}\n" + path.read_text(errors="replace") for path in self.logs
        )


@contextlib.contextmanager
def _publishing_to(broker: str) -> Iterator[None]:
    """This (test) process publishes its tasks to `broker`, not to CELERY_BROKER_URL and
    not eagerly. (`broker_write_url`: an environment's CELERY_BROKER_URL outranks a
    configured `broker_url`, not a configured write URL.)"""
    conf = celery_app.conf
    saved = {
        "broker_write_url": conf.get("broker_write_url"),
        "task_always_eager": conf.task_always_eager,
    }

    def new_pools() -> None:
        celery_app._pool = None  # type: ignore[attr-defined]
        celery_app.amqp._producer_pool = None  # type: ignore[attr-defined]

    conf.update(broker_write_url=broker, task_always_eager=False)
    new_pools()
    try:
        assert celery_app.connection_for_write().as_uri(include_password=True) == broker
        yield
    finally:
        conf.update(saved)
        new_pools()


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    binary = shutil.which("redis-server")
    if binary is None:
        service_missing("redis-server is not installed (Debian package redis-server)")
    server = PrivateRedis(binary, tmp_path / "redis")
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def worker(
    transactional_db: None, private_redis: PrivateRedis, tmp_path: Path
) -> Iterator[WorkerProcess]:
    """A worker with beat (not started yet) on the private Redis and the test database."""
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "CELERY_BROKER_URL": private_redis.url,
        "STANDINGS_SWEEP_SECONDS": str(SWEEP_SECONDS),
        "SECRET_KEY": os.environ.get("SECRET_KEY", "worker-test-not-secret"),
        "DEBUG": "false",
    }
    env.pop("TROEF_TEST_SLOW_REFRESH", None)
    process = WorkerProcess(tmp_path, env)
    with _publishing_to(private_redis.url):
        try:
            yield process
        finally:
            process.stop()


def _finished_game(competition: Competition) -> Game:
    """A new game of `competition`, won 20–0 by koppel A in four kaps."""
    game = GameFactory.create(competition=competition)
    for number in range(1, 5):
        round_record(game_id=game.pk, expected_number=number, result="kap", side="a")
    return game


def _standings_fresh(competition: Competition) -> bool:
    """Stored standings equal what a rebuild computes from the results now, mark cleared."""
    competition.refresh_from_db(fields=["standings_stale_since"])
    if competition.standings_stale_since is not None:
        return False
    stored = {
        row.entry_id: tuple(getattr(row, column) for column in STANDING_COLUMNS)
        for row in Standing.objects.filter(competition=competition)
    }
    computed = {
        row.entry: tuple(getattr(row, column) for column in STANDING_COLUMNS)
        for row in competition_table(competition=competition)
    }
    return stored == computed


def _wait_fresh(competition: Competition, worker: WorkerProcess) -> float:
    return _wait_for(
        lambda: _standings_fresh(competition),
        within=FRESH_WITHIN,
        failure=lambda: f"standings not fresh within {FRESH_WITHIN} s:\n" + worker.log(),
    )


@pytest.mark.django_db(transaction=True)
def test_standings_are_fresh_after_the_worker_is_killed_during_a_refresh(worker, tmp_path):
    pause = tmp_path / "pause"
    pause.mkdir()
    worker.start(TROEF_TEST_SLOW_REFRESH=str(pause))
    competition = CompetitionFactory.create()
    # One transaction, so one refresh queued: the one we kill. (A write would wait for the
    # paused refresh: a rebuild holds the competition row until it commits.)
    with transaction.atomic():
        _finished_game(competition)
        _finished_game(competition)
    _wait_for(
        (pause / "started").exists,
        within=60,
        failure=lambda: "the refresh never started:\n" + worker.log(),
    )
    worker.kill()  # mid-refresh: its message stays unacknowledged in Redis for 300 s
    assert not _standings_fresh(competition)

    worker.start()  # a new worker (no pause); beat's sweep must find the stale competition
    took = _wait_fresh(competition, worker)

    assert took < FRESH_WITHIN
    assert "rebuilt the stale standings of 1 competition(s)" in worker.log()
    points = dict(
        Standing.objects.filter(competition=competition).values_list("entry_id", "points")
    )
    assert sorted(points.values()) == [0, 0, 2, 2]


@pytest.mark.django_db(transaction=True)
def test_results_saved_while_the_broker_is_down_reach_the_standings_once_it_is_back(
    worker, private_redis, client, caplog
):
    worker.start()
    competition = CompetitionFactory.create()
    _finished_game(competition)
    _wait_fresh(competition, worker)  # the worker keeps up while the broker is there

    private_redis.stop()
    with caplog.at_level(logging.ERROR, logger="scoring.services"):
        game = _finished_game(competition)
    game.refresh_from_db()
    assert (game.status, game.score_a, game.score_b) == (Game.Status.FINISHED, 20, 0)  # saved
    assert f"standings_refresh not queued for competition {competition.pk}" in caplog.text
    page = client.get(reverse("competition_detail", kwargs={"slug": competition.slug}))
    assert "standings-stale" in page.content.decode()
    assert not _standings_fresh(competition)
    # An outage longer than a few reconnect attempts (a worker that gave up after 3, about
    # 12 s, was gone when Redis came back): wait for the worker's 4th failed attempt.
    _wait_for(
        lambda: worker.log().count("consumer: Cannot connect to") >= 4,
        within=60,
        failure=lambda: "the worker did not try to reconnect:\n" + worker.log(),
    )
    assert worker.process is not None and worker.process.poll() is None, worker.log()

    private_redis.start()  # empty: the lost refresh is not in it, only the sweep can help
    took = _wait_fresh(competition, worker)

    assert took < FRESH_WITHIN
    assert Standing.objects.filter(competition=competition).count() == 4
    page = client.get(reverse("competition_detail", kwargs={"slug": competition.slug}))
    assert "standings-stale" not in page.content.decode()


@pytest.mark.django_db(transaction=True)
def test_a_refresh_whose_database_connection_is_dropped_is_redone(worker, tmp_path):
    pause = tmp_path / "pause"
    pause.mkdir()
    worker.start(TROEF_TEST_SLOW_REFRESH=str(pause))
    competition = CompetitionFactory.create()
    with transaction.atomic():  # one refresh queued: a write would wait for the paused one
        _finished_game(competition)
    _wait_for(
        (pause / "started").exists,
        within=60,
        failure=lambda: "the refresh never started:\n" + worker.log(),
    )
    backend_pid = int((pause / "started").read_text())
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [backend_pid])
        assert cursor.fetchone() == (True,)
    (pause / "release").touch()  # the refresh goes on, on a dead connection

    took = _wait_fresh(competition, worker)

    assert took < FRESH_WITHIN
    assert "terminating connection due to administrator command" in worker.log()
    assert worker.process is not None and worker.process.poll() is None  # still serving
