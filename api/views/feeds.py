"""Calendar feeds (iCalendar, RFC 5545) of the fixtures of a competition, a koppel and a
club, so players see their evenings in their phone's calendar (no login).

One VEVENT per fixture (`scoring.selectors.fixtures`): the matchday's date and start time
in the competition's time zone (`Competition.time_zone`, with its VTIMEZONE), or the whole
day when the matchday has no time; the opponents and, once the match has one, its table;
the summary in the reader's language (Accept-Language). A fixture keeps its UID across
fetches (`match-<id>@<host>`; an evening not paired yet is `matchday-<id>@<host>` until
it is), so a calendar app updates its event instead of adding another.

The ETag is the feed's content (every field an event shows, read in the feed's own two
queries): an unchanged feed is a 304 and nothing is rendered.
"""

from __future__ import annotations

import datetime
import hashlib
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from icalendar import Calendar, Event
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.conditional import ConditionalMixin, Stamp
from api.serializers.tables import TableErrorSerializer
from api.views.tables import SLUG_PATTERN
from scoring.selectors.fixtures import (
    Fixtures,
    club_fixtures,
    competition_fixtures,
    koppel_fixtures,
)
from tournaments.models import Club, Competition, Match, Matchday, Team

# How long a timed event lasts in the calendar: the matchday says when play starts, not
# when it ends; a club evening takes about three hours.
EVENING = datetime.timedelta(hours=3)
PRODID = "-//troefclub//fixtures//EN"


class ICalendarRenderer(BaseRenderer):
    """`text/calendar`: the view's data are the feed's bytes already."""

    media_type = "text/calendar"
    format = "ics"
    charset = "utf-8"

    def render(
        self, data: Any, accepted_media_type: Any = None, renderer_context: Any = None
    ) -> Any:
        return data


class FeedNegotiation(BaseContentNegotiation):
    """A feed is iCalendar whatever the client's Accept says (calendar apps send odd ones)."""

    def select_parser(self, request: Any, parsers: Any) -> Any:
        return parsers[0] if parsers else None

    def select_renderer(self, request: Any, renderers: Any, format_suffix: Any = None) -> Any:
        return renderers[0], renderers[0].media_type


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ValueError, KeyError):  # validated on save: a row written around the checks
        return ZoneInfo(settings.TIME_ZONE)


def _start(matchday: Matchday) -> datetime.date | datetime.datetime:
    """When the fixture starts: the matchday's date and time in its competition's zone,
    or its date alone (a whole day)."""
    assert matchday.date is not None  # the selector reads dated matchdays only
    if matchday.time is None:
        return matchday.date
    zone = _zone(matchday.competition.time_zone)
    return datetime.datetime.combine(matchday.date, matchday.time, tzinfo=zone)


def _event(uid: str, start: datetime.date | datetime.datetime, summary: str, stamp: Any) -> Event:
    event = Event()
    event.add("uid", uid)
    event.add("dtstamp", stamp)
    event.add("dtstart", start)
    if isinstance(start, datetime.datetime):
        event.add("dtend", start + EVENING)
    else:
        event.add("dtend", start + datetime.timedelta(days=1))
    event.add("summary", summary)
    return event


def _match_summary(match: Match) -> str:
    names = {"number": match.matchday.number, "home": match.home, "away": match.away}
    table = getattr(match, "table_shown", None)
    if table is None:
        return _("Matchday %(number)s: %(home)s – %(away)s") % names
    return _("Matchday %(number)s, table %(table)s: %(home)s – %(away)s") % {
        **names,
        "table": table,
    }


def _fixture_lines(fixtures: Fixtures) -> list[tuple[Any, ...]]:
    """Every field an event shows, fixture by fixture: what the ETag is made of."""
    lines: list[tuple[Any, ...]] = []
    for match in fixtures.matches:
        day = match.matchday
        lines.append(
            (
                "m",
                match.pk,
                day.number,
                day.date,
                day.time,
                day.competition.time_zone,
                day.competition.name,
                str(match.home),
                str(match.away),
                getattr(match, "table_shown", None),
            )
        )
    for day in fixtures.unpaired:
        competition = day.competition
        lines.append(
            ("d", day.pk, day.number, day.date, day.time, competition.time_zone, competition.name)
        )
    return lines


