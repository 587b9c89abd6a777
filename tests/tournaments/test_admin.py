"""The Django admin: every page opens for a superuser; results stay read-only there."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import pytest
from django import forms
from django.contrib import admin
from django.contrib.admin.models import LogEntry
from django.contrib.messages import get_messages
from django.db.models import Model
from django.urls import reverse
from django.utils import timezone

from scoring.admin import guards as admin_guards
from scoring.admin import schedule as schedule_admin
from scoring.admin.schedule import MatchAdminForm
from scoring.models import Game, Round, Standing
from scoring.services.games import game_totals_enter, match_totals_enter
from scoring.services.matches import match_create, match_forfeit_set
from scoring.services.rounds import RoundRecord, game_rounds_load, round_record
from scoring.services.standings import standings_rebuild
from scoring.tokens import game_token_now, match_token_now
from tests.factories import (
    ClubEntryFactory,
    ClubFactory,
    CompetitionFactory,
    GameFactory,
    MatchdayFactory,
    MatchFactory,
    PlayerFactory,
    TeamEntryFactory,
    TeamFactory,
    UserFactory,
)
from tests.interchange.documents import row_counts
from tests.refreshes import queued_refreshes
from tournaments.models import (
    Bye,
    Competition,
    Deduction,
    Entry,
    Match,
    Matchday,
    Squad,
    SquadMember,
    StandingsRefreshClaim,
)
from tournaments.services.deductions import deduction_add
from tournaments.tokens import deductions_token

pytestmark = pytest.mark.django_db


@pytest.fixture
def game() -> Game:
    game = GameFactory.create()
    round_record(
        game_id=game.pk, expected_number=1, result="kap", side="a", caller_id=game.seat_1_id
    )
    round_record(game_id=game.pk, expected_number=2, result="gewone_winst", side="b", tricks=(3, 7))
    competition = game.match.matchday.competition
    standings_rebuild(competition_id=competition.pk)
    ClubEntryFactory.create()  # a club, and a club competition's entry
    # A bye on a second matchday, a deduction and a squad with a member.
    third = TeamEntryFactory.create(competition=competition)
    Bye.objects.create(matchday=MatchdayFactory.create(competition=competition), entry=third)
    deduction_add(
        competition_id=competition.pk,
        entry_id=third.pk,
        points=1,
        reason="late",
        seen=deductions_token(competition_id=competition.pk),
    )
    squad = Squad.objects.create(club=ClubFactory.create(), season="2026-2027")
    SquadMember.objects.create(squad=squad, player=PlayerFactory.create(), season="2026-2027")
    return game


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


def settle() -> None:
    """As after the setup's commit and its refreshes: no refresh queued.

    A test's transaction never commits, so the tasks that would release the claims of
    refreshes queued before don't run here (issue 7): the claims go, and a test of what a
    request queues (`tests.refreshes.queued_refreshes`) starts from none. The setup's own
    on-commit callbacks stay pending in the test's transaction and never run.
    """
    StandingsRefreshClaim.objects.update(queued_at=None)


def test_a_deduction_added_in_the_admin_is_stored_with_its_reason(
    admin_client, game, django_capture_on_commit_callbacks
):
    settle()
    competition = game.match.matchday.competition
    entry = game.match.home
    before = row_counts()

    with django_capture_on_commit_callbacks() as callbacks:
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
    for label in ("tournaments.Deduction", "tournaments.HistoricalDeduction"):
        assert after.pop(label) == before.pop(label) + 1
    assert after == before  # nothing else changed
    assert queued_refreshes(callbacks) == [competition.pk]  # one refresh, for the commit
    # Saved: read-only.
    page = admin_client.get(admin_url(Deduction, "change", deduction.pk))
    assert page.status_code == 200 and 'name="points"' not in page.content.decode()


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
    errors = response.context["adminform"].form.errors
    assert errors["entry"] == [
        f"{game.match.home} plays twice on this matchday: in match {game.match} and in the "
        "bye. An entry plays at most once a matchday, a bye included."
    ]
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


# ---------------------------------------------------------------- side doors (issue 6)
#
# Anything that holds a result is read-only in the admin: no delete (its page, the list's
# "delete selected"), no change of the fields that would move it; every change that can
# move the standings queues a refresh for the right competition; the pairing faults are
# refused at the field; and nothing of it answers with a 500.


def posted_back(response: Any, **changes: Any) -> dict[str, Any]:
    """What a change page posts when saved as shown (its form and inlines), with `changes`.

    Disabled and read-only fields are left out, as a browser does.
    """
    data: dict[str, Any] = {}

    def add(form: forms.BaseForm) -> None:
        for name, field in form.fields.items():
            if field.disabled:
                continue
            value = form[name].value()
            key = form.add_prefix(name)
            if isinstance(field, forms.BooleanField):
                if value:
                    data[key] = "on"
            elif isinstance(value, list | tuple):
                data[key] = [str(item) for item in value]
            else:
                data[key] = "" if value is None else value

    add(response.context["adminform"].form)
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        management = formset.management_form
        for name in management.fields:
            data[management.add_prefix(name)] = management[name].value()
        for form in formset.forms:
            add(form)
    data.update(changes)
    return data


def save_as_shown(client: Any, obj: Model, **changes: Any) -> Any:
    """POST the object's change page back, as shown plus `changes`."""
    url = admin_url(type(obj), "change", obj.pk)
    page = client.get(url)
    assert page.status_code == 200
    return client.post(url, posted_back(page, **changes))


