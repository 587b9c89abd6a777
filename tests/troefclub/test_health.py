"""/healthz and /readyz (issue 23): answered whatever the Host, over plain HTTP, without a
session; /readyz names each check and answers 503 (never 500) when one fails."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest
from django.db import connection
from django.db.utils import OperationalError
from django.test import Client
from django.utils import timezone

from scoring.selectors.health import standings_fresh, standings_stale_bound
from tests.factories import CompetitionFactory
from tournaments.models import Competition
from troefclub import health

CHECKS = {"database", "migrations", "broker", "cache", "standings"}


@pytest.fixture
def strict(settings: Any) -> None:
    """Production's refusals: no known host, HTTPS only."""
    settings.ALLOWED_HOSTS = ["troefclub.example"]
    settings.SECURE_SSL_REDIRECT = True


@pytest.fixture
def migrated_forgotten() -> Iterator[None]:
    health._migrated.clear()
    yield
    health._migrated.clear()


def test_healthz_answers_any_host_over_http_without_the_database(
    client: Client, strict: None
) -> None:
    # No django_db mark: a query would fail the test.
    response = client.get("/healthz", HTTP_HOST="10.0.0.7:8000")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert "sessionid" not in response.cookies and "csrftoken" not in response.cookies
    assert response["X-Request-ID"]


@pytest.mark.django_db
def test_readyz_is_ok_when_every_check_passes(
    client: Client,
    strict: None,
    migrated_forgotten: None,
    django_assert_max_num_queries: Any,
    settings: Any,
) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True  # no broker to reach (its own test below)
    with django_assert_max_num_queries(6):  # SELECT 1, the migration table, the standings
        response = client.get("/readyz", HTTP_HOST="10.0.0.7:8000")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"] == "ok"
    assert body["checks"] == {name: {"ok": True} for name in CHECKS}


@pytest.mark.django_db
def test_migrations_once_applied_are_not_read_again(
    client: Client, migrated_forgotten: None, django_assert_max_num_queries: Any, settings: Any
) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    assert client.get("/readyz").status_code == 200
    with django_assert_max_num_queries(2):  # SELECT 1 and the standings
        assert client.get("/readyz").status_code == 200


def _failing(response: Any, name: str) -> dict[str, Any]:
    assert response.status_code == 503, response.content
    body = response.json()
    assert body["status"] == "failing"
    assert body["checks"][name]["ok"] is False
    assert {other for other, check in body["checks"].items() if not check["ok"]} == {name}
    detail: dict[str, Any] = body["checks"][name]
    return detail


@pytest.mark.django_db
def test_a_database_down_is_a_503_naming_it(client: Client, strict: None) -> None:
    real = health.database_ready

    def down() -> str | None:
        with mock.patch.object(
            connection, "cursor", side_effect=OperationalError("connection refused")
        ):
            return real()

    with mock.patch.dict(health.health_checks(), {"database": down}):
        response = client.get("/readyz", HTTP_HOST="10.0.0.7")
    assert response.status_code == 503
    detail = response.json()["checks"]["database"]
    assert detail == {"ok": False, "detail": "check raised OperationalError"}


@pytest.mark.django_db
def test_with_the_database_down_the_checks_that_read_it_wait_no_timeout_again(
    client: Client,
) -> None:
    """A database out of reach fails its check once; the migrations and standings checks
    are not run (each would wait out the connection timeout again: 30 s for /readyz with
    a pool of 10 s), the broker's and the cache's are."""
    ran: list[str] = []

    def checked(name: str, detail: str | None) -> Any:
        def check() -> str | None:
            ran.append(name)
            return detail

        return check

    fakes = {
        "database": checked("database", "down"),
        "migrations": checked("migrations", None),
        "broker": checked("broker", None),
        "cache": checked("cache", None),
        "standings": checked("standings", None),
    }
    with mock.patch.dict(health.health_checks(), fakes):
        response = client.get("/readyz")
    assert ran == ["database", "broker", "cache"]
    body = response.json()
    assert response.status_code == 503 and list(body["checks"]) == list(fakes)
    for name in ("migrations", "standings"):
        assert body["checks"][name] == {
            "ok": False,
            "detail": "not checked: the database does not answer",
        }
    assert body["checks"]["broker"] == {"ok": True}


@pytest.mark.django_db
def test_unapplied_migrations_are_a_503_naming_them(
    client: Client, migrated_forgotten: None
) -> None:
    with mock.patch(
        "troefclub.health.MigrationExecutor.migration_plan", return_value=[("m", False)] * 2
    ):
        response = client.get("/readyz")
    assert _failing(response, "migrations")["detail"] == "2 migration(s) not applied"
    assert "default" not in health._migrated  # asked again next time


@pytest.mark.django_db
def test_a_broker_out_of_reach_is_a_503_naming_it(client: Client, settings: Any) -> None:
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:9/0"  # the discard port: refused
    settings.CELERY_TASK_ALWAYS_EAGER = False
    response = client.get("/readyz")
    assert _failing(response, "broker")["detail"].startswith("check raised ")


def test_without_a_broker_the_broker_check_passes(settings: Any) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    assert health.broker_ready() is None


@pytest.mark.django_db
def test_standings_stale_beyond_the_bound_are_a_503_naming_them(
    client: Client, settings: Any
) -> None:
    settings.STANDINGS_SWEEP_SECONDS = 30
    assert standings_stale_bound() == datetime.timedelta(seconds=2 * 30 + 60)
    now = timezone.now()
    fresh_enough, overdue = CompetitionFactory.create_batch(2)
    Competition.objects.filter(pk=fresh_enough.pk).update(
        standings_stale_since=now - datetime.timedelta(seconds=100)
    )
    assert standings_fresh() is None
    Competition.objects.filter(pk=overdue.pk).update(
        standings_stale_since=now - datetime.timedelta(seconds=300)
    )
    response = client.get("/readyz")
    detail = _failing(response, "standings")["detail"]
    assert detail.startswith("1 competition(s) stale beyond 120 s (the oldest for 30")


def test_the_checks_come_from_the_setting(settings: Any) -> None:
    assert set(settings.HEALTH_CHECKS) == CHECKS
    assert health.health_checks()["standings"] is standings_fresh
