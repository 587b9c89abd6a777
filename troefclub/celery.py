"""The Celery app, configured from the ``CELERY_*`` Django settings.

Tasks live in ``<app>/tasks.py`` and are found by ``autodiscover_tasks``.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "troefclub.settings")

app = Celery("troefclub")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
