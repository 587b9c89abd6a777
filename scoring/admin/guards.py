"""What the admin pages of play share about results (issue 6, "admin side doors").

A league admin must not move or lose a result through the admin. So, for the rows that hold
one (`scoring.selectors.results.result_holders`, or what a model admin says instead):

- no delete: not on the row's page, not with "delete selected" on the list;
- the fields that would move the result are read-only (`locked_fields`);
- every save and delete queues a standings refresh for each competition it touched, before
  and after;
- a refusal by the database's own checks (`troefclub:<code>`, worded by
  `troefclub.rule_messages.integrity_message`) or by a service (`RuleViolation`) during the
  save rolls the save back and shows the form again with the message, never a server error;
- rows a service deletes (`DeletedByServiceAdmin`) are deleted one by one through it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, cast

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.actions import delete_selected
from django.contrib.admin.utils import NestedObjects, quote, unquote
from django.db import IntegrityError, transaction
from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.html import format_html
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from scoring.rules import RuleViolation
from scoring.selectors.results import result_holders
from scoring.services.refresh import standings_refresh_on_commit
from troefclub.admin_dry_run import dry_run
from troefclub.rule_messages import integrity_message, rule_message

# Where a refusal of the first try of a save waits for the form's second showing.
_REFUSAL = "_troefclub_admin_refusal"

# How many of the refused rows a message names.
NAMED_ROWS = 5


def rows_named(rows: Sequence[object]) -> str:
    """The first `NAMED_ROWS` rows by name, "…" when there are more."""
    names = [str(row) for row in rows[:NAMED_ROWS]]
    if len(rows) > NAMED_ROWS:
        names.append("…")
    return "; ".join(names)


@admin.action(permissions=["delete"], description=_("Delete selected %(verbose_name_plural)s"))
def delete_selected_without_results(
    modeladmin: ResultGuardAdmin, request: HttpRequest, queryset: QuerySet[Any]
) -> HttpResponse | None:
    """Django's "delete selected", refused as a whole when one of the rows can't go
    (`ResultGuardAdmin.delete_refusal`)."""
    refusal = modeladmin.delete_refusal(queryset)
    if refusal is not None:
        modeladmin.message_user(request, refusal, messages.ERROR)
        return None
    return delete_selected(modeladmin, request, queryset)


def _refused_form(form_class: type[forms.ModelForm], message: str) -> type[forms.ModelForm]:
    """`form_class`, made invalid by `message` (a non-field error): it shows, saves nothing."""

    class RefusedForm(form_class):  # type: ignore[valid-type,misc]
        def clean(self) -> dict[str, Any]:
            super().clean()
            raise forms.ValidationError(message, code="refused")

    RefusedForm.__name__ = form_class.__name__
    return RefusedForm


def refusal_message(exc: Exception) -> str | None:
    """Words for a refusal raised while saving (a RuleViolation or one of the database's
    own checks), or None for any other error."""
    if isinstance(exc, RuleViolation):
        return rule_message(exc)
    return integrity_message(exc)


class ResultGuardAdmin(admin.ModelAdmin):
    """A model admin for rows that can hold a result; see the module's docstring.

    Subclasses set `competition_lookup` (the lookup from a row to its competition's id),
    `locked_fields`, and override `locked_rows` when "locked" means more or other than
    holding a result, `fixed_fields` when some fields are fixed earlier. `locked_message`
    is an `ngettext_lazy(singular, plural, "count")` taking `rows` (the rows named) and
    `count` (how many are locked), so one row reads "X holds", several "X; Y hold".
    """

    competition_lookup = "competition_id"
    locked_fields: Sequence[str] = ()
    locked_message = ngettext_lazy(
        "Nothing was deleted: %(rows)s holds a result. Results are undone on the director's "
        "pages (score sheet, match page) first.",
        "Nothing was deleted: %(rows)s hold a result. Results are undone on the director's "
        "pages (score sheet, match page) first.",
        "count",
    )
    # False when the subclass queues its refreshes itself (only for what moves the table).
    refreshes_standings = True

    def locked_rows(self, rows: QuerySet[Any]) -> QuerySet[Any]:
        """The rows of `rows` that can't be deleted and whose `locked_fields` are fixed."""
        return result_holders(rows)

    def delete_refusal(self, rows: QuerySet[Any]) -> str | None:
        """Why `rows` can't be deleted, in words for the admin (`locked_message`), or None."""
        locked = self.locked_rows(rows)
        named = list(locked[: NAMED_ROWS + 1])
        if not named:
            return None
        count = len(named) if len(named) <= NAMED_ROWS else locked.count()
        return str(self.locked_message % {"rows": rows_named(named), "count": count})

    def is_locked(self, obj: Model | None) -> bool:
        if obj is None or obj.pk is None:
            return False
        return self.locked_rows(self.model._default_manager.filter(pk=obj.pk)).exists()

    def fixed_fields(self, obj: Any) -> Sequence[str]:
        """The fields of `obj` that can't change any more: `locked_fields` once it is locked."""
        return self.locked_fields if self.locked_fields and self.is_locked(obj) else ()

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        readonly = list(super().get_readonly_fields(request, obj))
        return readonly + [name for name in self.fixed_fields(obj) if name not in readonly]

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if self.is_locked(obj):
            return False
        return super().has_delete_permission(request, obj)

    def get_actions(self, request: HttpRequest) -> Any:
        actions: dict[str, Any] = dict(super().get_actions(request))
        if "delete_selected" in actions:
            _func, name, description = actions["delete_selected"]
            actions["delete_selected"] = (delete_selected_without_results, name, description)
        return actions

    # ------------------------------------------------------------ standings refresh

    def competitions_of(self, rows: QuerySet[Any]) -> set[int]:
        """The ids of the competitions `rows` belong to."""
        return set(rows.values_list(self.competition_lookup, flat=True))

    def _refresh(self, competition_ids: set[int]) -> None:
        if not self.refreshes_standings:
            return
        for competition_id in sorted(competition_ids):
            standings_refresh_on_commit(competition_id)

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        rows = self.model._default_manager.filter(pk=obj.pk)
        before = self.competitions_of(rows) if change else set()
        super().save_model(request, obj, form, change)
        # A row moved to another competition changes both tables.
        self._refresh(before | self.competitions_of(self.model._default_manager.filter(pk=obj.pk)))

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        with transaction.atomic():
            touched = self.competitions_of(self.model._default_manager.filter(pk=obj.pk))
            super().delete_model(request, obj)
            self._refresh(touched)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        # One transaction: the rows go and the standings are marked stale together.
        with transaction.atomic():
            touched = self.competitions_of(queryset)
            super().delete_queryset(request, queryset)
            self._refresh(touched)

    # ------------------------------------------------------------ refusals during a save

    def changeform_view(
        self,
        request: HttpRequest,
        object_id: str | None = None,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except (IntegrityError, RuleViolation) as exc:
            message = refusal_message(exc)
            if message is None or request.method != "POST":
                raise
        # The first try was rolled back with its transaction (`changeform_view` runs in
        # one). Show the same form again, made invalid by the refusal, so nothing saves.
        setattr(request, _REFUSAL, message)
        return super().changeform_view(request, object_id, form_url, extra_context)

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        form = super().get_form(request, obj, change, **kwargs)
        refusal = getattr(request, _REFUSAL, None)
        return form if refusal is None else _refused_form(form, refusal)


def _deleted_or_refused(
    action: Callable[..., HttpResponse | None],
    modeladmin: admin.ModelAdmin[Any],
    request: HttpRequest,
    queryset: QuerySet[Any],
) -> HttpResponse | None:
    """The list's "delete selected" `action` in one transaction: a service's refusal of one
    row deletes none (nor logs them deleted) and says why."""
    try:
        with transaction.atomic():
            return action(modeladmin, request, queryset)
    except RuleViolation as exc:
        modeladmin.message_user(request, rule_message(exc), messages.ERROR)
        return None


class DeletedByServiceAdmin(ResultGuardAdmin):
    """A `ResultGuardAdmin` whose rows are deleted by a service (`delete_row`), one by one:
    its locks, checks, history and standings refresh, as on the director's pages. A
    refusal (the row came to hold a result since the page was shown) is said on the page,
    and nothing is deleted."""

    def delete_row(self, obj: Any) -> None:
        raise NotImplementedError

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        self.delete_row(obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        for obj in list(queryset.order_by("pk")):
            self.delete_row(obj)

    def get_actions(self, request: HttpRequest) -> Any:
        actions: dict[str, Any] = dict(super().get_actions(request))
        if "delete_selected" in actions:
            action, name, description = actions["delete_selected"]
            actions["delete_selected"] = (partial(_deleted_or_refused, action), name, description)
        return actions

    def delete_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """The service decides, and its refusal is said in words on the row's page (not a
        bare 403): tried first (rolled back) when the page is asked for, then for real
        when it is confirmed (the row may have come to hold a result meanwhile)."""
        try:
            obj = self.get_object(request, unquote(object_id))
            if obj is not None and self.has_delete_permission(request):
                dry_run(partial(self.delete_row, obj))
            return super().delete_view(request, object_id, extra_context)
        except RuleViolation as exc:  # `delete_view` runs in one transaction: rolled back
            self.message_user(request, rule_message(exc), messages.ERROR)
            opts = self.model._meta
            url = reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[object_id])
            return HttpResponseRedirect(url)


def service_deleted_objects(
    modeladmin: admin.ModelAdmin[Any],
    objs: Any,
    request: HttpRequest,
    collector: NestedObjects,
) -> tuple[list[Any], dict[str, int], set[str], list[Any]]:
    """What a delete page lists for rows a service deletes (`get_deleted_objects`): what
    `collector` finds goes with them; the service decides, so only the rows' own delete
    permission is asked (Django asks it of every row that goes along too, and derived
    rows, such as standings, have none: nothing could ever be deleted)."""
    rows = list(objs)
    if not rows:
        return [], {}, set(), []
    collector.collect(rows)
    perms_needed: set[str] = set()

    def shown(obj: Any) -> Any:
        opts = obj._meta
        if isinstance(obj, modeladmin.model) and not modeladmin.has_delete_permission(request, obj):
            perms_needed.add(opts.verbose_name)
        if not modeladmin.admin_site.is_registered(type(obj)):
            return f"{capfirst(opts.verbose_name)}: {obj}"
        url = reverse(
            f"{modeladmin.admin_site.name}:{opts.app_label}_{opts.model_name}_change",
            args=[quote(obj.pk)],
        )
        return format_html('{}: <a href="{}">{}</a>', capfirst(opts.verbose_name), url, obj)

    to_delete = collector.nested(shown)
    protected = [shown(obj) for obj in collector.protected]
    counts = {
        str(model._meta.verbose_name_plural): len(found)
        for model, found in cast(dict[Any, set[Any]], collector.model_objs).items()
    }
    return to_delete, counts, perms_needed, protected
