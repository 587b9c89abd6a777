"""Issue 20: the app's PostgreSQL connections run without JIT compilation unless
DATABASE_JIT=true (a plan over `jit_above_cost` spent 0.1-1.7 s compiling a 25 ms query)."""

from __future__ import annotations

import pytest
from django.db import connection

from tests.settings_env import settings_json


def _options(**env: str) -> dict[str, object]:
    """The default database's OPTIONS as settings make them with `env` (no connection)."""
    options: dict[str, object] = settings_json(
        "settings.DATABASES['default'].get('OPTIONS', {})", **env
    )
    return options


POSTGRES = "postgres://someone@db.example:5432/troefclub"


@pytest.mark.settings_env
@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"DATABASE_URL": POSTGRES}, "-c jit=off"),
        ({"DATABASE_URL": POSTGRES, "DATABASE_JIT": "false"}, "-c jit=off"),
        ({"DATABASE_URL": POSTGRES, "DATABASE_JIT": "true"}, None),
        ({"DATABASE_URL": "sqlite:///db.sqlite3"}, None),
    ],
)
def test_postgresql_connections_turn_jit_off_unless_asked(
    env: dict[str, str], expected: str | None
) -> None:
    assert _options(**env).get("options") == expected


@pytest.mark.django_db
def test_the_connection_of_this_run_has_jit_off() -> None:
    if connection.vendor != "postgresql":
        assert "options" not in connection.settings_dict.get("OPTIONS", {})
        return
    with connection.cursor() as cursor:
        cursor.execute("SHOW jit")
        assert cursor.fetchone()[0] == "off"
