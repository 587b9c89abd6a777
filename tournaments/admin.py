"""Admin for league admins: clubs, players, koppels, competitions, entries, schedules.

Results never go in here: a match's reported totals are read-only (the director's match
page enters them through the rules), and games and rounds are in `scoring.admin`.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from scoring.services import competition_games_rescore
from tournaments.forms import CompetitionAdminForm
from tournaments.models import Club, Competition, Entry, Match, Matchday, Player, Team

RESULTS_READ_ONLY = _(
    "Results are checked by the rules engine, so they are entered and corrected on the "
    "director's pages (score sheet, match page), not here."
)


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
        "target_score",
        "fixed_rounds",
        "entry_count",
        "public_page",
    ]
    list_filter = ["kind", "season", "callers_required", "close_by_director_allowed"]
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
    fields = ["home", "away", "total_home", "total_away"]
    readonly_fields = ["total_home", "total_away"]
    autocomplete_fields = ["home", "away"]
    show_change_link = True


@admin.register(Matchday)
class MatchdayAdmin(admin.ModelAdmin):
    list_display = ["__str__", "competition", "number", "date", "match_count"]
    list_filter = ["competition"]
    list_select_related = ["competition"]
    search_fields = ["competition__name", "competition__slug"]
    autocomplete_fields = ["competition"]
    date_hierarchy = "date"
    inlines = [MatchInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Matchday]:
        return super().get_queryset(request).annotate(match_count=Count("matches"))

    @admin.display(description=_("matches"), ordering="match_count")
    def match_count(self, matchday: Matchday) -> int:
        return matchday.match_count  # type: ignore[attr-defined]


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["__str__", "matchday", "competition", "total_home", "total_away"]
    list_filter = ["matchday__competition"]
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
    readonly_fields = ["total_home", "total_away", "director_page"]
    fieldsets = [
        (None, {"fields": ["matchday", "home", "away"]}),
        (
            _("Reported totals"),
            {
                "description": RESULTS_READ_ONLY,
                "fields": ["total_home", "total_away", "director_page"],
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