def bulk_delete(client: Any, rows: list[Model]) -> list[Any]:
    """Both steps of the list's "delete selected": the choice and the confirmation."""
    url = admin_url(type(rows[0]), "changelist")
    selected = [row.pk for row in rows]
    chosen = client.post(
        url, {"action": "delete_selected", "_selected_action": selected, "index": 0}
    )
    confirmed = client.post(
        url, {"action": "delete_selected", "_selected_action": selected, "post": "yes"}
    )
    return [chosen, confirmed]


def said(response: Any) -> str:
    """The messages a response left for the next page, as one text."""
    return " ".join(str(message) for message in get_messages(response.wsgi_request))


def refused_delete(client: Any, obj: Model) -> str:
    """Try every way to delete `obj` in the admin; each must refuse (no 500). Returns what
    the list's bulk delete said. A row deleted by a service (`DeletedByServiceAdmin`):
    its delete page sends back to the row's page, saying why; any other: 403."""
    model = type(obj)
    by_service = isinstance(admin.site._registry[model], admin_guards.DeletedByServiceAdmin)
    for page in (
        client.get(admin_url(model, "delete", obj.pk)),
        client.post(admin_url(model, "delete", obj.pk), {"post": "yes"}),
    ):
        if by_service:
            assert page.status_code == 302 and page.url == admin_url(model, "change", obj.pk)
            assert said(page)
        else:
            assert page.status_code == 403
    chosen, confirmed = bulk_delete(client, [obj])
    assert chosen.status_code == confirmed.status_code == 302
    assert model._default_manager.filter(pk=obj.pk).exists()
    return said(chosen)


def snapshot(obj: Model) -> dict[str, Any]:
    """Every stored field of `obj`, to compare before and after."""
    fresh = type(obj)._default_manager.get(pk=obj.pk)
    return {field.attname: getattr(fresh, field.attname) for field in fresh._meta.concrete_fields}


def pairs_day(entries: int = 4, **competition_options: Any) -> tuple[Matchday, list[Entry]]:
    """A matchday of a new pairs competition with `entries` koppels entered."""
    competition = CompetitionFactory.create(**competition_options)
    matchday = MatchdayFactory.create(competition=competition)
    return matchday, [TeamEntryFactory.create(competition=competition) for _ in range(entries)]


