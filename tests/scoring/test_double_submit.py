"""Double submits: every action that creates rows is idempotent against a double click
(issue 6, "Double submits"), and an empty matchday can be deleted.

A double click sends the same form twice and the browser shows the answer to the second
post, so the second answer must say that the work is done (never an error page) and no
second row may appear. Each test posts exactly what the page's form holds, twice.
"""

from __future__ import annotations

import html
from typing import Any

import pytest
from django.urls import reverse

from scoring.models import Game, Round
from scoring.rules import RuleViolation
from scoring.services.games import game_close, game_totals_enter
from scoring.services.matches import match_create, match_forfeit_set
from scoring.services.schedule import (
    matchday_create,
    matchday_delete,
    schedule_round_robin_create,
    swiss_matchday_pair,
)
from tests.builders import club_competition, koppels_of, pairs_competition, record
from tests.factories import (
    CompetitionFactory,
    GameFactory,
    MatchFactory,
    TeamEntryFactory,
    UserFactory,
)
from tests.pages import game_url, manage_url, matchday_url
from tests.seen import deductions_token, game_token_now, match_token_now
from tournaments.models import Bye, Competition, Deduction, Match, Matchday
from tournaments.services.deductions import deduction_add

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def text(response: Any) -> str:
    return html.unescape(response.content.decode())


def twice(client: Any, url: str, data: dict[str, Any], **extra: Any) -> tuple[Any, Any]:
    """The same form posted twice; the second answer followed, as the browser shows it."""
    first = client.post(url, data, **extra)
    second = client.post(url, data, follow=not extra, **extra)
    return first, second


def form_data(response: Any, form: str, action: str, **values: Any) -> dict[str, Any]:
    """What the page's form `form` sends: its hidden values as rendered, plus `values`."""
    bound = response.context[form]
    data = {"action": action}
    for field in bound.hidden_fields():
        data[field.html_name] = field.value()
    data.update({bound.add_prefix(name): value for name, value in values.items()})
    return data


@pytest.fixture
def manual() -> Competition:
    competition = CompetitionFactory.create(schedule_format="manual", slug="manual")
    TeamEntryFactory.create_batch(4, competition=competition)
    return competition


# ---------------------------------------------------------------- the schedule page


def test_add_matchday_twice_adds_one(director_client, manual):
    page = director_client.get(manage_url(manual))
    data = form_data(page, "matchday_form", "matchday_add", date="2026-12-04")
    first, second = twice(director_client, manage_url(manual), data)
    assert first["Location"] == matchday_url(manual, 1)
    assert second.status_code == 200
    assert "Matchday 1 is added already" in text(second)
    assert second.redirect_chain[-1][0] == matchday_url(manual, 1)
    assert manual.matchdays.count() == 1


def test_a_stale_add_matchday_form_says_the_numbering_moved_on(director_client, manual):
    page = director_client.get(manage_url(manual))
    data = form_data(page, "matchday_form", "matchday_add")
    matchday_create(competition_id=manual.pk, number=1)
    matchday_create(competition_id=manual.pk, number=2)
    matchday_delete(matchday_id=manual.matchdays.get(number=2).pk)
    matchday_delete(matchday_id=manual.matchdays.get(number=1).pk)
    matchday_create(competition_id=manual.pk, number=1)
    data["matchday-number"] = 3  # a form made while matchday 2 was the last one
    response = director_client.post(manage_url(manual), data)
    assert response.status_code == 422
    assert "the next matchday is now 2, not 3" in text(response)
    assert manual.matchdays.count() == 1


def test_add_match_twice_adds_one(director_client, manual):
    matchday_create(competition_id=manual.pk, number=1)
    home, away = manual.entries.order_by("pk")[:2]
    data = {"action": "add", "add-home": home.pk, "add-away": away.pk, "add-table": ""}
    first, second = twice(director_client, matchday_url(manual, 1), data)
    assert first.status_code == 302
    assert f"{home} – {away} is on this matchday already" in text(second)
    assert Match.objects.filter(matchday__competition=manual).count() == 1


def test_add_deduction_twice_deducts_once(director_client, manual):
    entry = manual.entries.first()
    assert entry is not None
    page = director_client.get(manage_url(manual))
    data = form_data(page, "deduction_form", "deduction_add", entry=entry.pk, points=3)
    data["deduction-reason"] = "No show"
    first, second = twice(director_client, manage_url(manual), data)
    assert first.status_code == 302
    assert f"3 points were deducted from {entry} already" in text(second)
    assert Deduction.objects.filter(competition=manual).count() == 1
    # A second deduction on purpose comes from the page as it is now: it goes through.
    page = director_client.get(manage_url(manual))
    data = form_data(
        page, "deduction_form", "deduction_add", entry=entry.pk, points=3, reason="No show"
    )
    assert director_client.post(manage_url(manual), data).status_code == 302
    assert Deduction.objects.filter(competition=manual).count() == 2


