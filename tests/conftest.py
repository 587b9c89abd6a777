"""Project-wide test setup. Fixtures go in the conftest.py of each test folder."""

import os

import pytest
from django.db import connection


@pytest.fixture(scope="session", autouse=True)
def _ci_runs_on_postgresql() -> None:
    """CI must test against PostgreSQL: a run that fell back to SQLite would prove little."""
    if os.environ.get("CI") == "true" and connection.vendor != "postgresql":
        pytest.exit(
            f"CI=true but the database is {connection.vendor!r}, not PostgreSQL: "
            "set DATABASE_URL=postgres://... (see .ci/run).",
            returncode=3,
        )
