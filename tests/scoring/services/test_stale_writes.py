"""Lost updates: every write that changes a stored result carries what its page showed and
is refused when the result changed meanwhile (issue 6, "Lost updates").

For each write: a form made before someone else's change is refused with the reason, the
stored value stays, and the refusal shows what is stored now; a form without what it saw
is refused too. The same form sent twice (a double click) writes nothing a second time.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import pytest
from django.urls import reverse

from scoring.models import Game, Round
from scoring.rules import RuleViolation
from scoring.services.confirmations import game_confirm
from scoring.services.games import game_close, game_reopen, game_totals_enter, match_totals_enter
from scoring.services.lineups import club_match_lineup_set
from scoring.services.matches import match_forfeit_set, matchday_entries_swap
from scoring.services.rounds import round_correct, round_delete, round_record, round_undo
from scoring.services.schedule import (
    matchday_create,
    schedule_round_robin_create,
    swiss_matchday_pair,
)
from scoring.tokens import game_token_now, match_token_now, matchday_token
from tests.builders import club_competition, koppels_of, pairs_competition, record
from tests.factories import CompetitionFactory, GameFactory, MatchFactory, TeamEntryFactory
from tests.pages import game_url, match_totals_url
from tests.seen import round_seen
from tournaments.models import Competition, Deduction, Match
from tournaments.services.deductions import deduction_add
from tournaments.tokens import deductions_token

pytestmark = pytest.mark.django_db

CHANGED = "changed by someone else since you opened it"
NOT_SENT_FROM_PAGE = "does not say what it was opened on"
HTMX = {"HTTP_HX_REQUEST": "true"}


def totals(game: Game, a: int = 20, b: int = 4) -> Game:
    return game_totals_enter(
        game_id=game.pk, total_a=a, total_b=b, seen=game_token_now(game_id=game.pk)
    )


def refused(call: Callable[[], Any], code: str) -> None:
    with pytest.raises(RuleViolation) as caught:
        call()
    assert caught.value.code == code


@pytest.fixture
def game() -> Game:
    return GameFactory.create(
        competition__close_by_director_allowed=True, competition__confirmation_required=True
    )


@pytest.fixture
def bare_match() -> Match:
    """A match without games: it takes reported totals."""
    return MatchFactory.create()


@pytest.fixture
def club_match() -> Match:
    competition = club_competition()
    schedule_round_robin_create(competition_id=competition.pk)
    return Match.objects.get(matchday__competition=competition, matchday__number=1)


def lineup(match: Match, home: int = 2, away: int = 2, *, seen: str | None = None) -> Match:
    return club_match_lineup_set(
        match_id=match.pk,
        home_teams=[t.pk for t in koppels_of(match.home)[:home]],
        away_teams=[t.pk for t in koppels_of(match.away)[:away]],
        seen=match_token_now(match_id=match.pk) if seen is None else seen,
    )


# ---------------------------------------------------------------- the services require it


@pytest.mark.parametrize(
    ("service", "name"),
    [
        (round_record, "expected_number"),
        (round_correct, "seen"),
        (round_delete, "seen"),
        (round_undo, "seen"),
        (game_close, "seen"),
        (game_reopen, "seen"),
        (game_totals_enter, "seen"),
        (match_totals_enter, "seen"),
        (game_confirm, "seen"),
        (match_forfeit_set, "seen"),
        (club_match_lineup_set, "seen"),
        (deduction_add, "seen"),
        (matchday_entries_swap, "seen"),
        (matchday_create, "number"),
        (swiss_matchday_pair, "number"),
    ],
    ids=lambda value: getattr(value, "__name__", value),
)
def test_every_result_write_requires_what_its_form_saw(service, name):
    parameter = inspect.signature(service).parameters[name]
    assert parameter.kind is inspect.Parameter.KEYWORD_ONLY
    assert parameter.default is inspect.Parameter.empty  # no way to write blind


# ---------------------------------------------------------------- games


def test_stale_game_totals_do_not_overwrite_totals_entered_meanwhile(game):
    seen = game_token_now(game_id=game.pk)
    totals(game, 20, 4)  # another tab
    refused(
        lambda: game_totals_enter(game_id=game.pk, total_a=20, total_b=12, seen=seen),
        "game_changed_meanwhile",
    )
    game.refresh_from_db()
    assert (game.total_a, game.total_b) == (20, 4)


def test_stale_game_totals_do_not_overwrite_rounds_recorded_meanwhile(game):
    seen = game_token_now(game_id=game.pk)
    record(game, "kap")
    refused(
        lambda: game_totals_enter(game_id=game.pk, total_a=20, total_b=12, seen=seen),
        "game_changed_meanwhile",
    )
    game.refresh_from_db()
    assert (game.total_a, game.score_a, game.status) == (None, 5, Game.Status.OPEN)


def test_game_totals_sent_twice_are_stored_once(game):
    seen = game_token_now(game_id=game.pk)
    game_totals_enter(game_id=game.pk, total_a=20, total_b=4, seen=seen)
    history = game.history.count()
    game_totals_enter(game_id=game.pk, total_a=20, total_b=4, seen=seen)
    assert game.history.count() == history  # nothing written the second time


def test_a_stale_close_does_not_close_a_game_that_moved_on(game):
    record(game)
    seen = game_token_now(game_id=game.pk)
    record(game, side="b")  # another phone
    refused(lambda: game_close(game_id=game.pk, seen=seen), "game_changed_meanwhile")
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN


def test_close_sent_twice_closes_once(game):
    record(game)
    seen = game_token_now(game_id=game.pk)
    game_close(game_id=game.pk, seen=seen)
    history = game.history.count()
    closed = game_close(game_id=game.pk, seen=seen)
    assert closed.status == Game.Status.CLOSED
    assert game.history.count() == history


def test_a_stale_reopen_does_not_reopen_a_corrected_game(game):
    first = record(game)
    game_close(game_id=game.pk, seen=game_token_now(game_id=game.pk))
    seen = game_token_now(game_id=game.pk)
    round_correct(round_id=first.pk, result="kap", side="a", seen=first.token)
    refused(lambda: game_reopen(game_id=game.pk, seen=seen), "game_changed_meanwhile")
    game.refresh_from_db()
    assert (game.status, game.score_a) == (Game.Status.CLOSED, 5)


def test_reopen_sent_twice_is_done_once(game):
    totals(game)
    seen = game_token_now(game_id=game.pk)
    game_reopen(game_id=game.pk, seen=seen)
    reopened = game_reopen(game_id=game.pk, seen=seen)
    assert (reopened.status, reopened.total_a) == (Game.Status.OPEN, None)


def test_a_stale_undo_keeps_the_round_added_meanwhile(game):
    last = record(game)
    seen = game_token_now(game_id=game.pk)
    record(game, side="b")
    refused(
        lambda: round_undo(game_id=game.pk, round_id=last.pk, seen=seen),
        "game_changed_meanwhile",
    )
    assert game.rounds.count() == 2


def test_undo_sent_twice_undoes_one_round(game):
    record(game)
    last = record(game, side="b")
    seen = game_token_now(game_id=game.pk)
    assert round_undo(game_id=game.pk, round_id=last.pk, seen=seen) == 2
    refused(
        lambda: round_undo(game_id=game.pk, round_id=last.pk, seen=seen),
        "round_unknown",
    )
    assert list(game.rounds.values_list("number", flat=True)) == [1]


def test_a_stale_delete_keeps_a_round_corrected_meanwhile(game):
    rnd = record(game)
    seen = rnd.token
    round_correct(round_id=rnd.pk, result="kap", side="a", seen=seen)
    refused(lambda: round_delete(round_id=rnd.pk, seen=seen), "round_changed")
    assert game.rounds.get().result == "kap"


def test_a_correction_sent_twice_is_made_once(game):
    rnd = record(game)
    seen = rnd.token
    round_correct(round_id=rnd.pk, result="kap", side="a", seen=seen)
    history = Round.history.filter(id=rnd.pk).count()
    again = round_correct(round_id=rnd.pk, result="kap", side="a", seen=seen)
    assert again.result == "kap"
    assert Round.history.filter(id=rnd.pk).count() == history


def test_a_stale_confirm_does_not_confirm_a_result_changed_meanwhile(game):
    totals(game, 20, 4)
    seen = game_token_now(game_id=game.pk)
    game_reopen(game_id=game.pk, seen=seen)
    totals(game, 20, 12)
    refused(
        lambda: game_confirm(game_id=game.pk, user=None, seen=seen),
        "game_changed_meanwhile",
    )
    game.refresh_from_db()
    assert game.confirmed_at is None


def test_confirm_sent_twice_keeps_the_first_confirmation(game):
    totals(game)
    seen = game_token_now(game_id=game.pk)
    first = game_confirm(game_id=game.pk, user=None, seen=seen).confirmed_at
    again = game_confirm(game_id=game.pk, user=None, seen=seen)
    assert again.confirmed_at == first


# ---------------------------------------------------------------- matches


def test_stale_match_totals_do_not_overwrite_totals_entered_meanwhile(bare_match):
    seen = match_token_now(match_id=bare_match.pk)
    match_totals_enter(match_id=bare_match.pk, total_home=81, total_away=74, seen=seen)
    refused(
        lambda: match_totals_enter(match_id=bare_match.pk, total_home=91, total_away=49, seen=seen),
        "match_changed_meanwhile",
    )
    bare_match.refresh_from_db()
    assert (bare_match.total_home, bare_match.total_away) == (81, 74)
    # The same totals again are what is stored: a form sent twice, nothing to refuse.
    match_totals_enter(match_id=bare_match.pk, total_home=81, total_away=74, seen=seen)


def test_a_stale_forfeit_does_not_overwrite_one_set_meanwhile(club_match):
    seen = match_token_now(match_id=club_match.pk)
    match_forfeit_set(match_id=club_match.pk, side="home", reason="No show", seen=seen)
    refused(
        lambda: match_forfeit_set(match_id=club_match.pk, side="away", reason="Late", seen=seen),
        "match_changed_meanwhile",
    )
    club_match.refresh_from_db()
    assert (club_match.forfeit, club_match.forfeit_reason) == ("home", "No show")
    again = match_forfeit_set(match_id=club_match.pk, side="home", reason=" No show ", seen=seen)
    assert again.forfeit == "home"  # sent twice: stored once


def test_a_stale_lineup_does_not_overwrite_one_set_meanwhile(club_match):
    seen = match_token_now(match_id=club_match.pk)
    lineup(club_match, 2, 2, seen=seen)
    games = sorted(club_match.games.values_list("pk", flat=True))
    refused(lambda: lineup(club_match, 2, 1, seen=seen), "match_changed_meanwhile")
    club_match.refresh_from_db()
    assert club_match.forfeit == ""
    # The same lineup sent twice: the games stay the ones made the first time.
    lineup(club_match, 2, 2, seen=seen)
    assert sorted(club_match.games.values_list("pk", flat=True)) == games


def test_a_stale_deduction_is_refused_when_the_list_changed(club_match):
    competition = club_match.matchday.competition
    seen = deductions_token(competition_id=competition.pk)
    deduction_add(
        competition_id=competition.pk,
        entry_id=club_match.home_id,
        points=2,
        reason="Late",
        seen=seen,
    )
    refused(
        lambda: deduction_add(
            competition_id=competition.pk,
            entry_id=club_match.away_id,
            points=1,
            reason="Shirts",
            seen=seen,
        ),
        "deductions_changed_meanwhile",
    )
    assert list(Deduction.objects.values_list("reason", flat=True)) == ["Late"]


def test_a_swap_made_on_pairings_changed_meanwhile_is_refused():
    competition = pairs_competition(4, schedule_format=Competition.Format.ROUND_ROBIN)
    schedule_round_robin_create(competition_id=competition.pk)
    matchday = competition.matchdays.get(number=1)
    first, second = matchday.matches.order_by("table")
    seen = matchday_token(matchday_id=matchday.pk)
    swap = {"matchday_id": matchday.pk, "entry_a_id": first.home_id, "entry_b_id": second.home_id}
    matchday_entries_swap(**swap, seen=seen)
    after = sorted(matchday.matches.values_list("home_id", "away_id"))
    # Sent twice it would swap back: refused, the pairings stay as the first swap made them.
    refused(
        lambda: matchday_entries_swap(**swap, seen=seen),
        "matchday_changed_meanwhile",
    )
    assert sorted(matchday.matches.values_list("home_id", "away_id")) == after


# ---------------------------------------------------------------- through the pages


def page(response: Any) -> str:
    return response.content.decode()


def test_stale_totals_on_the_sheet_show_what_is_stored_now(director_client, game):
    seen = director_client.get(game_url("game_sheet", game)).context["seen"]
    totals(game, 20, 4)  # another tab
    response = director_client.post(
        game_url("game_totals", game), {"total_a": 20, "total_b": 12, "seen": seen}
    )
    assert response.status_code == 422
    html = page(response)
    assert CHANGED in html
    assert "This game was entered as totals (20–4)" in html  # what it holds now
    game.refresh_from_db()
    assert (game.total_a, game.total_b) == (20, 4)


def test_stale_totals_keep_the_entered_values_under_a_fresh_token(director_client, game):
    seen = game_token_now(game_id=game.pk)
    game_close(game_id=game.pk, seen=seen)  # another tab: closed at 0–0
    response = director_client.post(
        game_url("game_totals", game), {"total_a": 20, "total_b": 12, "seen": seen}
    )
    assert response.status_code == 422
    form = response.context["totals_form"]
    assert (form["total_b"].value(), form["seen"].value()) == (12, response.context["seen"])
    assert response.context["seen"] != seen
    # Sent again from the fresh page, it goes through.
    data = {"total_a": 20, "total_b": 12, "seen": response.context["seen"]}
    assert director_client.post(game_url("game_totals", game), data).status_code == 302


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("game_totals", {"total_a": 20, "total_b": 4}),
        ("game_close", {}),
        ("game_reopen", {}),
        ("game_confirm", {}),
        ("round_undo", {"round": 1}),
    ],
)
def test_a_sheet_write_without_its_token_is_refused(director_client, game, name, data):
    record(game)
    before = game_token_now(game_id=game.pk)
    response = director_client.post(game_url(name, game), data)
    assert response.status_code == 422
    assert NOT_SENT_FROM_PAGE in page(response)
    assert game_token_now(game_id=game.pk) == before


@pytest.mark.parametrize("name", ["game_close", "game_confirm"])
def test_a_stale_button_on_the_sheet_shows_the_game_as_it_is(director_client, game, name):
    record(game, "kap")
    seen = game_token_now(game_id=game.pk)
    record(game, "kap", "b")  # another phone: round 2
    response = director_client.post(game_url(name, game), {"seen": seen}, **HTMX)
    assert response.status_code == 422
    html = page(response)
    assert CHANGED in html
    assert 'id="round-2"' in html  # the round added meanwhile is on the page
    assert f'name="seen" value="{game_token_now(game_id=game.pk)}"' in html
    game.refresh_from_db()
    assert (game.status, game.confirmed_at) == (Game.Status.OPEN, None)


def test_a_stale_reopen_on_the_sheet_is_refused(director_client, game):
    totals(game, 20, 4)
    seen = game_token_now(game_id=game.pk)
    game_reopen(game_id=game.pk, seen=seen)
    totals(game, 20, 6)
    response = director_client.post(game_url("game_reopen", game), {"seen": seen})
    assert response.status_code == 422
    assert CHANGED in page(response)
    game.refresh_from_db()
    assert (game.total_b, game.status) == (6, Game.Status.FINISHED)


def test_a_round_without_its_number_is_refused(director_client, game):
    response = director_client.post(game_url("game_sheet", game), {"result": "kap", "side": "a"})
    assert response.status_code == 422
    assert "does not say which round it adds" in page(response)
    assert not game.rounds.exists()


def test_a_correction_without_its_token_is_refused(director_client, game):
    rnd = record(game)
    response = director_client.post(
        game_url("round_edit", game, round_id=rnd.pk), {"result": "kap", "side": "a"}
    )
    assert response.status_code == 422
    assert NOT_SENT_FROM_PAGE in page(response)
    assert game.rounds.get().result == "gewone_winst"


def test_a_stale_correction_shows_the_round_as_it_is_now(director_client, game):
    rnd = record(game)
    seen = rnd.token
    round_correct(round_id=rnd.pk, result="kap", side="a", seen=seen)
    response = director_client.post(
        game_url("round_edit", game, round_id=rnd.pk),
        {"result": "baunie", "side": "b", "seen": seen},
    )
    assert response.status_code == 422
    assert "changed meanwhile" in page(response)
    form = response.context["form"]
    assert (form["result"].value(), form["seen"].value()) == ("kap", round_seen(rnd.pk))
    assert game.rounds.get().result == "kap"


def test_a_stale_delete_keeps_the_round_and_says_why(director_client, game):
    rnd = record(game)
    seen = rnd.token
    round_correct(round_id=rnd.pk, result="kap", side="a", seen=seen)
    response = director_client.post(game_url("round_delete", game, round_id=rnd.pk), {"seen": seen})
    assert response.status_code == 422
    assert "changed meanwhile" in page(response)
    assert game.rounds.count() == 1
    response = director_client.post(game_url("round_delete", game, round_id=rnd.pk), {})
    assert response.status_code == 422
    assert NOT_SENT_FROM_PAGE in page(response)
    assert game.rounds.count() == 1


def test_the_delete_page_and_the_sheet_carry_the_round_token(director_client, game):
    rnd = record(game)
    confirm = page(director_client.get(game_url("round_delete", game, round_id=rnd.pk)))
    assert f'name="seen" value="{rnd.token}"' in confirm
    assert f'name="seen" value="{rnd.token}"' in page(
        director_client.get(game_url("game_sheet", game))
    )


def test_stale_match_totals_show_what_the_match_holds_now(director_client, bare_match):
    seen = match_token_now(match_id=bare_match.pk)
    match_totals_enter(match_id=bare_match.pk, total_home=81, total_away=74, seen=seen)
    response = director_client.post(
        match_totals_url(bare_match), {"total_home": 91, "total_away": 49, "seen": seen}
    )
    assert response.status_code == 422
    html = page(response)
    assert "This match was changed by someone else" in html
    assert "reported totals: 81–74" in html
    bare_match.refresh_from_db()
    assert (bare_match.total_home, bare_match.total_away) == (81, 74)
    response = director_client.post(
        match_totals_url(bare_match), {"total_home": 9, "total_away": 4}
    )
    assert response.status_code == 422
    assert NOT_SENT_FROM_PAGE in page(response)


def match_manage_url(match: Match) -> str:
    slug = match.matchday.competition.slug
    return reverse("match_manage", kwargs={"slug": slug, "match_id": match.pk})


def test_a_stale_forfeit_shows_the_forfeit_stored_now(director_client, club_match):
    seen = director_client.get(match_manage_url(club_match)).context["forfeit_form"].initial["seen"]
    match_forfeit_set(match_id=club_match.pk, side="home", reason="No show", seen=seen)
    data = {"action": "forfeit", "forfeit-side": "away", "forfeit-reason": "Late"}
    response = director_client.post(match_manage_url(club_match), {**data, "forfeit-seen": seen})
    assert response.status_code == 422
    assert "This match was changed by someone else" in page(response)
    assert response.context["forfeit_form"].initial["side"] == "home"
    assert director_client.post(match_manage_url(club_match), data).status_code == 422
    club_match.refresh_from_db()
    assert (club_match.forfeit, club_match.forfeit_reason) == ("home", "No show")


def test_a_stale_lineup_is_refused_and_the_games_stay(director_client, club_match):
    seen = match_token_now(match_id=club_match.pk)
    lineup(club_match, 2, 2)
    games = sorted(club_match.games.values_list("pk", flat=True))
    home, away = koppels_of(club_match.home), koppels_of(club_match.away)
    data = {
        "action": "lineup",
        "lineup-home_1": home[2].pk,
        "lineup-home_2": home[1].pk,
        "lineup-away_1": away[0].pk,
        "lineup-away_2": away[1].pk,
    }
    response = director_client.post(match_manage_url(club_match), {**data, "lineup-seen": seen})
    assert response.status_code == 422
    assert "This match was changed by someone else" in page(response)
    assert director_client.post(match_manage_url(club_match), data).status_code == 422
    assert sorted(club_match.games.values_list("pk", flat=True)) == games


def test_a_stale_deduction_shows_the_list_as_it_is_and_keeps_the_entry(director_client):
    competition = CompetitionFactory.create(schedule_format="manual")
    manage = reverse("competition_manage", kwargs={"slug": competition.slug})
    kampoe, toppers = TeamEntryFactory.create_batch(2, competition=competition)
    seen = director_client.get(manage).context["deduction_form"].initial["seen"]
    deduction_add(
        competition_id=competition.pk, entry_id=kampoe.pk, points=2, reason="Late", seen=seen
    )
    data = {
        "action": "deduction_add",
        "deduction-entry": toppers.pk,
        "deduction-points": 1,
        "deduction-reason": "Shirts",
    }
    response = director_client.post(manage, {**data, "deduction-seen": seen})
    assert response.status_code == 422
    html = page(response)
    assert "The deductions were changed by someone else" in html
    assert "Late" in html  # the list as it is now
    form = response.context["deduction_form"]
    assert form.initial["reason"] == "Shirts"
    assert form.initial["seen"] == deductions_token(competition_id=competition.pk)
    assert director_client.post(manage, data).status_code == 422  # no token at all
    assert list(Deduction.objects.values_list("reason", flat=True)) == ["Late"]
