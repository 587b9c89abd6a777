"""Matchdays in the admin (issue 6, "admin side doors"): a played matchday is never
deleted, renumbered or moved to another competition; a scheduled one stays in its
competition but may be renumbered, and an empty one is deleted, each queuing a standings
refresh; and the matchday's page lists its matches read-only."""

from __future__ import annotations

import pytest

from scoring.services.matches import match_create
from tests.admin_pages import admin_url, bulk_delete, refused_delete, save_as_shown, snapshot
from tests.admin_scenes import game_with_rounds, pairs_day, settle
from tests.factories import CompetitionFactory, MatchFactory
from tests.refreshes import queued_refreshes
from tournaments.models import Match, Matchday

pytestmark = pytest.mark.django_db


def test_a_played_matchday_cannot_be_deleted_renumbered_or_moved(admin_client):
    matchday, (a, b, *_rest) = pairs_day()
    game_with_rounds(matchday, a, b)
    elsewhere = CompetitionFactory.create()
    before = snapshot(matchday)

    assert f"{matchday} is played (a match has a result)" in refused_delete(admin_client, matchday)
    page = admin_client.get(admin_url(Matchday, "change", matchday.pk)).content.decode()
    assert 'name="number"' not in page and 'name="competition"' not in page
    response = save_as_shown(admin_client, matchday, number=9, competition=elsewhere.pk)

    assert response.status_code == 302
    assert snapshot(matchday) == before


def test_a_scheduled_matchday_stays_in_its_competition_but_may_be_renumbered(
    admin_client, django_capture_on_commit_callbacks
):
    matchday, (a, b, *_rest) = pairs_day()
    match_create(matchday_id=matchday.pk, home_id=a.pk, away_id=b.pk)
    elsewhere = CompetitionFactory.create()
    settle()

    with django_capture_on_commit_callbacks() as callbacks:
        response = save_as_shown(admin_client, matchday, number=9, competition=elsewhere.pk)

    assert response.status_code == 302
    matchday.refresh_from_db()
    assert (matchday.number, matchday.competition_id) == (9, a.competition_id)
    assert queued_refreshes(callbacks) == [a.competition_id]


def test_an_empty_matchday_is_deleted_and_the_standings_refreshed(
    admin_client, django_capture_on_commit_callbacks
):
    matchday, _entries = pairs_day()
    settle()

    with django_capture_on_commit_callbacks() as callbacks:
        bulk_delete(admin_client, [matchday])

    assert not Matchday.objects.filter(pk=matchday.pk).exists()
    assert queued_refreshes(callbacks) == [matchday.competition_id]


def test_the_matchday_page_lists_its_matches_read_only(admin_client):
    matchday, (a, b, *_rest) = pairs_day()
    match = MatchFactory.create(matchday=matchday, home=a, away=b)

    posted = {"matches-0-DELETE": "on", "matches-0-home": b.pk}
    response = save_as_shown(admin_client, matchday, **posted)

    assert response.status_code == 302
    assert (
        'name="matches-0-home"'
        not in admin_client.get(admin_url(Matchday, "change", matchday.pk)).content.decode()
    )
    assert (Match.objects.get(pk=match.pk).home, Match.objects.get(pk=match.pk).away) == (a, b)
