"""Public pages of the season rankings and the rating list (issue 10). No login needed.

A view reads its query parameters, calls one selector (`rankings.selectors`) and renders;
an htmx request gets the page's named partial. A parameter the page doesn't know is never
an error: the page falls back to its default and says so (`notices`). An unknown season
is a 404.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import Truncator
from django.utils.translation import gettext as _

from rankings import selectors
from rankings.alltime import seasons_archive
from rankings.season_read import season_ranking_state, season_ranking_stored
from rankings.season_refresh import season_rankings_catch_up
from rankings.seasons import seasons_played
from rankings.tables import ROWS_PER_PAGE, RatingTable, SeasonTable
from scoring.rules.seasons import SeasonBy
from tournaments.models import Competition
from troefclub.pages import render_page
from troefclub.reader_cache import RATINGS_SCOPE, reader_cached, season_scope
from troefclub.tables import table_configure

# How much of a parameter the page doesn't know it repeats in its notice.
SHOWN_MAX_LENGTH = 40


def shown(value: str) -> str:
    """A query parameter as a notice repeats it: cut short, never a page of text."""
    return Truncator(value).chars(SHOWN_MAX_LENGTH)


def season_choices() -> dict[str, list[tuple[str, str]]]:
    """The choices of the season page's parameters, each with its label (the first is the
    default): `by`, `kind`."""
    return {
        "by": [
            (SeasonBy.PLAYER.value, _("Players")),
            (SeasonBy.KOPPEL.value, _("Koppels")),
            (SeasonBy.CLUB.value, _("Clubs")),
        ],
        "kind": [
            ("", _("All competitions")),
            (Competition.Kind.PAIRS.value, _("Pairs competitions")),
            (Competition.Kind.CLUBS.value, _("Club competitions")),
        ],
    }


def rankings_latest(request: HttpRequest) -> HttpResponse:
    """The newest season's ranking (the highest `Competition.season`), with the same query
    parameters; a page saying there is none yet when no competition names a season."""
    seasons = seasons_played()
    if not seasons:
        return render_page(
            request, "rankings/season_rankings.html", {"ranking": None}, partial="ranking"
        )
    url = reverse("season_rankings", kwargs={"season": seasons[0]})
    query = request.GET.urlencode()
    return redirect(f"{url}?{query}" if query else url)


@reader_cached(lambda request, *, season: [season_scope(season)])
def season_rankings(request: HttpRequest, season: str) -> HttpResponse:
    """A season's ranking by player, koppel or club (`by`), narrowed to a competition
    `kind` and a `club` (its key) if asked; sortable by every column (`sort`), 50 rows a
    page (`page`). Read from the stored rankings (issue 20: `rankings.season_read`), "as
    of" their refresh, and said to be behind while a write since may have moved them."""
    seasons = seasons_played()
    if season not in seasons:
        raise Http404
    choices = season_choices()
    notices: list[str] = []
    by = request.GET.get("by", "")
    if by and by not in dict(choices["by"]):
        notices.append(
            _("There is no ranking by “%(value)s”; showing the ranking of players.")
            % {"value": shown(by)}
        )
    by = by if by in dict(choices["by"]) else SeasonBy.PLAYER.value
    kind = request.GET.get("kind", "")
    if kind not in dict(choices["kind"]):
        notices.append(
            _("There is no competition kind “%(value)s”; showing all competitions.")
            % {"value": shown(kind)}
        )
        kind = ""
    club_key = request.GET.get("club", "").strip()
    state = season_ranking_state(season=season)
    if season_rankings_catch_up(state=state, season=season):  # no broker: no beat either
        state = season_ranking_state(season=season)
    ranking = season_ranking_stored(
        season=season, by=SeasonBy(by), kind=kind, club_key=club_key, state=state
    )
    if club_key and ranking.club is None:
        notices.append(
            _("No club “%(value)s” played in this season; showing all clubs.")
            % {"value": shown(club_key)}
        )
    table = SeasonTable(ranking.lines, by=ranking.by, best_evenings=ranking.best_evenings)
    table_configure(request, table, per_page=ROWS_PER_PAGE)
    kept = {"kind": kind, "club": ranking.club.key if ranking.club else ""}
    kept = {name: value for name, value in kept.items() if value}
    base = reverse("season_rankings", kwargs={"season": season})
    context = {
        "ranking": ranking,
        "table": table,
        "notices": notices,
        "seasons": seasons,
        "by_links": [
            (value, label, f"{base}?{urlencode({'by': value, **kept})}", value == by)
            for value, label in choices["by"]
        ],
        "kinds": choices["kind"],
        "filtered": bool(kind or ranking.club),
    }
    return render_page(request, "rankings/season_rankings.html", context, partial="ranking")


@reader_cached(lambda request: [RATINGS_SCOPE])
def rating_list(request: HttpRequest) -> HttpResponse:
    """The players' OpenSkill ratings, best first, of those with `RATING_MIN_GAMES` rated
    games or more; narrowed to a `club` (its key; the players' club now) if asked."""
    notices: list[str] = []
    club_key = request.GET.get("club", "").strip()
    listing = selectors.rating_list(min_games=settings.RATING_MIN_GAMES, club_key=club_key)
    if club_key and listing.club is None:
        notices.append(
            _("No listed player plays for a club “%(value)s”; showing all clubs.")
            % {"value": shown(club_key)}
        )
    table = RatingTable(listing.ratings)
    table_configure(request, table, per_page=ROWS_PER_PAGE)
    context = {"listing": listing, "table": table, "notices": notices}
    return render_page(request, "rankings/rating_list.html", context, partial="ratings")


def archive_page(request: HttpRequest) -> HttpResponse:
    """The archive of past seasons (issue 22): every season, newest first, with its
    competitions, each linking to its page and standings."""
    return render(request, "rankings/archive.html", {"archive": seasons_archive()})
