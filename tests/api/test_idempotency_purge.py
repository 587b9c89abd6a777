"""The stored answers of keyed API writes are kept API_IDEMPOTENCY_DAYS, then purged."""

from datetime import timedelta

import pytest
from django.utils import timezone

from api.models import IdempotencyRecord
from api.tasks import idempotency_records_purge

pytestmark = pytest.mark.django_db


def _record(key: str, age: timedelta) -> IdempotencyRecord:
    record = IdempotencyRecord.objects.create(
        owner="user:1", key=key, method="POST", path="/api/v1/x/", request_digest="0" * 64,
        status=201, body={"ok": True},
    )  # fmt: skip
    IdempotencyRecord.objects.filter(pk=record.pk).update(created_at=timezone.now() - age)
    return record


def test_answers_older_than_the_setting_go_and_the_rest_stay(settings):
    settings.API_IDEMPOTENCY_DAYS = 30
    _record("old", timedelta(days=31))
    kept = _record("recent", timedelta(days=29))

    assert idempotency_records_purge() == 1
    assert list(IdempotencyRecord.objects.values_list("pk", flat=True)) == [kept.pk]
    assert idempotency_records_purge() == 0  # safe to run twice


def test_the_purge_is_on_the_beat_and_the_standings_queue(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["api-idempotency-records-purge"]
    assert entry["task"] == "api.tasks.idempotency_records_purge"
    assert entry["schedule"] == timedelta(days=1)
    assert settings.CELERY_TASK_ROUTES[entry["task"]] == {"queue": "standings"}
