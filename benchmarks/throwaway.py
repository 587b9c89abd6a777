"""Benchmarks never touch production (issue 19): the databases and the broker they may use.

A benchmark run with the README's environment once shared the production Celery queue (its
worker ran production beat tasks against its own database, production workers its tasks)
and deleted the broker's `celery`/`unacked` keys. The rules now, for every benchmark that
writes (`python -m benchmarks`, `benchmarks.load`, `.ratings`, `.live_polls`,
`.evening_queries`; `benchmarks.pairing` touches no database):

- **Its own database, never DATABASE_URL's.** A benchmark works in a database of its own
  next to the configured one: `<NAME>_<purpose>_bench` on the same PostgreSQL server
  (`database_beside`), a file in the benchmark cache folder for SQLite. It makes that
  database itself and marks it as a benchmark's (`COMMENT ON DATABASE`, `MARK`); a database
  of that name without the mark belongs to someone else and is refused, untouched. Only a
  marked database is ever dropped.
- **No broker unless it needs one.** A benchmark that needs no worker runs Celery eagerly:
  CELERY_BROKER_URL is taken out of its environment (`broker_dropped`), so no task it
  queues reaches a production worker.
- **The load benchmark's broker holds nothing else.** Every key it makes starts with
  `KEY_PREFIX` (kombu's `global_keyprefix`) and its queues are named `QUEUE_PREFIX`…
  (`benchmarks.load_settings`); a Redis database holding any other key (a production
  queue, production workers' bindings) is refused (`broker_check`), and only keys with
  the prefix are ever deleted (`broker_clear`).

A refusal prints what was wrong and what to do on standard error and exits with status 2
(`REFUSED`), before anything was written anywhere. Needs no Django: it runs before
`django.setup()` picks the database.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Mapping, MutableMapping
from pathlib import Path
from typing import Any, NoReturn
from urllib.parse import quote, urlsplit, urlunsplit

REFUSED = 2
MARK = "troefclub benchmark database (benchmarks/throwaway.py): safe to drop"
KEY_PREFIX = "troefclub-bench:"
QUEUE_PREFIX = "bench-"


def refuse(message: str) -> NoReturn:
    """Stop the benchmark: `message` on standard error, exit status 2 (`REFUSED`)."""
    print(f"benchmark refused: {message}", file=sys.stderr, flush=True)
    raise SystemExit(REFUSED)


# ---------------------------------------------------------------- the database


def is_postgresql(url: str) -> bool:
    return urlsplit(url).scheme in ("postgres", "postgresql", "pgsql")


def database_beside(url: str, purpose: str) -> tuple[str, str]:
    """The URL and name of the benchmark's own PostgreSQL database for `purpose` ("load",
    "ratings"; "" for `python -m benchmarks`): `<NAME>_<purpose>_bench` (`<NAME>_bench`)
    on DATABASE_URL's server, with its user and options."""
    parts = urlsplit(url)
    base = parts.path.lstrip("/") or "troefclub"
    name = "_".join(filter(None, (base, purpose, "bench")))
    return urlunsplit(parts._replace(path="/" + name)), name


def sqlite_beside(url: str, purpose: str) -> str:
    """The benchmark's own SQLite database for `purpose` as a DATABASE_URL: a file in the
    benchmark cache folder (`benchmarks.generate.cache_dir`), named after the configured
    file, never the configured file itself."""
    from benchmarks.generate import cache_dir

    configured = urlsplit(url).path if url else "db.sqlite3"
    tag = hashlib.sha256(str(Path(configured).resolve()).encode()).hexdigest()[:8]
    folder = cache_dir()
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / f'{Path(configured).stem}-{tag}_{purpose}_bench.sqlite3'}"


def _maintenance(url: str) -> Any:
    """An autocommit connection to the server's `postgres` database (psycopg)."""
    import psycopg

    parts = urlsplit(url)
    return psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True)


def database_state(url: str, name: str) -> str:
    """ "missing", "ours" (it carries `MARK`) or "foreign" (anything else), on the server of
    `url`."""
    with _maintenance(url) as conn:
        row = conn.execute(
            "SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = %s",
            [name],
        ).fetchone()
    if row is None:
        return "missing"
    return "ours" if row[0] == MARK else "foreign"


def database_check(url: str, name: str) -> None:
    """Refuse when a database `name` exists that no benchmark made (no `MARK`)."""
    if database_state(url, name) == "foreign":
        refuse(
            f"the database {name!r} exists and no benchmark made it (it lacks the mark "
            f"{MARK!r}): it may hold real data, so the benchmark leaves it alone. Point "
            "DATABASE_URL at another name, or drop that database yourself if it is a "
            "leftover of an older benchmark."
        )


def database_ensure(url: str, name: str, *, fresh: bool = False) -> bool:
    """The benchmark's database `name`, made and marked when missing; with `fresh`, a
    marked one is dropped and made anew. Refuses one without the mark. Returns whether it
    was made now (then it is empty: migrate it)."""
    database_check(url, name)
    quoted = '"' + name.replace('"', '""') + '"'
    with _maintenance(url) as conn:
        if fresh:
            conn.execute(f"DROP DATABASE IF EXISTS {quoted} WITH (FORCE)")
        elif conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            return False
        conn.execute(f"CREATE DATABASE {quoted}")
        conn.execute(f"COMMENT ON DATABASE {quoted} IS {_literal(MARK)}")
    return True


