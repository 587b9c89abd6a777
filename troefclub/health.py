"""Health answers for the load balancer and the orchestrator (issue 23).

- `GET /healthz`: 200 `{"status": "ok"}` while the process answers at all; no query. The
  load balancer's check (deploy/haproxy.cfg): a node whose database is briefly away still
  serves what it can, and is not taken out of rotation for it.
- `GET /readyz`: 200 when every check of `settings.HEALTH_CHECKS` passes, else 503; the
  body names each check: `{"status": "ok"|"failing", "checks": {"database": {"ok": true},
  "standings": {"ok": false, "detail": "..."}}}`. compose's healthchecks use it.

`HealthMiddleware` answers both before anything else (first in MIDDLEWARE after the
request id): no ALLOWED_HOSTS check (a balancer probes by address, not by name), no HTTPS
redirect, no session, CSRF or axes. A check is a function without arguments returning
None when all is well or a short description of what is not (for machines: English,
never translated); an exception counts as failing and is logged, the answer names only
its class (the body is public). The checks live where the layering puts what they
read (the standings' check in `scoring.selectors.health`): this module only finds them by
the dotted paths of `settings.HEALTH_CHECKS`, a dict of name to path.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import cache

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.module_loading import import_string

logger = logging.getLogger(__name__)

HEALTH_PATH = "/healthz"
READY_PATH = "/readyz"
BROKER_TIMEOUT = 2  # seconds: a balancer's probe must get its answer quickly

Check = Callable[[], str | None]


class HealthMiddleware:
    """Answers /healthz and /readyz itself; passes every other request on."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info == HEALTH_PATH:
            return JsonResponse({"status": "ok"})
        if request.path_info == READY_PATH:
            return readiness_response()
        return self.get_response(request)


# The check every other one needs (they read the database), and the ones that don't.
DATABASE_CHECK = "troefclub.health.database_ready"
WITHOUT_DATABASE = {
    DATABASE_CHECK,
    "troefclub.health.broker_ready",
    "troefclub.health.cache_ready",
}


def readiness_response() -> JsonResponse:
    """Run every check; 200 when all pass, 503 naming the ones that failed. When the
    database doesn't answer, the checks that read it are not run (each would wait out
    the connection's timeout again) and say so."""
    paths = settings.HEALTH_CHECKS
    checks_by_name = health_checks()
    database = [name for name, path in paths.items() if path == DATABASE_CHECK]
    results = {name: _run(name, checks_by_name[name]) for name in database}
    database_down = any(results[name] is not None for name in database)
    for name, check in checks_by_name.items():
        if name in results:
            continue
        if database_down and paths[name] not in WITHOUT_DATABASE:
            results[name] = "not checked: the database does not answer"
        else:
            results[name] = _run(name, check)
    results = {name: results[name] for name in checks_by_name}  # the settings' order
    failing = [name for name, detail in results.items() if detail is not None]
    checks: dict[str, dict[str, object]] = {
        name: {"ok": True} if detail is None else {"ok": False, "detail": detail}
        for name, detail in results.items()
    }
    body = {"status": "failing" if failing else "ok", "checks": checks}
    return JsonResponse(body, status=503 if failing else 200)


@cache
def health_checks() -> dict[str, Check]:
    """`settings.HEALTH_CHECKS` imported: name -> check. Cached for the process."""
    return {name: import_string(path) for name, path in settings.HEALTH_CHECKS.items()}


def _run(name: str, check: Check) -> str | None:
    try:
        return check()
    except Exception as exc:  # noqa: BLE001 - a failing check is an answer, never a 500
        logger.warning("readiness check %s failed", name, exc_info=True)
        return f"check raised {type(exc).__name__}"


# ---------------------------------------------------------------- the core's checks


def database_ready() -> str | None:
    """The default database answers `SELECT 1`."""
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute("SELECT 1")
    return None


_migrated: set[str] = set()


def migrations_ready() -> str | None:
    """Every migration on disk is applied (the executor's plan to the leaves is empty).
    Once true it stays true for the process (a node's code doesn't change under it), so
    the migration graph is read only until then."""
    if DEFAULT_DB_ALIAS in _migrated:
        return None
    executor = MigrationExecutor(connections[DEFAULT_DB_ALIAS])
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    if plan:
        return f"{len(plan)} migration(s) not applied"
    _migrated.add(DEFAULT_DB_ALIAS)
    return None


def broker_ready() -> str | None:
    """The Celery broker accepts a connection within BROKER_TIMEOUT seconds; without a
    broker (eager mode: CELERY_BROKER_URL unset) there is nothing to reach."""
    if not settings.CELERY_BROKER_URL or settings.CELERY_TASK_ALWAYS_EAGER:
        return None
    from kombu import Connection

    with Connection(
        settings.CELERY_BROKER_URL,
        connect_timeout=BROKER_TIMEOUT,
        transport_options={
            "socket_timeout": BROKER_TIMEOUT,
            "socket_connect_timeout": BROKER_TIMEOUT,
        },
    ) as broker:
        broker.ensure_connection(
            max_retries=1, interval_start=0, interval_step=0, timeout=BROKER_TIMEOUT
        )
    return None


def cache_ready() -> str | None:
    """The shared cache (`CACHE_URL`) answers a write and a read of a key of its own;
    without one (each process' memory) there is nothing to reach. A node whose cache is
    away still serves every page (reader pages render, guesses are not counted), but
    what it writes can't bump the pages the other nodes keep: it is not ready."""
    if not settings.CACHE_URL:
        return None
    from django.core.cache import cache

    key = "troefclub-readyz"
    cache.set(key, "ok", timeout=60)
    if cache.get(key) != "ok":
        return "the cache does not keep what it is given"
    return None
