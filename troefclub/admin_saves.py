"""A change page of the admin saved as it was shown writes nothing (issue 19), and a change
is one history row.

Django's admin saves the object of a change page whatever was posted, logs "No fields
changed." and, with simple-history, wrote a history row each time (50 unchanged saves of a
competition: 50 rows, and 100 rows of its two directors); our model admins queued a
standings refresh too. `UnchangedSaveMixin` (a base of `troefclub.admin_input.AdminInputMixin`,
so of every model admin of our apps):

- a change page whose form changed nothing, for an object stored as the form holds it, is
  not saved (`save_model` goes no further: no save, no history row, no service, no
  refresh); its inlines are saved as Django saves them, the changed rows only. (Stored as
  the form holds it: simple-history's "revert" page posts an old version's form
  unchanged, and that is a change of the object.)
- nothing changed on the page and nothing saved: no admin log entry either;
- a change is one history row: the object's save and its many-to-many fields (a
  competition's directors, saved after it) are held back and written as one row when the
  change is logged (`troefclub.history.history_hold` / `history_release`; the change page
  and simple-history's revert page both log after saving everything), instead of a row for
  the save (with the directors as they were) and one for each many-to-many step.

An object added on the page is left to the admin (or the service its `save_model` calls):
its creation row is always written.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Model
from django.http import HttpRequest

from troefclub.history import history_hold, history_release

# Set on an object whose change page changed nothing: not saved, so nothing to log.
_NOT_SAVED = "_troefclub_admin_not_saved"


def stored_as(obj: Model) -> bool:
    """Whether the database holds `obj`'s row with every field as `obj` has it (one query)."""
    names = [field.attname for field in obj._meta.concrete_fields]
    stored = type(obj)._default_manager.filter(pk=obj.pk).values(*names).first()
    return stored is not None and all(stored[name] == getattr(obj, name) for name in names)


def not_saved(obj: Model) -> None:
    """Mark `obj` as left unsaved by a `save_model` of its own (one that calls services and
    not the mixin's): its change page changed nothing, so nothing is logged either."""
    setattr(obj, _NOT_SAVED, True)


class UnchangedSaveMixin:
    """For a `ModelAdmin`; see the module docstring."""

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        if change and not form.has_changed() and stored_as(obj):
            not_saved(obj)
            return
        if change:
            history_hold(obj)
        super().save_model(request, obj, form, change)  # type: ignore[misc]

    def log_change(self, request: HttpRequest, obj: Any, message: Any) -> Any:
        history_release(obj)  # everything is saved by now, the many-to-many fields too
        if not message and getattr(obj, _NOT_SAVED, False):
            return None  # `construct_change_message`: nothing changed on the page
        return super().log_change(request, obj, message)  # type: ignore[misc]
