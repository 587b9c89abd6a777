"""Project-wide test setup, and the fixtures tests of more than one folder use (the others
go in the conftest.py of their folder; builders of scenes are in tests/builders.py).

Parallel runs (`python3 dev.py test` uses pytest-xdist, README "Tests"): each xdist worker
gets its own test database (pytest-django's `_gw0` suffix), its own Redis database for
Celery (`pytest_configure` below) and its own temporary folders; the Dutch catalogue is
compiled once, before the workers start.
"""

import os
import warnings
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.db import connection, transaction
from django.test import Client, override_settings
from hypothesis import settings as hypothesis_settings

from scoring.tasks import standings_refresh
from tests import template_db
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

REDIS_DATABASES = 16  # redis-server's default `databases`


def worker_broker_url(url: str, worker: str) -> str:
    """The Celery broker of xdist worker `worker` ("gw0", "gw1", ...): the same Redis server,
    database number counting down from the configured one (redis://.../15: gw0 uses 15, gw1
    14, ...; wrapping to 15 below 0). A worker's tasks, and the purge a worker test starts
    with, then never meet another worker's. Other brokers are returned unchanged."""
    parts = urlsplit(url)
    if parts.scheme not in ("redis", "rediss") or not worker.startswith("gw"):
        return url
    base = int(parts.path.strip("/") or 0)
    number = (base - int(worker[2:])) % REDIS_DATABASES
    return urlunsplit(parts._replace(path=f"/{number}"))


def pytest_configure(config: pytest.Config) -> None:
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker is None:
        # The controller of a parallel run, or a serial run: compile the catalogue here,
        # once, before the workers start, so that none reads a .mo another one writes.
        compile_translations()
    elif broker := os.environ.get("CELERY_BROKER_URL"):
        # Celery reads CELERY_BROKER_URL from the environment before its settings, and the
        # worker tests pass this environment on to the Celery workers they start.
        os.environ["CELERY_BROKER_URL"] = worker_broker_url(broker, worker)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    _no_transactional_tests_beside_module_atomic(items)
    _warn_if_loadgroup_ignores_the_groups(config, items)


def _no_transactional_tests_beside_module_atomic(items: list[pytest.Item]) -> None:
    """A transactional test (it commits, then empties every table) can't run inside the
    transaction `module_atomic` keeps open around the rest of its module."""
    fixtures = {item: set(getattr(item, "fixturenames", ())) for item in items}
    shared = {item.path for item in items if "module_atomic" in fixtures[item]}
    for item in items:
        mark = item.get_closest_marker("django_db")
        if item.path in shared and (
            (mark is not None and mark.kwargs.get("transaction"))
            or {"transactional_db", "live_server"} & fixtures[item]
        ):
            raise pytest.UsageError(
                f"{item.nodeid} is transactional, in a module with `module_atomic` data"
            )


