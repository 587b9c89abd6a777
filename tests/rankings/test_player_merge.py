"""Merging two players (issue 22, `rankings.merge.player_merge`): through the service, the
admin action, the command, the old profile URL and an import naming the old key. "Merged"
is said only once the rows have moved (garpr #58: a merge reported success and did
nothing), so every test reads the rows back.
"""

from __future__ import annotations

import datetime
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from interchange.importer import competition_import
from rankings.merge import PlayerMergeRefused, player_merge
from rankings.models import KoppelAlias, PlayerAlias, PlayerRating, RatingChange
from rankings.services import ratings_rebuild, ratings_refresh
from scoring.models import Game, Round
from tests.builders import finished_game, pairs_game
from tests.factories import (
    CompetitionFactory,
    MatchdayFactory,
    PlayerFactory,
    TeamEntryFactory,
    TeamFactory,
    UserFactory,
)
from tests.interchange.documents import document
from tournaments.models import Entry, Player, Squad, SquadMember, Team

pytestmark = pytest.mark.django_db


class Scene:
    """`keep` and `dup` (the same person twice): `dup` plays on matchday 1 in koppel
    `with_dup` (dup, x) against `other` (y, z), calling its rounds; `keep` plays on
    matchday 2 in `with_keep` (keep, w) against `other`."""

    def __init__(self) -> None:
        self.keep = PlayerFactory.create(key="anna", name="Anna")
        self.dup = PlayerFactory.create(key="anna-2", name="Anna (2)")
        self.with_dup = TeamFactory.create(key="k-dup", player_1=self.dup)
        self.with_keep = TeamFactory.create(key="k-keep", player_1=self.keep)
        self.other = TeamFactory.create(key="k-other")
        self.league = CompetitionFactory.create(slug="league", name="League")
        entries = {
            team.pk: TeamEntryFactory.create(competition=self.league, team=team)
            for team in (self.with_dup, self.with_keep, self.other)
        }
        day_1 = MatchdayFactory.create(
            competition=self.league, number=1, date=datetime.date(2026, 10, 2)
        )
        day_2 = MatchdayFactory.create(
            competition=self.league, number=2, date=datetime.date(2026, 10, 9)
        )
        self.day_1 = day_1
        self.entries = entries
        self.game_1 = finished_game(
            pairs_game(day_1, entries[self.with_dup.pk], entries[self.other.pk], table=1)
        )
        Round.objects.filter(game=self.game_1).update(caller=self.dup)
        self.game_2 = finished_game(
            pairs_game(day_2, entries[self.with_keep.pk], entries[self.other.pk], table=1),
            winner="b",
        )


@pytest.fixture
def scene() -> Scene:
    return Scene()


def test_every_row_of_the_dropped_player_moves_to_the_kept_one(
    scene, django_capture_on_commit_callbacks
):
    ratings_rebuild()
    assert RatingChange.objects.filter(player=scene.dup).exists()
    with django_capture_on_commit_callbacks() as callbacks:
        moved = player_merge(keep_id=scene.keep.pk, drop_id=scene.dup.pk, by=None)

    assert (moved.seats, moved.koppels, moved.koppels_merged) == (1, 1, 0)
    assert moved.callers == Round.objects.filter(game=scene.game_1).count() > 0
    game = Game.objects.get(pk=scene.game_1.pk)
    assert game.seat_1_id == scene.keep.pk
    assert set(Round.objects.filter(game=game).values_list("caller", flat=True)) == {scene.keep.pk}
    assert Team.objects.get(pk=scene.with_dup.pk).player_1_id == scene.keep.pk
    assert not Player.objects.filter(pk=scene.dup.pk).exists()
    assert not Game.history.filter(seat_1_id=scene.dup.pk).exists()  # its audit rows too
    assert Game.history.filter(seat_1_id=scene.keep.pk, id=game.pk).exists()
    alias = PlayerAlias.objects.get(key="anna-2")
    assert (alias.player_id, alias.name) == (scene.keep.pk, "Anna (2)")

    assert callbacks  # the ratings (and season rankings) refresh, queued for after commit
    assert ratings_refresh() > 0
    refreshed = dict(PlayerRating.objects.values_list("player_id", "mu"))
    assert PlayerRating.objects.get(player=scene.keep).games == 2
    ratings_rebuild()
    assert dict(PlayerRating.objects.values_list("player_id", "mu")) == refreshed


