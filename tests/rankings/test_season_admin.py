"""The league admin's Season setting (issue 10, best-N-of-M): refused values say why."""

from __future__ import annotations

import pytest
from django.db import IntegrityError

from rankings.models import BEST_EVENINGS_MAX, Season
from tests.admin_pages import admin_url

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("value", ["0", "-3", "abc", "2.5", str(BEST_EVENINGS_MAX + 1), "99999"])
def test_a_best_evenings_setting_out_of_range_is_refused_with_a_message(admin_client, value):
    page = admin_client.post(
        admin_url(Season, "add"), {"name": "2026-2027", "best_evenings": value}
    )

    assert page.status_code == 200  # the form again, with the error
    assert page.context["adminform"].form.errors["best_evenings"]
    assert not Season.objects.exists()


@pytest.mark.parametrize("value", ["1", "6", str(BEST_EVENINGS_MAX), ""])
def test_a_best_evenings_setting_in_range_or_empty_is_saved(admin_client, value):
    page = admin_client.post(
        admin_url(Season, "add"), {"name": "2026-2027", "best_evenings": value}
    )

    assert page.status_code == 302
    assert Season.objects.get().best_evenings == (int(value) if value else None)


def test_the_database_refuses_a_best_evenings_out_of_range_too():
    with pytest.raises(IntegrityError):
        Season.objects.create(name="2026-2027", best_evenings=BEST_EVENINGS_MAX + 1)


def test_the_rankings_admin_pages_open(admin_client):
    """Every rankings model in the admin: its list (searched too), add and change pages."""
    from django.contrib import admin

    from rankings.models import PlayerRating
    from tests.factories import PlayerFactory

    Season.objects.create(name="2026-2027", best_evenings=6)
    PlayerRating.objects.create(
        player=PlayerFactory.create(), mu=25.0, sigma=8.0, ordinal=1.0, games=3
    )
    # Issue 22's merged keys: a player merged, and with them a koppel twin of another.
    from rankings.merge import player_merge
    from tests.factories import TeamFactory

    keep, dup, partner = (PlayerFactory.create() for _ in range(3))
    TeamFactory.create(player_1=keep, player_2=partner)
    TeamFactory.create(player_1=dup, player_2=partner)
    player_merge(keep_id=keep.pk, drop_id=dup.pk, by=None)
    registered = [m for m in admin.site._registry if m._meta.app_label == "rankings"]
    assert {Season, PlayerRating} <= set(registered)
    for model in registered:
        model_admin = admin.site._registry[model]
        assert admin_client.get(admin_url(model, "changelist")).status_code == 200
        assert admin_client.get(admin_url(model, "changelist"), {"q": "x"}).status_code == 200
        add = admin_client.get(admin_url(model, "add"))
        assert add.status_code == (200 if model_admin.has_add_permission(add.wsgi_request) else 403)
        obj = model._default_manager.first()
        assert obj is not None
        assert admin_client.get(admin_url(model, "change", obj.pk)).status_code == 200
