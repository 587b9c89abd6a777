"""Hostile input in the admin, handled once for every ModelAdmin and inline of our apps.

`AdminInputMixin` goes first in the bases of each of them (a test checks):

- Search ignores case and accents (issue 18): every text field of `search_fields` is
  compared folded (`troefclub.text.Fold`, in the database), so "gerard eluard" finds
  "Gérard Éluard" and "Kolibrie" "Kolibrië"; the term is NFC first, like the names
  (`troefclub.fields.NameField`), and a word of only punctuation ("&") is left out, so a
  koppel typed as it is shown ("Anna & Bert") is found by its players' names. The change
  list and the autocomplete pickers both.
- Text fields refuse control characters and lone surrogates (one-line fields tab and line
  breaks too, `troefclub.validators`), as the importer does: what the admin saves can
  always be exported and imported again.
- JSON fields read their text like an import file (`troefclub.forms.JSONInputField`).
- Autocomplete selects never fail to show a value that is not an id (a crafted POST):
  Django's widget looks the value up as it is and fails with HTTP 500; ours leaves it out,
  and the form says the choice is not valid.
- Many-to-many fields refuse a value their model's key can't hold (a crafted POST of a
  30-digit id) as not a valid value, as a single choice does: Django's field hands it to
  the database, which fails on it (HTTP 500). `SafeModelMultipleChoiceField`.
- An admin address whose id the model's key can't hold is a row that doesn't exist (a
  history page: a 404): Django hands a number too big for the database to it (SQLite:
  OverflowError), django-simple-history's history pages any id at all (`…/game/abc/
  history/`, a stored version `…/history/abc/`: ValueError). Both were HTTP 500 (issue
  19's URL walk).

- Permissions are listed in the reader's language (`PermissionsField`): Django stores
  their names in English when it migrates ("Can add koppel"), and shows those.
- A change page saved as it was shown writes nothing, and a change is one history row
  (`troefclub.admin_saves.UnchangedSaveMixin`, a base of `AdminInputMixin`; issue 19).

`OrderedChoicesField` picks a few choices from a list, in order, without JSON and without
JavaScript (issue 8: the tie-breaks of a competition).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from django import forms
from django.contrib.admin.options import IncorrectLookupParameters
from django.contrib.admin.utils import unquote
from django.contrib.admin.widgets import AutocompleteSelect, AutocompleteSelectMultiple
from django.contrib.auth.models import Permission
from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db import models
from django.db.models import QuerySet
from django.db.models.constants import LOOKUP_SEP
from django.forms.renderers import BaseRenderer
from django.http import Http404, HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.utils.text import Truncator, smart_split
from django.utils.translation import gettext_lazy as _

from troefclub.admin_saves import UnchangedSaveMixin
from troefclub.bidi import name_text
from troefclub.forms import JSONInputField
from troefclub.validators import validate_multiline_text, validate_single_line_text


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


class SafeModelMultipleChoiceField(forms.ModelMultipleChoiceField):
    """Django's many-to-many choice, which checks each value against its model's key
    (type and range, as `_ValidIdsOnly`) before the database sees it: a value the key
    can't hold is "invalid_pk_value", as Django says of a value that is not a number."""

    def _check_values(self, value: Any) -> QuerySet[Any]:
        try:
            items = frozenset(value)
        except TypeError:
            return super()._check_values(value)  # type: ignore[misc]  # "invalid_list"
        opts = self.queryset.model._meta  # type: ignore[union-attr]  # set by the admin
        key = opts.get_field(self.to_field_name) if self.to_field_name else opts.pk
        for item in items:
            self.validate_no_null_characters(item)
            try:
                key.run_validators(key.to_python(item))
            except (ValidationError, TypeError, ValueError):
                raise ValidationError(
                    self.error_messages["invalid_pk_value"],
                    code="invalid_pk_value",
                    params={"pk": item},
                ) from None
        return super()._check_values(value)  # type: ignore[misc]


