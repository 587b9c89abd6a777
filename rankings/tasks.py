"""Celery tasks of the rankings: no arguments, one service call, safe to run twice.

Acknowledged late and given back when the worker process dies under it, as the standings
tasks (`scoring/tasks.py`): a refresh cut short runs again, and meanwhile beat runs it
every `STANDINGS_SWEEP_SECONDS` anyway.
"""

from __future__ import annotations

from celery import shared_task


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def ratings_refresh() -> int:
    """Bring the player ratings up to date (`rankings.services.ratings_refresh_queued`):
    queued after every write that can move them (`ratings_refresh_on_commit`), and run by
    beat (it catches a lost task and changes made in the admin). Idempotent: a run that
    finds nothing changed writes nothing. Returns the number of games (re)rated."""
    from rankings.services import ratings_refresh_queued

    return ratings_refresh_queued()


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def season_rankings_refresh(season: str) -> int:
    """Bring the stored rankings of `season` up to date
    (`rankings.season_refresh.season_rankings_refresh_queued`): queued after every write
    that can move them, one at a time per season (issue 20). Idempotent: a run that finds
    nothing changed writes nothing. Returns the lines written or deleted."""
    from rankings.season_refresh import season_rankings_refresh_queued

    return season_rankings_refresh_queued(season=season)


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def season_rankings_refresh_stale() -> int:
    """Beat's sweep of the season rankings (`season_refresh.season_rankings_refresh_stale`):
    seasons left stale for `STANDINGS_SWEEP_SECONDS` (a lost task, a broker that was down)
    or never computed. Returns how many seasons were refreshed."""
    from rankings.season_refresh import season_rankings_refresh_stale as sweep

    return sweep()
