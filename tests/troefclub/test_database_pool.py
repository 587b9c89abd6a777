"""DATABASE_POOL_SIZE (issue 23): Django's psycopg pool of at most N connections per
process on PostgreSQL; unset or 0, the persistent connections as before; refused on SQLite
and for a negative size."""

from __future__ import annotations

import pytest

from tests.settings_env import settings_json, settings_process

POSTGRES = "postgres://someone@db.example:5432/troefclub"
DATABASE = (
    "{k: v for k, v in settings.DATABASES['default'].items() if k in ('CONN_MAX_AGE', 'OPTIONS')}"
)
DATABASE_KEYS = (
    "{k: settings.DATABASES['default'][k] for k in ('CONN_MAX_AGE', 'CONN_HEALTH_CHECKS')}"
)
POOL = "settings.DATABASES['default']['OPTIONS'].get('pool')"

pytestmark = pytest.mark.settings_env  # every test reads the settings in a fresh process


def test_a_pool_size_turns_on_django_s_psycopg_pool() -> None:
    pool = settings_json(POOL, DATABASE_URL=POSTGRES, DATABASE_POOL_SIZE="8")
    assert pool == {"min_size": 1, "max_size": 8, "timeout": 5}
    database = settings_json(
        DATABASE_KEYS, DATABASE_URL=POSTGRES, DATABASE_POOL_SIZE="8", CONN_MAX_AGE="60"
    )
    # Django's pool refuses persistent connections; the health checks make it check each
    # connection it lends (a restarted server's dead ones are replaced).
    assert database == {"CONN_MAX_AGE": 0, "CONN_HEALTH_CHECKS": True}


@pytest.mark.parametrize("size", [None, "0"])
def test_no_pool_size_keeps_the_persistent_connections(size: str | None) -> None:
    env = {"DATABASE_URL": POSTGRES} | ({} if size is None else {"DATABASE_POOL_SIZE": size})
    database = settings_json(DATABASE, **env)
    assert "pool" not in database["OPTIONS"]
    assert database["CONN_MAX_AGE"] == 60


@pytest.mark.parametrize(
    "env",
    [
        {"DATABASE_URL": "sqlite:///db.sqlite3", "DATABASE_POOL_SIZE": "4"},
        {"DATABASE_POOL_SIZE": "4"},  # the embedded default: SQLite
        {"DATABASE_URL": POSTGRES, "DATABASE_POOL_SIZE": "-1"},
    ],
)
def test_a_pool_is_refused_on_sqlite_and_for_a_negative_size(env: dict[str, str]) -> None:
    done = settings_process("pass", **env)
    assert done.returncode != 0
    assert "ImproperlyConfigured: DATABASE_POOL_SIZE=" in done.stderr
    assert "a pool needs PostgreSQL (DATABASE_URL) and a size of 1 or more" in done.stderr
