"""The rows of an admin inline checked against their model's unique constraints together,
before anything is saved (issue 18: the same koppel added twice to a competition was a
server error).

Django's formset compares its rows only on unique fields and unconditional constraints,
and says so without naming the row ("Please correct the duplicate data for …"); a
conditional constraint (an entry's koppel once a competition, when it is a koppel) reached
the database, whose refusal was an HTTP 500 after half the rows were saved.
`UniqueRowsFormSet` compares the rows as they would be saved on every unique constraint of
the model that names fields, and refuses a repeated row at its field, naming its value:
"Koppel “Anna & Bert” is in this list twice: keep one row." Nothing is saved.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.db import models
from django.db.models import Q
from django.forms.models import BaseInlineFormSet
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

ROW_TWICE = _("%(field)s “%(value)s” is in this list twice: keep one row.")


def _condition_holds(condition: Q, instance: models.Model) -> bool | None:
    """Whether `instance` falls under a constraint's `condition`, read in Python when the
    condition is only `<field>__isnull` tests joined by AND (all of ours); None when it
    can't be read so (the caller asks the database)."""
    if condition.connector != Q.AND or condition.negated:
        return None
    for child in condition.children:
        if not isinstance(child, tuple):
            return None
        lookup, expected = child
        name, _sep, test = lookup.partition("__")
        if test != "isnull":
            return None
        field = instance._meta.get_field(name)
        if not isinstance(field, models.Field):
            return None
        if (getattr(instance, field.attname) is None) != bool(expected):
            return False
    return True


class UniqueRowsFormSet(BaseInlineFormSet):
    """An inline formset whose rows are compared on every unique constraint of its model
    (`Meta.constraints`, conditional ones included), as they would be saved: a later row
    repeating an earlier one gets `ROW_TWICE` at its field, naming the value.

    What a row is compared on: the constraint's fields that are on the row's form (their
    cleaned values; a disabled field's stored value). The others are the parent (the
    inline's foreign key) or set from it when saved (a squad member's season), so the same
    for every row. Rows marked for deletion, invalid rows and empty extra rows take no
    part; a row with an empty key field is not under the constraint (SQL: NULLs differ).
    Rows stored but not in the formset are left to the database (and to the save's own
    handling of its refusal).
    """

    def validate_unique(self) -> None:
        repeated = self._repeated_rows()
        if repeated:
            raise forms.ValidationError(repeated)
        super().validate_unique()  # unique fields, `unique_together`, dates

    def _rows(self) -> list[forms.ModelForm]:
        deleted = set(self.deleted_forms) if self.can_delete else set()
        return [
            form
            for form in self.forms
            if form not in deleted
            and form.is_valid()
            and (form.instance.pk is not None or form.has_changed())
        ]

    def _repeated_rows(self) -> list[forms.ValidationError]:
        """Per repeated row, its error (also added to the row's form at its field)."""
        errors: list[forms.ValidationError] = []
        rows = self._rows()
        for constraint in self.model._meta.constraints:
            if not isinstance(constraint, models.UniqueConstraint) or not constraint.fields:
                continue
            seen: set[tuple[Any, ...]] = set()
            for form in rows:
                names = [
                    name
                    for name in constraint.fields
                    if name != self.fk.name and name in form.cleaned_data
                ]
                if not names or not self._under(constraint, form):
                    continue
                key = tuple(_comparable(form.cleaned_data[name]) for name in names)
                if None in key:
                    continue
                if key not in seen:
                    seen.add(key)
                    continue
                name = names[-1]
                error = forms.ValidationError(
                    ROW_TWICE,
                    code="row_twice",
                    params={
                        "field": capfirst(self.model._meta.get_field(name).verbose_name),
                        "value": form.cleaned_data[name],
                    },
                )
                form.add_error(name, error)
                errors.append(error)
        return errors

    @staticmethod
    def _under(constraint: models.UniqueConstraint, form: forms.ModelForm) -> bool:
        """Whether the row as it would be saved falls under `constraint`'s condition."""
        condition = constraint.condition
        if condition is None:
            return True
        holds = _condition_holds(condition, form.instance)
        if holds is None:  # not one of ours: the database reads it (a query a row)
            values = {
                field.name: getattr(form.instance, field.attname)
                for field in form.instance._meta.concrete_fields
            }
            holds = condition.check(values)
        return holds


def _comparable(value: Any) -> Any:
    """A cleaned value as a key: a row by its primary key."""
    return value.pk if isinstance(value, models.Model) else value
