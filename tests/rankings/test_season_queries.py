"""The season rankings and the rating list keep their query count as the season grows
(issue 10: "pages keep a constant query count as data grows (tested)").

Each page is read with a season of N games, then again once the season has 3N (more
competitions' matchdays, koppels, players and clubs): the count must not move, and stays
within the page's budget.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from rankings.models import PlayerRating, Season
from rankings.season_refresh import season_rankings_refresh
from scoring.models import Game
from scoring.services.rounds import RoundRecord, game_rounds_load
from tests.builders import pairs_game
from tests.factories import (
    ClubFactory,
    CompetitionFactory,
    MatchdayFactory,
    PlayerFactory,
    TeamFactory,
)
from tournaments.models import Club, Competition, Entry, Match, Team

pytestmark = pytest.mark.django_db

SEASON = "2026-2027"
# The most queries a page may make: the seasons, the stored rankings' state, the clubs,
# the stored ranking, a page of its lines and their count (issue 20); the rating list:
# its clubs, the count below, a page and its length.
SEASON_BUDGET = 7
RATINGS_BUDGET = 4
numbers = itertools.count(1)


def koppel(club: Club) -> Team:
    return TeamFactory.create(
        player_1=PlayerFactory.create(club=club), player_2=PlayerFactory.create(club=club)
    )


def played(game: Game, winner: str) -> None:
    """`game` played out in one load (as an import does): a failed baunie and a gewone
    for the loser, then four kaps for `winner`, the loser's player 1 calling first."""
    loser = "b" if winner == "a" else "a"
    caller = (game.team_b if winner == "a" else game.team_a).player_1_id
    rounds = [RoundRecord("baunie_mislukt", loser, caller), RoundRecord("gewone_winst", loser)]
    rounds += [RoundRecord("kap", winner)] * 4
    game_rounds_load(game_id=game.pk, rounds=rounds)


def grow(games: int) -> None:
    """`games` more finished games in a new pairs competition and as many in a new club
    match, both of the season, between koppels and clubs new to it (each game new
    players, a pairs koppel of two clubs), and their players rated."""
    n = next(numbers)
    home_club, away_club = ClubFactory.create(), ClubFactory.create()
    evening = CompetitionFactory.create(season=SEASON)
    day = MatchdayFactory.create(competition=evening, number=1)
    for table in range(1, games + 1):
        home, away = (
            Entry.objects.create(
                competition=evening,
                team=koppel(club),
                player_1_club=club,
                player_2_club=away_club,
            )
            for club in (home_club, away_club)
        )
        played(pairs_game(day, home, away, table=table), "a")
    league = CompetitionFactory.create(
        slug=f"league-{n}", season=SEASON, kind=Competition.Kind.CLUBS
    )
    match = Match.objects.create(
        matchday=MatchdayFactory.create(competition=league, number=1),
        home=Entry.objects.create(competition=league, club=home_club),
        away=Entry.objects.create(competition=league, club=away_club),
        table=1,
    )
    for sitting in range(1, games + 1):
        a, b = koppel(home_club), koppel(away_club)
        seats = {"seat_1": a.player_1, "seat_2": b.player_1}
        seats |= {"seat_3": a.player_2, "seat_4": b.player_2}
        game = Game.objects.create(
            match=match, table=1, sitting=sitting, team_a=a, team_b=b, **seats
        )
        played(game, "b")
    for player in itertools.chain.from_iterable(
        (team.player_1, team.player_2)
        for team in Team.objects.filter(player_1__rating__isnull=True)
    ):
        games_rated = 1 + player.pk % 4  # some below the threshold (3)
        PlayerRating.objects.create(
            player=player,
            mu=20 + player.pk % 7,
            sigma=5,
            ordinal=5 + player.pk % 7,
            games=games_rated,
        )


def queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(captured.captured_queries)


def season_url(**params: str) -> str:
    url = reverse("season_rankings", kwargs={"season": SEASON})
    return url + ("?" + "&".join(f"{k}={v}" for k, v in params.items()) if params else "")


def first_club() -> str:
    club = Club.objects.order_by("pk").first()
    assert club is not None
    return club.key


PAGES: list[tuple[str, Callable[[], str], int]] = [
    ("by player", lambda: season_url(), SEASON_BUDGET),
    ("by koppel", lambda: season_url(by="koppel"), SEASON_BUDGET),
    ("by club", lambda: season_url(by="club"), SEASON_BUDGET),
    ("pairs of a club", lambda: season_url(kind="pairs", club=first_club()), SEASON_BUDGET),
    ("koppels of a club", lambda: season_url(by="koppel", club=first_club()), SEASON_BUDGET),
    ("sorted, page 2", lambda: season_url(sort="-saldo", page="2"), SEASON_BUDGET),
    ("bad parameters", lambda: season_url(by="x", kind="y", club="z"), SEASON_BUDGET),
    ("ratings", lambda: reverse("rating_list"), RATINGS_BUDGET),
    ("ratings of a club", lambda: reverse("rating_list") + f"?club={first_club()}", 4),
    ("ratings sorted", lambda: reverse("rating_list") + "?sort=games&page=2", RATINGS_BUDGET),
]


BESTS = [None, 2]


@pytest.fixture(scope="module")
def small_counts(
    module_atomic: None, django_db_blocker: Any
) -> dict[tuple[str, int | None], int | Exception]:
    """Built once for the module (`module_atomic`): a season of N games, each page's query
    count then (with and without a best-N setting, each read by a new client as a test's
    first request), and the season grown to 3N for the tests (or why a page failed)."""
    counts: dict[tuple[str, int | None], int | Exception] = {}
    with django_db_blocker.unblock():
        grow(6)  # 12 games, 48 players
        for best in BESTS:
            before = transaction.savepoint()
            if best:
                Season.objects.create(name=SEASON, best_evenings=best)
            season_rankings_refresh(season=SEASON)  # the page reads them stored (issue 20)
            for page, url, _budget in PAGES:
                try:
                    with transaction.atomic():  # a failed page undoes only its own writes
                        counts[page, best] = queries(Client(), url())
                except Exception as failed:  # noqa: BLE001 - that page's test fails with it
                    counts[page, best] = failed
            transaction.savepoint_rollback(before)
        grow(6)
        grow(6)  # 36 games, 144 players: three pages of them
        season_rankings_refresh(season=SEASON)
    return counts


@pytest.mark.parametrize("best", BESTS, ids=["no best-N", "best 2"])
@pytest.mark.parametrize(("page", "url", "budget"), PAGES, ids=[page for page, _, _ in PAGES])
def test_a_page_makes_as_many_queries_for_3n_games_as_for_n(
    client: Client,
    django_assert_num_queries: Any,
    small_counts: dict[tuple[str, int | None], int | Exception],
    page: str,
    url: Any,
    budget: int,
    best: Any,
) -> None:
    if best:
        Season.objects.create(name=SEASON, best_evenings=best)
        season_rankings_refresh(season=SEASON)
    small = small_counts[page, best]  # read with N games (the fixture grew them to 3N)
    if isinstance(small, Exception):
        raise small
    client.get(url())  # the page read with N games was this client's first request

    address = url()
    with django_assert_num_queries(small):
        client.get(address)
    assert small <= budget
