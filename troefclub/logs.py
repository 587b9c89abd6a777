"""Logging helpers wired in ``LOGGING`` (``troefclub/settings.py``)."""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Mapping
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote, unquote

import pythonjsonlogger.core
import pythonjsonlogger.json
from django.core.exceptions import PermissionDenied


class PermissionDeniedWithoutTraceback(logging.Filter):
    """On ``django.request``: a refused page (``PermissionDenied`` raised, e.g. by the admin
    for a user without the permission) is logged as its one "Forbidden (Permission denied):
    /path" line. Django attaches the exception, so each ordinary 403 would otherwise write a
    full traceback, as if something had broken. Other records pass unchanged.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and isinstance(record.exc_info[1], PermissionDenied):
            record.exc_info = None
            record.exc_text = None
        return True


# The path of a table's phone page: /t/<token>/ (`scoring.views.table.table_sheet`), masked
# by the rule deploy/haproxy.cfg applies to its own log: after URL-decoding, the segment
# after a run of slashes, "t" and a run of slashes ("^/+t/+[^/]+"). The server routes a
# path as decoded, and a 404 for //t//<token>/, /t/%2F<token>/ or /%2Ft/<token>/ would
# print the token as typed; anywhere in a word, not only at its start, so `?next=/t/…`
# and a referer's `https://host/t/…` are masked too. Over-masking costs nothing: no other
# page has a /t/ segment.
_TABLE_PATH = re.compile(r"/+t/+[^/]+")
# A personal API token ("tc_" and 43 URL-safe characters, `api.services`), wherever a
# client put it by mistake (the path, the query): the API takes it from a header only.
_API_TOKEN = re.compile(r"tc_[A-Za-z0-9_-]{16,}")
# The words of a log line: a path in a request line, a referer, a query string. Split at
# whitespace only: a request line may hold a quote (/t/"<token>), never a raw space; a
# decoded word is masked as one path (/t/%20<token> is the path "/t/ <token>").
_WORD = re.compile(r"\S+")
# How many times a word is URL-decoded at most: until it no longer changes (a client or a
# proxy may encode twice: /%2574/ is /%74/ is /t/), so nothing decodes to a token unmasked.
_DECODINGS = 8


class TableTokenHidden(logging.Filter):
    """On ``django.request``: a table link's token (its secret: whoever has it scores the
    game) is replaced by "…" in the lines Django writes about a request ("Not Found:
    /t/…/" for a revoked link, a refused CSRF check), so the log can be shared; so is a
    personal API token ("tc_…") a client put in an address. An argument that is a path
    (Django's ``request.path``, decoded, so it may hold a space) is masked as one path
    (`path_hidden`), the formatted message then word by word (`secrets_hidden`).
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(field_hidden(arg) for arg in record.args)
        elif isinstance(record.args, Mapping):
            record.args = {key: field_hidden(arg) for key, arg in record.args.items()}
        record.msg = secrets_hidden(record.getMessage())
        record.args = ()
        return True


def field_hidden(value: Any) -> Any:
    """A field of a log line (an argument of Django's message, an atom of gunicorn's access
    line) without tokens: a string starting with "/" is a path, decoded and so perhaps
    holding a space, masked whole (`path_hidden`); any other string word by word
    (`secrets_hidden`); anything else as it is."""
    if not isinstance(value, str):
        return value
    return path_hidden(value) if value.startswith("/") else secrets_hidden(value)


def _decoded(text: str) -> str:
    """`text` URL-decoded until it no longer changes (at most `_DECODINGS` times)."""
    for _ in range(_DECODINGS):
        if "%" not in text:
            break
        decoded = unquote(text, errors="replace")
        if decoded == text:
            break
        text = decoded
    return text


def _loggable(text: str) -> str:
    """`text` (decoded) with what must not reach a log line raw percent-encoded again:
    whitespace (it would split the line's fields), quotes, backslashes and control
    characters (a decoded %0A would start a forged line)."""
    return "".join(
        quote(char, safe="") if char.isspace() or char in '"\\' or not char.isprintable() else char
        for char in text
    )


def path_hidden(path: str) -> str:
    """`path` (one path or URL, spaces and all) without a table link's token or an API
    token: decoded, masked ("/t/…", "tc_…"), made loggable; unchanged when it holds
    neither."""
    decoded = _decoded(path)
    masked = _API_TOKEN.sub("tc_…", _TABLE_PATH.sub("/t/…", decoded))
    return path if masked == decoded else _loggable(masked)


def _word_hidden(found: re.Match[str]) -> str:
    return path_hidden(found.group())


def secrets_hidden(text: str) -> str:
    """`text` (a log line, a field of one) without table links' tokens ("/t/…") and
    personal API tokens ("tc_…"): each word (run of characters between whitespace)
    masked as `path_hidden` masks a path; a word that holds neither is left as it was."""
    if "/" not in text and "tc" not in text and "%" not in text:
        return text
    return _WORD.sub(_word_hidden, text)


# ---------------------------------------------------------------- request ids, JSON lines
#
# LOG_FORMAT=json (settings) writes each log line as one JSON object: time (ISO 8601, UTC),
# level, logger, message, request_id (the web request's, `troefclub.request_id`), task_id
# (a Celery task's), exc_info when there is one. Django's handlers get it from LOGGING,
# gunicorn's from `troefclub.gunicorn_logging`, Celery's from the signals in
# `troefclub.celery`: `json_handlers` below.

# The id of the web request this thread (or task) is serving; set by RequestIdMiddleware.
request_id_var: ContextVar[str | None] = ContextVar("troefclub_request_id", default=None)
# gunicorn's access-log atom of the response's X-Request-ID header (`gunicorn_conf`).
ACCESS_REQUEST_ID = "{x-request-id}o"


class RequestIdFilter(logging.Filter):
    """Puts `request_id` (the request being served; on gunicorn's access line, the one of
    the response it logs) and, inside a Celery task, `task_id` on every record it sees.
    Never drops a record."""

    def filter(self, record: logging.LogRecord) -> bool:
        request_id = request_id_var.get()
        if request_id is None and isinstance(record.args, Mapping):
            found = record.args.get(ACCESS_REQUEST_ID)
            request_id = found if isinstance(found, str) and found != "-" else None
        record.request_id = request_id
        task = _current_task()
        if task is not None and getattr(task.request, "id", None):
            record.task_id = task.request.id
        return True


def _current_task() -> Any:
    if "celery" not in sys.modules:  # no task in a process without Celery
        return None
    from celery._state import get_current_task  # as Celery's own TaskFormatter

    return get_current_task()


# Attributes of a record the JSON line never carries: the request object (its repr holds the
# path, a table link's token with it), runserver's time, and Celery's `data` (the context
# its message was formatted from: the task's id and name again, and a failure's traceback a
# second time beside exc_info).
_NOT_LOGGED = ("request", "server_time", "color_message", "data")


class JsonFormatter(pythonjsonlogger.json.JsonFormatter):
    """One JSON object a line (python-json-logger) with the fields above; every value is
    passed through `secrets_hidden`, so no table link's or API token reaches any field,
    the message, an extra or a traceback alike."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("fmt", ["asctime", "levelname", "name", "message"])
        kwargs.setdefault(
            "rename_fields", {"asctime": "time", "levelname": "level", "name": "logger"}
        )
        kwargs.setdefault("reserved_attrs", [*pythonjsonlogger.core.RESERVED_ATTRS, *_NOT_LOGGED])
        super().__init__(*args, **kwargs)

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:  # noqa: N802 - logging's name
        """ISO 8601 in UTC, to the millisecond: sortable across nodes in any time zone."""
        return datetime.fromtimestamp(record.created, tz=UTC).isoformat(timespec="milliseconds")

    def process_log_record(self, log_data: dict[str, Any]) -> dict[str, Any]:
        """Every field token-free (`_token_free`)."""
        return {key: _token_free(value) for key, value in log_data.items()}


def _token_free(value: Any) -> Any:
    if value is None or isinstance(value, bool | int | float):
        return value
    return secrets_hidden(value if isinstance(value, str) else str(value))


def json_handlers(logger: logging.Logger) -> None:
    """Switch every handler of `logger` to JSON lines with the request and task ids (for
    loggers configured outside Django's LOGGING: gunicorn's, Celery's)."""
    for handler in logger.handlers:
        handler.setFormatter(JsonFormatter())
        if not any(isinstance(found, RequestIdFilter) for found in handler.filters):
            handler.addFilter(RequestIdFilter())


def logging_config(*, level: str, log_format: str) -> dict[str, Any]:
    """Django's ``LOGGING`` for `level` (a logging level name, "INFO") and `log_format`
    ("plain" or "json": one JSON object a line, `JsonFormatter`): one console handler
    carrying the request id, the table links' tokens hidden from the request logs, a
    refused page one line (settings ``LOG_LEVEL``, ``LOG_FORMAT``)."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {
            "plain": {"format": "{asctime} {levelname} {name}: {message}", "style": "{"},
            "json": {"()": "troefclub.logs.JsonFormatter"},
        },
        "filters": {
            # A refused page is one line, not a traceback (troefclub/logs.py).
            "quiet_403": {"()": "troefclub.logs.PermissionDeniedWithoutTraceback"},
            # A table link's secret stays out of the log (troefclub/logs.py).
            "table_token": {"()": "troefclub.logs.TableTokenHidden"},
            "request_id": {"()": "troefclub.logs.RequestIdFilter"},
        },
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "formatter": log_format,
                "filters": ["request_id"],
            },
        },
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            "django": {"handlers": ["console"], "level": level, "propagate": False},
            "django.request": {"filters": ["quiet_403", "table_token"]},
            # runserver's request lines (`dev.py run`): the table links' tokens hidden there too.
            "django.server": {
                "handlers": ["console"],
                "filters": ["table_token"],
                "level": "INFO",
                "propagate": False,
            },
        },
    }
