"""The admin of play-offs and divisions (issue 22). A play-off is made on the director's
play-off page (`playoff_create`, `deciding_match_create`): here it is looked at, and its
bracket brought up to date (`playoff_advance`). Divisions are set up here; the season's
end is rolled into the next season on the division list's "Promotion and relegation"
page (`season_divisions_roll`).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from scoring.rules import RuleViolation
from scoring.selectors.divisions import season_division_moves
from scoring.services.divisions import season_divisions_roll
from scoring.services.playoffs import playoff_advance
from tournaments.models import Division, Playoff, PlayoffSeed, PlayoffTie
from troefclub.admin_formsets import UniqueRowsFormSet
from troefclub.admin_input import AdminInputMixin
from troefclub.rule_messages import rule_message
from troefclub.validators import validate_single_line_text


class PlayoffSeedInline(AdminInputMixin, admin.TabularInline):
    model = PlayoffSeed
    formset = UniqueRowsFormSet
    extra = 0
    fields = ("seed", "entry", "source_rank", "decided_by")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class PlayoffTieInline(AdminInputMixin, admin.TabularInline):
    model = PlayoffTie
    formset = UniqueRowsFormSet
    extra = 0
    fields = ("round", "position", "home", "away", "leg_1", "leg_2", "winner")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Playoff)
class PlayoffAdmin(AdminInputMixin, admin.ModelAdmin):
    """Play-offs and deciding matches, read only: made on the director's page."""

    list_display = ("competition", "source", "kind", "size", "legs", "bracket")
    list_filter = ("kind",)
    search_fields = ("competition__name", "source__name")
    readonly_fields = (
        "competition",
        "source",
        "kind",
        "size",
        "legs",
        "level_rule",
        "lot_reason",
        "created_by",
    )
    inlines = (PlayoffSeedInline, PlayoffTieInline)
    actions = ("advance",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # the director's play-off page makes them (`playoff_create`)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # its matches are results: they stay

    @admin.display(description=_("bracket"))
    def bracket(self, playoff: Playoff) -> str:
        url = reverse("playoff_bracket", kwargs={"slug": playoff.competition.slug})
        return format_html('<a href="{}">{}</a>', url, _("bracket"))

    @admin.action(permissions=["change"], description=_("Bring the selected brackets up to date"))
    def advance(self, request: HttpRequest, queryset: QuerySet[Playoff]) -> None:
        decided = sum(playoff_advance(playoff_id=playoff.pk) for playoff in queryset)
        self.message_user(request, _("Ties decided now: %(count)s.") % {"count": decided})


class DivisionRollForm(forms.Form):
    next_season = forms.CharField(
        label=_("next season"),
        max_length=20,
        validators=[validate_single_line_text],
        help_text=_("E.g. 2027-2028: its divisions and competitions are made at once."),
    )


@admin.register(Division)
class DivisionAdmin(AdminInputMixin, admin.ModelAdmin):
    """A league's divisions a season; the season's end rolled on (`season_divisions_roll`)."""

    list_display = ("league", "season", "level", "name", "competition", "promoted", "relegated")
    list_filter = ("league", "season")
    search_fields = ("league", "name", "season")
    autocomplete_fields = ("competition",)

    def get_urls(self) -> list[Any]:
        roll = path(
            "roll/<str:season>/",
            self.admin_site.admin_view(self.roll_view),
            name="tournaments_division_roll",
        )
        return [roll, *super().get_urls()]

    def changelist_view(self, request: HttpRequest, extra_context: Any = None) -> HttpResponse:
        seasons = Division.objects.values_list("season", flat=True).distinct().order_by("-season")
        links = [
            (season, reverse("admin:tournaments_division_roll", args=[season]))
            for season in seasons
        ]
        return super().changelist_view(request, {**(extra_context or {}), "roll_links": links})

    def roll_view(self, request: HttpRequest, season: str) -> HttpResponse:
        """The proposed moves of `season`'s divisions, and next season made from them."""
        if not (self.has_add_permission(request) and self.has_change_permission(request)):
            raise PermissionDenied
        form = DivisionRollForm(request.POST if request.method == "POST" else None)
        error = ""
        if form.is_valid():
            try:
                made = season_divisions_roll(
                    season=season, next_season=form.cleaned_data["next_season"], by=request.user
                )
            except RuleViolation as exc:
                error = rule_message(exc)
            else:
                for division in made:
                    self.log_addition(request, division, [{"added": {}}])
                self.message_user(
                    request,
                    _("Next season's divisions are made: %(count)s.") % {"count": len(made)},
                    messages.SUCCESS,
                )
                return HttpResponseRedirect(reverse("admin:tournaments_division_changelist"))
        context = {
            **self.admin_site.each_context(request),
            "title": _("Promotion and relegation: %(season)s") % {"season": season},
            "opts": self.opts,
            "season": season,
            "moves": season_division_moves(season=season),
            "form": form,
            "error": error,
        }
        return TemplateResponse(request, "admin/tournaments/division/roll.html", context)
