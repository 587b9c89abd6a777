"""Admin faults a tester found: a crafted many-to-many id, a bye's delete page on a played
matchday, and the delete of a pairs match (its game was "protected")."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.auth.models import Group, Permission, User

from scoring.models import Game
from scoring.services.matches import match_create
from tests.admin_pages import admin_url, bulk_delete, said, save_as_shown
from tests.admin_scenes import game_with_totals, pairs_day, settle
from tests.factories import CompetitionFactory, UserFactory
from tests.refreshes import queued_refreshes
from tournaments.models import Bye, Competition, Match
from troefclub.admin_input import AdminInputMixin

pytestmark = pytest.mark.django_db

# Out of every integer key's range (the database fails on it, not the form).
HUGE = "999999999999999999999999999999"


def field_errors(response: Any, name: str) -> list[tuple[str | None, str]]:
    """The codes and words of the errors the page's form shows at field `name`."""
    form = response.context["adminform"].form
    return [(error.code, " ".join(error.messages)) for error in form.errors.as_data()[name]]


# ---- a crafted many-to-many id


@pytest.mark.parametrize("value", [HUGE, f"-{HUGE}"])
def test_a_director_id_out_of_range_is_a_form_error_on_the_add_page(admin_client, value):
    response = admin_client.post(
        admin_url(Competition, "add"), {"name": "Winter", "directors": [value]}
    )

    assert response.status_code == 200
    assert field_errors(response, "directors") == [
        ("invalid_pk_value", f"“{value}” is not a valid value.")
    ]
    assert not Competition.objects.exists()


def test_a_director_id_out_of_range_is_a_form_error_on_the_change_page(admin_client):
    director = UserFactory.create()
    competition = CompetitionFactory.create(name="Winter")
    competition.directors.add(director)

    response = save_as_shown(
        admin_client, competition, name="Renamed", directors=[str(director.pk), HUGE]
    )

    assert response.status_code == 200
    assert [code for code, _words in field_errors(response, "directors")] == ["invalid_pk_value"]
    competition.refresh_from_db()
    assert competition.name == "Winter"
    assert list(competition.directors.all()) == [director]


def test_a_director_id_in_range_that_is_nobody_is_still_an_invalid_choice(admin_client):
    response = admin_client.post(admin_url(Competition, "add"), {"directors": ["2147483647"]})

    assert [code for code, _words in field_errors(response, "directors")] == ["invalid_choice"]


@pytest.mark.nl
def test_the_refusal_of_an_id_out_of_range_is_in_dutch_by_default(admin_client):
    response = admin_client.post(admin_url(Competition, "add"), {"directors": [HUGE]})

    assert field_errors(response, "directors") == [
        ("invalid_pk_value", f"‘{HUGE}’ is geen geldige waarde.")
    ]


def test_the_user_admin_is_djangos_with_the_input_mixin():
    user_admin = admin.site._registry[User]

    assert isinstance(user_admin, AdminInputMixin) and isinstance(user_admin, DjangoUserAdmin)
    assert user_admin.fieldsets == DjangoUserAdmin.fieldsets


@pytest.mark.parametrize("name", ["groups", "user_permissions"])
def test_a_group_or_permission_id_out_of_range_is_a_form_error(admin_client, name):
    user = UserFactory.create(first_name="Anna")
    group = Group.objects.create(name="leiding")
    user.groups.add(group)
    permission = Permission.objects.order_by("pk").first()
    assert permission is not None
    user.user_permissions.add(permission)

    response = save_as_shown(admin_client, user, first_name="Bea", **{name: [HUGE]})

    assert response.status_code == 200
    assert [code for code, _words in field_errors(response, name)] == ["invalid_pk_value"]
    user.refresh_from_db()
    assert user.first_name == "Anna"
    assert list(user.groups.all()) == [group]
    assert list(user.user_permissions.all()) == [permission]


# ---- a bye given on a played matchday


def test_the_delete_page_of_a_bye_on_a_played_matchday_says_why(admin_client):
    matchday, (a, b, c, _d) = pairs_day()
    game_with_totals(matchday, a, b)
    added = admin_client.post(admin_url(Bye, "add"), {"matchday": matchday.pk, "entry": c.pk})
    assert added.status_code == 302  # the services allow it: unchanged
    admin_client.get(added.url)  # its "added" message read
    bye = Bye.objects.get(matchday=matchday)
    why = f"Matchday {matchday.number} is played: its bye counts in the standings and stays."

    for asked in (admin_client.get, partial(admin_client.post, data={"post": "yes"})):
        response = asked(admin_url(Bye, "delete", bye.pk))
        assert response.status_code == 302
        assert response.url == admin_url(Bye, "change", bye.pk)
        page = admin_client.get(response.url)
        assert page.status_code == 200
        assert [str(message) for message in page.context["messages"]] == [why]

    assert Bye.objects.filter(pk=bye.pk).exists()
    assert [record.history_type for record in Bye.history.filter(id=bye.pk)] == ["+"]


# ---- a pairs match, with its game


def test_an_unplayed_pairs_match_is_deleted_with_its_game_as_the_directors_cross_does(
    admin_client, django_capture_on_commit_callbacks
):
    matchday, (a, b, *_rest) = pairs_day()
    match = match_create(matchday_id=matchday.pk, home_id=a.pk, away_id=b.pk)
    game = match.games.get()
    settle()

    confirm = admin_client.get(admin_url(Match, "delete", match.pk))
    assert confirm.status_code == 200
    assert confirm.context["protected"] == [] and not confirm.context["perms_lacking"]
    listed = str(confirm.context["deleted_objects"])
    assert admin_url(Match, "change", match.pk) in listed
    assert admin_url(Game, "change", game.pk) in listed
    with django_capture_on_commit_callbacks() as callbacks:
        response = admin_client.post(admin_url(Match, "delete", match.pk), {"post": "yes"})

    assert response.status_code == 302
    assert not Match.objects.filter(pk=match.pk).exists()
    assert not Game.objects.filter(pk=game.pk).exists()
    assert queued_refreshes(callbacks) == [matchday.competition_id]


def test_unplayed_pairs_matches_are_deleted_with_their_games_from_the_list(admin_client):
    matchday, (a, b, c, d) = pairs_day()
    one = match_create(matchday_id=matchday.pk, home_id=a.pk, away_id=b.pk)
    two = match_create(matchday_id=matchday.pk, home_id=c.pk, away_id=d.pk)

    chosen, confirmed = bulk_delete(admin_client, [one, two])

    assert chosen.status_code == 200 and chosen.context["protected"] == []
    assert confirmed.status_code == 302
    assert not Match.objects.filter(pk__in=[one.pk, two.pk]).exists()
    assert not Game.objects.filter(match_id__in=[one.pk, two.pk]).exists()


def test_a_played_pairs_match_is_refused_in_words_and_keeps_its_game(admin_client):
    matchday, (a, b, *_rest) = pairs_day()
    match = game_with_totals(matchday, a, b)

    for response in (
        admin_client.get(admin_url(Match, "delete", match.pk)),
        admin_client.post(admin_url(Match, "delete", match.pk), {"post": "yes"}),
    ):
        assert response.status_code == 302
        assert response.url == admin_url(Match, "change", match.pk)
        assert said(response)

    assert Game.objects.filter(match=match).count() == 1