def reported_totals(matchday: Matchday, home: Entry, away: Entry) -> Match:
    match = MatchFactory.create(matchday=matchday, home=home, away=away)
    seen = match_token_now(match_id=match.pk)
    return match_totals_enter(match_id=match.pk, total_home=20, total_away=4, seen=seen)


def forfeited(matchday: Matchday, home: Entry, away: Entry) -> Match:
    match = MatchFactory.create(matchday=matchday, home=home, away=away)
    seen = match_token_now(match_id=match.pk)
    return match_forfeit_set(match_id=match.pk, side="away", reason="no show", seen=seen)


def game_with_rounds(matchday: Matchday, home: Entry, away: Entry) -> Match:
    match = match_create(matchday_id=matchday.pk, home_id=home.pk, away_id=away.pk)
    rounds = [RoundRecord(result="kap", side="a")]
    game_rounds_load(game_id=match.games.get().pk, rounds=rounds)
    return match


def game_with_totals(matchday: Matchday, home: Entry, away: Entry) -> Match:
    match = match_create(matchday_id=matchday.pk, home_id=home.pk, away_id=away.pk)
    game = match.games.get()
    seen = game_token_now(game_id=game.pk)
    game_totals_enter(game_id=game.pk, total_a=20, total_b=4, seen=seen)
    return match


def game_closed(matchday: Matchday, home: Entry, away: Entry) -> Match:
    match = match_create(matchday_id=matchday.pk, home_id=home.pk, away_id=away.pk)
    match.games.update(status=Game.Status.CLOSED)  # closed at the time limit, no rounds yet
    return match


# Every way a match holds a result (scoring.selectors.results.result_holders).
MATCH_RESULTS: dict[str, Callable[[Matchday, Entry, Entry], Match]] = {
    "reported totals": reported_totals,
    "forfeit": forfeited,
    "game with rounds": game_with_rounds,
    "game with totals": game_with_totals,
    "game closed": game_closed,
}
with_each_match_result = pytest.mark.parametrize(
    "give_result", MATCH_RESULTS.values(), ids=MATCH_RESULTS.keys()
)


# ---- matches


@with_each_match_result
def test_a_match_with_a_result_cannot_be_deleted(admin_client, give_result):
    matchday, (a, b, *_rest) = pairs_day()
    match = give_result(matchday, a, b)
    before = snapshot(match)

    message = refused_delete(admin_client, match)

    assert "Nothing was deleted" in message and str(match) in message
    assert snapshot(match) == before


@with_each_match_result
def test_a_match_with_a_result_keeps_its_home_away_and_matchday(admin_client, give_result):
    matchday, (a, b, *_rest) = pairs_day()
    match = give_result(matchday, a, b)
    other_day = MatchdayFactory.create(competition=matchday.competition)
    before = snapshot(match)
    page = admin_client.get(admin_url(Match, "change", match.pk)).content.decode()
    assert 'name="home"' not in page and 'name="away"' not in page

    response = save_as_shown(
        admin_client, match, home=b.pk, away=a.pk, matchday=other_day.pk
    )  # posted anyway: ignored

    assert response.status_code == 302
    assert snapshot(match) == before


def test_bulk_delete_of_matches_refuses_all_when_one_has_a_result(admin_client):
    matchday, (a, b, c, d) = pairs_day()
    played = reported_totals(matchday, a, b)
    unplayed = MatchFactory.create(matchday=matchday, home=c, away=d)

    chosen, _confirmed = bulk_delete(admin_client, [played, unplayed])

    assert str(played) in said(chosen)
    assert Match.objects.filter(pk__in=[played.pk, unplayed.pk]).count() == 2


