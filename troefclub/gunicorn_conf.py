"""gunicorn's settings for a web node (`gunicorn --config python:troefclub.gunicorn_conf`).

The Procfile and compose.yaml start gunicorn with this module, so every node is configured
the same way, from the environment:

- `HOST` (default `0.0.0.0`) and `PORT` (default 8000): the address it listens on; honcho
  sets PORT for each web process it starts, compose sets 8000.
- `WEB_CONCURRENCY` (default 3): worker processes; `WEB_THREADS` (default 1): threads each.
- The access log goes to standard output through `TokenHidingLogger`: a table link's token
  never reaches a log line.
"""

from __future__ import annotations

import os

bind = [f"{os.environ.get('HOST', '0.0.0.0')}:{os.environ.get('PORT', '8000')}"]  # noqa: S104 - a node listens for its load balancer
workers = int(os.environ.get("WEB_CONCURRENCY", "3"))
threads = int(os.environ.get("WEB_THREADS", "1"))
accesslog = "-"
logger_class = "troefclub.gunicorn_logging.TokenHidingLogger"
# A node told to stop (a rolling upgrade) finishes the requests it has for this long.
graceful_timeout = 20
