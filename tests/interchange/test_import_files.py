"""import_competition with the real files in data/: counts, scores, standings, replace,
all-or-nothing, and koppel/player keys that contradict the database."""

from __future__ import annotations

import json

import pytest
from django.core.management.base import CommandError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from interchange.errors import InterchangeError
from interchange.importer import competition_import
from scoring.models import Game, Round, Standing
from tests.factories import ClubFactory, PlayerFactory, TeamFactory, UserFactory
from tests.interchange.documents import SAMPLE, STCB, document, load, row_counts, run, run_import
from tournaments.models import Club, Competition, Entry, Match, Matchday, Player, Team

pytestmark = pytest.mark.django_db

SAMPLE_SCORES = [
    # (matchday, table, team_a, team_b, score_a, score_b)
    (1, 1, "t01", "t08", 22, 16),
    (1, 2, "t02", "t07", 34, 12),
    (1, 3, "t03", "t06", 20, 6),
    (1, 4, "t04", "t05", 17, 23),
    (2, 1, "t01", "t07", 20, 2),
    (2, 2, "t08", "t06", 20, 17),
    (2, 3, "t02", "t05", 21, 16),
    (2, 4, "t03", "t04", 20, 6),
    (3, 1, "t01", "t06", 27, 19),
    (3, 2, "t07", "t05", 10, 21),
    (3, 3, "t08", "t04", 16, 20),
    (3, 4, "t02", "t03", 21, 8),
]


def test_sample_imports_with_its_counts_and_game_scores(tmp_path):
    out = run_import(tmp_path, load(SAMPLE))

    assert "club-evening-sample" in out
    assert "3 matchdays, 12 matches, 12 games, 184 rounds; 8 standings rows" in out
    competition = Competition.objects.get(slug="club-evening-sample")
    assert (Club.objects.count(), Player.objects.count(), Team.objects.count()) == (1, 16, 8)
    games = Game.objects.filter(match__matchday__competition=competition).order_by("pk")
    assert [
        (g.match.matchday.number, g.table, g.team_a.key, g.team_b.key, g.score_a, g.score_b)
        for g in games
    ] == SAMPLE_SCORES
    assert all(g.status == Game.Status.FINISHED for g in games)
    assert set(Round.objects.values_list("result", flat=True)) == {
        "gewone_winst", "kap", "kap_partner", "baunie", "baunie_mislukt", "kap_te_vroeg",
        "redeal",
    }  # fmt: skip
    standings = Standing.objects.filter(competition=competition).order_by("rank")
    assert [s.entry.key for s in standings][:2] == ["t02", "t01"]
    assert sum(s.saldo for s in standings) == 0


def test_stcb_imports_and_ranks_as_published(tmp_path):
    out = run_import(tmp_path, load(STCB))

    assert "1 matchdays, 4 matches, 0 games, 0 rounds; 8 standings rows" in out
    rows = json.loads(run("standings", "stcb-2019", "--format", "json"))
    assert [row["entry"] for row in rows] == [
        "formula", "ekta", "pintoboys", "toppers", "kolibrie", "shaktie", "t-hofje",
        "openbaar-groen",
    ]  # fmt: skip
    assert [row["points"] for row in rows] == [2, 2, 2, 2, 0, 0, 0, 0]
    assert [row["saldo"] for row in rows] == [42, 25, 13, 7, -7, -13, -25, -42]
    assert Match.objects.get(home__club__key="toppers").total_home == 75


def test_reimport_is_refused_without_replace_and_replaces_with_it(tmp_path):
    run_import(tmp_path, load(SAMPLE))
    director = UserFactory.create()
    Competition.objects.get().directors.add(director)
    before = row_counts()

    with pytest.raises(CommandError, match="exists already") as refused:
        run_import(tmp_path, load(SAMPLE))
    assert row_counts() == before
    # It names the command's real flags (tester: it said "import with replace").
    assert "import it with --replace to overwrite it, or with --skip-existing" in str(refused.value)
    with translation.override("nl"), pytest.raises(CommandError) as refused:
        run_import(tmp_path, load(SAMPLE))
    assert "importeer hem met --replace" in str(refused.value)
    assert "--skip-existing" in str(refused.value)

    run_import(tmp_path, load(SAMPLE), "--replace", "--yes", "--backup-dir", str(tmp_path))
    competition = Competition.objects.get()
    assert competition.slug == "club-evening-sample"
    assert list(competition.directors.all()) == [director]
    assert Round.objects.count() == 184
    assert Player.objects.count() == 16 and Team.objects.count() == 8


def test_a_bad_last_round_saves_nothing_and_names_its_place(tmp_path):
    data = load(SAMPLE)
    last_day = data["matchdays"][-1]
    last_match = last_day["matches"][-1]
    last_game = last_match["games"][-1]
    last_game["rounds"][-1].update(result="kap", tricks=[8, 0])
    place = (
        f"matchday {last_day['number']}, match {last_match['home']}-{last_match['away']}, "
        f"game table {last_game['table']}, round {len(last_game['rounds'])}"
    )
    assert place == "matchday 3, match t02-t03, game table 4, round 13"
    before = row_counts()

    with pytest.raises(CommandError) as info:
        run_import(tmp_path, data)

    assert f"{place}: A kap can only be called at exactly 7–0" in str(info.value)
    assert "Nothing was imported" in str(info.value)
    assert row_counts() == before


