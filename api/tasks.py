"""Celery tasks of the API: ids in (none here), one service call, safe to run twice."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.conf import settings


@shared_task(acks_late=True, ignore_result=True)
def idempotency_records_purge() -> int:
    """Delete the stored answers of keyed API writes older than API_IDEMPOTENCY_DAYS
    (`api.services.idempotency_records_purge`); run daily by celery beat. Returns how many
    were deleted; a second run the same day deletes nothing."""
    from api.services import idempotency_records_purge as purge

    return purge(older_than=timedelta(days=settings.API_IDEMPOTENCY_DAYS))
