"""The one mechanism for the background refreshes a write owes (STYLE.md "One mechanism, one
module"): the standings of a competition (`scoring.services.refresh`), and the player
ratings (`rankings.services`) and the season rankings of the competition's season
(`rankings.season_refresh`), which follow the standings.

A write that can move what a refresh computes calls `RefreshQueue.on_commit(key)` inside
its transaction, or `refresh_on_commit(name, key)` from an app below the one that owns the
queue (tournaments' deductions and entries move scoring's standings). That runs the
queue's `mark` there (the standings' stale mark commits or rolls back with the write) and
registers one callback per queue and key for the commit; the queues that follow this one
are asked too. After the commit the callback claims the one queued refresh of the key
and, when it took the claim, queues the task (`send`): a burst of writes queues one task,
issue 7's "refreshes that coalesce".

The claim is a row with a `queued_at` column (`claims`, keyed by `key_column`): set when a
task is queued, cleared by that task when it starts (it then sees every write committed
before). Claiming runs after the writer's commit, so it never waits: on PostgreSQL a
claim row that a running refresh holds is skipped (`FOR UPDATE SKIP LOCKED`), and the
queue says what that means (`busy_queues`). A claim older than `STANDINGS_SWEEP_SECONDS`
belongs to a task that was lost with its worker and is taken over. A broker that is down
never fails the write: the claim is released (the next write tries again) and the beat
sweep catches up.
"""

from __future__ import annotations

import enum
import logging
import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Model
from django.utils import timezone

logger = logging.getLogger(__name__)


class Claim(enum.Enum):
    """What claiming a key's queued refresh found."""

    TAKEN = "taken"  # this caller claimed it: queue the task
    HELD = "held"  # a refresh is queued and hasn't started: it will see this write
    BUSY = "busy"  # a running refresh holds the claim row (PostgreSQL, SKIP LOCKED)


