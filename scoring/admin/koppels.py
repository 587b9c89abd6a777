"""The admin of koppels: a koppel's players change only while it has played no game
(`team_players_set`).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest

from scoring.rules import RuleViolation
from scoring.services.koppels import team_players_set
from tournaments.models import Team
from troefclub.admin_dry_run import dry_run
from troefclub.admin_input import AdminInputMixin
from troefclub.rule_messages import rule_message

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
            dry_run(
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
