"""Issue 10: "Past results keep the club and koppel a player played for at the time: a
transfer between seasons never moves old games to the new club, and recomputing changes
nothing" — through the import, the export, the admin, the season tallies and a rebuild.

The scene: season 2025-2026 imported with Piet at club X; Piet transfers to club Y (his
`Player.club` changes, as the admin does); season 2026-2027 imported with Piet at Y.
"""

from __future__ import annotations

from typing import Any

import pytest

from interchange.errors import InterchangeError
from interchange.exporter import competition_export
from interchange.importer import _delete_competition, competition_import
from rankings.selectors import GameRow, game_rows
from scoring.models import Game, Standing
from scoring.rules.seasons import SeasonBy, season_tallies
from scoring.selectors.counted import games_counted
from scoring.services.standings import standings_rebuild
from tests.admin_pages import admin_url, save_as_shown
from tests.builders import club_competition, kaps, koppels_of
from tests.factories import ClubFactory, CompetitionFactory, MatchdayFactory
from tests.interchange.documents import document
from tournaments.models import Club, Competition, Entry, Match, Player, Squad, Team

pytestmark = pytest.mark.django_db


def season_file(season: str, piet_club: str) -> dict[str, Any]:
    """A club evening of `season`: koppel noord (piet, carla) v zuid (bert, dirk), one game
    of four kaps for noord; Piet plays for `piet_club` ("x" or "y"), the others for X."""
    year = season[:4]
    doc = document()
    doc["competition"].update(slug=f"evening-{year}", name=f"Evening {year}", season=season)
    doc["matchdays"][0]["date"] = f"{year}-10-02"
    doc["clubs"] = [{"key": "x", "name": "X"}, {"key": "y", "name": "Y"}]
    for player in doc["players"]:
        player["club"] = "x"
    doc["players"][0].update(key="piet", name="Piet", club=piet_club)
    doc["teams"][0]["players"] = ["piet", "carla"]
    doc["matchdays"][0]["matches"][0]["games"][0]["seats"][0] = "piet"
    used = {player["club"] for player in doc["players"]}
    doc["clubs"] = [club for club in doc["clubs"] if club["key"] in used]
    return doc


def transfer(player_key: str, club_key: str) -> None:
    """The player moves to the club (`Player.club`), as the player admin saves it."""
    player = Player.objects.get(key=player_key)
    player.club = Club.objects.get_or_create(key=club_key, defaults={"name": club_key.upper()})[0]
    player.save()


def piet_clubs(season: str) -> set[int | None]:
    """The clubs `game_rows` gives Piet in his games of `season`."""
    piet = Player.objects.get(key="piet").pk
    found = set()
    for row in game_rows(games_counted().filter(match__matchday__competition__season=season)):
        for side in (row.a, row.b):
            for player, club in zip(side.players, side.clubs, strict=True):
                if player == piet:
                    found.add(club)
    return found


def club_pk(key: str) -> int:
    return Club.objects.get(key=key).pk


def empty_database() -> None:
    """Every competition, koppel, player and club gone, as on a fresh install."""
    for competition in Competition.objects.all():
        _delete_competition(competition)
    Squad.objects.all().delete()
    Team.objects.all().delete()
    Player.objects.all().delete()
    Club.objects.all().delete()


@pytest.fixture
def two_seasons() -> None:
    competition_import(data=season_file("2025-2026", "x"))
    Club.objects.create(key="y", name="Y")
    transfer("piet", "y")
    competition_import(data=season_file("2026-2027", "y"))


# ---------------------------------------------------------------- import and export


def test_a_transfer_keeps_the_old_season_at_the_old_club_and_the_new_at_the_new(two_seasons):
    assert piet_clubs("2025-2026") == {club_pk("x")}
    assert piet_clubs("2026-2027") == {club_pk("y")}


def test_the_old_season_exported_after_the_transfer_says_the_club_of_then(two_seasons):
    exported = competition_export(competition=Competition.objects.get(slug="evening-2025"))

    piet = next(player for player in exported["players"] if player["key"] == "piet")
    assert piet["club"] == "x"
    assert exported == season_file("2025-2026", "x")  # the file as it was imported


def test_the_new_season_exported_says_the_new_club(two_seasons):
    exported = competition_export(competition=Competition.objects.get(slug="evening-2026"))

    assert exported == season_file("2026-2027", "y")


def test_the_old_export_imported_into_an_empty_database_keeps_the_old_club(two_seasons):
    exported = competition_export(competition=Competition.objects.get(slug="evening-2025"))
    empty_database()
    assert not Player.objects.exists()

    competition_import(data=exported)

    assert piet_clubs("2025-2026") == {club_pk("x")}
    assert Player.objects.get(key="piet").club.key == "x"  # type: ignore[union-attr]


def test_the_old_export_imports_back_over_itself_after_the_transfer(two_seasons):
    exported = competition_export(competition=Competition.objects.get(slug="evening-2025"))

    competition_import(data=exported, replace=True)

    assert piet_clubs("2025-2026") == {club_pk("x")}
    # The file's old club is where he played then; today he still plays for Y.
    assert Player.objects.get(key="piet").club_id == club_pk("y")