def test_a_match_without_results_is_deleted_and_its_standings_refreshed(
    admin_client, django_capture_on_commit_callbacks
):
    matchday, (a, b, c, d) = pairs_day()
    other_matchday, (e, f, *_rest) = pairs_day()
    one = MatchFactory.create(matchday=matchday, home=a, away=b)
    two = MatchFactory.create(matchday=other_matchday, home=e, away=f)
    settle()

    with django_capture_on_commit_callbacks() as callbacks:
        response = admin_client.post(admin_url(Match, "delete", one.pk), {"post": "yes"})
    assert response.status_code == 302
    assert queued_refreshes(callbacks) == [matchday.competition_id]

    settle()
    with django_capture_on_commit_callbacks() as callbacks:
        bulk_delete(admin_client, [two])
    assert queued_refreshes(callbacks) == [other_matchday.competition_id]
    assert not Match.objects.filter(pk__in=[one.pk, two.pk]).exists()


def match_add(client: Any, matchday: Matchday, home: Entry, away: Entry) -> Any:
    return client.post(
        admin_url(Match, "add"), {"matchday": matchday.pk, "home": home.pk, "away": away.pk}
    )


def test_a_match_added_in_the_admin_gets_its_game_and_refreshes_the_standings(
    admin_client, django_capture_on_commit_callbacks
):
    matchday, (a, b, *_rest) = pairs_day()
    settle()

    with django_capture_on_commit_callbacks() as callbacks:
        response = match_add(admin_client, matchday, a, b)

    assert response.status_code == 302, response.content.decode()[:3000]
    match = Match.objects.get(matchday=matchday)
    assert (match.home, match.away, match.table) == (a, b, 1)
    assert [(g.team_a_id, g.team_b_id) for g in match.games.all()] == [(a.team_id, b.team_id)]
    assert queued_refreshes(callbacks) == [matchday.competition_id]


@pytest.mark.parametrize(
    ("pairing", "field"),
    [
        ("reversed", "home"),  # B–A where A–B is played that day
        ("home plays already", "home"),
        ("away has the bye", "away"),
    ],
)
def test_an_entry_plays_once_a_matchday_in_the_admin(admin_client, pairing, field):
    matchday, (a, b, c, _d) = pairs_day()
    match_create(matchday_id=matchday.pk, home_id=a.pk, away_id=b.pk)
    Bye.objects.create(matchday=matchday, entry=c)
    newcomer = TeamEntryFactory.create(competition=matchday.competition)
    pairings = {"reversed": (b, a), "home plays already": (a, c), "away has the bye": (newcomer, c)}
    home, away = pairings[pairing]

    response = match_add(admin_client, matchday, home, away)

    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    entry = home if field == "home" else away
    places = [f"match {a} – {b}", f"match {home} – {away}"]
    if pairing == "away has the bye":
        places = [f"match {home} – {away}", "the bye"]  # the byes are checked last
    assert errors[field] == [
        f"{entry} plays twice on this matchday: in {places[0]} and in {places[1]}. "
        "An entry plays at most once a matchday, a bye included."
    ]
    assert Match.objects.filter(matchday=matchday).count() == 1


def test_a_match_with_an_entry_of_another_competition_is_refused_at_the_field(admin_client):
    matchday, (a, *_rest) = pairs_day()
    stranger = TeamEntryFactory.create()

    response = match_add(admin_client, matchday, a, stranger)

    assert response.status_code == 200
    assert response.context["adminform"].form.errors["away"] == [
        f"Choose one of the entries of {matchday.competition}, the matchday's competition."
    ]
    assert not Match.objects.filter(matchday=matchday).exists()


def test_the_match_form_offers_only_the_matchday_competition_entries(admin_client):
    matchday, entries = pairs_day()
    TeamEntryFactory.create()  # of another competition

    add = admin_client.get(admin_url(Match, "add"), {"matchday": matchday.pk})
    match = MatchFactory.create(matchday=matchday, home=entries[0], away=entries[1])
    change = admin_client.get(admin_url(Match, "change", match.pk))

    for page in (add, change):
        form = page.context["adminform"].form
        for name in ("home", "away"):
            assert set(form.fields[name].queryset) == set(entries)


