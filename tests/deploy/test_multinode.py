"""Several nodes, proven (issue 23): two web nodes behind HAProxy (deploy/haproxy.cfg, on
loopback), two worker nodes and a beat node, each a `honcho start` of the Procfile, on
one PostgreSQL database and one Redis database. Scorers post rounds through the balancer
while web node A and worker node 1 are killed (SIGKILL, every process of the node) and
started again; they resend what the balancer answered 502/503/504 or whose connection
broke, as a phone's queue does. Afterwards every game holds exactly the rounds its scorer
meant (none lost, none doubled), the standings catch up, and /readyz answers 200 through
the balancer.

Needs PostgreSQL (the nodes must see the test database), a Redis broker
(CELERY_BROKER_URL), haproxy and honcho: locally it skips without them, with CI=true it
fails. The figures (latency, lag, time to full service) are benchmarks/multinode.py's.
"""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import subprocess
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.db import connection

from benchmarks.load import standings_caught_up
from benchmarks.multinode_run import (
    BIN,
    ROOT,
    Layout,
    NodesTally,
    Outage,
    outage_run,
    rounds_as_meant,
    run_load,
    scorers_make,
    status,
    venv_path,
)
from tests.app_process import app_env, free_port
from tests.builders import pairs_matchday
from tests.services import redis_broker, service_missing
from troefclub.celery import app as celery_app

pytestmark = pytest.mark.multinode

SCORERS = 6
ROUNDS = 12
SWEEP_SECONDS = 3


def _database_url() -> str:
    if connection.vendor != "postgresql":
        service_missing("the nodes need PostgreSQL (they can't see SQLite's test database)")
    db = connection.settings_dict
    user = db["USER"] or "postgres"
    password = f":{db['PASSWORD']}" if db["PASSWORD"] else ""
    return (
        f"postgres://{user}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    )


def _cache_emptied(url: str) -> None:
    """The Django cache's keys (`:<version>:<key>`) in the test's Redis database: a page
    cached by an earlier run for the same ids (the test database starts its ids at 1
    again) must not be served now. The broker's keys stay (the purge empties its queues)."""
    import redis

    client = redis.Redis.from_url(url)
    try:
        keys = list(client.scan_iter(match=":[0-9]*:*", count=1000))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


@pytest.mark.django_db(transaction=True)
def test_nodes_killed_mid_run_lose_and_double_no_round_and_come_back(tmp_path: Path) -> None:
    if shutil.which("haproxy") is None:
        service_missing("haproxy is not installed (Debian: apt-get install haproxy)")
    if not (BIN / "honcho").exists():
        service_missing(f"honcho is not installed in {BIN} (pip install -e '.[dev]')")
    broker = redis_broker()
    database_url = _database_url()
    celery_app.control.purge()  # tasks left by an earlier run name rows now gone
    _cache_emptied(broker)

    competition, matchday, entries = pairs_matchday(2 * SCORERS)
    scorers = scorers_make(competition, matchday, entries, count=SCORERS, rounds=ROUNDS, seed=23)
    pacing = random.Random(7)
    for scorer in scorers:
        scorer.pauses = [pacing.uniform(0.5, 1.5) for _ in scorer.rounds]
        scorer.start = pacing.uniform(0, 1)

    env = app_env(
        DATABASE_URL=database_url,
        CELERY_BROKER_URL=broker,
        # The broker's database holds the cache too: its keys (`:1:…`) and Celery's never meet.
        CACHE_URL=broker,
        # The test's own: the sessions made here are signed with it.
        SECRET_KEY=settings.SECRET_KEY,
        DEBUG="false",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        HOST="127.0.0.1",
        WEB_CONCURRENCY="2",
        STANDINGS_SWEEP_SECONDS=str(SWEEP_SECONDS),
        TRUSTED_PROXY_COUNT="1",
        BEAT_HEARTBEAT_FILE=str(tmp_path / "beat.heartbeat"),
        PATH=venv_path(os.environ),
        # The worktree's code, whatever the venv's editable install points at.
        PYTHONPATH=str(ROOT),
    )
    # DEBUG is off: the pages link their static files through the manifest.
    subprocess.run(
        [str(BIN / "python"), "manage.py", "collectstatic", "--no-input", "-v", "0"],
        cwd=ROOT, env=env, check=True, capture_output=True, timeout=300,
    )  # fmt: skip

    layout = Layout.make(env, tmp_path, iter(free_port, None))
    tally = NodesTally()
    outage = Outage(["web A", "worker 1"])
    done = threading.Event()
    killer = threading.Thread(
        target=outage_run,
        args=(layout, outage),
        kwargs={"kill_after": 3.0, "restart_after": 3.0, "ready_path": "/readyz", "done": done},
        daemon=True,
    )
    try:
        layout.start()
        layout.wait_ready()
        base = layout.balancer.base
        killer.start()
        asyncio.run(run_load(base, scorers, tally, resend_pause=0.5))
        assert tally.errors == []
        assert rounds_as_meant(scorers) == {}

        # Liveness waits, not timings: far above what the nodes need.
        killer.join(timeout=90)
        assert sorted(outage.served_after) == ["web A", "worker 1"], layout.nodes["web A"].output()
        deadline = time.monotonic() + 60
        while not standings_caught_up(competition.pk) and time.monotonic() < deadline:
            layout.check()
            time.sleep(0.2)
        assert standings_caught_up(competition.pk)
        assert status(base + "/readyz") == 200
        assert urlsplit(base).hostname == "127.0.0.1"
    finally:
        done.set()
        if killer.is_alive():
            killer.join()  # no node started again after the stop below
        layout.stop()
