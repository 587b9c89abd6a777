"""Paging of the API's lists.

`IdCursorPagination` pages by the rows' id, oldest first: a row saved between two pages
has a higher id than every row sent, so it comes on a later page; no row is skipped or
sent twice (a page number or an offset would shift under new rows). Ranked tables
(standings, rankings) are not in id order: they page with the table's "as of" stamp in
the cursor (`api.views.tables`).
"""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import NotFound
from rest_framework.pagination import Cursor, CursorPagination
from rest_framework.request import Request

# A page holds at most this many rows, whatever `page_size` asks.
MAX_PAGE_SIZE = 200

# The highest id the database holds (a bigint): a cursor beyond it is forged.
ID_MAX = 2**63 - 1


class IdCursorPagination(CursorPagination):
    """Opaque `cursor` links (`next`, `previous`); `page_size` 1–200 (default 50)."""

    ordering = "id"
    page_size_query_param = "page_size"
    max_page_size = MAX_PAGE_SIZE

    def decode_cursor(self, request: Request) -> Any:
        """DRF's cursor, refused (404 "Invalid cursor") when its position is not an id: a
        forged cursor's text would reach the database as an id (a 500)."""
        cursor: Cursor | None = super().decode_cursor(request)
        position = None if cursor is None else cursor.position
        if position is not None and not (
            position.isascii()
            and position.isdigit()
            and len(position) <= 19
            and int(position) <= ID_MAX
        ):
            raise NotFound(self.invalid_cursor_message)
        return cursor
