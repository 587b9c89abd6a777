"""The admin of deductions: added through `deduction_add` (its checks and version token),
voided with a reason (`deduction_void`), never deleted.
"""

from __future__ import annotations

from typing import Any, cast

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

from scoring.rules import RuleViolation
from tournaments.models import Competition, Deduction, Entry, Match
from tournaments.services.deductions import deduction_add, deduction_void
from tournaments.tokens import deductions_token
from troefclub.admin_dry_run import dry_run
from troefclub.admin_input import AdminInputMixin
from troefclub.rule_messages import rule_message
from troefclub.validators import validate_single_line_text


class DeductionAdminForm(forms.ModelForm):
    """A new deduction, tried through `deduction_add` (rolled back) so its refusals show
    here; the admin then adds it through the service for real."""

    points = forms.IntegerField(
        label=_("points deducted"),
        min_value=1,
        max_value=1000,
        help_text=Deduction._meta.get_field("points").help_text,
    )

    class Meta:
        model = Deduction
        fields = ["competition", "entry", "points", "reason", "match"]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.errors or self.instance.pk is not None:
            return cleaned
        competition: Competition = cleaned["competition"]
        entry: Entry = cleaned["entry"]
        match: Match | None = cleaned.get("match")
        if entry.competition_id != competition.pk:  # named, where the service gives its id
            exc = RuleViolation("entry_unknown", entry=str(entry))
            self.add_error("entry", forms.ValidationError(rule_message(exc), code=exc.code))
            return cleaned
        if match is not None:
            if match.matchday.competition_id != competition.pk:
                self.add_error("match", _("This match is not one of the competition's."))
                return cleaned
            if entry.pk not in (match.home_id, match.away_id):
                self.add_error("match", _("The entry does not play this match."))
                return cleaned
        try:
            dry_run(
                lambda: deduction_add(
                    competition_id=competition.pk,
                    entry_id=entry.pk,
                    points=cleaned["points"],
                    reason=cleaned["reason"],
                    match_id=match.pk if match else None,
                    seen=deductions_token(competition_id=competition.pk),
                )
            )
        except RuleViolation as exc:
            raise forms.ValidationError(rule_message(exc), code=exc.code) from None
        return cleaned


class DeductionVoidForm(forms.Form):
    """Why deductions are voided (`deduction_void` checks it again)."""

    reason = forms.CharField(
        label=_("Why it is voided"),
        max_length=cast(int, Deduction._meta.get_field("void_reason").max_length),
        widget=forms.TextInput(attrs={"size": 60}),
        validators=[validate_single_line_text],
    )


@admin.register(Deduction)
class DeductionAdmin(AdminInputMixin, admin.ModelAdmin):
    """Deductions are added through `deduction_add` and voided, with a reason, through
    `deduction_void` (both rebuild the standings): never changed, never deleted, so the
    list and the history keep what was deducted and why it no longer counts."""

    form = DeductionAdminForm
    actions = ["void_selected"]
    list_display = [
        "entry",
        "competition",
        "points",
        "reason",
        "match",
        "created_at",
        "voided_at",
        "void_reason",
    ]
    list_filter = ["competition", ("voided_at", admin.EmptyFieldListFilter)]
    list_select_related = [
        "competition",
        "entry__team__player_1",
        "entry__team__player_2",
        "entry__club",
        "match__home__team__player_1",
        "match__home__team__player_2",
        "match__home__club",
        "match__away__team__player_1",
        "match__away__team__player_2",
        "match__away__club",
    ]
    search_fields = ["reason", "entry__team__key", "entry__team__name", "entry__club__name"]
    autocomplete_fields = ["competition", "entry", "match"]
    date_hierarchy = "created_at"

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return obj is None and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # voided instead: `void_selected`, `void_view`

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        readonly = list(super().get_readonly_fields(request, obj))
        return readonly if obj is None else [*readonly, "voided_at", "void_reason", "void"]

    def save_model(self, request: HttpRequest, obj: Deduction, form: Any, change: bool) -> None:
        if change:  # not reachable: a saved deduction is read-only
            return
        created = deduction_add(
            competition_id=obj.competition_id,
            entry_id=obj.entry_id,
            points=obj.points,
            reason=obj.reason,
            match_id=obj.match_id,
            # The admin's add form shows no list of deductions: nothing seen to go stale.
            seen=deductions_token(competition_id=obj.competition_id),
        )
        obj.pk = created.pk
        obj.refresh_from_db()

    @admin.display(description=_("void"))
    def void(self, deduction: Deduction) -> str:
        if deduction.voided_at is not None:
            return str(_("Voided: it no longer counts in the standings."))
        url = reverse("admin:tournaments_deduction_void", args=[deduction.pk])
        return format_html('<a href="{}">{}</a>', url, _("void this deduction…"))

    def get_urls(self) -> list[Any]:
        void = path(
            "<path:object_id>/void/",
            self.admin_site.admin_view(self.void_view),
            name="tournaments_deduction_void",
        )
        return [void, *super().get_urls()]

    def void_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """Ask why, then void one deduction (`deduction_void`)."""
        deduction = self.get_object(request, object_id)
        if deduction is None:
            raise Http404(_("That deduction does not exist (any more)."))
        if not self.has_change_permission(request):
            raise PermissionDenied
        change_url = reverse("admin:tournaments_deduction_change", args=[deduction.pk])
        done = self._void(request, [deduction], action=None)
        return done if done is not None else HttpResponseRedirect(change_url)

    @admin.action(permissions=["change"], description=_("Void the selected deductions…"))
    def void_selected(
        self, request: HttpRequest, queryset: QuerySet[Deduction]
    ) -> HttpResponse | None:
        """Ask why, then void the selected deductions (`deduction_void`)."""
        return self._void(request, list(queryset), action="void_selected")

    def _void(
        self, request: HttpRequest, deductions: list[Deduction], *, action: str | None
    ) -> HttpResponse | None:
        """The reason page, or None once the deductions are voided (messages say how many,
        and which were refused)."""
        confirmed = request.method == "POST" and request.POST.get("void_confirm") == "yes"
        form = DeductionVoidForm(request.POST if confirmed else None)
        if confirmed and form.is_valid():
            voided = 0
            for deduction in deductions:
                try:
                    deduction_void(deduction_id=deduction.pk, reason=form.cleaned_data["reason"])
                except RuleViolation as exc:
                    self.message_user(
                        request, f"{deduction}: {rule_message(exc)}", messages.WARNING
                    )
                else:
                    self.log_change(request, deduction, [{"changed": {"fields": ["voided"]}}])
                    voided += 1
            self.message_user(
                request,
                ngettext("%(count)d deduction voided.", "%(count)d deductions voided.", voided)
                % {"count": voided},
                messages.SUCCESS if voided else messages.WARNING,
            )
            return None
        context = {
            **self.admin_site.each_context(request),
            "title": _("Void deductions"),
            "opts": self.opts,
            "rows": deductions,
            "form": form,
            "action": action,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            "cancel_url": reverse("admin:tournaments_deduction_changelist"),
        }
        return TemplateResponse(request, "admin/tournaments/deduction/void.html", context)
