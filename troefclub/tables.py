"""What every table of the pages shares (django-tables2): a sortable body with a stable tie
order, signed numbers, page links.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

import django_tables2 as tables
from django.core.paginator import EmptyPage, Page, PageNotAnInteger
from django.db.models import QuerySet
from django.http import HttpRequest
from django_tables2 import RequestConfig
from django_tables2.utils import Accessor, OrderBy

from troefclub.ordering import empties_last, sorted_empties_last

MINUS = "\u2212"

PHONE_HIDDEN = "d-none d-sm-table-cell"

# The most rows a reader may ask for in one page (`?per_page=`): more would let anyone make
# the server build megabyte pages.
PER_PAGE_MAX = 200


def _number(value: str | None, default: int) -> int:
    try:
        return int(value) if value is not None else default
    except ValueError:
        return default


def table_configure(request: HttpRequest, table: tables.Table, *, per_page: int) -> None:
    """Sort and paginate `table` from the reader's query (django-tables2's `RequestConfig`),
    with what a URL can say held within bounds: `?per_page=` between 1 and `PER_PAGE_MAX`
    (a negative one made django-tables2 raise EmptyPage, HTTP 500), a page number that is
    no number the first page, one past the end the last page. Never raises on the query.
    """
    RequestConfig(request, paginate=False).configure(table)
    wanted = _number(request.GET.get(table.prefixed_per_page_field), per_page)
    size = min(max(wanted, 1), PER_PAGE_MAX)
    page = _number(request.GET.get(table.prefixed_page_field), 1)
    try:
        table.paginate(page=page, per_page=size)
    except PageNotAnInteger:
        table.paginate(page=1, per_page=size)
    except EmptyPage:
        table.paginate(page=max(table.paginator.num_pages, 1), per_page=size)


def signed(value: int | None) -> str:
    """+42, −7, 0: a saldo with its sign (a real minus sign, not a hyphen)."""
    if not value:
        return "0"
    return f"+{value}" if value > 0 else f"{MINUS}{-value}"


class BodyTable(tables.Table):
    """A table whose template (`_body_table.html`) renders `body`: the rows of the page
    shown, each with its cells as (class, text) from `cell`. Column attributes are read
    once per column, not per cell (django-tables2's per-cell rendering cost 3 ms a row,
    issue 7). The standings and the season rankings and rating list (`rankings.tables`)."""

    # A queryset's own order after the column the reader sorts: rows tied on that column
    # keep their places, on every page and reload. Empty: no order added.
    tie_order: tuple[str, ...] = ()

    @property
    def order_by(self) -> Any:
        return tables.Table.order_by.fget(self)

    @order_by.setter
    def order_by(self, value: Any) -> None:
        """Sort as asked, then by `tie_order` (its keys the reader's sort doesn't name
        already), with empty values (NULL, None, "") last both ways (`troefclub.ordering`):
        in the database for a queryset, in Python for a list."""
        tables.Table.order_by.fset(self, value)
        rows = self.data.data
        if isinstance(rows, QuerySet):
            keys = list(rows.query.order_by)
            bare = {key.lstrip("-") for key in keys if isinstance(key, str)}
            tie = [key for key in self.tie_order if key.lstrip("-") not in bare]
            if keys or tie:  # else the model's own ordering stays
                self.data.data = rows.order_by(*empties_last([*keys, *tie]))
        elif isinstance(rows, list) and self._order_by:
            self.data.data = sorted_empties_last(rows, self._sort_keys())

    def _sort_keys(self) -> list[tuple[Callable[[Any], Any], bool]]:
        """The reader's sort of a list's rows as (value of a row, descending) pairs: each
        sorted column's `order_by` accessors, turned round for the other direction (as
        django-tables2's own list sort reads them)."""
        keys: list[tuple[Callable[[Any], Any], bool]] = []
        for alias in self._order_by:
            column = self.columns[OrderBy(alias).bare]
            turned = alias[0] != column.order_by_alias[0]
            for accessor in column.order_by.opposite if turned else column.order_by:
                path = Accessor(accessor.bare)
                keys.append((partial(path.resolve, quiet=True), accessor.is_descending))
        return keys

    def cell(self, name: str, record: Any) -> str:
        """One cell's text: the record's attribute `name`, as a string."""
        return str(getattr(record, name))

    @property
    def body(self) -> list[tuple[Any, list[tuple[str, str]]]]:
        columns = [
            (column.name, str(column.attrs.get("td", {}).get("class") or ""))
            for column in self.columns
        ]
        return [
            (record, [(css, self.cell(name, record)) for name, css in columns])
            for record in self._records()
        ]

    def _records(self) -> Iterable[Any]:
        page = getattr(self, "page", None)
        if page is None:
            return list(self.data)
        return [row.record for row in page.object_list]  # BoundRows: no cell is rendered

    @property
    def page_links(self) -> list[int | None]:
        """The page numbers to link: the first, the last and the current one with its
        neighbours; None marks a gap. Few enough for a phone's width."""
        page = getattr(self, "page", None)
        return [] if page is None else page_links(page)


def page_links(page: Page[Any]) -> list[int | None]:
    """The page numbers to link for `page`: the first, the last and the current one with its
    neighbours; None marks a gap. Few enough for a phone's width (`_pager.html`)."""
    last, current = page.paginator.num_pages, page.number
    wanted = sorted({1, last, *range(max(1, current - 1), min(last, current + 1) + 1)})
    links: list[int | None] = []
    for number in wanted:
        if links and links[-1] is not None and number - links[-1] > 1:
            links.append(None)
        links.append(number)
    return links
