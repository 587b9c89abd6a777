"""Sorting with empty values last, whichever the direction (issue 19).

A column a reader sorts (`?sort=` on the standings, the season rankings, the rating list)
may hold nothing: no head-to-head, a player without a club. Databases disagree on where
NULL goes: PostgreSQL puts it first when descending, SQLite first when ascending; Python
can't compare None with a number at all. Here it goes last both ways, on both engines: the
rows with something to compare come first, in the order asked.

- `empties_last`: database orderings (`QuerySet.order_by` keys) with NULLs last.
- `blank_last`: a text column where "" means none (a koppel without a name), "" and NULL last.
- `sorted_empties_last`: Python rows sorted on several keys, None and "" last.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from django.db.models import F, Subquery, Value
from django.db.models.expressions import Expression, OrderBy
from django.db.models.functions import NullIf

Row = TypeVar("Row")


def _ordered(expression: Expression | F | Subquery, *, descending: bool) -> OrderBy:
    return OrderBy(expression, descending=descending, nulls_last=True)


def empties_last(keys: Iterable[Any]) -> list[OrderBy | str]:
    """`keys` of a `QuerySet.order_by` ("name", "-head_to_head", "player__club__name", an
    expression) with NULLs last, ascending and descending alike. An `OrderBy` that says
    where its NULLs go keeps its say; "?" (random) stays as it is."""
    ordering: list[OrderBy | str] = []
    for key in keys:
        if isinstance(key, str):
            if key == "?":
                ordering.append(key)
                continue
            descending = key.startswith("-")
            ordering.append(_ordered(F(key.lstrip("-")), descending=descending))
        elif isinstance(key, OrderBy):
            if key.nulls_first or key.nulls_last:
                ordering.append(key)
            else:
                ordering.append(_ordered(key.expression, descending=key.descending))
        else:
            ordering.append(_ordered(key, descending=False))
    return ordering


def blank_last(field: str, *, descending: bool = False) -> OrderBy:
    """An ordering on the text `field` with "" and NULL last: a koppel without a name
    (shown as its players' names) after the named ones, not before them."""
    return _ordered(NullIf(F(field), Value("")), descending=descending)


def is_empty(value: Any) -> bool:
    """True for None and "" (what a cell shows as "—")."""
    return value is None or value == ""


def sorted_empties_last(
    rows: Iterable[Row], keys: Sequence[tuple[Callable[[Row], Any], bool]]
) -> list[Row]:
    """`rows` sorted on `keys`, most significant first, each a (value of a row,
    descending) pair; rows whose value is None or "" go after the others on that key,
    both ways. Stable: rows equal on every key keep their order (a ranking's own)."""
    ordered = list(rows)
    for value_of, descending in reversed(keys):  # least significant first: stable passes
        filled = [row for row in ordered if not is_empty(value_of(row))]
        empty = [row for row in ordered if is_empty(value_of(row))]
        filled.sort(key=value_of, reverse=descending)  # reverse keeps equal rows in order
        ordered = filled + empty
    return ordered
