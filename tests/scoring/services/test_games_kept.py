"""A lineup saved again keeps what it doesn't change (issue 19, item 1): each game whose two
koppels still meet keeps its row, its seats, its first caller and its table links (the
printed QR codes); an unchanged lineup writes nothing at all.

The swap's side of it is in test_swap_in_place.py; the races with a table's round in
test_lineup_race.py.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from django.apps import apps
from django.test import Client
from django.urls import reverse

from scoring.models import Game
from scoring.rules import RuleViolation
from scoring.services.games import game_seats_set, game_seats_token
from scoring.services.lineups import club_match_lineup_set
from scoring.services.schedule import schedule_round_robin_create
from scoring.services.table import game_links_ensure
from tests.builders import club_competition, koppels_of, record
from tests.seen import match_token_now
from tournaments.models import Match, Team

pytestmark = pytest.mark.django_db


def history_rows() -> int:
    """Every audit history row stored, of every model that keeps history."""
    return sum(
        model._default_manager.count()
        for model in apps.get_models()
        if model.__name__.startswith("Historical")
    )


def club_match(**fields: Any) -> tuple[Match, list[Team], list[Team]]:
    """Matchday 1's match of a two-club round robin (`club_competition`: 2 koppels a side,
    2 sittings; `fields` change these) and each club's three koppels."""
    competition = club_competition(**fields)
    schedule_round_robin_create(competition_id=competition.pk)
    match = Match.objects.get(matchday__competition=competition, matchday__number=1)
    return match, koppels_of(match.home), koppels_of(match.away)


def lineup_set(
    match: Match, home: Sequence[Team | None], away: Sequence[Team | None], **extra: Any
) -> Match:
    return club_match_lineup_set(
        match_id=match.pk,
        home_teams=[team.pk if team else None for team in home],
        away_teams=[team.pk if team else None for team in away],
        seen=extra.pop("seen", None) or match_token_now(match_id=match.pk),
        **extra,
    )


def seated(game: Game) -> Game:
    """`game` with its four players seated (koppel A in seats 1 and 3) and seat 2 calling
    first, as the score sheet sets them."""
    a, b = Team.objects.get(pk=game.team_a_id), Team.objects.get(pk=game.team_b_id)
    return game_seats_set(
        game_id=game.pk,
        seats=[a.player_1_id, b.player_1_id, a.player_2_id, b.player_2_id],
        first_caller=2,
        seen=game_seats_token(game, []),
    )


def games_of(match: Match) -> dict[tuple[int, int], Game]:
    """The match's games by (koppel A id, koppel B id)."""
    return {(game.team_a_id, game.team_b_id): game for game in Game.objects.filter(match=match)}


def places(match: Match) -> set[tuple[int, int, int, int]]:
    """(sitting, table, koppel A id, koppel B id) of each of the match's games."""
    return set(Game.objects.filter(match=match).values_list("sitting", "table", "team_a", "team_b"))


def tokens(games: dict[tuple[int, int], Game]) -> dict[tuple[int, int], list[str]]:
    """Both koppels' table link tokens of each game (made where missing)."""
    links = game_links_ensure(game_ids=[game.pk for game in games.values()])
    return {key: [links[game.pk][s].token for s in "ab"] for key, game in games.items()}


def table_status(client: Client, token: str) -> int:
    return client.get(reverse("table_sheet", kwargs={"token": token})).status_code


def match_manage_url(match: Match) -> str:
    slug = match.matchday.competition.slug
    return reverse("match_manage", kwargs={"slug": slug, "match_id": match.pk})


def lineup_form_data(client: Client, match: Match) -> dict[str, Any]:
    """The director's lineup form as the match page shows it now, ready to post back."""
    form = client.get(match_manage_url(match)).context["lineup_form"]
    initial = {key: value for key, value in form.initial.items() if value is not None}
    return {"action": "lineup", **{f"lineup-{key}": value for key, value in initial.items()}}


@pytest.fixture
def three_a_side() -> Iterator[tuple[Match, list[Team], list[Team]]]:
    """A club match with its lineup set: three koppels a side over three sittings (nine
    games), every game's links made and one game seated."""
    match, home, away = club_match(koppels_per_side=3, min_koppels=3, sittings=3)
    lineup_set(match, home, away)
    games = games_of(match)
    assert len(games) == 9
    seated(games[(home[0].pk, away[0].pk)])
    yield match, home, away


# ---------------------------------------------------------------- unchanged: nothing written


def test_an_unchanged_lineup_posted_again_keeps_every_game_seat_and_link(
    director_client, three_a_side, django_capture_on_commit_callbacks
):
    match, home, away = three_a_side
    before = games_of(match)
    links = tokens(before)
    seats = {key: (game.seats, game.first_caller) for key, game in before.items()}
    rows = history_rows()
    data = lineup_form_data(director_client, match)

    with django_capture_on_commit_callbacks() as callbacks:
        response = director_client.post(match_manage_url(match), data)

    assert response.status_code == 302
    assert history_rows() - rows == 0
    assert callbacks == []  # no standings refresh queued
    after = games_of(match)
    assert {key: game.pk for key, game in after.items()} == {
        key: game.pk for key, game in before.items()
    }
    assert {key: (game.seats, game.first_caller) for key, game in after.items()} == seats
    assert seats[(home[0].pk, away[0].pk)][1] == 2  # the seated game is still seated
    assert tokens(after) == links
    assert {table_status(director_client, token) for pair in links.values() for token in pair} == {
        200
    }


