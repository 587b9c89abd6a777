"""Admin for league admins: clubs, players, koppels, competitions, entries, schedules,
byes, deductions and squads.

Results never go in here: a match's reported totals and its forfeit are read-only (the
director's match page enters them through the rules), and games and rounds are in
`scoring.admin`. Deductions and squad members are added through `tournaments.services`
(`deduction_add`, `squad_member_add`), so the same checks apply as on the director's pages;
a refusal shows as a form error (`scoring.messages.rule_message`). A deduction is voided
with a reason (`deduction_void`), never deleted.

Rows that hold a result (a match, a bye of a played matchday, a played matchday or
competition) or are on the schedule (an entry) can't be deleted and keep the fields that
would move the result; every change that can move the standings queues a refresh
(`tournaments.admin_guards`). Who plays where is checked at the field by the one check of
`scoring.rules.places`, the database's own checks behind it.

Django's own user admin is registered again with `AdminInputMixin`, as every admin of ours.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, cast

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.utils import NestedObjects, quote, unquote
from django.contrib.admin.widgets import AutocompleteSelect
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, router, transaction
from django.db.models import Count, QuerySet
from django.forms.formsets import DELETION_FIELD_NAME
from django.forms.models import BaseInlineFormSet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.functional import lazy
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, ngettext_lazy

from scoring.messages import pairing_reason_message, rule_message
from scoring.models import Game
from scoring.rules import (
    METRICS,
    TIEBREAK_KEYS,
    RuleSet,
    RuleViolation,
    found_at_bye,
    matchday_places_violations,
    round_amounts,
)
from scoring.services.confirmations import games_accept_all
from scoring.services.games import competition_games_rescore
from scoring.services.koppels import team_players_set
from scoring.services.matches import bye_add, bye_delete, match_create, match_delete
from scoring.services.refresh import standings_refresh_on_commit
from scoring.tokens import deductions_token
from tournaments.admin_guards import ResultGuardAdmin
from tournaments.admin_input import AdminInputMixin, OrderedChoicesField
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
from tournaments.selectors import ENTRY_JOINS, entries_on_schedule
from tournaments.services.deductions import deduction_add, deduction_void
from tournaments.services.entries import (
    ENTRY_KIND_FIELDS,
    entry_add,
    entry_change,
    entry_delete,
    entry_kind_check,
    entry_player_clubs_set,
)
from tournaments.services.squads import squad_member_add, squad_member_remove
from tournaments.tables import TIEBREAK_LABELS
from tournaments.validators import validate_single_line_text

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
                _dry_run(partial(self.delete_row, obj))
            return super().delete_view(request, object_id, extra_context)
        except RuleViolation as exc:  # `delete_view` runs in one transaction: rolled back
            self.message_user(request, rule_message(exc), messages.ERROR)
            opts = self.model._meta
            url = reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[object_id])
            return HttpResponseRedirect(url)


def _service_deleted_objects(
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


@admin.register(Club)
class ClubAdmin(AdminInputMixin, admin.ModelAdmin):
    list_display = ["name", "key", "player_count"]
    search_fields = ["name", "key"]
    prepopulated_fields = {"key": ["name"]}

    def get_queryset(self, request: HttpRequest) -> QuerySet[Club]:
        # A GROUP BY query drops Meta.ordering: order again, so the autocomplete's pages
        # (Django's UnorderedObjectListWarning) can't repeat or skip a club.
        players = Count("players")
        return super().get_queryset(request).annotate(player_count=players).order_by("name", "pk")

    @admin.display(description=_("players"), ordering="player_count")
    def player_count(self, club: Club) -> int:
        return club.player_count  # type: ignore[attr-defined]


@admin.register(Player)
class PlayerAdmin(AdminInputMixin, admin.ModelAdmin):
    list_display = ["name", "key", "club"]
    list_filter = ["club"]
    list_select_related = ["club"]
    search_fields = ["name", "key", "club__name"]
    autocomplete_fields = ["club"]


TEAM_PLAYERS = ("player_1", "player_2")


class TeamAdminForm(forms.ModelForm):
    """A koppel. Its players change through `team_players_set`, tried here (rolled back) so
    a koppel that has games is refused at the form, naming it and its games."""

    class Meta:
        model = Team
        fields = ["key", "name", "player_1", "player_2"]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        player_1, player_2 = cleaned.get("player_1"), cleaned.get("player_2")
        if self.instance.pk is None or player_1 is None or player_2 is None:
            return cleaned
        try:
            _dry_run(
                lambda: team_players_set(
                    team_id=self.instance.pk, player_1_id=player_1.pk, player_2_id=player_2.pk
                )
            )
        except RuleViolation as exc:
            raise forms.ValidationError(rule_message(exc), code=exc.code) from None
        return cleaned


@admin.register(Team)
class TeamAdmin(AdminInputMixin, admin.ModelAdmin):
    """Koppels. A koppel that has played keeps its two players (`team_players_set`): its
    games stay with the players who played them (issue 10)."""

    form = TeamAdminForm
    list_display = ["key", "name", "player_1", "player_2"]
    list_select_related = ["player_1", "player_2"]
    search_fields = ["key", "name", "player_1__name", "player_2__name"]
    autocomplete_fields = ["player_1", "player_2"]

    def save_model(self, request: HttpRequest, obj: Team, form: Any, change: bool) -> None:
        if change and any(name in form.changed_data for name in TEAM_PLAYERS):
            # Checked again under the koppel's lock; also brings its entries' clubs along.
            team_players_set(
                team_id=obj.pk, player_1_id=obj.player_1_id, player_2_id=obj.player_2_id
            )
        super().save_model(request, obj, form, change)


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
            return super().optgroups(name, value, attr)
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


class EntryInlineFormSet(BaseInlineFormSet):
    """A competition's entries. One on the schedule (a match or a bye) keeps its koppel or
    club and stays: its fields and its delete box are disabled, so what is posted for them
    is ignored (the database refuses the change too, `entry_scheduled_fixed`).

    Entries are added and changed through `entry_add` / `entry_change`, which keep the
    koppel's players' clubs of now (read-only here), and deleted through `entry_delete`.
    A koppel in a club competition, or a club in a pairs one, is refused at its field,
    against the kind the competition is saved with."""

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


# ------------------------------------------------------------------ competitions

TIEBREAK_CHOICES = [(key, TIEBREAK_LABELS[key]) for key in TIEBREAK_KEYS]
TIEBREAKS_HELP = _(
    "Entries level on competition points are ranked by these, in this order, each only "
    "among those still level on all before it; higher is better. Competition points always "
    "count first unless you place them yourself. Leave the rest empty."
)


def _tiebreaks_help() -> SafeString:
    """The tie-breaks' help: what they do, then what each compares, after its name, for the
    director who picks them (`METRICS`; DESIGN.md "Interchange format" says the same in
    full). A list, as HTML: the admin shows help texts unescaped, so every text is escaped
    here."""
    items = format_html_join(
        "",
        "<li>{}: {}</li>",
        ((TIEBREAK_LABELS[metric.key], _(metric.explanation)) for metric in METRICS),
    )
    return format_html('{}<ul class="tiebreak-help">{}</ul>', TIEBREAKS_HELP, items)


# Built when shown, in the language of the request.
tiebreaks_help = lazy(_tiebreaks_help, SafeString)

# The fields a bye's worth depends on: a change of one checks the bye again.
BYE_FIELDS = (
    "kind",
    "bye_score_for",
    "bye_score_against",
    "koppels_per_side",
    "sittings",
    *Competition.RULE_FIELDS,
)
BYE_SCORE_TOO_HIGH = _(
    "At most %(limit)s: a bye can't give more game points than a side can score in one "
    "match under these rules (%(games)s × %(per_game)s)."
)


def match_points_limit(rules: RuleSet, *, games: int) -> tuple[int, int] | None:
    """The most game points one side can score in a match of `games` games under `rules`,
    and in one game, as `(match, game)`; None when nothing bounds a game (it ends only
    when the director closes it).

    A game stops the moment a side reaches the target, so a side ends at most one round
    past it: the target less 1, then the biggest round (a baunie, with its stinkende
    bonus). With a fixed number of rounds, at most that many biggest rounds."""
    biggest = max(round_amounts(rules))
    bounds = []
    if rules.target_score is not None:
        bounds.append(rules.target_score - 1 + biggest)
    if rules.fixed_rounds is not None:
        bounds.append(rules.fixed_rounds * biggest)
    if not bounds:
        return None
    return min(bounds) * games, min(bounds)


class CompetitionSetupForm(CompetitionAdminForm):
    """The admin's competition form (`CompetitionAdminForm`), set up by choosing, not typing.

    - The tie-breaks are picked from a list, place by place (`OrderedChoicesField`); they
      are stored as before, a list of keys (DESIGN.md, read by the importer and exporter).
    - The bye's game points for follow the target score unless the director set them
      otherwise: when the target changes and the bye still gave the old target (or its
      default), the bye gives the new one (static/js/admin_setup.js does the same on the
      page, so the director sees it before saving).
    - A bye gives no more game points than a side can score in a match
      (`match_points_limit`); checked when the bye or what bounds it changes, so a
      competition imported with more can still be saved unchanged.
    """

    tiebreaks = OrderedChoicesField(
        label=capfirst(Competition._meta.get_field("tiebreaks").verbose_name),
        # A new competition starts with the model's tie-breaks (docs/interchange.md's).
        initial=Competition._meta.get_field("tiebreaks").get_default,
        choices=TIEBREAK_CHOICES,
        help_text=tiebreaks_help(),
        error_messages={
            "unknown": _("“%(value)s” is not a known tie-break: choose one from the list."),
            "twice": _(
                "“%(choice)s” is chosen twice (places %(first)s and %(second)s): each "
                "tie-break counts once, choose it once."
            ),
        },
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        bye = self.fields.get("bye_score_for")
        if bye is not None and "target_score" in self.fields:
            # static/js/admin_setup.js: the bye follows the target while it still equals it.
            bye.widget.attrs["data-follows"] = self["target_score"].auto_id
            bye.widget.attrs["data-default"] = Competition._meta.get_field(
                "bye_score_for"
            ).get_default()

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if any(name in self.errors for name in BYE_FIELDS):
            return cleaned
        self._bye_follows_target(cleaned)
        if self.instance.pk is None or any(name in self.changed_data for name in BYE_FIELDS):
            self._check_bye_score(cleaned)
        return cleaned

    def _bye_follows_target(self, cleaned: dict[str, Any]) -> None:
        """What admin_setup.js does on the page, for a browser without JavaScript."""
        if "bye_score_for" not in self.fields or "bye_score_for" in self.changed_data:
            return  # set by the director (or by the script, to the new target already)
        target = cleaned.get("target_score")
        if "target_score" not in self.changed_data or target is None:
            return
        before = self["bye_score_for"].initial
        default = Competition._meta.get_field("bye_score_for").get_default()
        if before in (self["target_score"].initial, default) and before != target:
            cleaned["bye_score_for"] = target
            self.changed_data.append("bye_score_for")  # the history and the refresh see it

    def _check_bye_score(self, cleaned: dict[str, Any]) -> None:
        """A bye gives no more than a side can score in a match; in a pairs competition
        (one game a match) not both sides the target either."""
        if "bye_score_for" not in self.fields:
            return
        candidate = Competition(**{name: cleaned.get(name) for name in Competition.RULE_FIELDS})
        rules = candidate.rule_set  # valid: `CompetitionAdminForm.clean` checked it
        pairs = cleaned.get("kind") != Competition.Kind.CLUBS
        games = 1 if pairs else cleaned["koppels_per_side"] * cleaned["sittings"]
        limits = match_points_limit(rules, games=games)
        if limits is None:
            return
        limit, per_game = limits
        for name in ("bye_score_for", "bye_score_against"):
            if cleaned[name] > limit:
                self.add_error(
                    name,
                    forms.ValidationError(
                        BYE_SCORE_TOO_HIGH,
                        code="bye_score_too_high",
                        params={"limit": limit, "games": games, "per_game": per_game},
                    ),
                )
        target = rules.target_score
        if (
            pairs
            and target is not None
            and min(cleaned.get("bye_score_for", 0), cleaned.get("bye_score_against", 0)) >= target
        ):
            exc = RuleViolation("totals_both_reached_target", target=target)
            self.add_error(
                "bye_score_against", forms.ValidationError(rule_message(exc), code=exc.code)
            )


@admin.register(Competition)
class CompetitionAdmin(AdminInputMixin, ResultGuardAdmin):
    """Competitions; one with a played matchday can't be deleted. A change of its rules
    re-scores its games, of its standings settings or entries refreshes the table."""

    form = CompetitionSetupForm
    competition_lookup = "pk"
    refreshes_standings = False  # `save_model` and `save_formset` say when
    locked_message = ngettext_lazy(
        "Nothing was deleted: %(rows)s has played matchdays. A competition with results stays.",
        "Nothing was deleted: %(rows)s have played matchdays. A competition with results stays.",
        "count",
    )
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
                "description": _(
                    "Directors enter and correct this competition's results. Only league "
                    "admins holding “Can assign the directors of a competition” change them."
                ),
                "fields": ["directors"],
            },
        ),
    ]

    class Media:
        js = ["js/admin_setup.js"]  # the bye follows the target (CSP: no inline scripts)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Competition]:
        return super().get_queryset(request).annotate(entry_count=Count("entries"))

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        """`directors` is read-only without `tournaments.assign_directors`: changing a
        competition's rules must not let a staff user make themselves its director. `slug`
        is read-only once the competition has matchdays (`slug_fixed`): every link to it
        would break.

        A read-only field is left out of the admin form (`ModelAdmin.get_form`), so a POST
        that names directors anyway is ignored, on add and on change alike; the history
        revert of simple-history builds its form the same way.
        """
        readonly = list(super().get_readonly_fields(request, obj))
        if not request.user.has_perm("tournaments.assign_directors"):
            readonly.append("directors")
        if self.slug_fixed(obj):
            readonly.append("slug")
        return readonly

    def slug_fixed(self, obj: Competition | None) -> bool:
        """Whether `obj`'s slug can't change any more: it has matchdays, so its pages, score
        sheets and exports are linked and printed under it."""
        return obj is not None and obj.pk is not None and obj.matchdays.exists()

    def get_prepopulated_fields(self, request: HttpRequest, obj: Any = None) -> dict[str, Any]:
        # A read-only slug is not on the form: prepopulating it would fail.
        fields = dict(super().get_prepopulated_fields(request, obj))
        if self.slug_fixed(obj):
            fields.pop("slug", None)
        return fields

    def save_model(self, request: HttpRequest, obj: Competition, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if change and any(name in form.changed_data for name in Competition.RULE_FIELDS):
            # The form already tried the new rules on every game; this stores the new points.
            changed = competition_games_rescore(competition_id=obj.pk)
            self.message_user(
                request,
                ngettext(
                    "Rules changed: %(count)d game re-scored.",
                    "Rules changed: %(count)d games re-scored.",
                    changed,
                )
                % {"count": changed},
            )
        elif change and any(name in form.changed_data for name in STANDINGS_FIELDS):
            standings_refresh_on_commit(obj.pk)
        if change and obj.confirmation_required and "confirmation_required" in form.changed_data:
            # Switched on mid-season: the games played so far were accepted as they were
            # (nobody asked for a confirmation then); they stay in the standings, confirmed
            # by this user, instead of all waiting in the queue. Disputed ones stay open.
            accepted = games_accept_all(competition_id=obj.pk, user=request.user)
            if accepted:
                self.message_user(
                    request,
                    ngettext(
                        "Confirmation switched on: the %(count)d game finished so far counts "
                        "as confirmed.",
                        "Confirmation switched on: the %(count)d games finished so far count "
                        "as confirmed.",
                        len(accepted),
                    )
                    % {"count": len(accepted)},
                )

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        super().save_formset(request, form, formset, change)
        # An entry added or removed is a row more or less in the table.
        if formset.new_objects or formset.changed_objects or formset.deleted_objects:
            standings_refresh_on_commit(form.instance.pk)

    @admin.display(description=_("entries"), ordering="entry_count")
    def entry_count(self, competition: Competition) -> int:
        return competition.entry_count  # type: ignore[attr-defined]

    @admin.display(description=_("public page"))
    def public_page(self, competition: Competition) -> str:
        url = reverse("competition_detail", kwargs={"slug": competition.slug})
        return format_html('<a href="{}">{}</a>', url, _("view"))


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
    fields = ["competition", "team", "club", *KEPT_CLUBS]
    autocomplete_fields = ["competition", "team", "club", *KEPT_CLUBS]

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
        return _service_deleted_objects(
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
            return
        obj.pk = saved.pk
        obj.player_1_club_id, obj.player_2_club_id = saved.player_1_club_id, saved.player_2_club_id


class MatchInline(AdminInputMixin, admin.TabularInline):
    """The matchday's matches, to look at; add or change one on the match page (it is
    checked there: nobody plays twice on a matchday)."""

    model = Match
    extra = 0
    fields = ("table", "home", "away", "total_home", "total_away", "forfeit")
    readonly_fields = fields
    can_delete = False
    show_change_link = True

    def get_queryset(self, request: HttpRequest) -> QuerySet[Match]:
        return (
            super().get_queryset(request).select_related(*entry_joins("home"), *entry_joins("away"))
        )

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ByeInline(AdminInputMixin, admin.TabularInline):
    """The matchday's byes, to look at; add one on the bye page (it is checked there)."""

    model = Bye
    extra = 0
    fields = ["entry", "reason"]
    readonly_fields = ["entry", "reason"]
    can_delete = False
    show_change_link = True

    def get_queryset(self, request: HttpRequest) -> QuerySet[Bye]:
        return super().get_queryset(request).select_related(*entry_joins("entry"))

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Matchday)
class MatchdayAdmin(AdminInputMixin, ResultGuardAdmin):
    """Matchdays. One with matches or a bye stays in its competition; a played one (a
    match with a result) also keeps its number and can't be deleted."""

    locked_fields = ["competition", "number"]
    locked_message = ngettext_lazy(
        "Nothing was deleted: %(rows)s is played (a match has a result). Results are undone "
        "on the director's pages first.",
        "Nothing was deleted: %(rows)s are played (a match has a result). Results are undone "
        "on the director's pages first.",
        "count",
    )
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

    def fixed_fields(self, obj: Any) -> Sequence[str]:
        if self.is_locked(obj):
            return self.locked_fields
        if obj is not None and (obj.matches.exists() or obj.byes.exists()):
            return ["competition"]  # its entries are the competition's
        return ()


