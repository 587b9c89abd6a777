"""The core's app: what it adds to Django once, when the apps are ready."""

from __future__ import annotations

from django.apps import AppConfig
from django.db.backends.signals import connection_created


class TroefclubConfig(AppConfig):
    name = "troefclub"
    verbose_name = "troefclub"

    def ready(self) -> None:
        from troefclub.text import fold_register, sqlite_fold_register

        # Every search folds case and accents in the database (`troefclub.text.Fold`).
        fold_register()
        connection_created.connect(sqlite_fold_register, dispatch_uid="troefclub_fold")
