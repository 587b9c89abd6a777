"""Project-wide test setup, and the fixtures tests of more than one folder use (the others
go in the conftest.py of their folder; builders of scenes are in tests/builders.py)."""

import os
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import pytest
from django.db import connection
from django.test import Client, override_settings
from hypothesis import settings as hypothesis_settings

from scoring.tasks import standings_refresh
from tests.factories import league_staff

# ---------------------------------------------------------------- hypothesis profiles
#
# How many examples a @given test without its own `max_examples` tries (tests/rules/
# test_properties.py): `dev` (the default) keeps a local run quick, `ci` (the default when
# CI=true) searches deeper. HYPOTHESIS_PROFILE=dev|ci chooses. A test's own
# `@settings(max_examples=N)` is kept in every profile: its author chose that depth for what
# it searches (the fuzz tests scale theirs with FUZZ_SCALE instead).
hypothesis_settings.register_profile("dev", max_examples=50)
hypothesis_settings.register_profile("ci", max_examples=200, print_blob=True)
hypothesis_settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") == "true" else "dev")
)


@pytest.fixture(scope="session", autouse=True)
def _fast_password_hasher() -> Any:
    """Hash passwords with MD5 in this process: Django's PBKDF2 (a million iterations, about
    0.35 s a hash) made every user a factory creates and every login a test posts cost that.
    Nothing here tests the hasher; the app processes the tests start (README commands,
    backups, SQLite concurrency) keep the real one."""
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


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


@pytest.fixture
def director_client(client: Client, db: None) -> Client:
    """The test client logged in as league staff, who may direct every competition."""
    client.force_login(league_staff())
    return client


@pytest.fixture
def refreshed(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> Callable[[], AbstractContextManager[Any]]:
    """`with refreshed(): <writes>` — the writes inside run their on-commit callbacks as
    their commit would, and a `standings_refresh` they queue runs at once, as the worker
    would take it (the test's own transaction never commits, and in CI a broker is
    configured, so without this nothing would run). After the block, the stored standings
    are what the app's own refresh made of the writes."""
    monkeypatch.setattr(
        standings_refresh, "delay", lambda **kwargs: standings_refresh.apply(kwargs=kwargs)
    )
    return lambda: django_capture_on_commit_callbacks(execute=True)
