"""Reading the settings from the environment (troefclub/settings.py): typed values, and
the `.env` file's lines. A value that is not what the setting needs stops the process
with ImproperlyConfigured naming the variable and the value.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from troefclub import envfile

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str = "") -> str:
    """The variable `name` as it is; `default` when unset."""
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    """The variable `name` as a boolean (1/true/yes/on, 0/false/no/off/empty); `default`
    when unset. Raises ImproperlyConfigured for any other value."""
    value = os.environ.get(name)
    if value is None:
        return default
    lowered = value.strip().lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={value!r} is not a boolean (use true or false)")


def env_int(
    name: str, default: int, *, minimum: int | None = None, maximum: int | None = None
) -> int:
    """The variable `name` as an integer; `default` when unset or blank. Raises
    ImproperlyConfigured for a value that is not one, or one outside `minimum`..`maximum`
    (each inclusive, None: unbounded): a negative count or number of seconds read without a
    word would fail requests later instead (a 500 on every login, say)."""
    value = os.environ.get(name)
    if value is None or not value.strip():
        return default
    try:
        number = int(value)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name}={value!r} is not an integer") from exc
    if (minimum is not None and number < minimum) or (maximum is not None and number > maximum):
        allowed = (
            f"from {minimum} to {maximum}"
            if minimum is not None and maximum is not None
            else f"at least {minimum}"
            if minimum is not None
            else f"at most {maximum}"
        )
        raise ImproperlyConfigured(f"{name}={value!r} must be {allowed}")
    return number


# A DRF throttle rate as `SimpleRateThrottle.parse_rate` reads it: the number before the
# slash, and the period by its first letter (s, m, h or d; "min", "hour", "day" spelled out).
_RATE = re.compile(r"(?P<count>\d+)/(?P<period>s|sec|m|min|h|hour|d|day)")


def env_rate(name: str, default: str) -> str:
    """The variable `name` as a DRF throttle rate (`100/min`: a number of requests, a slash,
    s|sec|m|min|h|hour|d|day); `default` when unset or blank. Raises ImproperlyConfigured for
    any other value, which DRF would otherwise fail every throttled request on."""
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    if not _RATE.fullmatch(value):
        raise ImproperlyConfigured(
            f"{name}={value!r} is not a throttle rate (like 100/min: a number, then /s, /sec, "
            "/m, /min, /h, /hour, /d or /day)"
        )
    return value


def env_choice(name: str, default: str, choices: Iterable[str]) -> str:
    """The variable `name` upper-cased, one of `choices` (upper-case); `default` when unset
    or blank. Raises ImproperlyConfigured naming the variable and the choices."""
    allowed = list(choices)
    value = os.environ.get(name, "").strip().upper() or default
    if value not in allowed:
        raise ImproperlyConfigured(
            f"{name}={os.environ.get(name)!r} must be one of {', '.join(allowed)}."
        )
    return value


def env_database(name: str, default: str, **options: Any) -> dict[str, Any]:
    """The database of the URL in `name` (`dj_database_url.config` with `options`);
    `default` when unset. Raises ImproperlyConfigured naming the variable when the URL is
    not one (its password never in the message) or names a database other than PostgreSQL
    or SQLite, the two troefclub runs on."""
    try:
        database = dict(dj_database_url.config(env=name, default=default, **options))
    except Exception as exc:  # noqa: BLE001 - the parser's errors: unknown scheme, bad port
        scheme = os.environ.get(name, "").partition(":")[0] or "(none)"
        raise ImproperlyConfigured(
            f"{name} is not a database URL (scheme {scheme!r}: {type(exc).__name__}); expected "
            "postgres://USER:PASSWORD@HOST:5432/NAME, or sqlite:///PATH for one laptop."
        ) from None
    engine = str(database.get("ENGINE", ""))
    if engine not in ("django.db.backends.postgresql", "django.db.backends.sqlite3"):
        raise ImproperlyConfigured(
            f"{name} names a {engine.rpartition('.')[2] or 'unknown'} database; troefclub runs "
            "on PostgreSQL (postgres://...), or SQLite (sqlite:///PATH) for one laptop."
        )
    return database


def env_list(name: str, default: list[str] | None = None) -> list[str]:
    """A comma-separated list; blanks are dropped."""
    value = os.environ.get(name)
    if value is None:
        return list(default or [])
    return [item.strip() for item in value.split(",") if item.strip()]


def env_origins(name: str) -> list[str]:
    """`env_list(name)` of origins (`https://stcb.sr`, `https://*.knbb.nl`); raises
    ImproperlyConfigured naming one that is not scheme://host: Django's CSRF check and
    django-cors-headers split them on each request, and a bad one ("https://[x") fails it."""
    origins = env_list(name)
    for origin in origins:
        try:
            parts = urlsplit(origin)
        except ValueError:
            parts = None
        if parts is None or parts.scheme not in {"http", "https"} or not parts.netloc:
            raise ImproperlyConfigured(
                f"{name}: {origin!r} is not an origin (like https://example.org)"
            )
    return origins


def read_env_file(path: Path) -> dict[str, str]:
    """The ``KEY=VALUE`` lines of a ``.env`` file (`troefclub.envfile`); {} when there is
    none. Raises ImproperlyConfigured naming the line that is not ``KEY=VALUE``."""
    try:
        return envfile.read_env_file(path)
    except envfile.EnvFileError as exc:
        raise ImproperlyConfigured(str(exc)) from exc
