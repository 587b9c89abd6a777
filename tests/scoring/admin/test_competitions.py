"""Competitions in the admin: the change page's sections and fields; the settings it
refuses with a message (an unknown tie-break, a club match shape beyond the koppels a side,
a last sitting to join outside the sittings); a change of how the table is counted (the bye
value, the points, the tie-breaks) queues a standings refresh; and (issue 6, "admin side
doors") a competition with results is never deleted, its slug is fixed once it has
matchdays, and only who may assign directors changes them."""

from __future__ import annotations

import pytest
from django.contrib import admin

from tests.admin_pages import admin_url, inline_management, refused_delete, save_as_shown
from tests.admin_scenes import pairs_day, reported_totals, settle
from tests.factories import CompetitionFactory, UserFactory
from tests.refreshes import queued_refreshes
from tournaments.models import Competition

pytestmark = pytest.mark.django_db


def test_competition_rejects_unknown_tiebreaks(admin_client, game):
    competition = game.match.matchday.competition
    response = admin_client.get(admin_url(type(competition), "change", competition.pk))
    html = response.content.decode()
    for legend in (
        "Game rules",
        "Stinkende bonus",
        "Standings",
        "Schedule and byes",
        "Club matches",
        "Results",
        "Directors",
    ):
        assert legend in html
    for name in ("schedule_format", "bye_result", "koppels_per_side", "confirmation_required"):
        assert f'name="{name}"' in html
    form = response.context["adminform"].form
    data = {
        name: form.initial.get(name) for name in form.fields if form.initial.get(name) is not None
    }
    data.update(
        {
            "tiebreaks": ["points", "luck"],
            "directors": [],
            "entries-TOTAL_FORMS": 0,
            "entries-INITIAL_FORMS": 0,
            "entries-MIN_NUM_FORMS": 0,
            "entries-MAX_NUM_FORMS": 1000,
        }
    )
    for flag in ("kap_partner_allowed", "redeal_allowed"):
        data[flag] = "on"
    for flag in ("callers_required", "close_by_director_allowed"):
        data.pop(flag, None)
    response = admin_client.post(admin_url(type(competition), "change", competition.pk), data)
    assert response.status_code == 200
    assert "“luck” is not a known tie-break: choose one from the list." in (
        response.content.decode()
    )


def test_changing_the_bye_value_refreshes_the_standings(admin_client, game):
    competition = Competition.objects.get(pk=game.match.matchday.competition_id)
    response = admin_client.get(admin_url(Competition, "change", competition.pk))
    form = response.context["adminform"].form
    data = {
        name: form.initial.get(name) for name in form.fields if form.initial.get(name) is not None
    }
    data |= {"bye_result": "draw", "directors": [], **inline_management("entries", 0, 0)}
    data["tiebreaks"] = ["points", "saldo"]
    for flag in ("kap_partner_allowed", "redeal_allowed"):
        data[flag] = "on"
    for flag in ("callers_required", "close_by_director_allowed", "squads_required",
                 "confirmation_required"):  # fmt: skip
        data.pop(flag, None)

    response = admin_client.post(admin_url(Competition, "change", competition.pk), data)

    assert response.status_code == 302, response.content.decode()[:3000]
    competition.refresh_from_db()
    assert competition.bye_result == "draw"


def test_the_club_match_shape_is_worded(admin_client, game):
    competition = Competition.objects.get(pk=game.match.matchday.competition_id)
    response = admin_client.get(admin_url(Competition, "change", competition.pk))
    form = response.context["adminform"].form
    data = {
        name: form.initial.get(name) for name in form.fields if form.initial.get(name) is not None
    }
    data |= {"min_koppels": 7, "directors": [], **inline_management("entries", 0, 0)}
    data["tiebreaks"] = ["points"]
    for flag in ("callers_required", "close_by_director_allowed", "squads_required",
                 "confirmation_required", "kap_partner_allowed", "redeal_allowed"):  # fmt: skip
        data.pop(flag, None)

    response = admin_client.post(admin_url(Competition, "change", competition.pk), data)

    assert response.status_code == 200
    assert "Between 1 and the koppels a side (6)." in response.content.decode()


