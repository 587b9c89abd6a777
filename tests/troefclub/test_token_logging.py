"""A table link's token never reaches the logs (issue 8): gunicorn's access log and
Django's request log write "/t/…" instead."""

from __future__ import annotations

import datetime
from types import SimpleNamespace
from typing import Any
from urllib.parse import unquote

import pytest
from gunicorn.config import Config

from troefclub.gunicorn_logging import TokenHidingLogger
from troefclub.logs import secrets_hidden

TOKEN = "s3cret-Token_value"

# A table link's token as a client may spell its path (raw, as on the request line): the
# server decodes it before routing, so each is a request for a table page (a 404 with a
# wrong or malformed token); deploy/haproxy.cfg's rule, "after URL-decoding, ^/+t/+[^/]+",
# masks every one (tester: //t//, %2F before or after the t leaked).
SPELLINGS = [
    "/t/SECRETtoken123/",
    "/t//SECRETtoken123/",
    "//t//SECRETtoken123/",
    "/t/%2FSECRETtoken123/",
    "/%2Ft/SECRETtoken123/",
    "/%2Ft%2F%2FSECRETtoken123%2F",
    "/%74/SECRETtoken123/",
    "/%2574/SECRETtoken123/",  # encoded twice
    "/%252Ft%252FSECRETtoken123/",
    "/t/%20SECRETtoken123/",  # the path "/t/ SECRETtoken123/": a space in the token
    "/t/%53ECRETtoken123/round/",
    "/t/SECRETtoken123%0AGET%20/forged/",  # decoded, never a new line
]
SECRET = "ECRETtoken123"


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
        *(f"GET {path} HTTP/1.1" for path in SPELLINGS),
        *(f"GET /login/?next={path} HTTP/1.1" for path in SPELLINGS),
    ],
)
def test_a_token_is_hidden_however_the_path_is_spelled(line: str) -> None:
    """The server decodes %74 and %2F before routing: /%74/<token>/ opens the table page,
    so the log must hide its token as it hides /t/<token>/ (tester, issue 23)."""
    assert "ECRETtoken123" not in secrets_hidden(line)


def _gunicorn_atoms(raw_path: str, referer: str = "-") -> dict[str, Any]:
    """gunicorn's access-log atoms of a GET of `raw_path` (PATH_INFO decoded, as gunicorn
    passes it), with `referer` as its Referer header."""
    request, response, environ = _access(raw_path, "404 Not Found")
    request.method, environ["REQUEST_METHOD"] = "GET", "GET"
    environ["PATH_INFO"] = unquote(raw_path, encoding="latin-1")
    environ["HTTP_REFERER"] = referer
    request.headers = [("REFERER", referer)]
    return TokenHidingLogger(Config()).atoms(
        response, request, environ, datetime.timedelta(seconds=0.01)
    )


@pytest.mark.parametrize("raw_path", SPELLINGS)
def test_gunicorn_access_line_hides_the_token_however_the_path_is_spelled(raw_path: str) -> None:
    atoms = _gunicorn_atoms(raw_path)
    for key, value in atoms.items():
        assert SECRET not in str(value), key
        assert "\n" not in str(value), key
    assert atoms["r"].startswith("GET /t/…") and atoms["r"].endswith(" HTTP/1.1")
    assert atoms["U"].startswith("/t/…")


@pytest.mark.parametrize("raw_path", SPELLINGS)
def test_gunicorn_access_line_hides_the_token_in_a_referer_and_next(raw_path: str) -> None:
    atoms = _gunicorn_atoms(f"/accounts/login/?next={raw_path}", f"https://troef.example{raw_path}")
    config = Config()
    config.set("access_log_format", '%(r)s "%(f)s" %({referer}i)s')
    line = config.access_log_format % atoms
    assert SECRET not in line and "\n" not in line
    assert line.startswith("GET /accounts/login/?next=/t/…")
    assert "https://troef.example/t/…" in line


@pytest.mark.django_db
@pytest.mark.parametrize("raw_path", SPELLINGS)
def test_django_request_line_hides_the_token_however_the_path_is_spelled(
    client: Any, raw_path: str
) -> None:
    import logging

    written: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            written.append(record.getMessage())

    logger = logging.getLogger("django.request")
    keep = Keep()
    logger.addHandler(keep)
    try:
        # PATH_INFO as the server decodes it (the test client would read //t/ as a host).
        response = client.get(raw_path, PATH_INFO=unquote(raw_path, encoding="latin-1"))
    finally:
        logger.removeHandler(keep)
    assert response.status_code in {404, 405}  # .../round/ takes a POST only
    assert written and ": /t/…" in written[0], written
    assert all(SECRET not in line and "\n" not in line for line in written), written
