"""Tokens never in logs or URLs (issue 21): a request with a personal API token in its
Authorization header that fails (401, 404, a fault's 500) leaves no trace of the token in
any log record, nor in the error report Django would mail; a token in the query string
(`?token=`, `?access_token=`) authenticates nothing; the access log hides the headers
that carry tokens and a token put in an address."""

from __future__ import annotations

import datetime
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from types import SimpleNamespace
from typing import Any

import pytest
from django.views.debug import ExceptionReporter
from gunicorn.config import Config
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

from api.auth import ApiTokenAuthentication
from api.models import ApiToken
from api.services import api_token_create
from api.views.entities import ClubList
from tests.factories import UserFactory
from troefclub.gunicorn_logging import TokenHidingLogger

pytestmark = pytest.mark.django_db


class _Everything(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextmanager
def every_log_record() -> Iterator[list[logging.LogRecord]]:
    """Every record any logger writes meanwhile (root, django, django.request, …: some
    don't propagate), whatever the levels; the filters of the loggers still run."""
    handler = _Everything()
    names = [None, *logging.Logger.manager.loggerDict]
    loggers = [logging.getLogger(name) for name in names]
    loggers = [logger for logger in loggers if isinstance(logger, logging.Logger)]
    levels = {logger: logger.level for logger in loggers}
    for logger in loggers:
        logger.addHandler(handler)
        logger.setLevel(logging.DEBUG)
    try:
        yield handler.records
    finally:
        for logger in loggers:
            logger.removeHandler(handler)
            logger.setLevel(levels[logger])


def written(record: logging.LogRecord) -> str:
    """All a handler could write of `record`: the formatted line with its traceback, every
    attribute, and for a request's error the report Django mails (`ExceptionReporter`)."""
    text = logging.Formatter("%(name)s %(levelname)s %(message)s").format(record)
    text += repr(vars(record))
    request = getattr(record, "request", None)
    if request is not None and record.exc_info:
        text += ExceptionReporter(request, *record.exc_info).get_traceback_text()
    return text


def _token() -> str:
    _row, plain = api_token_create(user=UserFactory.create(), name="website")
    return plain


def test_a_refused_token_is_in_no_log(client):
    unknown = "tc_" + "A" * 43

    with every_log_record() as records:
        answer = client.get("/api/v1/clubs/", HTTP_AUTHORIZATION=f"Bearer {unknown}")

    assert answer.status_code == 401
    assert records, "the 401 was logged"
    assert all(unknown not in written(record) for record in records)


def test_a_token_is_in_no_log_of_a_404(client):
    plain = _token()

    with every_log_record() as records:
        answer = client.get("/api/v1/clubs/nope/", HTTP_AUTHORIZATION=f"Bearer {plain}")
        unknown = client.get("/api/v1/no-such-thing/", HTTP_AUTHORIZATION=f"Bearer {plain}")

    assert answer.status_code == unknown.status_code == 404
    assert unknown.json()["code"] == "not_found"
    assert any(record.name == "django.request" for record in records)
    assert all(plain not in written(record) for record in records)


def test_a_token_is_in_no_log_or_error_report_of_a_fault(client, monkeypatch):
    plain = _token()

    def broken(self: Any) -> Any:
        raise RuntimeError("the database went away")

    monkeypatch.setattr(ClubList, "get_queryset", broken)
    client.raise_request_exception = False
    with every_log_record() as records:
        answer = client.get("/api/v1/clubs/", HTTP_AUTHORIZATION=f"Bearer {plain}")

    assert answer.status_code == 500
    assert answer.json()["code"] == "server_error"
    errors = [record for record in records if record.exc_info]
    assert errors, "the fault was logged with its traceback"
    assert all(plain not in written(record) for record in records)


def test_a_token_put_in_an_address_is_hidden_in_the_request_log(client):
    plain = _token()

    with every_log_record() as records:
        client.get(f"/api/v1/clubs/{plain}/")

    assert any("tc_…" in record.getMessage() for record in records)
    assert all(plain not in record.getMessage() for record in records)


@pytest.mark.parametrize("name", ["token", "access_token", "api_key", "bearer"])
def test_a_token_in_the_query_authenticates_nothing(client, name):
    _row, plain = api_token_create(user=UserFactory.create(), name="website")

    answer = client.get(f"/api/v1/clubs/?{name}={plain}")
    request = Request(APIRequestFactory().get(f"/api/v1/clubs/?{name}={plain}"))

    assert answer.status_code == 200  # a public read, as anybody
    assert ApiTokenAuthentication().authenticate(request) is None
    assert ApiToken.objects.get().last_used_at is None  # never taken as used


def test_the_access_log_hides_the_token_headers_and_a_token_in_an_address():
    plain = "tc_" + "b" * 43
    logger = TokenHidingLogger(Config())
    headers = [("AUTHORIZATION", f"Bearer {plain}"), ("COOKIE", "sessionid=abc")]
    request = SimpleNamespace(headers=headers)
    response = SimpleNamespace(status="401 Unauthorized", headers=[], sent=0, response_length=0)
    environ = {
        "REQUEST_METHOD": "GET",
        "RAW_URI": f"/api/v1/clubs/?access_token={plain}",
        "PATH_INFO": "/api/v1/clubs/",
        "QUERY_STRING": f"access_token={plain}",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_AUTHORIZATION": f"Bearer {plain}",
        "HTTP_COOKIE": "sessionid=abc",
    }

    atoms = logger.atoms(response, request, environ, datetime.timedelta(seconds=0.01))

    assert all(plain not in str(value) for value in atoms.values())
    assert all("sessionid" not in str(value) for value in atoms.values())
    assert atoms["r"] == "GET /api/v1/clubs/?access_token=tc_… HTTP/1.1"
    assert atoms["{authorization}i"] == "…"
