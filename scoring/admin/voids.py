"""Voiding matches and games in the admin (issue 22), as deductions are voided there
(`tournaments.admin.deductions`): an action on the list and a page on the row, both asking
why, both through the service (`match_void`, `game_void`). A voided row stays in the list
and its history; it counts nowhere."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from scoring.forms.voids import REASON_MAX
from scoring.rules import RuleViolation
from troefclub.rule_messages import rule_message
from troefclub.validators import validate_single_line_text

VOID_FIELDS = ("voided_at", "void_reason", "voided_by", "void")


class VoidReasonForm(forms.Form):
    """Why the rows are voided (the service checks it again)."""

    reason = forms.CharField(
        label=_("Why it is voided"),
        max_length=REASON_MAX,
        widget=forms.TextInput(attrs={"size": 60}),
        validators=[validate_single_line_text],
    )


class VoidAdminMixin:
    """`void_selected` (an action) and `<id>/void/` (a page) for a model whose rows are
    voided by `void_row(row, reason, user)` (a service call raising RuleViolation). The
    admin lists "void_selected" in its `actions`."""

    def void_row(self, row: Any, reason: str, user: Any) -> Any:
        """Void `row` through its service; raises RuleViolation."""
        raise NotImplementedError

    @admin.display(description=_("void"))
    def void(self, row: Any) -> str:
        if row.pk is None:
            return "—"
        if row.voided_at is not None:
            return str(_("Voided: it counts nowhere."))
        opts = row._meta
        url = reverse(f"admin:{opts.app_label}_{opts.model_name}_void", args=[row.pk])
        return format_html('<a href="{}">{}</a>', url, _("void it…"))

    def get_urls(self) -> list[Any]:
        admin_self: Any = self
        opts = admin_self.model._meta
        void = path(
            "<path:object_id>/void/",
            admin_self.admin_site.admin_view(self.void_view),
            name=f"{opts.app_label}_{opts.model_name}_void",
        )
        return [void, *super().get_urls()]  # type: ignore[misc]

    def void_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """Ask why, then void one row."""
        admin_self: Any = self
        row = admin_self.get_object(request, object_id)
        if row is None:
            raise Http404(_("That row does not exist (any more)."))
        if not admin_self.has_change_permission(request, row):
            raise PermissionDenied
        opts = row._meta
        change_url = reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[row.pk])
        done = self._void(request, [row], action=None)
        return done if done is not None else HttpResponseRedirect(change_url)

    @admin.action(permissions=["change"], description=_("Void the selected rows…"))
    def void_selected(self, request: HttpRequest, queryset: QuerySet[Any]) -> HttpResponse | None:
        """Ask why, then void the selected rows."""
        return self._void(request, list(queryset), action="void_selected")

    def _void(
        self, request: HttpRequest, rows: list[Any], *, action: str | None
    ) -> HttpResponse | None:
        """The reason page, or None once the rows are voided (messages say how many, and
        which were refused)."""
        admin_self: Any = self
        confirmed = request.method == "POST" and request.POST.get("void_confirm") == "yes"
        form = VoidReasonForm(request.POST if confirmed else None)
        if confirmed and form.is_valid():
            voided = 0
            for row in rows:
                was_voided = row.voided_at is not None
                try:
                    self.void_row(row, form.cleaned_data["reason"], request.user)
                except RuleViolation as exc:
                    admin_self.message_user(
                        request, f"{row}: {rule_message(exc)}", messages.WARNING
                    )
                else:
                    if was_voided:  # voided already, with this reason: nothing written
                        continue
                    admin_self.log_change(request, row, [{"changed": {"fields": ["voided"]}}])
                    voided += 1
            admin_self.message_user(
                request,
                ngettext("%(count)d row voided.", "%(count)d rows voided.", voided)
                % {"count": voided},
                messages.SUCCESS if voided else messages.WARNING,
            )
            return None
        opts = admin_self.model._meta
        context = {
            **admin_self.admin_site.each_context(request),
            "title": _("Void"),
            "opts": opts,
            "rows": rows,
            "form": form,
            "action": action,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            "cancel_url": reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist"),
        }
        return TemplateResponse(request, "admin/scoring/void.html", context)
