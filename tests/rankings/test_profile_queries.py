"""The player, koppel, head-to-head and club pages cost the same number of queries
whatever the number of games, seasons and opponents (issue 10: "pages keep a constant
query count as data grows"): each page is opened on a koppel with N and with 3N games
(three seasons, a new opponent each game) and must cost exactly its budget both times.

The histories are paged in Python over `game_rows` (three queries for all the games),
which the season tallies need anyway (`rankings.profiles`).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from rankings.models import PlayerRating, RatedGame, RatingChange
from scoring.models import Game
from tests.builders import seasons_rankings_refresh
from tests.rankings.profile_scenes import koppel_with_games
from tournaments.models import Team

pytestmark = pytest.mark.django_db

N = 10  # 3N = 30 games: the history has two pages

# Queries a page: player (with club and rating) 1, rating history 1, the player's koppels 1
# (issue 20: games found by koppel id), game_rows 3, koppels 1, clubs of the seasons 1,
# the all-time table 1 (issue 22).
PLAYER = 9
# koppel 1, game_rows 3, koppels met 1, the all-time table 1.
KOPPEL = 6
# both koppels 1, game_rows 3.
HEAD_TO_HEAD = 4
# club 1, players now 2 (their number and a page, issue 20), competitions 1, its seasons from
# the stored rankings 3 (the lists, the club's lines, the names shown) and their states 1,
# its games: their number 1, a page of ids 1, game_rows 3 and their koppels 1 (issue 20:
# paged in the database, not walked in Python), the all-time table 1 (issue 22).
CLUB = 15


def rated(busy: Team) -> None:
    """Ratings for the busy koppel's first player after each of its games."""
    games = Game.objects.filter(team_a=busy).order_by("match__matchday__date", "pk")
    for position, game in enumerate(games, start=1):
        rated_game = RatedGame.objects.create(position=position, game=game, signature="s")
        RatingChange.objects.create(
            rated_game=rated_game, player=busy.player_1, mu=25 + position, sigma=8
        )
    PlayerRating.objects.create(
        player=busy.player_1, mu=25 + len(games), sigma=8, ordinal=len(games) + 1, games=len(games)
    )


PAGES: dict[str, tuple[int, Callable[[Team], str]]] = {
    "player": (PLAYER, lambda busy: reverse("player_detail", kwargs={"key": busy.player_1.key})),
    "koppel": (KOPPEL, lambda busy: reverse("koppel_detail", kwargs={"key": busy.key})),
    "head_to_head": (
        HEAD_TO_HEAD,
        lambda busy: reverse("koppel_head_to_head", kwargs={"key": busy.key, "other": "o1"}),
    ),
    "club": (CLUB, lambda busy: reverse("club_detail", kwargs={"key": "busy-club"})),
}


@pytest.mark.parametrize("name", PAGES)
@pytest.mark.parametrize("games", [N, 3 * N])
def test_each_page_costs_the_same_queries_for_n_and_3n_games(
    client: Client, django_assert_num_queries, name: str, games: int
) -> None:
    budget, address = PAGES[name]
    busy = koppel_with_games(games)
    rated(busy)
    seasons_rankings_refresh()  # as the worker would: the club page reads them

    with django_assert_num_queries(budget):
        response = client.get(address(busy))

    assert response.status_code == 200


@pytest.mark.parametrize("games", [N, 3 * N])
def test_a_later_history_page_costs_no_more(
    client: Client, django_assert_num_queries, games: int
) -> None:
    busy = koppel_with_games(games)

    with django_assert_num_queries(KOPPEL):
        response = client.get(reverse("koppel_detail", kwargs={"key": busy.key}), {"page": "2"})

    assert response.status_code == 200


@pytest.mark.parametrize("games", [N, 3 * N])
def test_a_later_club_history_page_costs_no_more(
    client: Client, django_assert_num_queries, games: int
) -> None:
    koppel_with_games(games)
    seasons_rankings_refresh()

    with django_assert_num_queries(CLUB):
        response = client.get(reverse("club_detail", kwargs={"key": "busy-club"}), {"page": "2"})

    assert response.status_code == 200
