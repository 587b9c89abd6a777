"""Admin for games, rounds and standings: the setup is editable, the results are not.

A round's points, a game's score and status and the standings are the rules engine's
output (`scoring.services`). Saving them here would bypass the engine, so they are
read-only, with a link to the director's score sheet where results are entered and
corrected. Game and Round keep their audit trail (`SimpleHistoryAdmin`, "History").
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin

from scoring.models import Game, Round, Standing

RESULTS_READ_ONLY = _(
    "Scores, status and rounds are computed by the rules engine from what the director "
    "entered. They are read-only here: enter and correct results on the score sheet."
)

DERIVED_GAME_FIELDS = [
    "status",
    "score_a",
    "score_b",
    "kaps_a",
    "kaps_b",
    "baunies_a",
    "baunies_b",
    "total_a",
    "total_b",
]


ROUND_FIELDS = (
    "number",
    "result",
    "side",
    "caller",
    "tricks_a",
    "tricks_b",
    "points_a",
    "points_b",
    "recorded_at",
    "recorded_by",
)


def score_sheet_link(game: Game) -> str:
    if game.pk is None:
        return "—"
    url = reverse(
        "game_sheet",
        kwargs={"slug": game.match.matchday.competition.slug, "game_id": game.pk},
    )
    return format_html('<a href="{}">{}</a>', url, _("open the score sheet"))


class RoundInline(admin.TabularInline):
    """The game's rounds, read-only: they change only through the score sheet."""

    model = Round
    extra = 0
    fields = ROUND_FIELDS
    readonly_fields = ROUND_FIELDS
    ordering = ["number"]
    can_delete = False
    verbose_name_plural = _("rounds (read-only: correct them on the score sheet)")

    def get_queryset(self, request: HttpRequest) -> Any:
        return super().get_queryset(request).select_related("caller", "recorded_by")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(SimpleHistoryAdmin):
    list_display = [
        "__str__",
        "competition",
        "match",
        "sitting",
        "table",
        "status",
        "score_a",
        "score_b",
    ]
    list_filter = ["status", "match__matchday__competition"]
    list_select_related = [
        "match__matchday__competition",
        "match__home__team__player_1",
        "match__home__team__player_2",
        "match__home__club",
        "match__away__team__player_1",
        "match__away__team__player_2",
        "match__away__club",
        "team_a__player_1",
        "team_a__player_2",
        "team_b__player_1",
        "team_b__player_2",
    ]
    search_fields = [
        "team_a__key",
        "team_a__name",
        "team_b__key",
        "team_b__name",
        "team_a__player_1__name",
        "team_a__player_2__name",
        "team_b__player_1__name",
        "team_b__player_2__name",
    ]
    autocomplete_fields = ["match", "team_a", "team_b", "seat_1", "seat_2", "seat_3", "seat_4"]
    readonly_fields = [*DERIVED_GAME_FIELDS, "score_sheet"]
    inlines = [RoundInline]
    fieldsets = [
        (None, {"fields": ["match", "sitting", "table", "team_a", "team_b", "a_is_home"]}),
        (
            _("Seats (clockwise; seats 1 and 3 are koppel A)"),
            {"fields": ["seat_1", "seat_2", "seat_3", "seat_4"]},
        ),
        (
            _("Result (read-only)"),
            {
                "description": RESULTS_READ_ONLY,
                "fields": [
                    "score_sheet",
                    "status",
                    ("score_a", "score_b"),
                    ("kaps_a", "kaps_b"),
                    ("baunies_a", "baunies_b"),
                    ("total_a", "total_b"),
                ],
            },
        ),
    ]

    @admin.display(description=_("competition"), ordering="match__matchday__competition__name")
    def competition(self, game: Game) -> object:
        return game.match.matchday.competition

    @admin.display(description=_("score sheet"))
    def score_sheet(self, game: Game) -> str:
        return score_sheet_link(game)

    def get_queryset(self, request: HttpRequest) -> Any:
        return super().get_queryset(request).select_related("match__matchday__competition")


@admin.register(Round)
class RoundAdmin(SimpleHistoryAdmin):
    """Rounds to look up and audit (History); entered and corrected on the score sheet."""

    list_display = [
        "game",
        "number",
        "result",
        "side",
        "caller",
        "tricks_a",
        "tricks_b",
        "points_a",
        "points_b",
        "recorded_at",
        "recorded_by",
    ]
    list_filter = ["result", "game__match__matchday__competition"]
    list_select_related = [
        "game__team_a__player_1",
        "game__team_a__player_2",
        "game__team_b__player_1",
        "game__team_b__player_2",
        "caller",
        "recorded_by",
    ]
    search_fields = ["game__team_a__key", "game__team_b__key", "caller__name"]
    date_hierarchy = "recorded_at"
    readonly_fields = ["score_sheet"]

    @admin.display(description=_("score sheet"))
    def score_sheet(self, rnd: Round) -> str:
        return score_sheet_link(rnd.game)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Standing)
class StandingAdmin(admin.ModelAdmin):
    """Computed rows (`standings_refresh`): to look at, never to edit."""

    list_display = [
        "competition",
        "rank",
        "entry",
        "played",
        "won",
        "drawn",
        "lost",
        "points",
        "points_for",
        "points_against",
        "saldo",
        "kaps",
        "baunies",
        "computed_at",
    ]
    list_display_links = ["entry"]
    list_filter = ["competition"]
    list_select_related = [
        "competition",
        "entry__team__player_1",
        "entry__team__player_2",
        "entry__club",
    ]
    search_fields = ["entry__team__key", "entry__team__name", "entry__club__name"]
    ordering = ["competition", "rank"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