@pytest.mark.parametrize(
    ("where", "message"),
    [
        ("same game", "sat at the same game (League, matchday 1, table 1, sitting 1)"),
        ("same matchday", "both played on the same matchday (League, matchday 1"),
        ("partners", "form koppel “k-both” together"),
    ],
)
def test_a_merge_of_two_people_is_refused_and_writes_nothing(scene, where, message):
    if where == "same game":
        Game.objects.filter(pk=scene.game_1.pk).update(seat_2=scene.keep)
    elif where == "same matchday":
        third = TeamFactory.create()
        fourth = TeamFactory.create()
        pairs_game(
            scene.day_1,
            TeamEntryFactory.create(competition=scene.league, team=third),
            TeamEntryFactory.create(competition=scene.league, team=fourth),
            table=2,
        )
        Team.objects.filter(pk=third.pk).update(player_1=scene.keep)
    else:
        TeamFactory.create(key="k-both", player_1=scene.keep, player_2=scene.dup)

    with pytest.raises(PlayerMergeRefused) as refused:
        player_merge(keep_id=scene.keep.pk, drop_id=scene.dup.pk, by=None)

    assert message in refused.value.message
    assert Player.objects.filter(pk=scene.dup.pk).exists()
    assert Team.objects.get(pk=scene.with_dup.pk).player_1_id == scene.dup.pk
    assert not PlayerAlias.objects.exists()


def test_a_koppel_becomes_its_twin_when_nothing_of_it_is_scheduled(scene, client):
    partner = PlayerFactory.create()
    spare = TeamFactory.create(key="k-spare", player_1=scene.dup, player_2=partner)
    twin = TeamFactory.create(key="k-twin", player_1=partner, player_2=scene.keep)
    cup = CompetitionFactory.create(name="Cup")
    entry = TeamEntryFactory.create(competition=cup, team=spare)  # entered, not scheduled

    moved = player_merge(keep_id=scene.keep.pk, drop_id=scene.dup.pk, by=None)

    assert (moved.koppels, moved.koppels_merged) == (1, 1)  # k-dup given, k-spare merged
    assert not Team.objects.filter(pk=spare.pk).exists()
    assert Entry.objects.get(pk=entry.pk).team_id == twin.pk
    assert KoppelAlias.objects.get(key="k-spare").team_id == twin.pk
    response = client.get(reverse("koppel_detail", kwargs={"key": "k-spare"}))
    assert response.status_code == 301
    assert response["Location"] == reverse("koppel_detail", kwargs={"key": "k-twin"})


def test_a_koppel_with_a_scheduled_entry_stays_beside_its_twin(scene):
    twin = TeamFactory.create(key="k-twin", player_1=scene.with_dup.player_2, player_2=scene.keep)
    moved = player_merge(keep_id=scene.keep.pk, drop_id=scene.dup.pk, by=None)
    assert (moved.koppels, moved.koppels_merged) == (1, 0)
    # Its matchday-1 match keeps its entry and koppel, now of the same two players.
    assert Team.objects.get(pk=scene.with_dup.pk).player_1_id == scene.keep.pk
    assert Game.objects.get(pk=scene.game_1.pk).team_a_id == scene.with_dup.pk
    assert Team.objects.filter(pk=twin.pk).exists()


def test_twins_entered_in_the_same_competition_are_refused(scene):
    partner = PlayerFactory.create()
    spare = TeamFactory.create(key="k-spare", player_1=scene.dup, player_2=partner)
    twin = TeamFactory.create(key="k-twin", player_1=partner, player_2=scene.keep)
    cup = CompetitionFactory.create(name="Cup")
    TeamEntryFactory.create(competition=cup, team=spare)
    TeamEntryFactory.create(competition=cup, team=twin)
    with pytest.raises(PlayerMergeRefused, match="k-spare.*k-twin.*Cup"):
        player_merge(keep_id=scene.keep.pk, drop_id=scene.dup.pk, by=None)
    assert Team.objects.get(pk=scene.with_dup.pk).player_1_id == scene.dup.pk  # rolled back


