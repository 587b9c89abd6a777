"""The standings refresh a write owes (`troefclub.refresh`): the competition marked stale in
the write's transaction, and one `standings_refresh` task queued after the commit, coalesced
per competition by its `StandingsRefreshClaim`.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from tournaments.models import Competition, StandingsRefreshClaim
from troefclub.reader_cache import competition_scope, reader_cache_bump_on_commit
from troefclub.refresh import RefreshQueue


def standings_mark_stale(competition_id: int) -> None:
    """Set `Competition.standings_stale_since` (now) unless a refresh is owed already; the
    competition's reader pages are bumped once the write commits (`troefclub.reader_cache`:
    every write that owes a refresh, whether it changed what they show or not)."""
    reader_cache_bump_on_commit(competition_scope(competition_id))
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


def standings_refresh_send(competition_id: int) -> None:
    """Queue the `standings_refresh` task of a competition (after the claim)."""
    from scoring.tasks import standings_refresh  # the tasks import the services

    standings_refresh.delay(competition_id=competition_id)


# A refresh task holds its competition FOR UPDATE and clears the claim under it, having seen
# every write committed before (writers hold FOR KEY SHARE until they commit,
# `standings_mark_stale`): a claim row it holds means this write is seen (busy: nothing more).
STANDINGS = RefreshQueue(
    name="standings",
    claims=StandingsRefreshClaim,
    key_column="competition_id",
    parent=Competition,
    send=standings_refresh_send,
    mark=standings_mark_stale,
    busy_queues=False,
)


def standings_refresh_on_commit(competition_id: int) -> None:
    """Mark the competition's standings stale now and, once the transaction commits, queue
    a `standings_refresh` unless one is queued already and hasn't started (the claim: a
    burst of results queues one refresh, issue 7). The queues that follow the standings
    (the player ratings, `rankings.refresh`) are asked too.

    Called by every write that can move the standings, inside its transaction (a game
    write only when `game_refresh_needed` says it can): the mark
    (`Competition.standings_stale_since`) commits or rolls back with the write, and stays
    until a rebuild that saw the write clears it (`standings_rebuild`), so a refresh lost
    to a down broker or a killed worker is redone by the `standings_refresh_stale` sweep.

    An import or a batch of corrections in one transaction queues one refresh per
    competition, not one per round: its writes share one callback, which claims and queues
    once after the commit. Each write marks (a query; a mark there already is kept) and
    registers the callback, so a savepoint rolled back takes only its own mark and
    registration with it.
    """
    STANDINGS.on_commit(competition_id)
