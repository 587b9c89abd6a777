"""The settings of the multi-node benchmark's nodes (`benchmarks.multinode`): troefclub's
own, with every Redis key of its own (issue 19's rule, as `benchmarks.load_settings`).

The nodes run the Procfile as it is, so the queue names stay production's (`-Q standings`,
`-Q ratings`) and beat keeps its schedule (the stale sweep is part of what is measured);
but kombu's `global_keyprefix` puts `troefclub-bench:` before every key the broker holds
(queues, bindings, unacknowledged tasks), and the Django cache's keys start with it too.
So nothing reaches a production worker or cache on the same Redis database, and
`benchmarks.throwaway.broker_clear` empties the benchmark's own keys and no others.
"""

from __future__ import annotations

from benchmarks.throwaway import KEY_PREFIX
from troefclub.settings import *  # noqa: F403
from troefclub.settings import CACHES, CELERY_BROKER_TRANSPORT_OPTIONS

CELERY_BROKER_TRANSPORT_OPTIONS = {
    **CELERY_BROKER_TRANSPORT_OPTIONS,
    "global_keyprefix": KEY_PREFIX,
}
CACHES = {name: {**cache, "KEY_PREFIX": KEY_PREFIX + "cache"} for name, cache in CACHES.items()}
