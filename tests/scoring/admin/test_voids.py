"""Voiding matches and games in the admin (issue 22), as deductions are voided there: on
the row's page or with the list's action, with a reason, through the service; the row
stays, with who voided it."""

from __future__ import annotations

import pytest
from django.contrib.admin.models import LogEntry
from django.urls import reverse

from scoring.models import Game
from tests.admin_pages import admin_url, said
from tests.builders import finished_game, pairs_game, pairs_matchday
from tests.refreshes import queued_refreshes
from tournaments.models import Match

pytestmark = pytest.mark.django_db


@pytest.fixture
def played() -> list[Game]:
    _, matchday, entries = pairs_matchday(4)
    return [
        finished_game(pairs_game(matchday, entries[0], entries[1], table=1)),
        finished_game(pairs_game(matchday, entries[2], entries[3], table=2)),
    ]


@pytest.mark.parametrize("model", [Match, Game])
def test_a_row_is_voided_on_its_page_with_a_reason(
    admin_client, played, model, django_capture_on_commit_callbacks
):
    row = played[0].match if model is Match else played[0]
    url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_void", args=[row.pk])
    assert url in admin_client.get(admin_url(model, "change", row.pk)).content.decode()

    response = admin_client.post(url, {"void_confirm": "yes", "reason": "  "})
    assert response.status_code == 200
    assert response.context["form"].errors["reason"] == ["This field is required."]

    with django_capture_on_commit_callbacks() as callbacks:
        response = admin_client.post(url, {"void_confirm": "yes", "reason": "hall closed"})

    assert response.status_code == 302 and "1 row voided." in said(response)
    row.refresh_from_db()
    assert (row.void_reason, row.voided_by.is_superuser) == ("hall closed", True)
    assert len(queued_refreshes(callbacks)) == 1
    response = admin_client.post(url, {"void_confirm": "yes", "reason": "again"})
    assert "voided already" in said(response) and "hall closed" in said(response)


def test_the_void_action_asks_why_then_voids_the_selected_matches(admin_client, played):
    url = admin_url(Match, "changelist")
    selected = {"action": "void_selected", "_selected_action": [g.match_id for g in played]}

    page = admin_client.post(url, {**selected, "index": 0})
    assert page.status_code == 200 and "Void these 2 rows?" in page.content.decode()
    assert not Match.objects.filter(voided_at__isnull=False).exists()

    response = admin_client.post(url, {**selected, "void_confirm": "yes", "reason": "bad night"})

    assert response.status_code == 302 and "2 rows voided." in said(response)
    assert set(Match.objects.values_list("void_reason", flat=True)) == {"bad night"}


def test_the_same_void_again_in_the_admin_writes_nothing(
    admin_client, played, django_capture_on_commit_callbacks
):
    url = reverse("admin:tournaments_match_void", args=[played[0].match_id])
    admin_client.post(url, {"void_confirm": "yes", "reason": "hall closed"})
    match = Match.objects.get(pk=played[0].match_id)
    rows, logged = match.history.count(), LogEntry.objects.count()

    with django_capture_on_commit_callbacks() as callbacks:
        response = admin_client.post(url, {"void_confirm": "yes", "reason": "hall closed"})

    assert "0 rows voided." in said(response)
    assert (match.history.count(), LogEntry.objects.count()) == (rows, logged)
    assert queued_refreshes(callbacks) == []
