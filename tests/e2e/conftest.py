"""Browser tests: Debian's Chromium driven by Playwright against pytest-django's live server.

When Chromium (or Playwright) cannot start, the tests fail in CI (`CI=true`) and are
skipped elsewhere, with the reason. Screenshots go to `tests/e2e/artifacts/` (gitignored).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn

import pytest
from django.conf import settings

from scoring.services.standings import standings_rebuild

# Playwright's sync API runs an asyncio loop in the test thread; the factories and services
# then use the ORM from it, which Django refuses unless told it is safe (it is: the loop is
# Playwright's, not ours).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
PASSWORD = "pass-word-123"  # UserFactory's


def unavailable(reason: str) -> NoReturn:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason} (CI=true: the browser tests must run)")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """One Chromium for the whole run (each xdist worker has its own): starting Playwright
    and Chromium takes about two seconds, which every module paid before."""
    try:
        from playwright import sync_api as playwright_api
    except ImportError as exc:
        unavailable(f"Playwright is not installed: {exc}")
    try:
        manager = playwright_api.sync_playwright().start()
    except Exception as exc:  # noqa: BLE001 - any failure to start means "no browser here"
        unavailable(f"Playwright could not start: {exc}")
    try:
        chromium = manager.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    except Exception as exc:  # noqa: BLE001
        manager.stop()
        unavailable(f"Chromium at {CHROMIUM} could not be launched: {exc}")
    yield chromium
    chromium.close()
    manager.stop()


class BrowserOfOneTest:
    """The shared Chromium as one test sees it: the contexts (and pages) the test opens
    are closed when it ends, so none of them goes on polling the live server during the
    next test. Everything else is the Playwright Browser's."""

    def __init__(self, chromium: Any) -> None:
        self._chromium = chromium
        self._contexts: list[Any] = []

    def new_context(self, **options: Any) -> Any:
        context = self._chromium.new_context(**options)
        self._contexts.append(context)
        return context

    def new_page(self, **options: Any) -> Any:
        page = self._chromium.new_page(**options)
        self._contexts.append(page.context)
        return page

    def __getattr__(self, name: str) -> Any:
        return getattr(self._chromium, name)

    def close_contexts(self) -> None:
        for context in self._contexts:
            context.close()
        self._contexts.clear()


@pytest.fixture(autouse=True)
def _taps_as_fast_as_a_test(settings: Any) -> None:
    """Browser tests tap faster than a person: the table phone's double-tap guard
    (settings.TABLE_TAP_GUARD_MS) would take their quick second taps for one. The tests of
    the guard set it back (tests/e2e/test_table_offline.py)."""
    settings.TABLE_TAP_GUARD_MS = 0


@pytest.fixture
def browser(chromium: Any) -> Iterator[Any]:
    shared = BrowserOfOneTest(chromium)
    yield shared
    shared.close_contexts()


def refresh_standings_if_not_eager(competition_id: int) -> None:
    """With a real broker the task waits for a worker these tests don't run: rebuild here."""
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        standings_rebuild(competition_id=competition_id)
