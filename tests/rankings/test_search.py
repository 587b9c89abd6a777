"""The site search (issue 10): players, koppels, clubs and competitions by name, each group
cut to its limit with the count of all matches, safe on any input, in four queries; and
the search box in the navbar of every page."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from rankings.search import GROUP_LIMIT, QUERY_MAX_LENGTH, search_words, site_search
from tests.factories import (
    ClubFactory,
    CompetitionFactory,
    MatchdayFactory,
    PlayerFactory,
    TeamFactory,
)

pytestmark = pytest.mark.django_db

SEARCH = "/search/"  # reverse("search"), checked in test_the_address_is_search


@pytest.fixture
def scene() -> dict[str, object]:
    """A club, two players of it, their koppel, another koppel by name, two competitions."""
    kampoe = ClubFactory.create(key="kampoe", name="Kampoe")
    ramdin = PlayerFactory.create(key="ramdin-r", name="R. Ramdin", club=kampoe)
    sunita = PlayerFactory.create(key="sunita-k", name="K. Sunita", club=kampoe)
    PlayerFactory.create(key="other", name="A. Other")
    pair = TeamFactory.create(key="rs", name="", player_1=ramdin, player_2=sunita)
    named = TeamFactory.create(key="kampoe-stars", name="Kampoe Stars")
    league = CompetitionFactory.create(slug="stcb-2026", name="STCB league", season="2026-2027")
    evening = CompetitionFactory.create(slug="kampoe-evening", name="Club evening", season="2025")
    return {
        "kampoe": kampoe,
        "ramdin": ramdin,
        "sunita": sunita,
        "pair": pair,
        "named": named,
        "league": league,
        "evening": evening,
    }


def names(group) -> list[str]:
    return [str(row) for row in group.rows]


@pytest.mark.parametrize(
    ("text", "players", "koppels", "clubs", "competitions"),
    [
        ("ramdin", ["R. Ramdin"], ["R. Ramdin & K. Sunita"], [], []),
        ("RAMDIN", ["R. Ramdin"], ["R. Ramdin & K. Sunita"], [], []),
        ("sunita-k", ["K. Sunita"], [], [], []),  # a player's key
        ("kampoe", [], ["Kampoe Stars"], ["Kampoe"], ["Club evening"]),  # name, key or slug
        ("stars", [], ["Kampoe Stars"], [], []),
        ("2026-2027", [], [], [], ["STCB league"]),  # a season
        ("stcb", [], [], [], ["STCB league"]),
        ("nobody", [], [], [], []),
    ],
)
def test_each_group_finds_what_contains_the_words(
    scene, text, players, koppels, clubs, competitions
):
    found = site_search(text=text)
    assert found.searched
    assert names(found.players) == players
    assert names(found.koppels) == koppels
    assert names(found.clubs) == clubs
    assert names(found.competitions) == competitions


def test_names_starting_with_the_words_come_first():
    PlayerFactory.create(name="Anna Jansen")
    PlayerFactory.create(name="Jan Pinas")
    PlayerFactory.create(name="Bea Jansen")
    assert names(site_search(text="jan").players) == ["Jan Pinas", "Anna Jansen", "Bea Jansen"]


def test_a_group_shows_its_limit_and_counts_all():
    for n in range(GROUP_LIMIT + 3):
        PlayerFactory.create(name=f"Pinas {n:02d}")
    found = site_search(text="pinas")
    assert len(found.players.rows) == GROUP_LIMIT
    assert (found.players.total, found.players.more) == (GROUP_LIMIT + 3, 3)
    assert names(found.players)[0] == "Pinas 00"


@pytest.mark.parametrize(
    "text",
    [
        "R. Ramdin & K. Sunita",  # as the koppel is shown
        "k. sunita & r. ramdin",  # either order, any case
        "Ramdin&Sunita",  # each name in part
        "Ramdin en Sunita",
        "sunita AND ramdin",
    ],
)
def test_a_koppel_is_found_by_its_two_players_names(scene, text):
    assert names(site_search(text=text).koppels) == ["R. Ramdin & K. Sunita"]


@pytest.mark.parametrize("text", ["Ramdin & Other", "Ramdin & ", "Ramdin & Sunita & Other"])
def test_two_names_find_only_a_koppel_of_both(scene, text):
    assert names(site_search(text=text).koppels) == []


def test_the_koppel_of_two_names_comes_before_koppels_containing_the_words():
    """ "Kampoe & Stars" is also the name of a koppel: the players' koppel comes first."""
    one = PlayerFactory.create(name="Ann Kampoe")
    two = PlayerFactory.create(name="Bea Stars")
    TeamFactory.create(name="Zulu Kampoe & Stars")
    TeamFactory.create(name="", player_1=two, player_2=one)
    assert names(site_search(text="Kampoe & Stars").koppels) == [
        "Bea Stars & Ann Kampoe",
        "Zulu Kampoe & Stars",
    ]


