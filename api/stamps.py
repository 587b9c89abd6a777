"""The stamps of the API's public reads (`api.conditional.ConditionalMixin.stamp`): what an
answer depends on, read in ONE query however many tables it looks at.

Each part of a stamp is a one-value query (the newest id or time, a count) over an indexed
column; `stamp_read` sends them as one ``SELECT (…), (…), …``. What moves them:

- rows with a history (competitions, matches, byes, games, rounds: django-simple-history,
  issue 19): every creation, change and deletion writes a history row whose id only grows,
  so the newest history id of the rows an answer shows changes whenever one of them does
  (`history_newest`);
- clubs, players, koppels and matchdays have no history: their `updated_at` moves on every
  save and bulk_create (migration tournaments 0013); the newest `updated_at` and the count
  and newest id of the rows catch a change, an addition and a deletion (`rows_newest`);
- entries have neither: their count and newest id (an entry is added or deleted, never
  changed in a way the public reads show).

A name shown in an answer (a koppel's, a player's, a club's) is covered by `NAMES`: the
newest `updated_at` of the clubs, players and koppels (three index lookups): a rename
anywhere changes the ETag of every answer that shows names, which costs a federation site
one full answer after a rename and never shows it an old name.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from django.db import connection
from django.db.models import F, Func, Model, OuterRef, QuerySet, Subquery
from django.utils.dateparse import parse_datetime

from api.conditional import Stamp
from tournaments.models import Club, Player, Team


def _one(queryset: QuerySet[Any], function: str, field: str) -> QuerySet[Any]:
    """`function(field)` over `queryset` as a one-value query (a plain function, not an
    aggregate Django would GROUP BY; no ORDER BY)."""
    return queryset.order_by().annotate(value=Func(F(field), function=function)).values("value")


def newest(queryset: QuerySet[Any], field: str = "pk") -> QuerySet[Any]:
    """The highest `field` (default: the id) of `queryset`, as a one-value query."""
    return _one(queryset, "MAX", field)


def count(queryset: QuerySet[Any]) -> QuerySet[Any]:
    """How many rows `queryset` has, as a one-value query."""
    return _one(queryset, "COUNT", "pk")


def history_newest(model: type[Model], **lookup: Any) -> QuerySet[Any]:
    """The newest history id of `model`'s history rows matching `lookup` (e.g. ``game_id=5``:
    the rows of game 5, deleted ones too), as a one-value query."""
    history = model.history.model  # type: ignore[attr-defined]  # made by simple-history
    return newest(history.objects.filter(**lookup), "history_id")


def history_newest_at(model: type[Model], **lookup: Any) -> QuerySet[Any]:
    """When `model`'s history rows matching `lookup` last changed (the newest history date),
    as a one-value query: a Last-Modified (name its part ``…_at``)."""
    history = model.history.model  # type: ignore[attr-defined]  # made by simple-history
    return newest(history.objects.filter(**lookup), "history_date")


def rows_history_newest(rows: QuerySet[Any], model: type[Model], field: str) -> QuerySet[Any]:
    """The newest history id of `model`'s rows whose `field` is one of `rows` (e.g. the
    games of each of a matchday's matches: `field="match_id"`), as a one-value query. Each
    row of `rows` looks up its own history rows by their index on `field`, so its cost
    follows `rows`, never the size of the whole history (as `scoring.selectors.live`)."""
    history = model.history.model  # type: ignore[attr-defined]  # made by simple-history
    per_row = history.objects.filter(**{field: OuterRef("pk")})
    return (
        rows.order_by()
        .annotate(row_newest=Subquery(newest(per_row, "history_id")))
        .annotate(value=Func(F("row_newest"), function="MAX"))
        .values("value")
    )


def rows_newest(queryset: QuerySet[Any], prefix: str) -> dict[str, QuerySet[Any]]:
    """The parts that catch any change of `queryset`'s rows (a model with `updated_at`):
    their count, newest id and newest `updated_at` (named `<prefix>_at`: `stamp_read`
    takes the newest such time as Last-Modified)."""
    return {
        f"{prefix}_count": count(queryset),
        f"{prefix}_id": newest(queryset),
        f"{prefix}_at": newest(queryset, "updated_at"),
    }


def names() -> dict[str, QuerySet[Any]]:
    """The newest change of any club, player or koppel (see the module docstring)."""
    return {
        "clubs_at": newest(Club.objects.all(), "updated_at"),
        "players_at": newest(Player.objects.all(), "updated_at"),
        "koppels_at": newest(Team.objects.all(), "updated_at"),
    }


def names_version() -> str:
    """`names()` read (one query) as a version's part: for the stamps that hold no names of
    their own (standings, rankings, ratings: their stored rows name entries by id)."""
    return ":".join(str(value) for value in stamp_values(names()).values())


def _as_datetime(value: Any) -> datetime | None:
    """A time as the database cursor gives it (PostgreSQL: an aware datetime; SQLite: the
    stored text, UTC) as an aware datetime; None for anything else."""
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    if isinstance(value, str):
        parsed = parse_datetime(value)
        if parsed is not None:
            return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
    return None


def stamp_values(parts: Mapping[str, QuerySet[Any]]) -> dict[str, Any]:
    """The values of `parts` (one-value queries), read in one query: ``SELECT (q1), (q2)``."""
    sql: list[str] = []
    params: list[Any] = []
    for queryset in parts.values():
        text, values = queryset.query.sql_with_params()
        sql.append(f"({text})")
        params.extend(values)
    with connection.cursor() as cursor:
        cursor.execute("SELECT " + ", ".join(sql), params)
        row = cursor.fetchone()
    return dict(zip(parts, row, strict=True))


def stamp_read(kind: str, parts: Mapping[str, QuerySet[Any]], *extra: object) -> Stamp:
    """The `Stamp` of an answer of `kind` that depends on `parts` (one query) and on
    `extra` (values known without a query, e.g. the path's key). Its Last-Modified is the
    newest of the parts named ``…_at``, when there is one."""
    values = stamp_values(parts)
    times = [
        when
        for name, value in values.items()
        if name.endswith("_at") and (when := _as_datetime(value)) is not None
    ]
    version = ":".join(str(item) for item in (kind, *extra, *values.values()))
    return Stamp(version=version, modified=max(times, default=None))
