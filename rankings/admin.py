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
from troefclub.admin_input import AdminInputMixin


@admin.register(Season)
class SeasonAdmin(AdminInputMixin, admin.ModelAdmin):
    list_display = ["name", "best_evenings"]
    fields = ["name", "best_evenings"]
    search_fields = ["name"]


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
