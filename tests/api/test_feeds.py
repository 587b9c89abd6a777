"""The calendar feeds (issue 21): the fixtures of a competition, a koppel and a club as
iCalendar, read back with the `icalendar` library.

Times are the matchday's start in the competition's time zone, right on both sides of a
daylight-saving change (Europe/Amsterdam moves, America/Paramaribo doesn't); a matchday
without a time is a whole day; a match shows its table once it has one; an evening not
paired yet is an event of its own; UIDs stay the same across fetches; ETag and 304.
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from icalendar import Calendar

from tests.factories import ClubFactory, CompetitionFactory, MatchdayFactory, koppel_entries
from tournaments.models import Competition, Entry, Match, Matchday

pytestmark = pytest.mark.django_db
UTC = datetime.UTC


@pytest.fixture(autouse=True)
def _throttles() -> None:
    cache.clear()


def summer_time_starts(year: int) -> datetime.date:
    """The last Sunday of March: Europe's clocks go forward."""
    day = datetime.date(year, 3, 31)
    return day - datetime.timedelta(days=(day.weekday() + 1) % 7)


SWITCH = summer_time_starts(timezone.localdate().year + 1)
BEFORE, AFTER = SWITCH - datetime.timedelta(days=1), SWITCH + datetime.timedelta(days=6)
EVENING = datetime.time(19, 30)


def build(time_zone: str) -> tuple[Competition, list[Entry], list[Matchday]]:
    """Four koppels: matchday 1 (before the switch, 19:30) at tables 3 and 4, matchday 2
    (after it, 19:30) one match at a table and one without, matchday 3 dated without a
    time, matchday 4 dated and not paired yet."""
    competition = CompetitionFactory.create(
        slug=f"feed-{time_zone[:6].lower()}", time_zone=time_zone
    )
    entries = koppel_entries(competition, 4)
    days = [
        MatchdayFactory.create(competition=competition, number=1, date=BEFORE, time=EVENING),
        MatchdayFactory.create(competition=competition, number=2, date=AFTER, time=EVENING),
        MatchdayFactory.create(
            competition=competition, number=3, date=AFTER + datetime.timedelta(days=7)
        ),
        MatchdayFactory.create(
            competition=competition, number=4, date=AFTER + datetime.timedelta(days=14)
        ),
    ]
    a, b, c, d = entries
    Match.objects.create(matchday=days[0], home=a, away=b, table=3)
    Match.objects.create(matchday=days[0], home=c, away=d, table=4)
    Match.objects.create(matchday=days[1], home=a, away=c, table=1)
    Match.objects.create(matchday=days[1], home=b, away=d)  # no table yet
    Match.objects.create(matchday=days[2], home=a, away=d, table=2)
    return competition, entries, days


def events(client: Client, url: str, **headers: str) -> list[Any]:
    response = client.get(url, headers=headers)
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"].startswith("text/calendar")
    calendar = Calendar.from_ical(response.content)
    return list(calendar.walk("VEVENT"))


def feed_url(competition: Competition) -> str:
    return reverse("api:competition-fixtures-feed", kwargs={"slug": competition.slug})


def by_summary(found: list[Any]) -> dict[str, Any]:
    return {str(event["SUMMARY"]): event for event in found}


@pytest.mark.parametrize(
    "time_zone, before_utc, after_utc",
    [
        # Amsterdam: UTC+1 before the switch, UTC+2 after it.
        ("Europe/Amsterdam", datetime.time(18, 30), datetime.time(17, 30)),
        # Paramaribo: UTC−3 all year.
        ("America/Paramaribo", datetime.time(22, 30), datetime.time(22, 30)),
    ],
)
def test_times_are_the_matchdays_in_the_competitions_zone_across_summer_time(
    client: Client, time_zone: str, before_utc: datetime.time, after_utc: datetime.time
) -> None:
    competition, entries, days = build(time_zone)
    found = events(client, feed_url(competition))
    assert len(found) == 6  # five matches, one evening not paired yet
    first = by_summary(found)[f"Matchday 1, table 3: {entries[0]} – {entries[1]}"]
    start = first["DTSTART"].dt
    assert str(start.tzinfo) == time_zone and start.time() == EVENING
    assert start.astimezone(UTC) == datetime.datetime.combine(BEFORE, before_utc, tzinfo=UTC)
    assert first["DTEND"].dt - start == datetime.timedelta(hours=3)
    second = by_summary(found)[f"Matchday 2, table 1: {entries[0]} – {entries[2]}"]
    assert second["DTSTART"].dt.astimezone(UTC) == datetime.datetime.combine(
        AFTER, after_utc, tzinfo=UTC
    )
    calendar = Calendar.from_ical(client.get(feed_url(competition)).content)
    assert [str(zone["TZID"]) for zone in calendar.walk("VTIMEZONE")] == [time_zone]


def test_a_matchday_without_a_time_is_a_whole_day(client: Client) -> None:
    competition, entries, days = build("Europe/Amsterdam")
    event = by_summary(events(client, feed_url(competition)))[
        f"Matchday 3, table 2: {entries[0]} – {entries[3]}"
    ]
    assert event["DTSTART"].dt == days[2].date
    assert not isinstance(event["DTSTART"].dt, datetime.datetime)
    assert event["DTEND"].dt == days[2].date + datetime.timedelta(days=1)


