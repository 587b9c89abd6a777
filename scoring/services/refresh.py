"""The standings refresh a write owes: the competition marked stale in the write's
transaction, and one `standings_refresh` task queued after the commit (coalesced).
"""

from __future__ import annotations

import logging
import threading
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from rankings.services import ratings_refresh_on_commit
from tournaments.models import Competition, StandingsRefreshClaim

logger = logging.getLogger(__name__)


def _standings_refresh_claim(competition_id: int) -> datetime | None:
    """Claim the one queued refresh of a competition (`StandingsRefreshClaim`); returns the
    claim's stamp when this caller should queue the task, None when one is queued already
    (it hasn't started, so it will see every write committed so far) or the competition is
    gone.

    Runs after the writer's commit, so it must never wait for a rebuild (a rebuild holds
    the competition row; this is another table's row). On PostgreSQL the claim row is
    skipped when locked: only a refresh task that holds the competition (and has seen every
    write committed before it got the lock: writers hold FOR KEY SHARE until they commit,
    `_standings_mark_stale`) or another claimer (whose task comes after now) lock it. A
    claim older than `STANDINGS_SWEEP_SECONDS` belongs to a task that was lost (a killed
    worker); it is taken over, so at worst one more task a sweep interval is queued.
    """
    connection = transaction.get_connection()
    now = timezone.now()
    cutoff = now - timedelta(seconds=settings.STANDINGS_SWEEP_SECONDS)
    table = connection.ops.quote_name(StandingsRefreshClaim._meta.db_table)
    stamp = connection.ops.adapt_datetimefield_value(now)
    if connection.vendor == "postgresql":
        claim = (
            f"UPDATE {table} SET queued_at = %s WHERE competition_id = ("
            f"SELECT competition_id FROM {table} WHERE competition_id = %s"
            " AND (queued_at IS NULL OR queued_at < %s) FOR UPDATE SKIP LOCKED)"
        )
    else:  # SQLite: one writer at a time, nothing to skip
        claim = (
            f"UPDATE {table} SET queued_at = %s WHERE competition_id = %s"
            " AND (queued_at IS NULL OR queued_at < %s)"
        )
    with connection.cursor() as cursor:
        cursor.execute(
            claim, [stamp, competition_id, connection.ops.adapt_datetimefield_value(cutoff)]
        )
        if cursor.rowcount == 1:
            return now
        if StandingsRefreshClaim.objects.filter(pk=competition_id).exists():
            return None
        # The competition's first refresh: its claim row is made claimed. (No task can hold
        # a row that isn't there yet; a concurrent first claimer makes it, and queues.)
        competitions = connection.ops.quote_name(Competition._meta.db_table)
        cursor.execute(
            f"INSERT INTO {table} (competition_id, queued_at) SELECT id, %s FROM {competitions}"
            " WHERE id = %s ON CONFLICT DO NOTHING",
            [stamp, competition_id],
        )
        return now if cursor.rowcount == 1 else None


def _enqueue_standings_refresh(competition_id: int) -> None:
    """After a commit: queue a `standings_refresh` unless one is queued already (the claim)."""
    from scoring.tasks import standings_refresh

    claimed = _standings_refresh_claim(competition_id)
    if claimed is None:
        return
    try:
        standings_refresh.delay(competition_id=competition_id)
    except Exception:
        # The result is saved already; the broker being down must not turn that into an
        # error page. The claim goes (so the next saved result tries again) and the mark
        # stays: the sweep, or `manage.py standings --refresh`, catches up.
        StandingsRefreshClaim.objects.filter(pk=competition_id, queued_at=claimed).update(
            queued_at=None
        )
        logger.exception("standings_refresh not queued for competition %s", competition_id)


def _standings_mark_stale(competition_id: int) -> None:
    """Set `Competition.standings_stale_since` (now) unless a refresh is owed already."""
    connection = transaction.get_connection()
    if connection.vendor == "postgresql":
        # FOR KEY SHARE waits for a rebuild of this competition that runs now (it holds the
        # row FOR UPDATE) and keeps the next one from starting before this write commits,
        # so no rebuild can miss this write and still clear its mark. It conflicts with
        # nothing else a writer takes, so the tables of an evening don't queue behind each
        # other. A mark seen under it can't be cleared before this transaction ends.
        table = connection.ops.quote_name(Competition._meta.db_table)
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT standings_stale_since FROM {table} WHERE id = %s FOR KEY SHARE",
                [competition_id],
            )
            row = cursor.fetchone()
        if row is None or row[0] is not None:
            return
    # Only the first write after a rebuild sets the mark (the oldest write still owed); the
    # condition keeps concurrent writers from overwriting each other's mark.
    Competition.objects.filter(pk=competition_id, standings_stale_since__isnull=True).update(
        standings_stale_since=timezone.now()
    )


class StandingsRefreshOnCommit:
    """The on-commit callback of `standings_refresh_on_commit`: the refresh one
    competition (`competition_id`) is owed by the writes of one transaction.

    Every write that owes it registers it (`transaction.on_commit`), and its first run after
    the commit queues the task (`_enqueue_standings_refresh`); its other runs do nothing,
    so a transaction of many writes costs one claim, not one a write. Registering it from
    each write, not only the first, keeps it owed when a savepoint holding an earlier
    registration is rolled back: Django drops the callbacks of that savepoint, and the
    writes after it register it again.
    """

    __slots__ = ("competition_id", "done")

    def __init__(self, competition_id: int) -> None:
        self.competition_id = competition_id
        self.done = False

    def __call__(self) -> None:
        if self.done:
            return
        self.done = True
        _enqueue_standings_refresh(self.competition_id)

    def __repr__(self) -> str:
        state = "run" if self.done else "pending"
        return f"<StandingsRefreshOnCommit competition={self.competition_id} {state}>"


class _RefreshesOwed(threading.local):
    """Per thread (a database connection and its transaction belong to one thread): the
    `StandingsRefreshOnCommit` of each competition that the next commit may run. Replaced
    once it has run; one whose transaction rolled back never runs and serves the next."""

    def __init__(self) -> None:
        self.by_competition: dict[int, StandingsRefreshOnCommit] = {}


_refreshes_owed = _RefreshesOwed()


def standings_refresh_on_commit(competition_id: int) -> None:
    """Mark the competition's standings stale now and, once the transaction commits, queue
    a `standings_refresh` unless one is queued already and hasn't started
    (`_standings_refresh_claim`: a burst of results queues one refresh, issue 7).

    Called by every write that can move the standings, inside its transaction (a game
    write only when `_game_refresh_needed` says it can): the mark
    (`Competition.standings_stale_since`) commits or rolls back with the write, and stays
    until a rebuild that saw the write clears it (`standings_rebuild`), so a refresh lost
    to a down broker or a killed worker is redone by the `standings_refresh_stale` sweep.

    An import or a batch of corrections in one transaction queues one refresh per
    competition, not one per round: its writes share one `StandingsRefreshOnCommit`, which
    claims and queues once after the commit. Each write marks (a query; a mark there
    already is kept) and registers the callback, so a savepoint rolled back takes only its
    own mark and registration with it.
    """
    _standings_mark_stale(competition_id)
    owed = _refreshes_owed.by_competition
    refresh = owed.get(competition_id)
    if refresh is None or refresh.done:
        refresh = owed[competition_id] = StandingsRefreshOnCommit(competition_id)
    transaction.on_commit(refresh)
    # What moves the standings can move the player ratings (issue 10): their own refresh,
    # queued after the standings' one.
    ratings_refresh_on_commit()