@pytest.mark.parametrize("text", ["", " ", "a", " a ", "\x00", "\x00a\x00", "\u200f", "\u202ex"])
def test_less_than_two_letters_searches_nothing(text, django_assert_num_queries):
    with django_assert_num_queries(0):
        found = site_search(text=text)
    assert not found.searched and found.total == 0


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ("  Ramdin   Sunita ", "Ramdin Sunita"),
        ("Ram\x00din", "Ramdin"),
        ("\u200fRamdin\u200e", "Ramdin"),  # right-to-left and left-to-right marks
        ("Sjo\u0308n", "Sjön"),  # decomposed, as a Mac may send it: stored names are NFC
        ("x" * 10_000, "x" * QUERY_MAX_LENGTH),
        ("\ud800ab", "ab"),  # a lone surrogate: the database could not take it
    ],
)
def test_the_words_are_cleaned(raw, words):
    assert search_words(raw) == words


def test_like_wildcards_are_taken_literally(scene):
    PlayerFactory.create(name="100% Raj")
    PlayerFactory.create(name="Raj_Kumar")
    assert names(site_search(text="0%").players) == ["100% Raj"]
    assert names(site_search(text="j_k").players) == ["Raj_Kumar"]
    assert site_search(text="%%").total == 0
    assert site_search(text="__").total == 0


def zee_rows(count: int, *, start: int) -> None:
    """`count` more of each kind whose names contain "zee"."""
    for n in range(start, start + count):
        club = ClubFactory.create(name=f"Zeelandia {n}")
        player = PlayerFactory.create(name=f"Zee Speler {n}", club=club)
        TeamFactory.create(name=f"Zeekoppel {n}", player_1=player)
        CompetitionFactory.create(name=f"Zeecup {n}")


@pytest.mark.parametrize(("small", "large"), [(4, 12)])
def test_four_queries_whatever_the_number_of_rows(small, large):
    counts, shown, totals = [], [], []
    made = 0
    for size in (small, large):
        zee_rows(size - made, start=made)
        made = size
        with CaptureQueriesContext(connection) as captured:
            found = site_search(text="zee")
        counts.append(len(captured.captured_queries))
        groups = (found.players, found.koppels, found.clubs, found.competitions)
        shown.append({len(group.rows) for group in groups})
        totals.append({group.total for group in groups})
    assert counts == [4, 4]
    assert shown == [{small}, {GROUP_LIMIT}]
    assert totals == [{small}, {large}]


@pytest.mark.parametrize("text", ["Zee Speler & Zee Maat", "zee maat en zee speler"])
@pytest.mark.parametrize(("small", "large"), [(4, 12)])
def test_a_koppel_by_its_players_takes_the_same_four_queries(small, large, text):
    counts, totals = [], []
    made = 0
    for size in (small, large):
        for n in range(made, size):
            TeamFactory.create(
                name="", player_1__name=f"Zee Speler {n}", player_2__name=f"Zee Maat {n}"
            )
        made = size
        with CaptureQueriesContext(connection) as captured:
            found = site_search(text=text)
        counts.append(len(captured.captured_queries))
        totals.append(found.koppels.total)
    assert counts == [4, 4]
    assert totals == [small, large]


# ------------------------------------------------------------------------ the page


def test_the_address_is_search():
    assert reverse("search") == SEARCH