def test_interchange_error_has_place_and_message():
    with pytest.raises(InterchangeError) as info:
        competition_import(data=document(rounds=[{"result": "kap", "side": "a"}] * 5))
    assert info.value.place == "matchday 1, match noord-zuid, game table 1, round 5"
    assert info.value.code == "game_finished"
    assert str(info.value) == f"{info.value.place}: {info.value.message}"
    assert "Round 5" not in info.value.message


def test_existing_keys_are_reused(tmp_path):
    kampoe = ClubFactory.create(key="kampoe", name="Kampoe (old name)")
    anna = PlayerFactory.create(key="anna", club=kampoe)
    carla = PlayerFactory.create(key="carla", club=kampoe)
    team = TeamFactory.create(key="noord", player_1=carla, player_2=anna)

    run_import(tmp_path, document())

    assert Club.objects.count() == 1 and Player.objects.count() == 4
    assert Team.objects.count() == 2
    assert Competition.objects.get().entries.filter(team=team).exists()
    kampoe.refresh_from_db()
    assert kampoe.name == "Kampoe (old name)"


def test_a_koppel_key_with_other_players_is_refused(tmp_path):
    TeamFactory.create(
        key="noord",
        player_1=PlayerFactory.create(key="anna"),
        player_2=PlayerFactory.create(key="eva"),
    )
    before = row_counts()

    with pytest.raises(CommandError, match=r"teams\[noord\]: koppel “noord” is registered as"):
        run_import(tmp_path, document(players=[
            {"key": k, "name": k.title(), "club": None} for k in ("anna", "bert", "carla", "dirk")
        ]))  # fmt: skip
    assert row_counts() == before


def test_a_player_key_with_another_club_is_where_he_played_then(tmp_path):
    """Issue 10: the file's club is the club the player played for in its competition (an
    old season's file after a transfer); his club of today stays."""
    toppers = ClubFactory.create(key="toppers")
    bert = PlayerFactory.create(key="bert", club=toppers)

    run_import(tmp_path, document())

    bert.refresh_from_db()
    assert bert.club == toppers
    kampoe = Club.objects.get(key="kampoe")
    entry = Entry.objects.get(team__player_1=bert)
    assert (entry.player_1_club, entry.player_2_club) == (kampoe, kampoe)


def test_a_clubs_competition_with_games(tmp_path):
    data = document(
        clubs=[{"key": "kampoe", "name": "Kampoe"}, {"key": "toppers", "name": "Toppers"}],
        entries=["kampoe", "toppers"],
        match={"home": "toppers", "away": "kampoe"},
    )
    data["competition"]["kind"] = "clubs"
    for player in data["players"]:
        if player["key"] in ("bert", "dirk"):
            player["club"] = "toppers"

    run_import(tmp_path, data)

    game = Game.objects.get()
    assert game.a_is_home is False  # koppel A (noord) plays for kampoe, the away side
    rows = json.loads(run("standings", "test-evening", "--format", "json"))
    assert [(r["entry"], r["points_for"], r["points_against"]) for r in rows] == [
        ("kampoe", 20, 0), ("toppers", 0, 20),
    ]  # fmt: skip
    assert Matchday.objects.count() == 1


def test_a_clubs_game_with_a_koppel_of_another_club_is_refused(tmp_path):
    data = document(
        clubs=[{"key": "kampoe", "name": "Kampoe"}, {"key": "toppers", "name": "Toppers"}],
        entries=["kampoe", "toppers"],
        match={"home": "kampoe", "away": "toppers"},
    )
    data["competition"]["kind"] = "clubs"
    data["players"][1]["club"] = "toppers"  # bert; dirk stays with kampoe

    with pytest.raises(CommandError, match="both players of team_b “zuid” must belong"):
        run_import(tmp_path, data)


def test_queries_do_not_grow_with_rounds():
    counts = []
    # The first import also creates the clubs, players and koppels; the next two reuse them.
    # Both games stay open (three kaps make 15 of 20), so both standings are one tie: a
    # finished game would spare the rebuild reading the tied koppels' names, one query.
    for slug, rounds in (("first", 2), ("one", 1), ("three", 3)):
        data = document(rounds=[{"result": "kap", "side": "a"}] * rounds)
        data["competition"]["slug"] = slug
        with CaptureQueriesContext(connection) as queries:
            competition_import(data=data)
        counts.append(len(queries))
    assert counts[1] == counts[2]


def test_sample_import_query_budget(django_assert_max_num_queries):
    # 12 games, 184 rounds: a dozen queries per game (create, history, lock, rounds insert,
    # update) plus a fixed number for the rest; never one per round.
    with django_assert_max_num_queries(12 * 12 + 30):
        competition_import(data=load(SAMPLE))
