"""Withdrawals and check-ins in the admin (issue 22): added through `entry_withdraw` and
`checkin_record`, a refusal shown on the form (never a 500), reinstated by the list's
action through `entry_reinstate`, which names why it refuses."""

from __future__ import annotations

import pytest

from scoring.services.schedule import schedule_round_robin_create, swiss_matchday_pair
from tests.admin_pages import admin_url
from tests.builders import pairs_competition
from tests.refreshes import queued_refreshes
from tournaments.models import CheckIn, Entry, Match, Withdrawal

pytestmark = pytest.mark.django_db


def test_a_withdrawal_added_in_the_admin_goes_through_the_service(
    admin_client, django_capture_on_commit_callbacks
):
    competition = pairs_competition(4, schedule_format="round_robin")
    schedule_round_robin_create(competition_id=competition.pk)
    kampoe = competition.entries.get(team__name="Kampoe")
    with django_capture_on_commit_callbacks() as callbacks:
        response = admin_client.post(
            admin_url(Withdrawal, "add"),
            {"entry": kampoe.pk, "from_matchday": 2, "from_date": "", "reason": "moved"},
        )
    assert response.status_code == 302, response.content.decode()[:2000]
    withdrawal = Withdrawal.objects.get(entry=kampoe)
    assert (withdrawal.fixtures, withdrawal.played) == ("walkover", "annul")
    assert withdrawal.created_by is not None
    assert Match.objects.filter(forfeit_cause=Match.ForfeitCause.WITHDRAWAL).count() == 2
    assert queued_refreshes(callbacks) == [competition.pk]


def test_a_withdrawal_without_a_matchday_or_date_is_refused_on_the_form(admin_client):
    competition = pairs_competition(2)
    entry = competition.entries.earliest("pk")
    response = admin_client.post(
        admin_url(Withdrawal, "add"), {"entry": entry.pk, "from_matchday": "", "reason": "x"}
    )
    assert response.status_code == 200
    errors = response.context["adminform"].form.non_field_errors()
    assert errors == ["Give the matchday the withdrawal starts from, or its date (one of the two)."]
    assert not Withdrawal.objects.exists()


def test_the_reinstate_action_reinstates_or_says_why_not(admin_client):
    competition = pairs_competition(4, schedule_format="swiss")
    kampoe, toppers = (competition.entries.get(team__name=n) for n in ("Kampoe", "Toppers"))
    for entry in (kampoe, toppers):
        admin_client.post(
            admin_url(Withdrawal, "add"), {"entry": entry.pk, "from_matchday": 1, "reason": "x"}
        )
    swiss_matchday_pair(competition_id=competition.pk, number=1)
    Withdrawal.objects.filter(entry=toppers).update(matchdays_then=1)  # withdrew after it
    response = admin_client.post(
        admin_url(Withdrawal, "changelist"),
        {
            "action": "reinstate_selected",
            "_selected_action": list(Withdrawal.objects.values_list("pk", flat=True)),
        },
        follow=True,
    )
    said = [str(message) for message in response.context["messages"]]
    assert any("can't be reinstated: matchday 1 was added after it withdrew" in m for m in said)
    assert "1 entry reinstated." in said
    assert list(Withdrawal.objects.values_list("entry", flat=True)) == [kampoe.pk]


def test_a_check_in_marked_in_the_admin_goes_through_the_service(admin_client):
    competition = pairs_competition(2)
    entry = competition.entries.earliest("pk")
    response = admin_client.post(
        admin_url(CheckIn, "add"), {"entry": entry.pk, "number": 1, "present": "on"}
    )
    assert response.status_code == 302
    assert CheckIn.objects.get().present is True


def test_an_entry_page_links_to_its_withdrawal(admin_client):
    competition = pairs_competition(2)
    entry = competition.entries.earliest("pk")
    page = admin_client.get(admin_url(Entry, "change", entry.pk)).content.decode()
    assert f"{admin_url(Withdrawal, 'add')}?entry={entry.pk}" in page
    admin_client.post(
        admin_url(Withdrawal, "add"), {"entry": entry.pk, "from_matchday": 1, "reason": "x"}
    )
    page = admin_client.get(admin_url(Entry, "change", entry.pk)).content.decode()
    assert admin_url(Withdrawal, "change", Withdrawal.objects.get().pk) in page
    # The add page opened from the link has the entry chosen.
    add = admin_client.get(admin_url(Withdrawal, "add"), {"entry": entry.pk})
    assert add.context["adminform"].form.initial["entry"] == str(entry.pk)
