"""The clubs a koppel's entry keeps for its players (issue 10, `Entry.player_1_club` /
`player_2_club`): filled by the services from the players' clubs when the koppel is
entered, refreshed when the entry gets another koppel, correctable by a league admin,
never on a club's entry; a koppel that has played keeps its players; and the export writes
each player's club of that competition."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, transaction

from interchange.exporter import competition_export
from interchange.importer import _delete_competition, competition_import
from scoring.models import Game
from scoring.rules import RuleViolation
from scoring.services.koppels import team_players_set
from tests.admin_pages import admin_url, posted_back, save_as_shown
from tests.builders import club_competition, finished_game, kaps, koppels_of
from tests.factories import (
    ClubEntryFactory,
    ClubFactory,
    CompetitionFactory,
    MatchdayFactory,
    PlayerFactory,
    TeamEntryFactory,
    TeamFactory,
)
from tournaments.models import Bye, Club, Competition, Entry, Match, Player, Team
from tournaments.services.entries import entry_add, entry_change, entry_player_clubs_set
from troefclub.rule_messages import rule_message

pytestmark = pytest.mark.django_db


def kept(entry: Entry) -> tuple[int | None, int | None]:
    entry.refresh_from_db()
    return entry.player_1_club_id, entry.player_2_club_id


def koppel(club_1: Club | None, club_2: Club | None, **fields: Any) -> Team:
    return TeamFactory.create(
        player_1=PlayerFactory.create(club=club_1),
        player_2=PlayerFactory.create(club=club_2),
        **fields,
    )


# ---------------------------------------------------------------- the services


def test_an_entered_koppel_keeps_its_players_clubs_of_that_moment():
    x, y = ClubFactory.create(), ClubFactory.create()
    team = koppel(x, None)

    entry = entry_add(competition_id=CompetitionFactory.create().pk, team_id=team.pk)
    Player.objects.filter(pk=team.player_1_id).update(club=y)  # a transfer afterwards
    Player.objects.filter(pk=team.player_2_id).update(club=y)

    assert kept(entry) == (x.pk, None)


def test_an_entered_club_keeps_no_players_clubs():
    club = ClubFactory.create()
    PlayerFactory.create(club=club)
    competition = CompetitionFactory.create(kind=Competition.Kind.CLUBS)

    entry = entry_add(competition_id=competition.pk, club_id=club.pk)

    assert kept(entry) == (None, None)


def test_the_database_refuses_kept_clubs_on_a_club_entry():
    entry = ClubEntryFactory.create()
    with pytest.raises(IntegrityError), transaction.atomic():
        Entry.objects.filter(pk=entry.pk).update(player_1_club=entry.club)


def test_an_entry_given_another_koppel_keeps_the_new_players_clubs():
    x, y = ClubFactory.create(), ClubFactory.create()
    competition = CompetitionFactory.create()
    entry = entry_add(competition_id=competition.pk, team_id=koppel(x, x).pk)
    other = koppel(y, None)

    entry_change(entry_id=entry.pk, competition_id=competition.pk, team_id=other.pk)

    assert kept(entry) == (y.pk, None)


def test_an_entry_saved_unchanged_keeps_a_corrected_club():
    x, z = ClubFactory.create(), ClubFactory.create()
    competition = CompetitionFactory.create()
    team = koppel(x, x)
    entry = entry_add(competition_id=competition.pk, team_id=team.pk)
    entry_player_clubs_set(entry_id=entry.pk, player_1_club_id=z.pk, player_2_club_id=None)

    entry_change(entry_id=entry.pk, competition_id=competition.pk, team_id=team.pk)

    assert kept(entry) == (z.pk, None)


def test_an_entry_on_the_schedule_keeps_its_koppel():
    competition = CompetitionFactory.create()
    entry = entry_add(competition_id=competition.pk, team_id=koppel(None, None).pk)
    Bye.objects.create(matchday=MatchdayFactory.create(competition=competition), entry=entry)

    with pytest.raises(RuleViolation) as caught:
        entry_change(
            entry_id=entry.pk, competition_id=competition.pk, team_id=koppel(None, None).pk
        )

    assert caught.value.code == "entry_scheduled_fixed"


def test_a_koppel_that_played_keeps_its_players_and_says_how_many_games():
    game = finished_game()
    team = game.team_a
    newcomer = PlayerFactory.create()

    for players in ((newcomer.pk, team.player_2_id), (team.player_2_id, team.player_1_id)):
        with pytest.raises(RuleViolation) as caught:
            team_players_set(team_id=team.pk, player_1_id=players[0], player_2_id=players[1])
        assert (caught.value.code, caught.value.params) == (
            "koppel_has_games",
            {"koppel": str(team), "count": 1},
        )
    assert str(team) in rule_message(caught.value)
    assert "(1)" in rule_message(caught.value)
    team.refresh_from_db()
    assert (team.player_1_id, team.player_2_id) == (
        game.team_a.player_1_id,
        game.team_a.player_2_id,
    )


def test_a_koppel_without_games_takes_other_players_and_its_entries_their_clubs():
    x, y = ClubFactory.create(), ClubFactory.create()
    team = koppel(x, x)
    entry = entry_add(competition_id=CompetitionFactory.create().pk, team_id=team.pk)
    newcomer = PlayerFactory.create(club=y)
    partner = team.player_2_id

    team_players_set(team_id=team.pk, player_1_id=partner, player_2_id=newcomer.pk)

    team.refresh_from_db()
    assert (team.player_1_id, team.player_2_id) == (partner, newcomer.pk)
    assert kept(entry) == (x.pk, y.pk)


# ---------------------------------------------------------------- the admin


def test_the_entry_add_page_shows_the_kept_clubs_read_only_with_their_help(admin_client):
    page = admin_client.get(admin_url(Entry, "add")).content.decode()

    assert 'name="player_1_club"' not in page
    assert "club of player 1" in page.lower()
    assert "filled in when the koppel is entered" in page


def test_an_entry_added_in_the_admin_keeps_the_players_clubs(admin_client):
    x = ClubFactory.create()
    team = koppel(x, None)
    competition = CompetitionFactory.create()

    response = admin_client.post(
        admin_url(Entry, "add"), {"competition": competition.pk, "team": team.pk, "club": ""}
    )

    assert response.status_code == 302
    assert kept(Entry.objects.get(competition=competition, team=team)) == (x.pk, None)


def test_a_club_entry_added_in_the_admin_keeps_no_players_clubs(admin_client):
    club = ClubFactory.create()
    PlayerFactory.create(club=club)
    competition = CompetitionFactory.create(kind=Competition.Kind.CLUBS)

    response = admin_client.post(
        admin_url(Entry, "add"), {"competition": competition.pk, "team": "", "club": club.pk}
    )

    assert response.status_code == 302
    assert kept(Entry.objects.get(competition=competition, club=club)) == (None, None)


def test_changing_the_koppel_of_an_entry_in_the_admin_refreshes_its_clubs(admin_client):
    x, y = ClubFactory.create(), ClubFactory.create()
    competition = CompetitionFactory.create()
    entry = entry_add(competition_id=competition.pk, team_id=koppel(x, x).pk)
    other = koppel(None, y)

    assert save_as_shown(admin_client, entry, team=other.pk).status_code == 302

    assert kept(entry) == (None, y.pk)


def test_a_league_admin_corrects_a_kept_club_of_an_entry_that_played(admin_client):
    game = finished_game()
    entry = game.match.home
    z = ClubFactory.create()

    page = admin_client.get(admin_url(Entry, "change", entry.pk))
    assert 'name="team"' not in page.content.decode()  # on the schedule: koppel fixed
    response = admin_client.post(
        admin_url(Entry, "change", entry.pk), posted_back(page, player_2_club=z.pk)
    )

    assert response.status_code == 302
    assert kept(entry) == (None, z.pk)


def test_a_club_entry_shows_no_kept_clubs_to_edit(admin_client):
    entry = ClubEntryFactory.create()

    page = admin_client.get(admin_url(Entry, "change", entry.pk)).content.decode()

    assert 'name="player_1_club"' not in page


def inline_rows(page: Any) -> int:
    return int(posted_back(page)["entries-TOTAL_FORMS"])


def test_an_entry_added_in_the_competitions_inline_keeps_the_players_clubs(admin_client):
    x = ClubFactory.create()
    competition = CompetitionFactory.create()
    first = entry_add(competition_id=competition.pk, team_id=koppel(None, None).pk)
    team = koppel(None, x)
    url = admin_url(Competition, "change", competition.pk)
    page = admin_client.get(url)
    assert "club of player 1" in page.content.decode().lower()
    rows = inline_rows(page)

    data = posted_back(page, **{"entries-TOTAL_FORMS": rows + 1, f"entries-{rows}-team": team.pk})
    response = admin_client.post(url, data)

    assert response.status_code == 302, response.content.decode()[:2000]
    assert kept(Entry.objects.get(competition=competition, team=team)) == (None, x.pk)
    assert kept(first) == (None, None)


def test_a_koppel_changed_in_the_competitions_inline_keeps_the_new_players_clubs(
    admin_client,
):
    x = ClubFactory.create()
    competition = CompetitionFactory.create()
    entry = entry_add(competition_id=competition.pk, team_id=koppel(None, None).pk)
    other = koppel(x, x)
    url = admin_url(Competition, "change", competition.pk)

    response = admin_client.post(
        url, posted_back(admin_client.get(url), **{"entries-0-team": other.pk})
    )

    assert response.status_code == 302
    entry.refresh_from_db()
    assert entry.team_id == other.pk
    assert kept(entry) == (x.pk, x.pk)


def test_the_koppel_admin_refuses_other_players_for_a_koppel_that_played(admin_client):
    game = finished_game()
    team = game.team_a
    newcomer = PlayerFactory.create()

    response = save_as_shown(admin_client, team, player_1=newcomer.pk)

    assert response.status_code == 200
    errors = " ".join(response.context["adminform"].form.non_field_errors())
    assert str(team) in errors and "(1)" in errors
    team.refresh_from_db()
    assert team.player_1_id == game.team_a.player_1_id


def test_the_koppel_admin_lets_a_koppel_without_games_change_its_players(admin_client):
    x = ClubFactory.create()
    team = koppel(None, None)
    entry = entry_add(competition_id=CompetitionFactory.create().pk, team_id=team.pk)
    newcomer = PlayerFactory.create(club=x)

    response = save_as_shown(admin_client, team, player_1=newcomer.pk, name="Nieuw")

    assert response.status_code == 302
    team.refresh_from_db()
    assert (team.player_1_id, team.name) == (newcomer.pk, "Nieuw")
    assert kept(entry) == (x.pk, None)


def test_a_transfer_is_allowed_for_a_player_who_played(admin_client):
    game = finished_game()
    player = game.team_a.player_1
    y = ClubFactory.create()

    assert save_as_shown(admin_client, player, club=y.pk).status_code == 302

    player.refresh_from_db()
    assert player.club_id == y.pk
    assert kept(game.match.home) == (None, None)  # the entry kept what it had


# ---------------------------------------------------------------- the export


def test_a_player_in_two_koppels_is_exported_with_the_first_entrys_club():
    x, y = ClubFactory.create(key="x"), ClubFactory.create(key="y")
    competition = CompetitionFactory.create()
    piet = PlayerFactory.create(key="piet", club=y)
    first = TeamFactory.create(player_1=piet)
    second = TeamFactory.create(player_2=piet)
    TeamEntryFactory.create(competition=competition, team=first, player_1_club=x)
    TeamEntryFactory.create(competition=competition, team=second, player_2_club=y)

    exported = competition_export(competition=competition)

    (row,) = [player for player in exported["players"] if player["key"] == "piet"]
    assert row["club"] == "x"
    assert [club["key"] for club in exported["clubs"]] == ["x"]


def test_a_club_competition_exported_after_a_transfer_gives_the_side_played_for():
    competition = club_competition(2, season="2025-2026")
    kampoe, toppers = competition.entries.order_by("pk")
    matchday = MatchdayFactory.create(competition=competition, number=1)
    match = Match.objects.create(matchday=matchday, home=kampoe, away=toppers, table=1)
    home_koppel, away_koppel = koppels_of(kampoe)[0], koppels_of(toppers)[0]
    kaps(Game.objects.create(match=match, team_a=home_koppel, team_b=away_koppel), 4)
    mover = home_koppel.player_1
    mover.club = ClubFactory.create(key="elsewhere")
    mover.save()

    exported = competition_export(competition=competition)

    (row,) = [player for player in exported["players"] if player["key"] == mover.key]
    assert row["club"] == kampoe.club.key  # type: ignore[union-attr]
    assert "elsewhere" not in {club["key"] for club in exported["clubs"]}
    # It imports again (into an empty database: the file's clubs are the clubs of then).
    _delete_competition(competition)
    Team.objects.all().delete()
    Player.objects.all().delete()
    Club.objects.all().delete()
    again = competition_import(data=exported)
    assert competition_export(competition=again) == exported