@dataclass(eq=False)
class RefreshQueue:
    """One kind of refresh a write can owe.

    `name`: what the refresh is ("standings", "ratings"), for messages. `claims`: the model
    of the claim rows (a nullable `queued_at` datetime), keyed by `key_column`; `parent`,
    when a key is another table's row (a competition), makes a key's first claim row only
    while that row exists. `send(key)` queues the task (`task.delay`); it may raise when
    the broker is down. `mark(key)`, when given, runs in the write's transaction each time
    a write owes the refresh. `busy_queues`: whether a claim row held by a running refresh
    queues one more task, unclaimed (the running refresh may have read before this write),
    or nothing (it is known to see every write committed before it took the row).
    `fixed_key`: the key of a queue with one claim row (the ratings), used when no key is
    given. `followers`: queues asked whenever this one is (`follow`), each with the
    function that gives its key from this queue's key (None: its own fixed key).
    """

    name: str
    claims: type[Model]
    key_column: str
    send: Callable[[Any], None]
    busy_queues: bool
    parent: type[Model] | None = None
    mark: Callable[[Any], None] | None = None
    fixed_key: Any = None
    followers: list[tuple[RefreshQueue, Callable[[Any], Hashable] | None]] = field(
        default_factory=list
    )

    def __post_init__(self) -> None:
        if _queues.setdefault(self.name, self) is not self:
            raise ValueError(f"a refresh queue named {self.name!r} exists already")

    def follow(
        self, follower: RefreshQueue, *, key: Callable[[Any], Hashable] | None = None
    ) -> None:
        """Ask `follower` too whenever a write owes this refresh: with its own fixed key,
        or with `key(this queue's key)` when `key` is given (a competition's season, for
        the season rankings: issue 20); a None from `key` asks nothing. `key` may query:
        it is asked once a transaction and key, not once a write. Called by the app whose
        refresh follows (`rankings` for the ratings), so this one's app needn't know it."""
        if all(queue is not follower for queue, _ in self.followers):
            self.followers.append((follower, key))

    def on_commit(self, key: Hashable = None) -> None:
        """In a write's transaction: the write owes this refresh of `key` (the queue's
        `fixed_key` when None). Marks (`mark`), and registers the callback that claims and
        queues after the commit: one per queue and key a transaction (`RefreshOnCommit`);
        then the followers. Registered again by each write, so a savepoint rolled back
        with an earlier registration (Django drops its callbacks) leaves the later ones."""
        key = self.fixed_key if key is None else key
        if self.mark is not None:
            self.mark(key)
        owed = _owed.callbacks
        callback = owed.get((id(self), key))
        if callback is None or callback.done:
            callback = owed[(id(self), key)] = RefreshOnCommit(self, key)
        transaction.on_commit(callback)
        for follower, key_of in self.followers:
            if key_of is None:
                follower.on_commit()
                continue
            # Once a transaction and key: the callback is this transaction's.
            if follower.name not in callback.follower_keys:
                callback.follower_keys[follower.name] = key_of(key)
            if (follower_key := callback.follower_keys[follower.name]) is not None:
                follower.on_commit(follower_key)

    def claim(self, key: Any, now: datetime) -> Claim:
        """Claim the one queued refresh of `key`: its row's `queued_at` set to `now` where
        none is queued, or the one queued is older than `STANDINGS_SWEEP_SECONDS` (a task
        lost with its worker: taken over). A key without a row gets one, claimed (for a
        `parent` key, only while the parent row exists: else HELD, nothing to refresh)."""
        connection = transaction.get_connection()
        table = connection.ops.quote_name(self.claims._meta.db_table)
        column = connection.ops.quote_name(self.key_column)
        stamp = connection.ops.adapt_datetimefield_value(now)
        cutoff = now - timedelta(seconds=settings.STANDINGS_SWEEP_SECONDS)
        old = connection.ops.adapt_datetimefield_value(cutoff)
        if connection.vendor == "postgresql":
            sql = (
                f"UPDATE {table} SET queued_at = %s WHERE {column} = (SELECT {column}"
                f" FROM {table} WHERE {column} = %s AND (queued_at IS NULL OR queued_at < %s)"
                " FOR UPDATE SKIP LOCKED)"
            )
        else:  # SQLite: one writer at a time, nothing to skip
            sql = (
                f"UPDATE {table} SET queued_at = %s WHERE {column} = %s"
                " AND (queued_at IS NULL OR queued_at < %s)"
            )
        with connection.cursor() as cursor:
            cursor.execute(sql, [stamp, key, old])
            if cursor.rowcount == 1:
                return Claim.TAKEN
            # Not claimed: queued already, locked, or no row yet. A plain read doesn't wait.
            cursor.execute(f"SELECT queued_at FROM {table} WHERE {column} = %s", [key])
            row = cursor.fetchone()
            if row is None:
                # The key's first refresh: its row is made claimed. (No task can hold a row
                # that isn't there yet; a concurrent first claimer makes it, and queues.)
                if self.parent is None:
                    first = f"INSERT INTO {table} ({column}, queued_at) VALUES (%s, %s)"
                    params = [key, stamp]
                else:
                    parents = connection.ops.quote_name(self.parent._meta.db_table)
                    first = (
                        f"INSERT INTO {table} ({column}, queued_at) SELECT id, %s"
                        f" FROM {parents} WHERE id = %s"
                    )
                    params = [stamp, key]
                cursor.execute(first + " ON CONFLICT DO NOTHING", params)
                return Claim.TAKEN if cursor.rowcount == 1 else Claim.HELD
        queued_at = row[0]
        if queued_at is not None:
            if isinstance(queued_at, str):  # SQLite through a raw cursor
                queued_at = datetime.fromisoformat(queued_at)
            if timezone.is_naive(queued_at):
                queued_at = timezone.make_aware(queued_at, timezone.get_default_timezone())
            if queued_at >= cutoff:
                return Claim.HELD
        return Claim.BUSY

    def enqueue(self, key: Any) -> None:
        """After a commit: queue the refresh of `key` unless one is queued already (the
        claim). A broker that is down is logged, never raised: the write is saved, the
        claim is released so that the next write tries again, and the sweep catches up."""
        now = timezone.now()
        claim = self.claim(key, now)
        if claim is Claim.HELD or (claim is Claim.BUSY and not self.busy_queues):
            return
        try:
            self.send(key)
        except Exception:
            if claim is Claim.TAKEN:
                self.claims._default_manager.filter(
                    **{self.key_column: key, "queued_at": now}
                ).update(queued_at=None)
            logger.exception("%s_refresh not queued%s", self.name, self._for(key))

    def _for(self, key: Any) -> str:
        """ " for competition 7": the key in a message, when the queue has more than one."""
        if self.fixed_key is not None:
            return ""
        return f" for {self.key_column.removesuffix('_id')} {key}"


def refresh_on_commit(name: str, key: Hashable = None) -> None:
    """`RefreshQueue.on_commit(key)` of the queue named `name` ("standings"): for a write of
    an app below the queue's, which can't import it. The queue's app makes it when it is
    ready (`ScoringConfig.ready`). Raises LookupError for a name no app made."""
    queue = _queues.get(name)
    if queue is None:
        raise LookupError(f"no refresh queue named {name!r}")
    queue.on_commit(key)


class RefreshOnCommit:
    """The on-commit callback of `RefreshQueue.on_commit`: the refresh of one `key` owed
    by the writes of one transaction. Its first run after the commit claims and queues
    (`RefreshQueue.enqueue`); its other runs do nothing, so a transaction of many writes
    costs one claim, not one a write."""

    __slots__ = ("done", "follower_keys", "key", "queue")

    def __init__(self, queue: RefreshQueue, key: Any) -> None:
        self.queue = queue
        self.key = key
        self.done = False
        # The keys of the followers that take their key from this one (`follow`).
        self.follower_keys: dict[str, Hashable] = {}

    def __call__(self) -> None:
        if self.done:
            return
        self.done = True
        self.queue.enqueue(self.key)

    def __repr__(self) -> str:
        state = "run" if self.done else "pending"
        return f"<RefreshOnCommit {self.queue.name} {self.key} {state}>"


class _Owed(threading.local):
    """Per thread (a database connection and its transaction belong to one thread): the
    callback of each queue and key that the next commit may run. Replaced once it has
    run; one whose transaction rolled back never runs and serves the next."""

    def __init__(self) -> None:
        self.callbacks: dict[tuple[int, Any], RefreshOnCommit] = {}


_owed = _Owed()
# The queues by name (`refresh_on_commit`), each added when it is made.
_queues: dict[str, RefreshQueue] = {}
