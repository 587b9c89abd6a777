"""`manage.py ensure_demo_director`: the demo login, idempotent, refused in production."""

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
    expected = Permission.objects.filter(content_type__app_label__in=["tournaments", "scoring"])
    assert expected.count() > 10
    assert set(user.user_permissions.all()) == set(expected)
    assert user.has_perm("scoring.change_round") and user.has_perm("tournaments.add_competition")
    assert not user.has_perm("auth.add_user")


def test_is_idempotent_and_keeps_a_changed_password():
    ensure("--force")
    user = get_user_model().objects.get(username="director")
    user.set_password("secret-now")
    user.save()
    later = CompetitionFactory.create()

    out = ensure("--force")

    assert "password (unchanged)" in out
    assert get_user_model().objects.filter(username="director").count() == 1
    login = RequestFactory().post("/")
    assert authenticate(login, username="director", password="secret-now") is not None
    assert list(later.directors.all()) == [user]


def test_an_existing_non_staff_director_becomes_staff():
    UserFactory.create(username="director")
    ensure("--force")
    assert get_user_model().objects.get(username="director").is_staff
