"""Public reads of clubs, players, koppels, competitions and seasons (no login).

Exactly what the public pages show of them (`api.serializers.entities`). Every list is
cursor-paged in id order (`api.pagination.IdCursorPagination`), every answer carries an
ETag from a one-query stamp (`api.stamps`) and a poll with that ETag is answered 304.

A key, slug or id in the path is checked here before any query: a path segment that can't
be one (a NUL, a space, 300 characters, a number beyond the database's) is a 404 in the
API's JSON shape, never a database error.
"""

from __future__ import annotations

import re
from typing import Any, NoReturn

import django_filters
from django.db.models import Count, Q, QuerySet
from django.shortcuts import get_object_or_404
from django.urls import re_path, reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from api.conditional import ConditionalMixin, Stamp
from api.serializers.entities import (
    ClubSerializer,
    CompetitionSerializer,
    KoppelSerializer,
    PlayerSerializer,
    SeasonDetailSerializer,
    SeasonSerializer,
)
from api.serializers.errors import ErrorSerializer
from api.stamps import count, history_newest, newest, rows_newest, stamp_read
from rankings.models import KoppelAlias, PlayerAlias, Season
from tournaments.models import Club, Competition, Entry, Player, Team

# A key or slug as the models allow it (SlugField: ASCII letters, digits, - and _).
KEY_SHAPE = re.compile(r"[-a-zA-Z0-9_]{1,80}")
# The highest id the database holds (a bigint).
ID_MAX = 2**63 - 1
# A season as competitions write it (`Competition.season`, at most 20 characters).
SEASON_MAX_LENGTH = 20

# The path segment of a key, slug, id or season: anything but a slash, checked in the view
# (`key_or_404`, `id_or_404`) so that a wrong one answers the API's 404, not Django's page.
SEGMENT = "[^/]+"

# What an unknown key, slug or id (or a forged cursor) answers; what a filter value that is
# not one answers; what a poll whose ETag is current answers.
NOT_FOUND = OpenApiResponse(
    ErrorSerializer, description="Unknown key, slug or id, or a cursor that is not one of ours."
)
BAD_FILTER = OpenApiResponse(ErrorSerializer, description="A filter value that is not valid.")
NOT_MODIFIED = OpenApiResponse(
    description="Not modified: the If-None-Match ETag is the current one (no body)."
)


MOVED = OpenApiResponse(
    description=(
        "Moved for good: the key is of a player (or koppel) merged into another; `Location` "
        "gives the kept one's address (no body)."
    )
)


class KeyMerged(Exception):
    """A detail asked by the key of a player or koppel merged into another (issue 22):
    answered 301 with the kept one's address (`MergedKeyMixin`)."""

    def __init__(self, location: str) -> None:
        super().__init__(location)
        self.location = location


class MergedKeyMixin:
    """For a detail by `key` whose rows can be merged away (`rankings.merge`): an unknown
    key that an alias names answers 301 to the kept row's address, as the public page
    does, query string kept; any other unknown key stays a 404.

    Subclasses set `alias_model` (PlayerAlias or KoppelAlias), `alias_field` (its link to
    the kept row) and `url_name` (the detail's own name)."""

    alias_model: Any
    alias_field: str
    url_name: str
    request: Request

    def merged_or_404(self, key: str) -> NoReturn:
        alias = self.alias_model.objects.filter(key=key).values_list(
            f"{self.alias_field}__key", flat=True
        )
        kept = alias.first()
        if kept is None:
            raise NotFound()
        location = reverse(f"api:{self.url_name}", kwargs={"key": kept})
        query = self.request.META.get("QUERY_STRING", "")
        raise KeyMerged(f"{location}?{query}" if query else location)

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, KeyMerged):
            return Response(status=301, headers={"Location": exc.location})
        return super().handle_exception(exc)  # type: ignore[misc]


def read_responses(ok: Any, *, filters: bool = False, found: bool = True) -> dict[int, Any]:
    """The schema's answers of a read: `ok` (200), 304 to a poll with the current ETag, 404
    (unless nothing can be unknown: `found` False) and 400 where it takes `filters`."""
    responses: dict[int, Any] = {200: ok, 304: NOT_MODIFIED}
    if found:
        responses[404] = NOT_FOUND
    if filters:
        responses[400] = BAD_FILTER
    return responses


def key_or_404(value: str) -> str:
    """`value` when it can be a key or slug; else NotFound (404), before any query."""
    if not KEY_SHAPE.fullmatch(value):
        raise NotFound()
    return value


