"""The Django admin of both apps: every model of tournaments and scoring is registered,
and its list (searched too), add and change pages open for a superuser, the add page
refused where the model's admin allows no adding."""

from __future__ import annotations

import pytest
from django.contrib import admin

from scoring.models import Game
from tests.admin_pages import admin_url
from tests.admin_scenes import admin_scene

pytestmark = pytest.mark.django_db


@pytest.fixture
def game() -> Game:
    """The game of `admin_scene`, among a row of every model in the admin."""
    return admin_scene()


@pytest.mark.parametrize(
    "model",
    [m for m in admin.site._registry if m._meta.app_label in {"tournaments", "scoring"}],
    ids=lambda model: model.__name__,
)
def test_changelist_add_and_change_pages_open(admin_client, game, model):
    model_admin = admin.site._registry[model]
    assert admin_client.get(admin_url(model, "changelist")).status_code == 200
    assert admin_client.get(admin_url(model, "changelist"), {"q": "x"}).status_code == 200
    add = admin_client.get(admin_url(model, "add"))
    assert add.status_code == (200 if model_admin.has_add_permission(add.wsgi_request) else 403)
    obj = model.objects.first()
    assert obj is not None, f"the fixture makes no {model.__name__}"
    assert admin_client.get(admin_url(model, "change", obj.pk)).status_code == 200


def test_every_model_is_registered():
    names = {model.__name__ for model in admin.site._registry}
    assert names >= {
        "Club",
        "Player",
        "Team",
        "Competition",
        "Entry",
        "Matchday",
        "Match",
        "Game",
        "Round",
        "Standing",
        "Bye",
        "Deduction",
        "Squad",
        "SquadMember",
    }