def _form_matchday(form: forms.ModelForm) -> Matchday | None:
    """The matchday a match or bye form is about: as posted, as stored, or as the add
    page's link gave it (`?matchday=`); None while unknown."""
    if form.is_bound and "matchday" in form.fields:
        raw = form.data.get(form.add_prefix("matchday"))
    elif form.instance.matchday_id is not None:
        raw = form.instance.matchday_id
    else:
        raw = form.initial.get("matchday")
    if raw is None or raw == "":
        return None
    try:
        return Matchday.objects.select_related("competition").get(pk=int(raw))
    except (TypeError, ValueError, Matchday.DoesNotExist):
        return None


def _offer_matchday_entries(form: forms.ModelForm, names: Sequence[str]) -> None:
    """Offer only the entries of the matchday's competition, in a plain list, once the
    form knows its matchday; any other entry is refused at its field."""
    matchday = _form_matchday(form)
    if matchday is None:
        return
    competition = matchday.competition
    entries = Entry.objects.filter(competition=competition).select_related(
        "team__player_1", "team__player_2", "club"
    )
    message = _("Choose one of the entries of %(competition)s, the matchday's competition.") % {
        "competition": competition
    }
    for name in names:
        field = form.fields.get(name)
        if field is None or field.disabled:
            continue
        field.widget = forms.Select()
        field.queryset = entries  # type: ignore[attr-defined]
        field.error_messages["invalid_choice"] = message.replace("%", "%%")