@pytest.mark.parametrize("how", ["added", "changed"])
def test_a_refusal_during_the_save_is_shown_on_the_form_not_a_500(admin_client, monkeypatch, how):
    # The form's own check is skipped, as in a race between two admins: the service (add)
    # or the database (change) refuses, the form comes back with the message.
    monkeypatch.setattr(MatchAdminForm, "clean", forms.ModelForm.clean)
    matchday, (a, b, c, d) = pairs_day()
    MatchFactory.create(matchday=matchday, home=a, away=b)
    spare = MatchFactory.create(matchday=matchday, home=c, away=d)
    before = snapshot(spare)

    if how == "added":
        response = match_add(admin_client, matchday, b, a)
        expected = (
            f"{b} plays twice on this matchday: in match {a} – {b} and in match {b} – {a}. "
            "An entry plays at most once a matchday, a bye included."
        )
    else:
        response = save_as_shown(admin_client, spare, home=b.pk, away=a.pk)
        expected = "An entry plays at most once a matchday: in one match, or it has the bye."

    assert response.status_code == 200
    assert response.context["adminform"].form.non_field_errors() == [expected]
    assert Match.objects.filter(matchday=matchday).count() == 2
    assert snapshot(spare) == before


# ---- byes


def test_a_bye_of_a_played_matchday_cannot_be_deleted(admin_client):
    matchday, (a, b, c, _d) = pairs_day()
    game_with_totals(matchday, a, b)  # played: the bye counts
    bye = Bye.objects.create(matchday=matchday, entry=c)

    assert f"the matchday of {bye} is played, so the bye counts and stays" in refused_delete(
        admin_client, bye
    )


def test_a_bye_of_an_unplayed_matchday_is_deleted_and_the_standings_refreshed(
    admin_client, django_capture_on_commit_callbacks
):
    matchday, (a, b, c, _d) = pairs_day()
    match_create(matchday_id=matchday.pk, home_id=a.pk, away_id=b.pk)  # not played yet
    bye = Bye.objects.create(matchday=matchday, entry=c)
    settle()

    with django_capture_on_commit_callbacks() as callbacks:
        response = admin_client.post(admin_url(Bye, "delete", bye.pk), {"post": "yes"})

    assert response.status_code == 302
    assert not Bye.objects.filter(pk=bye.pk).exists()
    assert queued_refreshes(callbacks) == [matchday.competition_id]


def test_a_bye_added_in_the_admin_refreshes_the_standings(
    admin_client, django_capture_on_commit_callbacks
):
    matchday, (a, *_rest) = pairs_day()
    settle()

    with django_capture_on_commit_callbacks() as callbacks:
        response = admin_client.post(
            admin_url(Bye, "add"), {"matchday": matchday.pk, "entry": a.pk}
        )

    assert response.status_code == 302, response.content.decode()[:3000]
    assert Bye.objects.get(matchday=matchday).entry == a
    assert queued_refreshes(callbacks) == [matchday.competition_id]


def test_a_bye_for_an_entry_of_another_competition_is_refused_at_the_field(admin_client):
    matchday, _entries = pairs_day()
    stranger = TeamEntryFactory.create()

    response = admin_client.post(
        admin_url(Bye, "add"), {"matchday": matchday.pk, "entry": stranger.pk}
    )

    assert response.status_code == 200
    assert "the matchday's competition" in response.context["adminform"].form.errors["entry"][0]
    assert not Bye.objects.exists()


def test_a_bye_added_in_the_admin_is_stored_by_bye_add_with_its_history(admin_client):
    matchday, (a, *_rest) = pairs_day()
    before = row_counts()

    response = admin_client.post(admin_url(Bye, "add"), {"matchday": matchday.pk, "entry": a.pk})

    assert response.status_code == 302, response.content.decode()[:3000]
    bye = Bye.objects.get(matchday=matchday)
    assert (bye.entry, bye.reason) == (a, {})  # given by hand
    assert [record.history_type for record in bye.history.all()] == ["+"]
    after = row_counts()
    for label in ("tournaments.Bye", "tournaments.HistoricalBye"):
        assert after.pop(label) == before.pop(label) + 1
    assert after == before  # nothing else changed