def test_generate_twice_makes_one_schedule(director_client):
    competition = pairs_competition(4, schedule_format=Competition.Format.ROUND_ROBIN)
    data = {"action": "generate", "rr-days_between": "7"}
    first, second = twice(director_client, manage_url(competition), data)
    assert first.status_code == 302
    assert "The schedule is there already (3 matchdays)" in text(second)
    assert competition.matchdays.count() == 3
    assert Match.objects.filter(matchday__competition=competition).count() == 6


def test_pair_swiss_twice_pairs_one_matchday(director_client):
    competition = pairs_competition(5, schedule_format=Competition.Format.SWISS)
    page = director_client.get(manage_url(competition))
    data = form_data(page, "pair_form", "pair")
    first, second = twice(director_client, manage_url(competition), data)
    assert first.status_code == 302
    assert "Matchday 1 is paired already" in text(second)
    assert competition.matchdays.count() == 1
    assert Bye.objects.filter(matchday__competition=competition).count() == 1


def test_htmx_double_pair_answers_with_the_schedule(director_client):
    competition = pairs_competition(4, schedule_format=Competition.Format.SWISS)
    data = form_data(director_client.get(manage_url(competition)), "pair_form", "pair")
    first, second = twice(director_client, manage_url(competition), data, **HTMX)
    assert (first.status_code, second.status_code) == (200, 200)
    assert "Matchday 1 is paired already" in text(second)
    assert competition.matchdays.count() == 1


# ---------------------------------------------------------------- the matchday and match pages


def test_move_twice_moves_once(director_client):
    competition = pairs_competition(4, schedule_format=Competition.Format.ROUND_ROBIN)
    schedule_round_robin_create(competition_id=competition.pk)
    first_match, second_match = competition.matchdays.get(number=1).matches.order_by("table")
    data = {"action": "move", "move-match": first_match.pk, "move-table": "2"}
    first, second = twice(director_client, matchday_url(competition, 1), data)
    assert first.status_code == 302
    assert "Match already at table 2." in text(second)
    first_match.refresh_from_db()
    second_match.refresh_from_db()
    assert (first_match.table, second_match.table) == (2, 1)


def test_lineup_twice_makes_the_games_once(director_client):
    competition = club_competition()
    schedule_round_robin_create(competition_id=competition.pk)
    match = Match.objects.get(matchday__competition=competition, matchday__number=1)
    url = reverse("match_manage", kwargs={"slug": competition.slug, "match_id": match.pk})
    home, away = koppels_of(match.home), koppels_of(match.away)
    data = form_data(
        director_client.get(url),
        "lineup_form",
        "lineup",
        home_1=home[0].pk,
        home_2=home[1].pk,
        away_1=away[0].pk,
        away_2=away[1].pk,
    )
    director_client.post(url, data)
    games = sorted(match.games.values_list("pk", flat=True))
    second = director_client.post(url, data, follow=True)
    assert "Lineup saved: 4 games over 2 sittings." in text(second)
    assert sorted(match.games.values_list("pk", flat=True)) == games


def test_forfeit_twice_is_recorded_once(director_client):
    competition = club_competition()
    schedule_round_robin_create(competition_id=competition.pk)
    match = Match.objects.get(matchday__competition=competition, matchday__number=1)
    url = reverse("match_manage", kwargs={"slug": competition.slug, "match_id": match.pk})
    data = form_data(
        director_client.get(url), "forfeit_form", "forfeit", side="away", reason="No show"
    )
    first, second = twice(director_client, url, data)
    assert first.status_code == 302
    assert "Forfeit recorded" in text(second)
    assert match.history.filter(forfeit="away").count() == 1


# ---------------------------------------------------------------- the score sheet


@pytest.fixture
def game() -> Game:
    return GameFactory.create(
        competition__close_by_director_allowed=True, competition__confirmation_required=True
    )


