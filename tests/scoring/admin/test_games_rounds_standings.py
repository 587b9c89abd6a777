"""Games, rounds and standings on the admin's pages: a game's page counts and links its
rounds (not inline) and its score sheet, and saving it changes no result; rounds and
standings are never added, changed or deleted there; games and rounds keep an audit
trail; the standings list shows byes, deductions and head-to-head; and a game added with a
koppel from outside the match, or with seats that don't fit, is refused, while a game with
rounds keeps its koppels. (A game holding a result, issue 6's side doors: test_games.py.)"""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from scoring.models import Game, Round, Standing
from tests.admin_pages import admin_url
from tests.factories import MatchFactory, TeamFactory

pytestmark = pytest.mark.django_db


def test_game_change_page_links_its_rounds_read_only_with_a_sheet_link(admin_client, game):
    response = admin_client.get(admin_url(Game, "change", game.pk))
    assert response.status_code == 200
    html = response.content.decode()
    # Not inline (a game may hold hundreds): counted, and linked to the round list.
    assert not response.context["inline_admin_formsets"]
    rounds = f"{admin_url(Round, 'changelist')}?game__id__exact={game.pk}"
    assert f'<a href="{rounds}">2 rounds</a>' in html
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
    # The fixture's game: created, then a kap for A (5–0), then a gewone winst for B (5–2).
    response = admin_client.get(admin_url(Game, "history", game.pk))
    assert response.status_code == 200
    shown = [(r.history_type, r.score_a, r.score_b) for r in response.context["page_obj"]]
    assert shown == [("~", 5, 2), ("~", 5, 0), ("+", 0, 0)]  # newest first
    assert "3 entries" in response.content.decode()
    rnd = game.rounds.get(number=1)
    response = admin_client.get(admin_url(Round, "history", rnd.pk))
    assert response.status_code == 200
    shown = [(r.history_type, r.result, r.side) for r in response.context["page_obj"]]
    assert shown == [("+", "kap", "a")]


def test_standings_admin_shows_byes_deducted_and_head_to_head(admin_client, game):
    html = admin_client.get(admin_url(Standing, "changelist")).content.decode()
    for column in ("column-byes", "column-deducted", "column-head_to_head"):
        assert column in html


def game_form_data(game: Game, **changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "match": game.match_id,
        "sitting": game.sitting,
        "table": game.table,
        "team_a": game.team_a_id,
        "team_b": game.team_b_id,
        "seat_1": game.seat_1_id,
        "seat_2": game.seat_2_id,
        "seat_3": game.seat_3_id,
        "seat_4": game.seat_4_id,
        "rounds-TOTAL_FORMS": 0,
        "rounds-INITIAL_FORMS": 0,
        "rounds-MIN_NUM_FORMS": 0,
        "rounds-MAX_NUM_FORMS": 1000,
    }
    data.update(changes)
    return {key: ("" if value is None else value) for key, value in data.items()}


def test_adding_a_game_with_a_koppel_from_outside_the_match_is_refused(admin_client, game):
    outsider = TeamFactory.create()
    before = Game.objects.count()
    data = game_form_data(
        game, table=2, team_b=outsider.pk, seat_1=None, seat_2=None, seat_3=None, seat_4=None
    )
    response = admin_client.post(admin_url(Game, "add"), data)
    assert response.status_code == 200
    assert "does not play in this match" in response.content.decode()
    assert Game.objects.count() == before


def test_adding_a_game_with_seats_that_do_not_fit_is_refused(admin_client, game):
    data = game_form_data(game, table=2, seat_2=game.seat_3_id, seat_3=game.seat_2_id)
    response = admin_client.post(admin_url(Game, "add"), data)
    assert "Seats 1 and 3 are koppel A" in response.content.decode()


def test_a_game_added_with_the_koppels_swapped_knows_who_is_home(admin_client, game):
    match = MatchFactory.create(matchday=game.match.matchday)  # a pairs match, no game yet
    data = game_form_data(
        game,
        match=match.pk,
        table=2,
        team_a=match.away.team_id,
        team_b=match.home.team_id,
        seat_1=None,
        seat_2=None,
        seat_3=None,
        seat_4=None,
    )
    response = admin_client.post(admin_url(Game, "add"), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    assert Game.objects.get(match=match).a_is_home is False


def test_a_game_with_rounds_keeps_its_koppels_in_the_admin(admin_client, game):
    page = admin_client.get(admin_url(Game, "change", game.pk)).content.decode()
    assert 'name="team_a"' not in page and 'name="seat_1"' not in page
    data = game_form_data(
        game,
        team_a=game.team_b_id,
        team_b=game.team_a_id,
        seat_1=None,
        seat_2=None,
        seat_3=None,
        seat_4=None,
    )
    data.update(
        {
            "rounds-TOTAL_FORMS": 2,
            "rounds-INITIAL_FORMS": 2,
            "rounds-0-id": game.rounds.get(number=1).pk,
            "rounds-0-game": game.pk,
            "rounds-1-id": game.rounds.get(number=2).pk,
            "rounds-1-game": game.pk,
        }
    )
    response = admin_client.post(admin_url(Game, "change", game.pk), data)
    assert response.status_code == 302  # the koppels are read-only: what was posted is ignored
    game.refresh_from_db()
    assert (game.team_a, game.team_b, game.a_is_home) == (
        game.match.home.team,
        game.match.away.team,
        True,
    )
