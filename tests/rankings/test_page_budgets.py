"""Every page of `rankings.urls` keeps its query count as the data grows (issue 10: "pages
keep a constant query count as data grows (tested)").

One "star" koppel (two players of one club) plays in every growth step, so its own
history, opponents, seasons' games and its club's grow too, next to a season that grows
in koppels, players, clubs and competitions (`tests/rankings/test_season_queries.grow`).
Each page is read after one step and again after three; the counts must be equal. A new
page of `rankings.urls` without a row in `PAGES` fails `test_every_rankings_page_is_measured`.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import quote

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import URLPattern, reverse

from rankings import urls as rankings_urls
from rankings.services import ratings_refresh
from tests.builders import pairs_game
from tests.factories import ClubFactory, CompetitionFactory, MatchdayFactory, PlayerFactory
from tests.factories import TeamFactory as KoppelFactory
from tests.rankings.test_season_queries import SEASON, grow, played
from tournaments.models import Club, Entry, Team

pytestmark = pytest.mark.django_db

STAR, RIVAL = "star", "rival"


def _star_club() -> Club:
    return Club.objects.get(key="star-club")


PAGES: dict[str, Callable[[], str]] = {
    "rankings_latest": lambda: reverse("rankings_latest"),
    "season_rankings": lambda: (
        reverse("season_rankings", kwargs={"season": SEASON})
        + f"?by=koppel&club={_star_club().key}"
    ),
    "rating_list": lambda: reverse("rating_list"),
    "player_detail": lambda: reverse("player_detail", kwargs={"key": "star-1"}),
    "koppel_detail": lambda: reverse("koppel_detail", kwargs={"key": STAR}),
    "koppel_head_to_head": lambda: reverse(
        "koppel_head_to_head", kwargs={"key": STAR, "other": RIVAL}
    ),
    "club_detail": lambda: reverse("club_detail", kwargs={"key": _star_club().key}),
    "search": lambda: reverse("search") + "?q=" + quote("st"),
    "seasons_archive": lambda: reverse("seasons_archive"),
}


def _star_evening(step: int, games: int) -> None:
    """An evening of the season where the star koppel plays `games` games: one against
    its rival, the others against koppels new to it."""
    club = Club.objects.filter(key="star-club").first() or ClubFactory.create(key="star-club")
    star = Team.objects.filter(key=STAR).first() or KoppelFactory.create(
        key=STAR,
        player_1=PlayerFactory.create(key="star-1", club=club),
        player_2=PlayerFactory.create(key="star-2", club=club),
    )
    rival = Team.objects.filter(key=RIVAL).first() or KoppelFactory.create(key=RIVAL)
    evening = CompetitionFactory.create(slug=f"star-evening-{step}", season=SEASON)
    home = Entry.objects.create(
        competition=evening, team=star, player_1_club=club, player_2_club=club
    )
    for number in range(1, games + 1):
        day = MatchdayFactory.create(competition=evening, number=number)
        opponent = rival if number == 1 else KoppelFactory.create()
        away = Entry.objects.create(competition=evening, team=opponent)
        played(pairs_game(day, home, away, table=1), "a" if number % 2 else "b")


def _step(step: int) -> None:
    grow(3)
    _star_evening(step, 3)
    ratings_refresh()


def _queries(client: Client, url: str) -> int:
    client.get(url)  # warm: the first request's caches
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, follow=False)
    assert response.status_code in (200, 302), (url, response.status_code)
    return len(captured.captured_queries)


def test_every_rankings_page_is_measured() -> None:
    names = {p.name for p in rankings_urls.urlpatterns if isinstance(p, URLPattern) and p.name}
    assert names == set(PAGES), f"measure these pages here: {names ^ set(PAGES)}"


def test_every_rankings_page_keeps_its_query_count_as_the_data_grows(client: Client) -> None:
    _step(1)
    small = {name: _queries(client, url()) for name, url in PAGES.items()}
    _step(2)
    _step(3)
    large = {name: _queries(client, url()) for name, url in PAGES.items()}

    assert large == small
