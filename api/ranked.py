"""Paging of the ranked tables (standings, season rankings, ratings) by their version.

A ranked table is not in id order: a refresh may move any row to any place, so neither an
id cursor nor a page number can promise "no row skipped, none sent twice". But a stored
table changes only as a whole, when a refresh rewrites it, and each refresh stamps its
time (the table's "as of"). So the cursor holds that version and an offset: while the
version is the same, the offset finds exactly the next rows; once it changed, the next
page answers 409 `ranking_changed` with a link to the new table's first page, and the
reader starts again, knowingly.

The cursor is signed (`django.core.signing`): opaque, and one that was cut or made up is
a 400 `invalid_cursor` (`api.pagination.invalid_cursor`, as the id-paged lists answer it),
never a 500 nor another table's rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.core import signing
from django.db.models import QuerySet
from django.utils.translation import gettext as _
from rest_framework import exceptions, serializers
from rest_framework.request import Request
from rest_framework.utils.urls import remove_query_param, replace_query_param

from api.errors import Conflict
from api.pagination import MAX_PAGE_SIZE, invalid_cursor

# Rows a page unless `page_size` says otherwise: as the pages (50 rows).
RANKED_PAGE_SIZE = 50
CURSOR_SALT = "api.ranked.cursor"


class RankingChanged(Conflict):
    """409 `ranking_changed`: the table was refreshed between two pages. `first` is the
    link to the first page of the table as it is now; `current` its version."""

    def __init__(self, *, version: str, first: str) -> None:
        message = _(
            "The table was updated since the first page was read; start again from its first page."
        )
        super().__init__(code="ranking_changed", message=message, current={"version": version})
        self.body["first"] = first


@dataclass(frozen=True, slots=True)
class RankedPage:
    """One page of a ranked table: its `rows`, the links to the `next` and `previous`
    pages (None at either end) and the table's `version`."""

    rows: list[Any]
    next: str | None
    previous: str | None
    version: str


class PagingParams(serializers.Serializer):
    """The paging query parameters of a ranked table."""

    cursor = serializers.CharField(required=False, max_length=500, help_text="From `next`.")
    page_size = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_PAGE_SIZE,
        help_text=f"Rows a page, 1–{MAX_PAGE_SIZE} (default {RANKED_PAGE_SIZE}).",
    )


def query_valid(serializer_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    """The request's query parameters as `serializer_class` validates them. A parameter
    sent empty ("?ordering=") where its field allows no blank is refused too (DRF reads an
    empty form value as "not sent"; the schema says what is allowed, and so does the API).

    Raises ValidationError (400), naming the parameters.
    """
    params = serializer_class(data=request.query_params)
    blank = {
        name: [_("Give a value, or leave the parameter out.")]
        for name, field in params.fields.items()
        if request.query_params.get(name) == "" and not getattr(field, "allow_blank", False)
    }
    if blank:
        raise exceptions.ValidationError(blank)
    params.is_valid(raise_exception=True)
    return dict(params.validated_data)


def _offset_of(cursor: str, version: str, first: str) -> int:
    """The offset a `cursor` points at, if made for `version`; raises the 400 of
    `invalid_cursor` or RankingChanged."""
    try:
        made = signing.loads(cursor, salt=CURSOR_SALT)
        made_for, offset = str(made["v"]), int(made["o"])
    except (signing.BadSignature, KeyError, TypeError, ValueError) as exc:
        raise invalid_cursor() from exc
    if offset < 0:
        raise invalid_cursor()
    if made_for != version:
        raise RankingChanged(version=version, first=first)
    return offset


def _link(request: Request, version: str, offset: int) -> str:
    cursor = signing.dumps({"v": version, "o": offset}, salt=CURSOR_SALT, compress=True)
    return replace_query_param(request.build_absolute_uri(), "cursor", cursor)


def ranked_page(
    request: Request, rows: QuerySet[Any] | Sequence[Any], *, version: str
) -> RankedPage:
    """The page of `rows` (in the table's order, a queryset read a page at a time) that
    the request's `cursor` and `page_size` ask for, the table being at `version`.

    Raises ValidationError (400) for a `page_size` out of range, a 400 `invalid_cursor` for
    a cursor not made here, RankingChanged (409) for a cursor of another version.
    """
    params = query_valid(PagingParams, request)
    size: int = params.get("page_size", RANKED_PAGE_SIZE)
    first = remove_query_param(request.build_absolute_uri(), "cursor")
    cursor = params.get("cursor")
    offset = _offset_of(cursor, version, first) if cursor else 0
    # One row more than the page says whether there is a next page, without a count.
    found = list(rows[offset : offset + size + 1])
    more = len(found) > size
    if offset == 0:
        previous = None
    elif offset - size <= 0:
        previous = first
    else:
        previous = _link(request, version, offset - size)
    return RankedPage(
        rows=found[:size],
        next=_link(request, version, offset + size) if more else None,
        previous=previous,
        version=version,
    )
