"""The audit history of a model (django-simple-history), for models kept in a `models`
package of modules.

simple-history puts a model's history model in the model's module and, when that is not the
app's `models` module, names the app's package as its module (`scoring.HistoricalGame`),
where nothing can import it: `manage.py shell` then says "could not be automatically
imported" for every one. `HistoricalRecords` here keeps each history model in the app's
`models` package (`scoring.models.HistoricalGame`), as when the models were one module.
"""

from __future__ import annotations

from typing import Any

from simple_history.models import HistoricalRecords as _HistoricalRecords


class HistoricalRecords(_HistoricalRecords):
    """`simple_history.models.HistoricalRecords`, its history model in `<app>.models`."""

    def contribute_to_class(self, cls: Any, name: str) -> None:
        super().contribute_to_class(cls, name)
        self.module = f"{cls._meta.app_label}.models"
