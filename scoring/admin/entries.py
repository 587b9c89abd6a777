"""The admin of entries, on their own page and inline on a competition's: added, changed
and deleted through the entry services (the kind of entry checked, an entry on the
schedule fixed).
"""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.contrib import admin
from django.contrib.admin.utils import NestedObjects
from django.contrib.admin.widgets import AutocompleteSelect
from django.core.exceptions import ValidationError
from django.db import router
from django.db.models import QuerySet
from django.forms.formsets import DELETION_FIELD_NAME
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from scoring.admin.guards import DeletedByServiceAdmin, service_deleted_objects
from scoring.rules import RuleViolation
from tournaments.models import Club, Competition, Deduction, Entry, Team, Withdrawal
from tournaments.selectors import ENTRY_JOINS, entries_on_schedule
from tournaments.services.entries import (
    ENTRY_KIND_FIELDS,
    entry_add,
    entry_change,
    entry_delete,
    entry_kind_check,
    entry_player_clubs_set,
)
from troefclub.admin_formsets import UniqueRowsFormSet
from troefclub.admin_input import AdminInputMixin
from troefclub.admin_saves import not_saved
from troefclub.rule_messages import rule_message


def entry_joins(path: str) -> tuple[str, ...]:
    """What `str(entry)` reads (`selectors.ENTRY_JOINS`), from the entry at `path`: for
    `select_related`, so a list of entries names them without a query each."""
    return tuple(f"{path}__{join}" for join in ENTRY_JOINS)


