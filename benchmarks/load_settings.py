"""The settings of the load benchmark's processes (`benchmarks.load`: its gunicorn, its
workers, itself): troefclub's own, with Celery names of their own (issue 19).

Every queue is `bench-<queue>` (`bench-standings`, `bench-ratings`), and every key the
benchmark's processes make in Redis starts with `troefclub-bench:` (kombu's
`global_keyprefix`: the queues, kombu's bindings and its `unacked` bookkeeping), so nothing
it sends can reach a production worker, its workers take nothing of production's, and it
can clear its own keys without touching anyone else's (`benchmarks.throwaway`). No beat
runs in the benchmark, so no schedule either.
"""

from __future__ import annotations

from kombu import Exchange, Queue

from benchmarks.throwaway import KEY_PREFIX, QUEUE_PREFIX
from troefclub.settings import *  # noqa: F403
from troefclub.settings import (
    CELERY_BROKER_TRANSPORT_OPTIONS,
    CELERY_TASK_DEFAULT_QUEUE,
    CELERY_TASK_QUEUES,
    CELERY_TASK_ROUTES,
)

CELERY_TASK_QUEUES = tuple(
    Queue(QUEUE_PREFIX + queue.name, Exchange(QUEUE_PREFIX + queue.name),
          routing_key=QUEUE_PREFIX + queue.name)
    for queue in CELERY_TASK_QUEUES
)  # fmt: skip
CELERY_TASK_DEFAULT_QUEUE = QUEUE_PREFIX + CELERY_TASK_DEFAULT_QUEUE
CELERY_TASK_ROUTES = {
    task: {**route, "queue": QUEUE_PREFIX + route["queue"]}
    for task, route in CELERY_TASK_ROUTES.items()
}
CELERY_BROKER_TRANSPORT_OPTIONS = {
    **CELERY_BROKER_TRANSPORT_OPTIONS,
    "global_keyprefix": KEY_PREFIX,
}
CELERY_BEAT_SCHEDULE = {}
# The queues of the load benchmark's workers, by the production queue they stand for.
BENCH_QUEUES = {queue.name.removeprefix(QUEUE_PREFIX): queue.name for queue in CELERY_TASK_QUEUES}
