"""Celery tasks of the project's own pieces: one service call each, safe to run twice."""

from __future__ import annotations

from celery import shared_task


@shared_task(acks_late=True, ignore_result=True)
def reader_cache_bumps_owed_pay() -> int:
    """Make the reader cache's bumps that a failing cache missed
    (`troefclub.reader_cache.reader_cache_bumps_owed_pay`); run by celery beat every
    STANDINGS_SWEEP_SECONDS. Returns how many scopes were bumped; a second run finds
    nothing owed and writes nothing."""
    from troefclub.reader_cache import reader_cache_bumps_owed_pay as pay

    return pay()
