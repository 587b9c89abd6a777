"""The Django admin: every page opens for a superuser; results stay read-only there."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib import admin
from django.db.models import Model
from django.urls import reverse

from scoring import services
from scoring.models import Game, Round, Standing
from tests.factories import ClubEntryFactory, GameFactory, UserFactory

pytestmark = pytest.mark.django_db


def new_game(**kwargs: Any) -> Game:
    """A game with its match, entries and four seated players."""
    return GameFactory.create(**kwargs)


@pytest.fixture
def game() -> Game:
    game = new_game()
    services.round_record(game_id=game.pk, result="kap", side="a", caller_id=game.seat_1_id)
    services.round_record(game_id=game.pk, result="gewone_winst", side="b", tricks=(3, 7))
    services.standings_rebuild(competition_id=game.match.matchday.competition_id)
    ClubEntryFactory.create()  # a club, and a club competition's entry
    return game


@pytest.fixture
def admin_client(client):
    client.force_login(UserFactory.create(is_staff=True, is_superuser=True))
    return client


def admin_url(model: type[Model], view: str, *args: object) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)


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
    }


def test_game_change_page_shows_rounds_read_only_with_a_sheet_link(admin_client, game):
    response = admin_client.get(admin_url(Game, "change", game.pk))
    assert response.status_code == 200
    html = response.content.decode()
    inline = next(
        formset
        for formset in response.context["inline_admin_formsets"]
        if formset.opts.model is Round
    )
    assert len(inline.forms) == 2
    assert not inline.has_add_permission and not inline.has_change_permission
    assert 'name="rounds-0-result"' not in html  # shown as text, not as an input
    assert 'name="score_a"' not in html and 'name="status"' not in html
    sheet = reverse(
        "game_sheet",
        kwargs={"slug": game.match.matchday.competition.slug, "game_id": game.pk},
    )
    assert sheet in html
    assert "read-only" in html


def test_saving_a_game_in_the_admin_does_not_touch_its_result(admin_client, game):
    game.refresh_from_db()
    data = {
        "match": game.match_id,
        "sitting": game.sitting,
        "table": game.table,
        "team_a": game.team_a_id,
        "team_b": game.team_b_id,
        "a_is_home": "on",
        "seat_1": game.seat_1_id,
        "seat_2": game.seat_2_id,
        "seat_3": game.seat_3_id,
        "seat_4": game.seat_4_id,
        # Attempts to overwrite derived fields are ignored: they are read-only.
        "score_a": 99,
        "status": "finished",
        "rounds-TOTAL_FORMS": 2,
        "rounds-INITIAL_FORMS": 2,
        "rounds-MIN_NUM_FORMS": 0,
        "rounds-MAX_NUM_FORMS": 1000,
        "rounds-0-id": game.rounds.get(number=1).pk,
        "rounds-0-game": game.pk,
        "rounds-1-id": game.rounds.get(number=2).pk,
        "rounds-1-game": game.pk,
    }
    response = admin_client.post(admin_url(Game, "change", game.pk), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    game.refresh_from_db()
    assert (game.score_a, game.score_b, game.status) == (5, 2, Game.Status.OPEN)


def test_round_and_standing_cannot_be_added_changed_or_deleted(admin_client, game):
    rnd = game.rounds.get(number=1)
    standing = Standing.objects.filter(competition=game.match.matchday.competition)[0]
    for model, obj in ((Round, rnd), (Standing, standing)):
        assert admin_client.get(admin_url(model, "add")).status_code == 403
        assert admin_client.get(admin_url(model, "delete", obj.pk)).status_code == 403
        response = admin_client.post(admin_url(model, "change", obj.pk), {})
        assert response.status_code == 403


def test_game_and_round_keep_an_audit_trail(admin_client, game):
    assert admin_client.get(admin_url(Game, "history", game.pk)).status_code == 200
    rnd = game.rounds.first()
    response = admin_client.get(admin_url(Round, "history", rnd.pk))
    assert response.status_code == 200


def test_competition_rejects_unknown_tiebreaks(admin_client, game):
    competition = game.match.matchday.competition
    response = admin_client.get(admin_url(type(competition), "change", competition.pk))
    html = response.content.decode()
    for legend in ("Game rules", "Stinkende bonus", "Standings", "Directors"):
        assert legend in html
    form = response.context["adminform"].form
    data = {
        name: form.initial.get(name) for name in form.fields if form.initial.get(name) is not None
    }
    data.update(
        {
            "tiebreaks": '["points", "luck"]',
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
    assert "“luck” is not a known tie-break." in response.content.decode()
