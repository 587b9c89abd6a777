"""`manage.py check_results [SLUG ...]` lists every stored fault (issue 6 "One pairing, one
result": "Add `manage.py check_results` listing any stored violation").

Each fault is stored with the database's triggers dropped (`tests.triggers`), as data from
before them, or from a path around them, would be; `competition_result_problems` must find
it at its place, and the command must say so and exit with status 1.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db.models import F

from interchange.importer import competition_import
from scoring.models import Game, Round, Standing
from scoring.selectors.faults import competition_result_problems
from scoring.services.matches import match_create
from scoring.services.rounds import RoundRecord, game_rounds_load
from scoring.services.standings import standings_rebuild
from tests.builders import pairs_matchday
from tests.factories import (
    ClubEntryFactory,
    ClubFactory,
    CompetitionFactory,
    MatchdayFactory,
    PlayerFactory,
    TeamEntryFactory,
    TeamFactory,
)
from tests.paths import DATA
from tests.triggers import triggers_dropped
from tournaments.models import Bye, Competition, Entry, Match, Player

pytestmark = pytest.mark.django_db

Expected = list[tuple[str, str]]  # (place, code)


def at(match: Match, *more: str) -> str:
    return ", ".join([f"matchday 1, match {match.home.key}-{match.away.key}", *more])


def kaps(game: Game, count: int) -> None:
    game_rounds_load(game_id=game.pk, rounds=[RoundRecord("kap", "a")] * count)


# ------------------------------------------------------------------ one builder per fault


def same_pairing_reversed() -> tuple[Competition, Expected]:
    # ../shared/cases/c01-same-pairing-twice.json as stored before the triggers
    competition, matchday, (a, b, _c) = pairs_matchday(3)
    Match.objects.create(matchday=matchday, home=a, away=b, table=2, total_home=25, total_away=16)
    with triggers_dropped():
        again = Match.objects.create(
            matchday=matchday, home=b, away=a, table=3, total_home=16, total_away=25
        )
    return competition, [
        (at(again), "entry_twice_on_matchday"),
        (at(again), "entry_twice_on_matchday"),
    ]


def match_and_bye() -> tuple[Competition, Expected]:
    competition, matchday, (a, b, _c) = pairs_matchday(3)
    Match.objects.create(matchday=matchday, home=a, away=b, total_home=20, total_away=4)
    with triggers_dropped():
        Bye.objects.create(matchday=matchday, entry=a)
    return competition, [(f"matchday 1, bye {a.key}", "entry_twice_on_matchday")]


def entry_of_another_competition() -> tuple[Competition, Expected]:
    competition, matchday, (a, _b, _c) = pairs_matchday(3)
    other = TeamEntryFactory.create()
    with triggers_dropped():
        Match.objects.create(matchday=matchday, home=a, away=other, total_home=20, total_away=4)
    place = f"matchday 1, match {a.key}-{other.key} ({other.competition.slug})"
    return competition, [(place, "entry_other_competition")]


def two_games_in_a_pairs_match() -> tuple[Competition, Expected]:
    competition, matchday, (a, b, _c) = pairs_matchday(3)
    match = match_create(matchday_id=matchday.pk, home_id=a.pk, away_id=b.pk)
    assert a.team is not None and b.team is not None
    with triggers_dropped():
        Game.objects.create(match=match, table=2, team_a=a.team, team_b=b.team)
    return competition, [
        (at(match, "game table 2"), "pairs_match_one_game"),
        (at(match, "game table 2"), "koppel_twice_in_sitting"),
        (at(match, "game table 2"), "koppel_twice_in_sitting"),
    ]


def pairs_match_without_game() -> tuple[Competition, Expected]:
    competition, matchday, (a, b, _c) = pairs_matchday(3)
    match = Match.objects.create(matchday=matchday, home=a, away=b)
    return competition, [(at(match), "pairs_match_no_game")]


def game_of_other_koppels() -> tuple[Competition, Expected]:
    competition, matchday, (a, b, c) = pairs_matchday(3)
    match = match_create(matchday_id=matchday.pk, home_id=a.pk, away_id=b.pk)
    with triggers_dropped():
        Game.objects.filter(match=match).update(team_b=c.team)
    return competition, [(at(match, "game table 1"), "game_koppels_not_of_match")]


def koppel_at_two_tables_in_a_sitting() -> tuple[Competition, Expected]:
    competition = CompetitionFactory.create(kind=Competition.Kind.CLUBS)
    home = ClubEntryFactory.create(competition=competition, club=ClubFactory.create())
    away = ClubEntryFactory.create(competition=competition, club=ClubFactory.create())
    k1, t1, t2 = (
        TeamFactory.create(
            player_1=PlayerFactory.create(club=club), player_2=PlayerFactory.create(club=club)
        )
        for club in (home.club, away.club, away.club)
    )
    matchday = MatchdayFactory.create(competition=competition, number=1)
    match = Match.objects.create(matchday=matchday, home=home, away=away)
    Game.objects.create(match=match, table=1, team_a=k1, team_b=t1)
    with triggers_dropped():
        Game.objects.create(match=match, table=2, team_a=k1, team_b=t2)
    return competition, [(at(match, "game table 2"), "koppel_twice_in_sitting")]


def score_not_from_the_rounds() -> tuple[Competition, Expected]:
    competition, matchday, (a, b, _c) = pairs_matchday(3)
    match = match_create(matchday_id=matchday.pk, home_id=a.pk, away_id=b.pk)
    game = match.games.get()
    kaps(game, 2)
    Game.objects.filter(pk=game.pk).update(score_a=12, kaps_b=1)
    return competition, [
        (at(match, "game table 1"), "game_score_differs"),
        (at(match, "game table 1"), "game_score_differs"),
    ]


def round_points_not_from_the_engine() -> tuple[Competition, Expected]:
    competition, matchday, (a, b, _c) = pairs_matchday(3)
    match = match_create(matchday_id=matchday.pk, home_id=a.pk, away_id=b.pk)
    game = match.games.get()
    kaps(game, 2)
    Round.objects.filter(game=game, number=2).update(points_a=2)
    return competition, [(at(match, "game table 1", "round 2"), "game_score_differs")]


def reported_totals_and_rounds() -> tuple[Competition, Expected]:
    competition, matchday, (a, b, _c) = pairs_matchday(3)
    match = match_create(matchday_id=matchday.pk, home_id=a.pk, away_id=b.pk)
    kaps(match.games.get(), 1)
    Match.objects.filter(pk=match.pk).update(total_home=20, total_away=0)
    return competition, [(at(match), "match_totals_and_rounds")]


def standings_changed_by_hand() -> tuple[Competition, Expected]:
    competition, _matchday, (a, _b, _c) = pairs_matchday(3)
    standings_rebuild(competition_id=competition.pk)
    Standing.objects.filter(entry=a).update(points=F("points") + 2)
    return competition, [("standings", "standings_row_differs")]


def standings_row_missing() -> tuple[Competition, Expected]:
    competition, _matchday, (a, _b, _c) = pairs_matchday(3)
    standings_rebuild(competition_id=competition.pk)
    Standing.objects.filter(entry=a).delete()
    return competition, [("standings", "standings_row_missing")]


def player_in_two_entries_of_a_matchday() -> tuple[Competition, Expected]:
    # No trigger covers players (the services, admin and importer check them): a plain
    # save stores the fault. Sharda is in both koppels of one match; Roy plays two matches.
    competition, matchday, (other,) = pairs_matchday(1)
    sharda, shanti, roy, reshma = PlayerFactory.create_batch(4)

    def koppel(first: Player, second: Player) -> Entry:
        team = TeamFactory.create(player_1=first, player_2=second)
        return TeamEntryFactory.create(competition=competition, team=team)

    sharda_roy, shanti_sharda, roy_reshma = (
        koppel(sharda, roy),
        koppel(shanti, sharda),
        koppel(roy, reshma),
    )
    both = Match.objects.create(
        matchday=matchday, home=sharda_roy, away=shanti_sharda, total_home=20, total_away=4
    )
    again = Match.objects.create(
        matchday=matchday, home=roy_reshma, away=other, total_home=20, total_away=4
    )
    return competition, [
        (at(both), "match_entries_share_player"),
        (at(again), "player_twice_on_matchday"),
    ]


BUILDERS: list[Callable[[], tuple[Competition, Expected]]] = [
    same_pairing_reversed,
    player_in_two_entries_of_a_matchday,
    match_and_bye,
    entry_of_another_competition,
    two_games_in_a_pairs_match,
    pairs_match_without_game,
    game_of_other_koppels,
    koppel_at_two_tables_in_a_sitting,
    score_not_from_the_rounds,
    round_points_not_from_the_engine,
    reported_totals_and_rounds,
    standings_changed_by_hand,
    standings_row_missing,
]
STANDINGS_FAULTS = (standings_changed_by_hand, standings_row_missing)


def build(builder: Callable[[], tuple[Competition, Expected]]) -> tuple[Competition, Expected]:
    competition, expected = builder()
    if builder not in STANDINGS_FAULTS:
        # The stored standings are what a rebuild makes of the faulty data: only the fault
        # under test is left to find.
        standings_rebuild(competition_id=competition.pk)
    return competition, expected


@pytest.mark.parametrize("builder", BUILDERS, ids=lambda b: b.__name__)
def test_each_stored_fault_is_found_at_its_place(builder):
    competition, expected = build(builder)
    found = competition_result_problems(competition=competition)
    assert [(problem.place, problem.violation.code) for problem in found] == expected


@pytest.mark.parametrize("builder", BUILDERS, ids=lambda b: b.__name__)
def test_the_command_lists_the_fault_and_exits_with_status_1(builder):
    competition, expected = build(builder)
    out = StringIO()
    with pytest.raises(CommandError) as caught:
        call_command("check_results", competition.slug, stdout=out)
    assert caught.value.returncode == 1
    assert str(caught.value) == f"{len(expected)} problems found in 1 competitions."
    lines = out.getvalue().splitlines()
    assert len(lines) == len(expected)
    for line, (place, _code) in zip(lines, expected, strict=True):
        assert line.startswith(f"{competition.slug}: {place}: ")
        assert "%(" not in line and "Not allowed by the rules" not in line


def test_the_lines_say_who_and_where_in_words():
    competition, _expected = build(same_pairing_reversed)
    a, b = (entry.key for entry in competition.entries.order_by("pk")[:2])
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("check_results", competition.slug, stdout=out)
    assert (
        f"{b} plays twice on this matchday: in match {a} – {b} and in match {b} – {a}. "
        "An entry plays at most once a matchday, a bye included."
    ) in out.getvalue()

    competition, _expected = build(score_not_from_the_rounds)
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("check_results", competition.slug, stdout=out)
    assert "The stored score A is 12, but replaying the game's rounds gives 10." in out.getvalue()


def test_the_standings_leave_out_a_match_against_an_entry_of_another_competition():
    # It froze the standings before (compute_standings refused the unknown entry): now the
    # rebuild goes on without it, and check_results names it.
    competition, _expected = build(entry_of_another_competition)
    rows = {row.entry_id: row for row in Standing.objects.filter(competition=competition)}
    assert len(rows) == 3
    assert {row.played for row in rows.values()} == {0}


def test_data_files_have_no_problems():
    for name in ("club-evening-sample.json", "stcb-2019-08-24.json"):
        competition_import(data=json.loads((DATA / name).read_text(encoding="utf-8")))
    out = StringIO()
    call_command("check_results", stdout=out)
    assert out.getvalue().strip() == "No problems found in 2 competitions."


def test_only_the_competitions_named_are_checked():
    build(same_pairing_reversed)  # a faulty competition, not named
    clean, _matchday, _entries = pairs_matchday(3)
    standings_rebuild(competition_id=clean.pk)
    out = StringIO()
    call_command("check_results", clean.slug, stdout=out)
    assert out.getvalue().strip() == "No problems found in 1 competitions."
    # All of them (none named): the faulty one's two problems (A and B twice) are found.
    with pytest.raises(CommandError, match="^2 problems found in 2 competitions.$"):
        call_command("check_results", stdout=StringIO())


def test_an_unknown_slug_is_an_error():
    with pytest.raises(CommandError, match="No competition with slug “nope”"):
        call_command("check_results", "nope", stdout=StringIO())
