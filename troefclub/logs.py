"""Logging helpers wired in ``LOGGING`` (``troefclub/settings.py``)."""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Mapping
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

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


# The path of a table's phone page: /t/<token>/ (`scoring.views.table.table_sheet`).
# Also as a client may spell it: the server decodes %74 ("t") and %2F ("/") before routing,
# so /%74/<token>/ opens the same page while the request line shows it encoded.
_TABLE_PATH = re.compile(r"/(?:t|%74)(?:/|%2F)(?:[^/\s?%]|%(?!2F)[0-9A-F]{2})+", re.IGNORECASE)
# A personal API token ("tc_" and 43 URL-safe characters, `api.services`), wherever a
# client put it by mistake (the path, the query): the API takes it from a header only.
_API_TOKEN = re.compile(r"tc_[A-Za-z0-9_-]{16,}")


class TableTokenHidden(logging.Filter):
    """On ``django.request``: a table link's token (its secret: whoever has it scores the
    game) is replaced by "…" in the lines Django writes about a request ("Not Found:
    /t/…/" for a revoked link, a refused CSRF check), so the log can be shared; so is a
    personal API token ("tc_…") a client put in an address. The message is formatted
    once here; records without either pass unchanged.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if "/t/" in message or "tc_" in message:
            record.msg = secrets_hidden(message)
            record.args = ()
        return True


def table_path_hidden(text: str) -> str:
    """`text` with every table link's token replaced by "…" (see TableTokenHidden)."""
    return _TABLE_PATH.sub("/t/…", text)


def secrets_hidden(text: str) -> str:
    """`text` without table links' tokens ("/t/…") and personal API tokens ("tc_…")."""
    return _API_TOKEN.sub("tc_…", table_path_hidden(text))


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
