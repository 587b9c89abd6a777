"""The Django admin: every page opens for a superuser; results stay read-only there."""

from __future__ import annotations

import datetime
from functools import partial
from typing import Any

import pytest
from django.contrib import admin
from django.db import connection
from django.db.models import Model
from django.urls import reverse
from django.utils import timezone

from scoring import services
from scoring.models import Game, Round, Standing
from tests.factories import (
    ClubEntryFactory,
    ClubFactory,
    GameFactory,
    MatchdayFactory,
    PlayerFactory,
    TeamEntryFactory,
    TeamFactory,
    UserFactory,
)
from tests.tournaments.test_import_helpers import row_counts
from tournaments.models import Bye, Competition, Deduction, Match, Squad, SquadMember
from tournaments.services import deduction_add

pytestmark = pytest.mark.django_db


def new_game(**kwargs: Any) -> Game:
    """A game with its match, entries and four seated players."""
    return GameFactory.create(**kwargs)


@pytest.fixture
def game() -> Game:
    game = new_game()
    services.round_record(game_id=game.pk, result="kap", side="a", caller_id=game.seat_1_id)
    services.round_record(game_id=game.pk, result="gewone_winst", side="b", tricks=(3, 7))
    competition = game.match.matchday.competition
    services.standings_rebuild(competition_id=competition.pk)
    ClubEntryFactory.create()  # a club, and a club competition's entry
    # A bye on a second matchday, a deduction and a squad with a member.
    third = TeamEntryFactory.create(competition=competition)
    Bye.objects.create(matchday=MatchdayFactory.create(competition=competition), entry=third)
    deduction_add(competition_id=competition.pk, entry_id=third.pk, points=1, reason="late")
    squad = Squad.objects.create(club=ClubFactory.create(), season="2026-2027")
    SquadMember.objects.create(squad=squad, player=PlayerFactory.create(), season="2026-2027")
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
        "Bye",
        "Deduction",
        "Squad",
        "SquadMember",
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


def inline_management(prefix: str, total: int, initial: int) -> dict[str, Any]:
    return {
        f"{prefix}-TOTAL_FORMS": total,
        f"{prefix}-INITIAL_FORMS": initial,
        f"{prefix}-MIN_NUM_FORMS": 0,
        f"{prefix}-MAX_NUM_FORMS": 1000,
    }


def test_a_squad_member_after_the_lock_date_is_refused_with_the_message(admin_client):
    yesterday = timezone.localdate() - datetime.timedelta(days=1)
    squad = Squad.objects.create(club=ClubFactory.create(name="Kampoe"), season="2026-2027",
                                 locked_on=yesterday)  # fmt: skip
    player = PlayerFactory.create()
    data = {"locked_on": yesterday.isoformat(), **inline_management("members", 1, 0)}
    data["members-0-player"] = player.pk

    response = admin_client.post(admin_url(Squad, "change", squad.pk), data)

    assert response.status_code == 200
    assert "The squad of Kampoe 2026-2027 is locked since" in response.content.decode()
    assert not SquadMember.objects.exists()

    response = admin_client.post(
        admin_url(SquadMember, "add"), {"squad": squad.pk, "player": player.pk}
    )
    assert response.status_code == 200
    assert "is locked since" in response.content.decode()
    assert not SquadMember.objects.exists()


def test_a_squad_member_is_added_and_one_club_a_season_holds(admin_client):
    kampoe = Squad.objects.create(club=ClubFactory.create(name="Kampoe"), season="2026-2027")
    toppers = Squad.objects.create(club=ClubFactory.create(name="Toppers"), season="2026-2027")
    player = PlayerFactory.create(name="Anna")
    data = {"locked_on": "", **inline_management("members", 1, 0), "members-0-player": player.pk}

    response = admin_client.post(admin_url(Squad, "change", kampoe.pk), data)
    assert response.status_code == 302
    assert SquadMember.objects.get().squad == kampoe

    response = admin_client.post(admin_url(Squad, "change", toppers.pk), data)
    assert response.status_code == 200
    assert "Anna is on the squad of Kampoe for 2026-2027" in response.content.decode()
    assert SquadMember.objects.count() == 1


def test_a_locked_squad_member_cannot_be_removed(admin_client):
    squad = Squad.objects.create(club=ClubFactory.create(name="Kampoe"), season="2026-2027")
    member = SquadMember.objects.create(
        squad=squad, player=PlayerFactory.create(), season="2026-2027"
    )
    squad.locked_on = timezone.localdate()
    squad.save()
    data = {"locked_on": squad.locked_on.isoformat(), **inline_management("members", 1, 1)}
    data |= {"members-0-id": member.pk, "members-0-squad": squad.pk, "members-0-DELETE": "on"}

    response = admin_client.post(admin_url(Squad, "change", squad.pk), data)

    assert response.status_code == 200
    assert "is locked since" in response.content.decode()
    assert SquadMember.objects.filter(pk=member.pk).exists()
    assert admin_client.get(admin_url(SquadMember, "delete", member.pk)).status_code == 403


