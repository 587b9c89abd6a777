"""The admin of withdrawals and check-ins (issue 22): a withdrawal added through
`entry_withdraw` and undone by the "reinstate" action (`entry_reinstate`), never edited;
a check-in marked through `checkin_record`.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from scoring.rules import RuleViolation
from scoring.services.checkins import checkin_record
from scoring.services.withdrawals import entry_reinstate, entry_withdraw
from tournaments.models import CheckIn, Withdrawal
from tournaments.selectors import ENTRY_JOINS
from troefclub.admin_dry_run import dry_run
from troefclub.admin_input import AdminInputMixin
from troefclub.rule_messages import rule_message

ENTRY_NAMES = tuple(f"entry__{join}" for join in ENTRY_JOINS)


class WithdrawalAdminForm(forms.ModelForm):
    """A new withdrawal: the entry, from a matchday or a date (one of the two), why;
    tried through `entry_withdraw` (rolled back) so its refusals show here."""

    from_matchday = forms.IntegerField(
        label=_("from matchday"),
        required=False,
        min_value=1,
        max_value=32767,
        help_text=_("The first matchday (number) the entry no longer plays; or give a date."),
    )

    class Meta:
        model = Withdrawal
        fields = ["entry", "from_matchday", "from_date", "reason"]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.errors or self.instance.pk is not None:
            return cleaned
        try:
            dry_run(
                lambda: entry_withdraw(
                    entry_id=cleaned["entry"].pk,
                    from_matchday=cleaned.get("from_matchday"),
                    from_date=cleaned.get("from_date"),
                    reason=cleaned["reason"],
                )
            )
        except RuleViolation as exc:
            raise forms.ValidationError(rule_message(exc), code=exc.code) from None
        return cleaned

    def _post_clean(self) -> None:
        # The row is the service's to make (`save_model`): its settings and `removed`
        # are filled there, so the model's own check of the half-filled row is skipped.
        pass


@admin.register(Withdrawal)
class WithdrawalAdmin(AdminInputMixin, admin.ModelAdmin):
    """Withdrawals: added through `entry_withdraw` (the competition's settings decide what
    happens to its matches), undone through `entry_reinstate` (the list's action), never
    changed or deleted by hand: the history keeps both."""

    form = WithdrawalAdminForm
    actions = ["reinstate_selected"]
    list_display = ["entry", "from_matchday", "fixtures", "played", "reason", "created_at"]
    list_filter = ["entry__competition", "fixtures", "played"]
    list_select_related = ENTRY_NAMES
    search_fields = ["reason", "entry__team__key", "entry__team__name", "entry__club__name"]
    autocomplete_fields = ["entry"]
    readonly_fields = ["fixtures", "played", "matchdays_then", "created_at", "created_by"]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return obj is None and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # reinstated instead: `reinstate_selected`

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = ["entry", "from_matchday", "from_date", "reason"]
        return fields if obj is None else [*fields, *self.readonly_fields]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return [] if obj is None else ["entry", "from_matchday", "from_date", "reason",
                                       *self.readonly_fields]  # fmt: skip

    def save_model(self, request: HttpRequest, obj: Withdrawal, form: Any, change: bool) -> None:
        if change:  # not reachable: a withdrawal is read-only
            return
        data = form.cleaned_data
        created = entry_withdraw(
            entry_id=data["entry"].pk,
            from_matchday=data.get("from_matchday"),
            from_date=data.get("from_date"),
            reason=data["reason"],
            by=request.user if request.user.is_authenticated else None,
        )
        obj.pk = created.pk
        obj.refresh_from_db()

    @admin.action(description=_("Reinstate the selected entries"))
    def reinstate_selected(self, request: HttpRequest, queryset: QuerySet[Withdrawal]) -> None:
        done = 0
        for withdrawal in queryset.select_related(*ENTRY_NAMES):
            try:
                entry_reinstate(
                    entry_id=withdrawal.entry_id,
                    by=request.user if request.user.is_authenticated else None,
                )
            except RuleViolation as exc:
                self.message_user(request, rule_message(exc), messages.ERROR)
            else:
                done += 1
        if done:
            self.message_user(
                request,
                ngettext("%(count)s entry reinstated.", "%(count)s entries reinstated.", done)
                % {"count": done},
                messages.SUCCESS,
            )


class CheckInAdminForm(forms.ModelForm):
    """An entry marked present or absent on a matchday's evening, through `checkin_record`
    (tried first, rolled back, so its refusals show here)."""

    class Meta:
        model = CheckIn
        fields = ["entry", "number", "present"]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.errors:
            return cleaned
        try:
            dry_run(
                lambda: checkin_record(
                    entry_id=cleaned["entry"].pk,
                    number=cleaned["number"],
                    present=cleaned["present"],
                )
            )
        except RuleViolation as exc:
            raise forms.ValidationError(rule_message(exc), code=exc.code) from None
        return cleaned

    def validate_unique(self) -> None:
        # A second mark of the same entry and evening changes the first (`checkin_record`).
        pass


@admin.register(CheckIn)
class CheckInAdmin(AdminInputMixin, admin.ModelAdmin):
    """Check-ins: who was present on which evening; marked through `checkin_record`."""

    form = CheckInAdminForm
    list_display = ["entry", "number", "present", "at", "by"]
    list_filter = ["entry__competition", "number", "present"]
    list_select_related = [*ENTRY_NAMES, "by"]
    search_fields = ["entry__team__key", "entry__team__name", "entry__club__name"]
    autocomplete_fields = ["entry"]

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # marked absent instead

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return [] if obj is None else ["entry", "number", "at", "by"]

    def save_model(self, request: HttpRequest, obj: CheckIn, form: Any, change: bool) -> None:
        saved = checkin_record(
            entry_id=obj.entry_id,
            number=obj.number,
            present=obj.present,
            by=request.user if request.user.is_authenticated else None,
        )
        obj.pk = saved.pk
        obj.refresh_from_db()
