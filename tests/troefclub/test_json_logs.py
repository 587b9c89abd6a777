"""Request ids and LOG_FORMAT=json (issue 23): every answer carries X-Request-ID (a valid
incoming one kept), every log line of a request names it, and no table link's or API token
reaches any field of a JSON line: Django's lines in-process, gunicorn's (access and error)
and Django's in a real gunicorn, Celery's through its logging signals."""

from __future__ import annotations

import io
import json
import logging
import os
import re
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.test import Client

from scoring.services.table import game_links_ensure
from tests.app_process import free_port, wait_for_http
from tests.factories import GameFactory
from tests.paths import REPO_ROOT
from troefclub.celery import json_logs_when_asked
from troefclub.logs import JsonFormatter, RequestIdFilter, request_id_var

HEX32 = re.compile(r"[0-9a-f]{32}")
API_TOKEN = "tc_" + "A" * 43


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("haproxy-7F3A:0042_1733200000.123", True),
        ("x" * 128, True),
        ("x" * 129, False),
        ("two words", False),
        ("/t/secret/", False),
        ("", False),
    ],
)
def test_a_valid_request_id_is_kept_any_other_replaced(
    client: Client, given: str, kept: bool
) -> None:
    response = client.get("/healthz", HTTP_X_REQUEST_ID=given)
    if kept:
        assert response["X-Request-ID"] == given
    else:
        assert HEX32.fullmatch(response["X-Request-ID"])


@pytest.mark.django_db
def test_every_answer_carries_its_request_id_and_the_next_request_a_new_one(
    client: Client,
) -> None:
    first = client.get("/no-such-page/")
    second = client.get("/no-such-page/")
    assert first.status_code == second.status_code == 404
    assert HEX32.fullmatch(first["X-Request-ID"])
    assert first["X-Request-ID"] != second["X-Request-ID"]
    assert request_id_var.get() is None  # forgotten once the request is finished


