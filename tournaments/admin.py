"""Admin for league admins: clubs, players, koppels, competitions, entries, schedules,
byes, deductions and squads.

Results never go in here: a match's reported totals and its forfeit are read-only (the
director's match page enters them through the rules), and games and rounds are in
`scoring.admin`. Deductions and squad members are added through `tournaments.services`
(`deduction_add`, `squad_member_add`), so the same checks apply as on the director's pages;
a refusal shows as a form error (`scoring.messages.rule_message`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db import IntegrityError, transaction
from django.db.models import Count, Q, QuerySet
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from scoring.messages import rule_message
from scoring.rules import RuleViolation
from scoring.services import competition_games_rescore, standings_refresh_on_commit
from tournaments.forms import CompetitionAdminForm
from tournaments.models import (
    Bye,
    Club,
    Competition,
    Deduction,
    Entry,
    Match,
    Matchday,
    Player,
    Squad,
    SquadMember,
    Team,
)
from tournaments.services import (
    deduction_add,
    deduction_delete,
    squad_member_add,
    squad_member_remove,
)

RESULTS_READ_ONLY = _(
    "Results are checked by the rules engine, so they are entered and corrected on the "
    "director's pages (score sheet, match page), not here."
)
SCHEDULE_READ_ONLY = _(
    "Tables, forfeits and pairing reasons change results and the games at each table, so "
    "they are set on the director's match page (a forfeit needs its reason), not here."
)
# Competition fields that change the standings but not the games: a change queues a refresh.
STANDINGS_FIELDS = (
    "bye_result",
    "bye_score_for",
    "bye_score_against",
    "forfeit_score_for",
    "forfeit_score_against",
    "squads_required",
    "ineligible_deduction",
    "confirmation_required",
    "points_win",
    "points_draw",
    "points_loss",
    "tiebreaks",
)


class _DryRun(Exception):
    """Raised to roll back a service call made only to see whether it would be refused."""


def _dry_run(call: Callable[[], object]) -> None:
    """Run `call` in a savepoint and roll it back; its RuleViolation, if any, propagates."""
    try:
        with transaction.atomic():
            call()
            raise _DryRun
    except _DryRun:
        pass


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "key", "player_count"]
    search_fields = ["name", "key"]
    prepopulated_fields = {"key": ["name"]}

    def get_queryset(self, request: HttpRequest) -> QuerySet[Club]:
        return super().get_queryset(request).annotate(player_count=Count("players"))

    @admin.display(description=_("players"), ordering="player_count")
    def player_count(self, club: Club) -> int:
        return club.player_count  # type: ignore[attr-defined]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "key", "club"]
    list_filter = ["club"]
    list_select_related = ["club"]
    search_fields = ["name", "key", "club__name"]
    autocomplete_fields = ["club"]


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["key", "name", "player_1", "player_2"]
    list_select_related = ["player_1", "player_2"]
    search_fields = ["key", "name", "player_1__name", "player_2__name"]
    autocomplete_fields = ["player_1", "player_2"]


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    autocomplete_fields = ["team", "club"]


@admin.register(Competition)
class CompetitionAdmin(admin.ModelAdmin):
    form = CompetitionAdminForm
    list_display = [
        "name",
        "season",
        "kind",
        "schedule_format",
        "target_score",
        "fixed_rounds",
        "entry_count",
        "public_page",
    ]
    list_filter = [
        "kind",
        "schedule_format",
        "season",
        "callers_required",
        "close_by_director_allowed",
    ]
    search_fields = ["name", "slug", "season"]
    prepopulated_fields = {"slug": ["name", "season"]}
    filter_horizontal = ["directors"]
    inlines = [EntryInline]
    fieldsets = [
        (None, {"fields": ["name", "slug", "season", "kind"]}),
        (
            _("Game rules"),
            {
                "description": _(
                    "RULES.md “Rule-set options”. A change is tried on every game already "
                    "played: games that break it are named and nothing is saved; otherwise "
                    "all games are re-scored and the standings rebuilt."
                ),
                "fields": [
                    "target_score",
                    "fixed_rounds",
                    "kap_partner_allowed",
                    "early_kap_penalty",
                    "redeal_allowed",
                    "callers_required",
                    "close_by_director_allowed",
                    "trump_open_card",
                ],
            },
        ),
        (
            _("Stinkende bonus"),
            {
                "description": _(
                    "Extra points when the koppel that did not call makes a kap or a baunie. "
                    "0 and 0 = off; on, every round needs its caller."
                ),
                "fields": ["stinkende_kap_bonus", "stinkende_baunie_bonus"],
            },
        ),
        (
            _("Standings"),
            {"fields": ["points_win", "points_draw", "points_loss", "tiebreaks"]},
        ),
        (
            _("Schedule and byes"),
            {
                "description": _(
                    "How the matchdays are made, and what a bye (no opponent) is worth."
                ),
                "fields": ["schedule_format", "bye_result", "bye_score_for", "bye_score_against"],
            },
        ),
        (
            _("Club matches"),
            {
                "description": _("For club competitions: the koppels of a side and squads."),
                "fields": [
                    "koppels_per_side",
                    "min_koppels",
                    "sittings",
                    "late_koppel_until_sitting",
                    "squads_required",
                    "ineligible_deduction",
                ],
            },
        ),
        (
            _("Results"),
            {
                "description": _(
                    "Game points of a forfeited match, and whether results wait for confirmation "
                    "before they count. A change rebuilds the standings."
                ),
                "fields": ["forfeit_score_for", "forfeit_score_against", "confirmation_required"],
            },
        ),
        (
            _("Directors"),
            {
                "description": _("Staff members may direct every competition."),
                "fields": ["directors"],
            },
        ),
    ]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Competition]:
        return super().get_queryset(request).annotate(entry_count=Count("entries"))

    def save_model(self, request: HttpRequest, obj: Competition, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if change and any(name in form.changed_data for name in Competition.RULE_FIELDS):
            # The form already tried the new rules on every game; this stores the new points.
            changed = competition_games_rescore(competition_id=obj.pk)
            self.message_user(
                request, _("Rules changed: %(count)s games re-scored.") % {"count": changed}
            )
        elif change and any(name in form.changed_data for name in STANDINGS_FIELDS):
            standings_refresh_on_commit(obj.pk)

    @admin.display(description=_("entries"), ordering="entry_count")
    def entry_count(self, competition: Competition) -> int:
        return competition.entry_count  # type: ignore[attr-defined]

    @admin.display(description=_("public page"))
    def public_page(self, competition: Competition) -> str:
        url = reverse("competition_detail", kwargs={"slug": competition.slug})
        return format_html('<a href="{}">{}</a>', url, _("view"))


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
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
    autocomplete_fields = ["competition", "team", "club"]


class MatchInline(admin.TabularInline):
    model = Match
    extra = 0
    fields = ["table", "home", "away", "total_home", "total_away", "forfeit"]
    readonly_fields = ["table", "total_home", "total_away", "forfeit"]
    autocomplete_fields = ["home", "away"]
    show_change_link = True


class ByeInline(admin.TabularInline):
    """The matchday's byes, to look at; add one on the bye page (it is checked there)."""

    model = Bye
    extra = 0
    fields = ["entry", "reason"]
    readonly_fields = ["entry", "reason"]
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Matchday)
class MatchdayAdmin(admin.ModelAdmin):
    list_display = ["__str__", "competition", "number", "date", "match_count"]
    list_filter = ["competition"]
    list_select_related = ["competition"]
    search_fields = ["competition__name", "competition__slug"]
    autocomplete_fields = ["competition"]
    date_hierarchy = "date"
    inlines = [MatchInline, ByeInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Matchday]:
        return super().get_queryset(request).annotate(match_count=Count("matches"))

    @admin.display(description=_("matches"), ordering="match_count")
    def match_count(self, matchday: Matchday) -> int:
        return matchday.match_count  # type: ignore[attr-defined]


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = [
        "__str__",
        "matchday",
        "competition",
        "table",
        "total_home",
        "total_away",
        "forfeit",
    ]
    list_filter = ["matchday__competition", "forfeit"]
    list_select_related = [
        "matchday__competition",
        "home__team__player_1",
        "home__team__player_2",
        "home__club",
        "away__team__player_1",
        "away__team__player_2",
        "away__club",
    ]
    search_fields = [
        "home__team__key",
        "home__team__name",
        "home__club__name",
        "away__team__key",
        "away__team__name",
        "away__club__name",
    ]
    autocomplete_fields = ["matchday", "home", "away"]
    readonly_fields = [
        "total_home",
        "total_away",
        "director_page",
        "table",
        "forfeit",
        "forfeit_reason",
        "pairing_reason",
    ]
    fieldsets = [
        (None, {"fields": ["matchday", "home", "away"]}),
        (
            _("Reported totals"),
            {
                "description": RESULTS_READ_ONLY,
                "fields": ["total_home", "total_away", "director_page"],
            },
        ),
        (
            _("Table, forfeit and pairing (read-only)"),
            {
                "description": SCHEDULE_READ_ONLY,
                "fields": ["table", "forfeit", "forfeit_reason", "pairing_reason"],
            },
        ),
    ]

    @admin.display(description=_("competition"), ordering="matchday__competition__name")
    def competition(self, match: Match) -> Competition:
        return match.matchday.competition

    @admin.display(description=_("match page"))
    def director_page(self, match: Match) -> str:
        if match.pk is None:
            return "—"
        url = reverse(
            "match_detail",
            kwargs={"slug": match.matchday.competition.slug, "match_id": match.pk},
        )
        return format_html('<a href="{}">{}</a>', url, _("open the match page"))