def test_a_bye_the_service_refuses_after_the_form_is_a_form_error(admin_client, monkeypatch):
    """The form checks the places first; `bye_add` checks them again under the matchday's
    lock (another director may have paired the entry meanwhile): its refusal shows on the
    form, not as a server error, and nothing is saved."""
    matchday, (a, b, *_rest) = pairs_day()
    match = match_create(matchday_id=matchday.pk, home_id=a.pk, away_id=b.pk)
    monkeypatch.setattr(schedule_admin, "_place_refusals", lambda *args, **kwargs: {})

    response = admin_client.post(admin_url(Bye, "add"), {"matchday": matchday.pk, "entry": a.pk})

    assert response.status_code == 200
    assert response.context["adminform"].form.non_field_errors() == [
        f"{a} plays twice on this matchday: in match {match} and in the bye. An entry plays "
        "at most once a matchday, a bye included."
    ]
    assert not Bye.objects.exists()


def test_a_bye_deleted_in_the_admin_is_deleted_by_bye_delete_with_its_history(admin_client):
    matchday, (a, *_rest) = pairs_day()
    bye = Bye.objects.create(matchday=matchday, entry=a)

    response = admin_client.post(admin_url(Bye, "delete", bye.pk), {"post": "yes"})

    assert response.status_code == 302
    assert [record.history_type for record in Bye.history.filter(id=bye.pk)] == ["-", "+"]


@pytest.mark.parametrize("how", ["page", "list"])
def test_a_bye_played_since_the_delete_page_was_shown_stays(admin_client, monkeypatch, how):
    """The matchday was played after the page's check (a race): `bye_delete` refuses under
    the matchday's lock, and the page says so instead of failing."""
    matchday, (a, b, c, _d) = pairs_day()
    game_with_totals(matchday, a, b)
    bye = Bye.objects.create(matchday=matchday, entry=c)
    monkeypatch.setattr(schedule_admin.ByeAdmin, "is_locked", lambda self, obj: False)
    monkeypatch.setattr(schedule_admin.ByeAdmin, "delete_refusal", lambda self, rows: None)

    if how == "page":
        response = admin_client.post(admin_url(Bye, "delete", bye.pk), {"post": "yes"})
    else:
        _chosen, response = bulk_delete(admin_client, [bye])

    assert response.status_code == 302
    assert said(response) == (
        f"Matchday {matchday.number} is played: its bye counts in the standings and stays."
    )
    assert Bye.objects.filter(pk=bye.pk).exists()
    assert [record.history_type for record in Bye.history.filter(id=bye.pk)] == ["+"]
    assert not LogEntry.objects.filter(object_id=str(bye.pk)).exists()  # not logged deleted


# ---- deductions


def deduction(competition: Competition | None = None, points: int = 2) -> Deduction:
    competition = competition or CompetitionFactory.create()
    entry = TeamEntryFactory.create(competition=competition)
    seen = deductions_token(competition_id=competition.pk)
    return deduction_add(
        competition_id=competition.pk, entry_id=entry.pk, points=points, reason="late", seen=seen
    )


def test_a_deduction_is_never_deleted_in_the_admin(admin_client):
    kept = deduction()

    assert admin_client.get(admin_url(Deduction, "delete", kept.pk)).status_code == 403
    response = admin_client.post(admin_url(Deduction, "delete", kept.pk), {"post": "yes"})
    assert response.status_code == 403
    changelist = admin_client.get(admin_url(Deduction, "changelist"))
    actions = dict(changelist.context["action_form"].fields["action"].choices)
    assert "delete_selected" not in actions and "void_selected" in actions
    chosen, confirmed = bulk_delete(admin_client, [kept])
    assert chosen.status_code == confirmed.status_code == 302
    assert "No action selected." in said(chosen)
    assert Deduction.objects.get(pk=kept.pk).voided_at is None


