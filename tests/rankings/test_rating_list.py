"""The rating list page (issue 10: "a minimum games threshold before a player appears in
the rating list"). The `PlayerRating` rows are the ratings service's output; here they are
written directly, with numbers chosen to read the page against."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from rankings.models import PlayerRating, Season
from tests.factories import ClubFactory, PlayerFactory
from tests.rankings.test_season_rankings import read, rows, text
from tournaments.models import Club, Player

pytestmark = pytest.mark.django_db

URL = reverse("rating_list")


def rated(name: str, club: Club | None, *, mu: float, sigma: float, games: int) -> Player:
    player = PlayerFactory.create(key=name.lower(), name=name, club=club)
    PlayerRating.objects.create(
        player=player, mu=mu, sigma=sigma, ordinal=mu - 3 * sigma, games=games
    )
    return player


@pytest.fixture
def ratings() -> dict[str, Club]:
    kampoe = ClubFactory.create(key="kampoe", name="Kampoe")
    toppers = ClubFactory.create(key="toppers", name="Toppers")
    rated("Anna", kampoe, mu=30.0, sigma=4.0, games=12)  # 18.0
    rated("Bob", toppers, mu=28.0, sigma=3.5, games=3)  # 17.5
    rated("Cees", kampoe, mu=27.5, sigma=3.5, games=7)  # 17.0
    rated("Dirk", None, mu=26.0, sigma=3.0, games=5)  # 17.0: ties with Cees
    rated("Eva", kampoe, mu=40.0, sigma=2.0, games=2)  # 34.0, but two games only
    rated("Fons", toppers, mu=35.0, sigma=2.0, games=1)
    return {"kampoe": kampoe, "toppers": toppers}


def test_players_with_enough_games_are_ranked_by_rating(client, ratings):
    page = client.get(URL)

    assert page.status_code == 200
    assert rows(page) == [
        ["#", "Player", "Club", "Rating", "μ", "σ", "G"],
        ["1", "Anna", "Kampoe", "18.0", "30.00", "4.00", "12"],
        ["2", "Bob", "Toppers", "17.5", "28.00", "3.50", "3"],
        ["3", "Cees", "Kampoe", "17.0", "27.50", "3.50", "7"],
        ["3", "Dirk", "—", "17.0", "26.00", "3.00", "5"],  # equal ratings share a rank
    ]
    assert reverse("player_detail", kwargs={"key": "anna"}) in read(page).links
    assert reverse("club_detail", kwargs={"key": "kampoe"}) in read(page).links


@pytest.mark.nl
def test_a_dutch_page_writes_the_numbers_the_dutch_way(client, ratings):
    rated("Gijs", None, mu=24.35, sigma=6.45, games=4)  # rating 4.999…: rounds to 5,0
    rated("Hans", None, mu=10.0, sigma=5.0, games=4)  # −5.0, a real minus sign

    body = rows(client.get(URL))[1:]

    assert body[0][3:6] == ["18,0", "30,00", "4,00"]
    assert [row[3:6] for row in body if row[1] in {"Gijs", "Hans"}] == [
        ["5,0", "24,35", "6,45"],
        ["\u22125,0", "10,00", "5,00"],
    ]


def test_the_page_explains_the_rating_and_how_many_are_left_out(client, ratings):
    words = " ".join(text(client.get(URL)).split())

    assert "A player appears after 3 rated games. 2 players with fewer are not shown." in words
    assert "computed from every finished game in date order" in words
    assert "OpenSkill" in words


@pytest.mark.parametrize(
    ("minimum", "shown", "line"),
    [
        (1, ["Eva", "Fons", "Anna", "Bob", "Cees", "Dirk"], "Nobody is left out."),
        (7, ["Anna", "Cees"], "4 players with fewer are not shown."),
        (13, [], "6 players with fewer are not shown."),
    ],
)
def test_the_threshold_is_the_setting(client, ratings, settings, minimum, shown, line):
    settings.RATING_MIN_GAMES = minimum
    page = client.get(URL)

    assert [row[1] for row in rows(page)[1:] if len(row) > 1] == shown
    assert line in " ".join(text(page).split())


def test_a_club_lists_its_players_of_now_with_their_own_ranks(client, ratings):
    page = client.get(URL + "?club=kampoe")

    assert [row[:3] for row in rows(page)[1:]] == [["1", "Anna", "Kampoe"], ["2", "Cees", "Kampoe"]]
    assert "1 player with fewer is not shown." in text(page)  # Eva
    assert 'value="kampoe" selected' in text(page)


def test_an_unknown_club_shows_everybody_and_says_so(client, ratings):
    page = client.get(URL + "?club=" + "nope")

    assert len(rows(page)) == 5
    assert "No listed player plays for a club “nope”; showing all clubs." in text(page)


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("sort=games", "Bob"),
        ("sort=-games", "Anna"),
        ("sort=player", "Anna"),
        ("sort=-rank", "Cees"),  # lowest rating first; Cees and Dirk tie: by name
        ("sort=-ordinal", "Anna"),
        ("sort=nonsense&page=abc", "Anna"),
        ("page=99", "Anna"),
    ],
)
def test_sorting_and_bad_parameters_never_fail(client, ratings, query, first):
    page = client.get(URL + "?" + query)

    assert page.status_code == 200
    assert rows(page)[1][1] == first


def test_without_ratings_the_list_says_so(client, db):
    page = client.get(URL)

    assert page.status_code == 200
    assert "No player has enough rated games yet." in text(page)
    assert "Nobody is left out." in text(page)
    assert 'name="club"' not in text(page)


def test_an_htmx_request_gets_the_list_only(client, ratings):
    page = client.get(URL + "?club=toppers", headers={"HX-Request": "true"})

    assert text(page).lstrip().startswith('<div id="ratings"')
    assert [row[1] for row in rows(page)[1:]] == ["Bob"]


def test_the_admin_lists_ratings_read_only(admin_client: Any, ratings):
    listing = admin_client.get(reverse("admin:rankings_playerrating_changelist"))
    anna = PlayerRating.objects.get(player__key="anna")
    change = admin_client.get(reverse("admin:rankings_playerrating_change", args=[anna.pk]))

    assert listing.status_code == 200
    assert "Anna" in text(listing)
    assert change.status_code == 200
    assert 'name="mu"' not in text(change)  # read-only: no field to type in
    assert admin_client.get(reverse("admin:rankings_playerrating_add")).status_code == 403


def test_the_admin_sets_a_seasons_best_evenings(admin_client: Any, db):
    page = admin_client.post(
        reverse("admin:rankings_season_add"), {"name": "2026-2027", "best_evenings": "6"}
    )

    assert page.status_code == 302
    assert Season.objects.get().best_evenings == 6
