"""A competition's time zone and a matchday's start time (issue 21, for the calendar
feeds): validated, set on the director's forms and through the services, and carried by
the interchange format both ways (old files still import).
"""

from __future__ import annotations

import datetime
import json
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from interchange.errors import InterchangeError
from interchange.exporter import competition_export
from interchange.importer import competition_import
from scoring.rules import RuleViolation
from scoring.services.schedule import (
    matchday_create,
    schedule_round_robin_create,
    swiss_matchday_pair,
)
from tests.factories import CompetitionFactory, TeamEntryFactory, koppel_entries
from tests.interchange.documents import SAMPLE, document, load
from tests.seen import next_matchday
from tournaments.models import Competition, Matchday

pytestmark = pytest.mark.django_db
EVENING = datetime.time(19, 30)
DAY = datetime.date(2026, 10, 2)


@pytest.mark.parametrize(
    "value, valid",
    [
        ("America/Paramaribo", True),
        ("Europe/Amsterdam", True),
        ("UTC", True),
        ("Mars/Olympus", False),
        ("", False),
        ("../etc/passwd", False),
        (" Europe/Amsterdam", False),
        ("Europe/Amsterdam\x00", False),
    ],
)
def test_a_time_zone_must_be_an_iana_name(value: str, valid: bool) -> None:
    competition = CompetitionFactory.build(slug="tz", time_zone=value)
    if valid:
        competition.full_clean(exclude=["directors"])
    else:
        with pytest.raises(ValidationError) as info:
            competition.full_clean(exclude=["directors"])
        assert "time_zone" in info.value.message_dict


def test_a_new_competition_is_in_the_sites_zone(settings: Any) -> None:
    settings.TIME_ZONE = "Europe/Amsterdam"
    assert CompetitionFactory.create().time_zone == "Europe/Amsterdam"


def test_the_services_store_the_start_time_and_refuse_one_without_a_date() -> None:
    competition = CompetitionFactory.create()
    koppel_entries(competition, 4)
    with pytest.raises(RuleViolation) as info:
        matchday_create(competition_id=competition.pk, number=1, time=EVENING)
    assert info.value.code == "matchday_time_without_date"
    day = matchday_create(competition_id=competition.pk, number=1, date=DAY, time=EVENING)
    assert Matchday.objects.get(pk=day.pk).time == EVENING


def test_a_round_robin_and_a_swiss_pairing_take_the_time() -> None:
    league = CompetitionFactory.create()
    koppel_entries(league, 4)
    days = schedule_round_robin_create(
        competition_id=league.pk, start=DAY, days_between=7, time=EVENING
    )
    assert {day.time for day in days} == {EVENING}
    swiss = CompetitionFactory.create(schedule_format=Competition.Format.SWISS)
    koppel_entries(swiss, 4)
    with pytest.raises(RuleViolation):
        swiss_matchday_pair(competition_id=swiss.pk, number=1, time=EVENING)
    day = swiss_matchday_pair(competition_id=swiss.pk, number=1, date=DAY, time=EVENING)
    assert (day.date, day.time) == (DAY, EVENING)


def test_the_directors_form_adds_a_matchday_with_its_time(director_client: Client) -> None:
    competition = CompetitionFactory.create()
    koppel_entries(competition, 4)
    url = reverse("competition_manage", kwargs={"slug": competition.slug})
    number = next_matchday(competition.pk)
    data = {"action": "matchday_add", "matchday-number": number, "matchday-time": "19:30"}
    refused = director_client.post(url, data)
    assert refused.status_code == 422
    assert "A start time needs a date" in refused.content.decode()
    assert not competition.matchdays.exists()
    director_client.post(url, {**data, "matchday-date": "2026-10-02"})
    assert competition.matchdays.get().time == EVENING
    page = director_client.get(url)
    assert 'name="pair-time"' in page.content.decode() or 'name="matchday-time"' in (
        page.content.decode()
    )


# ----------------------------------------------------------------------- interchange


def test_time_zone_and_time_round_trip_through_the_file() -> None:
    data = document()
    data["competition"]["time_zone"] = "Europe/Amsterdam"
    data["matchdays"][0]["time"] = "19:30"
    competition = competition_import(data=data)
    assert competition.time_zone == "Europe/Amsterdam"
    assert competition.matchdays.get().time == EVENING
    exported = competition_export(competition=competition)
    assert exported["competition"]["time_zone"] == "Europe/Amsterdam"
    assert exported["matchdays"][0]["time"] == "19:30"
    again = competition_import(data=json.loads(json.dumps(exported)), replace=True)
    assert (again.time_zone, again.matchdays.get().time) == ("Europe/Amsterdam", EVENING)


def test_an_old_file_imports_in_the_sites_zone_and_exports_as_it_was(settings: Any) -> None:
    original = load(SAMPLE)
    competition = competition_import(data=original)
    assert competition.time_zone == settings.TIME_ZONE
    assert {day.time for day in competition.matchdays.all()} == {None}
    exported = competition_export(competition=competition)
    assert "time_zone" not in exported["competition"]
    assert all("time" not in day for day in exported["matchdays"])


@pytest.mark.parametrize(
    "change, words",
    [
        ({"time_zone": "Mars/Olympus"}, "“time_zone” must be an IANA time zone"),
        ({"time_zone": 7}, "time_zone"),
        ({"time": "7pm"}, "“time” must be a time like 19:30"),
        ({"time": "19:30Z"}, "“time” must be a time like 19:30"),
        ({"time": "19:30", "date": None}, "needs its “date” too"),
    ],
)
def test_a_bad_time_or_zone_is_refused_naming_it(change: dict[str, Any], words: str) -> None:
    data = document()
    for key, value in change.items():
        if key == "time_zone":
            data["competition"][key] = value
        else:
            data["matchdays"][0][key] = value
    with pytest.raises(InterchangeError) as info:
        competition_import(data=data)
    assert words in str(info.value)


def test_the_admin_sets_a_time_zone_and_refuses_an_unknown_one(admin_client: Client) -> None:
    from tests.admin_pages import save_as_shown

    competition = CompetitionFactory.create()
    TeamEntryFactory.create(competition=competition)
    refused = save_as_shown(admin_client, competition, time_zone="Mars/Olympus")
    assert refused.status_code == 200 and "Mars/Olympus" in refused.content.decode()
    competition.refresh_from_db()
    assert competition.time_zone != "Mars/Olympus"
    saved = save_as_shown(admin_client, competition, time_zone="Europe/Amsterdam")
    assert saved.status_code == 302
    competition.refresh_from_db()
    assert competition.time_zone == "Europe/Amsterdam"
