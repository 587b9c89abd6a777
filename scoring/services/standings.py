"""Writes of the standings: the rebuild of one competition's table from its results, in a
few queries, and the refresh a saved result owes.
"""

from __future__ import annotations

import gc
import logging
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime, timedelta
from operator import attrgetter

from django.conf import settings
from django.db import transaction
from django.db.models import Case, F, When
from django.utils import timezone

from scoring.models import STANDING_COLUMNS, Standing
from scoring.rules import StandingRow
from scoring.selectors.standings import competition_table
from tournaments.models import Competition, StandingsRefreshClaim
from troefclub.reader_cache import competition_scope, reader_cache_bump_on_commit

logger = logging.getLogger(__name__)


def _standings_locked(competition_id: int) -> Competition | None:
    # Serialise rebuilds of one competition: two workers must not interleave their upserts.
    # FOR UPDATE also waits for writes that have marked the standings stale and not yet
    # committed (they hold the row FOR KEY SHARE), so the rebuild sees them.
    return Competition.objects.select_for_update().filter(pk=competition_id).first()


def _standings_write(
    competition_id: int, rows: Sequence[StandingRow], computed_at: datetime
) -> None:
    """Make `rows` the stored standings of a competition: insert the new rows, rewrite the
    rows with a changed value (stamped `computed_at`), delete the rows of entries gone.

    A row whose values are unchanged is left as it is, stamp included: after one more
    result most of a 1,000-row table stays the same, and rewriting every row took 3/4 of
    the upsert (issue 7). So `computed_at` says when a row's values were computed, and the
    table's newest stamp when it last changed; when it was last computed is
    `Competition.standings_computed_at`, and whether it is behind is the mark's job
    (`Competition.standings_stale_since`).

    PostgreSQL: one statement (each column as an array literal, `unnest`, a deleting CTE,
    INSERT … ON CONFLICT): no model instances, no per-value adaptation (`bulk_create` of
    1,000 `Standing`s took 0.35 s). SQLite: a delete and one prepared upsert, executemany.
    """
    connection = transaction.get_connection()
    quote = connection.ops.quote_name
    table = quote(Standing._meta.db_table)
    # The model's fields of the same names, whose columns are named as the fields are.
    columns = [quote(name) for name in STANDING_COLUMNS]
    names = ", ".join(columns)
    stamped = [*columns, quote("computed_at")]
    refresh = ", ".join(f"{column} = excluded.{column}" for column in stamped)
    stored = ", ".join(f"{table}.{column}" for column in columns)
    computed = ", ".join(f"excluded.{column}" for column in columns)
    differs = "IS DISTINCT FROM" if connection.vendor == "postgresql" else "IS NOT"
    upsert = (
        f"ON CONFLICT (competition_id, entry_id) DO UPDATE SET {refresh}"
        f" WHERE ({stored}) {differs} ({computed})"
    )
    stamp = connection.ops.adapt_datetimefield_value(computed_at)
    values = list(map(attrgetter("entry", *STANDING_COLUMNS), rows))
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # Each column as one array literal ("{3,1,NULL}"), made by one %-format: psycopg
            # adapting 16,000 Python ints one by one took longer than the upsert itself. The
            # values are ints or None (head_to_head), so "None" is only ever a whole element.
            literal = "{" + ",".join(["%s"] * len(values)) + "}"
            arrays = [
                (literal % column).replace("None", "NULL") for column in zip(*values, strict=True)
            ] or ["{}"] * (len(columns) + 1)
            unnest = ", ".join(["%s::integer[]"] * len(arrays))
            # The unchanged rows are left out by one hash join with the stored rows before
            # the upsert: ON CONFLICT finding and skipping them one by one took 4.6 µs a row
            # (issue 7). The upsert's own filter stays for a row stored meanwhile.
            old = ", ".join(f"old.{column}" for column in columns)
            fresh = ", ".join(f"new.{column}" for column in columns)
            cursor.execute(
                f"WITH new (entry_id, {names}) AS (SELECT * FROM unnest({unnest})), "
                f"gone AS (DELETE FROM {table} WHERE competition_id = %s"
                " AND entry_id NOT IN (SELECT entry_id FROM new)) "
                f"INSERT INTO {table} (competition_id, computed_at, entry_id, {names}) "
                f"SELECT %s, %s, new.* FROM new LEFT JOIN {table} old"
                " ON old.competition_id = %s AND old.entry_id = new.entry_id"
                f" WHERE old.entry_id IS NULL OR ({old}) IS DISTINCT FROM ({fresh}) {upsert}",
                [*arrays, competition_id, competition_id, stamp, competition_id],
            )
            return
        Standing.objects.filter(competition_id=competition_id).exclude(
            entry_id__in=[value[0] for value in values]
        ).delete()
        marks = ", ".join(["%s"] * (len(columns) + 3))
        cursor.executemany(
            f"INSERT INTO {table} (competition_id, computed_at, entry_id, {names}) "
            f"VALUES ({marks}) {upsert}",
            [(competition_id, stamp, *value) for value in values],
        )


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector for one rebuild.

    A rebuild at 1,000 koppels makes some 40,000 short-lived objects (a score and an outcome
    per match, rows, lists), none in a reference cycle: reference counting frees them all.
    Their allocation set off dozens of collections, and about one full collection of the
    whole worker heap (Django, Celery) a rebuild, a fifth of its time (issue 7). Collection
    resumes, and catches up, when the rebuild is done.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _standings_store(competition: Competition) -> int:
    """Compute and store the standings of locked `competition`; compare-and-clear its mark."""
    seen = competition.standings_stale_since
    now = timezone.now()
    with _collector_paused():
        rows = competition_table(competition=competition)
        _standings_write(competition.pk, rows, now)
    # The stamp the page shows as "as of", and the mark compare-and-cleared: a write marked
    # after this rebuild started (a new value) stays owed.
    Competition.objects.filter(pk=competition.pk).update(
        standings_computed_at=now,
        standings_stale_since=Case(
            When(standings_stale_since=seen, then=None), default=F("standings_stale_since")
        ),
    )
    reader_cache_bump_on_commit(competition_scope(competition.pk))  # "as of" moved at least
    return len(rows)