def test_the_import_refuses_a_file_that_gives_a_stored_koppel_other_players(two_seasons):
    doc = season_file("2027-2028", "y")
    doc["players"].append({"key": "eva", "name": "Eva", "club": "x"})
    doc["teams"][0]["players"] = ["piet", "eva"]  # noord was piet & carla
    doc["matchdays"][0]["matches"][0]["games"][0]["seats"][2] = "eva"

    with pytest.raises(InterchangeError) as caught:
        competition_import(data=doc)

    assert caught.value.place == "teams[noord]"
    assert "koppel “noord” is registered as carla & piet" in caught.value.message
    assert not Competition.objects.filter(season="2027-2028").exists()


# ---------------------------------------------------------------- tallies and recomputing


def tallies(by: SeasonBy, season: str) -> dict[Any, Any]:
    games = games_counted().filter(match__matchday__competition__season=season)
    return season_tallies([row.season_game() for row in game_rows(games)], by=by)


def test_a_transfer_moves_no_past_game_in_the_club_tallies():
    competition_import(data=season_file("2025-2026", "x"))
    x = club_pk("x")
    before = {by: tallies(by, "2025-2026") for by in SeasonBy}
    rows_before = game_rows(games_counted())

    transfer("piet", "y")

    assert game_rows(games_counted()) == rows_before
    for by in SeasonBy:
        assert tallies(by, "2025-2026") == before[by]
    assert set(before[SeasonBy.CLUB]) == {x}
    assert before[SeasonBy.CLUB][x].games == 2  # both koppels played for X


def test_a_transfer_moves_no_past_club_match_game():
    competition = club_competition(2, season="2025-2026")
    kampoe, toppers = competition.entries.order_by("pk")
    matchday = MatchdayFactory.create(competition=competition, number=1)
    match = Match.objects.create(matchday=matchday, home=kampoe, away=toppers, table=1)
    home_koppel, away_koppel = koppels_of(kampoe)[0], koppels_of(toppers)[0]
    game = Game.objects.create(match=match, team_a=home_koppel, team_b=away_koppel)
    kaps(game, 4)
    before = tallies(SeasonBy.CLUB, "2025-2026")

    elsewhere = ClubFactory.create()
    Player.objects.filter(pk=home_koppel.player_1_id).update(club=elsewhere)

    (row,) = game_rows(games_counted())
    assert row.a.clubs == (kampoe.club_id, kampoe.club_id)
    assert tallies(SeasonBy.CLUB, "2025-2026") == before
    assert elsewhere.pk not in before


def standings_of(competition: Competition) -> list[tuple[Any, ...]]:
    return list(
        Standing.objects.filter(competition=competition)
        .order_by("entry_id")
        .values_list("entry_id", "rank", "played", "won", "points", "points_for", "kaps")
    )


def test_recomputing_after_a_transfer_changes_nothing(two_seasons):
    old = Competition.objects.get(slug="evening-2025")
    rows_before: list[GameRow] = game_rows(games_counted())
    standings_before = standings_of(old)
    kept_before = list(Entry.objects.order_by("pk").values_list("player_1_club", "player_2_club"))

    transfer("piet", "x")  # and back again: still nothing moves
    standings_rebuild(competition_id=old.pk)
    standings_rebuild(competition_id=old.pk)

    assert standings_of(old) == standings_before
    assert game_rows(games_counted()) == rows_before
    assert game_rows(games_counted()) == game_rows(games_counted())
    kept = list(Entry.objects.order_by("pk").values_list("player_1_club", "player_2_club"))
    assert kept == kept_before


# ---------------------------------------------------------------- the admin


def test_a_transfer_in_the_admin_keeps_old_entries_and_new_entries_take_the_new_club(
    admin_client,
):
    competition_import(data=season_file("2025-2026", "x"))
    y = Club.objects.create(key="y", name="Y")
    piet = Player.objects.get(key="piet")
    newcomer = Team.objects.create(
        key="nieuw", player_1=piet, player_2=Player.objects.create(key="eva", name="Eva")
    )
    new_season = CompetitionFactory.create(slug="evening-2026", season="2026-2027")

    response = save_as_shown(admin_client, piet, club=y.pk)
    assert response.status_code == 302
    added = admin_client.post(
        admin_url(Entry, "add"), {"competition": new_season.pk, "team": newcomer.pk, "club": ""}
    )
    assert added.status_code == 302

    old_entry = Entry.objects.get(competition__slug="evening-2025", team__key="noord")
    new_entry = Entry.objects.get(competition=new_season, team=newcomer)
    assert (old_entry.player_1_club_id, old_entry.player_2_club_id) == (club_pk("x"),) * 2
    assert (new_entry.player_1_club_id, new_entry.player_2_club_id) == (y.pk, None)
    assert piet_clubs("2025-2026") == {club_pk("x")}