def test_the_page_lists_each_group_with_links_and_counts(client, scene):
    page = client.get(SEARCH, {"q": "kampoe"}).content.decode()
    assert reverse("club_detail", kwargs={"key": "kampoe"}) in page
    assert reverse("koppel_detail", kwargs={"key": "kampoe-stars"}) in page
    assert reverse("competition_detail", kwargs={"slug": "kampoe-evening"}) in page
    assert "3 results for “kampoe”" in page
    page = client.get(SEARCH, {"q": "ramdin"}).content.decode()
    assert reverse("player_detail", kwargs={"key": "ramdin-r"}) in page
    assert reverse("koppel_detail", kwargs={"key": "rs"}) in page


def test_the_page_keeps_the_words_in_both_search_boxes(client, scene):
    page = client.get(SEARCH, {"q": "ramdin"}).content.decode()
    assert page.count('value="ramdin"') == 2  # the navbar's box and the page's


def test_the_page_says_how_many_more_there_are(client):
    for n in range(GROUP_LIMIT + 2):
        PlayerFactory.create(name=f"Pinas {n:02d}")
    page = client.get(SEARCH, {"q": "pinas"}).content.decode()
    assert "and 2 more" in page


@pytest.mark.parametrize("q", ["", "a", "\u200f"])
def test_a_too_short_search_gets_a_hint(client, q, django_assert_max_num_queries):
    with django_assert_max_num_queries(2):  # the session, at most: no search query
        response = client.get(SEARCH, {"q": q})
    assert response.status_code == 200
    assert "Type at least two letters" in response.content.decode()


def test_the_page_finds_a_koppel_by_its_shown_name(client, scene):
    page = client.get(SEARCH, {"q": "R. Ramdin & K. Sunita"}).content.decode()
    assert "Nothing found" not in page
    assert reverse("koppel_detail", kwargs={"key": "rs"}) in page


def test_nothing_found_says_so(client, scene):
    assert "Nothing found for “zzz”" in client.get(SEARCH, {"q": "zzz"}).content.decode()


@pytest.mark.parametrize(
    "q",
    [
        "x" * 10_000,
        "%",
        "%_%",
        "\\",
        "\\%",
        "a\x01b",
        "\x1b" * 50,
        "\u202eeivsaR\u202c",
        "<script>alert(1)</script>",
        "' OR 1=1 --",
        "🂡🂡",
    ],
)
def test_odd_input_is_never_a_500(client, scene, q):
    response = client.get(SEARCH, {"q": q})
    assert response.status_code == 200
    assert "<script>alert" not in response.content.decode()


def test_odd_query_strings_are_never_a_500(client):
    for query in ("q=%ff%fe", "q=a&q=bb", "q[]=x", "q=%E2%80%AE%25", "q=%ED%A0%80ab"):
        assert client.get(f"{SEARCH}?{query}").status_code == 200
    # A NUL (PostgreSQL can't compare with one) never reaches the page: the 400 page
    # (troefclub.nul, issue 19).
    for query in ("q=%00%00", "q=a%00b"):
        assert client.get(f"{SEARCH}?{query}").status_code == 400


def test_an_htmx_search_gets_the_short_list_only(client):
    for n in range(GROUP_LIMIT):
        PlayerFactory.create(name=f"Pinas {n:02d}")
    response = client.get(SEARCH, {"q": "pinas"}, headers={"HX-Request": "true"})
    page = response.content.decode()
    assert "<html" not in page
    assert page.count("/player/") == 5
    assert "All results for “pinas”" in page
    assert f'href="{SEARCH}?q=pinas"' in page


def test_an_htmx_search_too_short_is_empty(client):
    response = client.get(SEARCH, {"q": "a"}, headers={"HX-Request": "true"})
    assert response.status_code == 200 and response.content == b""


def pages_with_the_box(competition, matchday) -> list[str]:
    return [
        reverse("competition_list"),
        reverse("competition_detail", kwargs={"slug": competition.slug}),
        reverse("matchday_detail", kwargs={"slug": competition.slug, "number": matchday.number}),
        reverse("search"),
        reverse("login"),
    ]


def test_every_page_has_the_search_box_in_its_navbar(client):
    matchday = MatchdayFactory.create()
    for url in pages_with_the_box(matchday.competition, matchday):
        page = client.get(url).content.decode()
        nav = page.split('<nav class="navbar')[1].split("</nav>")[0]
        assert f'action="{SEARCH}"' in nav, url
        assert 'role="search"' in nav and 'name="q"' in nav and "aria-label=" in nav, url
        assert 'placeholder="Search"' in nav, url
