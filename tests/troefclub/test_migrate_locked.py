"""`manage.py migrate_locked`: nodes starting together migrate once (issue 23).

The in-process tests hold the lock from a connection of their own and watch the command
wait for it; the process test starts two commands at once on a fresh, empty database.
Needs PostgreSQL (skipped on SQLite locally, failing with CI=true), except the SQLite one.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.db.migrations.loader import MigrationLoader

from tests.paths import REPO_ROOT
from troefclub.management.commands.migrate_locked import LOCK_NAME


def _postgresql() -> None:
    if connection.vendor != "postgresql":
        if os.environ.get("CI") == "true":
            pytest.fail("CI needs PostgreSQL for the migration lock")
        pytest.skip("the migration lock is PostgreSQL's")


def _connect(dbname: str | None = None) -> psycopg.Connection[Any]:
    db = connection.settings_dict
    return psycopg.connect(
        dbname=dbname or db["NAME"],
        user=db["USER"] or None,
        password=db["PASSWORD"] or None,
        host=db["HOST"] or None,
        port=db["PORT"] or None,
        autocommit=True,
    )


@pytest.fixture
def lock_held() -> Iterator[None]:
    """The migration lock, held by another session (another node migrating)."""
    _postgresql()
    with _connect() as other:
        other.execute("SELECT pg_advisory_lock(hashtext(%s))", [LOCK_NAME])
        yield


def _lock_holders() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = "
            "hashtext(%s)::oid",
            [LOCK_NAME],
        )
        return int(cursor.fetchone()[0])


@pytest.mark.django_db(transaction=True)
def test_a_taken_lock_is_waited_for_and_the_timeout_gives_up(lock_held: None) -> None:
    out = io.StringIO()
    with pytest.raises(CommandError, match="gave up after 0.3 s"):
        call_command("migrate_locked", timeout=0.3, stdout=out, verbosity=0)
    assert "the migration lock is taken: waits for another node" in out.getvalue()
    with connection.cursor() as cursor:  # the timeout was reset after the wait
        cursor.execute("SHOW lock_timeout")
        assert cursor.fetchone()[0] == "0"


@pytest.mark.django_db(transaction=True)
def test_a_free_lock_is_taken_migrate_runs_and_the_lock_is_released() -> None:
    _postgresql()
    out = io.StringIO()
    call_command("migrate_locked", stdout=out, verbosity=1)
    assert "waits for another node" not in out.getvalue()
    assert "No migrations to apply" in out.getvalue()
    assert _lock_holders() == 0


@pytest.mark.django_db(transaction=True)
def test_a_negative_timeout_is_refused() -> None:
    _postgresql()
    with pytest.raises(CommandError, match="--timeout"):
        call_command("migrate_locked", timeout=-1, verbosity=0)


def test_on_sqlite_it_is_a_plain_migrate(tmp_path: Any) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("CELERY_BROKER_URL",)}
    database = tmp_path / "db.sqlite3"
    done = subprocess.run(
        [sys.executable, "manage.py", "migrate_locked", "-v", "0"],
        cwd=REPO_ROOT,
        env={**env, "DATABASE_URL": f"sqlite:///{database}", "SECRET_KEY": "x"},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    assert database.stat().st_size > 0


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_two_nodes_starting_together_migrate_once(tmp_path: Any) -> None:
    """Two processes, started at once on an empty database: both exit 0, one waited for
    the other, and every migration is recorded exactly once."""
    _postgresql()
    name = f"{connection.settings_dict['NAME']}_migrate_locked"[:63]
    db = connection.settings_dict
    url = (
        f"postgres://{db['USER'] or 'postgres'}"
        f"{':' + db['PASSWORD'] if db['PASSWORD'] else ''}"
        f"@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{name}"
    )
    with _connect("postgres") as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        env = {k: v for k, v in os.environ.items() if k != "CELERY_BROKER_URL"}
        env.update(DATABASE_URL=url, SECRET_KEY="x")
        nodes = [
            subprocess.Popen(
                [sys.executable, "manage.py", "migrate_locked", "-v", "1"],
                cwd=REPO_ROOT,
                env=env,
                stdout=(tmp_path / f"node{n}.log").open("w"),
                stderr=subprocess.STDOUT,
            )
            for n in (1, 2)
        ]
        codes = [node.wait(timeout=600) for node in nodes]
        logs = [(tmp_path / f"node{n}.log").read_text() for n in (1, 2)]
        assert codes == [0, 0], logs
        waited = [log for log in logs if "waits for another node" in log]
        assert len(waited) == 1, logs
        assert "No migrations to apply" in waited[0], logs
        with _connect(name) as migrated:
            recorded = migrated.execute("SELECT app, name FROM django_migrations").fetchall()
        assert len(recorded) == len(set(recorded))
        assert set(recorded) == set(
            MigrationLoader(None, ignore_no_migrations=True).disk_migrations
        )
    finally:
        with _connect("postgres") as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
