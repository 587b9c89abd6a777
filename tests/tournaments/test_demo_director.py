"""`manage.py ensure_demo_director`: the demo login, made once and never widened again
(issue 18: `dev.py run` gave it back every competition at each start), refused in
production."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.models import Permission
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import RequestFactory

from tests.factories import CompetitionFactory, UserFactory

pytestmark = pytest.mark.django_db


def ensure(*args: str) -> str:
    out = StringIO()
    call_command("ensure_demo_director", *args, stdout=out)
    return out.getvalue()


def test_refused_when_debug_is_off(settings):
    settings.DEBUG = False
    with pytest.raises(CommandError, match="DEBUG is off"):
        ensure()
    assert not get_user_model().objects.filter(username="director").exists()


def test_creates_a_staff_director_of_every_competition(settings):
    settings.DEBUG = True
    competitions = CompetitionFactory.create_batch(2)

    out = ensure()

    assert "user director, password director" in out
    # axes' backend keys lockouts on the request's address, so authenticate needs one.
    user = authenticate(RequestFactory().post("/"), username="director", password="director")
    assert user is not None
    assert user.is_staff and not user.is_superuser
    assert all(c.is_directed_by(user) and user in c.directors.all() for c in competitions)
    expected = Permission.objects.filter(
        content_type__app_label__in=["tournaments", "scoring"]
    ).exclude(codename__in=["direct_every_competition", "assign_directors"])
    assert expected.count() > 10
    assert set(user.user_permissions.all()) == set(expected)
    assert user.has_perm("scoring.change_round") and user.has_perm("tournaments.add_competition")
    assert not user.has_perm("auth.add_user")
    # A director, not a league admin: it directs the competitions it is director of.
    assert not user.has_perm("tournaments.direct_every_competition")
    assert not user.has_perm("tournaments.assign_directors")


def test_a_later_run_leaves_the_account_as_it_is():
    """Made once, with its rights; what a league admin takes away stays away."""
    first, second = CompetitionFactory.create_batch(2)
    ensure("--force")
    user = get_user_model().objects.get(username="director")
    user.set_password("secret-now")
    user.save()
    first.directors.remove(user)  # taken away by a league admin
    user.user_permissions.remove(Permission.objects.get(codename="add_competition"))
    later = CompetitionFactory.create()
    rights = set(user.user_permissions.all())

    out = ensure("--force")

    assert "exists already: left as it is" in out
    assert "directs 1 competitions" in out
    user = get_user_model().objects.get(username="director")
    assert list(user.directed_competitions.all()) == [second]
    assert not first.is_directed_by(user) and not later.is_directed_by(user)
    assert set(user.user_permissions.all()) == rights
    login = RequestFactory().post("/")
    assert authenticate(login, username="director", password="secret-now") is not None
    assert get_user_model().objects.filter(username="director").count() == 1


def test_an_existing_user_named_director_is_not_widened():
    UserFactory.create(username="director")
    CompetitionFactory.create()
    ensure("--force")
    user = get_user_model().objects.get(username="director")
    assert not user.is_staff
    assert not user.user_permissions.exists()
    assert not user.directed_competitions.exists()
