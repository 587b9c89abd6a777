"""Voiding a deduction (issue 6: "void with a reason, never hard delete"): the service, the
standings, the director's page, the audit history and the interchange format."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from interchange.errors import InterchangeError
from interchange.exporter import competition_export
from interchange.importer import competition_import
from scoring.models import Standing
from scoring.rules import RuleViolation
from scoring.services.standings import standings_rebuild
from tests.factories import CompetitionFactory, TeamEntryFactory, league_staff
from tests.interchange.documents import document
from tests.refreshes import queued_refreshes
from tournaments.models import Competition, Deduction
from tournaments.services.deductions import deduction_add, deduction_void
from tournaments.tokens import deductions_token

pytestmark = pytest.mark.django_db


@pytest.fixture
def competition() -> Competition:
    competition = CompetitionFactory.create(slug="void-league")
    for name in ("Kampoe", "Toppers"):
        TeamEntryFactory.create(competition=competition, team__name=name)
    return competition


def deduct(competition: Competition, points: int = 3, reason: str = "late") -> Deduction:
    entry = competition.entries.order_by("pk").first()
    assert entry is not None
    return deduction_add(
        competition_id=competition.pk,
        entry_id=entry.pk,
        points=points,
        reason=reason,
        seen=deductions_token(competition_id=competition.pk),
    )


def test_voiding_stamps_time_and_reason_and_keeps_the_row(competition):
    deduction = deduct(competition)

    deduction_void(deduction_id=deduction.pk, reason="  appeal upheld  ")

    deduction.refresh_from_db()
    assert deduction.voided_at is not None
    assert deduction.void_reason == "appeal upheld"
    assert (deduction.points, deduction.reason) == (3, "late")


def test_a_voided_deduction_no_longer_counts_in_the_standings(competition):
    kept = deduct(competition, points=1, reason="kept")
    voided = deduct(competition, points=3, reason="voided later")
    standings_rebuild(competition_id=competition.pk)
    assert Standing.objects.get(entry=kept.entry).deducted == 4

    deduction_void(deduction_id=voided.pk, reason="appeal upheld")
    standings_rebuild(competition_id=competition.pk)

    row = Standing.objects.get(entry=kept.entry)
    assert (row.deducted, row.points) == (1, -1)


def test_voiding_queues_a_standings_refresh(competition, django_capture_on_commit_callbacks):
    # Made directly: only the void queues a refresh.
    entry = competition.entries.first()
    deduction = Deduction.objects.create(competition=competition, entry=entry, points=2, reason="x")
    with django_capture_on_commit_callbacks() as callbacks:
        deduction_void(deduction_id=deduction.pk, reason="appeal upheld")
    assert queued_refreshes(callbacks) == [competition.pk]


@pytest.mark.parametrize(
    ("reason", "code"),
    [
        ("", "void_reason_required"),
        ("   \n", "void_reason_required"),
        ("x" * 201, "void_reason_too_long"),
    ],
)
def test_a_void_without_a_usable_reason_is_refused(competition, reason, code):
    deduction = deduct(competition)

    with pytest.raises(RuleViolation) as caught:
        deduction_void(deduction_id=deduction.pk, reason=reason)

    assert caught.value.code == code
    deduction.refresh_from_db()
    assert deduction.voided_at is None


def test_voiding_twice_is_refused_and_keeps_the_first_reason(competition):
    deduction = deduct(competition)
    deduction_void(deduction_id=deduction.pk, reason="first")

    with pytest.raises(RuleViolation) as caught:
        deduction_void(deduction_id=deduction.pk, reason="second")

    assert caught.value.code == "deduction_already_void"
    assert caught.value.params["void_reason"] == "first"
    deduction.refresh_from_db()
    assert deduction.void_reason == "first"


def test_voiding_an_unknown_deduction_is_refused(db):
    with pytest.raises(RuleViolation) as caught:
        deduction_void(deduction_id=987654, reason="x")
    assert caught.value.code == "deduction_unknown"


def test_the_history_keeps_who_voided_it_and_why(client, competition):
    director = league_staff()
    client.force_login(director)
    deduction = deduct(competition)

    response = client.post(
        reverse("competition_manage", kwargs={"slug": competition.slug}),
        {"action": "deduction_void", "deduction": deduction.pk, "void_reason": "appeal upheld"},
    )

    assert response.status_code == 302
    latest = deduction.history.latest()
    assert latest.history_type == "~"
    assert latest.history_user == director
    assert latest.void_reason == "appeal upheld"
    assert deduction.history.count() == 2  # added, voided: never a "-"
    assert Deduction.objects.filter(pk=deduction.pk).exists()


def test_the_director_page_strikes_a_voided_deduction_through_and_the_public_page_drops_it(
    client, competition, refreshed
):
    client.force_login(league_staff())
    with refreshed():  # the refreshes the two writes queue, as the worker runs them
        deduction = deduct(competition, reason="Late by 30 minutes")
        deduction_void(deduction_id=deduction.pk, reason="Clock was wrong")

    manage = client.get(reverse("competition_manage", kwargs={"slug": competition.slug}))
    html = manage.content.decode()
    assert "deduction-voided" in html
    assert "Clock was wrong" in html
    assert 'value="deduction_void"' not in html  # nothing left to void

    public = client.get(reverse("competition_detail", kwargs={"slug": competition.slug}))
    assert "Late by 30 minutes" not in public.content.decode()
    shown = {row.record.entry_id: row.record.deducted for row in public.context["table"].rows}
    assert shown == {entry.pk: 0 for entry in competition.entries.all()}


@pytest.mark.parametrize("reason", ["", " "])
def test_the_director_page_asks_for_a_reason_and_voids_nothing(client, competition, reason):
    client.force_login(league_staff())
    deduction = deduct(competition)

    response = client.post(
        reverse("competition_manage", kwargs={"slug": competition.slug}),
        {"action": "deduction_void", "deduction": deduction.pk, "void_reason": reason},
    )

    assert response.status_code == 422
    assert "Say why the deduction is voided." in response.content.decode()
    deduction.refresh_from_db()
    assert deduction.voided_at is None


VOIDED_AT = "2026-10-09T19:30:00+00:00"


def test_export_and_import_keep_a_voided_deduction_voided():
    data = document(
        deductions=[
            {"entry": "noord", "points": 2, "reason": "late"},
            {"entry": "zuid", "points": 1, "reason": "no show",
             "voided": {"at": VOIDED_AT, "reason": "was there after all"}},
        ]
    )  # fmt: skip
    competition = competition_import(data=data)

    voided = Deduction.objects.get(competition=competition, entry__team__key="zuid")
    assert voided.voided_at == datetime.datetime.fromisoformat(VOIDED_AT)
    assert voided.void_reason == "was there after all"
    assert Standing.objects.get(competition=competition, entry=voided.entry).deducted == 0
    assert competition_export(competition=competition) == data


@pytest.mark.parametrize(
    ("voided", "says"),
    [
        ({"at": "2026-10-09T19:30:00", "reason": "x"}, "UTC offset"),
        ({"at": "yesterday", "reason": "x"}, "UTC offset"),
        ({"at": VOIDED_AT, "reason": "  "}, "why it was voided"),
        ({"at": VOIDED_AT}, "“reason” is missing"),
        ({"at": VOIDED_AT, "reason": "x", "by": "me"}, "unknown field"),
        ("yes", "must be an object"),
    ],
)
def test_import_refuses_a_bad_voided_naming_the_place(voided, says):
    data = document(
        deductions=[{"entry": "noord", "points": 2, "reason": "late", "voided": voided}]
    )
    with pytest.raises(InterchangeError) as caught:
        competition_import(data=data)
    assert caught.value.place == "deductions[1], voided"
    assert says in caught.value.message
    assert not Competition.objects.filter(slug="test-evening").exists()