# ------------------------------------------------------------------ byes


class ByeAdminForm(forms.ModelForm):
    """A bye goes to an entry of the matchday's competition that has no match that day."""

    class Meta:
        model = Bye
        fields = ["matchday", "entry", "reason"]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        matchday, entry = cleaned.get("matchday"), cleaned.get("entry")
        if matchday is None or entry is None:
            return cleaned
        if entry.competition_id != matchday.competition_id:
            raise forms.ValidationError(
                rule_message(RuleViolation("entry_unknown", entry=str(entry))),
                code="entry_unknown",
            )
        busy = matchday.matches.filter(Q(home=entry) | Q(away=entry)).exists()
        busy = busy or matchday.byes.filter(entry=entry).exclude(pk=self.instance.pk).exists()
        if busy:
            exc = RuleViolation("entry_already_playing", entry=str(entry))
            raise forms.ValidationError(rule_message(exc), code=exc.code)
        return cleaned


@admin.register(Bye)
class ByeAdmin(admin.ModelAdmin):
    """Byes: added here for a manual schedule (checked like a match), else made by the
    schedule services. A saved bye is read-only; delete it to move it."""

    form = ByeAdminForm
    list_display = ["entry", "matchday", "competition"]
    list_filter = ["matchday__competition"]
    list_select_related = [
        "matchday__competition",
        "entry__team__player_1",
        "entry__team__player_2",
        "entry__club",
    ]
    search_fields = ["entry__team__key", "entry__team__name", "entry__club__name"]
    autocomplete_fields = ["matchday", "entry"]

    @admin.display(description=_("competition"), ordering="matchday__competition__name")
    def competition(self, bye: Bye) -> Competition:
        return bye.matchday.competition

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return obj is None and super().has_change_permission(request, obj)

    def save_model(self, request: HttpRequest, obj: Bye, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        standings_refresh_on_commit(obj.matchday.competition_id)

    def delete_model(self, request: HttpRequest, obj: Bye) -> None:
        competition_id = obj.matchday.competition_id
        super().delete_model(request, obj)
        standings_refresh_on_commit(competition_id)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Bye]) -> None:
        ids = set(queryset.values_list("matchday__competition_id", flat=True))
        super().delete_queryset(request, queryset)
        for competition_id in ids:
            standings_refresh_on_commit(competition_id)


