"""Celery tasks: ids in, one service call, safe to run twice."""

from __future__ import annotations

from celery import shared_task


@shared_task(acks_late=True, ignore_result=True)
def standings_refresh(*, competition_id: int) -> int:
    """Rebuild the standings of one competition (`scoring.services.standings_rebuild`).

    Idempotent: a rerun, or a run for a deleted competition, changes nothing but the
    `computed_at` stamp. Returns the number of rows written.
    """
    from scoring.services import standings_rebuild

    return standings_rebuild(competition_id=competition_id)
