"""The services a test needs (Redis, PostgreSQL, a binary), found or not: a test whose
service is missing is skipped on a developer's machine and fails in CI (`CI=true`), where
the services are there on purpose and a skip would hide that the test never ran."""

from __future__ import annotations

import os
from typing import NoReturn

import pytest
from django.conf import settings


def service_missing(reason: str) -> NoReturn:
    """Skip with `reason`; in CI (`CI=true`) fail with it instead."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI runs this test, a service is missing: {reason}")
    pytest.skip(reason)


def redis_broker() -> str:
    """CELERY_BROKER_URL when it names a Redis that answers a ping within 2 s (tasks not
    run eagerly); else `service_missing`."""
    broker = os.environ.get("CELERY_BROKER_URL", "")
    if not broker.startswith("redis") or settings.CELERY_TASK_ALWAYS_EAGER:
        service_missing("no Redis CELERY_BROKER_URL set, Celery runs eagerly")
    try:
        import redis

        redis.Redis.from_url(broker, socket_connect_timeout=2).ping()
    except Exception as exc:  # noqa: BLE001 - any failure means no broker
        service_missing(f"Redis at {broker} is not reachable: {exc}")
    return broker
