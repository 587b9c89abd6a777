"""Public reads of play (no login): a competition's matchdays, a matchday's fixtures, a
match with its games, a game with its rounds, and a player's, koppel's or club's games.

What the public pages show (`scoring.views.public`, `rankings.profile_views`), read
through the same selectors: a match's score from `competition_match_scores`, a game from
`game_detail` and `game_sheet`, the games of a player, koppel or club from the profile
pages' `player_games`, `koppel_games` and `club_games` (the games that count: over, and
confirmed where the competition asks for it). Lists are cursor-paged in id order;
every answer has a one-query ETag (`api.stamps`), and a poll that sends it back gets 304.
"""

from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import Count, Prefetch, Q, QuerySet
from django.shortcuts import get_object_or_404
from django.urls import re_path
from drf_spectacular.utils import extend_schema
from rest_framework import generics
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from api.conditional import ConditionalMixin, Stamp
from api.serializers.games import (
    FixtureSerializer,
    GameDetailSerializer,
    GameSerializer,
    MatchdaySerializer,
    MatchDetailSerializer,
)
from api.stamps import (
    count,
    history_newest,
    history_newest_at,
    names,
    newest,
    rows_history_newest,
    rows_newest,
    stamp_read,
)
from api.views.entities import (
    SEGMENT,
    KeyFilter,
    id_or_404,
    id_parameter,
    key_or_404,
    key_parameter,
    read_responses,
)
from rankings.profiles.clubs import club_games
from rankings.profiles.koppels import koppel_games
from rankings.profiles.players import player_games
from scoring.models import Game, Round
from scoring.selectors.results import competition_match_scores
from scoring.selectors.schedule import with_table_shown
from scoring.selectors.sheet import game_detail, game_sheet
from tournaments.models import Bye, Club, Competition, Match, Matchday, Player, Team
from tournaments.selectors import ENTRY_JOINS, MATCH_ENTRY_JOINS

# The highest matchday number (a PositiveSmallIntegerField).
MATCHDAY_MAX = 32767

# A game's koppels with their players (as the pages join them).
GAME_TEAM_JOINS = ("team_a__player_1", "team_a__player_2", "team_b__player_1", "team_b__player_2")

# What a game in a list reads: where it was played and its koppels with their players.
GAME_LIST_JOINS = ("match__matchday__competition", *GAME_TEAM_JOINS)


def number_or_404(value: str) -> int:
    """A matchday number in the path (1 to MATCHDAY_MAX); else NotFound (404)."""
    number = id_or_404(value)
    if number > MATCHDAY_MAX:
        raise NotFound()
    return number


SLUG = key_parameter("slug", "The competition's slug.")
NUMBER = id_parameter("number", "The matchday's number (1 for the first).")


def matchday_rows(slug: str, number: int | None = None) -> QuerySet[Matchday]:
    """The matchdays of competition `slug` (the one numbered `number`), unordered."""
    rows = Matchday.objects.filter(competition__slug=slug)
    return rows if number is None else rows.filter(number=number)


def matchdays_stamp(slug: str, number: int | None = None) -> dict[str, Any]:
    """What a competition's matchdays (or one of them) show depends on: the matchday rows
    (`updated_at`, count, newest), their matches (count, newest id) and the history of
    their matches and byes, the names of the entries."""
    days = matchday_rows(slug, number)
    matches = Match.objects.filter(matchday__in=days.values("pk"))
    byes = Bye.objects.filter(matchday__in=days.values("pk"))
    return {
        "competition_id": newest(Competition.objects.filter(slug=slug)),
        **rows_newest(days, "matchdays"),
        "matches": count(matches),
        "matches_id": newest(matches),
        "byes": count(byes),
        "byes_history": rows_history_newest(days, Bye, "matchday_id"),
        **names(),
    }


