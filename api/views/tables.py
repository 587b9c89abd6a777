"""Public reads of the ranked tables: a competition's standings, a season's rankings, the
ratings (no login), each as its page shows it.

Each view reads the table's stamp first (`stamp`: one query; an unchanged table is a 304),
then its rows a page at a time by the table's version (`api.ranked`): a refresh between
two pages answers 409 `ranking_changed`, never a row skipped or sent twice. Reads go
through the pages' selectors; where the page catches a stale table up (the embedded
default, no broker), so does the API, before the stamp is taken.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.db.models import QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, generics
from rest_framework.request import Request
from rest_framework.response import Response

from api.conditional import ConditionalMixin, Stamp
from api.ranked import PagingParams, query_valid, ranked_page
from api.serializers.tables import (
    RatingListSerializer,
    RatingQuery,
    SeasonQuery,
    SeasonRankingSerializer,
    StandingsQuery,
    StandingsSerializer,
    TableErrorSerializer,
    entry_data,
)
from api.stamps import names_version
from rankings import selectors as ranking_selectors
from rankings.models import RatingsLock
from rankings.season_read import (
    season_lines_found,
    season_ranking_found,
    season_ranking_stored,
)
from rankings.season_refresh import season_rankings_catch_up
from rankings.services import LOCK_PK
from scoring.rules.seasons import SeasonBy
from scoring.selectors.results import competition_game_counts
from scoring.selectors.standings import (
    STANDINGS_ORDER,
    competition_standings,
    competition_standings_summary,
)
from scoring.selectors.standings_inputs import Adjustment, competition_adjustments
from scoring.services.standings import standings_catch_up
from scoring.tables import StandingTable
from scoring.views.public import adjustment_lines
from tournaments.models import Competition
from troefclub.ordering import empties_last

ERRORS = {
    304: OpenApiResponse(description="Unchanged since the ETag sent in If-None-Match."),
    400: OpenApiResponse(TableErrorSerializer, description="A parameter out of range."),
    404: OpenApiResponse(
        TableErrorSerializer,
        description="No such competition, season or club (`not_found`), or a cursor not "
        "made here (`invalid_cursor`).",
    ),
    409: OpenApiResponse(
        TableErrorSerializer,
        description="`ranking_changed`: the table was recomputed since the cursor's page; "
        "`first` links the new first page.",
    ),
}


# `Competition.season`'s max_length.
SEASON_MAX_LENGTH = 20
# The path parameters as the URL patterns take them (Django's `slug` and `path`
# converters; a season has no control character): in the schema, so that a client (and
# schemathesis) knows which values reach the view at all.
SLUG_PATTERN = r"^[-a-zA-Z0-9_]+$"
SLUG = OpenApiParameter(
    "slug", str, OpenApiParameter.PATH, pattern=SLUG_PATTERN, description="The competition's slug."
)
SEASON = OpenApiParameter(
    "season",
    str,
    OpenApiParameter.PATH,
    pattern=r"^[^\x00-\x1f\x7f]{1,20}$",
    description="The season as competitions write it, e.g. 2026-2027.",
)


def _when(moment: datetime | None) -> str:
    return moment.isoformat() if moment else "never"


def _latest(*moments: datetime | None) -> datetime | None:
    known = [moment for moment in moments if moment is not None]
    return max(known) if known else None


def _sorted(
    rows: QuerySet[Any], asked: str | None, keys: dict[str, str], tie: tuple[str, ...]
) -> QuerySet[Any]:
    """`rows` sorted by the column `asked` ("-saldo"; None: as they are), then by `tie`
    (its keys the sort does not name), empty values last both ways: the pages' sort."""
    if not asked:
        return rows
    descending = asked.startswith("-")
    key = keys.get(asked.lstrip("-"), asked.lstrip("-"))
    if descending:
        key = key[1:] if key.startswith("-") else f"-{key}"
    bare = key.lstrip("-")
    return rows.order_by(*empties_last([key, *(t for t in tie if t.lstrip("-") != bare)]))


def _valid(serializer_class: type[Any], request: Request) -> dict[str, Any]:
    return query_valid(serializer_class, request)


# ------------------------------------------------------------------------- standings