def folded_search_field(model: type[models.Model], spec: str) -> str:
    """`spec`, an entry of `search_fields` ("name", "^name", "team__player_1__name"), with
    `__fold` after a path that ends at a text field, so Django's `icontains` (`istartswith`,
    `iexact`) compares both sides folded. Other fields, explicit lookups and full-text
    ("@") searches are left as they are."""
    if spec.startswith("@"):
        return spec
    path = spec.lstrip("^=")
    opts = model._meta
    field: Any = None
    for part in path.split(LOOKUP_SEP):
        if field is not None and not field.is_relation:
            return spec  # a lookup or transform of its own ("name__exact")
        try:
            field = opts.get_field(opts.pk.name if part == "pk" else part)
        except FieldDoesNotExist:
            return spec
        if field.is_relation and field.related_model is not None:
            opts = field.related_model._meta
    if isinstance(field, models.CharField | models.TextField):
        return f"{spec}{LOOKUP_SEP}fold"
    return spec


def search_term_words(term: str) -> str:
    """A search term as the admin searches it: NFC, and without its words that hold no
    letter or digit ("&" between a koppel's players, as it is shown)."""
    words = [word for word in smart_split(name_text(term)) if any(char.isalnum() for char in word)]
    return " ".join(words)


# Django's four permissions of every model, in words that translate (Django's own are
# stored in English: `Permission.name`).
DEFAULT_PERMISSION_WORDS = {
    "add": _("Can add %(name)s"),
    "change": _("Can change %(name)s"),
    "delete": _("Can delete %(name)s"),
    "view": _("Can view %(name)s"),
}


def permission_label(permission: Permission) -> str:
    """`permission` as the user and group pages list it, translated: "<app> | <model> |
    <what it allows>" ("Competities | koppel | Mag koppel toevoegen"). The model's own
    permissions (`Meta.permissions`) by their (translated) words; a history model
    (django-simple-history) as "history of <model>"; an unknown one as Django says it."""
    model = permission.content_type.model_class()
    if model is None:
        return str(permission)
    opts = model._meta
    original = getattr(model, "instance_type", None)  # a historical model's tracked one
    name: Any = (
        _("history of %(name)s") % {"name": original._meta.verbose_name}
        if original is not None
        else opts.verbose_name
    )
    action, _sep, rest = permission.codename.partition("_")
    if rest == opts.model_name and action in DEFAULT_PERMISSION_WORDS:
        words: Any = DEFAULT_PERMISSION_WORDS[action] % {"name": name}
    else:
        words = dict(opts.permissions).get(permission.codename, permission.name)
    return f"{opts.app_config.verbose_name} | {name} | {words}"


class PermissionsField(SafeModelMultipleChoiceField):
    """The permissions of a user or a group, labelled by `permission_label`."""

    def label_from_instance(self, obj: Any) -> str:
        return permission_label(obj)


def key_holds(key: models.Field[Any, Any], value: Any) -> bool:
    """Whether `value` (an id from an admin address, unquoted) is one the primary key
    `key` can hold: of its type and, a number, within what the database stores (a key
    that is a relation, as the key it points to)."""
    target = getattr(key, "target_field", key)
    try:
        target.run_validators(target.to_python(value))
    except ValidationError:
        return False
    return True


def _filtered_number_field(model: type[models.Model], lookup: str) -> models.Field[Any, Any] | None:
    """The number or key field a change list filter (`club`, `matchday__id__exact`,
    `club__in`) compares with its value, or None when `lookup` names no such field (a
    text field, an admin parameter such as `q` or `o`, a lookup on no field)."""
    parts = lookup.split(LOOKUP_SEP)
    if parts[-1] in ("exact", "in", "lt", "lte", "gt", "gte"):
        parts = parts[:-1]
    field: Any = None
    for part in parts:
        try:
            field = model._meta.get_field(part) if part != "pk" else model._meta.pk
        except FieldDoesNotExist:
            return None
        if field.is_relation and field.related_model is not None:
            model = field.related_model
    try:
        target = getattr(field, "target_field", field)
    except FieldDoesNotExist:  # a reverse relation with no single target
        return None
    if isinstance(target, models.IntegerField | models.AutoField):
        return field
    return None


def key_or_404(key: models.Field[Any, Any], value: str) -> None:
    """Raise Http404 unless `value` (an id from an admin address, quoted as the admin
    quotes it) is one the primary key `key` can hold (`key_holds`)."""
    if not key_holds(key, unquote(value)):
        raise Http404