def matchday_with_byes(rows: QuerySet[Matchday]) -> QuerySet[Matchday]:
    """`rows` with their number of matches and their byes' entries (one query more)."""
    byes = Bye.objects.select_related(*(f"entry__{join}" for join in ENTRY_JOINS)).order_by("pk")
    return rows.annotate(match_count=Count("matches")).prefetch_related(Prefetch("byes", byes))


@extend_schema(
    parameters=[SLUG],
    responses=read_responses(MatchdaySerializer(many=True)),
)
class MatchdayList(ConditionalMixin, generics.ListAPIView):
    """The matchdays of a competition in number order (cursor-paged by id, which is the
    order they were made), each with its number of matches and its byes; the fixtures of
    one are at ``…/matchdays/{number}/matches/``. Queries: four (stamp, competition,
    page, byes)."""

    serializer_class = MatchdaySerializer
    filter_backends: list[Any] = []

    def get_queryset(self) -> QuerySet[Matchday]:
        if getattr(self, "swagger_fake_view", False):  # the schema's generator
            return Matchday.objects.none()
        competition = get_object_or_404(Competition, slug=key_or_404(self.kwargs["slug"]))
        return matchday_with_byes(Matchday.objects.filter(competition=competition))

    def stamp(self) -> Stamp:
        slug = key_or_404(self.kwargs["slug"])
        return stamp_read("matchdays", matchdays_stamp(slug))


@extend_schema(parameters=[SLUG, NUMBER], responses=read_responses(MatchdaySerializer))
class MatchdayDetail(ConditionalMixin, generics.RetrieveAPIView):
    """One matchday of a competition by its number, with its number of matches and its
    byes. Queries: three (stamp, matchday, byes)."""

    serializer_class = MatchdaySerializer

    def get_object(self) -> Matchday:
        slug, number = key_or_404(self.kwargs["slug"]), number_or_404(self.kwargs["number"])
        return get_object_or_404(matchday_with_byes(matchday_rows(slug, number)))

    def stamp(self) -> Stamp:
        slug, number = key_or_404(self.kwargs["slug"]), number_or_404(self.kwargs["number"])
        return stamp_read("matchday", matchdays_stamp(slug, number))


class FixtureFilter(django_filters.FilterSet):
    """The fixtures list's filters: `table`, `entry`."""

    table = django_filters.NumberFilter(
        field_name="table_shown",
        min_value=1,
        max_value=MATCHDAY_MAX,
        help_text="A table number: the match at that table.",
    )
    entry = KeyFilter(
        method="by_entry", help_text="A koppel's or club's key: its match of the matchday."
    )

    class Meta:
        model = Match
        fields: list[str] = []

    def by_entry(self, queryset: QuerySet[Match], name: str, value: str) -> QuerySet[Match]:
        return queryset.filter(
            Q(home__team__key=value)
            | Q(home__club__key=value)
            | Q(away__team__key=value)
            | Q(away__club__key=value)
        )


def fixtures_stamp(matches: QuerySet[Match], competition: dict[str, Any]) -> dict[str, Any]:
    """What fixtures show depends on: the matches (count, newest id, their history), their
    games' history (scores and states), the competition (its forfeit score and whether
    results need confirming: its history; `competition` names it) and the names."""
    return {
        "competition": history_newest(Competition, **competition),
        "competition_id": newest(Competition.objects.filter(**competition)),
        "matches": count(matches),
        "matches_id": newest(matches),
        "matches_history": rows_history_newest(matches, Match, "id"),
        "games_history": rows_history_newest(matches, Game, "match_id"),
        **names(),
    }


