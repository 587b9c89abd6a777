"""Matches in the admin (issue 6, "admin side doors"): a match holding a result, in any
of the ways one can, is never deleted (on its page, or in a bulk delete among others) and
keeps its home, away and matchday; its forfeit and table are read-only, with a link to the
match's page; a match added gets its game, and one added or deleted queues a standings
refresh; an entry plays once a matchday and only the matchday competition's entries are
offered, both refused at the field; and a refusal during the save shows on the form, never
as a 500."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django import forms
from django.urls import reverse

from scoring.admin.schedule import MatchAdminForm
from scoring.services.matches import match_create
from tests.admin_pages import admin_url, bulk_delete, refused_delete, said, save_as_shown, snapshot
from tests.admin_scenes import (
    forfeited,
    game_closed,
    game_with_rounds,
    game_with_totals,
    pairs_day,
    reported_totals,
    settle,
)
from tests.factories import MatchdayFactory, MatchFactory, TeamEntryFactory
from tests.refreshes import queued_refreshes
from tournaments.models import Bye, Entry, Match, Matchday

pytestmark = pytest.mark.django_db


def test_match_forfeit_and_table_are_read_only_with_the_match_page_link(admin_client, game):
    match = game.match
    Match.objects.filter(pk=match.pk).update(table=3, forfeit="away", forfeit_reason="no show")
    response = admin_client.get(admin_url(Match, "change", match.pk))
    html = response.content.decode()
    assert response.status_code == 200
    assert 'name="forfeit"' not in html and 'name="table"' not in html
    assert "no show" in html
    assert reverse("match_detail", kwargs={"slug": match.matchday.competition.slug,
                                           "match_id": match.pk}) in html  # fmt: skip


# Every way a match holds a result (scoring.selectors.results.result_holders).
MATCH_RESULTS: dict[str, Callable[[Matchday, Entry, Entry], Match]] = {
    "reported totals": reported_totals,
    "forfeit": forfeited,
    "game with rounds": game_with_rounds,
    "game with totals": game_with_totals,
    "game closed": game_closed,
}
with_each_match_result = pytest.mark.parametrize(
    "give_result", MATCH_RESULTS.values(), ids=MATCH_RESULTS.keys()
)


@with_each_match_result
def test_a_match_with_a_result_cannot_be_deleted(admin_client, give_result):
    matchday, (a, b, *_rest) = pairs_day()
    match = give_result(matchday, a, b)
    before = snapshot(match)

    message = refused_delete(admin_client, match)

    assert "Nothing was deleted" in message and str(match) in message
    assert snapshot(match) == before


@with_each_match_result
def test_a_match_with_a_result_keeps_its_home_away_and_matchday(admin_client, give_result):
    matchday, (a, b, *_rest) = pairs_day()
    match = give_result(matchday, a, b)
    other_day = MatchdayFactory.create(competition=matchday.competition)
    before = snapshot(match)
    page = admin_client.get(admin_url(Match, "change", match.pk)).content.decode()
    assert 'name="home"' not in page and 'name="away"' not in page

    response = save_as_shown(
        admin_client, match, home=b.pk, away=a.pk, matchday=other_day.pk
    )  # posted anyway: ignored

    assert response.status_code == 302
    assert snapshot(match) == before


def test_bulk_delete_of_matches_refuses_all_when_one_has_a_result(admin_client):
    matchday, (a, b, c, d) = pairs_day()
    played = reported_totals(matchday, a, b)
    unplayed = MatchFactory.create(matchday=matchday, home=c, away=d)

    chosen, _confirmed = bulk_delete(admin_client, [played, unplayed])

    assert str(played) in said(chosen)
    assert Match.objects.filter(pk__in=[played.pk, unplayed.pk]).count() == 2


def test_a_match_without_results_is_deleted_and_its_standings_refreshed(
    admin_client, django_capture_on_commit_callbacks
):
    matchday, (a, b, c, d) = pairs_day()
    other_matchday, (e, f, *_rest) = pairs_day()
    one = MatchFactory.create(matchday=matchday, home=a, away=b)
    two = MatchFactory.create(matchday=other_matchday, home=e, away=f)
    settle()

    with django_capture_on_commit_callbacks() as callbacks:
        response = admin_client.post(admin_url(Match, "delete", one.pk), {"post": "yes"})
    assert response.status_code == 302
    assert queued_refreshes(callbacks) == [matchday.competition_id]

    settle()
    with django_capture_on_commit_callbacks() as callbacks:
        bulk_delete(admin_client, [two])
    assert queued_refreshes(callbacks) == [other_matchday.competition_id]
    assert not Match.objects.filter(pk__in=[one.pk, two.pk]).exists()


def match_add(client: Any, matchday: Matchday, home: Entry, away: Entry) -> Any:
    return client.post(
        admin_url(Match, "add"), {"matchday": matchday.pk, "home": home.pk, "away": away.pk}
    )


def test_a_match_added_in_the_admin_gets_its_game_and_refreshes_the_standings(
    admin_client, django_capture_on_commit_callbacks
):
    matchday, (a, b, *_rest) = pairs_day()
    settle()

    with django_capture_on_commit_callbacks() as callbacks:
        response = match_add(admin_client, matchday, a, b)

    assert response.status_code == 302, response.content.decode()[:3000]
    match = Match.objects.get(matchday=matchday)
    assert (match.home, match.away, match.table) == (a, b, 1)
    assert [(g.team_a_id, g.team_b_id) for g in match.games.all()] == [(a.team_id, b.team_id)]
    assert queued_refreshes(callbacks) == [matchday.competition_id]


@pytest.mark.parametrize(
    ("pairing", "field"),
    [
        ("reversed", "home"),  # B–A where A–B is played that day
        ("home plays already", "home"),
        ("away has the bye", "away"),
    ],
)
def test_an_entry_plays_once_a_matchday_in_the_admin(admin_client, pairing, field):
    matchday, (a, b, c, _d) = pairs_day()
    match_create(matchday_id=matchday.pk, home_id=a.pk, away_id=b.pk)
    Bye.objects.create(matchday=matchday, entry=c)
    newcomer = TeamEntryFactory.create(competition=matchday.competition)
    pairings = {"reversed": (b, a), "home plays already": (a, c), "away has the bye": (newcomer, c)}
    home, away = pairings[pairing]

    response = match_add(admin_client, matchday, home, away)

    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    entry = home if field == "home" else away
    places = [f"match {a} – {b}", f"match {home} – {away}"]
    if pairing == "away has the bye":
        places = [f"match {home} – {away}", "the bye"]  # the byes are checked last
    assert errors[field] == [
        f"{entry} plays twice on this matchday: in {places[0]} and in {places[1]}. "
        "An entry plays at most once a matchday, a bye included."
    ]
    assert Match.objects.filter(matchday=matchday).count() == 1


def test_a_match_with_an_entry_of_another_competition_is_refused_at_the_field(admin_client):
    matchday, (a, *_rest) = pairs_day()
    stranger = TeamEntryFactory.create()

    response = match_add(admin_client, matchday, a, stranger)

    assert response.status_code == 200
    assert response.context["adminform"].form.errors["away"] == [
        f"Choose one of the entries of {matchday.competition}, the matchday's competition."
    ]
    assert not Match.objects.filter(matchday=matchday).exists()


def test_the_match_form_offers_only_the_matchday_competition_entries(admin_client):
    matchday, entries = pairs_day()
    TeamEntryFactory.create()  # of another competition

    add = admin_client.get(admin_url(Match, "add"), {"matchday": matchday.pk})
    match = MatchFactory.create(matchday=matchday, home=entries[0], away=entries[1])
    change = admin_client.get(admin_url(Match, "change", match.pk))

    for page in (add, change):
        form = page.context["adminform"].form
        for name in ("home", "away"):
            assert set(form.fields[name].queryset) == set(entries)


@pytest.mark.parametrize("how", ["added", "changed"])
def test_a_refusal_during_the_save_is_shown_on_the_form_not_a_500(admin_client, monkeypatch, how):
    # The form's own check is skipped, as in a race between two admins: the service (add)
    # or the database (change) refuses, the form comes back with the message.
    monkeypatch.setattr(MatchAdminForm, "clean", forms.ModelForm.clean)
    matchday, (a, b, c, d) = pairs_day()
    MatchFactory.create(matchday=matchday, home=a, away=b)
    spare = MatchFactory.create(matchday=matchday, home=c, away=d)
    before = snapshot(spare)

    if how == "added":
        response = match_add(admin_client, matchday, b, a)
        expected = (
            f"{b} plays twice on this matchday: in match {a} – {b} and in match {b} – {a}. "
            "An entry plays at most once a matchday, a bye included."
        )
    else:
        response = save_as_shown(admin_client, spare, home=b.pk, away=a.pk)
        expected = "An entry plays at most once a matchday: in one match, or it has the bye."

    assert response.status_code == 200
    assert response.context["adminform"].form.non_field_errors() == [expected]
    assert Match.objects.filter(matchday=matchday).count() == 2
    assert snapshot(spare) == before
