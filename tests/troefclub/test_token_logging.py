"""A table link's token never reaches the logs (issue 8): gunicorn's access log and
Django's request log write "/t/…" instead."""

from __future__ import annotations

import datetime
from types import SimpleNamespace

import pytest
from gunicorn.config import Config

from troefclub.gunicorn_logging import TokenHidingLogger

TOKEN = "s3cret-Token_value"


def test_gunicorn_access_log_hides_the_token() -> None:
    logger = TokenHidingLogger(Config())
    request = SimpleNamespace(
        method="POST",
        path=f"/t/{TOKEN}/",
        query="x=1",
        uri=f"/t/{TOKEN}/?x=1",
        version=(1, 1),
        headers=[],
    )
    response = SimpleNamespace(status="302 Found", headers=[], sent=0, response_length=0)
    environ = {
        "REQUEST_METHOD": "POST",
        "RAW_URI": f"/t/{TOKEN}/?x=1",
        "PATH_INFO": f"/t/{TOKEN}/",
        "QUERY_STRING": "x=1",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
    }
    atoms = logger.atoms(response, request, environ, datetime.timedelta(seconds=0.01))
    assert all(TOKEN not in str(value) for value in atoms.values())
    assert atoms["r"] == "POST /t/…/?x=1 HTTP/1.1"
    assert atoms["U"] == "/t/…/"


def test_runserver_request_lines_hide_the_token(caplog: pytest.LogCaptureFixture) -> None:
    import logging

    with caplog.at_level(logging.INFO, logger="django.server"):
        logger = logging.getLogger("django.server")
        for handler_filter in logger.filters:
            assert isinstance(handler_filter, logging.Filter)
            assert handler_filter.filter(
                record := logging.LogRecord(
                    "django.server",
                    logging.INFO,
                    __file__,
                    1,
                    '"%s" %s',
                    (f"GET /t/{TOKEN}/", 200),
                    None,
                )
            )
            assert TOKEN not in record.getMessage()
        assert logger.filters, "django.server has the token filter"