@extend_schema(
    parameters=[SLUG, NUMBER],
    responses=read_responses(FixtureSerializer(many=True), filters=True),
)
class FixtureList(ConditionalMixin, generics.ListAPIView):
    """The fixtures (matches) of a matchday, cursor-paged in id order: their home and away
    entries, table, state, score once known, forfeit and reported totals. Filters: `table`
    (a table number), `entry` (a koppel's or club's key). Queries: five (stamp,
    matchday, page, and the page's scores: games and matches)."""

    serializer_class = FixtureSerializer
    filterset_class = FixtureFilter

    def get_queryset(self) -> QuerySet[Match]:
        if getattr(self, "swagger_fake_view", False):  # the schema's generator
            return Match.objects.none()
        slug, number = key_or_404(self.kwargs["slug"]), number_or_404(self.kwargs["number"])
        self.matchday = get_object_or_404(
            Matchday.objects.select_related("competition"), competition__slug=slug, number=number
        )
        rows = with_table_shown(Match.objects.filter(matchday=self.matchday))
        return rows.select_related("matchday__competition", *MATCH_ENTRY_JOINS)

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        rows = list(page or [])
        scores = competition_match_scores(
            competition=self.matchday.competition, match_ids=[match.pk for match in rows]
        )
        data = FixtureSerializer(rows, many=True, context={"scores": scores}).data
        return self.get_paginated_response(data)

    def stamp(self) -> Stamp:
        slug, number = key_or_404(self.kwargs["slug"]), number_or_404(self.kwargs["number"])
        matches = Match.objects.filter(matchday__competition__slug=slug, matchday__number=number)
        parts = fixtures_stamp(matches, {"slug": slug})
        parts["matchday_at"] = newest(matchday_rows(slug, number), "updated_at")
        return stamp_read("fixtures", parts)


@extend_schema(
    parameters=[id_parameter("match_id", "The match's id.")],
    responses=read_responses(MatchDetailSerializer),
)
class MatchDetail(ConditionalMixin, generics.RetrieveAPIView):
    """One match (as its public page): its entries, table, state, score, forfeit and its
    games by sitting and table. Queries: five (stamp, match, games, and its score: games
    and match)."""

    serializer_class = MatchDetailSerializer

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        match = get_object_or_404(
            with_table_shown(Match.objects.all()).select_related(
                "matchday__competition", *MATCH_ENTRY_JOINS
            ),
            pk=id_or_404(self.kwargs["match_id"]),
        )
        games = list(
            match.games.select_related(*GAME_TEAM_JOINS).order_by("sitting", "table", "pk")
        )
        for game in games:
            game.match = match  # its state reads the competition: joined already
        competition = match.matchday.competition
        scores = competition_match_scores(competition=competition, match_ids=[match.pk])
        context = {"scores": scores, "game_rows": games}
        return Response(MatchDetailSerializer(match, context=context).data)

    def stamp(self) -> Stamp:
        pk = id_or_404(self.kwargs["match_id"])
        match = Match.objects.filter(pk=pk)
        competition = Matchday.objects.filter(matches=pk).values("competition_id")
        parts = fixtures_stamp(match, {"id__in": competition})
        parts["matchday_at"] = newest(Matchday.objects.filter(matches=pk), "updated_at")
        return stamp_read("match", parts)


@extend_schema(
    parameters=[id_parameter("game_id", "The game's id.")],
    responses=read_responses(GameDetailSerializer),
)
class GameDetail(ConditionalMixin, generics.RetrieveAPIView):
    """One game (as its public page): its koppels, seats and first caller, score, state,
    totals, winner and its rounds with the running score. Queries: six (stamp, the game's
    four of `game_detail`, its rounds)."""

    serializer_class = GameDetailSerializer

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        try:
            game = game_detail(game_id=id_or_404(self.kwargs["game_id"]))
        except Game.DoesNotExist:
            raise NotFound() from None
        rows = game_sheet(game=game)
        return Response(GameDetailSerializer(game, context={"rows": rows}).data)

    def stamp(self) -> Stamp:
        pk = id_or_404(self.kwargs["game_id"])
        game = Game.objects.filter(pk=pk)
        competition = Matchday.objects.filter(matches__games=pk).values("competition_id")
        return stamp_read(
            "game",
            {
                "game": history_newest(Game, id=pk),
                "game_at": history_newest_at(Game, id=pk),
                "rounds": history_newest(Round, game_id=pk),
                "rounds_at": history_newest_at(Round, game_id=pk),
                "competition": history_newest(Competition, id__in=competition),
                "matchday": newest(Matchday.objects.filter(matches__games=pk), "updated_at"),
                "game_id": newest(game),
                **names(),
            },
        )