def test_the_table_shows_once_paired_and_an_unpaired_evening_has_its_own_event(
    client: Client,
) -> None:
    competition, entries, days = build("Europe/Amsterdam")
    summaries = by_summary(events(client, feed_url(competition)))
    assert f"Matchday 2: {entries[1]} – {entries[3]}" in summaries  # no table yet
    unpaired = summaries["Matchday 4 (not paired yet)"]
    assert unpaired["DTSTART"].dt == days[3].date
    Match.objects.filter(matchday=days[1], table__isnull=True).update(table=2)
    Match.objects.create(matchday=days[3], home=entries[1], away=entries[2], table=1)
    summaries = by_summary(events(client, feed_url(competition)))
    assert f"Matchday 2, table 2: {entries[1]} – {entries[3]}" in summaries
    assert f"Matchday 4, table 1: {entries[1]} – {entries[2]}" in summaries
    assert "Matchday 4 (not paired yet)" not in summaries


def test_uids_stay_the_same_across_fetches_and_feeds(client: Client) -> None:
    competition, entries, days = build("America/Paramaribo")
    first = {str(e["UID"]) for e in events(client, feed_url(competition))}
    again = {str(e["UID"]) for e in events(client, feed_url(competition))}
    assert first == again and len(first) == 6
    match = Match.objects.get(matchday=days[0], table=3)
    assert f"match-{match.pk}@testserver" in first
    team = entries[0].team
    assert team is not None
    koppel = events(client, reverse("api:koppel-fixtures-feed", kwargs={"key": team.key}))
    assert {str(e["UID"]) for e in koppel} <= first
    for event in koppel:
        assert event["DTSTAMP"].dt.tzinfo is not None


def test_the_summary_is_in_the_readers_language(client: Client) -> None:
    competition, entries, days = build("Europe/Amsterdam")
    summaries = by_summary(events(client, feed_url(competition), **{"accept-language": "nl"}))
    assert f"Speelronde 1, tafel 3: {entries[0]} – {entries[1]}" in summaries
    assert "Speelronde 4 (nog niet ingedeeld)" in summaries


def test_a_koppels_and_a_clubs_feed_hold_their_own_fixtures(client: Client) -> None:
    competition, entries, days = build("Europe/Amsterdam")
    team = entries[0].team
    assert team is not None
    koppel = by_summary(
        events(client, reverse("api:koppel-fixtures-feed", kwargs={"key": team.key}))
    )
    assert sorted(koppel) == sorted(
        [
            f"Matchday 1, table 3: {entries[0]} – {entries[1]}",
            f"Matchday 2, table 1: {entries[0]} – {entries[2]}",
            f"Matchday 3, table 2: {entries[0]} – {entries[3]}",
            "Matchday 4 (not paired yet)",
        ]
    )
    club = ClubFactory.create(key="kampoe")
    Entry.objects.filter(pk=entries[3].pk).update(player_1_club=club)
    found = by_summary(events(client, reverse("api:club-fixtures-feed", kwargs={"key": "kampoe"})))
    assert sorted(found) == sorted(
        [
            f"Matchday 1, table 4: {entries[2]} – {entries[3]}",
            f"Matchday 2: {entries[1]} – {entries[3]}",
            f"Matchday 3, table 2: {entries[0]} – {entries[3]}",
            "Matchday 4 (not paired yet)",
        ]
    )


def test_an_unchanged_feed_is_a_304_and_a_new_time_a_new_etag(client: Client) -> None:
    competition, entries, days = build("Europe/Amsterdam")
    url = feed_url(competition)
    etag = client.get(url)["ETag"]
    unchanged = client.get(url, headers={"if-none-match": etag})
    assert unchanged.status_code == 304 and unchanged.content == b""
    Matchday.objects.filter(pk=days[0].pk).update(time=datetime.time(20, 0))
    moved = client.get(url, headers={"if-none-match": etag})
    assert moved.status_code == 200 and moved["ETag"] != etag
    Competition.objects.filter(pk=competition.pk).update(time_zone="America/Paramaribo")
    assert client.get(url, headers={"if-none-match": moved["ETag"]}).status_code == 200


@pytest.mark.parametrize("name", ["competition", "koppel", "club"])
def test_an_unknown_key_is_a_404_in_json(client: Client, db: None, name: str) -> None:
    kwargs = {"slug": "nope"} if name == "competition" else {"key": "nope"}
    response = client.get(reverse(f"api:{name}-fixtures-feed", kwargs=kwargs))
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_a_feed_leaves_out_old_evenings_and_stops_at_its_maximum(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    from scoring.selectors import fixtures

    competition, entries, days = build("America/Paramaribo")
    past = timezone.localdate() - datetime.timedelta(days=fixtures.FIXTURES_PAST_DAYS + 1)
    Matchday.objects.filter(pk=days[0].pk).update(date=past)
    summaries = by_summary(events(client, feed_url(competition)))
    assert len(summaries) == 4 and not any(s.startswith("Matchday 1,") for s in summaries)
    monkeypatch.setattr(fixtures, "FIXTURES_MAX", 2)
    summaries = by_summary(events(client, feed_url(competition)))
    assert sorted(summaries) == sorted(
        [
            f"Matchday 2, table 1: {entries[0]} – {entries[2]}",
            f"Matchday 2: {entries[1]} – {entries[3]}",
            "Matchday 4 (not paired yet)",
        ]
    )
