"""Two entries swapped on a matchday keep the rows the swap doesn't change (issue 19, item
1): the matches and the bye are updated in place (their ids, tables and history stay),
games follow their koppels, and the other matches' games keep their rows and table links.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Game
from scoring.rules import RuleViolation
from scoring.services.lineups import club_match_lineup_set
from scoring.services.matches import bye_add, matchday_entries_swap
from scoring.services.schedule import schedule_round_robin_create
from scoring.services.table import game_links_ensure
from tests.builders import club_competition, koppels_of, pairs_competition
from tests.scoring.services.test_games_kept import history_rows
from tests.seen import deductions_token, match_token_now, matchday_token
from tournaments.models import Bye, Entry, Match, Matchday
from tournaments.services.deductions import deduction_add

pytestmark = pytest.mark.django_db


def swap(matchday: Matchday, entry_a: int, entry_b: int) -> None:
    matchday_entries_swap(
        matchday_id=matchday.pk,
        seen=matchday_token(matchday_id=matchday.pk),
        entry_a_id=entry_a,
        entry_b_id=entry_b,
    )


def round_robin_matchday(competition_koppels: int) -> Matchday:
    competition = pairs_competition(competition_koppels, schedule_format="round_robin")
    schedule_round_robin_create(competition_id=competition.pk)
    return competition.matchdays.get(number=1)


def link_tokens(matchday: Matchday) -> dict[int, list[str]]:
    """Both koppels' table link tokens of each game of `matchday` (made where missing), by
    game id."""
    games = list(Game.objects.filter(match__matchday=matchday).values_list("pk", flat=True))
    links = game_links_ensure(game_ids=games)
    return {game: [links[game][side].token for side in "ab"] for game in games}


def table_status(client: Client, token: str) -> int:
    return client.get(reverse("table_sheet", kwargs={"token": token})).status_code


def koppels_follow(match: Match) -> None:
    match = Match.objects.select_related("home", "away").get(pk=match.pk)
    game = match.games.get()
    assert (game.team_a_id, game.team_b_id, game.table) == (
        match.home.team_id,
        match.away.team_id,
        match.table,
    )


def test_a_swap_between_two_matches_keeps_the_matches_and_the_other_games(client):
    matchday = round_robin_matchday(6)
    one, two, three = matchday.matches.order_by("table")
    before = link_tokens(matchday)
    untouched = three.games.get()
    rows = history_rows()

    swap(matchday, one.home_id, two.away_id)

    assert sorted(matchday.matches.values_list("pk", flat=True)) == sorted(
        [one.pk, two.pk, three.pk]
    )
    one_now, two_now = Match.objects.get(pk=one.pk), Match.objects.get(pk=two.pk)
    assert (one_now.home_id, one_now.away_id, one_now.table) == (two.away_id, one.away_id, 1)
    assert (two_now.home_id, two_now.away_id, two_now.table) == (two.home_id, one.home_id, 2)
    assert one_now.pairing_reason == {"code": "manual", "params": {}}
    for match in (one, two):
        koppels_follow(match)
    # The untouched match's game keeps its row and its printed codes; the swapped ones'
    # old games went with theirs (they were the koppels that left).
    assert three.games.get().pk == untouched.pk
    assert {table_status(client, token) for token in before[untouched.pk]} == {200}
    gone = [token for game, pair in before.items() if game != untouched.pk for token in pair]
    assert {table_status(client, token) for token in gone} == {404}
    # Two matches changed, two games gone and two made: 6 rows (it was 8, the matches made
    # anew), and each match's history goes on.
    assert history_rows() - rows == 6
    assert [row.history_type for row in one_now.history.order_by("history_id")] == ["+", "~"]


def test_a_swap_with_the_bye_keeps_the_match_and_the_bye(client):
    matchday = round_robin_matchday(5)
    bye = matchday.byes.get()
    match, other = matchday.matches.order_by("table")
    before = link_tokens(matchday)
    rows = history_rows()

    swap(matchday, match.home_id, bye.entry_id)

    assert list(matchday.byes.values_list("pk", "entry_id")) == [(bye.pk, match.home_id)]
    assert Match.objects.get(pk=match.pk).home_id == bye.entry_id
    koppels_follow(match)
    assert other.games.get().pk in before
    assert {table_status(client, t) for t in before[other.games.get().pk]} == {200}
    assert history_rows() - rows == 4  # the match, the bye, its game gone and made


def test_a_club_swap_keeps_the_matches_and_clears_their_lineups():
    competition = club_competition(4, koppels_per_side=3, min_koppels=3, sittings=3)
    schedule_round_robin_create(competition_id=competition.pk)
    matchday = competition.matchdays.get(number=1)
    one, two = matchday.matches.order_by("table")
    for match in (one, two):
        club_match_lineup_set(
            match_id=match.pk,
            home_teams=[team.pk for team in koppels_of(match.home)],
            away_teams=[team.pk for team in koppels_of(match.away)],
            seen=match_token_now(match_id=match.pk),
        )
    rows = history_rows()

    swap(matchday, one.home_id, two.away_id)

    # Every game had a koppel of a club that left: none stays, and the lineups (the old
    # clubs' koppels) are the director's to set again.
    assert sorted(matchday.matches.values_list("pk", flat=True)) == sorted([one.pk, two.pk])
    assert list(matchday.matches.values_list("lineup", flat=True)) == [{}, {}]
    assert not Game.objects.filter(match__in=[one, two]).exists()
    assert history_rows() - rows == 18 + 2


def test_a_swap_of_a_match_with_a_deduction_on_it_is_refused_in_words():
    matchday = round_robin_matchday(4)
    one, two = matchday.matches.order_by("table")
    competition = matchday.competition
    deduction_add(
        competition_id=competition.pk,
        entry_id=one.home_id,
        points=1,
        reason="Late",
        match_id=one.pk,
        seen=deductions_token(competition_id=competition.pk),
    )
    with pytest.raises(RuleViolation) as caught:
        swap(matchday, one.home_id, two.home_id)
    assert caught.value.code == "match_has_results"
    assert Match.objects.get(pk=one.pk).home_id == one.home_id


def test_two_entries_that_both_have_the_bye_swap_nothing():
    matchday = round_robin_matchday(5)
    bye = matchday.byes.get()
    match = matchday.matches.order_by("table").first()
    assert match is not None
    game = match.games.get()
    Game.objects.filter(pk=game.pk).delete()
    Match.objects.filter(pk=match.pk).delete()
    second = bye_add(matchday_id=matchday.pk, entry_id=match.home_id)
    rows = history_rows()

    swap(matchday, bye.entry_id, second.entry_id)

    assert history_rows() == rows
    assert sorted(Bye.objects.filter(matchday=matchday).values_list("pk", "entry_id")) == sorted(
        [(bye.pk, bye.entry_id), (second.pk, second.entry_id)]
    )


def test_no_parking_matchday_is_left_behind():
    matchday = round_robin_matchday(4)
    one, two = matchday.matches.order_by("table")
    swap(matchday, one.home_id, two.home_id)
    assert list(
        Matchday.objects.filter(competition=matchday.competition)
        .values_list("number", flat=True)
        .order_by("number")
    ) == [1, 2, 3]
    assert Entry.objects.filter(competition=matchday.competition).count() == 4