def games_stamp() -> dict[str, Any]:
    """What a list of counted games depends on: any game's change (its score, state,
    confirmation; a game added or deleted), the competitions (whether results need
    confirming), the matchdays (numbers, dates) and the names. Global, each part one index
    lookup: a new round anywhere changes it (a game list is one page of ids, never costly)."""
    return {
        "games": history_newest(Game),
        "competitions": history_newest(Competition),
        "matchdays_at": newest(Matchday.objects.all(), "updated_at"),
        **names(),
    }


class OwnGames(ConditionalMixin, generics.ListAPIView):
    """The counted games of a player, koppel or club (the games their public page lists:
    over, and confirmed where the competition asks for it), cursor-paged in id order."""

    serializer_class = GameSerializer
    filter_backends: list[Any] = []

    def games(self, key: str) -> QuerySet[Game]:
        raise NotImplementedError

    def get_queryset(self) -> QuerySet[Game]:
        if getattr(self, "swagger_fake_view", False):  # the schema's generator
            return Game.objects.none()
        games = self.games(key_or_404(self.kwargs["key"]))
        return games.select_related(*GAME_LIST_JOINS)

    def stamp(self) -> Stamp:
        return stamp_read("games", games_stamp(), key_or_404(self.kwargs["key"]))


@extend_schema(
    parameters=[key_parameter("key", "The player's key.")],
    responses=read_responses(GameSerializer(many=True)),
)
class PlayerGames(OwnGames):
    """The counted games of a player (in any koppel), as their page lists them; cursor-paged
    in id order. Queries: four (stamp, player, their koppels, page)."""

    def games(self, key: str) -> QuerySet[Game]:
        return player_games(get_object_or_404(Player, key=key))


@extend_schema(
    parameters=[key_parameter("key", "The koppel's key.")],
    responses=read_responses(GameSerializer(many=True)),
)
class KoppelGames(OwnGames):
    """The counted games of a koppel, as its page lists them; cursor-paged in id order.
    Queries: three (stamp, koppel, page)."""

    def games(self, key: str) -> QuerySet[Game]:
        return koppel_games(get_object_or_404(Team, key=key))


@extend_schema(
    parameters=[key_parameter("key", "The club's key.")],
    responses=read_responses(GameSerializer(many=True)),
)
class ClubGames(OwnGames):
    """The counted games in which a koppel played for the club at the time (a club match of
    the club, or a pairs game whose entry kept the club for one of its players), as its
    page lists them; cursor-paged in id order. Queries: three (stamp, club, page)."""

    def games(self, key: str) -> QuerySet[Game]:
        return club_games(get_object_or_404(Club, key=key))


MATCHDAY = rf"^competitions/(?P<slug>{SEGMENT})/matchdays/(?P<number>{SEGMENT})/"

urlpatterns = [
    re_path(
        rf"^competitions/(?P<slug>{SEGMENT})/matchdays/$",
        MatchdayList.as_view(),
        name="matchday-list",
    ),
    re_path(MATCHDAY + "$", MatchdayDetail.as_view(), name="matchday-detail"),
    re_path(MATCHDAY + "matches/$", FixtureList.as_view(), name="fixture-list"),
    re_path(rf"^matches/(?P<match_id>{SEGMENT})/$", MatchDetail.as_view(), name="match-detail"),
    re_path(rf"^games/(?P<game_id>{SEGMENT})/$", GameDetail.as_view(), name="game-detail"),
    re_path(rf"^players/(?P<key>{SEGMENT})/games/$", PlayerGames.as_view(), name="player-games"),
    re_path(rf"^koppels/(?P<key>{SEGMENT})/games/$", KoppelGames.as_view(), name="koppel-games"),
    re_path(rf"^clubs/(?P<key>{SEGMENT})/games/$", ClubGames.as_view(), name="club-games"),
]
