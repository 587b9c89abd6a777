"""A game's koppels changed on the admin's game page take their table links with them
(issue 19, item 1): a link says which koppel the phone is, so the link printed for a
koppel that left opens nothing (the friendly 404), never the game as another koppel; the
koppel that stays keeps its link."""

from __future__ import annotations

import pytest

from scoring.models import Game, GameLink
from scoring.services.table import game_links_ensure
from tests.admin_pages import save_as_shown
from tests.scoring.services.test_games_kept import club_match, lineup_set, table_status

pytestmark = pytest.mark.django_db


def test_a_koppel_changed_in_the_admin_revokes_its_link_only(admin_client):
    match, home, away = club_match()
    lineup_set(match, home[:2], away[:2])
    game = Game.objects.get(match=match, team_a=home[0], team_b=away[0])
    links = game_links_ensure(game_ids=[game.pk])[game.pk]

    response = save_as_shown(admin_client, game, team_b=away[2].pk)

    assert response.status_code == 302, response.content.decode()[:2000]
    assert Game.objects.get(pk=game.pk).team_b_id == away[2].pk
    assert table_status(admin_client, links["a"].token) == 200
    assert table_status(admin_client, links["b"].token) == 404
    fresh = game_links_ensure(game_ids=[game.pk])[game.pk]
    assert fresh["a"].pk == links["a"].pk and fresh["b"].pk != links["b"].pk


def test_a_game_saved_in_the_admin_with_its_koppels_keeps_both_links(admin_client):
    match, home, away = club_match()
    lineup_set(match, home[:2], away[:2])
    game = Game.objects.get(match=match, team_a=home[0], team_b=away[0])
    game_links_ensure(game_ids=[game.pk])

    assert save_as_shown(admin_client, game).status_code == 302

    assert GameLink.objects.filter(game=game, revoked_at__isnull=True).count() == 2
