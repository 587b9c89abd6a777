"""The admin of matchdays, matches and byes: who plays where checked at the field by the
places rules (`scoring.rules.places`), rows that hold a result kept, matches and byes
added and deleted through the services.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.admin.utils import NestedObjects
from django.db import router
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from scoring.admin.competitions import RESULTS_READ_ONLY, SCHEDULE_READ_ONLY
from scoring.admin.entries import entry_joins
from scoring.admin.guards import DeletedByServiceAdmin, ResultGuardAdmin, service_deleted_objects
from scoring.admin.voids import VOID_FIELDS, VoidAdminMixin
from scoring.models import Game
from scoring.rules import RuleViolation, found_at_bye, matchday_places_violations
from scoring.services.matches import bye_add, bye_delete, match_create, match_delete
from scoring.services.voids import match_void
from tournaments.models import Bye, Competition, Entry, Match, Matchday
from troefclub.admin_formsets import UniqueRowsFormSet
from troefclub.admin_input import AdminInputMixin
from troefclub.rule_messages import pairing_reason_message, rule_message


class MatchInline(AdminInputMixin, admin.TabularInline):
    """The matchday's matches, to look at; add or change one on the match page (it is
    checked there: nobody plays twice on a matchday)."""

    model = Match
    formset = UniqueRowsFormSet
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
    formset = UniqueRowsFormSet
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
    list_display = ["__str__", "competition", "number", "date", "time", "match_count"]
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
class MatchAdmin(VoidAdminMixin, AdminInputMixin, DeletedByServiceAdmin):
    """Matches. A new one is made by `match_create` (its table; a pairs match's game) and
    one goes by `match_delete`. Its matchday, home and away are fixed once it has games or
    a result, and one with a result (reported totals, a forfeit, a game with a result)
    can't be deleted. A match is voided with a reason (`match_void`: the action and the
    row's void page); its replay is scheduled on the director's match page."""

    actions = ["void_selected"]

    def void_row(self, row: Any, reason: str, user: Any) -> Any:
        return match_void(match_id=row.pk, reason=reason, by=user)

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
        "voided_at",
    ]
    list_filter = ["matchday__competition", "forfeit", ("voided_at", admin.EmptyFieldListFilter)]
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
        *VOID_FIELDS,
        "replayed_by",
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
        (
            _("Void and replay (read-only)"),
            {
                "description": _(
                    "A voided match counts nowhere; its replay is scheduled on the director's "
                    "match page."
                ),
                "fields": [*VOID_FIELDS, "replayed_by"],
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
        return service_deleted_objects(self, objs, request, collector)

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
