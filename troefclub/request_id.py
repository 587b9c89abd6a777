"""The request id (issue 23): one id a request, in its log lines and its answer.

The load balancer (haproxy) sends `X-Request-ID`; a valid one (1-128 letters, digits and
`._:-`) is kept, so the balancer's log, gunicorn's access line and Django's lines of one
request share it; anything else is replaced by a new one (32 hex digits of a uuid4), so a
client can't write what it likes into the logs. The id is in `troefclub.logs.request_id_var`
from the middleware to the end of the answer (the JSON log lines read it) and in the answer's
`X-Request-ID` header (gunicorn's access line reads it there).
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable

from django.core.signals import request_finished
from django.http import HttpRequest, HttpResponse

from troefclub.logs import request_id_var

HEADER = "X-Request-ID"
_VALID = re.compile(r"[A-Za-z0-9._:-]{1,128}")


def request_id_of(request: HttpRequest) -> str:
    """The incoming X-Request-ID when it is valid, else a new uuid4 as 32 hex digits."""
    given = request.headers.get(HEADER, "")
    return given if _VALID.fullmatch(given) else uuid.uuid4().hex


class RequestIdMiddleware:
    """First in MIDDLEWARE: every answer, the health checks' and the errors' included,
    carries the id, and every log line written while the request is served has it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request_id = request_id_of(request)
        # Not reset on the way out: Django logs an answer of 400 or more ("Not Found: …")
        # after the middleware has returned. `request_finished` clears it.
        request_id_var.set(request_id)
        response = self.get_response(request)
        response[HEADER] = request_id
        return response


def _request_id_forgotten(**kwargs: object) -> None:
    request_id_var.set(None)


request_finished.connect(_request_id_forgotten, dispatch_uid="troefclub.request_id")
