"""Deductions in the admin: one added is stored with its reason (trimmed) and its
history, nothing else, and queues one standings refresh; one for an entry of another
competition is refused; and (issue 6, "admin side doors") a deduction is never deleted,
only voided with a reason, on its page or with the list's action."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import Game
from tests.admin_pages import admin_url, bulk_delete, said
from tests.admin_scenes import admin_scene, settle
from tests.factories import CompetitionFactory, TeamEntryFactory
from tests.interchange.documents import row_counts
from tests.refreshes import queued_refreshes
from tournaments.models import Competition, Deduction
from tournaments.services.deductions import deduction_add
from tournaments.tokens import deductions_token

pytestmark = pytest.mark.django_db


@pytest.fixture
def game() -> Game:
    """The game of `admin_scene`, among a row of every model in the admin."""
    return admin_scene()


def test_a_deduction_added_in_the_admin_is_stored_with_its_reason(
    admin_client, game, django_capture_on_commit_callbacks
):
    settle()
    competition = game.match.matchday.competition
    entry = game.match.home
    before = row_counts()

    with django_capture_on_commit_callbacks() as callbacks:
        response = admin_client.post(
            admin_url(Deduction, "add"),
            {
                "competition": competition.pk,
                "entry": entry.pk,
                "points": 3,
                "reason": "  ineligible player  ",
                "match": game.match_id,
            },
        )

    assert response.status_code == 302, response.content.decode()[:3000]
    deduction = Deduction.objects.latest("pk")
    assert (deduction.entry, deduction.points, deduction.reason, deduction.match_id) == (
        entry, 3, "ineligible player", game.match_id,
    )  # fmt: skip
    after = row_counts()
    for label in ("tournaments.Deduction", "tournaments.HistoricalDeduction"):
        assert after.pop(label) == before.pop(label) + 1
    assert after == before  # nothing else changed
    assert queued_refreshes(callbacks) == [competition.pk]  # one refresh, for the commit
    # Saved: read-only.
    page = admin_client.get(admin_url(Deduction, "change", deduction.pk))
    assert page.status_code == 200 and 'name="points"' not in page.content.decode()


def test_a_deduction_for_an_entry_of_another_competition_is_refused(admin_client, game):
    competition = game.match.matchday.competition
    stranger = TeamEntryFactory.create()
    count = Deduction.objects.count()

    response = admin_client.post(
        admin_url(Deduction, "add"),
        {"competition": competition.pk, "entry": stranger.pk, "points": 3, "reason": "late"},
    )

    assert response.status_code == 200
    assert "is not an entry of this competition." in response.content.decode()
    assert Deduction.objects.count() == count


def deduction(competition: Competition | None = None, points: int = 2) -> Deduction:
    competition = competition or CompetitionFactory.create()
    entry = TeamEntryFactory.create(competition=competition)
    seen = deductions_token(competition_id=competition.pk)
    return deduction_add(
        competition_id=competition.pk, entry_id=entry.pk, points=points, reason="late", seen=seen
    )


def test_a_deduction_is_never_deleted_in_the_admin(admin_client):
    kept = deduction()

    assert admin_client.get(admin_url(Deduction, "delete", kept.pk)).status_code == 403
    response = admin_client.post(admin_url(Deduction, "delete", kept.pk), {"post": "yes"})
    assert response.status_code == 403
    changelist = admin_client.get(admin_url(Deduction, "changelist"))
    actions = dict(changelist.context["action_form"].fields["action"].choices)
    assert "delete_selected" not in actions and "void_selected" in actions
    chosen, confirmed = bulk_delete(admin_client, [kept])
    assert chosen.status_code == confirmed.status_code == 302
    assert "No action selected." in said(chosen)
    assert Deduction.objects.get(pk=kept.pk).voided_at is None


def test_a_deduction_is_voided_on_its_page_with_a_reason(
    admin_client, django_capture_on_commit_callbacks
):
    voided = deduction()
    url = reverse("admin:tournaments_deduction_void", args=[voided.pk])
    change_page = admin_client.get(admin_url(Deduction, "change", voided.pk)).content.decode()
    assert url in change_page
    assert admin_client.get(url).status_code == 200

    response = admin_client.post(url, {"void_confirm": "yes", "reason": "   "})
    assert response.status_code == 200
    assert response.context["form"].errors["reason"] == ["This field is required."]
    assert Deduction.objects.get(pk=voided.pk).voided_at is None

    settle()
    with django_capture_on_commit_callbacks() as callbacks:
        response = admin_client.post(url, {"void_confirm": "yes", "reason": "appeal upheld"})

    assert response.status_code == 302
    voided.refresh_from_db()
    assert voided.voided_at is not None and voided.void_reason == "appeal upheld"
    assert queued_refreshes(callbacks) == [voided.competition_id]
    # Once voided: said so, and a second void is refused with the first one's reason.
    response = admin_client.post(url, {"void_confirm": "yes", "reason": "again"})
    assert "was voided already" in said(response) and "appeal upheld" in said(response)
    assert Deduction.objects.get(pk=voided.pk).void_reason == "appeal upheld"


def test_the_void_action_asks_why_then_voids_the_selected_deductions(
    admin_client, django_capture_on_commit_callbacks
):
    first = deduction()
    second = deduction(first.competition, points=1)
    url = admin_url(Deduction, "changelist")
    selected = {"action": "void_selected", "_selected_action": [first.pk, second.pk]}

    page = admin_client.post(url, {**selected, "index": 0})
    assert page.status_code == 200
    assert "Void these 2 deductions?" in page.content.decode()
    assert not Deduction.objects.filter(voided_at__isnull=False).exists()

    settle()
    with django_capture_on_commit_callbacks() as callbacks:
        response = admin_client.post(
            url, {**selected, "void_confirm": "yes", "reason": "entered twice"}
        )

    assert response.status_code == 302
    assert "2 deductions voided." in said(response)
    assert set(Deduction.objects.values_list("void_reason", flat=True)) == {"entered twice"}
    assert queued_refreshes(callbacks) == [first.competition_id]
