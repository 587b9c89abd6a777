"""The admin of clubs and players."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from tournaments.models import Club, Player
from troefclub.admin_input import AdminInputMixin


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