def test_a_deduction_is_voided_on_its_page_with_a_reason(
    admin_client, django_capture_on_commit_callbacks
):
    voided = deduction()
    url = reverse("admin:tournaments_deduction_void", args=[voided.pk])
    change_page = admin_client.get(admin_url(Deduction, "change", voided.pk)).content.decode()
    assert url in change_page
    assert admin_client.get(url).status_code == 200

    response = admin_client.post(url, {"void_confirm": "yes", "reason": "   "})
    assert response.status_code == 200
    assert response.context["form"].errors["reason"] == ["This field is required."]
    assert Deduction.objects.get(pk=voided.pk).voided_at is None

    settle()
    with django_capture_on_commit_callbacks() as callbacks:
        response = admin_client.post(url, {"void_confirm": "yes", "reason": "appeal upheld"})

    assert response.status_code == 302
    voided.refresh_from_db()
    assert voided.voided_at is not None and voided.void_reason == "appeal upheld"
    assert queued_refreshes(callbacks) == [voided.competition_id]
    # Once voided: said so, and a second void is refused with the first one's reason.
    response = admin_client.post(url, {"void_confirm": "yes", "reason": "again"})
    assert "was voided already" in said(response) and "appeal upheld" in said(response)
    assert Deduction.objects.get(pk=voided.pk).void_reason == "appeal upheld"


def test_the_void_action_asks_why_then_voids_the_selected_deductions(
    admin_client, django_capture_on_commit_callbacks
):
    first = deduction()
    second = deduction(first.competition, points=1)
    url = admin_url(Deduction, "changelist")
    selected = {"action": "void_selected", "_selected_action": [first.pk, second.pk]}

    page = admin_client.post(url, {**selected, "index": 0})
    assert page.status_code == 200
    assert "Void these 2 deductions?" in page.content.decode()
    assert not Deduction.objects.filter(voided_at__isnull=False).exists()

    settle()
    with django_capture_on_commit_callbacks() as callbacks:
        response = admin_client.post(
            url, {**selected, "void_confirm": "yes", "reason": "entered twice"}
        )

    assert response.status_code == 302
    assert "2 deductions voided." in said(response)
    assert set(Deduction.objects.values_list("void_reason", flat=True)) == {"entered twice"}
    assert queued_refreshes(callbacks) == [first.competition_id]


# ---- matchdays


def test_a_played_matchday_cannot_be_deleted_renumbered_or_moved(admin_client):
    matchday, (a, b, *_rest) = pairs_day()
    game_with_rounds(matchday, a, b)
    elsewhere = CompetitionFactory.create()
    before = snapshot(matchday)

    assert f"{matchday} is played (a match has a result)" in refused_delete(admin_client, matchday)
    page = admin_client.get(admin_url(Matchday, "change", matchday.pk)).content.decode()
    assert 'name="number"' not in page and 'name="competition"' not in page
    response = save_as_shown(admin_client, matchday, number=9, competition=elsewhere.pk)

    assert response.status_code == 302
    assert snapshot(matchday) == before


def test_a_scheduled_matchday_stays_in_its_competition_but_may_be_renumbered(
    admin_client, django_capture_on_commit_callbacks
):
    matchday, (a, b, *_rest) = pairs_day()
    match_create(matchday_id=matchday.pk, home_id=a.pk, away_id=b.pk)
    elsewhere = CompetitionFactory.create()
    settle()

    with django_capture_on_commit_callbacks() as callbacks:
        response = save_as_shown(admin_client, matchday, number=9, competition=elsewhere.pk)

    assert response.status_code == 302
    matchday.refresh_from_db()
    assert (matchday.number, matchday.competition_id) == (9, a.competition_id)
    assert queued_refreshes(callbacks) == [a.competition_id]