def adjustments_data(adjustments: list[Adjustment]) -> list[dict[str, Any]]:
    """The standings' walk-overs and deductions as data: the page's `adjustment_lines`
    (their entries and matches read in two queries, none without any), serialized."""
    return [
        {
            "kind": line.kind,
            "entry": entry_data(line.entry),
            "points": line.points,
            "reason": line.reason,
            "match": None
            if line.match is None
            else {
                "id": line.match.pk,
                "matchday": line.match.matchday.number,
                "home": entry_data(line.match.home),
                "away": entry_data(line.match.away),
            },
        }
        for line in adjustment_lines(adjustments)
    ]


class CompetitionStandings(ConditionalMixin, generics.GenericAPIView):
    """A competition's standings as stored, best first, a page at a time: every column the
    standings page has, the columns it shows (`columns`), its tie-breaks, when the table
    was computed (`as_of`) and whether it is behind (`stale`: the page's "being updated"
    note), the games still open or awaiting confirmation, and the walk-overs and
    deductions listed under it. `q` finds koppels, players or clubs by name (as the page's
    find box); `ordering` sorts by a column."""

    serializer_class = StandingsSerializer
    pagination_class = None

    def competition(self) -> Competition:
        if not hasattr(self, "_competition"):
            self._competition = get_object_or_404(Competition, slug=self.kwargs["slug"])
        return self._competition

    def stamp(self) -> Stamp:
        competition = self.competition()
        standings_catch_up(competition=competition)  # no broker: as the page does
        computed, stale = competition.standings_computed_at, competition.standings_stale_since
        return Stamp(
            version=f"standings:{competition.pk}:{_when(computed)}:{_when(stale)}:{names_version()}",
            modified=_latest(computed, stale),
        )

    @extend_schema(
        operation_id="competition_standings",
        parameters=[SLUG, StandingsQuery, PagingParams],
        responses={200: StandingsSerializer, **ERRORS},
    )
    def get(self, request: Request, slug: str) -> Response:
        query = _valid(StandingsQuery, request)
        competition = self.competition()
        rows = _sorted(
            competition_standings(competition=competition, search=query.get("q", "")),
            query.get("ordering"),
            {"entry": "entry_sort"},
            STANDINGS_ORDER,
        )
        page = ranked_page(request, rows, version=_when(competition.standings_computed_at))
        tiebreaks = [key for key in competition.tiebreaks or [] if isinstance(key, str)]
        summary = competition_standings_summary(competition=competition)
        shown = StandingTable(
            [], tiebreaks=tiebreaks, show_byes=summary.byes, show_deducted=summary.deducted
        )
        counts = competition_game_counts(competition=competition)
        data = {
            "competition": competition.slug,
            "as_of": competition.standings_computed_at,
            "stale": competition.standings_stale_since is not None,
            "stale_since": competition.standings_stale_since,
            "version": page.version,
            "next": page.next,
            "previous": page.previous,
            "tiebreaks": tiebreaks,
            "columns": [column.name for column in shown.columns],
            "open_games": counts.open_games,
            "awaiting": counts.awaiting,
            "adjustments": adjustments_data(competition_adjustments(competition=competition)),
            "results": page.rows,
        }
        return Response(StandingsSerializer(data).data)


# ------------------------------------------------------------------------- season rankings


