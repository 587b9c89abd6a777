"""gunicorn's settings for a web node (`gunicorn --config python:troefclub.gunicorn_conf`).

The Procfile and compose.yaml start gunicorn with this module, so every node is configured
the same way, from the environment:

- `HOST` (default `0.0.0.0`) and `PORT` (default 8000): the address it listens on; honcho
  sets PORT for each web process it starts, compose sets 8000.
- `WEB_CONCURRENCY` (default 3): worker processes; `WEB_THREADS` (default 1): threads each.
- The access log goes to standard output through `TokenHidingLogger`: a table link's token
  never reaches a log line. Each line ends with the request id (X-Request-ID); with
  `LOG_FORMAT=json` (as the app's own logs) the lines are JSON objects.
"""

from __future__ import annotations

import os


def _count(name: str, default: int, *, maximum: int | None = None) -> int:
    """The variable `name` as a whole number of at least 1 (and at most `maximum`);
    `default` when unset or blank. Exits with a message naming the variable otherwise:
    gunicorn imports this module before any logging, and a bare ValueError's (or, for a
    port past 65535, OverflowError's) traceback names neither (no Django here)."""
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    if not value.isdigit() or int(value) < 1 or (maximum is not None and int(value) > maximum):
        allowed = f"from 1 to {maximum}" if maximum is not None else "of at least 1"
        raise SystemExit(f"gunicorn_conf: {name}={value!r} must be a whole number {allowed}")
    return int(value)


_port = _count("PORT", 8000, maximum=65535)
bind = [f"{os.environ.get('HOST', '0.0.0.0')}:{_port}"]  # noqa: S104 - a node listens for its load balancer
workers = _count("WEB_CONCURRENCY", 3)
threads = _count("WEB_THREADS", 1)
accesslog = "-"
# gunicorn's default (combined) line and the request id the answer carries
# (`troefclub.request_id`): the balancer's, gunicorn's and Django's lines of a request match.
access_log_format = (
    '%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" %({x-request-id}o)s'
)
logger_class = "troefclub.gunicorn_logging.TokenHidingLogger"
# A node told to stop (a rolling upgrade) finishes the requests it has for this long.
graceful_timeout = 20