def test_an_empty_matchday_is_deleted_and_the_standings_refreshed(
    admin_client, django_capture_on_commit_callbacks
):
    matchday, _entries = pairs_day()
    settle()

    with django_capture_on_commit_callbacks() as callbacks:
        bulk_delete(admin_client, [matchday])

    assert not Matchday.objects.filter(pk=matchday.pk).exists()
    assert queued_refreshes(callbacks) == [matchday.competition_id]


def test_the_matchday_page_lists_its_matches_read_only(admin_client):
    matchday, (a, b, *_rest) = pairs_day()
    match = MatchFactory.create(matchday=matchday, home=a, away=b)

    posted = {"matches-0-DELETE": "on", "matches-0-home": b.pk}
    response = save_as_shown(admin_client, matchday, **posted)

    assert response.status_code == 302
    assert (
        'name="matches-0-home"'
        not in admin_client.get(admin_url(Matchday, "change", matchday.pk)).content.decode()
    )
    assert (Match.objects.get(pk=match.pk).home, Match.objects.get(pk=match.pk).away) == (a, b)


# ---- entries


def test_an_entry_on_the_schedule_cannot_be_deleted_or_changed(admin_client):
    matchday, (a, b, c, _d) = pairs_day()
    MatchFactory.create(matchday=matchday, home=a, away=b)
    Bye.objects.create(matchday=matchday, entry=c)
    other = TeamFactory.create()
    for entry in (a, c):
        before = snapshot(entry)

        assert f"{entry} is on the schedule" in refused_delete(admin_client, entry)
        response = save_as_shown(admin_client, entry, team=other.pk)

        assert response.status_code == 302
        assert snapshot(entry) == before


def test_the_competition_page_keeps_its_scheduled_entries(
    admin_client, django_capture_on_commit_callbacks
):
    matchday, (a, b, c, _d) = pairs_day()
    MatchFactory.create(matchday=matchday, home=a, away=b)
    competition = matchday.competition
    page = admin_client.get(admin_url(Competition, "change", competition.pk))
    forms_shown = page.context["inline_admin_formsets"][0].formset.forms
    rows = {form.instance.pk: index for index, form in enumerate(forms_shown)}
    newcomer = TeamFactory.create()
    changes = {
        f"entries-{rows[a.pk]}-DELETE": "on",
        f"entries-{rows[a.pk]}-team": newcomer.pk,
        f"entries-{rows[c.pk]}-DELETE": "on",  # not on the schedule: may go
    }
    settle()

    with django_capture_on_commit_callbacks() as callbacks:
        response = admin_client.post(
            admin_url(Competition, "change", competition.pk), posted_back(page, **changes)
        )

    assert response.status_code == 302, response.content.decode()[:3000]
    assert set(competition.entries.all()) == {a, b, _d}
    assert Entry.objects.get(pk=a.pk).team_id == a.team_id
    assert queued_refreshes(callbacks) == [competition.pk]


def test_an_unscheduled_entry_is_deleted_and_the_standings_refreshed(
    admin_client, django_capture_on_commit_callbacks
):
    _matchday, (a, *_rest) = pairs_day()
    settle()

    with django_capture_on_commit_callbacks() as callbacks:
        response = admin_client.post(admin_url(Entry, "delete", a.pk), {"post": "yes"})

    assert response.status_code == 302
    assert not Entry.objects.filter(pk=a.pk).exists()
    assert queued_refreshes(callbacks) == [a.competition_id]


# ---- competitions


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


def test_several_refused_rows_are_named_in_the_plural(admin_client):
    first, (a, b, c, d) = pairs_day()
    game_with_rounds(first, a, b)
    second = MatchdayFactory.create(competition=first.competition, number=2)
    game_with_rounds(second, c, d)

    chosen, _confirmed = bulk_delete(admin_client, [first, second])

    message = said(chosen)
    assert "are played (a match has a result)" in message
    assert str(first) in message and str(second) in message


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
