"""gunicorn's access log without the table links' tokens (`--logger-class`, Dockerfile).

A table link's token is the secret that lets a phone score a game; gunicorn's access log
would print it with every request of that phone. This logger writes "/t/…" instead, as
`troefclub.logs.TableTokenHidden` does for Django's own request log; a personal API token
in an address becomes "tc_…", and the Authorization and Cookie headers (an access log
format may name any request header) are never written.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

from gunicorn.glogging import Logger

from troefclub.envfile import EnvFileError, read_env_file
from troefclub.health import HEALTH_PATH
from troefclub.logs import field_hidden, json_handlers

# The request headers that carry secrets (the API's tokens, the session), as gunicorn's
# header atoms (`{authorization}i`) and environ atoms (`{http_authorization}e`) name them.
SECRET_HEADERS = {
    "{authorization}i",
    "{cookie}i",
    "{http_authorization}e",
    "{http_cookie}e",
}


class TokenHidingLogger(Logger):
    """gunicorn's Logger with every atom (request line, path, environ values) token-free;
    with LOG_FORMAT=json its error and access logs write JSON lines (`troefclub.logs`),
    the access line's request_id taken from the answer's X-Request-ID."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        if log_format() == "json":
            json_handlers(self.error_log)
            json_handlers(self.access_log)

    def access(self, resp: Any, req: Any, environ: Any, request_time: Any) -> None:
        # The balancer asks every node for /healthz every second or two: a line each
        # would bury the requests of the evening. A failing check shows in the balancer.
        if environ.get("PATH_INFO") == HEALTH_PATH and resp.status_code == 200:
            return
        super().access(resp, req, environ, request_time)

    def error(self, msg: Any, *args: Any, **kwargs: Any) -> None:
        # gunicorn says "Worker (pid:N) was sent SIGTERM!" at ERROR for every worker of a
        # node being stopped or rolled (an upgrade, a scale-down): the stop it was asked
        # for, which would page whoever watches the errors. SIGKILL and the rest stay errors.
        if isinstance(msg, str) and msg.startswith("Worker (pid:") and "sent SIGTERM" in msg:
            self.info(msg, *args, **kwargs)
            return
        super().error(msg, *args, **kwargs)

    def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
        values = super().atoms(resp, req, environ, request_time)
        return {key: _hidden(key, value) for key, value in values.items()}


def _hidden(key: str, value: Any) -> Any:
    if key.lower() in SECRET_HEADERS:
        return "…"
    # Every string: a path may spell /t/ as /%74/, //t/ or t%2F.
    return field_hidden(value)


def log_format() -> str:
    """LOG_FORMAT as the settings will read it (the environment, else the project's `.env`):
    gunicorn sets up its logs before it loads the app and its settings."""
    value = os.environ.get("LOG_FORMAT")
    if value is None:
        with contextlib.suppress(EnvFileError):
            value = read_env_file(Path(__file__).resolve().parent.parent / ".env").get("LOG_FORMAT")
    return (value or "plain").strip().lower()
