"""Migrated databases made once, not by every test that needs one (not named test_*).

PostgreSQL: a template for the test databases (`ensure_template`, `use_template`).
SQLite: a migrated file for the app processes tests start (`migrated_sqlite_file`), also
loaded into each worker's in-memory test database (`sqlite_memory_prefill`).

Migrating an empty database takes about 12 s of CPU (Django renders the model states of
every migration), and a parallel run migrated one test database per pytest-xdist worker.
Now the first process that needs a test database migrates one template database with
`manage.py migrate` (`ensure_template`, under a PostgreSQL advisory lock: the other
workers wait for it), named after a fingerprint of every migration file and the Django
version: `test_<NAME>_tpl_<fingerprint>`. Each test database is then created as a copy
of it (Django's `TEST: {"TEMPLATE": ...}` setting, `use_template`); pytest-django's own
`migrate` of the copy finds nothing to apply and only reruns the post-migrate steps. The
template outlives the run: the next run with the same migrations copies it at once; one
made for other migrations is dropped.

The app processes some tests start on the embedded default (SQLite) begin with an empty
migrated database; `migrated_sqlite_file` keeps one per fingerprint in the temporary
folder (made under a file lock, so parallel workers make it once), for them to copy.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import sqlite3
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path
from typing import Any
from urllib.parse import quote

import django
from django.apps import apps
from django.db import connection

ROOT = Path(__file__).resolve().parents[1]
PG_MAX_NAME = 63


def fingerprint() -> str:
    """Changes with any migration file of any installed app, or Django's version."""
    digest = hashlib.sha256(django.get_version().encode())
    for app in sorted(apps.get_app_configs(), key=lambda app: app.label):
        for path in sorted((Path(app.path) / "migrations").glob("*.py")):
            digest.update(f"{app.label}/{path.name}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def base_test_name() -> str:
    """The test database name without pytest-django's `_gw0` suffix of an xdist worker."""
    settings = connection.settings_dict
    name = str(settings["TEST"].get("NAME") or f"test_{settings['NAME']}")
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    return name.removesuffix(f"_{worker}") if worker else name


def template_name() -> str:
    suffix = f"_tpl_{fingerprint()}"
    return base_test_name()[: PG_MAX_NAME - len(suffix)] + suffix


def _admin() -> Any:
    """An autocommit connection to the server's `postgres` database."""
    import psycopg

    settings = connection.settings_dict
    return psycopg.connect(
        dbname="postgres",
        user=settings["USER"] or None,
        password=settings["PASSWORD"] or None,
        host=settings["HOST"] or None,
        port=settings["PORT"] or None,
        autocommit=True,
    )


def _url(name: str) -> str:
    settings = connection.settings_dict
    user = quote(settings["USER"] or "postgres", safe="")
    password = f":{quote(settings['PASSWORD'], safe='')}" if settings["PASSWORD"] else ""
    host = settings["HOST"] or "127.0.0.1"
    port = settings["PORT"] or 5432
    return f"postgres://{user}{password}@{host}:{port}/{name}"


def ensure_template() -> str | None:
    """The name of the migrated template, made now if it is missing; None (with a warning:
    each test database is then migrated as before) when it can't be made."""
    if connection.vendor != "postgresql":
        return None
    name = template_name()
    lock = int(hashlib.sha256(name.encode()).hexdigest()[:15], 16)  # fits a bigint
    try:
        with _admin() as admin:
            admin.execute("SELECT pg_advisory_lock(%s)", [lock])  # released as it closes
            found = admin.execute(
                "SELECT datname FROM pg_database WHERE datname LIKE %s",
                [base_test_name()[: PG_MAX_NAME - 17] + "\\_tpl\\_%"],
            ).fetchall()
            for (old,) in found:
                if old != name and "_building_" not in old:
                    # Made for other migrations. In use (another run): left for later.
                    with contextlib.suppress(Exception):
                        admin.execute(f'DROP DATABASE IF EXISTS "{old}"')
            if (name,) not in found:
                _build(admin, name)
    except Exception as exc:  # noqa: BLE001 - without a template the tests migrate as before
        warnings.warn(f"no template test database ({exc}); migrating each", stacklevel=1)
        return None
    return name


def _build(admin: Any, name: str) -> None:
    """Migrate a new database and publish it as `name` once it is complete."""
    building = f"{name[: PG_MAX_NAME - 18]}_building_{os.getpid()}"
    admin.execute(f'DROP DATABASE IF EXISTS "{building}"')
    admin.execute(f'CREATE DATABASE "{building}"')
    try:
        env = {k: v for k, v in os.environ.items() if k != "CELERY_BROKER_URL"}
        env.setdefault("SECRET_KEY", "template-db-not-secret")
        done = subprocess.run(
            [sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
            cwd=ROOT,
            env={**env, "DATABASE_URL": _url(building)},
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"migrate failed:\n{done.stdout}\n{done.stderr}")
        admin.execute(f'ALTER DATABASE "{building}" RENAME TO "{name}"')
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{building}"')


def use_template(name: str) -> None:
    """Create this process's test database as a copy of the template `name`."""
    connection.settings_dict.setdefault("TEST", {})["TEMPLATE"] = name


SQLITE_CACHE = Path(tempfile.gettempdir()) / f"troefclub-tests-{os.getuid()}"


def migrated_sqlite_file() -> Path:
    """An empty SQLite database with every migration applied, for these migrations: copy
    it, never open it in place. Made with `manage.py migrate` the first time."""
    SQLITE_CACHE.mkdir(exist_ok=True)
    path = SQLITE_CACHE / f"migrated-{fingerprint()}.sqlite3"
    with (SQLITE_CACHE / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another worker may be making it
        if not path.exists():
            for old in SQLITE_CACHE.glob("migrated-*.sqlite3*"):
                old.unlink()
            building = path.with_suffix(f".building-{os.getpid()}")
            env = {
                k: v
                for k, v in os.environ.items()
                if k not in ("CELERY_BROKER_URL", "DJANGO_SETTINGS_MODULE")
            }
            done = subprocess.run(
                [sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
                cwd=ROOT,
                env={
                    **env,
                    "DATABASE_URL": f"sqlite:///{building}",
                    "SECRET_KEY": "migrated-sqlite-not-secret",
                },
                capture_output=True,
                text=True,
                timeout=600,
                check=False,
            )
            assert done.returncode == 0, f"migrate failed:\n{done.stdout}\n{done.stderr}"
            os.replace(building, path)
    return path


# The in-memory test databases filled from the migrated file, kept open for the session: a
# shared-cache in-memory SQLite database lives as long as one connection to it is open.
_MEMORY_KEPT: list[sqlite3.Connection] = []


def sqlite_memory_prefill(connection: Any) -> None:
    """Fill this process's in-memory SQLite test database with `migrated_sqlite_file()`,
    before Django creates it: Django leaves an in-memory test database as it finds it, so
    its `migrate` then finds every migration applied and only reruns the post-migrate
    steps (about 12 s of CPU less a worker). A test database on a file is left to Django."""
    test_name = connection.creation._get_test_db_name()
    if not connection.creation.is_in_memory_db(test_name) or _MEMORY_KEPT:
        return
    memory = sqlite3.connect(test_name, uri=True, check_same_thread=False)
    with contextlib.closing(sqlite3.connect(migrated_sqlite_file())) as migrated:
        migrated.backup(memory)
    _MEMORY_KEPT.append(memory)
