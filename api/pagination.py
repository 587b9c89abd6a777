"""Paging of the API's lists.

`IdCursorPagination` pages by the rows' id, oldest first: a row saved between two pages
has a higher id than every row sent, so it comes on a later page; no row is skipped or
sent twice (a page number or an offset would shift under new rows). Ranked tables
(standings, rankings) are not in id order: they page with the table's "as of" stamp in
the cursor (`api.views.tables`).
"""

from __future__ import annotations

from rest_framework.pagination import CursorPagination

# A page holds at most this many rows, whatever `page_size` asks.
MAX_PAGE_SIZE = 200


class IdCursorPagination(CursorPagination):
    """Opaque `cursor` links (`next`, `previous`); `page_size` 1–200 (default 50)."""

    ordering = "id"
    page_size_query_param = "page_size"
    max_page_size = MAX_PAGE_SIZE
