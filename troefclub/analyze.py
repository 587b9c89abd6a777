"""Planner statistics after a bulk write (issue 20): ANALYZE every table it wrote.

PostgreSQL's autovacuum analyses a table only once enough rows changed and some time has
passed; until then the planner guesses. After an import of 98,000 rounds `scoring_round`
had no statistics, so the director's board was planned at cost 642,744: above
`jit_above_cost`, it spent 1.0–1.7 s compiling a 25 ms query. So every path that writes
many rows at once (the importer) runs ANALYZE on the tables it wrote once its transaction
has committed: the statistics then count the committed rows, and a rolled-back import
costs nothing. SQLite keeps no such statistics unless asked (`ANALYZE` would make
`sqlite_stat1`, which nothing here relies on): nothing is done there.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import connection, models, transaction


def written_tables(model_list: Iterable[type[models.Model]]) -> list[str]:
    """The tables of `model_list` and of their django-simple-history models (a bulk write
    writes the "+" records too), in order, without repeats."""
    tables: dict[str, None] = {}
    for model in model_list:
        tables[model._meta.db_table] = None
        history = getattr(model, "history", None)
        history_model = getattr(history, "model", None)
        if history_model is not None and history_model is not model:
            tables[history_model._meta.db_table] = None
    return list(tables)


def tables_analyze(*, tables: Iterable[str]) -> None:
    """ANALYZE each of `tables` (names as in the database) now; PostgreSQL only, a no-op
    elsewhere. One statement a table: ANALYZE of a big table samples a bounded number of
    rows (30,000 at the default statistics target), so it costs well under a second."""
    if connection.vendor != "postgresql":
        return
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        for table in tables:
            cursor.execute(f"ANALYZE {quote(table)}")


@dataclass(frozen=True, slots=True)
class AnalyzeOnCommit:
    """The callback `tables_analyze_on_commit` queues: ANALYZE of `tables` (a class rather
    than a lambda, so a test of what a commit queues can tell it apart)."""

    tables: tuple[str, ...]

    def __call__(self) -> None:
        tables_analyze(tables=self.tables)


def tables_analyze_on_commit(*, tables: Iterable[str]) -> None:
    """`tables_analyze(tables=…)` once the current transaction commits (at once outside
    one); never when it rolls back."""
    transaction.on_commit(AnalyzeOnCommit(tuple(tables)))