def id_or_404(value: str) -> int:
    """`value` as an id when it can be one (1 to ID_MAX); else NotFound (404)."""
    if not (value.isascii() and value.isdigit()) or len(value) > 19 or not 0 < int(value) <= ID_MAX:
        raise NotFound()
    return int(value)


def season_or_404(value: str) -> str:
    """`value` when it can be a season (1 to 20 characters, no NUL); else NotFound (404)."""
    if not value or len(value) > SEASON_MAX_LENGTH or "\x00" in value:
        raise NotFound()
    return value


def key_parameter(name: str, description: str) -> OpenApiParameter:
    """A key or slug in the path, for the schema."""
    return OpenApiParameter(
        name,
        OpenApiTypes.STR,
        OpenApiParameter.PATH,
        description=description,
        pattern=r"^[-a-zA-Z0-9_]+$",
    )


def id_parameter(name: str, description: str) -> OpenApiParameter:
    """An id in the path, for the schema."""
    return OpenApiParameter(name, OpenApiTypes.INT, OpenApiParameter.PATH, description=description)


class FoldFilter(django_filters.CharFilter):
    """Part of a name, any case and accents (the site's search, `Fold`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("lookup_expr", "fold__contains")
        kwargs.setdefault("max_length", 120)
        super().__init__(*args, **kwargs)


class KeyFilter(django_filters.CharFilter):
    """A key or slug, exactly (at most 80 characters)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 80)
        super().__init__(*args, **kwargs)


# ------------------------------------------------------------------------------ clubs


class ClubFilter(django_filters.FilterSet):
    """The clubs list's filters: `name`."""

    name = FoldFilter(field_name="name", help_text="Part of the club's name, any case.")

    class Meta:
        model = Club
        fields: list[str] = []


@extend_schema(responses=read_responses(ClubSerializer(many=True), filters=True))
class ClubList(ConditionalMixin, generics.ListAPIView):
    """The clubs, oldest first (cursor-paged). Filter: `name` (part of it, any case).
    Queries: two (stamp, page)."""

    serializer_class = ClubSerializer
    filterset_class = ClubFilter

    def get_queryset(self) -> QuerySet[Club]:
        return Club.objects.order_by("id")

    def stamp(self) -> Stamp:
        return stamp_read("clubs", rows_newest(Club.objects.all(), "clubs"))


@extend_schema(
    parameters=[key_parameter("key", "The club's key.")],
    responses=read_responses(ClubSerializer),
)
class ClubDetail(ConditionalMixin, generics.RetrieveAPIView):
    """One club by its `key`. Queries: two (stamp, club)."""

    serializer_class = ClubSerializer

    def get_object(self) -> Club:
        return get_object_or_404(Club, key=key_or_404(self.kwargs["key"]))

    def stamp(self) -> Stamp:
        key = key_or_404(self.kwargs["key"])
        return stamp_read("club", {"club_at": newest(Club.objects.filter(key=key), "updated_at")})


# ------------------------------------------------------------------------------ players


class PlayerFilter(django_filters.FilterSet):
    """The players list's filters: `name`, `club`."""

    name = FoldFilter(field_name="name", help_text="Part of the player's name, any case.")
    club = KeyFilter(field_name="club__key", help_text="The key of the club they play for now.")

    class Meta:
        model = Player
        fields: list[str] = []


@extend_schema(responses=read_responses(PlayerSerializer(many=True), filters=True))
class PlayerList(ConditionalMixin, generics.ListAPIView):
    """The players, oldest first (cursor-paged), with their club of now. Filters: `name`
    (part of it, any case), `club` (a club's key). Queries: two (stamp, page)."""

    serializer_class = PlayerSerializer
    filterset_class = PlayerFilter

    def get_queryset(self) -> QuerySet[Player]:
        return Player.objects.select_related("club").order_by("id")

    def stamp(self) -> Stamp:
        parts = rows_newest(Player.objects.all(), "players")
        parts["clubs_at"] = newest(Club.objects.all(), "updated_at")
        return stamp_read("players", parts)


@extend_schema(
    parameters=[key_parameter("key", "The player's key.")],
    responses={**read_responses(PlayerSerializer), 301: MOVED},
)
class PlayerDetail(MergedKeyMixin, ConditionalMixin, generics.RetrieveAPIView):
    """One player by their `key`, with their club of now; the key of a player merged into
    another answers 301 to the kept player. Queries: two (stamp, player)."""

    serializer_class = PlayerSerializer
    alias_model, alias_field, url_name = PlayerAlias, "player", "player-detail"

    def get_object(self) -> Player:
        key = key_or_404(self.kwargs["key"])
        player = Player.objects.select_related("club").filter(key=key).first()
        return player if player is not None else self.merged_or_404(key)

    def stamp(self) -> Stamp:
        player = Player.objects.filter(key=key_or_404(self.kwargs["key"]))
        return stamp_read(
            "player",
            {
                "player_at": newest(player, "updated_at"),
                "club_at": newest(player, "club__updated_at"),
            },
        )


