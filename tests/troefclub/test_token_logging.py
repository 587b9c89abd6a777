"""A table link's token never reaches the logs (issue 8): gunicorn's access log and
Django's request log write "/t/…" instead."""

from __future__ import annotations

import datetime
from types import SimpleNamespace
from typing import Any

import pytest
from gunicorn.config import Config

from troefclub.gunicorn_logging import TokenHidingLogger
from troefclub.logs import secrets_hidden

TOKEN = "s3cret-Token_value"


def _access(path: str, status: str = "302 Found") -> tuple[Any, Any, dict[str, str]]:
    """gunicorn's request, response and environ of a POST to `path` (as requested)."""
    request = SimpleNamespace(
        method="POST", path=path, query="x=1", uri=f"{path}?x=1", version=(1, 1), headers=[]
    )
    response = SimpleNamespace(
        status=status, status_code=int(status[:3]), headers=[], sent=0, response_length=0
    )
    environ = {
        "REQUEST_METHOD": "POST",
        "RAW_URI": f"{path}?x=1",
        "PATH_INFO": path,
        "QUERY_STRING": "x=1",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
    }
    return request, response, environ


def test_gunicorn_access_log_hides_the_token() -> None:
    logger = TokenHidingLogger(Config())
    request, response, environ = _access(f"/t/{TOKEN}/")
    atoms = logger.atoms(response, request, environ, datetime.timedelta(seconds=0.01))
    assert all(TOKEN not in str(value) for value in atoms.values())
    assert atoms["r"] == "POST /t/…/?x=1 HTTP/1.1"
    assert atoms["U"] == "/t/…/"
    # Spelled as the server still routes it to the table page (tester, issue 23).
    request, response, environ = _access(f"/%74/{TOKEN}/")
    atoms = logger.atoms(response, request, environ, datetime.timedelta(seconds=0.01))
    assert all(TOKEN not in str(value) for value in atoms.values())


def test_gunicorn_writes_no_line_for_a_passing_health_check(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The balancer's /healthz every second or two would bury the evening's requests."""
    config = Config()
    config.set("accesslog", "-")
    logger = TokenHidingLogger(config)
    written: list[str] = []
    monkeypatch.setattr(logger.access_log, "info", lambda *args, **kw: written.append("line"))
    for path, status in (("/healthz", "200 OK"), ("/healthz", "503 Unavailable"), ("/", "200 OK")):
        request, response, environ = _access(path, status)
        logger.access(response, request, environ, datetime.timedelta(seconds=0.01))
    assert len(written) == 2


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


@pytest.mark.parametrize(
    "line",
    [
        "GET /t/SECRETtoken123/ HTTP/1.1",
        "GET /%74/SECRETtoken123/ HTTP/1.1",
        "GET /t%2FSECRETtoken123%2Fround/ HTTP/1.1",
        "GET //t/SECRETtoken123/ HTTP/1.1",
        "GET /%74%2fSECRETtoken123/ HTTP/1.1",
        "GET /t/%53ECRETtoken123/ HTTP/1.1",
        "GET /login/?next=/t/SECRETtoken123/ HTTP/1.1",
    ],
)
def test_a_token_is_hidden_however_the_path_is_spelled(line: str) -> None:
    """The server decodes %74 and %2F before routing: /%74/<token>/ opens the table page,
    so the log must hide its token as it hides /t/<token>/ (tester, issue 23)."""
    assert "ECRETtoken123" not in secrets_hidden(line)