ENTRY_NAME_JOINS = ("team__player_1", "team__player_2", "club")


def _place_refusals(
    matchday: Matchday,
    fields: dict[str, Entry],
    *,
    match: Match | None = None,
    bye: Bye | None = None,
) -> dict[str, RuleViolation]:
    """Per form field, why its entry can't take the form's place on `matchday`: the match
    `fields["home"]`–`fields["away"]` (`match`: the one being changed) or the bye of
    `fields["entry"]` (`bye`: the one being changed).

    The one check of who plays where (`scoring.rules.matchday_places_violations`) over the
    matchday as the save would leave it: an entry plays once a matchday, a bye included,
    and is an entry of its competition (issue 6). Faults of other entries are the stored
    data's, not the form's. The violations hold the entries themselves, so their words
    name them.
    """
    matches = list(
        matchday.matches.exclude(pk__in=[match.pk] if match else [])
        .select_related(
            *(f"{side}__{join}" for side in ("home", "away") for join in ENTRY_NAME_JOINS)
        )
        .order_by("pk")
    )
    byes = list(
        matchday.byes.exclude(pk__in=[bye.pk] if bye else [])
        .select_related(*(f"entry__{join}" for join in ENTRY_NAME_JOINS))
        .order_by("pk")
    )
    places = [(stored.home, stored.away) for stored in matches]
    bye_entries = [stored.entry for stored in byes]
    if "home" in fields:
        places.append((fields["home"], fields["away"]))
    else:
        bye_entries.append(fields["entry"])
    entries = set(matchday.competition.entries.all())
    # A player in two koppel entries plays twice (issue 6); players as themselves, so the
    # words name them.
    players = {
        entry: (entry.team.player_1, entry.team.player_2)
        for place in places
        for entry in place
        if entry.team is not None
    }
    refusals: dict[str, RuleViolation] = {}
    for violation in matchday_places_violations(
        places, bye_entries, entries=entries, players=players
    ):
        if "player" in violation.params and "home" in fields:
            # The form's match is the last place: a player fault found there is the form's.
            if violation.params["index"] == len(places) - 1 and not found_at_bye(violation):
                refusals.setdefault("away", violation)
            continue
        # A fault of the form's entries is the form's, wherever the check reports it (a
        # match is checked before the byes); one of other entries is the stored data's.
        for name, entry in fields.items():
            if entry == violation.params.get("entry"):
                refusals.setdefault(name, violation)
    return refusals


