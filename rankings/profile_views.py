"""Public pages of players, koppels and clubs (issue 10): their seasons, koppels,
head-to-head records, game histories and charts. No login needed.

Each view fetches its player, koppel or club (a 404 for an unknown key), asks
`rankings.profiles` for what the page shows and draws the charts (`rankings.charts`) from
those numbers; the texts of the charts are made here, where the page's language is known.
`?page=` pages the game history (and `?players=` the club's players); a page number that
isn't one shows the first page, one out of range the last.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from functools import partial
from typing import Any

from django import forms
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.formats import date_format
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from rankings import charts
from rankings.alltime import club_all_time, koppel_all_time, player_all_time
from rankings.formats import decimal
from rankings.models import KoppelAlias, PlayerAlias
from rankings.profiles import koppels
from rankings.profiles.clubs import club_profile
from rankings.profiles.history import CHART_RATING_POINTS
from rankings.profiles.koppels import Evening, koppel_profile, koppels_matching
from rankings.profiles.players import RatingPoint, player_profile
from rankings.season_refresh import season_rankings_catch_up
from tournaments.models import Club, Player, Team
from troefclub.pages import render_page

WIN_COLOUR = "#198754"
DRAW_COLOUR = "#6c757d"
LOSS_COLOUR = "#dc3545"
FOR_COLOUR = "#0d6efd"
AGAINST_COLOUR = "#adb5bd"

# The longest text the opponent box takes: a koppel's name or its players' names.
OPPONENT_MAX_LENGTH = 250


class OpponentForm(forms.Form):
    """The koppel page's "head-to-head with …" box: any koppel, by key or name."""

    vs = forms.CharField(
        label=gettext_lazy("Another koppel"),
        max_length=OPPONENT_MAX_LENGTH,
        help_text=gettext_lazy("Its key, its name or a player's name."),
    )


# A date in a chart's labels and hover texts as the game histories write it ("2 Oct 2026",
# "2 okt 2026": Dutch writes the month in lower case, templates/rankings/_game_history.html):
# SHORT_DATE_FORMAT would be American in English (10/02/2026).
def _day(day: date | None) -> str:
    return date_format(day, pgettext("date of a game in a list", "j M Y")) if day else "—"


def rating_chart(points: Sequence[RatingPoint]) -> SafeString:
    """The player's rating after each rated game, as a line (at most
    `profiles.CHART_RATING_POINTS` points, evenly spread)."""
    numbered = list(enumerate(points, start=1))
    return charts.line_chart(
        [
            charts.LinePoint(
                value=point.ordinal,
                label=_day(point.date),
                title=_("%(date)s: rating %(rating)s after rated game %(number)s")
                % {
                    "date": _day(point.date),
                    "rating": decimal(point.ordinal, 1),  # as the page's header
                    "number": number,
                },
            )
            for number, point in charts.thin(numbered, CHART_RATING_POINTS)
        ],
        title=_("Rating after each rated game"),
        empty_text=_("No rated games yet: no rating history to show."),
    )


def evenings_chart(evenings: Sequence[Evening]) -> SafeString:
    """A koppel's game points for and against on each of its latest evenings, as bars."""
    return charts.bar_chart(
        [
            charts.BarGroup(
                label=(
                    date_format(evening.date, pgettext("day of an evening in a chart", "j M"))
                    if evening.date
                    else "—"
                ),
                values=(evening.points_for, evening.points_against),
                titles=(
                    ngettext(
                        "%(date)s: %(points)s game points for in %(games)s game",
                        "%(date)s: %(points)s game points for in %(games)s games",
                        evening.games,
                    )
                    % {
                        "date": _day(evening.date),
                        "points": evening.points_for,
                        "games": evening.games,
                    },
                    ngettext(
                        "%(date)s: %(points)s game points against in %(games)s game",
                        "%(date)s: %(points)s game points against in %(games)s games",
                        evening.games,
                    )
                    % {
                        "date": _day(evening.date),
                        "points": evening.points_against,
                        "games": evening.games,
                    },
                ),
            )
            for evening in evenings
        ],
        series=[
            charts.Series(_("Points for"), FOR_COLOUR),
            charts.Series(_("Points against"), AGAINST_COLOUR),
        ],
        title=_("Game points per evening"),
        empty_text=_("No games yet: nothing to chart."),
    )


