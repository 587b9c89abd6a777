"""Schedules, Swiss pairings and manual edits through the services (issue 3)."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from scoring.models import Game, Standing
from scoring.rules import RuleViolation
from scoring.services.games import game_totals_enter
from scoring.services.matches import match_create, match_table_move, matchday_entries_swap
from scoring.services.schedule import schedule_round_robin_create, swiss_matchday_pair
from scoring.services.standings import standings_rebuild
from tests.builders import pairs_competition
from tests.seen import game_token_now, matchday_token, next_matchday
from tournaments.models import Bye, Competition, Match, Matchday

pytestmark = pytest.mark.django_db


def meetings(competition: Competition) -> Counter[frozenset[int]]:
    return Counter(
        frozenset(pair)
        for pair in Match.objects.filter(matchday__competition=competition).values_list(
            "home_id", "away_id"
        )
    )


def play_matchday(matchday: Matchday, *, seed: int = 0) -> None:
    """Enter a plausible result for every game: the home koppel wins on odd tables."""
    for game in Game.objects.filter(match__matchday=matchday):
        high, low = 20, ((game.table + seed) % 9) * 2  # 0–16, all reachable totals
        a, b = (high, low) if (game.table + seed) % 2 else (low, high)
        game_totals_enter(
            game_id=game.pk, seen=game_token_now(game_id=game.pk), total_a=a, total_b=b
        )


@pytest.mark.parametrize("count", [2, 5, 8])
def test_round_robin_meets_everyone_once_with_byes_when_odd(count):
    competition = pairs_competition(count, schedule_format="round_robin")
    matchdays = schedule_round_robin_create(competition_id=competition.pk)

    assert len(matchdays) == (count if count % 2 else count - 1)
    pairs = meetings(competition)
    assert set(pairs.values()) == {1}
    assert len(pairs) == count * (count - 1) // 2
    byes = Counter(
        Bye.objects.filter(matchday__competition=competition).values_list("entry", flat=True)
    )
    assert list(byes.values()) == ([1] * count if count % 2 else [])
    # Pairs competitions get one game per match, at the match's table.
    assert Game.objects.filter(match__matchday__competition=competition).count() == len(pairs)
    for match in Match.objects.filter(matchday__competition=competition):
        assert list(match.games.values_list("table", flat=True)) == [match.table]


def test_double_round_robin_swaps_home_and_away():
    competition = pairs_competition(4, schedule_format="double_round_robin")
    schedule_round_robin_create(competition_id=competition.pk)
    directed = Counter(
        Match.objects.filter(matchday__competition=competition).values_list("home_id", "away_id")
    )
    assert set(directed.values()) == {1}
    assert all((away, home) in directed for home, away in directed)


def test_a_second_schedule_is_refused():
    competition = pairs_competition(4, schedule_format="round_robin")
    schedule_round_robin_create(competition_id=competition.pk)
    with pytest.raises(RuleViolation) as caught:
        schedule_round_robin_create(competition_id=competition.pk)
    assert caught.value.code == "schedule_exists"


def test_a_bye_counts_as_the_competition_says():
    competition = pairs_competition(
        3, schedule_format="round_robin", bye_score_for=20, bye_score_against=0
    )
    schedule_round_robin_create(competition_id=competition.pk)
    # A bye counts once its matchday is played (issue 6): play every matchday, each match
    # lost by both sides (0 points, 0 game points), so only the byes score.
    Match.objects.filter(matchday__competition=competition).update(
        forfeit="both", forfeit_reason="nobody came"
    )
    standings_rebuild(competition_id=competition.pk)
    for row in Standing.objects.filter(competition=competition):
        assert (row.byes, row.won, row.points, row.points_for) == (1, 1, 2, 20)


def test_swiss_twelve_koppels_five_matchdays_no_rematch():
    competition = pairs_competition(12, schedule_format="swiss")
    for number in range(1, 6):
        matchday = swiss_matchday_pair(
            competition_id=competition.pk, number=next_matchday(competition.pk)
        )
        assert matchday.number == number
        assert matchday.matches.count() == 6
        assert all(match.pairing_reason.get("code") for match in matchday.matches.all())
        play_matchday(matchday, seed=number)
    assert set(meetings(competition).values()) == {1}


def test_swiss_odd_field_gives_each_bye_to_a_different_entry():
    competition = pairs_competition(7, schedule_format="swiss")
    for number in range(1, 6):
        matchday = swiss_matchday_pair(
            competition_id=competition.pk, number=next_matchday(competition.pk)
        )
        play_matchday(matchday, seed=number)
    byes = Counter(
        Bye.objects.filter(matchday__competition=competition).values_list("entry", flat=True)
    )
    assert sum(byes.values()) == 5
    assert set(byes.values()) == {1}


def test_swiss_refuses_while_the_previous_matchday_is_unfinished_unless_overridden():
    competition = pairs_competition(4, schedule_format="swiss")
    swiss_matchday_pair(competition_id=competition.pk, number=next_matchday(competition.pk))
    with pytest.raises(RuleViolation) as caught:
        swiss_matchday_pair(competition_id=competition.pk, number=next_matchday(competition.pk))
    assert caught.value.code == "previous_matchday_unfinished"
    assert caught.value.params == {"number": 1, "open": 2}

    second = swiss_matchday_pair(
        competition_id=competition.pk,
        number=next_matchday(competition.pk),
        override_reason="  Table 2 left early  ",
    )
    assert second.override_reason == "Table 2 left early"


def test_swiss_pairs_only_swiss_competitions():
    competition = pairs_competition(4, schedule_format="round_robin")
    with pytest.raises(RuleViolation) as caught:
        swiss_matchday_pair(competition_id=competition.pk, number=next_matchday(competition.pk))
    assert caught.value.code == "not_swiss"


def test_manual_match_refuses_an_entry_that_already_plays():
    competition = pairs_competition(4)
    a, b, c, d = competition.entries.order_by("pk")
    matchday = Matchday.objects.create(competition=competition, number=1)
    match_create(matchday_id=matchday.pk, home_id=a.pk, away_id=b.pk)
    with pytest.raises(RuleViolation) as caught:
        match_create(matchday_id=matchday.pk, home_id=c.pk, away_id=a.pk)
    assert caught.value.code == "entry_twice_on_matchday"
    with pytest.raises(RuleViolation) as caught:
        match_create(matchday_id=matchday.pk, home_id=c.pk, away_id=d.pk, table=1)
    assert (caught.value.code, caught.value.params) == ("table_taken", {"table": 1})
    second = match_create(matchday_id=matchday.pk, home_id=c.pk, away_id=d.pk)
    assert second.table == 2


@pytest.mark.parametrize("sides", list(itertools.product(["home", "away"], repeat=2)))
def test_swapping_two_entries_between_matches(sides):
    competition = pairs_competition(4)
    a, b, c, d = competition.entries.order_by("pk")
    matchday = Matchday.objects.create(competition=competition, number=1)
    match_create(matchday_id=matchday.pk, home_id=a.pk, away_id=b.pk)
    match_create(matchday_id=matchday.pk, home_id=c.pk, away_id=d.pk)
    first = a if sides[0] == "home" else b
    second = c if sides[1] == "home" else d

    matchday_entries_swap(
        matchday_id=matchday.pk,
        seen=matchday_token(matchday_id=matchday.pk),
        entry_a_id=first.pk,
        entry_b_id=second.pk,
    )

    pairs = {frozenset(p) for p in matchday.matches.values_list("home_id", "away_id")}
    others = {a.pk, b.pk, c.pk, d.pk}
    expected_first = frozenset({second.pk} | ({a.pk, b.pk} - {first.pk}))
    assert expected_first in pairs and frozenset(others - expected_first) in pairs
    # Games follow: each match's one game plays its two koppels.
    for match in matchday.matches.select_related("home", "away"):
        game = match.games.get()
        assert {game.team_a_id, game.team_b_id} == {match.home.team_id, match.away.team_id}


def test_swapping_with_the_bye_and_refusing_after_results():
    competition = pairs_competition(3, schedule_format="round_robin")
    schedule_round_robin_create(competition_id=competition.pk)
    matchday = competition.matchdays.get(number=1)
    bye = matchday.byes.get()
    match = matchday.matches.get()
    matchday_entries_swap(
        matchday_id=matchday.pk,
        seen=matchday_token(matchday_id=matchday.pk),
        entry_a_id=bye.entry_id,
        entry_b_id=match.home_id,
    )
    bye.refresh_from_db()
    assert bye.entry_id == match.home_id

    play_matchday(matchday)
    new_match = matchday.matches.get()
    with pytest.raises(RuleViolation) as caught:
        matchday_entries_swap(
            matchday_id=matchday.pk,
            seen=matchday_token(matchday_id=matchday.pk),
            entry_a_id=bye.entry_id,
            entry_b_id=new_match.home_id,
        )
    assert caught.value.code == "match_has_results"


def test_moving_a_match_to_a_used_table_swaps_the_tables():
    competition = pairs_competition(4, schedule_format="round_robin")
    schedule_round_robin_create(competition_id=competition.pk)
    one, two = Match.objects.filter(matchday__number=1, matchday__competition=competition).order_by(
        "table"
    )
    match_table_move(match_id=one.pk, table=2)
    one.refresh_from_db()
    two.refresh_from_db()
    assert (one.table, two.table) == (2, 1)
    assert one.games.get().table == 2 and two.games.get().table == 1


def test_swiss_counts_an_entry_left_out_of_the_last_matchday_as_unfinished():
    competition = pairs_competition(4, schedule_format="swiss")
    matchday = swiss_matchday_pair(
        competition_id=competition.pk, number=next_matchday(competition.pk)
    )
    play_matchday(matchday)
    # The director removes a finished match's entries by hand: two entries are left out.
    match = matchday.matches.first()
    assert match is not None
    Game.objects.filter(match=match).delete()
    match.delete()
    with pytest.raises(RuleViolation) as caught:
        swiss_matchday_pair(competition_id=competition.pk, number=next_matchday(competition.pk))
    assert caught.value.params == {"number": 1, "open": 2}