# ------------------------------------------------------------------------------ koppels


class KoppelFilter(django_filters.FilterSet):
    """The koppels list's filters: `player`, `club` (keys)."""

    player = KeyFilter(method="by_player", help_text="A player's key: the koppels they play in.")
    club = KeyFilter(
        method="by_club", help_text="A club's key: the koppels with a player of it (now)."
    )

    class Meta:
        model = Team
        fields: list[str] = []

    def by_player(self, queryset: QuerySet[Team], name: str, value: str) -> QuerySet[Team]:
        return queryset.filter(Q(player_1__key=value) | Q(player_2__key=value))

    def by_club(self, queryset: QuerySet[Team], name: str, value: str) -> QuerySet[Team]:
        return queryset.filter(Q(player_1__club__key=value) | Q(player_2__club__key=value))


KOPPEL_JOINS = ("player_1", "player_2")


@extend_schema(responses=read_responses(KoppelSerializer(many=True), filters=True))
class KoppelList(ConditionalMixin, generics.ListAPIView):
    """The koppels, oldest first (cursor-paged), with their players. Filters: `player` (a
    player's key), `club` (a club's key: a player of it now). Queries: two (stamp, page)."""

    serializer_class = KoppelSerializer
    filterset_class = KoppelFilter

    def get_queryset(self) -> QuerySet[Team]:
        return Team.objects.select_related(*KOPPEL_JOINS).order_by("id")

    def stamp(self) -> Stamp:
        parts = rows_newest(Team.objects.all(), "koppels")
        parts["players_at"] = newest(Player.objects.all(), "updated_at")
        return stamp_read("koppels", parts)


@extend_schema(
    parameters=[key_parameter("key", "The koppel's key (as on its public page).")],
    responses={**read_responses(KoppelSerializer), 301: MOVED},
)
class KoppelDetail(MergedKeyMixin, ConditionalMixin, generics.RetrieveAPIView):
    """One koppel by its `key` (as its public page), with its players; the key of a koppel
    merged into another answers 301 to the kept one. Queries: two."""

    serializer_class = KoppelSerializer
    alias_model, alias_field, url_name = KoppelAlias, "team", "koppel-detail"

    def get_object(self) -> Team:
        key = key_or_404(self.kwargs["key"])
        koppel = Team.objects.select_related(*KOPPEL_JOINS).filter(key=key).first()
        return koppel if koppel is not None else self.merged_or_404(key)

    def stamp(self) -> Stamp:
        koppel = Team.objects.filter(key=key_or_404(self.kwargs["key"]))
        return stamp_read(
            "koppel",
            {
                "koppel_at": newest(koppel, "updated_at"),
                "player_1_at": newest(koppel, "player_1__updated_at"),
                "player_2_at": newest(koppel, "player_2__updated_at"),
            },
        )


# ------------------------------------------------------------------------------ competitions


class CompetitionFilter(django_filters.FilterSet):
    """The competitions list's filters: `season`, `kind`."""

    season = django_filters.CharFilter(
        max_length=SEASON_MAX_LENGTH, help_text="A season exactly, e.g. 2026-2027."
    )
    kind = django_filters.ChoiceFilter(choices=Competition.Kind.choices)

    class Meta:
        model = Competition
        fields: list[str] = []


def competitions_stamp_parts(slug: str | None = None) -> dict[str, Any]:
    """What competitions' public fields and entry counts depend on (all, or the one with
    `slug`): their history rows (every change of their settings, creation and deletion),
    the id of the competition that has the slug now (a slug changed away or back) and
    their entries (count, newest)."""
    if slug is None:
        return {
            "competitions": history_newest(Competition),
            "entries": count(Entry.objects.all()),
            "entries_id": newest(Entry.objects.all()),
        }
    entries = Entry.objects.filter(competition__slug=slug)
    return {
        "competition": history_newest(Competition, slug=slug),
        "competition_id": newest(Competition.objects.filter(slug=slug)),
        "entries": count(entries),
        "entries_id": newest(entries),
    }


COMPETITION_ROWS = Competition.objects.annotate(entry_count=Count("entries"))


