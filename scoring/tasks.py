"""Celery tasks: ids in, one service call, safe to run twice.

Both tasks acknowledge late and give their message back when the worker process dies
under them (`acks_late`, `reject_on_worker_lost`): a refresh cut short by a killed worker
runs again instead of being lost. Redis hands an unacknowledged message to another worker
only after the broker's visibility timeout (settings, celery section); until then the
`standings_refresh_stale` sweep covers it.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from django.conf import settings

logger = logging.getLogger(__name__)


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def standings_refresh(*, competition_id: int) -> int:
    """Rebuild the standings of one competition if a saved result still owes it
    (`scoring.services.standings.standings_refresh_owed`).

    Queued once per burst of results, after their commits (`standings_refresh_on_commit`,
    the claim in `StandingsRefreshClaim`): a competition has at most one refresh running
    and one queued. Idempotent: a rerun, a run that finds the standings fresh, or a run for
    a deleted competition writes nothing. Returns the number of rows written (0: nothing
    was owed).
    """
    from scoring.services.playoffs import playoff_advance_after_refresh
    from scoring.services.standings import standings_refresh_owed

    written = standings_refresh_owed(competition_id=competition_id)
    # A play-off stage's winners move on with the results (issue 22): after the rebuild,
    # outside its transaction, so a bracket problem never holds up the standings (it is
    # logged; the director's play-off page brings the bracket up to date again).
    # Only when the rebuild moved a row: a result that counts moves the stage's table, and
    # a refresh that finds the standings fresh stays two queries.
    try:
        if written:
            playoff_advance_after_refresh(competition_id=competition_id)
    except Exception:
        logger.exception(
            "play-off bracket of competition %s not brought up to date", competition_id
        )
    return written


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def standings_refresh_stale() -> int:
    """Rebuild every competition whose standings have owed a refresh for longer than
    `settings.STANDINGS_SWEEP_SECONDS` (run by celery beat every that many seconds).

    Catches refreshes that were never queued (broker down when the result was saved) or
    never finished (worker or database connection lost). Rebuilds run here, one after the
    other, rather than as queued `standings_refresh` tasks, so sweeps can't pile up
    refreshes behind a slow worker; a failing competition is logged and doesn't hold up
    the others. Idempotent: a competition rebuilt meanwhile is no longer stale. Returns
    the number of competitions rebuilt.
    """
    from scoring.selectors.standings import competitions_standings_stale
    from scoring.services.playoffs import playoff_advance_after_refresh
    from scoring.services.standings import standings_rebuild

    stale_for = timedelta(seconds=settings.STANDINGS_SWEEP_SECONDS)
    rebuilt = 0
    for competition_id in competitions_standings_stale(stale_for=stale_for):
        try:
            standings_rebuild(competition_id=competition_id)
            # A lost refresh of a play-off stage owed its bracket too (issue 22).
            playoff_advance_after_refresh(competition_id=competition_id)
        except Exception:
            logger.exception("stale standings of competition %s not rebuilt", competition_id)
        else:
            rebuilt += 1
    if rebuilt:
        logger.info("rebuilt the stale standings of %s competition(s)", rebuilt)
    return rebuilt