@transaction.atomic
def standings_rebuild(*, competition_id: int) -> int:
    """Recompute a competition's standings from its finished matches; returns rows written.

    Always rebuilds (an import, `manage.py standings --refresh`, the stale sweep); a queued
    refresh goes through `standings_refresh_owed`. A handful of queries whatever the size:
    the competition locked, entries, one aggregate of the matches' games, byes, deductions,
    one upsert, the mark cleared. Running it twice changes nothing the second time (rows
    are rewritten only when a value changed, `_standings_write`). A competition that no
    longer exists is nothing to do (a task queued before a delete), and returns 0.

    Clears `Competition.standings_stale_since` only if it still holds the value this
    rebuild saw when it started (compare-and-clear): a write marked after that start stays
    owed, and the next refresh or sweep picks it up.
    """
    competition = _standings_locked(competition_id)
    if competition is None:
        return 0
    return _standings_store(competition)


@transaction.atomic
def standings_refresh_owed(*, competition_id: int) -> int:
    """What a queued `standings_refresh` task does: release the competition's claim
    (`StandingsRefreshClaim`) and rebuild the standings if a write still owes it.

    Returns the rows written; 0 when nothing is owed (`standings_stale_since` is empty once
    the competition is locked: the rebuild before this one saw every write, about two
    queries) or the competition is gone.

    The claim is released under the competition lock, in this transaction: until this task
    holds the competition, writes committing meanwhile queue nothing (this task will see
    them); from then on they wait for it (`standings_mark_stale`) and, once it commits,
    queue the next one. So a competition has at most one refresh running and one queued,
    however many results arrive (issue 7).
    """
    competition = _standings_locked(competition_id)
    StandingsRefreshClaim.objects.filter(pk=competition_id, queued_at__isnull=False).update(
        queued_at=None
    )
    if competition is None or competition.standings_stale_since is None:
        return 0
    return _standings_store(competition)


def standings_catch_up_due(*, stale_since: datetime | None) -> bool:
    """Whether standings marked stale at `stale_since` (None: not stale) are owed the
    catch-up of `standings_catch_up`: only without a broker (Celery eager), and only once
    stale for longer than `settings.STANDINGS_SWEEP_SECONDS`. No query."""
    if not settings.CELERY_TASK_ALWAYS_EAGER or stale_since is None:
        return False
    return timezone.now() - stale_since >= timedelta(seconds=settings.STANDINGS_SWEEP_SECONDS)


def standings_catch_up(*, competition: Competition) -> bool:
    """The beat sweep's job where there is no beat: the embedded default (Celery eager).

    Rebuilds `competition`'s standings when they have owed a refresh for longer than
    `settings.STANDINGS_SWEEP_SECONDS` (an inline refresh that failed leaves the mark, and
    nothing else would clear it until the next result). Called by the standings page;
    with a broker configured it does nothing, the `standings_refresh_stale` sweep does it.
    Returns whether it rebuilt; a failing rebuild is logged and the page shows the mark.
    """
    if not standings_catch_up_due(stale_since=competition.standings_stale_since):
        return False
    try:
        standings_rebuild(competition_id=competition.pk)
    except Exception:
        logger.exception("stale standings of competition %s not rebuilt", competition.pk)
        return False
    competition.refresh_from_db(fields=["standings_stale_since", "standings_computed_at"])
    return True