class KnownLabelAutocomplete(AutocompleteSelect):
    """An autocomplete that shows its selected row from `known` (value → label, filled from
    the form's instance, read once for a whole formset with `select_related`) instead of a
    query per widget: a competition's 1,000 entries made some 3,000 queries (issue 7).
    Falls back to Django's query when the value isn't known (a bound form's new value)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.known: dict[str, str] = {}

    def optgroups(self, name: str, value: Any, attr: Any = None) -> Any:
        selected = [str(v) for v in value if str(v) not in self.choices.field.empty_values]
        if not selected or any(choice not in self.known for choice in selected):
            try:
                return super().optgroups(name, value, attr)
            except (ValueError, ValidationError):
                # A posted value that is no key ("abc" for an id: a forged or garbled
                # post) selects nothing; Django's widget would query with it (a 500).
                return [
                    (
                        None,
                        [] if self.is_required else [self.create_option(name, "", "", False, 0)],
                        0,
                    )
                ]
        options = [] if self.is_required else [self.create_option(name, "", "", False, 0)]
        for choice in selected[:1]:  # one value: a foreign key
            options.append(self.create_option(name, choice, self.known[choice], True, len(options)))
        return [(None, options, 0)]


# The clubs a koppel's entry keeps for its players (issue 10), filled by the services.
KEPT_CLUBS = ("player_1_club", "player_2_club")


def _entry_kind_refusal(
    form: forms.BaseForm, competition: Competition, team: Team | None, club: Club | None
) -> None:
    """A koppel in a club competition, or a club in a pairs one, refused at its field
    (`entry_kind_check`, as the services refuse it)."""
    try:
        entry_kind_check(
            competition,
            team_id=team.pk if team is not None else None,
            club_id=club.pk if club is not None else None,
        )
    except RuleViolation as exc:
        field = ENTRY_KIND_FIELDS[exc.code]
        error = forms.ValidationError(rule_message(exc), code=exc.code)
        form.add_error(field if field in form.fields else None, error)


class EntryInlineFormSet(UniqueRowsFormSet):
    """A competition's entries. One on the schedule (a match or a bye) keeps its koppel or
    club and stays: its fields and its delete box are disabled, so what is posted for them
    is ignored (the database refuses the change too, `entry_scheduled_fixed`).

    Entries are added and changed through `entry_add` / `entry_change`, which keep the
    koppel's players' clubs of now (read-only here), and deleted through `entry_delete`.
    A koppel in a club competition, or a club in a pairs one, is refused at its field,
    against the kind the competition is saved with; a koppel or club in two rows at the
    later one (`UniqueRowsFormSet`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        rows = entries_on_schedule(self.get_queryset()) if self.instance.pk else None
        self.scheduled = set(rows.values_list("pk", flat=True)) if rows is not None else set()

    def add_fields(self, form: forms.Form, index: int | None) -> None:
        super().add_fields(form, index)
        instance = getattr(form, "instance", None)
        if instance is not None and instance.pk in self.scheduled:
            for name in ("team", "club", DELETION_FIELD_NAME):
                if name in form.fields:
                    form.fields[name].disabled = True
        for name in ("team", "club"):
            related = getattr(instance, name, None) if instance is not None else None
            widget = getattr(form.fields.get(name), "widget", None)
            widget = getattr(widget, "widget", widget)  # inside the admin's related wrapper
            if related is not None and isinstance(widget, KnownLabelAutocomplete):
                widget.known[str(related.pk)] = str(related)

    def clean(self) -> None:
        super().clean()
        for form in self.forms:
            if not form.has_changed() or self._should_delete_form(form):  # type: ignore[attr-defined]
                continue
            cleaned = getattr(form, "cleaned_data", {})
            _entry_kind_refusal(form, self.instance, cleaned.get("team"), cleaned.get("club"))

    def delete_existing(self, obj: Entry, commit: bool = True) -> None:
        if commit:
            entry_delete(entry_id=obj.pk)  # a refusal (a race) is shown on the page

    def save_new(self, form: forms.ModelForm, commit: bool = True) -> Entry:
        if not commit:
            return cast(Entry, super().save_new(form, commit=False))
        return entry_add(
            competition_id=self.instance.pk,
            team_id=form.instance.team_id,
            club_id=form.instance.club_id,
        )

    def save_existing(self, form: forms.ModelForm, obj: Entry, commit: bool = True) -> Entry:
        if not commit:
            return cast(Entry, super().save_existing(form, obj, commit=False))
        return entry_change(
            entry_id=obj.pk,
            competition_id=self.instance.pk,
            team_id=obj.team_id,
            club_id=obj.club_id,
        )


class EntryInline(AdminInputMixin, admin.TabularInline):
    model = Entry
    formset = EntryInlineFormSet
    extra = 0
    fields = ["team", "club", *KEPT_CLUBS]
    readonly_fields = KEPT_CLUBS
    autocomplete_fields = ["team", "club"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Entry]:
        return super().get_queryset(request).select_related(*ENTRY_JOINS, *KEPT_CLUBS)

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name in self.autocomplete_fields:
            kwargs["widget"] = KnownLabelAutocomplete(
                db_field, self.admin_site, using=kwargs.get("using")
            )
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class EntryAdminForm(forms.ModelForm):
    """An entry: a koppel in a pairs competition, a club in a club competition (refused
    at the field otherwise, `entry_kind_check`)."""

    class Meta:
        model = Entry
        fields = ["competition", "team", "club", *KEPT_CLUBS]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        instance = self.instance
        # Read-only fields (an entry on the schedule) are not on the form: as stored.
        values = {
            name: cleaned.get(name) if name in self.fields else getattr(instance, name, None)
            for name in ("competition", "team", "club")
        }
        if values["competition"] is None or any(
            name in self.errors for name in ("competition", "team", "club")
        ):
            return cleaned
        if instance.pk is None or any(
            name in self.changed_data for name in ("competition", "team", "club")
        ):
            _entry_kind_refusal(self, values["competition"], values["team"], values["club"])
        return cleaned


@admin.register(Entry)
class EntryAdmin(AdminInputMixin, DeletedByServiceAdmin):
    """Entries; one on the schedule (a match or a bye) keeps its competition, koppel and
    club, and stays. Adding or removing one changes the competition's table.

    A wrong entry that counts nowhere yet (no match, no bye, no deduction) is deleted
    through `entry_delete`, its standings rows with it; the delete page and the list's
    action say the service's reason when it refuses."""

    form = EntryAdminForm
    locked_fields = ["competition", "team", "club"]
    locked_message = ngettext_lazy(
        "Nothing was deleted: %(rows)s is on the schedule (a match or a bye). Take it off "
        "the matchdays first.",
        "Nothing was deleted: %(rows)s are on the schedule (a match or a bye). Take them off "
        "the matchdays first.",
        "count",
    )
    list_display = ["__str__", "competition", "team", "club"]
    list_filter = ["competition"]
    list_select_related = ["competition", "team__player_1", "team__player_2", "club"]
    search_fields = [
        "team__key",
        "team__name",
        "team__player_1__name",
        "team__player_2__name",
        "club__key",
        "club__name",
    ]
    fields = ["competition", "team", "club", *KEPT_CLUBS, "withdrawal_status"]
    readonly_fields = ["withdrawal_status"]
    autocomplete_fields = ["competition", "team", "club", *KEPT_CLUBS]

    @admin.display(description=_("withdrawal"))
    def withdrawal_status(self, obj: Entry | None) -> str:
        """The entry's withdrawal (issue 22) linked, or a link to withdraw it (the
        withdrawal's add page, through `entry_withdraw`)."""
        if obj is None or obj.pk is None:
            return "—"
        withdrawal = Withdrawal.objects.filter(entry=obj).first()
        if withdrawal is not None:
            url = reverse("admin:tournaments_withdrawal_change", args=[withdrawal.pk])
            return format_html('<a href="{}">{}</a>', url, withdrawal)
        url = reverse("admin:tournaments_withdrawal_add") + f"?entry={obj.pk}"
        return format_html('<a href="{}">{}</a>', url, _("Withdraw this entry…"))

    def locked_rows(self, rows: QuerySet[Any]) -> QuerySet[Any]:
        return entries_on_schedule(rows)

    def delete_refusal(self, rows: QuerySet[Any]) -> str | None:
        """Why `rows` can't be deleted: on the schedule (`locked_message`), else a
        deduction (`entry_delete`'s words, for the first such entry), else None."""
        refusal = super().delete_refusal(rows)
        if refusal is not None:
            return refusal
        kept = (
            rows.filter(pk__in=Deduction.objects.values("entry_id"))
            .select_related(*ENTRY_JOINS)
            .order_by("pk")
            .first()
        )
        if kept is None:
            return None
        return rule_message(RuleViolation("entry_has_deductions", entry=str(kept)))

    def delete_row(self, obj: Entry) -> None:
        entry_delete(entry_id=obj.pk)

    def get_deleted_objects(
        self, objs: Any, request: HttpRequest
    ) -> tuple[list[Any], dict[str, int], set[str], list[Any]]:
        """What the confirmation lists, as `entry_delete` deletes: each entry with its
        standings rows, which nobody may delete by hand (so Django's own list refused
        every entry that had a row in the table)."""
        return service_deleted_objects(
            self, objs, request, NestedObjects(using=router.db_for_write(Entry))
        )

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        """The kept clubs (issue 10) are filled by `entry_add` from the koppel's players'
        clubs of now: read-only when adding, and on a club's entry (it keeps none). On a
        koppel's entry they stay editable, for a league admin to correct a club that was
        wrong when the koppel was entered (`entry_player_clubs_set`)."""
        readonly = list(super().get_readonly_fields(request, obj))
        if obj is None or obj.team_id is None:
            readonly += [name for name in KEPT_CLUBS if name not in readonly]
        return readonly

    def save_model(self, request: HttpRequest, obj: Entry, form: Any, change: bool) -> None:
        """Through the services (they queue the standings refresh): `entry_add` for a new
        entry; `entry_change` when its competition, koppel or club changed (the new koppel's
        clubs of now win over clubs typed in the same save); else `entry_player_clubs_set`
        for a corrected club."""
        if not change:
            saved = entry_add(
                competition_id=obj.competition_id, team_id=obj.team_id, club_id=obj.club_id
            )
        elif any(name in form.changed_data for name in ("competition", "team", "club")):
            saved = entry_change(
                entry_id=obj.pk,
                competition_id=obj.competition_id,
                team_id=obj.team_id,
                club_id=obj.club_id,
            )
        elif any(name in form.changed_data for name in KEPT_CLUBS):
            saved = entry_player_clubs_set(
                entry_id=obj.pk,
                player_1_club_id=obj.player_1_club_id,
                player_2_club_id=obj.player_2_club_id,
            )
        else:
            not_saved(obj)  # nothing of the entry changed: no service, no log entry
            return
        obj.pk = saved.pk
        obj.player_1_club_id, obj.player_2_club_id = saved.player_1_club_id, saved.player_2_club_id