class FixturesFeed(ConditionalMixin, APIView):
    """The base of a feed: `fixtures()` names what it lists, `title()` the calendar."""

    renderer_classes = [ICalendarRenderer]
    content_negotiation_class = FeedNegotiation
    pagination_class = None

    def fixtures(self) -> Fixtures:
        raise NotImplementedError

    def title(self) -> str:
        raise NotImplementedError

    def stamp(self) -> Stamp:
        self.found = self.fixtures()
        seed = repr((self.title(), _fixture_lines(self.found))).encode("utf-8", "surrogatepass")
        return Stamp(version="fixtures:" + hashlib.sha256(seed).hexdigest())

    def handle_exception(self, exc: Exception) -> Response:
        response = super().handle_exception(exc)
        if response.status_code >= 400:  # refusals in the API's JSON shape (api.errors)
            self.request.accepted_renderer = JSONRenderer()
            self.request.accepted_media_type = JSONRenderer.media_type
        return response

    def get(self, request: Request, **kwargs: Any) -> Response:
        host = request.get_host().split(":")[0] or "troefclub"
        # When this copy of the feed was made (RFC 5545: in UTC); the ETag leaves it out.
        made = timezone.now().astimezone(datetime.UTC).replace(microsecond=0)
        calendar = Calendar()
        calendar.add("prodid", PRODID)
        calendar.add("version", "2.0")
        calendar.add("calscale", "GREGORIAN")
        calendar.add("x-wr-calname", self.title())
        for match in self.found.matches:
            calendar.add_component(
                _event(
                    f"match-{match.pk}@{host}",
                    _start(match.matchday),
                    _match_summary(match),
                    made,
                )
            )
        for day in self.found.unpaired:
            summary = _("Matchday %(number)s (not paired yet)") % {"number": day.number}
            calendar.add_component(_event(f"matchday-{day.pk}@{host}", _start(day), summary, made))
        calendar.add_missing_timezones()
        return Response(calendar.to_ical(), content_type="text/calendar; charset=utf-8")


def feed_schema(operation_id: str, key: str) -> Any:
    """The schema of a feed (its path parameter `key`: a slug): `text/calendar`, a 304
    while unchanged, a 404 in JSON."""
    return extend_schema(
        operation_id=operation_id,
        parameters=[OpenApiParameter(key, str, OpenApiParameter.PATH, pattern=SLUG_PATTERN)],
        responses={
            (200, "text/calendar"): OpenApiResponse(
                response=OpenApiTypes.STR, description="An iCalendar (RFC 5545) feed."
            ),
            (304, "text/calendar"): OpenApiResponse(
                description="Unchanged since the ETag sent in If-None-Match."
            ),
            (404, "application/json"): OpenApiResponse(
                TableErrorSerializer, description="No such competition, koppel or club."
            ),
        },
    )


class CompetitionFixturesFeed(FixturesFeed):
    """The fixtures of a competition as an iCalendar feed (`text/calendar`)."""

    def fixtures(self) -> Fixtures:
        self.competition = get_object_or_404(Competition, slug=self.kwargs["slug"])
        return competition_fixtures(competition=self.competition)

    def title(self) -> str:
        return self.competition.name

    @feed_schema("competition_fixtures_feed", "slug")
    def get(self, request: Request, **kwargs: Any) -> Response:
        return super().get(request, **kwargs)


class KoppelFixturesFeed(FixturesFeed):
    """The fixtures of a koppel (by its key) as an iCalendar feed (`text/calendar`)."""

    def fixtures(self) -> Fixtures:
        self.team = get_object_or_404(
            Team.objects.select_related("player_1", "player_2"), key=self.kwargs["key"]
        )
        return koppel_fixtures(team=self.team)

    def title(self) -> str:
        return str(self.team)

    @feed_schema("koppel_fixtures_feed", "key")
    def get(self, request: Request, **kwargs: Any) -> Response:
        return super().get(request, **kwargs)


class ClubFixturesFeed(FixturesFeed):
    """The fixtures of a club (by its key) as an iCalendar feed (`text/calendar`)."""

    def fixtures(self) -> Fixtures:
        self.club = get_object_or_404(Club, key=self.kwargs["key"])
        return club_fixtures(club=self.club)

    def title(self) -> str:
        return self.club.name

    @feed_schema("club_fixtures_feed", "key")
    def get(self, request: Request, **kwargs: Any) -> Response:
        return super().get(request, **kwargs)


urlpatterns = [
    path(
        "competitions/<slug:slug>/fixtures.ics",
        CompetitionFixturesFeed.as_view(),
        name="competition-fixtures-feed",
    ),
    path(
        "koppels/<slug:key>/fixtures.ics", KoppelFixturesFeed.as_view(), name="koppel-fixtures-feed"
    ),
    path("clubs/<slug:key>/fixtures.ics", ClubFixturesFeed.as_view(), name="club-fixtures-feed"),
]