class AdminInputMixin(UnchangedSaveMixin):
    """For every ModelAdmin and inline of our apps; see the module docstring."""

    formfield_overrides: ClassVar[Mapping[type[models.Field[Any, Any]], Mapping[str, Any]]] = {
        models.JSONField: {"form_class": JSONInputField}
    }

    def get_search_fields(self, request: HttpRequest) -> list[str]:
        """The admin's `search_fields`, each text field compared folded (`__fold`)."""
        fields = super().get_search_fields(request)  # type: ignore[misc]
        return [folded_search_field(self.model, field) for field in fields]  # type: ignore[attr-defined]

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Any], search_term: str
    ) -> tuple[QuerySet[Any], bool]:
        return super().get_search_results(  # type: ignore[misc]
            request, queryset, search_term_words(search_term)
        )

    def get_object(
        self, request: HttpRequest, object_id: str, from_field: str | None = None
    ) -> Any:
        """The row the admin address names (Django's), or None, which the admin answers
        with "doesn't exist", for an id its key can't hold: Django catches an id of the
        wrong type but hands a number too big for the database to it (SQLite:
        OverflowError, HTTP 500; issue 19's URL walk)."""
        options = self.model._meta  # type: ignore[attr-defined]
        key = options.pk if from_field is None else options.get_field(from_field)
        if not key_holds(key, object_id):
            return None
        return super().get_object(request, object_id, from_field)  # type: ignore[misc]

    def get_changelist_instance(self, request: HttpRequest) -> Any:
        """Django's change list, refused (`IncorrectLookupParameters`: the admin answers
        with its "?e=1" page) when a filter of the address names a number no key or number
        field can hold: Django hands it to the database, which on SQLite raises
        OverflowError, HTTP 500 (`?club=99999999999999999999`; issue 19's walk of a new
        user)."""
        for lookup, values in request.GET.lists():
            field = _filtered_number_field(self.model, lookup)  # type: ignore[attr-defined]
            if field is None:
                continue
            for value in values:
                parts = value.split(",") if lookup.endswith("__in") else [value]
                if not all(key_holds(field, part) for part in parts if part):
                    raise IncorrectLookupParameters(lookup)
        return super().get_changelist_instance(request)  # type: ignore[misc]

    def history_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """The history of the row `object_id` (Django's, or django-simple-history's);
        Http404 for an id its model's key can't hold."""
        key_or_404(self.model._meta.pk, object_id)  # type: ignore[attr-defined]
        return super().history_view(request, object_id, extra_context)  # type: ignore[misc]

    def history_form_view(
        self,
        request: HttpRequest,
        object_id: str,
        version_id: str,
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        """One stored version of a row (django-simple-history's admins only: the address
        exists for them); Http404 for an id or a version no key can hold."""
        model = self.model  # type: ignore[attr-defined]
        history = getattr(model, model._meta.simple_history_manager_attribute)
        key_or_404(model._meta.pk, object_id)
        key_or_404(history.model._meta.pk, version_id)
        return super().history_form_view(  # type: ignore[misc]
            request, object_id, version_id, extra_context
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
        form_class = PermissionsField if db_field.related_model is Permission else None
        kwargs.setdefault("form_class", form_class or SafeModelMultipleChoiceField)
        return super().formfield_for_manytomany(db_field, request, **kwargs)  # type: ignore[misc]


class OrderedChoicesWidget(forms.Widget):
    """Numbered places 1, 2, 3 …, each a select of the same choices with an empty one.

    Every select carries the field's name, so the browser posts them in the page's order
    and `value_from_datadict` reads that order back as a list (no JavaScript). The value
    is a list of choice keys; a stored list longer than `places` gets a place each.
    Rendered from the project's templates (`admin/widgets/ordered_choices.html`): the form
    renderer only looks in the apps' template folders.
    """

    template_name = "admin/widgets/ordered_choices.html"
    place_label = _("Place %(number)s")

    def __init__(
        self,
        attrs: dict[str, Any] | None = None,
        choices: Sequence[tuple[str, Any]] = (),
        places: int = 0,
    ) -> None:
        super().__init__(attrs)
        self.choices = list(choices)
        self.places = places

    def format_value(self, value: Any) -> list[str]:  # type: ignore[override]
        if value is None or value == "":
            return []
        if isinstance(value, str):
            return [value]
        return ["" if item is None else str(item) for item in value]

    def value_from_datadict(self, data: Any, files: Any, name: str) -> Any:
        if hasattr(data, "getlist"):
            return data.getlist(name) if name in data else None
        return data.get(name)

    def value_omitted_from_data(self, data: Any, files: Any, name: str) -> bool:
        return name not in data

    def use_required_attribute(self, initial: Any) -> bool:
        return False  # every place may stay empty

    def id_for_label(self, id_: str) -> str:
        return f"{id_}_0" if id_ else id_

    def get_context(self, name: str, value: Any, attrs: dict[str, Any] | None) -> dict[str, Any]:
        context = super().get_context(name, value, attrs)
        values = self.format_value(value)
        base = context["widget"]["attrs"]
        select = forms.Select(choices=[("", "—"), *self.choices])
        places = []
        for index in range(max(self.places, len(values))):
            label = self.place_label % {"number": index + 1}
            place_attrs = {**base, "aria-label": label}
            if base.get("id"):
                place_attrs["id"] = f"{base['id']}_{index}"
            chosen = values[index] if index < len(values) else ""
            places.append(select.render(name, chosen, place_attrs))
        context["widget"]["places"] = places
        return context

    def render(
        self,
        name: str,
        value: Any,
        attrs: dict[str, Any] | None = None,
        renderer: BaseRenderer | None = None,
    ) -> SafeString:
        return render_to_string(self.template_name, self.get_context(name, value, attrs))


def _shown(text: str) -> str:
    """`text` as an error message may show it: 40 characters at most, and anything that
    does not print (a NUL, a lone surrogate) as "?"."""
    return Truncator("".join(ch if ch.isprintable() else "?" for ch in text)).chars(40)


class OrderedChoicesField(forms.Field):
    """Some of `choices`, in the order of their places (`OrderedChoicesWidget`): a list of
    keys, empty places left out. A key that is not a choice, or one chosen twice, is a
    form error naming it (and the places). `error_messages` "unknown" (takes `value`) and
    "twice" (takes `choice`, `first`, `second`) word them for the field's own things;
    `names` (key → short name) names a choice in them, its label otherwise."""

    widget = OrderedChoicesWidget
    default_error_messages = {
        "unknown": _("“%(value)s” is not one of the choices."),
        "twice": _(
            "“%(choice)s” is chosen twice (places %(first)s and %(second)s): choose each once."
        ),
    }

    def __init__(
        self,
        *,
        choices: Sequence[tuple[str, Any]],
        places: int | None = None,
        names: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)
        self.choices = list(choices)
        self.keys = frozenset(dict(self.choices))
        self.names = {**dict(self.choices), **(names or {})}
        self.widget.choices = self.choices
        self.widget.places = len(self.choices) if places is None else places

    @staticmethod
    def _places(value: Any) -> list[str]:
        """The posted places as texts, empty ones kept (they number the places)."""
        if value is None or value == "":
            return []
        items = [value] if isinstance(value, str) else list(value)
        return ["" if item is None else str(item).strip() for item in items]

    def clean(self, value: Any) -> list[str]:
        if self.disabled:
            return list(value or [])
        chosen = [(place, key) for place, key in enumerate(self._places(value), 1) if key]
        if self.required and not chosen:
            raise ValidationError(self.error_messages["required"], code="required")
        errors: list[ValidationError] = []
        first_place: dict[str, int] = {}
        for place, key in chosen:
            if key not in self.keys:
                errors.append(
                    ValidationError(
                        self.error_messages["unknown"],
                        code="unknown",
                        params={"value": _shown(key)},
                    )
                )
            elif key in first_place:
                errors.append(
                    ValidationError(
                        self.error_messages["twice"],
                        code="twice",
                        params={
                            "choice": self.names[key],
                            "first": first_place[key],
                            "second": place,
                        },
                    )
                )
            else:
                first_place[key] = place
        if errors:
            raise ValidationError(errors)
        result = [key for _place, key in chosen]
        self.run_validators(result)
        return result

    def has_changed(self, initial: Any, data: Any) -> bool:
        if self.disabled:
            return False
        posted = [key for key in self._places(data) if key]
        return posted != list(initial or [])
