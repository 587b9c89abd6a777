"""How the API says no: one JSON shape for every refusal, in the reader's language.

Every error answer is ``{"code": …, "message": …}`` plus, where they apply, ``"params"``
(the rule's parameters: round number, team…), ``"place"`` (where: ``{"round": 5}``,
``{"field": "tricks"}``) and ``"fields"`` (a form's errors by field). `code` is stable
(the engine's `RuleViolation` codes, RULES.md; DRF's own codes for the rest); `message`
is in the language of the request's Accept-Language (LocaleMiddleware), made by the same
`troefclub.rule_messages.rule_message` the pages use.

- a rule the write breaks: 422 (`RuleViolation`, a database trigger's refusal);
- the thing changed since the sender read it (`Conflict`): 409 with ``"current"``, the
  state to build the next try on;
- malformed input (not JSON, a field of the wrong type): 400 with ``"fields"``;
- no or a wrong token: 401; a token that may not do this: 403; unknown: 404; too many
  requests: 429 with Retry-After.
"""

from __future__ import annotations

import math
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError
from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from scoring.rules import RuleViolation
from troefclub.rule_messages import rule_message
from troefclub.writes import integrity_violation

# The params of a violation that say where, rather than what.
PLACE_PARAMS = ("matchday", "match", "game", "table", "sitting", "round", "field")


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(key): _jsonable(item) for key, item in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_jsonable(item) for item in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def violation_body(exc: RuleViolation) -> dict[str, Any]:
    """The 422 body of a rule violation: code, message (reader's language), params, place."""
    params = _jsonable(exc.params)
    return {
        "code": exc.code,
        "message": str(rule_message(exc)),
        "params": params,
        "place": {key: params[key] for key in PLACE_PARAMS if key in params},
    }


class Conflict(exceptions.APIException):
    """409: what the write was built on changed meanwhile (a stale version or token).

    `code` is the service's RuleViolation code (`game_changed_meanwhile`, …) or
    ``version_stale``; `current` is the current state of the thing (its serializer's
    data, with its version), so the sender can rebuild its write on it.
    """

    status_code = status.HTTP_409_CONFLICT
    default_code = "conflict"

    def __init__(self, *, code: str, message: str, current: Any) -> None:
        super().__init__(detail=message, code=code)
        self.body = {"code": code, "message": message, "current": current}


class Unprocessable(exceptions.APIException):
    """422 with an already made body (`violation_body`)."""

    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_code = "rule_violation"

    def __init__(self, body: dict[str, Any]) -> None:
        super().__init__(detail=body["message"], code=body["code"])
        self.body = body


def _first_code(detail: Any) -> str:
    """The first error code in a DRF error detail (nested dicts and lists)."""
    if isinstance(detail, dict):
        for item in detail.values():
            return _first_code(item)
    if isinstance(detail, list) and detail:
        return _first_code(detail[0])
    return str(getattr(detail, "code", "invalid"))


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's EXCEPTION_HANDLER (settings.REST_FRAMEWORK): every refusal in one shape."""
    if isinstance(exc, RuleViolation):
        return Response(violation_body(exc), status=status.HTTP_422_UNPROCESSABLE_ENTITY)
    if isinstance(exc, IntegrityError):
        violation = integrity_violation(exc)
        if violation is None:
            return None  # not one of our rules: a real fault, the 500 and its log
        return Response(violation_body(violation), status=status.HTTP_422_UNPROCESSABLE_ENTITY)
    if isinstance(exc, Conflict | Unprocessable):
        return Response(exc.body, status=exc.status_code)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(_("Not found."))
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response
    detail = exc.detail
    if isinstance(exc, exceptions.ValidationError):
        body: dict[str, Any] = {
            "code": _first_code(detail),
            "message": _("The request is not valid: see “fields”."),
            "fields": _jsonable(detail if isinstance(detail, dict) else {"non_field": detail}),
        }
    elif isinstance(exc, exceptions.Throttled):
        # DRF's own words ("Request was throttled…") are not in every language we speak.
        seconds = max(1, math.ceil(exc.wait or 1))
        body = {
            "code": "throttled",
            "message": ngettext(
                "Too many requests: try again in %(seconds)d second.",
                "Too many requests: try again in %(seconds)d seconds.",
                seconds,
            )
            % {"seconds": seconds},
            "params": {"retry_after": seconds},
        }
    else:
        body = {"code": _first_code(detail), "message": str(detail)}
    response.data = body
    return response
