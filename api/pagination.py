"""Paging of the API's lists.

`IdCursorPagination` pages by the rows' id, oldest first: a row saved between two pages
has a higher id than every row sent, so it comes on a later page; no row is skipped or
sent twice (a page number or an offset would shift under new rows). Ranked tables
(standings, rankings) are not in id order: they page with the table's "as of" stamp in
the cursor (`api.views.tables`).

A `cursor` the list did not give (edited, cut short, from another list) is malformed
input: 400 with ``fields.cursor``, not DRF's 404 (the list exists) nor a 500 (a position
that is no id reached the database).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework.exceptions import ErrorDetail, NotFound, ValidationError
from rest_framework.pagination import Cursor, CursorPagination
from rest_framework.request import Request

# A page holds at most this many rows, whatever `page_size` asks.
MAX_PAGE_SIZE = 200

# The largest id a database key holds (a signed 64-bit integer).
MAX_ID = 2**63 - 1

INVALID_CURSOR = _("This cursor is not one this list gave: start again from the first page.")


def invalid_cursor(param: str = "cursor") -> ValidationError:
    """The 400 of a cursor no list of ours gave (cut, edited, made up), for the id-paged
    lists and the ranked tables alike: code `invalid_cursor`, ``fields.cursor``."""
    return ValidationError({param: [ErrorDetail(str(INVALID_CURSOR), code="invalid_cursor")]})


class IdCursorPagination(CursorPagination):
    """Opaque `cursor` links (`next`, `previous`); `page_size` 1–200 (default 50)."""

    ordering = "id"
    page_size_query_param = "page_size"
    max_page_size = MAX_PAGE_SIZE
    invalid_cursor_message = INVALID_CURSOR

    def decode_cursor(self, request: Request) -> Cursor | None:
        """The cursor of the request, None without one. Raises ValidationError (400) for
        one this list can't have given."""
        try:
            cursor = super().decode_cursor(request)
        except NotFound:
            raise invalid_cursor(self.cursor_query_param) from None
        position = None if cursor is None else cursor.position
        if position is not None and self._by_id() and not _id_like(position):
            raise invalid_cursor(self.cursor_query_param)
        return cursor

    def _by_id(self) -> bool:
        ordering: Any = self.ordering
        first = ordering if isinstance(ordering, str) else ordering[0]
        return first.lstrip("-") in ("id", "pk")


def _id_like(position: str) -> bool:
    """Whether `position` is a number a key can hold (what an id cursor holds)."""
    text = position.strip()
    return text.isascii() and text.lstrip("-").isdigit() and abs(int(text)) <= MAX_ID
