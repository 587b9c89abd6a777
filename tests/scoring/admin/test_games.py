"""Games and rounds in the admin (issue 6, "admin side doors"): once a game holds a result
it can't be deleted or moved, every change queues the right standings refresh, and the
pairing faults are refused at the field, never with a 500. What "holds a result" means is
one selector, `scoring.selectors.results.result_holders`, tested here too."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django import forms

from scoring.admin.games import GameAdminForm
from scoring.models import Game, Round
from scoring.selectors.results import holds_result, result_holders
from scoring.services.games import game_totals_enter
from scoring.services.matches import match_create, match_delete
from scoring.services.rounds import RoundRecord, game_rounds_load
from scoring.tokens import game_token_now
from tests.admin_pages import admin_url, bulk_delete, refused_delete, said, save_as_shown, snapshot
from tests.admin_scenes import forfeited, game_with_rounds, pairs_day, reported_totals, settle
from tests.factories import (
    ClubEntryFactory,
    CompetitionFactory,
    GameFactory,
    MatchdayFactory,
    MatchFactory,
    PlayerFactory,
    TeamFactory,
)
from tests.refreshes import queued_refreshes
from tournaments.models import Bye, Entry, Match, Matchday, Team

pytestmark = pytest.mark.django_db


def with_rounds(game: Game) -> None:
    rounds = [RoundRecord(result="gewone_winst", side="a")]
    game_rounds_load(game_id=game.pk, rounds=rounds)


def with_totals(game: Game) -> None:
    seen = game_token_now(game_id=game.pk)
    game_totals_enter(game_id=game.pk, total_a=20, total_b=4, seen=seen)


def finished(game: Game) -> None:
    rounds = [RoundRecord(result="kap", side="b")] * 4  # 4 × 5 = 20, the target
    game_rounds_load(game_id=game.pk, rounds=rounds)
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED


def closed(game: Game) -> None:
    Game.objects.filter(pk=game.pk).update(status=Game.Status.CLOSED)  # at the time limit


# Every way a game holds a result.
GAME_RESULTS: dict[str, Callable[[Game], None]] = {
    "rounds": with_rounds,
    "totals only": with_totals,
    "finished": finished,
    "closed without rounds": closed,
}
with_each_game_result = pytest.mark.parametrize(
    "give_result", GAME_RESULTS.values(), ids=GAME_RESULTS.keys()
)


@with_each_game_result
def test_a_game_with_a_result_cannot_be_deleted(admin_client, give_result):
    game = GameFactory.create()
    give_result(game)
    before = snapshot(game)

    message = refused_delete(admin_client, game)

    assert "Nothing was deleted" in message and str(game) in message
    assert snapshot(game) == before


@with_each_game_result
def test_a_game_with_a_result_keeps_its_place_koppels_and_seats(
    admin_client,
    give_result,
):
    game = GameFactory.create()
    give_result(game)
    before = snapshot(game)
    page = admin_client.get(admin_url(Game, "change", game.pk)).content.decode()
    for name in ("match", "table", "sitting", "team_a", "seat_1"):
        assert f'name="{name}"' not in page

    response = save_as_shown(
        admin_client,
        game,
        table=7,
        team_a=game.team_b_id,
        team_b=game.team_a_id,
        seat_1=game.seat_2_id,
        match=MatchFactory.create().pk,
    )  # posted anyway: ignored

    assert response.status_code == 302
    assert snapshot(game) == before


def test_bulk_delete_of_games_refuses_all_when_one_has_a_result(admin_client):
    played, unplayed = GameFactory.create(), GameFactory.create()
    with_totals(played)

    chosen, _confirmed = bulk_delete(admin_client, [played, unplayed])

    assert str(played) in " ".join(str(m) for m in chosen.wsgi_request._messages)
    assert Game.objects.filter(pk__in=[played.pk, unplayed.pk]).count() == 2


def test_a_game_without_a_result_is_deleted_and_its_standings_refreshed(
    admin_client,
    django_capture_on_commit_callbacks,
):
    # Games of a club match: a pairs match's one game goes only with its match (below).
    match, home, away = club_day()
    one = Game.objects.create(match=match, table=1, sitting=1, team_a=home[0], team_b=away[0])
    two = Game.objects.create(match=match, table=2, sitting=1, team_a=home[1], team_b=away[1])
    settle()

    with django_capture_on_commit_callbacks() as callbacks:
        response = admin_client.post(admin_url(Game, "delete", one.pk), {"post": "yes"})
    assert response.status_code == 302
    assert queued_refreshes(callbacks) == [one.match.matchday.competition_id]

    settle()
    with django_capture_on_commit_callbacks() as callbacks:
        bulk_delete(admin_client, [two])
    assert queued_refreshes(callbacks) == [two.match.matchday.competition_id]
    assert not Game.objects.filter(pk__in=[one.pk, two.pk]).exists()


def test_a_game_moved_to_another_competition_refreshes_both_tables(
    admin_client,
    django_capture_on_commit_callbacks,
):
    game = GameFactory.create(seat_1=None, seat_2=None, seat_3=None, seat_4=None)
    old = game.match.matchday.competition
    # The same two koppels, entered in a second competition, meet there with no game yet.
    new = CompetitionFactory.create()
    home = Entry.objects.create(competition=new, team=game.team_a)
    away = Entry.objects.create(competition=new, team=game.team_b)
    matchday = MatchdayFactory.create(competition=new)
    target = MatchFactory.create(matchday=matchday, home=home, away=away)
    settle()

    with django_capture_on_commit_callbacks() as callbacks:
        response = save_as_shown(admin_client, game, match=target.pk)

    assert response.status_code == 302, response.content.decode()[:3000]
    assert Game.objects.get(pk=game.pk).match == target
    assert sorted(queued_refreshes(callbacks)) == sorted([old.pk, new.pk])


def game_data(
    match: Match, team_a: Team, team_b: Team, *, table: int, sitting: int = 1
) -> dict[str, Any]:
    """The add form of a game, without seats."""
    seats = {f"seat_{n}": "" for n in (1, 2, 3, 4)}
    rounds = {"rounds-TOTAL_FORMS": 0, "rounds-INITIAL_FORMS": 0}
    place = {"match": match.pk, "table": table, "sitting": sitting}
    return {**place, "team_a": team_a.pk, "team_b": team_b.pk, **seats, **rounds}


def test_a_second_game_on_a_pairs_match_is_refused_at_the_field(admin_client):
    game = GameFactory.create()
    match = game.match
    before = Game.objects.count()

    response = admin_client.post(
        admin_url(Game, "add"), game_data(match, game.team_a, game.team_b, table=1)
    )

    assert response.status_code == 200
    assert response.context["adminform"].form.errors["match"] == [
        "A match of a pairs competition has one game, not 2."
    ]
    assert Game.objects.count() == before


def club_day() -> tuple[Match, list[Team], list[Team]]:
    """A club match on a matchday, with three koppels of each club."""
    competition = CompetitionFactory.create(
        kind="clubs", koppels_per_side=3, min_koppels=3, sittings=3
    )
    home, away = (ClubEntryFactory.create(competition=competition) for _ in range(2))
    matchday = MatchdayFactory.create(competition=competition)
    match = MatchFactory.create(matchday=matchday, home=home, away=away)

    def koppels(entry: Entry) -> list[Team]:
        return [
            TeamFactory.create(
                player_1=PlayerFactory.create(club=entry.club),
                player_2=PlayerFactory.create(club=entry.club),
            )
            for _ in range(3)
        ]

    return match, koppels(home), koppels(away)


def test_a_koppel_at_two_tables_of_a_sitting_is_refused_at_the_field(admin_client):
    match, home, away = club_day()
    Game.objects.create(match=match, table=1, sitting=1, team_a=home[0], team_b=away[0])

    data = game_data(match, home[0], away[1], table=2)
    response = admin_client.post(admin_url(Game, "add"), data)

    assert response.status_code == 200
    assert response.context["adminform"].form.errors["team_a"] == [
        f"{home[0]} plays at two tables in sitting 1: a koppel plays one game at a time."
    ]
    assert match.games.count() == 1
    # The next sitting is free for it.
    data = game_data(match, home[0], away[1], table=2, sitting=2)
    response = admin_client.post(admin_url(Game, "add"), data)
    assert response.status_code == 302, response.content.decode()[:3000]


def test_a_database_refusal_of_a_game_is_shown_on_the_form_not_a_500(
    admin_client,
    monkeypatch,
):
    # The form's own checks skipped (a race between two admins): the database refuses.
    monkeypatch.setattr(GameAdminForm, "clean", forms.ModelForm.clean)
    match, home, away = club_day()
    Game.objects.create(match=match, table=1, sitting=1, team_a=home[0], team_b=away[0])

    data = game_data(match, home[0], away[1], table=2)
    response = admin_client.post(admin_url(Game, "add"), data)

    assert response.status_code == 200
    assert response.context["adminform"].form.non_field_errors() == [
        "A koppel plays one game at a time: it is at another table in this sitting."
    ]
    assert match.games.count() == 1


def test_a_round_is_never_changed_or_deleted_in_the_admin(admin_client):
    game = GameFactory.create()
    with_rounds(game)
    rnd = game.rounds.get()
    before = snapshot(rnd)

    assert admin_client.get(admin_url(Round, "delete", rnd.pk)).status_code == 403
    assert admin_client.post(admin_url(Round, "delete", rnd.pk), {"post": "yes"}).status_code == 403
    assert (
        admin_client.post(admin_url(Round, "change", rnd.pk), {"result": "kap"}).status_code == 403
    )
    chosen, confirmed = bulk_delete(admin_client, [rnd])  # the list has no actions at all
    assert chosen.status_code == confirmed.status_code == 200
    assert snapshot(rnd) == before


# ---------------------------------------------------------------- what holds a result


def competition_rows() -> dict[str, Any]:
    """One row of each kind, by name: a matchday with a game in play (rounds, not over),
    one played by a report, one with an empty game, each with a bye, and a competition
    with an unplayed matchday."""
    in_play, (a, b, c, _d) = pairs_day()
    competition = in_play.competition
    by_report = MatchdayFactory.create(competition=competition)
    unplayed = MatchdayFactory.create(competition=competition)
    rows: dict[str, Any] = {
        "match in play": game_with_rounds(in_play, a, b),
        "bye of a matchday in play": Bye.objects.create(matchday=in_play, entry=c),
        "reported match": reported_totals(by_report, a, b),
        "bye of a played matchday": Bye.objects.create(matchday=by_report, entry=c),
        "unplayed match": MatchFactory.create(matchday=unplayed, home=a, away=b),
        "bye of an unplayed matchday": Bye.objects.create(matchday=unplayed, entry=c),
        "matchday in play": in_play,
        "played matchday": by_report,
        "unplayed matchday": unplayed,
        "competition with results": competition,
        "competition without": MatchdayFactory.create().competition,
    }
    rows["game in play"] = rows["match in play"].games.get()
    rows["unplayed game"] = GameFactory.create(match=rows["unplayed match"])
    return rows


def test_result_holders_says_which_rows_hold_a_result():
    rows = competition_rows()

    holding = {
        name
        for name, row in rows.items()
        if result_holders(type(row)._default_manager.filter(pk=row.pk)).exists()
    }

    assert holding == {
        "match in play",
        "game in play",
        "reported match",
        "matchday in play",
        "played matchday",
        # A bye holds a result once it counts: when its matchday is played, a game in play
        # is not enough (`matchday_results`, as the standings count it).
        "bye of a played matchday",
        "competition with results",
    }
    assert holds_result(rows["game in play"])
    assert not holds_result(rows["unplayed game"])


def test_a_forfeit_alone_makes_a_matchday_played():
    matchday, (a, b, c, _d) = pairs_day()
    bye = Bye.objects.create(matchday=matchday, entry=c)
    assert not holds_result(bye)

    forfeited(matchday, a, b)

    assert holds_result(bye) and holds_result(matchday)
    assert result_holders(Matchday.objects.all()).get() == matchday


def test_result_holders_refuses_a_model_without_results():
    with pytest.raises(TypeError):
        result_holders(Entry.objects.all())


def test_the_game_of_an_unplayed_pairs_match_is_kept_delete_the_match_instead(admin_client):
    # Deleting it left the match without a game: the director pages said "No games yet"
    # and could not make it again.
    matchday, entries = pairs_day()
    match = match_create(matchday_id=matchday.pk, home_id=entries[0].pk, away_id=entries[1].pk)
    game = match.games.get()
    change = admin_url(Game, "change", game.pk)

    assert admin_url(Game, "delete", game.pk) not in admin_client.get(change).content.decode()
    for response in (
        admin_client.get(admin_url(Game, "delete", game.pk)),
        admin_client.post(admin_url(Game, "delete", game.pk), {"post": "yes"}),
    ):
        assert (response.status_code, response.url) == (302, change)
        assert "delete the match instead" in said(response)
    chosen, confirmed = bulk_delete(admin_client, [game])
    assert "delete the match instead" in said(chosen)
    assert str(game) in said(chosen)
    assert confirmed.status_code == 302
    assert Game.objects.filter(pk=game.pk).exists()

    # The match goes, and its game with it.
    match_delete(match_id=match.pk)
    assert not Game.objects.filter(pk=game.pk).exists()


def test_the_game_page_lists_no_rounds_but_links_to_them(admin_client):
    # 100,000 rounds inline made the page hang; now it names the count and links the list.
    game, other = GameFactory.create(), GameFactory.create()
    game_rounds_load(game_id=game.pk, rounds=[RoundRecord(result="redeal", side="a")] * 150)
    with_rounds(other)

    page = admin_client.get(admin_url(Game, "change", game.pk)).content.decode()

    assert "inline-group" not in page
    link = f"{admin_url(Round, 'changelist')}?game__id__exact={game.pk}"
    assert f'<a href="{link}">150 rounds</a>' in page
    listed = admin_client.get(link)
    assert listed.status_code == 200
    assert listed.context["cl"].result_count == 150
