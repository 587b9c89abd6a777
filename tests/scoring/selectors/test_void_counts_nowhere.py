"""A voided match or game counts nowhere (issue 22; FTC scorekeeper #271): one test per
reader of results, each against the same small scene, and the database's own refusal of a
replay that would count beside its voided match (SQLite here, PostgreSQL in CI)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

import pytest
from django.db import IntegrityError, transaction

from rankings.profiles.koppels import koppel_games
from rankings.profiles.players import player_games
from rankings.seasons import season_data
from rankings.services import rating_games
from scoring.exports import results_dataset, standings_dataset
from scoring.models import Game, Standing
from scoring.selectors.highlights import match_top_koppels, matchday_highlights
from scoring.selectors.results import competition_match_scores, competition_match_sums
from scoring.selectors.standings import competition_table
from scoring.selectors.standings_inputs import competition_standings_inputs
from scoring.services.lineups import club_match_lineup_set
from scoring.services.schedule import schedule_round_robin_create
from scoring.services.standings import standings_rebuild
from scoring.services.voids import game_void, match_replay_schedule, match_void
from tests.builders import (
    club_competition,
    finished_game,
    kaps,
    koppels_of,
    pairs_game,
    pairs_matchday,
)
from tests.seen import match_token_now
from tournaments.models import Competition, Entry, Match

pytestmark = pytest.mark.django_db


@dataclass
class Scene:
    """Matchday 1 of four koppels: Kampoe – Toppers (voided, 20–0 to Kampoe) and Formula –
    Ekta (counts, 20–0 to Formula)."""

    competition: Competition
    entries: list[Entry]
    voided: Game
    counted: Game


@pytest.fixture
def scene() -> Scene:
    competition, matchday, entries = pairs_matchday(4)
    voided = finished_game(pairs_game(matchday, entries[0], entries[1], table=1))
    counted = finished_game(pairs_game(matchday, entries[2], entries[3], table=2))
    match_void(match_id=voided.match_id, reason="hall closed")
    return Scene(competition, entries, voided, counted)


def test_the_standings_leave_a_voided_match_out(scene):
    standings_rebuild(competition_id=scene.competition.pk)

    played = dict(Standing.objects.values_list("entry_id", "played"))
    assert played == {scene.entries[0].pk: 0, scene.entries[1].pk: 0} | {
        scene.entries[2].pk: 1,
        scene.entries[3].pk: 1,
    }


def test_the_tie_breaks_leave_a_voided_match_out(scene):
    # Head to head between Kampoe and Toppers: only the voided match; it separates nobody.
    rows = competition_table(competition=scene.competition, tiebreaks=["points", "head_to_head"])
    kampoe, toppers = (row for row in rows if row.entry in {e.pk for e in scene.entries[:2]})
    assert (kampoe.rank, kampoe.points) == (toppers.rank, toppers.points)


def test_the_standings_inputs_and_sums_leave_a_voided_match_out(scene):
    inputs = competition_standings_inputs(competition=scene.competition)
    assert [(o.home, o.away) for o in inputs.outcomes] == [
        (scene.entries[2].pk, scene.entries[3].pk)
    ]
    assert scene.voided.match_id not in competition_match_sums(competition=scene.competition)
    # The match's page still shows its score, as voided (it is never "finished").
    shown = competition_match_scores(competition=scene.competition)[scene.voided.match_id]
    assert (shown.home, shown.voided, shown.finished) == (20, True, False)


def test_the_ratings_leave_a_voided_match_out(scene):
    assert [game.game for game in rating_games()] == [scene.counted.pk]


def test_the_season_rankings_leave_a_voided_match_out(scene):
    rows = season_data(scene.competition.season).rows
    assert [row.game for row in rows] == [scene.counted.pk]


def test_the_highlights_leave_a_voided_match_out(scene):
    highlights = matchday_highlights(matchday=scene.counted.match.matchday)
    assert highlights is not None and highlights.games == 1
    assert highlights.most_kaps is not None
    assert [line.koppel for line in highlights.most_kaps.lines] == [scene.entries[2].team]


def test_the_koppel_and_player_pages_leave_a_voided_match_out(scene):
    kampoe = scene.entries[0].team
    assert not koppel_games(kampoe).exists()
    assert not player_games(kampoe.player_1).exists()
    assert list(koppel_games(scene.entries[2].team)) == [scene.counted]


def test_a_replay_counts_in_place_of_its_voided_match(scene):
    replay = match_replay_schedule(match_id=scene.voided.match_id, date=datetime.date(2026, 11, 6))
    finished_game(replay.games.get(), winner="b")
    standings_rebuild(competition_id=scene.competition.pk)

    won = dict(Standing.objects.values_list("entry_id", "won"))
    played = dict(Standing.objects.values_list("entry_id", "played"))
    kampoe, toppers = scene.entries[:2]
    assert (played[kampoe.pk], won[kampoe.pk], won[toppers.pk]) == (1, 0, 1)


@pytest.mark.parametrize(
    ("change", "constraint"),
    [
        ("unvoid the replayed match", "match_replayed_is_void"),
        ("a second replay", "replayed_by"),
        ("void without a reason", "match_void_has_reason"),
        ("replay itself", "match_replay_not_itself"),
    ],
)
def test_the_database_allows_one_counting_result_per_fixture(scene, change, constraint):
    replay = match_replay_schedule(match_id=scene.voided.match_id, date=datetime.date(2026, 11, 6))
    original = Match.objects.get(pk=scene.voided.match_id)
    other = Match.objects.get(pk=scene.counted.match_id)
    writes = {
        "unvoid the replayed match": lambda: Match.objects.filter(pk=original.pk).update(
            voided_at=None, void_reason=""
        ),
        "a second replay": lambda: Match.objects.filter(pk=other.pk).update(
            voided_at=original.voided_at, void_reason="x", replayed_by=replay
        ),
        "void without a reason": lambda: Match.objects.filter(pk=other.pk).update(
            voided_at=original.voided_at
        ),
        "replay itself": lambda: Match.objects.filter(pk=other.pk).update(
            voided_at=original.voided_at, void_reason="x", replayed_by=other.pk
        ),
    }
    with pytest.raises(IntegrityError) as caught, transaction.atomic():
        writes[change]()
    assert constraint in str(caught.value)  # SQLite and PostgreSQL both name it
    assert list(Match.objects.counting().values_list("pk", flat=True).order_by("pk")) == [
        other.pk,
        replay.pk,
    ]


def test_a_voided_game_leaves_its_club_match_total_and_the_top_koppels():
    competition = club_competition(koppels_per_side=2, min_koppels=1, sittings=1)
    schedule_round_robin_create(competition_id=competition.pk)
    match = Match.objects.select_related("home__club", "away__club").get(
        matchday__competition=competition, matchday__number=1
    )
    home, away = (sorted(koppels_of(e), key=lambda t: t.name)[:2] for e in (match.home, match.away))
    club_match_lineup_set(
        match_id=match.pk,
        seen=match_token_now(match_id=match.pk),
        home_teams=[team.pk for team in home],
        away_teams=[team.pk for team in away],
    )
    first, second = Game.objects.filter(match=match).order_by("table")
    kaps(first, 4, side="a" if first.a_is_home else "b")  # 20–0 to the home side
    kaps(second, 4, side="b" if second.a_is_home else "a")  # 20–0 to the away side

    game_void(game_id=first.pk, reason="wrong koppel at the table")

    score = competition_match_sums(competition=competition)[match.pk]
    assert (score.home, score.away, score.games) == (0, 20, 1)
    assert competition_match_scores(competition=competition)[match.pk].away == 20
    lines = match_top_koppels(match=match)
    assert {line.koppel.pk for line in lines} == {second.team_a_id, second.team_b_id}


def test_the_exports_leave_a_voided_match_out_of_the_standings_and_say_voided(scene):
    standings_rebuild(competition_id=scene.competition.pk)

    standings = standings_dataset(competition=scene.competition)
    results = results_dataset(competition=scene.competition)

    played = standings.headers.index("Played")
    assert sorted(row[played] for row in standings) == [0, 0, 1, 1]
    assert [row[-1] for row in results] == ["voided", "finished"]
