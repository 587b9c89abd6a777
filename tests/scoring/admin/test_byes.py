"""Byes in the admin (issue 6, "admin side doors"): a bye of a played matchday is never
deleted, also when the matchday was played after the delete page was shown; one of an
unplayed matchday is added and deleted through the services (`bye_add`, `bye_delete`)
with its history, queuing a standings refresh; and a bye for an entry that plays that day,
or of another competition, is refused on the form, never with a 500."""

from __future__ import annotations

import pytest
from django.contrib.admin.models import LogEntry

from scoring.admin import schedule as schedule_admin
from scoring.services.matches import match_create
from tests.admin_pages import admin_url, bulk_delete, refused_delete, said
from tests.admin_scenes import game_with_totals, pairs_day, settle
from tests.factories import TeamEntryFactory
from tests.interchange.documents import row_counts
from tests.refreshes import queued_refreshes
from tournaments.models import Bye

pytestmark = pytest.mark.django_db


def test_a_bye_for_an_entry_that_plays_that_day_is_refused(admin_client, game):
    response = admin_client.post(
        admin_url(Bye, "add"), {"matchday": game.match.matchday_id, "entry": game.match.home_id}
    )
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert errors["entry"] == [
        f"{game.match.home} plays twice on this matchday: in match {game.match} and in the "
        "bye. An entry plays at most once a matchday, a bye included."
    ]
    assert not Bye.objects.filter(matchday=game.match.matchday).exists()


def test_a_bye_of_a_played_matchday_cannot_be_deleted(admin_client):
    matchday, (a, b, c, _d) = pairs_day()
    game_with_totals(matchday, a, b)  # played: the bye counts
    bye = Bye.objects.create(matchday=matchday, entry=c)

    assert f"the matchday of {bye} is played, so the bye counts and stays" in refused_delete(
        admin_client, bye
    )


def test_a_bye_of_an_unplayed_matchday_is_deleted_and_the_standings_refreshed(
    admin_client, django_capture_on_commit_callbacks
):
    matchday, (a, b, c, _d) = pairs_day()
    match_create(matchday_id=matchday.pk, home_id=a.pk, away_id=b.pk)  # not played yet
    bye = Bye.objects.create(matchday=matchday, entry=c)
    settle()

    with django_capture_on_commit_callbacks() as callbacks:
        response = admin_client.post(admin_url(Bye, "delete", bye.pk), {"post": "yes"})

    assert response.status_code == 302
    assert not Bye.objects.filter(pk=bye.pk).exists()
    assert queued_refreshes(callbacks) == [matchday.competition_id]


def test_a_bye_added_in_the_admin_refreshes_the_standings(
    admin_client, django_capture_on_commit_callbacks
):
    matchday, (a, *_rest) = pairs_day()
    settle()

    with django_capture_on_commit_callbacks() as callbacks:
        response = admin_client.post(
            admin_url(Bye, "add"), {"matchday": matchday.pk, "entry": a.pk}
        )

    assert response.status_code == 302, response.content.decode()[:3000]
    assert Bye.objects.get(matchday=matchday).entry == a
    assert queued_refreshes(callbacks) == [matchday.competition_id]


def test_a_bye_for_an_entry_of_another_competition_is_refused_at_the_field(admin_client):
    matchday, _entries = pairs_day()
    stranger = TeamEntryFactory.create()

    response = admin_client.post(
        admin_url(Bye, "add"), {"matchday": matchday.pk, "entry": stranger.pk}
    )

    assert response.status_code == 200
    assert "the matchday's competition" in response.context["adminform"].form.errors["entry"][0]
    assert not Bye.objects.exists()


def test_a_bye_added_in_the_admin_is_stored_by_bye_add_with_its_history(admin_client):
    matchday, (a, *_rest) = pairs_day()
    before = row_counts()

    response = admin_client.post(admin_url(Bye, "add"), {"matchday": matchday.pk, "entry": a.pk})

    assert response.status_code == 302, response.content.decode()[:3000]
    bye = Bye.objects.get(matchday=matchday)
    assert (bye.entry, bye.reason) == (a, {})  # given by hand
    assert [record.history_type for record in bye.history.all()] == ["+"]
    after = row_counts()
    for label in ("tournaments.Bye", "tournaments.HistoricalBye"):
        assert after.pop(label) == before.pop(label) + 1
    assert after == before  # nothing else changed


def test_a_bye_the_service_refuses_after_the_form_is_a_form_error(admin_client, monkeypatch):
    """The form checks the places first; `bye_add` checks them again under the matchday's
    lock (another director may have paired the entry meanwhile): its refusal shows on the
    form, not as a server error, and nothing is saved."""
    matchday, (a, b, *_rest) = pairs_day()
    match = match_create(matchday_id=matchday.pk, home_id=a.pk, away_id=b.pk)
    monkeypatch.setattr(schedule_admin, "_place_refusals", lambda *args, **kwargs: {})

    response = admin_client.post(admin_url(Bye, "add"), {"matchday": matchday.pk, "entry": a.pk})

    assert response.status_code == 200
    assert response.context["adminform"].form.non_field_errors() == [
        f"{a} plays twice on this matchday: in match {match} and in the bye. An entry plays "
        "at most once a matchday, a bye included."
    ]
    assert not Bye.objects.exists()


def test_a_bye_deleted_in_the_admin_is_deleted_by_bye_delete_with_its_history(admin_client):
    matchday, (a, *_rest) = pairs_day()
    bye = Bye.objects.create(matchday=matchday, entry=a)

    response = admin_client.post(admin_url(Bye, "delete", bye.pk), {"post": "yes"})

    assert response.status_code == 302
    assert [record.history_type for record in Bye.history.filter(id=bye.pk)] == ["-", "+"]


@pytest.mark.parametrize("how", ["page", "list"])
def test_a_bye_played_since_the_delete_page_was_shown_stays(admin_client, monkeypatch, how):
    """The matchday was played after the page's check (a race): `bye_delete` refuses under
    the matchday's lock, and the page says so instead of failing."""
    matchday, (a, b, c, _d) = pairs_day()
    game_with_totals(matchday, a, b)
    bye = Bye.objects.create(matchday=matchday, entry=c)
    monkeypatch.setattr(schedule_admin.ByeAdmin, "is_locked", lambda self, obj: False)
    monkeypatch.setattr(schedule_admin.ByeAdmin, "delete_refusal", lambda self, rows: None)

    if how == "page":
        response = admin_client.post(admin_url(Bye, "delete", bye.pk), {"post": "yes"})
    else:
        _chosen, response = bulk_delete(admin_client, [bye])

    assert response.status_code == 302
    assert said(response) == (
        f"Matchday {matchday.number} is played: its bye counts in the standings and stays."
    )
    assert Bye.objects.filter(pk=bye.pk).exists()
    assert [record.history_type for record in Bye.history.filter(id=bye.pk)] == ["+"]
    assert not LogEntry.objects.filter(object_id=str(bye.pk)).exists()  # not logged deleted
