"""The audit history of a model (django-simple-history): a history row only for a change,
history models kept in a `models` package of modules.

A history row only for a change (issue 19). simple-history writes a row on every save and
on every many-to-many signal, whether or not anything changed: 50 unchanged saves of a
round wrote 50 rows, a rule change that re-scored no game one row a game. Here a change
("~") is written only when a tracked field, or the set of a tracked many-to-many field,
differs from the object's newest history row (the row written last, highest
`history_id`); a creation ("+") and a deletion ("-") are always written. Compared with the
newest row, not with the row as loaded: what the history holds is what the next row is
told apart from, whichever instance, query or door saved before.

- A save costs one query more (the newest row: one probe of an index on the object's id
  and `history_id`, which each history model gets here); a many-to-many signal three (the
  newest row, its set, the set now). No snapshot is kept when rows are loaded: reads,
  which never save, cost nothing.
- With `update_fields`, only those fields are compared: the others were not saved. A field
  deferred (`.only()`/`.defer()`) and not loaded since is not compared and not loaded: the
  save did not write it.
- `history_hold` / `history_release` turn a save and its many-to-many changes into one row
  (the admin's change page: the object first, then its directors, `troefclub.admin_saves`).
- `bulk_update_with_history_if_changed` is simple-history's `bulk_update_with_history` for
  the objects that changed.

simple-history puts a model's history model in the model's module and, when that is not the
app's `models` module, names the app's package as its module (`scoring.HistoricalGame`),
where nothing can import it: `manage.py shell` then says "could not be automatically
imported" for every one. `HistoricalRecords` here keeps each history model in the app's
`models` package (`scoring.models.HistoricalGame`), as when the models were one module.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Max, Model
from simple_history.models import HistoricalRecords as _HistoricalRecords
from simple_history.utils import bulk_update_with_history, get_m2m_reverse_field_name

M = TypeVar("M", bound=Model)

# The flag simple-history's own signal handlers skip an instance by
# (`save_without_historical_record`); `history_hold` sets it.
_SKIP = "skip_history_when_saving"

# Every model tracked with this class, with its `HistoricalRecords`.
_TRACKED: dict[type[Model], HistoricalRecords] = {}


def _same(field: Any, new: Any, old: Any) -> bool:
    """Whether a field's value `new` (an instance's) stores what `old` (a history row's)
    holds: compared as the field reads them (`to_python`), so "5" typed into an integer
    field is 5; a value the field can't read is a change."""
    if new == old:
        return True
    try:
        return bool(field.to_python(new) == field.to_python(old))
    except (ValidationError, TypeError, ValueError):
        return False


class HistoricalRecords(_HistoricalRecords):
    """`simple_history.models.HistoricalRecords` writing a change only when there is one
    (see the module docstring), its history model in `<app>.models`."""

    def __init__(self, *args: Any, newest_by: tuple[str, ...] = (), **kwargs: Any) -> None:
        """`newest_by`: columns (a foreign key's `attname`) whose rows' newest history row
        a reader asks for, as `newest` does for the object's id: each gets an index on
        (column, history_id). Round's `game_id`: the director's queue asks when a game's
        rounds last changed."""
        super().__init__(*args, **kwargs)
        self.newest_by = newest_by

    def contribute_to_class(self, cls: Any, name: str) -> None:
        super().contribute_to_class(cls, name)
        self.module = f"{cls._meta.app_label}.models"

    def get_meta_options(self, model: Any) -> dict[str, Any]:
        meta: dict[str, Any] = super().get_meta_options(model)
        # The newest row of an object (`newest`) is one probe of this index. With the
        # object's id index alone, PostgreSQL reads the primary key backwards and filters:
        # the whole table for an object whose newest row is old (54 ms at 59,000 rows of
        # rounds, measured; growing with the league's history).
        newest = [
            models.Index(fields=[column, "history_id"])
            for column in (model._meta.pk.attname, *self.newest_by)
        ]
        meta["indexes"] = (*meta.get("indexes", ()), *newest)
        return meta

    def finalize(self, sender: Any, **kwargs: Any) -> None:
        super().finalize(sender, **kwargs)
        if getattr(sender._meta, "simple_history_manager_attribute", None) == self.manager_name:
            _TRACKED.setdefault(sender, self)

    # ------------------------------------------------------------ the signals

    def post_save(self, instance: Any, created: bool, using: Any = None, **kwargs: Any) -> None:
        if (
            not created
            and not kwargs.get("raw", False)
            and self._recording(instance)
            and self.unchanged(instance, fields=kwargs.get("update_fields"))
        ):
            return
        super().post_save(instance, created, using=using, **kwargs)

    def m2m_changed(
        self, instance: Any, action: str, attr: str, pk_set: Any, reverse: bool, **kwargs: Any
    ) -> None:
        # Django sends "post_add" for objects there already and "post_remove" for ones that
        # weren't; `set()` with the same set sends nothing. Compared, like a save.
        if (
            not reverse
            and action in ("post_add", "post_remove", "post_clear")
            and self._recording(instance)
            and self.unchanged(instance, fields=(), m2m=True)
        ):
            return
        super().m2m_changed(instance, action, attr, pk_set, reverse, **kwargs)

    @staticmethod
    def _recording(instance: Any) -> bool:
        return getattr(settings, "SIMPLE_HISTORY_ENABLED", True) and not hasattr(instance, _SKIP)

    # ------------------------------------------------------------ the comparison

    def newest(self, instance: Any) -> Any:
        """The newest history row of `instance` (the highest `history_id`), or None."""
        history = getattr(instance, self.manager_name).model
        return history._default_manager.filter(id=instance.pk).order_by("-history_id").first()

    def unchanged(
        self, instance: Any, *, fields: Iterable[str] | None = None, m2m: bool = False
    ) -> bool:
        """Whether `instance` stores what its newest history row holds: every tracked field
        (only `fields`, names or attnames, when given; deferred ones left out) and, with
        `m2m`, every tracked many-to-many set. False without a history row."""
        record = self.newest(instance)
        if record is None or record.history_type == "-":
            return False
        deferred = instance.get_deferred_fields()
        chosen = None if fields is None else set(fields)
        for field in self.fields_included(instance):
            if field.attname in deferred:
                continue
            if chosen is not None and not {field.name, field.attname} & chosen:
                continue
            if not _same(field, getattr(instance, field.attname), getattr(record, field.attname)):
                return False
        return not m2m or self._same_m2m(instance, record)

    def _same_m2m(self, instance: Any, record: Any) -> bool:
        for field, history_model in self.m2m_models.items():
            target = field.remote_field.through._meta.get_field(get_m2m_reverse_field_name(field))
            now = set(
                getattr(instance, field.name).values_list(field.target_field.attname, flat=True)
            )
            recorded = set(
                history_model._default_manager.filter(history=record).values_list(
                    target.attname, flat=True
                )
            )
            if now != recorded:
                return False
        return True


def _records(model: type[Model]) -> HistoricalRecords | None:
    return _TRACKED.get(model)


def history_hold(instance: Model) -> None:
    """Write no history row of `instance` until `history_release`: its saves and its
    many-to-many changes in between become one row. Nothing for a model without history."""
    if _records(type(instance)) is not None:
        setattr(instance, _SKIP, True)


def history_release(instance: Model) -> bool:
    """End `history_hold` of `instance` (already saved, so a change): write its one history
    row if a tracked field or many-to-many set differs from its newest row. Returns whether
    a row was written; False without a hold."""
    records = _records(type(instance))
    if records is None or not hasattr(instance, _SKIP):
        return False
    delattr(instance, _SKIP)
    if records.unchanged(instance, m2m=True):
        return False
    records.create_historical_record(instance, "~")
    return True


def bulk_update_with_history_if_changed(
    objs: Sequence[M], model: type[M], fields: Sequence[str], **kwargs: Any
) -> list[M]:
    """simple-history's `bulk_update_with_history(objs, model, fields, **kwargs)` for the
    objects of `objs` whose `fields` differ from their newest history row (or that have
    none); returns them. One query more, for the newest rows; nothing written when none
    changed."""
    records = _records(model)
    if records is None:
        raise TypeError(f"{model.__name__} has no history kept by troefclub.history")
    history = getattr(model, records.manager_name).model
    ids = [obj.pk for obj in objs]
    newest_ids = (
        history._default_manager.filter(id__in=ids)
        .values("id")
        .annotate(newest=Max("history_id"))
        .values("newest")
    )
    newest = {row.id: row for row in history._default_manager.filter(history_id__in=newest_ids)}
    compared = [field for field in records.fields_included(model) if field.name in set(fields)]

    def changed(obj: M) -> bool:
        record = newest.get(obj.pk)
        if record is None or record.history_type == "-":
            return True
        return not all(
            _same(field, getattr(obj, field.attname), getattr(record, field.attname))
            for field in compared
        )

    chosen = [obj for obj in objs if changed(obj)]
    if chosen:
        bulk_update_with_history(chosen, model, list(fields), **kwargs)
    return chosen
