"""Hostile input in the admin, handled once for every ModelAdmin and inline of our apps.

`AdminInputMixin` goes first in the bases of each of them (a test checks):

- Search terms are normalised to Unicode NFC, like the names they look for
  (`tournaments.fields.NameField`): "Kolibrie" + U+0308 (NFD: macOS, some phones, text
  pasted from PDFs) finds "Kolibrië". The change list and the autocomplete both.
- Text fields refuse control characters and lone surrogates (one-line fields tab and line
  breaks too, `tournaments.validators`), as the importer does: what the admin saves can
  always be exported and imported again.
- JSON fields read their text like an import file (`troefclub.forms.JSONInputField`).
- Autocomplete selects never fail to show a value that is not an id (a crafted POST):
  Django's widget looks the value up as it is and fails with HTTP 500; ours leaves it out,
  and the form says the choice is not valid.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from django import forms
from django.contrib.admin.widgets import AutocompleteSelect, AutocompleteSelectMultiple
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import QuerySet
from django.http import HttpRequest

from tournaments.fields import nfc
from tournaments.validators import validate_multiline_text, validate_single_line_text
from troefclub.forms import JSONInputField


class _ValidIdsOnly:
    """An autocomplete widget that looks up only the values its model's key can hold."""

    field: Any

    def optgroups(
        self, name: str, value: Sequence[str], attr: dict[str, Any] | None = None
    ) -> list[tuple[str | None, list[dict[str, Any]], int | None]]:
        key = self.field.target_field
        usable = []
        for item in value:
            try:
                key.run_validators(key.to_python(item))
            except (ValidationError, TypeError, ValueError):
                continue
            usable.append(item)
        return super().optgroups(name, usable, attr)  # type: ignore[misc]


class SafeAutocompleteSelect(_ValidIdsOnly, AutocompleteSelect):
    pass


class SafeAutocompleteSelectMultiple(_ValidIdsOnly, AutocompleteSelectMultiple):
    pass


class AdminInputMixin:
    """For every ModelAdmin and inline of our apps; see the module docstring."""

    formfield_overrides: ClassVar[Mapping[type[models.Field[Any, Any]], Mapping[str, Any]]] = {
        models.JSONField: {"form_class": JSONInputField}
    }

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Any], search_term: str
    ) -> tuple[QuerySet[Any], bool]:
        return super().get_search_results(  # type: ignore[misc]
            request, queryset, nfc(search_term)
        )

    def formfield_for_dbfield(
        self, db_field: models.Field[Any, Any], request: HttpRequest, **kwargs: Any
    ) -> forms.Field | None:
        field = super().formfield_for_dbfield(db_field, request, **kwargs)  # type: ignore[misc]
        if isinstance(field, forms.CharField) and not isinstance(field, forms.JSONField):
            multiline = isinstance(db_field, models.TextField)
            field.validators.append(
                validate_multiline_text if multiline else validate_single_line_text
            )
        return field

    def formfield_for_foreignkey(
        self, db_field: models.ForeignKey[Any, Any], request: HttpRequest, **kwargs: Any
    ) -> forms.ModelChoiceField | None:
        if "widget" not in kwargs and db_field.name in self.get_autocomplete_fields(request):  # type: ignore[attr-defined]
            kwargs["widget"] = SafeAutocompleteSelect(
                db_field,
                self.admin_site,  # type: ignore[attr-defined]
                using=kwargs.get("using"),
            )
        return super().formfield_for_foreignkey(db_field, request, **kwargs)  # type: ignore[misc]

    def formfield_for_manytomany(
        self, db_field: models.ManyToManyField[Any, Any], request: HttpRequest, **kwargs: Any
    ) -> forms.ModelMultipleChoiceField | None:
        if "widget" not in kwargs and db_field.name in self.get_autocomplete_fields(request):  # type: ignore[attr-defined]
            kwargs["widget"] = SafeAutocompleteSelectMultiple(
                db_field,
                self.admin_site,  # type: ignore[attr-defined]
                using=kwargs.get("using"),
            )
        return super().formfield_for_manytomany(db_field, request, **kwargs)  # type: ignore[misc]