def test_an_unchanged_lineup_from_the_service_writes_nothing(
    three_a_side, django_capture_on_commit_callbacks
):
    match, home, away = three_a_side
    games = sorted(Game.objects.filter(match=match).values_list("pk", flat=True))
    rows = history_rows()
    with django_capture_on_commit_callbacks() as callbacks:
        lineup_set(match, home, away)
    assert (history_rows() - rows, callbacks) == (0, [])
    assert sorted(Game.objects.filter(match=match).values_list("pk", flat=True)) == games


def test_an_unchanged_lineup_sent_twice_from_a_stale_page_writes_nothing(
    director_client, django_capture_on_commit_callbacks
):
    match, home, away = club_match()
    data = lineup_form_data(director_client, match)  # the page before any lineup
    data.update({"lineup-home_1": home[0].pk, "lineup-home_2": home[1].pk})
    data.update({"lineup-away_1": away[0].pk, "lineup-away_2": away[1].pk})
    assert director_client.post(match_manage_url(match), data).status_code == 302
    games = sorted(Game.objects.filter(match=match).values_list("pk", flat=True))
    rows = history_rows()

    with django_capture_on_commit_callbacks() as callbacks:
        response = director_client.post(match_manage_url(match), data)  # the double click

    assert response.status_code == 302
    assert (history_rows() - rows, callbacks) == (0, [])
    assert sorted(Game.objects.filter(match=match).values_list("pk", flat=True)) == games


# ---------------------------------------------------------------- a change: only what changed


def test_changing_one_koppel_keeps_the_games_of_the_others(client):
    match, home, away = club_match()  # two koppels a side, two sittings: four games
    lineup_set(match, home[:2], away[:2])
    before = games_of(match)
    assert len(before) == 4
    links = tokens(before)
    kept = {key: game for key, game in before.items() if home[1].pk not in key}
    for game in kept.values():
        seated(game)
    rows = history_rows()

    lineup_set(match, [home[0], home[2]], away[:2])  # home's second koppel replaced

    after = games_of(match)
    assert set(after) == {(h.pk, a.pk) for h in (home[0], home[2]) for a in away[:2]}
    for key, game in kept.items():
        now = after[key]
        assert (now.pk, now.sitting, now.table) == (game.pk, game.sitting, game.table)
        assert now.seats == seated(game).seats and now.first_caller == 2
        assert {table_status(client, token) for token in links[key]} == {200}
    # The replaced koppel's games went with their links: a printed code opens nothing
    # rather than another koppel's game.
    gone = [token for key, pair in links.items() if key not in kept for token in pair]
    assert {table_status(client, token) for token in gone} == {404}
    new = [after[(home[2].pk, a.pk)] for a in away[:2]]
    assert all(game.pk not in {g.pk for g in before.values()} for game in new)
    assert all(game.seats == (None, None, None, None) for game in new)
    # Two games deleted, two made, the match's lineup: five rows, not 4 + 4 + 1.
    assert history_rows() - rows == 5


def test_koppels_that_still_meet_at_another_table_keep_their_game(client):
    match, home, away = club_match()
    lineup_set(match, home[:2], away[:2])
    before = games_of(match)
    links = tokens(before)
    seated(before[(home[1].pk, away[0].pk)])
    rows = history_rows()

    lineup_set(match, [home[1], home[0]], away[:2])  # the home places swapped

    # The same four koppel pairs meet, each at another table or sitting: the games move.
    after = games_of(match)
    assert {key: game.pk for key, game in after.items()} == {
        key: game.pk for key, game in before.items()
    }
    assert places(match) == {
        (1, 1, home[1].pk, away[0].pk),
        (1, 2, home[0].pk, away[1].pk),
        (2, 1, home[1].pk, away[1].pk),
        (2, 2, home[0].pk, away[0].pk),
    }
    assert after[(home[1].pk, away[0].pk)].first_caller == 2
    assert tokens(after) == links
    # One row per game that moved (its new place) and the match's: nothing made anew.
    moved = sum(
        (game.sitting, game.table) != (after[key].sitting, after[key].table)
        for key, game in before.items()
    )
    assert history_rows() - rows == moved + 1
    history = Game.history.filter(id=after[(home[1].pk, away[0].pk)].pk).order_by("history_id")
    assert [(row.history_type, row.sitting, row.table) for row in history][-1] == ("~", 1, 1)


def test_a_lineup_change_is_refused_once_a_game_has_a_round_and_keeps_it(three_a_side):
    match, home, away = three_a_side
    game = games_of(match)[(home[0].pk, away[0].pk)]
    record(game, "kap")
    with pytest.raises(RuleViolation) as caught:
        lineup_set(match, [home[1], home[0], home[2]], away)
    assert caught.value.code == "match_has_results"
    assert game.rounds.count() == 1 and Game.objects.filter(match=match).count() == 9