@pytest.mark.parametrize("same_squad", [True, False])
def test_squad_places_move_or_a_clash_is_refused(scene, same_squad):
    from tests.factories import ClubFactory

    squad = Squad.objects.create(club=ClubFactory.create(), season="2026-2027")
    other = (
        squad if same_squad else Squad.objects.create(club=ClubFactory.create(), season="2026-2027")
    )
    SquadMember.objects.create(squad=squad, player=scene.keep, season="2026-2027")
    SquadMember.objects.create(squad=other, player=scene.dup, season="2026-2027")
    if same_squad:
        player_merge(keep_id=scene.keep.pk, drop_id=scene.dup.pk, by=None)
        assert list(SquadMember.objects.values_list("player", flat=True)) == [scene.keep.pk]
    else:
        with pytest.raises(PlayerMergeRefused, match="two squads in season 2026-2027"):
            player_merge(keep_id=scene.keep.pk, drop_id=scene.dup.pk, by=None)


def test_a_player_cannot_be_merged_with_itself(scene):
    with pytest.raises(PlayerMergeRefused):
        player_merge(keep_id=scene.keep.pk, drop_id=scene.keep.pk, by=None)


def test_the_old_profile_address_redirects_for_good(scene, client):
    player_merge(keep_id=scene.keep.pk, drop_id=scene.dup.pk, by=None)
    response = client.get(reverse("player_detail", kwargs={"key": "anna-2"}))
    assert response.status_code == 301
    assert response["Location"] == reverse("player_detail", kwargs={"key": "anna"})
    assert client.get(reverse("player_detail", kwargs={"key": "nobody"})).status_code == 404


def test_the_admin_action_asks_which_to_keep_then_merges(scene, client):
    admin = UserFactory.create(is_staff=True, is_superuser=True)
    client.force_login(admin)
    url = reverse("admin:tournaments_player_changelist")
    chosen = {"action": "merge_players", "_selected_action": [scene.keep.pk, scene.dup.pk]}

    page = client.post(url, chosen)
    assert page.status_code == 200
    assert "Anna (2) (anna-2)" in page.content.decode()
    assert Player.objects.filter(pk=scene.dup.pk).exists()  # asked, not merged yet

    done = client.post(url, {**chosen, "keep": scene.keep.pk}, follow=True)
    assert "is merged into Anna (anna)" in done.content.decode()
    assert not Player.objects.filter(pk=scene.dup.pk).exists()
    assert PlayerAlias.objects.get(key="anna-2").merged_by == admin


def test_the_admin_action_says_a_refusal_and_merges_nothing(scene, client):
    Game.objects.filter(pk=scene.game_1.pk).update(seat_2=scene.keep)
    client.force_login(UserFactory.create(is_staff=True, is_superuser=True))
    url = reverse("admin:tournaments_player_changelist")
    chosen = {"action": "merge_players", "_selected_action": [scene.keep.pk, scene.dup.pk]}
    done = client.post(url, {**chosen, "keep": scene.keep.pk}, follow=True)
    assert "sat at the same game" in done.content.decode()
    assert "is merged into" not in done.content.decode()
    assert Player.objects.filter(pk=scene.dup.pk).exists()


def test_the_command_merges_and_refuses(scene):
    out = StringIO()
    with pytest.raises(CommandError, match="No player has the key “ghost”"):
        call_command("merge_players", "anna", "ghost", stdout=out)
    call_command("merge_players", "anna", "anna-2", stdout=out)
    assert "anna-2 is merged into anna" in out.getvalue()
    assert not Player.objects.filter(key="anna-2").exists()


