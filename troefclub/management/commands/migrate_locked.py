"""`manage.py migrate_locked [--timeout SECONDS]`: `migrate`, one node at a time.

Every process type of a node starts with it (Procfile, compose.yaml), so two nodes started
together would otherwise migrate one database at once: both see a migration unapplied,
both run it, and the second fails half-way (or a worker starts on a schema the other is
still changing). On PostgreSQL the migration runs inside a session advisory lock
(`pg_advisory_lock(hashtext('troefclub:migrate'))`) on Django's default connection: the
first process takes it and migrates; the others wait for it, then find nothing left to
apply. On SQLite (one laptop, one process) it is a plain `migrate`.

The lock is held on the connection that migrates, for the whole command: Django hands a
connection back (to its pool, with DATABASE_POOL_SIZE) only at the end of a web request,
never inside a management command, and the lock is released on that same connection in
`finally` (and by PostgreSQL if the process dies). Messages are for operators: English,
like the other operations commands.
"""

from __future__ import annotations

from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DEFAULT_DB_ALIAS, OperationalError, connections

LOCK_NAME = "troefclub:migrate"


class Command(BaseCommand):
    help = (
        "Run migrate under a PostgreSQL advisory lock, so that nodes starting together "
        "migrate once (plain migrate on SQLite)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--timeout",
            type=float,
            default=0,
            help="give up (exit 1) after waiting this many seconds for another node's lock "
            "(default 0: wait as long as it takes)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        verbosity = int(options["verbosity"])
        connection = connections[DEFAULT_DB_ALIAS]
        if connection.vendor != "postgresql":
            self._migrate(verbosity)
            return
        timeout = float(options["timeout"])
        if timeout < 0:
            raise CommandError("--timeout must be 0 (no limit) or more seconds")
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_lock(hashtext(%s))", [LOCK_NAME])
            if not cursor.fetchone()[0]:
                self.stdout.write(
                    f"migrate_locked: the migration lock is taken: waits for another node "
                    f"to finish migrating{f' (at most {timeout:g} s)' if timeout else ''}"
                )
                self._wait(cursor, timeout)
        try:
            if verbosity >= 2:
                self.stdout.write("migrate_locked: holding the migration lock")
            self._migrate(verbosity)
        finally:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(hashtext(%s))", [LOCK_NAME])

    def _migrate(self, verbosity: int) -> None:
        call_command(
            "migrate",
            interactive=False,
            verbosity=verbosity,
            stdout=self.stdout._out,
            stderr=self.stderr._out,
        )

    def _wait(self, cursor: Any, timeout: float) -> None:
        """Block until the lock is ours; after `timeout` seconds (0: never) raise
        CommandError. `lock_timeout` bounds the wait in the server (it applies to advisory
        locks too) and is reset at once, so that it never limits the migrations' own
        locks."""
        if timeout:
            cursor.execute(
                "SELECT set_config('lock_timeout', %s, false)",
                [f"{max(1, round(timeout * 1000))}ms"],
            )
        try:
            cursor.execute("SELECT pg_advisory_lock(hashtext(%s))", [LOCK_NAME])
        except OperationalError as exc:
            raise CommandError(
                f"migrate_locked: gave up after {timeout:g} s waiting for the migration lock "
                f"(another node is still migrating): {exc}"
            ) from exc
        finally:
            if timeout:
                cursor.execute("RESET lock_timeout")
