"""Standings never wait behind the ratings (issue 19, item 4): each kind of background work
has its Celery queue, and the README's workers consume one queue each.

The routing tests read the settings and the README; the worker test runs the README's two
workers (`-Q standings`, `-Q ratings`) as real processes on real Redis and PostgreSQL
(marker `worker`: it skips locally without them and fails under CI=true).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
import redis
from django.conf import settings
from django.db import transaction

from rankings.models import RatedGame
from tests.factories import CompetitionFactory
from tests.scoring.test_worker import (
    ROOT,
    _database_url,
    _finished_game,
    _standings_fresh,
    _wait_for,
)
from tests.services import redis_broker
from troefclub.celery import app as celery_app

README = (ROOT / "README.md").read_text(encoding="utf-8")

# Each task of troefclub and the queue the README says it runs in.
QUEUE_OF = {
    "scoring.tasks.standings_refresh": "standings",
    "scoring.tasks.standings_refresh_stale": "standings",
    "rankings.tasks.ratings_refresh": "ratings",
    "rankings.tasks.season_rankings_refresh": "ratings",
    "rankings.tasks.season_rankings_refresh_stale": "ratings",
    "api.tasks.idempotency_records_purge": "standings",  # a DELETE a day
    "troefclub.tasks.reader_cache_bumps_owed_pay": "standings",  # one query when none owed
}


def _queue_of(task: object, options: object = None) -> str:
    """The queue a task is sent to, as `apply_async` and beat route it (with a beat
    entry's `options`)."""
    sent = dict(options) if isinstance(options, dict) else {}
    return str(celery_app.amqp.router.route(sent, str(task))["queue"].name)


def _readme_workers() -> dict[str, list[str]]:
    """The worker commands of the README (`celery -A troefclub worker ...`, in code): the
    queues each consumes (its -Q), by command; [] for a worker without -Q."""
    workers = {}
    for command in re.findall(r"celery -A troefclub worker[^`\n#]*", README):
        words = command.split()
        queues = words[words.index("-Q") + 1].split(",") if "-Q" in words else []
        workers[command.strip()] = queues
    return workers


@pytest.mark.parametrize(("task", "queue"), sorted(QUEUE_OF.items()))
def test_each_task_goes_to_its_own_queue(task, queue):
    assert _queue_of(task) == queue


def test_every_task_of_troefclub_is_routed():
    # An unrouted task would land in the default queue, beside the standings refreshes.
    celery_app.loader.import_default_modules()
    ours = {name for name in celery_app.tasks if not name.startswith("celery.")}
    assert ours == set(QUEUE_OF)
    assert set(settings.CELERY_TASK_ROUTES) == set(QUEUE_OF)


def test_beat_sends_the_sweep_and_the_ratings_run_to_their_queues():
    sent = {
        entry["task"]: _queue_of(entry["task"], entry.get("options"))
        for entry in settings.CELERY_BEAT_SCHEDULE.values()
    }
    assert sent == {
        "api.tasks.idempotency_records_purge": "standings",
        "scoring.tasks.standings_refresh_stale": "standings",
        "rankings.tasks.ratings_refresh": "ratings",
        "rankings.tasks.season_rankings_refresh_stale": "ratings",
        "troefclub.tasks.reader_cache_bumps_owed_pay": "standings",
    }


def test_each_queue_is_bound_by_its_own_name():
    # Celery gives a queue without a routing key the default queue's: every message would
    # then reach the standings queue, whatever its route said.
    for queue in celery_app.amqp.queues.values():
        assert (queue.exchange.name, queue.routing_key) == (queue.name, queue.name)
    assert sorted(celery_app.amqp.queues) == ["ratings", "standings"]


def test_the_readme_runs_one_worker_a_queue():
    workers = _readme_workers()
    # Every queue has a worker, and no worker's pool takes both (ratings would starve it).
    assert {queue for queues in workers.values() for queue in queues} == {"standings", "ratings"}
    assert all(len(queues) == 1 for queues in workers.values()), workers
    for command, queues in workers.items():
        if queues == ["ratings"]:
            # One ratings refresh runs at a time (`RatingsLock`): more processes only wait.
            assert "--concurrency 1" in command, command


# ---------------------------------------------------------------- the README's workers


@contextmanager
def _worker(tmp_path: Path, queue: str, env: dict[str, str]) -> Iterator[Path]:
    """`celery -A troefclub worker -Q <queue>` (one process, test options) until the end
    of the block; yields its log file once it is ready."""
    log = tmp_path / f"{queue}.log"
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "troefclub", "worker", "-Q", queue,
         "-n", f"{queue}@%h", "--pool=solo", "--loglevel=info", "--without-gossip",
         "--without-mingle", "--without-heartbeat", "--include", "tests.worker_hooks"],
        cwd=ROOT,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        _wait_for(
            lambda: process.poll() is None and " ready." in log.read_text(errors="replace"),
            within=60,
            failure=lambda: f"the {queue} worker never got ready:\n" + log.read_text(),
        )
        yield log
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_standings_are_fresh_while_a_ratings_refresh_holds_the_ratings_worker(tmp_path):
    broker = redis_broker()
    celery_app.control.purge()  # both queues: tasks of an earlier run name rows now gone
    pause = tmp_path / "pause"
    pause.mkdir()
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "CELERY_BROKER_URL": broker,
        "SECRET_KEY": os.environ.get("SECRET_KEY", "worker-test-not-secret"),
        "DEBUG": "false",
        # The ratings worker's first refresh pauses holding the ratings lock: a long rebuild.
        "TROEF_TEST_SLOW_RATINGS": str(pause),
    }
    env.pop("TROEF_TEST_SLOW_REFRESH", None)
    with ExitStack() as workers:
        standings_log = workers.enter_context(_worker(tmp_path, "standings", env))
        ratings_log = workers.enter_context(_worker(tmp_path, "ratings", env))

        def logs() -> str:
            return "\n".join(
                f"--- {log.stem}\n{log.read_text()}" for log in (standings_log, ratings_log)
            )

        first = CompetitionFactory.create()
        _finished_game(first)  # queues its standings refresh and a ratings refresh
        _wait_for(
            (pause / "started").exists,
            within=60,
            failure=lambda: "the ratings refresh never started:\n" + logs(),
        )
        other = CompetitionFactory.create()
        with transaction.atomic():
            _finished_game(other)  # the ratings are busy: one more ratings refresh queued

        _wait_for(
            lambda: _standings_fresh(other),
            within=60,
            failure=lambda: "standings waited behind the ratings:\n" + logs(),
        )
        assert _standings_fresh(first)
        # Still rating: nothing rated yet, the ratings refresh queued meanwhile waits.
        assert not (pause / "release").exists()
        assert RatedGame.objects.count() == 0
        queued: Any = redis.Redis.from_url(broker).llen("ratings")  # sync: an int
        assert queued >= 1

        (pause / "release").touch()
        _wait_for(
            lambda: RatedGame.objects.count() == 2,
            within=60,
            failure=lambda: "the ratings worker never caught up:\n" + logs(),
        )
        standings_text, ratings_text = standings_log.read_text(), ratings_log.read_text()
    # Each worker ran its own queue's tasks only (their banners list every task).
    assert "Task scoring.tasks.standings_refresh[" in standings_text
    assert "Task rankings.tasks.ratings_refresh[" not in standings_text
    assert "Task rankings.tasks.ratings_refresh[" in ratings_text
    assert "Task scoring.tasks.standings_refresh[" not in ratings_text