def results_chart(seasons: Sequence[Any]) -> SafeString:
    """Wins, draws and losses per season (oldest left), as bars; `seasons` have `season`
    and `tally` (`profiles.ClubSeason`, `profiles.KoppelSeason`), latest first."""
    groups = []
    for item in reversed(seasons):
        name = item.season or _("no season")
        tally = item.tally
        groups.append(
            charts.BarGroup(
                label=name,
                values=(tally.wins, tally.draws, tally.losses),
                titles=(
                    _("%(season)s: %(count)s won") % {"season": name, "count": tally.wins},
                    _("%(season)s: %(count)s drawn") % {"season": name, "count": tally.draws},
                    _("%(season)s: %(count)s lost") % {"season": name, "count": tally.losses},
                ),
            )
        )
    return charts.bar_chart(
        groups,
        series=[
            charts.Series(_("Won"), WIN_COLOUR),
            charts.Series(_("Drawn"), DRAW_COLOUR),
            charts.Series(_("Lost"), LOSS_COLOUR),
        ],
        title=_("Games won, drawn and lost per season"),
        empty_text=_("No games yet: nothing to chart."),
    )


def player_detail(request: HttpRequest, key: str) -> HttpResponse:
    player = Player.objects.select_related("club", "rating").filter(key=key).first()
    if player is None:
        # A player merged into another (issue 22): its old address leads there for good.
        alias = get_object_or_404(PlayerAlias.objects.select_related("player"), key=key)
        return redirect("player_detail", key=alias.player.key, permanent=True)
    profile = player_profile(player=player, page_number=request.GET.get("page"))
    context = {
        "player": player,
        "profile": profile,
        "history": profile.history,
        # Read when the page shows it (not for the history's htmx partial): issue 22.
        "all_time": partial(player_all_time, player=player),
        "rating_chart": rating_chart(profile.rating_points),
    }
    return render_page(request, "rankings/player_detail.html", context, partial="history")


def koppel_detail(request: HttpRequest, key: str) -> HttpResponse:
    """The koppel page; `?vs=` (the head-to-head box) names another koppel: one found
    goes to the head-to-head page, several are offered, none is said."""
    koppel = Team.objects.select_related("player_1", "player_2").filter(key=key).first()
    if koppel is None:
        # A koppel merged into another with a player merge (issue 22): redirected for good.
        alias = get_object_or_404(KoppelAlias.objects.select_related("team"), key=key)
        return redirect("koppel_detail", key=alias.team.key, permanent=True)
    form = OpponentForm(request.GET if "vs" in request.GET else None)
    choices: list[Team] = []
    if form.is_bound and form.is_valid():
        text = form.cleaned_data["vs"]
        choices = koppels_matching(text=text, exclude=koppel)
        if len(choices) == 1:
            return redirect("koppel_head_to_head", key=koppel.key, other=choices[0].key)
        if not choices:
            form.add_error("vs", _("No other koppel matches “%(text)s”.") % {"text": text})
    profile = koppel_profile(koppel=koppel, page_number=request.GET.get("page"))
    context = {
        "koppel": koppel,
        "profile": profile,
        "history": profile.history,
        "all_time": partial(koppel_all_time, koppel=koppel),
        "form": form,
        "choices": choices,
        "evenings_chart": evenings_chart(profile.evenings),
    }
    return render_page(request, "rankings/koppel_detail.html", context, partial="history")


def koppel_head_to_head(request: HttpRequest, key: str, other: str) -> HttpResponse:
    """Two koppels' record against each other; a koppel against itself is a 404."""
    if key == other:
        raise Http404
    found = {
        team.key: team
        for team in Team.objects.select_related("player_1", "player_2").filter(key__in=[key, other])
    }
    if key not in found or other not in found:
        raise Http404
    record = koppels.koppel_head_to_head(
        koppel=found[key], other=found[other], page_number=request.GET.get("page")
    )
    context = {"record": record, "history": record.history}
    return render_page(request, "rankings/koppel_head_to_head.html", context, partial="history")


def club_detail(request: HttpRequest, key: str) -> HttpResponse:
    club = get_object_or_404(Club, key=key)
    page_number, players_page = request.GET.get("page"), request.GET.get("players")
    profile = club_profile(club=club, page_number=page_number, players_page=players_page)
    # Its seasons are the stored season rankings': without a broker there is no beat either.
    caught_up = [
        season_rankings_catch_up(state=state, season=season)
        for season, state in profile.seasons_state.states.items()
    ]
    if any(caught_up):
        profile = club_profile(club=club, page_number=page_number, players_page=players_page)
    context = {
        "club": club,
        "profile": profile,
        "history": profile.history,
        "all_time": partial(club_all_time, club=club),
        "results_chart": results_chart(profile.seasons),
    }
    return render_page(request, "rankings/club_detail.html", context, partial="history")
