"""gunicorn's access log without the table links' tokens (`--logger-class`, Dockerfile).

A table link's token is the secret that lets a phone score a game; gunicorn's access log
would print it with every request of that phone. This logger writes "/t/…" instead, as
`troefclub.logs.TableTokenHidden` does for Django's own request log.
"""

from __future__ import annotations

from typing import Any

from gunicorn.glogging import Logger

from troefclub.logs import table_path_hidden


class TokenHidingLogger(Logger):
    """gunicorn's Logger with every atom (request line, path, environ values) token-free."""

    def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
        values = super().atoms(resp, req, environ, request_time)
        return {
            key: table_path_hidden(value) if isinstance(value, str) and "/t/" in value else value
            for key, value in values.items()
        }