def pending_refreshes() -> list[int]:
    """The competitions whose standings refresh is queued for the commit."""
    callbacks = [pending[1] for pending in connection.run_on_commit]  # (savepoints, func, …)
    return [
        callback.args[0]
        for callback in callbacks
        if isinstance(callback, partial) and callback.func.__name__ == "_enqueue_standings_refresh"
    ]


def test_a_deduction_added_in_the_admin_is_stored_with_its_reason(admin_client, game):
    connection.run_on_commit.clear()  # the fixture's own refreshes
    competition = game.match.matchday.competition
    entry = game.match.home
    before = row_counts()

    response = admin_client.post(
        admin_url(Deduction, "add"),
        {
            "competition": competition.pk,
            "entry": entry.pk,
            "points": 3,
            "reason": "  ineligible player  ",
            "match": game.match_id,
        },
    )

    assert response.status_code == 302, response.content.decode()[:3000]
    deduction = Deduction.objects.latest("pk")
    assert (deduction.entry, deduction.points, deduction.reason, deduction.match_id) == (
        entry, 3, "ineligible player", game.match_id,
    )  # fmt: skip
    after = row_counts()
    assert after.pop("tournaments.Deduction") == before.pop("tournaments.Deduction") + 1
    assert after == before  # nothing else changed
    assert pending_refreshes() == [competition.pk]  # one standings refresh, for the commit
    # Saved: read-only, withdrawn through the service.
    page = admin_client.get(admin_url(Deduction, "change", deduction.pk))
    assert page.status_code == 200 and 'name="points"' not in page.content.decode()
    response = admin_client.post(admin_url(Deduction, "delete", deduction.pk), {"post": "yes"})
    assert response.status_code == 302
    assert not Deduction.objects.filter(pk=deduction.pk).exists()


def test_a_deduction_for_an_entry_of_another_competition_is_refused(admin_client, game):
    competition = game.match.matchday.competition
    stranger = TeamEntryFactory.create()
    count = Deduction.objects.count()

    response = admin_client.post(
        admin_url(Deduction, "add"),
        {"competition": competition.pk, "entry": stranger.pk, "points": 3, "reason": "late"},
    )

    assert response.status_code == 200
    assert "is not an entry of this competition." in response.content.decode()
    assert Deduction.objects.count() == count


def test_a_bye_for_an_entry_that_plays_that_day_is_refused(admin_client, game):
    response = admin_client.post(
        admin_url(Bye, "add"), {"matchday": game.match.matchday_id, "entry": game.match.home_id}
    )
    assert response.status_code == 200
    assert "already plays (or has the bye) on this matchday" in response.content.decode()
    assert not Bye.objects.filter(matchday=game.match.matchday).exists()


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


def test_standings_admin_shows_byes_deducted_and_head_to_head(admin_client, game):
    html = admin_client.get(admin_url(Standing, "changelist")).content.decode()
    for column in ("column-byes", "column-deducted", "column-head_to_head"):
        assert column in html


def test_changing_the_bye_value_refreshes_the_standings(admin_client, game):
    competition = Competition.objects.get(pk=game.match.matchday.competition_id)
    response = admin_client.get(admin_url(Competition, "change", competition.pk))
    form = response.context["adminform"].form
    data = {
        name: form.initial.get(name) for name in form.fields if form.initial.get(name) is not None
    }
    data |= {"bye_result": "draw", "directors": [], **inline_management("entries", 0, 0)}
    data["tiebreaks"] = '["points", "saldo"]'
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
    data["tiebreaks"] = '["points"]'
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
    data["tiebreaks"] = '["points"]'
    for flag in ("callers_required", "close_by_director_allowed", "squads_required",
                 "confirmation_required", "kap_partner_allowed", "redeal_allowed"):  # fmt: skip
        data.pop(flag, None)

    response = admin_client.post(admin_url(Competition, "change", competition.pk), data)

    assert response.status_code == 200
    assert "Between 1 and the sittings (4)." in response.content.decode()
    competition.refresh_from_db()
    assert competition.late_koppel_until_sitting is None


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
    data = game_form_data(
        game,
        table=2,
        team_a=game.team_b_id,
        team_b=game.team_a_id,
        seat_1=None,
        seat_2=None,
        seat_3=None,
        seat_4=None,
    )
    assert admin_client.post(admin_url(Game, "add"), data).status_code == 302
    assert Game.objects.get(table=2).a_is_home is False


def test_a_game_with_rounds_keeps_its_koppels_in_the_admin(admin_client, game):
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
    assert response.status_code == 200
    assert "change any more" in response.content.decode()  # ' is escaped in HTML
    game.refresh_from_db()
    assert game.a_is_home is True
