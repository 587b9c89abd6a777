"""Logging helpers wired in ``LOGGING`` (``troefclub/settings.py``)."""

from __future__ import annotations

import logging
import re

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
_TABLE_PATH = re.compile(r"/t/[^/\s?]+")
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
