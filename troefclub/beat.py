"""One celery beat sends, however many run: `SingleBeatScheduler` (issue 23).

Every node may run a `beat` process (Procfile); two beats sending the same schedule would
send each periodic job twice. The jobs are safe to run twice, but a sweep sent by each of
three nodes is three times the work, and a daily purge becomes three. So only the beat
holding a PostgreSQL session advisory lock (`pg_try_advisory_lock(hashtext(
'troefclub:beat'))`) sends; the others stand by, trying for the lock every few seconds.
When the leader dies its session ends, PostgreSQL frees the lock, and a standby takes over
at its next try.

The lock lives on a connection of its own (psycopg, from `settings.DATABASES['default']`),
never on Django's: Django closes or returns its connection to the pool (CONN_MAX_AGE,
DATABASE_POOL_SIZE) whenever it sees fit, which would drop the lock silently or hand it to
whoever borrows the connection next. The leader checks that connection every tick: a lost
connection (database restarted, network gone) means the lock may be someone else's now,
so it steps down and stands by until it has reconnected and won the lock again.

Every tick, leader or not, touches `settings.BEAT_HEARTBEAT_FILE`: compose's healthcheck
of a beat looks at the file's age. On SQLite or in eager mode (one laptop, no broker)
there is one beat at most and it always leads.
"""

from __future__ import annotations

import contextlib
import logging
from pathlib import Path
from typing import Any

import psycopg
from celery.beat import Scheduler
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections

logger = logging.getLogger(__name__)

LOCK_NAME = "troefclub:beat"
# Seconds between two tries of a standby; also how soon it sends after the leader died.
STANDBY_SECONDS = 2.0
# The leader's longest sleep: its lock check and the heartbeat stay this fresh even when no
# job is due for long (compose's healthcheck wants the file younger than 120 s).
LEADER_MAX_SECONDS = 30


def lock_connection_params() -> dict[str, Any]:
    """The keyword arguments of `psycopg.connect` for the default database, as Django would
    connect (`get_connection_params`: name, user, host, OPTIONS) without Django's own
    cursor and adapters, plus a connect timeout and TCP keepalives so that a dead server or
    network is noticed within seconds rather than the operating system's minutes."""
    params = connections[DEFAULT_DB_ALIAS].get_connection_params()
    for django_only in ("cursor_factory", "context"):
        params.pop(django_only, None)
    params.setdefault("connect_timeout", 5)
    params.update(keepalives=1, keepalives_idle=10, keepalives_interval=5, keepalives_count=2)
    return params


class SingleBeatScheduler(Scheduler):
    """celery beat's in-memory scheduler (no shelve file: the schedule is `beat_schedule`,
    and a new leader starts its intervals afresh) that sends only while it leads.

    `celery -A troefclub beat --scheduler troefclub.beat:SingleBeatScheduler`. `tick()`
    returns the seconds until the next tick, as celery's: a standby's is STANDBY_SECONDS.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.max_interval = min(self.max_interval or LEADER_MAX_SECONDS, LEADER_MAX_SECONDS)
        self.always_leads = connections[DEFAULT_DB_ALIAS].vendor != "postgresql" or bool(
            self.app.conf.task_always_eager
        )
        self.heartbeat = Path(settings.BEAT_HEARTBEAT_FILE)
        self._lock_connection: psycopg.Connection[Any] | None = None
        self.leading = False
        self._standby_said = False

    def tick(self, *args: Any, **kwargs: Any) -> float:
        """Touch the heartbeat, then send what is due if this beat leads."""
        self._heartbeat_touch()
        if not self._lead():
            return STANDBY_SECONDS
        return float(super().tick(*args, **kwargs))

    def close(self) -> None:
        """Release the lock (by closing its session) when beat stops: a standby need not
        wait for PostgreSQL to notice."""
        try:
            super().close()
        finally:
            self._lock_release()

    def _heartbeat_touch(self) -> None:
        try:
            self.heartbeat.touch()
        except OSError as exc:  # a full or read-only disk must not stop the schedule
            logger.warning("beat: heartbeat file %s not touched: %s", self.heartbeat, exc)

    def _lead(self) -> bool:
        """Whether this beat leads now: it holds the lock on a live connection, or has just
        won it. Any database error steps down (the session, and so the lock, may be gone)."""
        if self.always_leads:
            return True
        try:
            if self._lock_connection is None or self._lock_connection.closed:
                self._lock_release()
                self._lock_connection = psycopg.connect(**lock_connection_params(), autocommit=True)
            if self.leading:
                self._lock_connection.execute("SELECT 1")  # still our session, still our lock
                return True
            row = self._lock_connection.execute(
                "SELECT pg_try_advisory_lock(hashtext(%s))", [LOCK_NAME]
            ).fetchone()
        except psycopg.Error as exc:
            if self.leading:
                logger.warning("beat: lost the database connection, standing by: %s", exc)
            else:
                logger.debug("beat: no database connection to try the lock: %s", exc)
            self._lock_release()
            return False
        if row and row[0]:
            self.leading = True
            self._standby_said = False
            logger.info("beat: holds the single-beat lock, sends the periodic tasks")
        elif not self._standby_said:
            self._standby_said = True
            logger.info("beat: another beat holds the single-beat lock; standing by")
        return self.leading

    def _lock_release(self) -> None:
        """Close the lock's connection (the session's end releases the lock), if any."""
        self.leading = False
        if self._lock_connection is not None:
            with contextlib.suppress(psycopg.Error):
                self._lock_connection.close()
            self._lock_connection = None