def test_an_import_naming_the_old_key_gets_the_kept_player(db):
    keep = PlayerFactory.create(key="anna-new", name="Anna")
    dup = Player.objects.create(key="anna", name="Anna")
    player_merge(keep_id=keep.pk, drop_id=dup.pk, by=None)

    competition = competition_import(data=document())  # names anna (and koppel noord)

    game = Game.objects.get(match__matchday__competition=competition)
    assert game.seat_1_id == keep.pk
    assert Team.objects.get(key="noord").player_1_id == keep.pk
    assert not Player.objects.filter(key="anna").exists()


def test_an_import_naming_both_the_old_and_the_new_key_is_refused(db):
    from interchange.errors import InterchangeError

    keep = PlayerFactory.create(key="bert", name="Bert")
    player_merge(keep_id=keep.pk, drop_id=PlayerFactory.create(key="anna").pk, by=None)
    with pytest.raises(InterchangeError, match="“anna” was merged into “bert”"):
        competition_import(data=document())


def test_the_merges_are_listed_in_the_admin(scene, admin_client):
    player_merge(keep_id=scene.keep.pk, drop_id=scene.dup.pk, by=None)
    page = admin_client.get(reverse("admin:rankings_playeralias_changelist"), {"q": "anna"})
    assert page.status_code == 200
    assert "anna-2" in page.content.decode()
    assert admin_client.get(reverse("admin:rankings_playeralias_add")).status_code == 403


def test_a_club_match_koppel_becomes_its_twin_with_its_games(db, client):
    from tests.builders import club_competition, kaps, koppels_of
    from tournaments.models import Match

    competition = club_competition(2)
    kampoe, toppers = competition.entries.order_by("pk")
    ours = koppels_of(kampoe)[0]
    dup, partner = ours.player_1, ours.player_2
    keep = PlayerFactory.create(club=dup.club)
    twin = TeamFactory.create(key="k-twin", player_1=keep, player_2=partner)
    day = MatchdayFactory.create(competition=competition, number=1)
    match = Match.objects.create(matchday=day, home=kampoe, away=toppers, table=1)
    game = Game.objects.create(match=match, team_a=ours, team_b=koppels_of(toppers)[0])
    kaps(game, 4, side="a")

    moved = player_merge(keep_id=keep.pk, drop_id=dup.pk, by=None)

    assert moved.koppels_merged == 1
    assert Game.objects.get(pk=game.pk).team_a_id == twin.pk
    assert not Game.history.filter(team_a_id=ours.pk).exists()
    assert not Team.objects.filter(pk=ours.pk).exists()
    assert client.get(reverse("koppel_detail", kwargs={"key": ours.key})).status_code == 301


def test_every_column_pointing_at_a_player_or_koppel_is_handled_by_the_merge():
    from django.apps import apps

    from rankings.merge import HANDLED

    pointing = {
        (model._meta.label, field.name)
        for model in apps.get_models()
        for field in model._meta.concrete_fields
        if field.is_relation and field.related_model in (Player, Team)
    }
    assert pointing == HANDLED


@pytest.mark.parametrize(
    ("old", "new", "path"),
    [
        ("anna-2", "anna", "/api/v1/players/{}/"),
        ("k-twin", "k-first", "/api/v1/koppels/{}/"),
    ],
    ids=["player", "koppel"],
)
def test_the_api_answers_a_merged_key_with_the_kept_ones_address(client, old, new, path):
    """The API's door to a merged player or koppel: 301 to the kept one, as its public page
    does, query string kept; a key nobody had stays a 404."""
    keep = PlayerFactory.create(key="anna")
    dup = PlayerFactory.create(key="anna-2")
    partner = PlayerFactory.create(key="bea")
    TeamFactory.create(key="k-first", player_1=keep, player_2=partner)
    TeamFactory.create(key="k-twin", player_1=dup, player_2=partner)
    player_merge(keep_id=keep.pk, drop_id=dup.pk, by=None)

    moved = client.get(path.format(old) + "?x=1")

    assert moved.status_code == 301
    assert moved["Location"] == path.format(new) + "?x=1"
    assert client.get(moved["Location"]).json()["key"] == new
    assert client.get(path.format("nobody-had-this")).status_code == 404
