"""Admin of the rankings: the seasons' one setting, and the ratings to look at.

A season row holds the best-N-of-M setting of its season rankings; its name is the season
as competitions write it. Ratings are computed (`rankings.services`), so their list is
read-only: to look at, never to edit.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from rankings.models import PlayerRating, Season
from rankings.season_refresh import season_rankings_refresh_on_commit
from troefclub.admin_input import AdminInputMixin


@admin.register(Season)
class SeasonAdmin(AdminInputMixin, admin.ModelAdmin):
    list_display = ["name", "best_evenings"]
    fields = ["name", "best_evenings"]
    search_fields = ["name"]

    # The setting moves the season's stored rankings (issue 20): a changed one queues their
    # refresh after the admin's commit (of the old name too, when the name changed).
    def save_model(self, request: HttpRequest, obj: Season, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if not change or form.has_changed():
            for season in {obj.name, form.initial.get("name") or obj.name}:
                season_rankings_refresh_on_commit(season=season)

    def delete_model(self, request: HttpRequest, obj: Season) -> None:
        super().delete_model(request, obj)
        season_rankings_refresh_on_commit(season=obj.name)

    def delete_queryset(self, request: HttpRequest, queryset: Any) -> None:
        names = list(queryset.values_list("name", flat=True))
        super().delete_queryset(request, queryset)
        for name in names:
            season_rankings_refresh_on_commit(season=name)


@admin.register(PlayerRating)
class PlayerRatingAdmin(AdminInputMixin, admin.ModelAdmin):
    """The players' current ratings (`ratings_refresh`), best first."""

    list_display = ["player", "ordinal", "mu", "sigma", "games"]
    list_select_related = ["player"]
    search_fields = ["player__name", "player__key"]
    ordering = ["-ordinal"]
    readonly_fields = ["player", "ordinal", "mu", "sigma", "games"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
