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


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
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


def refresh_standings_if_not_eager(competition_id: int) -> None:
    """With a real broker the task waits for a worker these tests don't run: rebuild here."""
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        standings_rebuild(competition_id=competition_id)