# ------------------------------------------------------------------ deductions


class DeductionAdminForm(forms.ModelForm):
    """A new deduction, tried through `deduction_add` (rolled back) so its refusals show
    here; the admin then adds it through the service for real."""

    points = forms.IntegerField(label=_("points deducted"), min_value=1, max_value=1000)

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
            _dry_run(
                lambda: deduction_add(
                    competition_id=competition.pk,
                    entry_id=entry.pk,
                    points=cleaned["points"],
                    reason=cleaned["reason"],
                    match_id=match.pk if match else None,
                )
            )
        except RuleViolation as exc:
            raise forms.ValidationError(rule_message(exc), code=exc.code) from None
        return cleaned


@admin.register(Deduction)
class DeductionAdmin(admin.ModelAdmin):
    """Deductions are added through `deduction_add` and withdrawn through `deduction_delete`
    (both rebuild the standings); a saved deduction is read-only."""

    form = DeductionAdminForm
    list_display = ["entry", "competition", "points", "reason", "match", "created_at"]
    list_filter = ["competition"]
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

    def save_model(self, request: HttpRequest, obj: Deduction, form: Any, change: bool) -> None:
        if change:  # not reachable: a saved deduction is read-only
            return
        created = deduction_add(
            competition_id=obj.competition_id,
            entry_id=obj.entry_id,
            points=obj.points,
            reason=obj.reason,
            match_id=obj.match_id,
        )
        obj.pk = created.pk
        obj.refresh_from_db()

    def delete_model(self, request: HttpRequest, obj: Deduction) -> None:
        deduction_delete(deduction_id=obj.pk)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Deduction]) -> None:
        for pk in queryset.values_list("pk", flat=True):
            deduction_delete(deduction_id=pk)


# ------------------------------------------------------------------ squads


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


class SquadMemberFormSet(BaseInlineFormSet):
    """Tries the additions and removals through the services (rolled back), so a locked
    squad or a player on another club's squad shows as an error on the row."""

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
                raise _DryRun
        except _DryRun:
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


class SquadMemberInline(admin.TabularInline):
    model = SquadMember
    form = SquadMemberForm
    formset = SquadMemberFormSet
    extra = 1
    autocomplete_fields = ["player"]
    verbose_name_plural = _("players (added and removed before the lock date)")


@admin.register(Squad)
class SquadAdmin(admin.ModelAdmin):
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
            _dry_run(lambda: squad_member_add(squad_id=squad.pk, player_id=player.pk))
        except RuleViolation as exc:
            raise forms.ValidationError(rule_message(exc), code=exc.code) from None
        return cleaned


@admin.register(SquadMember)
class SquadMemberAdmin(admin.ModelAdmin):
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
