"""Store what the database's triggers refuse, to test what reads and checks do with it.

The triggers of migrations tournaments/0004_one_place_a_matchday and scoring/0003_game_places
refuse an entry twice a matchday, an entry of another competition, a second game in a pairs
match, … Data stored before them (or by a path around them) can still hold such rows, and
the pages, the standings and `manage.py check_results` must cope. `triggers_dropped()` drops
them for a block and creates them again after, inside the test's transaction (DDL is
transactional on PostgreSQL and SQLite, so a failing test rolls it back too).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection

MIGRATIONS = [
    importlib.import_module("tournaments.migrations.0004_one_place_a_matchday"),
    importlib.import_module("scoring.migrations.0003_game_places"),
    # PostgreSQL: the insert triggers above, made statement triggers (issue 20).
    importlib.import_module("tournaments.migrations.0012_places_checked_per_statement"),
    importlib.import_module("scoring.migrations.0011_game_places_checked_per_statement"),
]


def _statements(name: str) -> list[str]:
    """The migrations' statements (`name` "" to make, "_REVERSE" to undo, the later
    migrations first)."""
    vendor = {"postgresql": "POSTGRESQL", "sqlite": "SQLITE"}[connection.vendor]
    modules = reversed(MIGRATIONS) if name == "_REVERSE" else MIGRATIONS
    return [sql for module in modules for sql in getattr(module, f"{vendor}{name}")]


@contextmanager
def triggers_dropped() -> Iterator[None]:
    """The place triggers are gone inside the block and back after it."""
    with connection.cursor() as cursor:
        for sql in _statements("_REVERSE"):
            cursor.execute(sql)
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                # Django's foreign keys are deferred: check them now, so no pending trigger
                # event stands in the way of creating the triggers again.
                cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            for sql in _statements(""):
                cursor.execute(sql)
            if connection.vendor == "postgresql":
                cursor.execute("SET CONSTRAINTS ALL DEFERRED")