@pytest.mark.parametrize("until", [0, 5])
def test_the_last_sitting_to_join_lies_within_the_sittings(admin_client, game, until):
    competition = Competition.objects.get(pk=game.match.matchday.competition_id)
    response = admin_client.get(admin_url(Competition, "change", competition.pk))
    form = response.context["adminform"].form
    data = {
        name: form.initial.get(name) for name in form.fields if form.initial.get(name) is not None
    }
    data |= {
        "late_koppel_until_sitting": until,
        "directors": [],
        **inline_management("entries", 0, 0),
    }
    data["tiebreaks"] = ["points"]
    for flag in ("callers_required", "close_by_director_allowed", "squads_required",
                 "confirmation_required", "kap_partner_allowed", "redeal_allowed"):  # fmt: skip
        data.pop(flag, None)

    response = admin_client.post(admin_url(Competition, "change", competition.pk), data)

    assert response.status_code == 200
    assert "Between 1 and the sittings (4)." in response.content.decode()
    competition.refresh_from_db()
    assert competition.late_koppel_until_sitting is None


def test_a_competition_with_results_cannot_be_deleted(admin_client):
    matchday, (a, b, *_rest) = pairs_day()
    reported_totals(matchday, a, b)

    competition = matchday.competition
    assert f"{competition} has played matchdays" in refused_delete(admin_client, competition)


@pytest.mark.parametrize(
    ("field", "value"), [("points_win", 3), ("points_draw", 0), ("tiebreaks", ["saldo"])]
)
def test_changing_how_the_table_is_counted_refreshes_the_standings(
    admin_client, django_capture_on_commit_callbacks, field, value
):
    matchday, (a, b, *_rest) = pairs_day()
    reported_totals(matchday, a, b)
    competition = matchday.competition
    settle()

    with django_capture_on_commit_callbacks() as callbacks:
        response = save_as_shown(admin_client, competition, **{field: value})

    assert response.status_code == 302, response.content.decode()[:3000]
    assert queued_refreshes(callbacks) == [competition.pk]


def test_the_slug_of_a_competition_with_matchdays_is_fixed(admin_client):
    # Its public pages, score sheets and exports are linked under the slug.
    matchday, _entries = pairs_day()
    competition = matchday.competition
    page = admin_client.get(admin_url(Competition, "change", competition.pk)).content.decode()
    assert 'name="slug"' not in page
    assert 'name="directors"' in page  # a superuser may still assign directors

    response = save_as_shown(admin_client, competition, slug="moved", name="Renamed")

    assert response.status_code == 302, response.content.decode()[:3000]
    competition.refresh_from_db()
    assert (competition.slug, competition.name) == (matchday.competition.slug, "Renamed")


def test_the_slug_of_a_competition_without_matchdays_can_change(admin_client):
    competition = CompetitionFactory.create()
    page = admin_client.get(admin_url(Competition, "change", competition.pk)).content.decode()
    assert 'name="slug"' in page

    response = save_as_shown(admin_client, competition, slug="moved")

    assert response.status_code == 302, response.content.decode()[:3000]
    competition.refresh_from_db()
    assert competition.slug == "moved"


def test_without_assign_directors_both_directors_and_a_fixed_slug_are_read_only(rf):
    matchday, _entries = pairs_day()
    request = rf.get("/")
    request.user = UserFactory.create(is_staff=True)  # no assign_directors
    competition_admin = admin.site._registry[Competition]

    readonly = competition_admin.get_readonly_fields(request, matchday.competition)
    assert {"directors", "slug"} <= set(readonly)
    assert "slug" not in competition_admin.get_readonly_fields(request, None)