def test_record_a_round_twice_records_it_once(director_client, game):
    data = form_data(director_client.get(game_url("game_sheet", game)), "round_form", "")
    del data["action"]
    data.update({"result": "kap", "side": "a", "caller": game.seat_1_id})
    first, second = twice(director_client, game_url("game_sheet", game), data)
    assert first.status_code == 302
    assert "Round 1 is recorded already, exactly like this" in text(second)
    assert game.rounds.count() == 1


@pytest.mark.parametrize(
    ("name", "prepare", "expected"),
    [
        ("game_close", "", Game.Status.CLOSED),
        ("game_reopen", "close", Game.Status.OPEN),
        ("game_confirm", "totals", Game.Status.FINISHED),
    ],
)
def test_a_sheet_button_pressed_twice_acts_once(director_client, game, name, prepare, expected):
    record(game, result="kap", side="a")
    if prepare == "close":
        game_close(game_id=game.pk, seen=game_token_now(game_id=game.pk))
    elif prepare == "totals":
        Round.objects.filter(game=game).delete()
        game_totals_enter(
            game_id=game.pk, total_a=20, total_b=4, seen=game_token_now(game_id=game.pk)
        )
    seen = director_client.get(game_url("game_sheet", game)).context["seen"]
    history = game.history.count()
    first, second = twice(director_client, game_url(name, game), {"seen": seen})
    assert first.status_code == 302
    assert second.status_code == 200
    game.refresh_from_db()
    assert game.status == expected
    assert game.history.count() == history + 1  # one write, not two


def test_totals_twice_are_entered_once(director_client, game):
    seen = director_client.get(game_url("game_sheet", game)).context["seen"]
    data = {"total_a": 20, "total_b": 4, "seen": seen}
    first, second = twice(director_client, game_url("game_totals", game), data)
    assert first.status_code == 302
    assert "Totals entered: 20–4." in text(second)
    assert game.history.filter(total_a=20).count() == 1


def test_undo_twice_undoes_one_round(director_client, game):
    for side in "ab":
        record(game, result="gewone_winst", side=side)
    undo = director_client.get(game_url("game_sheet", game)).context["undo_form"]
    data = {"round": undo.initial["round"], "seen": undo.initial["seen"]}
    first, second = twice(director_client, game_url("round_undo", game), data)
    assert first.status_code == 302
    assert "That round is no longer on the sheet" in text(second)
    assert list(game.rounds.values_list("number", flat=True)) == [1]


def test_delete_twice_deletes_one_round(director_client, game):
    for side in "ab":
        record(game, result="gewone_winst", side=side)
    first_round = game.rounds.get(number=1)
    url = reverse(
        "round_delete",
        kwargs={
            "slug": game.match.matchday.competition.slug,
            "game_id": game.pk,
            "round_id": first_round.pk,
        },
    )
    first, second = twice(director_client, url, {"seen": first_round.token})
    assert first.status_code == 302
    assert second.status_code == 200
    assert "That round is no longer on the sheet" in text(second)
    assert list(game.rounds.values_list("side", flat=True)) == ["b"]


def test_match_totals_twice_are_entered_once(director_client):
    match = MatchFactory.create()
    url = reverse(
        "match_totals", kwargs={"slug": match.matchday.competition.slug, "match_id": match.pk}
    )
    data = {"total_home": 81, "total_away": 74, "seen": match_token_now(match_id=match.pk)}
    first, second = twice(director_client, url, data)
    assert first.status_code == 302
    assert "Match totals entered: 81–74." in text(second)
    assert match.history.filter(total_home=81).count() == 1


# ---------------------------------------------------------------- deleting a matchday


def delete_data(matchday: Matchday) -> dict[str, Any]:
    return {"action": "matchday_delete", "matchday": matchday.pk}


def test_the_last_empty_matchday_can_be_deleted_with_its_matches_and_byes(director_client):
    competition = pairs_competition(5, schedule_format=Competition.Format.SWISS)
    swiss_matchday_pair(competition_id=competition.pk, number=1, override_reason="")
    matchday = competition.matchdays.get()
    page = text(director_client.get(matchday_url(competition, 1)))
    assert 'id="matchday-delete-form"' in page
    response = director_client.post(
        matchday_url(competition, 1), delete_data(matchday), follow=True
    )
    assert response.redirect_chain[-1][0] == manage_url(competition)
    assert "Matchday 1 deleted." in text(response)
    assert not Matchday.objects.filter(competition=competition).exists()
    assert not Match.objects.filter(matchday__competition=competition).exists()
    assert not Game.objects.filter(match__matchday__competition=competition).exists()
    assert not Bye.objects.filter(matchday__competition=competition).exists()
    # Deleted twice (a double click): said so, with the schedule, not a 404.
    response = director_client.post(
        matchday_url(competition, 1), delete_data(matchday), follow=True
    )
    assert "Matchday 1 is deleted already" in text(response)
    # Pairing again makes matchday 1 anew.
    data = form_data(director_client.get(manage_url(competition)), "pair_form", "pair")
    assert data["pair-number"] == 1
    assert director_client.post(manage_url(competition), data).status_code == 302


