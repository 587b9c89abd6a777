"""Admin of the rankings: the seasons' one setting, and the ratings to look at.

A season row holds the best-N-of-M setting of its season rankings; its name is the season
as competitions write it. Ratings are computed (`rankings.services`), so their list is
read-only: to look at, never to edit.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rankings.merge import PlayerMergeRefused, player_merge
from rankings.models import PlayerAlias, PlayerRating, Season
from rankings.season_refresh import season_rankings_refresh_on_commit
from tournaments.admin.clubs import PlayerAdmin as ClubsPlayerAdmin
from tournaments.models import Player
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


# ------------------------------------------------------------ merging two players (issue 22)


class PlayerMergeForm(forms.Form):
    """Which of the two chosen players stays."""

    keep = forms.ChoiceField(label=gettext_lazy("Keep"), widget=forms.RadioSelect)

    def __init__(self, *args: Any, players: list[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        keep = self.fields["keep"]
        assert isinstance(keep, forms.ChoiceField)
        keep.choices = [(str(p.pk), f"{p.name} ({p.key})") for p in players]


admin.site.unregister(Player)


@admin.register(Player)
class PlayerAdmin(ClubsPlayerAdmin):
    """The players' admin with one more action: merge two players
    (`rankings.merge.player_merge`), after a page choosing which one stays. Registered here,
    over `tournaments.admin.clubs.PlayerAdmin`: the merge moves games and ratings, which
    live above the tournaments app."""

    actions = ["merge_players"]

    @admin.action(
        description=gettext_lazy("Merge the two selected players"), permissions=["change"]
    )
    def merge_players(self, request: HttpRequest, queryset: QuerySet[Player]) -> Any:
        players = list(queryset.order_by("pk")[:3])
        if len(players) != 2:
            self.message_user(
                request, _("Choose exactly two players to merge."), level=messages.ERROR
            )
            return None
        form = PlayerMergeForm(request.POST if "keep" in request.POST else None, players=players)
        if form.is_bound and form.is_valid():
            keep = int(form.cleaned_data["keep"])
            drop = next(p for p in players if p.pk != keep)
            kept = next(p for p in players if p.pk == keep)
            try:
                player_merge(keep_id=keep, drop_id=drop.pk, by=request.user)
            except PlayerMergeRefused as exc:
                self.message_user(request, exc.message, level=messages.ERROR)
                return None
            # Said only now: the rows have moved and the transaction is done.
            self.message_user(
                request,
                _("%(drop)s (%(drop_key)s) is merged into %(keep)s (%(keep_key)s).")
                % {
                    "drop": drop.name,
                    "drop_key": drop.key,
                    "keep": kept.name,
                    "keep_key": kept.key,
                },
                level=messages.SUCCESS,
            )
            return None
        context = {
            **self.admin_site.each_context(request),
            "title": _("Merge two players"),
            "opts": self.model._meta,
            "players": players,
            "form": form,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/rankings/player_merge.html", context)


@admin.register(PlayerAlias)
class PlayerAliasAdmin(AdminInputMixin, admin.ModelAdmin):
    """The record of the merges (`rankings.merge.player_merge`): which old key leads to
    which player, who merged it when. Written by the merge only: to look at."""

    list_display = ["key", "name", "player", "merged_at", "merged_by"]
    list_select_related = ["player", "merged_by"]
    search_fields = ["key", "name", "player__name", "player__key"]
    readonly_fields = ["key", "name", "player", "merged_at", "merged_by"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
