"""ETag and Last-Modified for the API's reads, decided before the answer is built.

A federation site polls its standings every minute; most polls find nothing new. A view
with `ConditionalMixin` says in one cheap query what its answer depends on (`stamp`);
when the client's ``If-None-Match`` holds the ETag of that stamp, the answer is 304 with
no body, and nothing else is read. The ETag also covers the path, the query and the
language, so two different answers never share one.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.http import http_date, parse_etags
from django.utils.translation import get_language
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response


@dataclass(frozen=True)
class Stamp:
    """What an answer depends on: `version`, any text that changes whenever the answer
    would (ids and times of the newest rows, a computed_at), and `modified`, the time of
    the last change when it is known (Last-Modified)."""

    version: str
    modified: datetime | None = None


def etag_of(request: Request, stamp: Stamp) -> str:
    """The quoted ETag of `stamp` for this request's path, query and language."""
    seed = "\n".join((stamp.version, request.get_full_path(), get_language() or ""))
    return '"' + hashlib.sha256(seed.encode("utf-8", "surrogatepass")).hexdigest()[:32] + '"'


class NotModified(Exception):
    """Raised by `ConditionalMixin.initial`: the client has this answer already."""

    def __init__(self, etag: str, modified: datetime | None) -> None:
        super().__init__(etag)
        self.etag = etag
        self.modified = modified


class ConditionalMixin:
    """For an APIView: answer 304 to a GET whose If-None-Match holds the current ETag, and
    give every successful GET an ETag (and a Last-Modified where the stamp has one).

    Subclasses define `stamp()`; it runs after authentication and throttling, before the
    answer is built, and should be one query.
    """

    def stamp(self) -> Stamp:
        raise NotImplementedError

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)  # type: ignore[misc]
        self._etag: tuple[str, datetime | None] | None = None
        if request.method not in ("GET", "HEAD"):
            return
        stamp = self.stamp()
        etag = etag_of(request, stamp)
        self._etag = (etag, stamp.modified)
        wanted = request.headers.get("If-None-Match")
        if wanted and (wanted.strip() == "*" or etag in parse_etags(wanted)):
            raise NotModified(etag, stamp.modified)

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, NotModified):
            response = Response(status=status.HTTP_304_NOT_MODIFIED)
            response["ETag"] = exc.etag
            if exc.modified is not None:
                response["Last-Modified"] = http_date(exc.modified.timestamp())
            return response
        return super().handle_exception(exc)  # type: ignore[misc]

    def finalize_response(
        self, request: Request, response: Response, *args: Any, **kwargs: Any
    ) -> Response:
        response = super().finalize_response(request, response, *args, **kwargs)  # type: ignore[misc]
        tagged = getattr(self, "_etag", None)
        if tagged is not None and response.status_code == status.HTTP_200_OK:
            response["ETag"] = tagged[0]
            if tagged[1] is not None:
                response["Last-Modified"] = http_date(tagged[1].timestamp())
            response["Cache-Control"] = "no-cache"
        return response