@extend_schema(responses=read_responses(CompetitionSerializer(many=True), filters=True))
class CompetitionList(ConditionalMixin, generics.ListAPIView):
    """The competitions, oldest first (cursor-paged), with their number of entries (as the
    home page lists them). Filters: `season`, `kind`. Queries: two (stamp, page)."""

    serializer_class = CompetitionSerializer
    filterset_class = CompetitionFilter

    def get_queryset(self) -> QuerySet[Competition]:
        return COMPETITION_ROWS.order_by("id")

    def stamp(self) -> Stamp:
        return stamp_read("competitions", competitions_stamp_parts())


@extend_schema(
    parameters=[key_parameter("slug", "The competition's slug (as in its page's address).")],
    responses=read_responses(CompetitionSerializer),
)
class CompetitionDetail(ConditionalMixin, generics.RetrieveAPIView):
    """One competition by its `slug`. Queries: two (stamp, competition)."""

    serializer_class = CompetitionSerializer

    def get_object(self) -> Competition:
        return get_object_or_404(COMPETITION_ROWS, slug=key_or_404(self.kwargs["slug"]))

    def stamp(self) -> Stamp:
        slug = key_or_404(self.kwargs["slug"])
        return stamp_read("competition", competitions_stamp_parts(slug=slug))


# ------------------------------------------------------------------------------ seasons


@extend_schema(responses=read_responses(SeasonSerializer(many=True), found=False))
class SeasonList(ConditionalMixin, generics.ListAPIView):
    """Every season a competition names, newest first (the highest first), with its number
    of competitions. Not paged: a league has one season a year. Queries: two."""

    serializer_class = SeasonSerializer
    pagination_class = None
    filter_backends: list[Any] = []

    def get_queryset(self) -> Any:
        return (
            Competition.objects.exclude(season="")
            .order_by("-season")
            .values("season")
            .annotate(competitions=Count("id"))
            .values("season", "competitions")
        )

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        rows = [
            {"name": row["season"], "competitions": row["competitions"]}
            for row in self.get_queryset()
        ]
        return Response(SeasonSerializer(rows, many=True).data)

    def stamp(self) -> Stamp:
        return stamp_read("seasons", {"competitions": history_newest(Competition)})


@extend_schema(
    parameters=[
        OpenApiParameter(
            "season",
            OpenApiTypes.STR,
            OpenApiParameter.PATH,
            description="A season, e.g. 2026-2027.",
        )
    ],
    responses=read_responses(SeasonDetailSerializer),
)
class SeasonDetail(ConditionalMixin, generics.GenericAPIView):
    """One season: its best-N-of-M setting and its competitions (by name); 404 when no
    competition names it. Queries: three (stamp, setting, competitions)."""

    serializer_class = SeasonDetailSerializer

    def get(self, request: Request, season: str) -> Response:
        season = season_or_404(season)
        setting = Season.objects.filter(name=season).values_list("best_evenings", flat=True).first()
        competitions = list(Competition.objects.filter(season=season).order_by("name", "id"))
        if not competitions:
            raise NotFound()
        data = {"name": season, "best_evenings": setting, "competitions": competitions}
        return Response(SeasonDetailSerializer(data).data)

    def stamp(self) -> Stamp:
        season = season_or_404(self.kwargs["season"])
        return stamp_read(
            "season",
            {
                # Global: a competition moved to another season changes this one's list.
                "competitions": history_newest(Competition),
                "best_evenings": newest(Season.objects.filter(name=season), "best_evenings"),
                "settings": count(Season.objects.filter(name=season)),
            },
        )


urlpatterns = [
    re_path(r"^clubs/$", ClubList.as_view(), name="club-list"),
    re_path(rf"^clubs/(?P<key>{SEGMENT})/$", ClubDetail.as_view(), name="club-detail"),
    re_path(r"^players/$", PlayerList.as_view(), name="player-list"),
    re_path(rf"^players/(?P<key>{SEGMENT})/$", PlayerDetail.as_view(), name="player-detail"),
    re_path(r"^koppels/$", KoppelList.as_view(), name="koppel-list"),
    re_path(rf"^koppels/(?P<key>{SEGMENT})/$", KoppelDetail.as_view(), name="koppel-detail"),
    re_path(r"^competitions/$", CompetitionList.as_view(), name="competition-list"),
    re_path(
        rf"^competitions/(?P<slug>{SEGMENT})/$",
        CompetitionDetail.as_view(),
        name="competition-detail",
    ),
    re_path(r"^seasons/$", SeasonList.as_view(), name="season-list"),
    re_path(r"^seasons/(?P<season>.+)/$", SeasonDetail.as_view(), name="season-detail"),
]
