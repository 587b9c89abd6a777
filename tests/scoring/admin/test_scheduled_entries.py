"""Entries on the schedule in the admin (issue 6, "admin side doors"): an entry with a
match or a bye is never deleted and keeps its koppel, on its own page and among the
competition page's entries, while one not on the schedule is deleted; each change queues a
standings refresh. (An entry of the wrong kind: test_entries.py.)"""

from __future__ import annotations

import pytest

from tests.admin_pages import admin_url, posted_back, refused_delete, save_as_shown, snapshot
from tests.admin_scenes import pairs_day, settle
from tests.factories import MatchFactory, TeamFactory
from tests.refreshes import queued_refreshes
from tournaments.models import Bye, Competition, Entry

pytestmark = pytest.mark.django_db


def test_an_entry_on_the_schedule_cannot_be_deleted_or_changed(admin_client):
    matchday, (a, b, c, _d) = pairs_day()
    MatchFactory.create(matchday=matchday, home=a, away=b)
    Bye.objects.create(matchday=matchday, entry=c)
    other = TeamFactory.create()
    for entry in (a, c):
        before = snapshot(entry)

        assert f"{entry} is on the schedule" in refused_delete(admin_client, entry)
        response = save_as_shown(admin_client, entry, team=other.pk)

        assert response.status_code == 302
        assert snapshot(entry) == before


def test_the_competition_page_keeps_its_scheduled_entries(
    admin_client, django_capture_on_commit_callbacks
):
    matchday, (a, b, c, _d) = pairs_day()
    MatchFactory.create(matchday=matchday, home=a, away=b)
    competition = matchday.competition
    page = admin_client.get(admin_url(Competition, "change", competition.pk))
    forms_shown = page.context["inline_admin_formsets"][0].formset.forms
    rows = {form.instance.pk: index for index, form in enumerate(forms_shown)}
    newcomer = TeamFactory.create()
    changes = {
        f"entries-{rows[a.pk]}-DELETE": "on",
        f"entries-{rows[a.pk]}-team": newcomer.pk,
        f"entries-{rows[c.pk]}-DELETE": "on",  # not on the schedule: may go
    }
    settle()

    with django_capture_on_commit_callbacks() as callbacks:
        response = admin_client.post(
            admin_url(Competition, "change", competition.pk), posted_back(page, **changes)
        )

    assert response.status_code == 302, response.content.decode()[:3000]
    assert set(competition.entries.all()) == {a, b, _d}
    assert Entry.objects.get(pk=a.pk).team_id == a.team_id
    assert queued_refreshes(callbacks) == [competition.pk]


def test_an_unscheduled_entry_is_deleted_and_the_standings_refreshed(
    admin_client, django_capture_on_commit_callbacks
):
    _matchday, (a, *_rest) = pairs_day()
    settle()

    with django_capture_on_commit_callbacks() as callbacks:
        response = admin_client.post(admin_url(Entry, "delete", a.pk), {"post": "yes"})

    assert response.status_code == 302
    assert not Entry.objects.filter(pk=a.pk).exists()
    assert queued_refreshes(callbacks) == [a.competition_id]
