"""The admin of squads and their members: a player on one club's squad a season, members
added and removed through the squad services before the lock date.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db import IntegrityError, transaction
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.rules import RuleViolation
from tournaments.models import Squad, SquadMember
from tournaments.services.squads import squad_member_add, squad_member_remove
from troefclub.admin_dry_run import DryRun, dry_run
from troefclub.admin_formsets import UniqueRowsFormSet
from troefclub.admin_input import AdminInputMixin
from troefclub.rule_messages import rule_message


def _squad_locked(squad: Squad | None) -> bool:
    return bool(squad and squad.locked_on and timezone.localdate() >= squad.locked_on)


class SquadMemberForm(forms.ModelForm):
    class Meta:
        model = SquadMember
        fields = ["player"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk is not None:  # a member is removed and added, never changed
            self.fields["player"].disabled = True


class SquadMemberFormSet(UniqueRowsFormSet):
    """Tries the additions and removals through the services (rolled back), so a locked
    squad or a player on another club's squad shows as an error on the row; a player in
    two rows is refused at the later one (`UniqueRowsFormSet`)."""

    def clean(self) -> None:
        super().clean()
        if any(self.errors):
            return
        squad: Squad = self.instance
        if squad.club_id is None or not squad.season:
            return  # the squad form itself has errors
        added = [
            form
            for form in self.forms
            if form.instance.pk is None
            and form.cleaned_data.get("player")
            and not form.cleaned_data.get("DELETE")
        ]
        removed = [
            form
            for form in self.forms
            if form.instance.pk is not None and form.cleaned_data.get("DELETE")
        ]
        if not added and not removed:
            return
        # A row marked for deletion doesn't count in the formset's validity: a refused
        # removal is an error of the formset, a refused addition one of its row.
        refused_removals: list[forms.ValidationError] = []
        try:
            with transaction.atomic():
                target = _stored_squad(squad)
                for form in removed:
                    error = self._try(
                        partial(
                            squad_member_remove,
                            squad_id=target.pk,
                            player_id=form.instance.player_id,
                        )
                    )
                    if error is not None:
                        refused_removals.append(error)
                for form in added:
                    error = self._try(
                        partial(
                            squad_member_add,
                            squad_id=target.pk,
                            player_id=form.cleaned_data["player"].pk,
                        )
                    )
                    if error is not None:
                        form.add_error("player", error)
                raise DryRun
        except DryRun:
            pass
        except IntegrityError:
            return  # a squad for that club and season exists: the squad form says so
        if refused_removals:
            raise forms.ValidationError(refused_removals)

    @staticmethod
    def _try(call: Callable[[], object]) -> forms.ValidationError | None:
        try:
            with transaction.atomic():
                call()
        except RuleViolation as exc:
            return forms.ValidationError(rule_message(exc), code=exc.code)
        return None


def _stored_squad(squad: Squad) -> Squad:
    """The squad as the form would save it, in the database (inside a savepoint)."""
    if squad.pk is None:
        return Squad.objects.create(
            club_id=squad.club_id, season=squad.season, locked_on=squad.locked_on
        )
    Squad.objects.filter(pk=squad.pk).update(locked_on=squad.locked_on)
    return squad


class SquadMemberInline(AdminInputMixin, admin.TabularInline):
    model = SquadMember
    form = SquadMemberForm
    formset = SquadMemberFormSet
    extra = 1
    autocomplete_fields = ["player"]
    verbose_name_plural = _("players (added and removed before the lock date)")


@admin.register(Squad)
class SquadAdmin(AdminInputMixin, admin.ModelAdmin):
    """A club's squad (moederlijst) for a season; members go through `squad_member_add` /
    `squad_member_remove`, so the lock date and one club a season hold."""

    list_display = ["club", "season", "locked_on", "member_count"]
    list_filter = ["season", "club"]
    list_select_related = ["club"]
    search_fields = ["club__name", "club__key", "season"]
    autocomplete_fields = ["club"]
    inlines = [SquadMemberInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Squad]:
        return super().get_queryset(request).annotate(member_count=Count("members"))

    @admin.display(description=_("players"), ordering="member_count")
    def member_count(self, squad: Squad) -> int:
        return squad.member_count  # type: ignore[attr-defined]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        # Members repeat the squad's season: club and season are fixed once saved.
        return ["club", "season"] if obj is not None else []

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        if formset.model is not SquadMember:
            super().save_formset(request, form, formset, change)
            return
        new = [obj for obj in formset.save(commit=False) if obj.pk is None]
        try:
            for obj in formset.deleted_objects:
                squad_member_remove(squad_id=form.instance.pk, player_id=obj.player_id)
            for obj in new:
                squad_member_add(squad_id=form.instance.pk, player_id=obj.player_id)
        except RuleViolation as exc:  # changed since the form was checked (a race)
            self.message_user(request, rule_message(exc), messages.ERROR)


class SquadMemberAdminForm(forms.ModelForm):
    class Meta:
        model = SquadMember
        fields = ["squad", "player"]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        squad, player = cleaned.get("squad"), cleaned.get("player")
        if self.instance.pk is not None or squad is None or player is None:
            return cleaned
        try:
            dry_run(lambda: squad_member_add(squad_id=squad.pk, player_id=player.pk))
        except RuleViolation as exc:
            raise forms.ValidationError(rule_message(exc), code=exc.code) from None
        return cleaned


@admin.register(SquadMember)
class SquadMemberAdmin(AdminInputMixin, admin.ModelAdmin):
    """One player on one squad; added through `squad_member_add`, read-only once saved,
    removable (through `squad_member_remove`) until the squad's lock date."""

    form = SquadMemberAdminForm
    list_display = ["player", "squad", "season"]
    list_filter = ["season", "squad__club"]
    list_select_related = ["player", "squad__club"]
    search_fields = ["player__name", "player__key", "squad__club__name"]
    autocomplete_fields = ["squad", "player"]

    def get_actions(self, request: HttpRequest) -> Any:
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)  # one at a time: each checks the lock date
        return actions

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return obj is None and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is not None and _squad_locked(obj.squad):
            return False
        return super().has_delete_permission(request, obj)

    def save_model(self, request: HttpRequest, obj: SquadMember, form: Any, change: bool) -> None:
        if change:  # not reachable: a saved member is read-only
            return
        created = squad_member_add(squad_id=obj.squad_id, player_id=obj.player_id)
        obj.pk = created.pk
        obj.refresh_from_db()

    def delete_model(self, request: HttpRequest, obj: SquadMember) -> None:
        squad_member_remove(squad_id=obj.squad_id, player_id=obj.player_id)