def _add_refusals(form: forms.ModelForm, refusals: dict[str, RuleViolation]) -> None:
    for name, exc in refusals.items():
        form.add_error(name, forms.ValidationError(rule_message(exc), code=exc.code))


class _GamesGoWithTheirMatch(NestedObjects):
    """Django's collector of what a delete takes along, taking a match's games along as
    `match_delete` does (Game.match is PROTECT against any other delete), with what goes
    with them; anything else that protects a match or a game stays protected."""

    def related_objects(self, related_model: Any, related_fields: Any, objs: Any) -> Any:
        found = super().related_objects(related_model, related_fields, objs)
        if related_model is Game and [field.name for field in related_fields] == ["match"]:
            self.collect(list(found), source=Match, source_attr="match")  # as CASCADE does
            return found.none()
        return found


class MatchAdminForm(forms.ModelForm):
    """Who meets whom on a matchday: two entries of its competition, neither of which plays
    another match or has the bye that day (so no reversed match either)."""

    class Meta:
        model = Match
        fields = ["matchday", "home", "away"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _offer_matchday_entries(self, ["home", "away"])

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        matchday, home, away = (cleaned.get(name) for name in ("matchday", "home", "away"))
        if matchday is None or home is None or away is None:
            return cleaned  # unchanged (read-only) or a field error says what is missing
        if home.pk == away.pk:
            _add_refusals(self, {"away": RuleViolation("match_same_entry")})
            return cleaned
        match = self.instance if self.instance.pk else None
        _add_refusals(self, _place_refusals(matchday, {"home": home, "away": away}, match=match))
        return cleaned


@admin.register(Match)
class MatchAdmin(AdminInputMixin, DeletedByServiceAdmin):
    """Matches. A new one is made by `match_create` (its table; a pairs match's game) and
    one goes by `match_delete`. Its matchday, home and away are fixed once it has games or
    a result, and one with a result (reported totals, a forfeit, a game with a result)
    can't be deleted."""

    form = MatchAdminForm
    competition_lookup = "matchday__competition_id"
    locked_fields = ["matchday", "home", "away"]
    locked_message = ngettext_lazy(
        "Nothing was deleted: %(rows)s has results. Results are undone on the director's "
        "match page first.",
        "Nothing was deleted: %(rows)s have results. Results are undone on the director's "
        "match page first.",
        "count",
    )
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
        "forfeited_by",
        "pairing_reason",
    ]
    fieldsets = [
        (
            None,
            {
                "description": _(
                    "Home, away and the matchday are fixed once the match has games or a "
                    "result: swap entries on the director's matchday page."
                ),
                "fields": ["matchday", "home", "away"],
            },
        ),
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
                "fields": ["table", "forfeit", "forfeit_reason", "forfeited_by", "pairing_reason"],
            },
        ),
    ]

    @admin.display(description=_("competition"), ordering="matchday__competition__name")
    def competition(self, match: Match) -> Competition:
        return match.matchday.competition

    def fixed_fields(self, obj: Any) -> Sequence[str]:
        # A pairs match's game is played by its two koppels: they follow each other.
        has_games = obj is not None and obj.pk is not None and obj.games.exists()
        return self.locked_fields if has_games else super().fixed_fields(obj)

    def save_model(self, request: HttpRequest, obj: Match, form: Any, change: bool) -> None:
        if change:
            super().save_model(request, obj, form, change)
            return
        created = match_create(
            matchday_id=obj.matchday_id, home_id=obj.home_id, away_id=obj.away_id
        )  # a refusal (a race since the form's check) is shown on the form
        obj.pk = created.pk
        obj.refresh_from_db()

    def delete_row(self, obj: Match) -> None:
        match_delete(match_id=obj.pk)

    def get_deleted_objects(
        self, objs: Any, request: HttpRequest
    ) -> tuple[list[Any], dict[str, int], set[str], list[Any]]:
        """What the confirmation lists, as `match_delete` deletes: each match with its
        games (Django's own list calls them protected, so a pairs match could never go
        here). The service decides: only the matches' own delete permission is asked."""
        collector = _GamesGoWithTheirMatch(using=router.db_for_write(Match))
        return _service_deleted_objects(self, objs, request, collector)

    @admin.display(description=_("forfeited by"))
    def forfeited_by(self, match: Match) -> str:
        """Who set the forfeit; "—" when there is none (the stored cause's default,
        "the director", would say so of every match)."""
        return str(match.get_forfeit_cause_display()) if match.forfeit else "—"

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
        # No raw JSON (issue 8): the reason is the schedule's, shown in words (`why`).
        fields = ["matchday", "entry"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _offer_matchday_entries(self, ["entry"])

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        matchday, entry = cleaned.get("matchday"), cleaned.get("entry")
        if matchday is None or entry is None:
            return cleaned
        bye = self.instance if self.instance.pk else None
        _add_refusals(self, _place_refusals(matchday, {"entry": entry}, bye=bye))
        return cleaned


@admin.register(Bye)
class ByeAdmin(AdminInputMixin, DeletedByServiceAdmin):
    """Byes: added here for a manual schedule (checked like a match; `bye_add`), else made
    by the schedule services. A saved bye is read-only; delete it to move it (`bye_delete`),
    until its matchday is played (a match of it has a result): from then on the bye
    counts, and stays."""

    form = ByeAdminForm
    competition_lookup = "matchday__competition_id"
    locked_message = ngettext_lazy(
        "Nothing was deleted: the matchday of %(rows)s is played, so the bye counts and stays.",
        "Nothing was deleted: the matchdays of %(rows)s are played, so the byes count and stay.",
        "count",
    )
    list_display = ["entry", "matchday", "competition"]
    list_filter = ["matchday__competition"]
    readonly_fields = ["why"]
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

    @admin.display(description=_("why this bye"))
    def why(self, bye: Bye) -> str:
        """The schedule's reason in words; a bye given here has none."""
        return pairing_reason_message(bye.reason) or str(_("given by hand"))

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return obj is None and super().has_change_permission(request, obj)

    def save_model(self, request: HttpRequest, obj: Bye, form: Any, change: bool) -> None:
        if change:  # not reachable: a saved bye is read-only
            return
        # The form checked the places already; a refusal since (a race) shows on the form.
        created = bye_add(matchday_id=obj.matchday_id, entry_id=obj.entry_id)
        obj.pk = created.pk
        obj.refresh_from_db()

    def delete_row(self, obj: Bye) -> None:
        bye_delete(bye_id=obj.pk)


# ------------------------------------------------------------------ deductions


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
            _dry_run(
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
            "deductions": deductions,
            "form": form,
            "action": action,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            "cancel_url": reverse("admin:tournaments_deduction_changelist"),
        }
        return TemplateResponse(request, "admin/tournaments/deduction/void.html", context)


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
            _dry_run(lambda: squad_member_add(squad_id=squad.pk, player_id=player.pk))
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


# ------------------------------------------------------------------ users


# Django's own user admin, with the input checks of every admin of ours: its groups and
# permissions are many-to-many choices a crafted POST could fail with HTTP 500.
admin.site.unregister(User)


@admin.register(User)
class UserAdmin(AdminInputMixin, DjangoUserAdmin):
    """Django's `UserAdmin`, unchanged but for `AdminInputMixin`."""
