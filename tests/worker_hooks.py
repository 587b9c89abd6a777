"""Test-only hooks for a real Celery worker (`celery ... worker --include tests.worker_hooks`).

With `TROEF_TEST_SLOW_REFRESH=DIR` in the worker's environment, the first standings
rebuild of the worker process pauses in the middle of its transaction (the competition
row locked, nothing written yet): it writes its PostgreSQL backend pid to `DIR/started`,
then waits until `DIR/release` exists (at most 60 s). A test can then kill the worker,
or its database connection, in the middle of a refresh. Later rebuilds (`DIR/started`
exists) don't pause. Without the variable this module changes nothing, and production
code is never touched: the pause wraps the `competition_table` the rebuild calls
(`scoring.services.standings`) in the worker process only.

With `TROEF_TEST_SLOW_RATINGS=DIR`, the first ratings refresh of the worker process pauses
the same way (`DIR/started`, then until `DIR/release`), holding the `RatingsLock` as a long
rebuild does: it wraps the `rating_games` the refresh reads the games with
(`rankings.services`), after taking the lock.
"""

from __future__ import annotations

import os
import time
from functools import wraps
from pathlib import Path
from typing import Any

from django.db import connection

from rankings import services as ratings_services
from scoring.services import standings as standings_services

_SLOW = os.environ.get("TROEF_TEST_SLOW_REFRESH", "")
_SLOW_RATINGS = os.environ.get("TROEF_TEST_SLOW_RATINGS", "")


def _pause_once(folder: Path) -> None:
    started = folder / "started"
    if started.exists():
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (backend_pid,) = cursor.fetchone()
    started.write_text(str(backend_pid))
    deadline = time.monotonic() + 60
    while not (folder / "release").exists() and time.monotonic() < deadline:
        time.sleep(0.05)


if _SLOW:
    _table = standings_services.competition_table

    @wraps(_table)
    def _slow_table(*args: Any, **kwargs: Any) -> Any:
        _pause_once(Path(_SLOW))
        return _table(*args, **kwargs)

    # Where the rebuild (`standings_rebuild`) looks it up.
    standings_services.competition_table = _slow_table


if _SLOW_RATINGS:
    _games = ratings_services.rating_games

    @wraps(_games)
    def _slow_games(*args: Any, **kwargs: Any) -> Any:
        _pause_once(Path(_SLOW_RATINGS))
        return _games(*args, **kwargs)

    # Where the refresh (`_ratings_write`, under the lock) looks it up.
    ratings_services.rating_games = _slow_games
