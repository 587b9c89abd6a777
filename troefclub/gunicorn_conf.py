"""gunicorn's settings for a troefclub web node (`--config python:troefclub.gunicorn_conf`).

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

bind = [f"{os.environ.get('HOST', '0.0.0.0')}:{os.environ.get('PORT', '8000')}"]  # noqa: S104 - a node listens for its load balancer
workers = int(os.environ.get("WEB_CONCURRENCY", "3"))
threads = int(os.environ.get("WEB_THREADS", "1"))
accesslog = "-"
# gunicorn's default (combined) line and the request id the answer carries
# (`troefclub.request_id`): the balancer's, gunicorn's and Django's lines of a request match.
access_log_format = (
    '%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" %({x-request-id}o)s'
)
logger_class = "troefclub.gunicorn_logging.TokenHidingLogger"
# A node told to stop (a rolling upgrade) finishes the requests it has for this long.
graceful_timeout = 20
