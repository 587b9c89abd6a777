"""A node stopped or rolled is no error (tester, issue 23): gunicorn's "Worker (pid:N) was
sent SIGTERM!" goes out at INFO; a worker killed otherwise stays an error."""

from __future__ import annotations

import logging

import pytest
from gunicorn.config import Config

from troefclub.gunicorn_logging import TokenHidingLogger


@pytest.mark.parametrize(
    ("message", "level"),
    [
        ("Worker (pid:4242) was sent SIGTERM!", logging.INFO),
        ("Worker (pid:4242) was sent SIGKILL! Perhaps out of memory?", logging.ERROR),
        ("Worker (pid:4242) exited with code 1.", logging.ERROR),
        ("Exception in worker process", logging.ERROR),
    ],
)
def test_a_requested_stop_is_info_a_kill_an_error(message: str, level: int) -> None:
    logger = TokenHidingLogger(Config())
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    logger.error_log.addHandler(Keep())
    logger.error_log.setLevel(logging.DEBUG)
    logger.error(message)
    assert [(record.getMessage(), record.levelno) for record in records] == [(message, level)]