def test_htmx_delete_sends_the_browser_to_the_schedule(director_client, manual):
    matchday = matchday_create(competition_id=manual.pk, number=1)
    response = director_client.post(matchday_url(manual, 1), delete_data(matchday), **HTMX)
    assert response.status_code == 200
    assert response["HX-Redirect"] == manage_url(manual)
    assert not manual.matchdays.exists()


def test_a_matchday_with_results_is_not_deleted(director_client):
    competition = pairs_competition(4, schedule_format=Competition.Format.MANUAL)
    matchday = matchday_create(competition_id=competition.pk, number=1)
    home, away = competition.entries.order_by("pk")[:2]
    match = match_create(matchday_id=matchday.pk, home_id=home.pk, away_id=away.pk)
    game = match.games.get()
    game_totals_enter(game_id=game.pk, total_a=20, total_b=4, seen=game_token_now(game_id=game.pk))
    page = text(director_client.get(matchday_url(competition, 1)))
    assert 'id="matchday-delete-form"' not in page
    assert "This matchday has results: it can't be deleted." in page
    response = director_client.post(matchday_url(competition, 1), delete_data(matchday))
    assert response.status_code == 422
    assert "Matchday 1 has results already" in text(response)
    assert Game.objects.filter(pk=game.pk, total_a=20).exists()


@pytest.mark.parametrize("result", ["forfeit", "deduction"])
def test_a_forfeit_or_a_deduction_on_a_match_keeps_its_matchday(manual, result):
    matchday = matchday_create(competition_id=manual.pk, number=1)
    home, away = manual.entries.order_by("pk")[:2]
    match = match_create(matchday_id=matchday.pk, home_id=home.pk, away_id=away.pk)
    if result == "forfeit":
        match_forfeit_set(
            match_id=match.pk,
            side="home",
            reason="No show",
            seen=match_token_now(match_id=match.pk),
        )
    else:
        deduction_add(
            competition_id=manual.pk,
            entry_id=home.pk,
            points=1,
            reason="Late",
            match_id=match.pk,
            seen=deductions_token(competition_id=manual.pk),
        )
    with pytest.raises(RuleViolation) as caught:
        matchday_delete(matchday_id=matchday.pk)
    assert caught.value.code == "matchday_has_results"
    assert Match.objects.filter(pk=match.pk).exists()


def test_only_the_last_matchday_can_be_deleted(director_client, manual):
    first = matchday_create(competition_id=manual.pk, number=1)
    matchday_create(competition_id=manual.pk, number=2)
    page = text(director_client.get(matchday_url(manual, 1)))
    assert "Only the last matchday, while it has no results, can be deleted" in page
    response = director_client.post(matchday_url(manual, 1), delete_data(first))
    assert response.status_code == 422
    assert "Only the last matchday (2) can be deleted" in text(response)
    assert manual.matchdays.count() == 2


def test_deleting_a_matchday_needs_a_director(client, manual):
    matchday = matchday_create(competition_id=manual.pk, number=1)
    response = client.post(matchday_url(manual, 1), delete_data(matchday))
    assert response.status_code == 302 and "login" in response["Location"]
    client.force_login(UserFactory.create(is_staff=True))  # admin access, not a director
    response = client.post(matchday_url(manual, 1), delete_data(matchday))
    assert response.status_code == 403
    assert manual.matchdays.filter(pk=matchday.pk).exists()


def test_a_matchday_of_another_competition_is_not_deleted_through_this_one(director_client, manual):
    other = CompetitionFactory.create(schedule_format="manual")
    theirs = matchday_create(competition_id=other.pk, number=1)
    matchday_create(competition_id=manual.pk, number=1)
    response = director_client.post(matchday_url(manual, 1), delete_data(theirs))
    assert response.status_code == 404
    assert Matchday.objects.filter(pk=theirs.pk).exists()
    response = director_client.post(matchday_url(manual, 1), {"action": "matchday_delete"})
    assert response.status_code == 422  # no id: refused in words, nothing deleted
    assert manual.matchdays.count() == 1
