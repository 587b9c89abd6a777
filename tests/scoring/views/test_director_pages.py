"""The director's schedule, matchday and match pages, the printable matchday, confirmation
and the standings page's tie-break columns and adjustments, through the Django test client.

Schedules and results are made with the services, the way the app makes them. Standings
are rebuilt by calling `standings_rebuild` directly (in CI the queued task would not run).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from scoring.models import Game
from scoring.rules import RuleViolation
from scoring.services.games import game_totals_enter
from scoring.services.lineups import club_match_lineup_set
from scoring.services.matches import match_create, match_forfeit_set
from scoring.services.schedule import (
    matchday_create,
    schedule_round_robin_create,
    swiss_matchday_pair,
)
from scoring.services.standings import standings_rebuild
from scoring.views.match_manage import lineup_initial
from tests.builders import club_competition, koppels_of, pairs_competition, record
from tests.factories import CompetitionFactory, TeamEntryFactory, UserFactory, league_staff
from tests.pages import manage_url, matchday_url, without_bdi
from tests.seen import (
    deductions_token,
    game_token_now,
    match_token_now,
    matchday_token,
    next_matchday,
)
from tournaments.models import Bye, Competition, Deduction, Entry, Match, Matchday, Squad, Team
from tournaments.services.deductions import deduction_add
from tournaments.services.squads import squad_member_add
from troefclub.rule_messages import pairing_reason_message, rule_message

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


# ---------------------------------------------------------------- set-up


@pytest.fixture
def swiss() -> Competition:
    """Five koppels (odd: a bye every matchday), Swiss, with Buchholz and H2H tie-breaks."""
    return pairs_competition(
        5,
        slug="open-swiss",
        schedule_format=Competition.Format.SWISS,
        tiebreaks=["points", "saldo", "buchholz", "head_to_head"],
    )


@pytest.fixture
def league() -> Competition:
    """Four koppels in a single round robin, generated."""
    competition = pairs_competition(
        4, slug="league", schedule_format=Competition.Format.ROUND_ROBIN
    )
    schedule_round_robin_create(competition_id=competition.pk)
    return competition


@pytest.fixture
def club_match() -> Match:
    competition = club_competition()
    schedule_round_robin_create(competition_id=competition.pk)
    return Match.objects.get(matchday__competition=competition, matchday__number=1)


@pytest.fixture
def stranger_client(client):
    client.force_login(UserFactory.create(is_staff=True))  # admin access, not a director
    return client


def match_url(match: Match) -> str:
    slug = match.matchday.competition.slug
    return reverse("match_manage", kwargs={"slug": slug, "match_id": match.pk})


def finish_matchday(matchday: Matchday) -> None:
    """Every game of the matchday ends 20–(2 × table)."""
    for game in Game.objects.filter(match__matchday=matchday).order_by("table"):
        game_totals_enter(
            game_id=game.pk,
            seen=game_token_now(game_id=game.pk),
            total_a=20,
            total_b=2 * game.table,
        )


def text(response: Any) -> str:
    return without_bdi(response.content.decode())


# What each form carries hidden (the page's view of things), as a page opened now would.


def pair_data(competition: Competition, **fields: Any) -> dict[str, Any]:
    return {"action": "pair", "pair-number": next_matchday(competition.pk), **fields}


def deduction_data(competition: Competition, **fields: Any) -> dict[str, Any]:
    seen = deductions_token(competition_id=competition.pk)
    return {"action": "deduction_add", "deduction-seen": seen, **fields}


def swap_data(matchday: Matchday, entry_a: int, entry_b: int) -> dict[str, Any]:
    return {
        "action": "swap",
        "swap-entry_a": entry_a,
        "swap-entry_b": entry_b,
        "swap-seen": matchday_token(matchday_id=matchday.pk),
    }


# ---------------------------------------------------------------- access


def director_pages(competition: Competition) -> list[str]:
    match = Match.objects.filter(matchday__competition=competition).first()
    assert match is not None
    return [manage_url(competition), matchday_url(competition), match_url(match)]


def test_every_director_page_opens_for_a_director(director_client, league):
    for path in director_pages(league):
        assert director_client.get(path).status_code == 200, path


def test_a_competition_director_may_open_them_too(client, league):
    user = UserFactory.create()
    league.directors.add(user)
    client.force_login(user)
    for path in director_pages(league):
        assert client.get(path).status_code == 200, path


def test_a_non_director_gets_the_friendly_403_and_nothing_changes(stranger_client, league):
    for path in director_pages(league):
        response = stranger_client.get(path)
        assert response.status_code == 403
        assert "Only the directors can do this" in text(response)
    count = Matchday.objects.filter(competition=league).count()
    response = stranger_client.post(matchday_url(league), {"action": "delete", "delete-match": 1})
    assert response.status_code == 403
    assert Matchday.objects.filter(competition=league).count() == count


def test_anonymous_is_sent_to_login(client, league):
    for path in director_pages(league):
        response = client.get(path)
        assert response.status_code == 302
        assert reverse("login") in response["Location"]


@pytest.mark.parametrize(
    "path",
    [
        "/c/nope/manage/",
        "/c/league/matchday/99/manage/",
        "/c/league/match/999999/manage/",
        "/c/nope/matchday/1/print/",
        "/c/league/matchday/99/print/",
    ],
)
def test_unknown_things_are_404(director_client, league, path):
    assert director_client.get(path).status_code == 404


def test_a_match_of_another_competition_is_404(director_client, league, club_match):
    path = reverse("match_manage", kwargs={"slug": league.slug, "match_id": club_match.pk})
    assert director_client.get(path).status_code == 404


def test_an_unknown_action_is_a_422_message(director_client, league):
    for path in director_pages(league):
        response = director_client.post(path, {"action": "explode"})
        assert response.status_code == 422
        assert "That action does not exist" in text(response)


@pytest.mark.parametrize(
    "data",
    [
        {"action": "generate", "rr-days_between": "many", "rr-start": "yesterday"},
        {"action": "pair", "pair-date": "31-31-2026"},
        {"action": "deduction_add", "deduction-entry": "x", "deduction-points": "-5"},
        {"action": "deduction_add", "deduction-points": "99999999999999999999"},
        {"action": "deduction_void", "deduction": "'; drop table", "void_reason": "x"},
        {"action": "deduction_void", "deduction": "1", "void_reason": "x" * 201},
    ],
)
def test_bad_input_on_the_schedule_page_is_a_form_error_never_a_500(director_client, swiss, data):
    assert director_client.post(manage_url(swiss), data).status_code == 422


@pytest.mark.parametrize(
    "data",
    [
        {"action": "swap", "swap-entry_a": "1e9", "swap-entry_b": ""},
        {"action": "move", "move-match": "abc", "move-table": "0"},
        {"action": "move", "move-table": "100000"},
        {"action": "add", "add-home": "-1", "add-away": "x", "add-table": "t"},
        {"action": "delete", "delete-match": "9999999"},
    ],
)
def test_bad_input_on_the_matchday_page_is_a_form_error_never_a_500(director_client, league, data):
    assert director_client.post(matchday_url(league), data).status_code == 422


# ---------------------------------------------------------------- the schedule page


def test_generate_the_round_robin_in_one_action(director_client):
    competition = pairs_competition(5, schedule_format=Competition.Format.DOUBLE_ROUND_ROBIN)
    page = director_client.get(manage_url(competition))
    assert "Generate the double round robin" in text(page)
    response = director_client.post(
        manage_url(competition),
        {"action": "generate", "rr-start": "2026-09-05", "rr-days_between": "14"},
        follow=True,
    )
    assert response.status_code == 200
    assert "Round robin generated: 10 matchdays." in text(response)
    matchdays = list(competition.matchdays.order_by("number"))
    assert len(matchdays) == 10
    assert str(matchdays[1].date) == "2026-09-19"
    assert Bye.objects.filter(matchday__competition=competition).count() == 10
    assert "Generate the" not in text(response)  # the schedule exists now


def test_generating_twice_says_the_schedule_is_there_and_adds_nothing(director_client, league):
    # A double click: the browser shows the second answer, so it must not read as a failure.
    count = league.matchdays.count()
    response = director_client.post(
        manage_url(league), {"action": "generate", "rr-days_between": "7"}, follow=True
    )
    assert response.status_code == 200
    assert f"The schedule is there already ({count} matchdays)" in text(response)
    assert league.matchdays.count() == count


def test_htmx_generate_answers_with_the_schedule_partial(director_client):
    competition = pairs_competition(4, schedule_format=Competition.Format.ROUND_ROBIN)
    response = director_client.post(
        manage_url(competition), {"action": "generate", "rr-days_between": "7"}, **HTMX
    )
    assert response.status_code == 200
    html = text(response)
    assert html.lstrip().startswith('<div id="schedule"')
    assert "Round robin generated: 3 matchdays." in html


def test_pair_a_swiss_matchday_then_the_refusal_and_the_override(director_client, swiss):
    page = director_client.get(manage_url(swiss))
    assert "Pair matchday 1" in text(page)
    response = director_client.post(manage_url(swiss), pair_data(swiss), follow=True)
    assert "Matchday 1 paired." in text(response)
    assert "Pair matchday 2" in text(response)
    assert Match.objects.filter(matchday__competition=swiss).count() == 2

    # Matchday 1 is unfinished: refused, the reason field appears, nothing saved.
    refused = director_client.post(manage_url(swiss), pair_data(swiss))
    assert refused.status_code == 422
    html = text(refused)
    assert "Matchday 1 is not finished (2 open: games in play" in html
    assert 'name="pair-override_reason"' in html
    assert "Pair matchday 2 anyway" in html
    assert swiss.matchdays.count() == 1

    # With a reason it goes ahead, and the reason is kept and shown.
    response = director_client.post(
        manage_url(swiss),
        pair_data(swiss, **{"pair-override_reason": "Table 2 plays on tomorrow"}),
        follow=True,
    )
    assert "Matchday 2 paired." in text(response)
    second = swiss.matchdays.get(number=2)
    assert second.override_reason == "Table 2 plays on tomorrow"
    page = director_client.get(matchday_url(swiss, 2))
    assert "Table 2 plays on tomorrow" in text(page)


def test_pairing_after_a_finished_matchday_needs_no_reason(director_client, swiss):
    first = swiss_matchday_pair(competition_id=swiss.pk, number=next_matchday(swiss.pk))
    finish_matchday(first)
    response = director_client.post(manage_url(swiss), pair_data(swiss))
    assert response.status_code == 302
    assert swiss.matchdays.get(number=2).override_reason == ""


def test_pairing_a_round_robin_competition_is_refused(director_client, league):
    response = director_client.post(manage_url(league), pair_data(league))
    assert response.status_code == 422
    assert "not played in the Swiss system" in text(response)


def test_add_and_withdraw_a_deduction(director_client, client, league, refreshed):
    entry = league.entries.get(team__name="Kampoe")
    with refreshed():  # the standings refresh the deduction queues runs, as the worker would
        response = director_client.post(
            manage_url(league),
            deduction_data(
                league,
                **{
                    "deduction-entry": entry.pk,
                    "deduction-points": "2",
                    "deduction-reason": "Late by 30 minutes",
                },
            ),
            follow=True,
        )
    assert "2 points deducted from Kampoe." in text(response)
    deduction = Deduction.objects.get(competition=league)
    assert (deduction.entry_id, deduction.points) == (entry.pk, 2)
    response = client.get(reverse("competition_detail", kwargs={"slug": league.slug}))
    public = text(response)
    assert "Deductions and forfeits" in public
    assert "Late by 30 minutes" in public
    assert "Ded." in public
    shown = {row.record.entry_id: row.record for row in response.context["table"].rows}
    assert (shown[entry.pk].deducted, shown[entry.pk].points) == (2, -2)

    response = director_client.post(
        manage_url(league),
        {"action": "deduction_void", "deduction": deduction.pk, "void_reason": "On time after all"},
        follow=True,
    )
    assert "Deduction of 2 points from Kampoe voided." in text(response)
    deduction.refresh_from_db()
    assert deduction.voided_at is not None
    assert deduction.void_reason == "On time after all"


def test_a_deduction_without_reason_or_points_is_refused(director_client, league):
    entry = league.entries.first()
    assert entry is not None
    for points, reason in (("0", "late"), ("2", "   ")):
        response = director_client.post(
            manage_url(league),
            deduction_data(
                league,
                **{
                    "deduction-entry": entry.pk,
                    "deduction-points": points,
                    "deduction-reason": reason,
                },
            ),
        )
        assert response.status_code == 422
    assert not Deduction.objects.exists()


def test_a_deduction_of_another_competition_cannot_be_touched(director_client, league, swiss):
    other_entry = swiss.entries.first()
    assert other_entry is not None
    deduction = deduction_add(
        competition_id=swiss.pk,
        seen=deductions_token(competition_id=swiss.pk),
        entry_id=other_entry.pk,
        points=1,
        reason="late",
    )
    response = director_client.post(
        manage_url(league),
        deduction_data(
            league,
            **{
                "deduction-entry": other_entry.pk,
                "deduction-points": "1",
                "deduction-reason": "x",
            },
        ),
    )
    assert response.status_code == 422
    response = director_client.post(
        manage_url(league),
        {"action": "deduction_void", "deduction": deduction.pk, "void_reason": "x"},
    )
    assert response.status_code == 422
    deduction.refresh_from_db()
    assert deduction.voided_at is None


# ---------------------------------------------------------------- the matchday page


def test_matchday_page_shows_tables_reasons_and_the_bye(director_client, swiss):
    first = swiss_matchday_pair(competition_id=swiss.pk, number=next_matchday(swiss.pk))
    finish_matchday(first)
    swiss_matchday_pair(competition_id=swiss.pk, number=next_matchday(swiss.pk))
    html = text(director_client.get(matchday_url(swiss, 2)))
    assert "Why this pairing" in html
    # After matchday 1, an odd number of koppels have 2 points: table 1 floats one of them
    # down to a koppel with 0, table 2 pairs two with 2. The page words each, in table order.
    second = Match.objects.filter(matchday__competition=swiss, matchday__number=2)
    reasons = dict(second.values_list("table", "pairing_reason__code"))
    assert reasons == {1: "floated", 2: "same_score_group"}
    floated = "Floated between score groups: 2 and 0 points, the closest scores without a rematch."
    same = "Same score group: both have 2 points."
    assert floated in html and same in html
    assert html.index(floated) < html.index(same)
    assert "Bye" in html
    assert "lowest-placed entry without a bye yet" in html
    assert "Problems" not in html
    assert reverse("matchday_print", kwargs={"slug": swiss.slug, "number": 2}) in html


def test_swap_two_entries(director_client, league):
    matchday = league.matchdays.get(number=1)
    first, second = list(matchday.matches.order_by("table"))
    response = director_client.post(
        matchday_url(league), swap_data(matchday, first.home_id, second.home_id), follow=True
    )
    assert "swapped places" in text(response)
    pairs = {frozenset((m.home_id, m.away_id)) for m in matchday.matches.all()}
    assert frozenset((second.home_id, first.away_id)) in pairs
    assert frozenset((first.home_id, second.away_id)) in pairs
    assert "Set by hand by the director." in text(response)


def test_a_swap_after_results_is_refused_and_nothing_changes(director_client, league):
    matchday = league.matchdays.get(number=1)
    first, second = list(matchday.matches.order_by("table"))
    finish_matchday(matchday)
    response = director_client.post(
        matchday_url(league), swap_data(matchday, first.home_id, second.home_id)
    )
    assert response.status_code == 422
    assert "This match has results already" in text(response)
    assert Match.objects.filter(pk=first.pk, home_id=first.home_id).exists()


def test_swapping_an_entry_with_itself_is_refused(director_client, league):
    match = league.matchdays.get(number=1).matches.first()
    assert match is not None
    response = director_client.post(
        matchday_url(league), swap_data(match.matchday, match.home_id, match.home_id)
    )
    assert response.status_code == 422
    assert "two different entries" in text(response)


def test_move_a_match_to_another_table(director_client, league):
    first, second = list(league.matchdays.get(number=1).matches.order_by("table"))
    response = director_client.post(
        matchday_url(league), {"action": "move", "move-match": first.pk, "move-table": "2"}
    )
    assert response.status_code == 302
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.table, second.table) == (2, 1)
    assert Game.objects.get(match=first).table == 2


def test_a_table_move_to_table_zero_is_refused(director_client, league):
    match = league.matchdays.get(number=1).matches.first()
    assert match is not None
    response = director_client.post(
        matchday_url(league), {"action": "move", "move-match": match.pk, "move-table": "0"}
    )
    assert response.status_code == 422
    match.refresh_from_db()
    assert match.table == 1


def test_adding_a_match_with_an_entry_already_playing_is_refused(director_client, league):
    first, second = list(league.matchdays.get(number=1).matches.order_by("table"))
    response = director_client.post(
        matchday_url(league),
        {"action": "add", "add-home": first.home_id, "add-away": second.home_id},
    )
    assert response.status_code == 422
    assert "plays twice on this matchday" in text(response)
    assert league.matchdays.get(number=1).matches.count() == 2


def test_delete_a_match_shows_the_problem_then_add_it_back(director_client, league):
    matchday = league.matchdays.get(number=1)
    match = matchday.matches.order_by("table").last()
    assert match is not None
    home, away = match.home, match.away
    response = director_client.post(
        matchday_url(league), {"action": "delete", "delete-match": match.pk}, follow=True
    )
    html = text(response)
    assert "removed" in html
    assert "Problems" in html
    assert f"{home} neither plays nor has a bye on this matchday." in html
    assert f"{away} neither plays nor has a bye on this matchday." in html

    response = director_client.post(
        matchday_url(league),
        {"action": "add", "add-home": home.pk, "add-away": away.pk, "add-table": "5"},
        follow=True,
    )
    assert "added at table 5" in text(response)
    assert "Problems" not in text(response)
    added = matchday.matches.get(home=home)
    assert added.table == 5
    assert added.pairing_reason == {}


def test_a_match_with_results_cannot_be_deleted(director_client, league):
    matchday = league.matchdays.get(number=1)
    finish_matchday(matchday)
    match = matchday.matches.first()
    assert match is not None
    response = director_client.post(
        matchday_url(league), {"action": "delete", "delete-match": match.pk}
    )
    assert response.status_code == 422
    assert "This match has results already" in text(response)
    assert Match.objects.filter(pk=match.pk).exists()


def test_htmx_matchday_action_answers_with_the_partial(director_client, league):
    match = league.matchdays.get(number=1).matches.first()
    assert match is not None
    response = director_client.post(
        matchday_url(league), {"action": "move", "move-match": match.pk, "move-table": "7"}, **HTMX
    )
    assert response.status_code == 200
    assert text(response).lstrip().startswith('<div id="matchday"')


def test_printable_matchday_is_public_with_tables_and_a_score_grid(client, swiss):
    swiss_matchday_pair(competition_id=swiss.pk, number=next_matchday(swiss.pk))
    response = client.get(reverse("matchday_print", kwargs={"slug": swiss.slug, "number": 1}))
    assert response.status_code == 200
    html = text(response)
    assert html.count('class="print-table-number"') == 2
    assert html.count('class="score-grid"') == 2
    assert "Bye:" in html


# ---------------------------------------------------------------- club matches


def lineup_data(match: Match, home: list[Any], away: list[Any], **extra: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"action": "lineup", "lineup-seen": match_token_now(match_id=match.pk)}
    for side, teams in (("home", home), ("away", away)):
        for place, team in enumerate(teams, start=1):
            data[f"lineup-{side}_{place}"] = team.pk if team is not None else ""
    data.update(extra)
    return data


def forfeit_data(match: Match, side: str, reason: str = "") -> dict[str, Any]:
    seen = match_token_now(match_id=match.pk)
    return {
        "action": "forfeit",
        "forfeit-side": side,
        "forfeit-reason": reason,
        "forfeit-seen": seen,
    }


def test_club_lineup_makes_the_games_by_the_movement(director_client, club_match):
    home, away = koppels_of(club_match.home), koppels_of(club_match.away)
    page = text(director_client.get(match_url(club_match)))
    assert 'name="lineup-home_2"' in page
    assert home[0].name in page
    assert away[0].name not in page.split('name="lineup-home_1"')[1].split("</select>")[0]
    response = director_client.post(
        match_url(club_match), lineup_data(club_match, home[:2], away[:2]), follow=True
    )
    assert "Lineup saved: 4 games over 2 sittings." in text(response)
    games = list(club_match.games.order_by("sitting", "table"))
    assert [(g.sitting, g.table, g.team_a_id, g.team_b_id) for g in games] == [
        (1, 1, home[0].pk, away[0].pk),
        (1, 2, home[1].pk, away[1].pk),
        (2, 1, home[0].pk, away[1].pk),
        (2, 2, home[1].pk, away[0].pk),
    ]
    # The form shows the lineup again.
    page = text(director_client.get(match_url(club_match)))
    assert f'<option value="{home[1].pk}" selected>' in page


def test_a_lineup_below_the_minimum_forfeits_the_match(director_client, club_match):
    home, away = koppels_of(club_match.home), koppels_of(club_match.away)
    response = director_client.post(
        match_url(club_match), lineup_data(club_match, home[:2], [away[0], None]), follow=True
    )
    assert "The match is forfeited" in text(response)
    club_match.refresh_from_db()
    assert club_match.forfeit == "away"


def test_a_koppel_of_another_club_is_refused(director_client, club_match):
    home, away = koppels_of(club_match.home), koppels_of(club_match.away)
    response = director_client.post(
        match_url(club_match), lineup_data(club_match, [home[0], away[2]], away[:2])
    )
    assert response.status_code == 422
    assert not club_match.games.exists()


def test_a_koppel_twice_in_the_lineup_is_refused_in_words(director_client, club_match):
    home, away = koppels_of(club_match.home), koppels_of(club_match.away)
    response = director_client.post(
        match_url(club_match), lineup_data(club_match, [home[0], home[0]], away[:2])
    )
    assert response.status_code == 422
    assert "A koppel can take only one place in a match." in text(response)


def test_a_late_koppel_joins_at_its_sitting(director_client):
    competition = club_competition(late_koppel_until_sitting=2, min_koppels=1)
    schedule_round_robin_create(competition_id=competition.pk)
    match = Match.objects.get(matchday__competition=competition, matchday__number=1)
    home, away = koppels_of(match.home), koppels_of(match.away)
    page = text(director_client.get(match_url(match)))
    assert 'name="lineup-home_2_from"' in page
    data = lineup_data(match, home[:2], away[:2], **{"lineup-away_2_from": "2"})
    response = director_client.post(match_url(match), data)
    assert response.status_code == 302
    assert not match.games.filter(sitting=1, team_b=away[1]).exists()
    assert match.games.filter(sitting=2, team_b=away[1]).exists()
    page = text(director_client.get(match_url(match)))
    assert 'name="lineup-away_2_from" value="2"' in page

    data = lineup_data(match, home[:2], away[:2], **{"lineup-away_2_from": "3"})
    response = director_client.post(match_url(match), data)
    assert response.status_code == 422
    # The service's words, not the form's generic "less than or equal to".
    assert "cannot join at sitting 3: the last sitting to join is 2." in text(response)
    assert "less than or equal" not in text(response)


def test_lineups_are_for_club_matches_only(director_client, league):
    match = Match.objects.filter(matchday__competition=league).first()
    assert match is not None
    response = director_client.post(match_url(match), {"action": "lineup"})
    assert response.status_code == 422
    assert "Lineups are for club matches only." in text(response)


def test_record_and_lift_a_forfeit(director_client, client, club_match):
    response = director_client.post(
        match_url(club_match),
        forfeit_data(club_match, "home", "Did not turn up"),
        follow=True,
    )
    assert "Forfeit recorded" in text(response)
    club_match.refresh_from_db()
    assert (club_match.forfeit, club_match.forfeit_reason) == ("home", "Did not turn up")
    public = text(
        client.get(
            reverse("competition_detail", kwargs={"slug": club_match.matchday.competition.slug})
        )
    )
    assert "Did not turn up" in public
    assert "forfeit" in public

    response = director_client.post(
        match_url(club_match), forfeit_data(club_match, ""), follow=True
    )
    assert "Forfeit lifted." in text(response)
    club_match.refresh_from_db()
    assert club_match.forfeit == ""


def test_a_forfeit_without_reason_is_refused(director_client, club_match):
    response = director_client.post(match_url(club_match), forfeit_data(club_match, "away"))
    assert response.status_code == 422
    assert "Say why the match is forfeited." in text(response)
    club_match.refresh_from_db()
    assert club_match.forfeit == ""


def test_public_match_page_shows_sittings_running_score_and_the_koppel_ranking(client, club_match):
    home, away = koppels_of(club_match.home), koppels_of(club_match.away)
    club_match_lineup_set(
        match_id=club_match.pk,
        seen=match_token_now(match_id=club_match.pk),
        home_teams=[t.pk for t in home[:2]],
        away_teams=[t.pk for t in away[:2]],
    )
    totals = {(1, 1): (20, 4), (1, 2): (10, 20), (2, 1): (20, 6), (2, 2): (20, 8)}
    for game in club_match.games.all():
        a, b = totals[(game.sitting, game.table)]
        game_totals_enter(
            game_id=game.pk, seen=game_token_now(game_id=game.pk), total_a=a, total_b=b
        )
    html = text(
        client.get(
            reverse(
                "match_detail",
                kwargs={"slug": club_match.matchday.competition.slug, "match_id": club_match.pk},
            )
        )
    )
    assert "Sitting 1" in html and "Sitting 2" in html
    assert "this sitting 30–24" in html
    assert "match 30–24" in html
    assert "match 70–38" in html
    # One ranking of the koppels (scoring/_top_koppels.html), not the director's live box.
    assert "Top-scoring koppels" not in html
    ranking = html.split('class="koppel-ranking ')[1].split("</section>")[0]
    # Home koppel 1 scored 20 + 20; away koppel 2 scored 20 (sitting 1) + 6 (sitting 2).
    assert f"{home[0]}</a> ({club_match.home.club}) 40</strong>" in ranking
    (row,) = [row for row in ranking.split("<tr")[1:] if f">{away[1]}</a>" in row]
    assert 'fw-bold">26<' in row


def test_public_matchday_page_shows_tables_byes_and_club_scores(client):
    competition = pairs_competition(3, schedule_format=Competition.Format.ROUND_ROBIN)
    schedule_round_robin_create(competition_id=competition.pk)
    html = text(
        client.get(reverse("matchday_detail", kwargs={"slug": competition.slug, "number": 1}))
    )
    assert 'class="text-center fw-bold table-number">1<' in html
    assert "Bye" in html


# ---------------------------------------------------------------- confirmation


def test_confirm_a_finished_game_on_the_score_sheet(director_client, client, refreshed):
    competition = pairs_competition(
        2, confirmation_required=True, schedule_format=Competition.Format.ROUND_ROBIN
    )
    schedule_round_robin_create(competition_id=competition.pk)
    game = Game.objects.get(match__matchday__competition=competition)
    sheet = reverse("game_sheet", kwargs={"slug": competition.slug, "game_id": game.pk})
    confirm = reverse("game_confirm", kwargs={"slug": competition.slug, "game_id": game.pk})
    assert "Confirm result" not in text(director_client.get(sheet))  # still open
    refused = director_client.post(confirm, {"seen": game_token_now(game_id=game.pk)})
    assert refused.status_code == 422
    assert "Only a finished game can be confirmed." in text(refused)

    game_totals_enter(game_id=game.pk, seen=game_token_now(game_id=game.pk), total_a=20, total_b=4)
    page = text(director_client.get(sheet))
    assert "Confirm result 20–4" in page
    assert "awaiting confirmation" in page
    standings = reverse("competition_detail", kwargs={"slug": competition.slug})
    assert "1 awaiting confirmation" in text(client.get(standings))

    with refreshed():  # the standings refresh the confirmation queues, as the worker runs it
        response = director_client.post(
            confirm, {"seen": game_token_now(game_id=game.pk)}, follow=True
        )
    assert "Result confirmed" in text(response)
    assert 'class="badge text-bg-success confirmed-badge"' in text(response)
    game.refresh_from_db()
    assert game.confirmed_at is not None
    response = client.get(standings)
    assert "none awaiting confirmation" in text(response)
    shown = [
        (row.record.entry.team.name, row.record.played, row.record.points)
        for row in response.context["table"].rows
    ]
    assert shown == [("Kampoe", 1, 2), ("Toppers", 1, 0)]  # the confirmed 20–4 counts


def test_confirming_needs_a_director(stranger_client):
    competition = pairs_competition(
        2, confirmation_required=True, schedule_format=Competition.Format.ROUND_ROBIN
    )
    schedule_round_robin_create(competition_id=competition.pk)
    game = Game.objects.get(match__matchday__competition=competition)
    confirm = reverse("game_confirm", kwargs={"slug": competition.slug, "game_id": game.pk})
    assert stranger_client.post(confirm).status_code == 403
    assert stranger_client.get(confirm).status_code == 405


# ---------------------------------------------------------------- the standings page


def test_standings_show_every_tiebreak_byes_deductions_and_open_games(client, swiss):
    first = swiss_matchday_pair(competition_id=swiss.pk, number=next_matchday(swiss.pk))
    finish_matchday(first)
    swiss_matchday_pair(
        competition_id=swiss.pk, number=next_matchday(swiss.pk)
    )  # matchday 2 left open
    entry = swiss.entries.get(team__name="Kampoe")
    deduction_add(
        competition_id=swiss.pk,
        seen=deductions_token(competition_id=swiss.pk),
        entry_id=entry.pk,
        points=3,
        reason="No show",
    )
    standings_rebuild(competition_id=swiss.pk)
    html = text(client.get(reverse("competition_detail", kwargs={"slug": swiss.slug})))
    for header in ("Buchholz", "H2H", "Byes", "Ded."):
        assert f">{header}<" in html, header
    assert "Ranked on: points → saldo → Buchholz" in html
    assert "2 games still open" in html
    assert "No show" in html
    assert "−3" in html  # the deduction, with a real minus sign
    assert "+18" in html  # a 20–2 winner's saldo, signed


def test_standings_without_tiebreak_extras_show_no_extra_columns(client, league):
    finish_matchday(league.matchdays.get(number=1))
    standings_rebuild(competition_id=league.pk)
    html = text(client.get(reverse("competition_detail", kwargs={"slug": league.slug})))
    for header in ("Buchholz", "Byes", "Ded."):
        assert f">{header}<" not in html, header
    assert ">H2H<" in html  # head_to_head is in the factory's tie-breaks
    assert "Deductions and forfeits" not in html
    assert "4 games still open" in html


# ---------------------------------------------------------------- pairing reasons


@pytest.mark.parametrize(
    ("reason", "expected"),
    [
        ({"code": "same_score_group", "params": {"points": 4}}, "both have 4 points"),
        (
            {"code": "floated", "params": {"from_points": 8, "to_points": 4}},
            "Floated between score groups: 8 and 4 points",
        ),
        ({"code": "rematch_unavoidable", "params": {"times": 1}}, "met 1 times before"),
        ({"code": "manual", "params": {}}, "Set by hand"),
        ({"code": "round_robin"}, "Round robin"),
        (
            {
                "code": "bye_lowest_without_bye",
                "params": {"points": 2, "byes": 0, "passed_over": 1},
            },
            "1 lower-placed entries were passed over",
        ),
        (
            {
                "code": "bye_unavoidable_repeat",
                "params": {"points": 0, "byes": 1, "passed_over": 0},
            },
            "every entry has had 1 bye(s)",
        ),
        ({"code": "bye_unavoidable_repeat", "params": {}}, "every entry has had a bye already"),
        ({"code": "floated"}, "Floated to the closest score"),
        ({"code": "mystery"}, "mystery"),
        ({}, ""),
        (None, ""),
    ],
)
def test_pairing_reason_message(reason, expected):
    assert expected in pairing_reason_message(reason)


# ---------------------------------------------------------------- queries


def count_queries(client, path: str) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        assert client.get(path).status_code == 200
    return len(queries)


def test_manage_pages_queries_do_not_grow_with_the_schedule(
    director_client, django_assert_max_num_queries
):
    small = pairs_competition(4, slug="small", schedule_format=Competition.Format.ROUND_ROBIN)
    big = pairs_competition(8, slug="big", schedule_format=Competition.Format.DOUBLE_ROUND_ROBIN)
    for competition in (small, big):
        schedule_round_robin_create(competition_id=competition.pk)
        finish_matchday(competition.matchdays.get(number=1))
        entry = competition.entries.first()
        assert entry is not None
        deduction_add(
            competition_id=competition.pk,
            seen=deductions_token(competition_id=competition.pk),
            entry_id=entry.pk,
            points=1,
            reason="x",
        )
    for path_of in (manage_url, matchday_url):
        assert count_queries(director_client, path_of(small)) == count_queries(
            director_client, path_of(big)
        )
    # Issue 22 read two more a page: the withdrawals (marks, walk-overs) and the
    # check-in of the evening or the play-offs the page links.
    with django_assert_max_num_queries(22):
        director_client.get(manage_url(big))
    with django_assert_max_num_queries(22):
        director_client.get(matchday_url(big))


def test_club_match_page_queries_are_bounded(
    director_client, club_match, django_assert_max_num_queries
):
    home, away = koppels_of(club_match.home), koppels_of(club_match.away)
    club_match_lineup_set(
        match_id=club_match.pk,
        seen=match_token_now(match_id=club_match.pk),
        home_teams=[t.pk for t in home[:2]],
        away_teams=[t.pk for t in away[:2]],
    )
    with django_assert_max_num_queries(20):
        director_client.get(match_url(club_match))


def test_a_manual_competition_adds_matchdays_and_matches_by_hand(client):
    competition = CompetitionFactory.create(schedule_format="manual")
    home, away = TeamEntryFactory.create_batch(2, competition=competition)
    client.force_login(league_staff())
    manage = reverse("competition_manage", kwargs={"slug": competition.slug})
    assert "Add matchday 1" in client.get(manage).content.decode()

    response = client.post(
        manage, {"action": "matchday_add", "matchday-number": 1, "matchday-date": "2026-12-04"}
    )
    matchday = competition.matchdays.get()
    assert response["Location"] == reverse(
        "matchday_manage", kwargs={"slug": competition.slug, "number": 1}
    )
    assert str(matchday.date) == "2026-12-04"
    bad = client.post(
        manage, {"action": "matchday_add", "matchday-number": 2, "matchday-date": "not a date"}
    )
    assert bad.status_code == 422
    assert competition.matchdays.count() == 1


# ---------------------------------------------------------------- second tester's findings


def public_match_url(match: Match) -> str:
    slug = match.matchday.competition.slug
    return reverse("match_detail", kwargs={"slug": slug, "match_id": match.pk})


def public_matchday_url(competition: Competition, number: int = 1) -> str:
    return reverse("matchday_detail", kwargs={"slug": competition.slug, "number": number})


def squad_of(entry: Entry, teams: list[Team], season: str = "2026-2027") -> None:
    assert entry.club is not None
    squad, _created = Squad.objects.get_or_create(club=entry.club, season=season)
    for team in teams:
        for player in (team.player_1, team.player_2):
            squad_member_add(squad_id=squad.pk, player_id=player.pk)


def test_with_squads_the_lineup_form_offers_only_koppels_on_the_squad(director_client):
    competition = club_competition(squads_required=True)
    schedule_round_robin_create(competition_id=competition.pk)
    match = Match.objects.get(matchday__competition=competition, matchday__number=1)
    home, away = koppels_of(match.home), koppels_of(match.away)
    squad_of(match.home, home[:2])  # home[2] is not on the squad
    squad_of(match.away, away)
    page = text(director_client.get(match_url(match)))
    home_select = page.split('name="lineup-home_1"')[1].split("</select>")[0]
    assert f'value="{home[0].pk}"' in home_select
    assert f'value="{home[2].pk}"' not in home_select

    # Posted anyway (a stale form): the service refuses it in words.
    response = director_client.post(match_url(match), lineup_data(match, home[1:], away[:2]))
    assert response.status_code == 422
    assert not match.games.exists()


def test_the_service_refuses_an_off_squad_koppel_in_words(director_client):
    competition = club_competition(squads_required=True)
    schedule_round_robin_create(competition_id=competition.pk)
    match = Match.objects.get(matchday__competition=competition, matchday__number=1)
    home, away = koppels_of(match.home), koppels_of(match.away)
    squad_of(match.away, away)
    with pytest.raises(RuleViolation) as caught:
        club_match_lineup_set(
            match_id=match.pk,
            seen=match_token_now(match_id=match.pk),
            home_teams=[t.pk for t in home[:2]],
            away_teams=[t.pk for t in away[:2]],
        )
    words = rule_message(caught.value)
    assert str(home[0]) in words and "not on the club's squad" in words


def test_a_derived_forfeit_and_a_match_deduction_show_on_the_match_and_matchday_pages(
    director_client, client
):
    competition = club_competition()
    schedule_round_robin_create(competition_id=competition.pk)
    match = Match.objects.get(matchday__competition=competition, matchday__number=1)
    home, away = koppels_of(match.home), koppels_of(match.away)
    club_match_lineup_set(
        match_id=match.pk,
        seen=match_token_now(match_id=match.pk),
        home_teams=[t.pk for t in home[:2]],
        away_teams=[t.pk for t in away[:2]],
    )
    finish_matchday(match.matchday)  # the home side wins every game
    # Squads become required afterwards (or the data was imported): home[0] is off-squad.
    squad_of(match.home, home[1:2])
    squad_of(match.away, away[:2])
    Competition.objects.filter(pk=competition.pk).update(squads_required=True)
    deduction_add(
        competition_id=competition.pk,
        seen=deductions_token(competition_id=competition.pk),
        entry_id=match.away_id,
        points=2,
        reason="Late at the table",
        match_id=match.pk,
    )
    forfeit = f"Forfeit: {match.home} loses the match. Reason: Ineligible:"
    deduction = f"2 points deducted from {match.away}. Reason: Late at the table"
    for page in (
        client.get(public_match_url(match)),
        director_client.get(match_url(match)),
        client.get(public_matchday_url(competition)),
        director_client.get(matchday_url(competition)),
    ):
        html = text(page)
        assert forfeit in html
        assert home[0].player_1.name in html.split(forfeit)[1].split("</p>")[0]
        assert deduction in html
    # The other matchday's pages stay clean.
    assert "Forfeit:" not in text(client.get(public_matchday_url(competition, 2)))


def test_a_recorded_forfeit_shows_on_the_matchday_pages(director_client, client, club_match):
    match_forfeit_set(
        match_id=club_match.pk,
        seen=match_token_now(match_id=club_match.pk),
        side="away",
        reason="Did not turn up",
    )
    competition = club_match.matchday.competition
    line = f"Forfeit: {club_match.away} loses the match. Reason: Did not turn up"
    assert line in text(client.get(public_matchday_url(competition)))
    assert line in text(director_client.get(matchday_url(competition)))
    assert line in text(client.get(public_match_url(club_match)))


def test_fewer_koppels_than_sittings_and_who_sits_out_show_on_the_match_pages(
    director_client, client
):
    competition = club_competition(koppels_per_side=3, min_koppels=2, sittings=3)
    schedule_round_robin_create(competition_id=competition.pk)
    match = Match.objects.get(matchday__competition=competition, matchday__number=1)
    home, away = koppels_of(match.home), koppels_of(match.away)
    response = director_client.post(
        match_url(match),
        lineup_data(match, [home[0], None, home[1]], [None, *away[:2]]),
        follow=True,
    )
    html = text(response)
    assert "Lineup saved: 4 games over 2 sittings." in html
    assert "2 sittings instead of 3: only 2 koppels a side." in html
    assert "Sits out:" not in html
    assert "Sitting 3" not in html
    assert "2 sittings instead of 3: only 2 koppels a side." in text(
        client.get(public_match_url(match))
    )
    # The form shows the lineup as stored: koppels moved to the front places.
    assert f'<option value="{home[1].pk}" selected>' in html.split('name="lineup-home_2"')[1]

    # 3 against 2: the home koppel facing the empty place sits out, and scores nothing.
    response = director_client.post(
        match_url(match), lineup_data(match, home[:3], [away[0], away[1], None]), follow=True
    )
    html = text(response)
    assert "Lineup saved: 6 games over 3 sittings." in html
    public = text(client.get(public_match_url(match)))
    for page in (html, public):
        assert "sits out that sitting and scores nothing" in page
        sittings = page.split('class="sitting mt-3"')[1:]
        assert [s.split('class="small mb-0 sits-out">')[1].split("</p>")[0] for s in sittings] == [
            f"Sits out: {home[2]}",
            f"Sits out: {home[1]}",
            f"Sits out: {home[0]}",
        ]


def test_the_lineup_form_reads_the_stored_lineup_then_the_games():
    competition = club_competition(late_koppel_until_sitting=2, min_koppels=1)
    schedule_round_robin_create(competition_id=competition.pk)
    match = Match.objects.get(matchday__competition=competition, matchday__number=1)
    home, away = koppels_of(match.home), koppels_of(match.away)
    club_match_lineup_set(
        match_id=match.pk,
        seen=match_token_now(match_id=match.pk),
        home_teams=[home[0].pk, None],
        away_teams=[away[0].pk, away[1].pk],
        late={away[1].pk: 2},
    )
    match.refresh_from_db()
    # Stored: read as is, also before any game is loaded.
    assert lineup_initial(match, [], 2) == {
        "home_1": home[0].pk,
        "away_1": away[0].pk,
        "away_2": away[1].pk,
        "away_2_from": 2,
    }
    # Imported data has no stored lineup: read back from the games.
    match.lineup = {}
    games = list(match.games.order_by("sitting", "table"))
    assert lineup_initial(match, games, 2)["home_1"] == home[0].pk


def test_the_directors_live_top_koppels_wait_for_the_first_points(
    client, director_client, club_match
):
    """The director's match page shows the top-scoring koppels with the games in play; the
    public page only the koppel ranking of finished games, so it never shows a score that
    may still change."""
    home, away = koppels_of(club_match.home), koppels_of(club_match.away)
    club_match_lineup_set(
        match_id=club_match.pk,
        seen=match_token_now(match_id=club_match.pk),
        home_teams=[t.pk for t in home[:2]],
        away_teams=[t.pk for t in away[:2]],
    )
    assert "Top-scoring koppels" not in text(director_client.get(match_url(club_match)))
    game = club_match.games.get(sitting=1, table=1)
    record(game, result="gewone_winst", side="b")
    assert "Top-scoring koppels" in text(director_client.get(match_url(club_match)))
    public = text(client.get(public_match_url(club_match)))
    assert "Top-scoring koppels" not in public
    assert "koppel-ranking" not in public  # the game is still in play


def test_moving_a_match_to_its_own_table_changes_nothing(director_client, league):
    # Also what a move sent twice finds: said as news, not as an error.
    first, second = list(league.matchdays.get(number=1).matches.order_by("table"))
    response = director_client.post(
        matchday_url(league),
        {"action": "move", "move-match": first.pk, "move-table": "1"},
        follow=True,
    )
    assert response.status_code == 200
    assert "Match already at table 1." in text(response)
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.table, second.table) == (1, 2)


def test_printable_matchday_has_24_rounds_and_finished_scores(client, league):
    finish_matchday(league.matchdays.get(number=1))
    html = text(client.get(reverse("matchday_print", kwargs={"slug": league.slug, "number": 1})))
    assert "<tr><td>24</td>" in html
    assert "<tr><td>25</td>" not in html
    scores = [cell.split("</td>")[0] for cell in html.split('class="print-vs">')[1:]]
    assert scores == ["20–2", "20–4"]
    html = text(client.get(reverse("matchday_print", kwargs={"slug": league.slug, "number": 2})))
    assert [cell.split("</td>")[0] for cell in html.split('class="print-vs">')[1:]] == ["–", "–"]


def test_rematches_and_second_byes_are_problems_with_a_warning(director_client):
    competition = pairs_competition(3, schedule_format=Competition.Format.ROUND_ROBIN)
    schedule_round_robin_create(competition_id=competition.pk)
    first, second = (competition.matchdays.get(number=n) for n in (1, 2))
    bye_1 = Bye.objects.get(matchday=first).entry
    bye_2 = Bye.objects.get(matchday=second).entry
    assert "Problems" not in text(director_client.get(matchday_url(competition, 2)))

    # On matchday 2 the entry that had matchday 1's bye trades places with the bye.
    response = director_client.post(
        matchday_url(competition, 2),
        swap_data(second, bye_1.pk, bye_2.pk),
        follow=True,
    )
    html = text(response)
    assert "swapped places" in html
    rematch = Match.objects.get(matchday=second)
    warning = f"{rematch} is a rematch: they met on matchday 1."
    assert warning in html  # the warning message
    assert f'<li class="rematch">{warning}</li>' in html  # and the problems box
    assert f"{bye_1} gets a second bye: they had one on matchday 1." in html
    assert 'class="repeat-bye"' in html
    # Nothing new on the next visit: the box stays, the warnings are gone.
    html = text(director_client.get(matchday_url(competition, 2)))
    assert html.count(warning) == 1


def test_an_added_rematch_warns(director_client):
    competition = CompetitionFactory.create(schedule_format="manual")
    home, away = TeamEntryFactory.create_batch(2, competition=competition)
    first = matchday_create(competition_id=competition.pk, number=next_matchday(competition.pk))
    match_create(matchday_id=first.pk, home_id=home.pk, away_id=away.pk)
    matchday_create(competition_id=competition.pk, number=next_matchday(competition.pk))
    response = director_client.post(
        matchday_url(competition, 2),
        {"action": "add", "add-home": away.pk, "add-away": home.pk},
        follow=True,
    )
    html = text(response)
    assert "added at table 1" in html
    assert "is a rematch: they met on matchday 1." in html
    assert html.count("is a rematch: they met on matchday 1.") == 2  # message and box


def test_a_double_round_robin_return_leg_is_no_rematch_problem(director_client):
    competition = pairs_competition(4, slug="double", schedule_format="double_round_robin")
    schedule_round_robin_create(competition_id=competition.pk)
    last = competition.matchdays.order_by("-number").first()
    assert last is not None
    assert "is a rematch" not in text(director_client.get(matchday_url(competition, last.number)))
