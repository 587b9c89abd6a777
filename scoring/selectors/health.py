"""The standings' readiness check (`/readyz`, `troefclub.health`; issue 23).

A write marks its competition's standings stale (`Competition.standings_stale_since`) and
queues a refresh that clears the mark within a second or so. When that refresh is lost
(broker down, worker killed), the sweep (`scoring.tasks.standings_refresh_stale`, every
STANDINGS_SWEEP_SECONDS = S by beat) rebuilds competitions stale for longer than S. A
sweep runs every S seconds, so a mark set just after one sweep is picked up by the second
after it at the latest: at most 2·S after the write. On top of that, GRACE_SECONDS: the
sweep waits in the standings queue behind the refreshes of a busy evening and rebuilds
its competitions one after the other, a sweep not started within S expires, and a new
beat takes over a few seconds after the old one died. Stale beyond 2·S + GRACE_SECONDS
means the repair itself is not running: no worker on the standings queue, no beat, or a
rebuild that fails every time.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db.models import Count, Min
from django.utils import timezone

from tournaments.models import Competition

GRACE_SECONDS = 60


def standings_stale_bound() -> timedelta:
    """How long a competition's standings may stay stale while the sweep works: 2·S + grace."""
    return timedelta(seconds=2 * settings.STANDINGS_SWEEP_SECONDS + GRACE_SECONDS)


def standings_fresh() -> str | None:
    """None when no competition's standings have been stale for longer than
    `standings_stale_bound()`; else how many have, and for how long the oldest. One
    query (the sweep reads the same column)."""
    bound = standings_stale_bound()
    now = timezone.now()
    overdue = Competition.objects.filter(standings_stale_since__lt=now - bound).aggregate(
        count=Count("pk"), oldest=Min("standings_stale_since")
    )
    if not overdue["count"]:
        return None
    return (
        f"{overdue['count']} competition(s) stale beyond {bound.total_seconds():.0f} s "
        f"(the oldest for {(now - overdue['oldest']).total_seconds():.0f} s)"
    )
