"""The Celery app, configured from the ``CELERY_*`` Django settings.

Tasks live in ``<app>/tasks.py`` and are found by ``autodiscover_tasks``.
"""

import logging
import os
from typing import Any

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "troefclub.settings")

app = Celery("troefclub")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@signals.after_setup_logger.connect
@signals.after_setup_task_logger.connect
def json_logs_when_asked(logger: logging.Logger, **kwargs: Any) -> None:
    """LOG_FORMAT=json: the handlers Celery has just set up (worker and beat: the root's,
    the task logger's) write JSON lines with the task id (`troefclub.logs`); Celery's own
    set-up is kept otherwise (levels, the `-l` option, stdout redirection)."""
    from django.conf import settings

    if settings.LOG_FORMAT == "json":
        from troefclub.logs import json_handlers

        json_handlers(logger)


def eager_set(*, always: bool, propagates: bool | None = None) -> tuple[bool, bool]:
    """Run tasks in this process (`always`) or send them to the broker, and whether an
    eager task's error is raised (`propagates`; None: as it is). Returns both as they
    were. For tests and benchmarks that switch mode in a running process.

    Both names of each setting are set: with ``namespace="CELERY"`` Celery below 5.7 reads
    ``CELERY_TASK_ALWAYS_EAGER`` (the Django setting's name) and ignores an assignment to
    ``conf.task_always_eager``, which 5.7 reads.
    """
    conf = app.conf
    was = (bool(conf.task_always_eager), bool(conf.task_eager_propagates))
    raised = was[1] if propagates is None else propagates
    conf.update(
        task_always_eager=always,
        CELERY_TASK_ALWAYS_EAGER=always,
        task_eager_propagates=raised,
        CELERY_TASK_EAGER_PROPAGATES=raised,
    )
    return was