@pytest.fixture
def json_lines() -> Any:
    """Django's loggers also write to a JSON handler here; yields the parsed lines."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    handler.addFilter(RequestIdFilter())
    handler.setLevel(logging.INFO)
    for name in ("django",):  # django.request propagates to it
        logging.getLogger(name).addHandler(handler)

    def lines() -> list[dict[str, Any]]:
        return [json.loads(line) for line in stream.getvalue().splitlines()]

    yield lines
    for name in ("django",):  # django.request propagates to it
        logging.getLogger(name).removeHandler(handler)


@pytest.mark.django_db
def test_django_s_json_line_has_the_request_id_and_no_token(
    client: Client, json_lines: Any
) -> None:
    response = client.get(f"/t/s3cret-Token_value/?key={API_TOKEN}", HTTP_X_REQUEST_ID="req-1")
    assert response.status_code == 404
    [line] = [line for line in json_lines() if line["logger"] == "django.request"]
    assert line["request_id"] == "req-1"
    assert line["level"] == "WARNING"
    assert line["message"] == "Not Found: /t/…/"
    assert {"time", "level", "logger", "message", "request_id"} <= set(line)
    text = json.dumps(line, ensure_ascii=False)
    assert "s3cret" not in text and API_TOKEN not in text


def test_every_field_is_token_free_the_traceback_and_extras_too() -> None:
    record = logging.LogRecord("x", logging.ERROR, __file__, 1, "saving %s", ("/t/s3cret/",), None)
    try:
        raise ValueError(f"bad token {API_TOKEN}")
    except ValueError:
        record.exc_info = sys.exc_info()
    record.path = "/t/s3cret/sheet/"
    record.request = object()  # Django's request: never a field
    line = JsonFormatter().format(record)
    assert "s3cret" not in line and API_TOKEN not in line
    parsed = json.loads(line)
    assert parsed["message"] == "saving /t/…/"
    assert "request" not in parsed and "tc_…" in parsed["exc_info"]


def test_celery_s_handlers_become_json_with_the_task_id(settings: Any) -> None:
    settings.LOG_FORMAT = "json"
    logger = logging.Logger("celery-like")
    stream = io.StringIO()
    logger.addHandler(logging.StreamHandler(stream))
    json_logs_when_asked(logger=logger)

    class Task:
        request = type("Request", (), {"id": "task-42"})()

    from celery import _state

    stack = _state._task_stack  # type: ignore[attr-defined]  # what Celery's tracer pushes
    stack.push(Task())
    try:
        logger.warning("refresh of /t/s3cret/")
    finally:
        stack.pop()
    line = json.loads(stream.getvalue())
    assert line["task_id"] == "task-42"
    assert line["message"] == "refresh of /t/…/"


def test_plain_logs_stay_plain(settings: Any) -> None:
    settings.LOG_FORMAT = "plain"
    logger = logging.Logger("celery-like")
    handler = logging.StreamHandler(io.StringIO())
    logger.addHandler(handler)
    json_logs_when_asked(logger=logger)
    assert not isinstance(handler.formatter, JsonFormatter)


# ---------------------------------------------------------------- a real gunicorn


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_gunicorn_writes_json_lines_with_request_ids_and_no_table_token(tmp_path: Path) -> None:
    """gunicorn (the Procfile's command) with LOG_FORMAT=json: its access lines and
    Django's lines are JSON with the request id; a real table link's token and an unknown
    one appear in no line."""
    if connection.vendor != "postgresql":
        if os.environ.get("CI") == "true":
            pytest.fail("CI needs PostgreSQL: the server must see the test's game")
        pytest.skip("the server can't see SQLite's test database")
    game = GameFactory.create()
    token = game_links_ensure(game_ids=[game.pk])[game.pk]["a"].token
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db["PASSWORD"] else ""
    host, port = db["HOST"] or "127.0.0.1", db["PORT"] or 5432
    web_port = free_port()
    user = db["USER"] or "postgres"
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("CELERY_BROKER_URL",)},
        "DATABASE_URL": f"postgres://{user}{password}@{host}:{port}/{db['NAME']}",
        "SECRET_KEY": "json-logs-not-secret",
        "DEBUG": "true",  # static files from the finders: no collectstatic here
        "PYTHONWARNINGS": "ignore",  # whitenoise warns (not logs) that there is none
        "ALLOWED_HOSTS": "127.0.0.1",
        "LOG_FORMAT": "json",
        "HOST": "127.0.0.1",
        "PORT": str(web_port),
        "WEB_CONCURRENCY": "1",
    }
    log = tmp_path / "gunicorn.log"
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "--config", "python:troefclub.gunicorn_conf",
         "troefclub.wsgi"],
        cwd=REPO_ROOT,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )  # fmt: skip
    base = f"http://127.0.0.1:{web_port}"
    try:
        wait_for_http(f"{base}/healthz", server, log)
        answers = {}
        for path, given in ((f"/t/{token}/", "lb-1"), ("/t/unknown-Token-404/", "bad id!")):
            request = urllib.request.Request(base + path, headers={"X-Request-ID": given})
            try:
                with urllib.request.urlopen(request, timeout=30) as response:
                    answers[path] = (response.status, response.headers["X-Request-ID"])
            except urllib.error.HTTPError as exc:
                answers[path] = (exc.code, exc.headers["X-Request-ID"])
    finally:
        os.killpg(server.pid, 15)
        server.wait(timeout=30)
    text = log.read_text()
    assert answers[f"/t/{token}/"] == (200, "lb-1"), text
    status, made = answers["/t/unknown-Token-404/"]
    assert status == 404 and HEX32.fullmatch(made), text
    lines = [json.loads(line) for line in text.splitlines() if line.strip()]  # all JSON
    assert token not in text and "unknown-Token-404" not in text
    access = [line for line in lines if line["logger"] == "gunicorn.access"]
    assert {line["request_id"] for line in access} >= {"lb-1", made}, text
    [not_found] = [line for line in lines if line["logger"] == "django.request"]
    assert not_found["request_id"] == made
    assert any(line["logger"] == "gunicorn.error" for line in lines)  # "Booting worker"