class SeasonRanking(ConditionalMixin, generics.GenericAPIView):
    """A season's ranking (the `/rankings/<season>/` page), as stored by its last refresh:
    by player, koppel or club (`by`), of a competition `kind`, of one `club` (its key, one
    of `clubs`), sorted by a column if asked, a page at a time; with its best-N setting,
    `as_of` and `stale`."""

    serializer_class = SeasonRankingSerializer
    pagination_class = None

    def stamp(self) -> Stamp:
        season = self.kwargs["season"]
        if len(season) > SEASON_MAX_LENGTH or "\x00" in season:
            raise Http404  # no competition's season: and PostgreSQL refuses a NUL
        found, state = season_ranking_found(season=season)
        if not found:
            raise Http404
        if season_rankings_catch_up(state=state, season=season):  # no broker, as the page
            found, state = season_ranking_found(season=season)
        self.state = state
        computed = state.computed_at if state else None
        stale = state.stale_since if state else None
        return Stamp(
            version=f"season:{season}:{_when(computed)}:{_when(stale)}:{names_version()}",
            modified=_latest(computed, stale),
        )

    @extend_schema(
        operation_id="season_ranking",
        parameters=[SEASON, SeasonQuery, PagingParams],
        responses={200: SeasonRankingSerializer, **ERRORS},
    )
    def get(self, request: Request, season: str) -> Response:
        query = _valid(SeasonQuery, request)
        club_key = query.get("club", "")
        ranking = season_ranking_stored(
            season=season,
            by=SeasonBy(query["by"]),
            kind=query["kind"],
            club_key=club_key,
            state=self.state,
        )
        if club_key and ranking.club is None:
            raise exceptions.NotFound(
                _("No club “%(value)s” played in this season.") % {"value": club_key}
            )
        lines = _sorted(
            season_lines_found(ranking.lines, search=query.get("q", "")),
            query.get("ordering"),
            {"name": "sort_name", "best": "best_points"},
            ("position",),
        )
        page = ranked_page(request, lines, version=_when(ranking.as_of))
        context = {"best_evenings": ranking.best_evenings}
        data = {
            "season": ranking.season,
            "by": ranking.by.value,
            "kind": ranking.kind,
            "club": ranking.club,
            "clubs": ranking.clubs,
            "best_evenings": ranking.best_evenings,
            "evenings": ranking.evenings,
            "games": ranking.games,
            "as_of": ranking.as_of,
            "stale": ranking.stale,
            "version": page.version,
            "next": page.next,
            "previous": page.previous,
            "results": page.rows,
        }
        return Response(SeasonRankingSerializer(data, context=context).data)


# ------------------------------------------------------------------------- ratings


class RatingList(ConditionalMixin, generics.GenericAPIView):
    """The players' OpenSkill ratings (the `/ratings/` page), best first, of the players
    with the site's threshold of rated games or more (`min_games` may ask more), of one
    `club` (its key; the players' club now) if asked, sorted by a column if asked, a page
    at a time. `stale`: a refresh of the ratings is queued (a game finished since)."""

    serializer_class = RatingListSerializer
    pagination_class = None

    def stamp(self) -> Stamp:
        lock = RatingsLock.objects.filter(pk=LOCK_PK).values_list("refreshed_at", "queued_at")
        self.lock = lock.first() or (None, None)
        refreshed, queued = self.lock
        return Stamp(
            version=(
                f"ratings:{settings.RATING_MIN_GAMES}:{_when(refreshed)}:{_when(queued)}"
                f":{names_version()}"
            ),
            modified=_latest(refreshed, queued),
        )

    @extend_schema(
        operation_id="rating_list",
        parameters=[RatingQuery, PagingParams],
        responses={200: RatingListSerializer, **ERRORS},
    )
    def get(self, request: Request) -> Response:
        query = _valid(RatingQuery, request)
        club_key = query.get("club", "")
        min_games = max(query.get("min_games", 0), settings.RATING_MIN_GAMES)
        listing = ranking_selectors.rating_list(min_games=min_games, club_key=club_key)
        if club_key and listing.club is None:
            raise exceptions.NotFound(
                _("No listed player plays for a club “%(value)s”.") % {"value": club_key}
            )
        ratings = _sorted(
            listing.ratings,
            query.get("ordering"),
            {
                "rank": "-ordinal",
                "player": "player__name",
                "club": "player__club__name",
                "rating": "ordinal",
            },
            ("-ordinal", "player__name", "pk"),
        )
        refreshed, queued = self.lock
        page = ranked_page(request, ratings, version=_when(refreshed))
        data = {
            "min_games": listing.min_games,
            "below": listing.below,
            "club": listing.club,
            "clubs": listing.clubs,
            "as_of": refreshed,
            "stale": queued is not None,
            "version": page.version,
            "next": page.next,
            "previous": page.previous,
            "results": page.rows,
        }
        return Response(RatingListSerializer(data).data)


urlpatterns = [
    path(
        "competitions/<slug:slug>/standings/",
        CompetitionStandings.as_view(),
        name="competition-standings",
    ),
    path("rankings/<path:season>/", SeasonRanking.as_view(), name="season-ranking"),
    path("ratings/", RatingList.as_view(), name="rating-list"),
]
