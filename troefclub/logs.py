"""Logging helpers wired in ``LOGGING`` (``troefclub/settings.py``)."""

from __future__ import annotations

import logging

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