def database_mark(url: str, name: str) -> None:
    """Mark database `name` (made by the benchmark, e.g. by Django's test database
    creation) as the benchmark's own."""
    quoted = '"' + name.replace('"', '""') + '"'
    with _maintenance(url) as conn:
        conn.execute(f"COMMENT ON DATABASE {quoted} IS {_literal(MARK)}")


def database_drop(url: str, name: str) -> None:
    """Drop the benchmark's database `name`; refuses one without the mark."""
    state = database_state(url, name)
    if state == "missing":
        return
    if state != "ours":
        database_check(url, name)
    quoted = '"' + name.replace('"', '""') + '"'
    with _maintenance(url) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {quoted} WITH (FORCE)")


def _literal(text: str) -> str:
    """`text` as an SQL string literal (COMMENT takes no bind parameter)."""
    return "'" + text.replace("'", "''") + "'"


def database_own(environ: MutableMapping[str, str], purpose: str) -> str:
    """Before `django.setup()`: point DATABASE_URL in `environ` at the benchmark's own
    database for `purpose`, beside the configured one (the environment's, else `.env`'s;
    made and marked when missing, refused when someone else's), and run Celery eagerly
    (`broker_dropped`). Returns the database's name (SQLite: its file)."""
    broker_dropped(environ)
    url = environ.get("DATABASE_URL") or _env_file().get("DATABASE_URL", "")
    if url and is_postgresql(url):
        own, name = database_beside(url, purpose)
        database_ensure(url, name)
        environ["DATABASE_URL"] = own
        return name
    if url and not url.startswith("sqlite:"):
        refuse(
            f"DATABASE_URL: {urlsplit(url).scheme!r}: the benchmarks run on PostgreSQL or SQLite"
        )
    environ["DATABASE_URL"] = sqlite_beside(url, purpose)
    return environ["DATABASE_URL"].removeprefix("sqlite:///")


def database_url_of(settings_dict: Mapping[str, Any]) -> str:
    """A PostgreSQL URL for Django's connection settings (`connection.settings_dict`)."""
    user = quote(settings_dict.get("USER") or "postgres", safe="")
    password = settings_dict.get("PASSWORD")
    secret = f":{quote(password, safe='')}" if password else ""
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = settings_dict.get("PORT") or 5432
    return f"postgres://{user}{secret}@{host}:{port}/{settings_dict['NAME']}"


def broker_dropped(environ: MutableMapping[str, str]) -> None:
    """No broker for this process: Celery runs eagerly. Set empty rather than removed, so
    that a CELERY_BROKER_URL in `.env` can't fill it in (the real environment wins)."""
    environ["CELERY_BROKER_URL"] = ""


def _env_file() -> dict[str, str]:
    from troefclub.envfile import read_env_file

    return read_env_file(Path(__file__).resolve().parents[1] / ".env")


# ---------------------------------------------------------------- the broker


def _redis(url: str) -> Any:
    import redis

    return redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5)


def broker_check(url: str) -> None:
    """Refuse a broker that isn't Redis, can't be reached, or whose database holds a key
    the benchmark didn't make (one without `KEY_PREFIX`): production's queues, bindings
    or unacknowledged tasks, another program's data."""
    if urlsplit(url).scheme not in ("redis", "rediss"):
        refuse(f"CELERY_BROKER_URL={url!r}: the load benchmark needs a Redis broker")
    import redis

    client = _redis(url)
    try:
        foreign = [key for key in client.scan_iter(count=1000) if not _ours(key)]
    except redis.RedisError as exc:
        refuse(f"the broker at {_where(url)} can't be reached: {exc}")
    finally:
        client.close()
    if foreign:
        examples = ", ".join(repr(key.decode(errors="replace")) for key in sorted(foreign)[:5])
        refuse(
            f"the broker database {_where(url)} holds {len(foreign)} key(s) the benchmark "
            f"didn't make ({examples}): it looks like a broker in use (production?). Give the "
            "benchmark a Redis database of its own that is empty, e.g. "
            f"CELERY_BROKER_URL={_other_database(url)}"
        )


def broker_clear(url: str) -> int:
    """Delete the benchmark's own keys (`KEY_PREFIX`…) from the broker database, left by a
    run cut short; never any other. Returns how many went."""
    client = _redis(url)
    try:
        pattern = _glob_escaped(KEY_PREFIX) + "*"
        keys = [key for key in client.scan_iter(match=pattern, count=1000) if _ours(key)]
        return int(client.delete(*keys)) if keys else 0
    finally:
        client.close()


def _ours(key: bytes) -> bool:
    return key.startswith(KEY_PREFIX.encode())


def _glob_escaped(text: str) -> str:
    return "".join("\\" + char if char in "*?[]\\" else char for char in text)


def _where(url: str) -> str:
    """The broker URL without its password."""
    parts = urlsplit(url)
    host = parts.hostname or "localhost"
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{host}{port}{parts.path or '/0'}"


def _other_database(url: str) -> str:
    parts = urlsplit(url)
    number = int(parts.path.strip("/") or 0)
    return urlunsplit(parts._replace(path=f"/{(number + 1) % 16}", netloc=_netloc(url)))


def _netloc(url: str) -> str:
    parts = urlsplit(url)
    host = parts.hostname or "localhost"
    return f"{host}:{parts.port}" if parts.port else host