def _warn_if_loadgroup_ignores_the_groups(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Say so when `--dist loadgroup` ignores the xdist_group marks (pytest-xdist marks a
    grouped test by adding `@group` to its node id, which pytest 9.2 no longer takes:
    pytest-dev/pytest-xdist#1386). The tests still pass, each worker then paying for the
    module setup the group shares."""
    if not getattr(config.option, "loadgroup", False):
        return
    lost = [
        item.nodeid
        for item in items
        if item.get_closest_marker("xdist_group") and "@" not in item.nodeid
    ]
    if lost:
        warnings.warn(
            pytest.PytestWarning(
                f"--dist loadgroup ignores the xdist_group marks of {len(lost)} tests "
                f"(e.g. {lost[0]}): see pytest-dev/pytest-xdist#1386 (pyproject.toml pins "
                "pytest below 9.2 for it)"
            ),
            stacklevel=1,
        )


@pytest.fixture(scope="session")
def django_db_modify_db_settings(
    django_db_modify_db_settings_parallel_suffix: None, request: pytest.FixtureRequest
) -> None:
    """pytest-django's hook before it creates the test database (after the `_gw0` suffix):
    the database is made as a copy of a migrated template (tests/template_db.py), not
    migrated from nothing in every worker: on PostgreSQL a template database, on SQLite the
    migrated file loaded into the worker's in-memory test database."""
    if request.config.getoption("nomigrations", False):
        return  # a template's tables would clash with the ones made from the models
    if name := template_db.ensure_template():
        template_db.use_template(name)
    elif connection.vendor == "sqlite":
        template_db.sqlite_memory_prefill(connection)


@pytest.fixture(scope="session")
def migrated_sqlite() -> Path:
    """An empty, migrated SQLite database file for the app processes a test starts on the
    embedded default: copy it (`shutil.copyfile`), never use it in place. Made once for
    the current migrations and kept between runs (tests/template_db.py)."""
    return template_db.migrated_sqlite_file()


@pytest.fixture(autouse=True)
def _refreshes_owed_forgotten() -> None:
    """Each test starts owing no refresh (`troefclub.refresh`): a test's transaction never
    commits, so the callbacks a write registered stay in the thread's table, and the next
    test's write would take one over with its followers' keys (an extra season refresh
    queued: found when issue 22's season tests ran before the round-end budgets)."""
    from troefclub.refresh import _owed

    _owed.callbacks.clear()


@pytest.fixture(scope="session", autouse=True)
def _fast_password_hasher() -> Any:
    """Hash passwords with MD5 in this process: Django's PBKDF2 (a million iterations, about
    0.35 s a hash) made every user a factory creates and every login a test posts cost that.
    Nothing here tests the hasher; the app processes the tests start (README commands,
    backups, SQLite concurrency) keep the real one."""
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


def compile_translations() -> None:
    """Compile the Dutch catalogue (the .mo is build output) if it is missing or older than
    the .po."""
    import gettext as gettext_module

    from django.utils.translation import trans_real

    from troefclub.i18n import catalogues_compile

    if catalogues_compile():
        # Anything loaded before the .mo existed is stale (private caches, hence the ignores);
        # the standard library's gettext keeps its own copy of each .mo file it read.
        gettext_module._translations.clear()  # type: ignore[attr-defined]
        trans_real._translations.clear()  # type: ignore[attr-defined]
        trans_real._default = None  # type: ignore[attr-defined]


@pytest.fixture(scope="session", autouse=True)
def _translations_compiled() -> None:
    """The catalogue compiled before any page is rendered (`pytest_configure` did it; a
    worker of a parallel run finds it done)."""
    compile_translations()


@pytest.fixture(autouse=True)
def _language(request: pytest.FixtureRequest, settings: Any) -> None:
    """Tests read pages in English unless marked `nl`, which keeps the shipped default
    (Dutch, issue 8): most of the suite was written against the English texts, and the
    Dutch catalogue has tests of its own (tests/test_translations.py)."""
    if request.node.get_closest_marker("nl") is None:
        settings.LANGUAGE_CODE = "en"


@pytest.fixture(autouse=True)
def _cache_emptied() -> None:
    """Each test starts with an empty cache: the table-link misses one test counted for the
    client address (troefclub/secret_links.py) must not make another's link answer 429.
    Only this process' memory is emptied, never a Redis database (CACHE_URL)."""
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    if isinstance(caches["default"], LocMemCache):
        caches["default"].clear()


@pytest.fixture(scope="session", autouse=True)
def _ci_runs_on_postgresql() -> None:
    """CI must test against PostgreSQL: a run that fell back to SQLite would prove little."""
    if os.environ.get("CI") == "true" and connection.vendor != "postgresql":
        pytest.exit(
            f"CI=true but the database is {connection.vendor!r}, not PostgreSQL: "
            "set DATABASE_URL=postgres://... (see .ci/run).",
            returncode=3,
        )


@pytest.fixture(scope="module")
def module_atomic(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """One transaction around the rest of a module's tests, rolled back after its last.

    A module-scoped fixture that requests this builds its data once, in this transaction
    (unblock the database with `django_db_blocker.unblock()` to build); every test of the
    module then sees that data, and its own writes are still undone at its end, as each
    test's transaction is a savepoint inside this one (Django's `TestCase.setUpTestData`
    works the same way). Nothing is committed: on-commit callbacks of the shared data never
    run, exactly as when each test built the data itself. Only for modules without
    transactional (`transaction=True`) tests, which need to commit.
    """
    with django_db_blocker.unblock():
        atomic = transaction.atomic()
        atomic._from_testcase = True  # type: ignore[attr-defined]  # as TestCase marks its own
        atomic.__enter__()
    try:
        yield
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)


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
