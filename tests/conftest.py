"""Project-wide test setup. Fixtures go in the conftest.py of each test folder."""

import os
from typing import Any

import pytest
from django.db import connection


@pytest.fixture(scope="session", autouse=True)
def _translations_compiled() -> None:
    """Compile the Dutch catalogue (the .mo is build output) before any page is rendered."""
    from django.utils.translation import trans_real

    from troefclub.i18n import catalogues_compile

    if catalogues_compile():
        # Anything loaded before the .mo existed is stale (private caches, hence the ignores).
        trans_real._translations.clear()  # type: ignore[attr-defined]
        trans_real._default = None  # type: ignore[attr-defined]


@pytest.fixture(autouse=True)
def _language(request: pytest.FixtureRequest, settings: Any) -> None:
    """Tests read pages in English unless marked `nl`, which keeps the shipped default
    (Dutch, issue 8): most of the suite was written against the English texts, and the
    Dutch catalogue has tests of its own (tests/test_translations.py)."""
    if request.node.get_closest_marker("nl") is None:
        settings.LANGUAGE_CODE = "en"


@pytest.fixture(scope="session", autouse=True)
def _ci_runs_on_postgresql() -> None:
    """CI must test against PostgreSQL: a run that fell back to SQLite would prove little."""
    if os.environ.get("CI") == "true" and connection.vendor != "postgresql":
        pytest.exit(
            f"CI=true but the database is {connection.vendor!r}, not PostgreSQL: "
            "set DATABASE_URL=postgres://... (see .ci/run).",
            returncode=3,
        )
