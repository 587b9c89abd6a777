"""The player, koppel, head-to-head and club pages: what they show, their links, 404s, bad
page numbers, the head-to-head box and escaping (scene: `profile_scenes.transfer`)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from rankings.models import PlayerRating, RatedGame, RatingChange
from rankings.profiles.history import HISTORY_PER_PAGE
from scoring.models import Game
from tests.builders import club_competition, finished_game, koppels_of, seasons_rankings_refresh
from tests.factories import ClubFactory, MatchdayFactory, PlayerFactory
from tests.pages import without_bdi
from tests.rankings.profile_scenes import Transfer, koppel, koppel_with_games, transfer
from tournaments.models import Match

pytestmark = pytest.mark.django_db


@pytest.fixture
def scene() -> Transfer:
    return transfer()


def url(name: str, **kwargs: str) -> str:
    return reverse(name, kwargs=kwargs)


def page(client: Client, address: str, **params: str) -> str:
    response = client.get(address, params)
    assert response.status_code == 200
    return without_bdi(response.content.decode())


def game_url(game: Game) -> str:
    return url("game_detail", slug=game.match.matchday.competition.slug, game_id=str(game.pk))


def svgs(html: str) -> list[ET.Element]:
    """The page's inline SVG charts, parsed as XML (so each is well formed)."""
    found = re.findall(r'<svg\b[^>]*class="chart".*?</svg>', html, re.DOTALL)
    return [ET.fromstring(svg) for svg in found]


# ---------------------------------------------------------------- player


def test_the_player_page_shows_the_club_now_and_each_seasons_club(
    client: Client, scene: Transfer
) -> None:
    html = page(client, url("player_detail", key="ann"))

    assert "<h1" in html and ">Ann</h1>" in html
    assert f'Plays for <a href="{url("club_detail", key="toppers")}">Toppers</a>' in html
    seasons = html.split('class="table table-sm align-middle text-end season-tallies"')[1]
    rows = re.findall(r"<tr>(.*?)</tr>", seasons.split("</table>")[0], re.DOTALL)
    cells = [
        re.sub(r"<[^>]+>", "", cell).strip()
        for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", rows[1], re.DOTALL)
    ]
    assert cells[:9] == ["2026-2027", "Toppers", "3", "1", "1", "1", "36", "34", "+2"]
    cells = [
        re.sub(r"<[^>]+>", "", cell).strip()
        for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", rows[2], re.DOTALL)
    ]
    # A real minus sign, as the season rankings write a saldo.
    assert cells[:11] == ["2025-2026", "Kampoe", "2", "1", "0", "1", "28", "32", "−4", "2", "1"]


def test_the_player_page_links_koppels_opponents_competitions_and_games(
    client: Client, scene: Transfer
) -> None:
    html = page(client, url("player_detail", key="ann"))

    for key in ("ab", "ae", "bf", "cd"):
        assert f'href="{url("koppel_detail", key=key)}"' in html
    for slug in ("evening-2025", "evening-2026"):
        assert f'href="{url("competition_detail", slug=slug)}"' in html
    for game in scene.games:
        assert f'href="{game_url(game)}"' in html
    assert html.index(game_url(scene.games[4])) < html.index(game_url(scene.games[0]))


def test_an_unrated_player_is_said_to_be_not_rated_yet(client: Client, scene: Transfer) -> None:
    html = page(client, url("player_detail", key="ann"))

    assert "Not rated yet." in html
    assert svgs(html.split('id="rating-title"')[1].split("</section>")[0]) == []


def rate_ann(scene: Transfer) -> None:
    """Ann's rating after games 1 and 2: mu − 3 sigma = 26 − 24 = 2.0, then
    26.85 − 21 = 5.85 (5.850000000000001 as a float)."""
    for position, (game, mu, sigma) in enumerate(
        [(scene.games[0], 26.0, 8.0), (scene.games[1], 26.85, 7.0)], start=1
    ):
        rated = RatedGame.objects.create(position=position, game=game, signature="x")
        RatingChange.objects.create(rated_game=rated, player=scene.ann, mu=mu, sigma=sigma)
    PlayerRating.objects.create(player=scene.ann, mu=26.85, sigma=7.0, ordinal=5.85, games=2)


def chart_texts(svg: ET.Element, tag: str) -> list[str]:
    return [t.text or "" for t in svg.iter(f"{{http://www.w3.org/2000/svg}}{tag}")]


def test_a_rated_player_shows_the_rating_and_its_history_chart(
    client: Client, scene: Transfer
) -> None:
    rate_ann(scene)

    html = page(client, url("player_detail", key="ann"))

    assert ">5.9</strong>" in html  # rounded, not cut to 5.8
    assert "2 rated games" in html
    (chart,) = svgs(html)
    # The chart rounds as the header does, and writes dates as the game history does.
    assert chart_texts(chart, "title")[1:] == [
        "3 Oct 2025: rating 2.0 after rated game 1",
        "7 Nov 2025: rating 5.9 after rated game 2",
    ]
    assert {"3 Oct 2025", "7 Nov 2025"} <= set(chart_texts(chart, "text"))


@pytest.mark.nl
def test_a_dutch_player_page_writes_ratings_and_chart_dates_the_dutch_way(
    client: Client, scene: Transfer
) -> None:
    rate_ann(scene)
    PlayerRating.objects.filter(player=scene.ann).update(ordinal=-5.85)

    html = page(client, url("player_detail", key="ann"))

    assert ">\u22125,9</strong>" in html  # a decimal comma and a real minus sign
    (chart,) = svgs(html)
    titles = chart_texts(chart, "title")[1:]
    # Dates as the game history writes them.
    assert [title.split(":")[0] for title in titles] == ["3 okt 2025", "7 nov 2025"]
    assert "2,0" in titles[0] and "5,9" in titles[1]
    assert "3 okt 2025" in chart_texts(chart, "text")
    # The game history's dates likewise: the month in lower case, as Dutch writes it.
    history = html.split('id="history"', 1)[1]
    assert "3 okt 2025" in history and "Okt" not in history


def test_an_unknown_player_is_a_404(client: Client, db: None) -> None:
    assert client.get(url("player_detail", key="nobody")).status_code == 404


@pytest.mark.parametrize("number", ["0", "-1", "abc", "999999999999999999999", "", "1.5"])
def test_a_bad_page_number_shows_a_page_not_an_error(client: Client, number: str) -> None:
    busy = koppel_with_games(HISTORY_PER_PAGE + 3)

    for address in (
        url("player_detail", key=busy.player_1.key),
        url("koppel_detail", key=busy.key),
        url("club_detail", key="busy-club"),
    ):
        html = page(client, address, page=number)
        assert "game-history" in html


def test_the_second_page_of_a_history_has_the_oldest_games(client: Client) -> None:
    busy = koppel_with_games(HISTORY_PER_PAGE + 3)
    oldest = Game.objects.filter(team_a=busy).order_by("match__matchday__date").first()
    assert oldest is not None

    first = page(client, url("koppel_detail", key=busy.key))
    second = page(client, url("koppel_detail", key=busy.key), page="2")

    assert game_url(oldest) not in first
    assert game_url(oldest) in second
    assert "26–28 of 28" in second


# ---------------------------------------------------------------- koppel


def test_the_koppel_page_shows_its_players_seasons_meetings_and_chart(
    client: Client, scene: Transfer
) -> None:
    html = page(client, url("koppel_detail", key="ae"))

    assert f'href="{url("player_detail", key="ann")}"' in html
    assert f'href="{url("player_detail", key="eve")}"' in html
    meetings = html.split('class="table table-sm align-middle text-end meetings"')[1]
    meetings = meetings.split("</table>")[0]
    assert f'href="{url("koppel_head_to_head", key="ae", other="bf")}"' in meetings
    assert f'href="{url("koppel_head_to_head", key="ae", other="cd")}"' in meetings
    assert "16–30" in meetings and "20–4" in meetings
    (chart,) = svgs(html)
    assert len(list(chart.iter("{http://www.w3.org/2000/svg}rect"))) == 2 + 3 * 2  # legend + bars
    assert '<option value="bf">Bob &amp; Fay</option>' in html


def test_the_opponent_box_goes_to_the_head_to_head_of_the_koppel_found(
    client: Client, scene: Transfer
) -> None:
    response = client.get(url("koppel_detail", key="ae"), {"vs": "Cordan"})

    assert response.status_code == 302
    assert response["Location"] == url("koppel_head_to_head", key="ae", other="cd")


def test_the_opponent_box_says_when_no_koppel_matches(client: Client, scene: Transfer) -> None:
    html = page(client, url("koppel_detail", key="ae"), vs="<b>nobody</b>")

    assert "No other koppel matches “&lt;b&gt;nobody&lt;/b&gt;”." in html
    assert "<b>nobody" not in html


def test_the_opponent_box_offers_every_koppel_that_matches(client: Client, scene: Transfer) -> None:
    html = page(client, url("koppel_detail", key="ae"), vs="o")

    assert "Several koppels match" in html
    for other in ("ab", "bf", "cd"):
        assert f'href="{url("koppel_head_to_head", key="ae", other=other)}"' in html


@pytest.mark.parametrize("text", ["", "x" * 300])
def test_an_empty_or_too_long_opponent_is_a_form_error(
    client: Client, scene: Transfer, text: str
) -> None:
    html = page(client, url("koppel_detail", key="ae"), vs=text)

    assert "opponent-error" in html


def test_an_unknown_koppel_is_a_404(client: Client, db: None) -> None:
    assert client.get(url("koppel_detail", key="nobody")).status_code == 404


# ---------------------------------------------------------------- head-to-head


def test_the_head_to_head_page_shows_the_record_and_the_games(
    client: Client, scene: Transfer
) -> None:
    html = page(client, url("koppel_head_to_head", key="ae", other="bf"))

    table = html.split('class="table table-sm align-middle text-end h2h-table"')[1]
    cells = re.sub(r"<[^>]+>|\s+", " ", table.split("</table>")[0]).split()
    # Wins AE 0, draws 1, points 16; BF 1 win, 30 points.
    assert cells[-9:] == ["Eve", "0", "1", "16", "Bob", "&amp;", "Fay", "1", "30"]
    assert "2 games between them." in html
    assert f'href="{game_url(scene.games[2])}"' in html
    assert f'href="{game_url(scene.games[4])}"' in html
    assert f'href="{game_url(scene.games[3])}"' not in html


def test_koppels_that_never_met_are_told_so(client: Client, scene: Transfer) -> None:
    html = page(client, url("koppel_head_to_head", key="ab", other="bf"))

    assert "These two koppels have not played each other yet." in html


@pytest.mark.parametrize(("key", "other"), [("ae", "ae"), ("ae", "nobody"), ("nobody", "ae")])
def test_a_head_to_head_with_itself_or_an_unknown_koppel_is_a_404(
    client: Client, scene: Transfer, key: str, other: str
) -> None:
    assert client.get(url("koppel_head_to_head", key=key, other=other)).status_code == 404


# ---------------------------------------------------------------- club


def test_the_club_page_shows_its_players_then_and_now(client: Client, scene: Transfer) -> None:
    seasons_rankings_refresh()  # as the worker would: the club's seasons are stored
    html = page(client, url("club_detail", key="kampoe"))

    now = html.split('id="players-title"')[1].split("</section>")[0]
    assert "Bob" in now and "Fay" in now and "Ann" not in now
    seasons = re.findall(r"<details.*?</details>", html, re.DOTALL)
    assert "2026-2027: 2 players" in seasons[0] and "Ann" not in seasons[0]
    assert "2025-2026: 2 players" in seasons[1]
    assert f'href="{url("player_detail", key="ann")}"' in seasons[1]
    assert f'href="{url("koppel_detail", key="ab")}"' in seasons[1]
    (chart,) = svgs(html)
    titles = [t.text for t in chart.iter("{http://www.w3.org/2000/svg}title")]
    assert "2025-2026: 1 won" in titles and "2026-2027: 1 drawn" in titles
    for slug in ("evening-2025", "evening-2026"):
        assert f'href="{url("competition_detail", slug=slug)}"' in html


def test_a_club_that_entered_a_league_lists_it_as_a_club(client: Client, db: None) -> None:
    league = club_competition(2)
    home, away = league.entries.order_by("pk")
    day = MatchdayFactory.create(competition=league, number=1)
    match = Match.objects.create(matchday=day, home=home, away=away)
    game = finished_game(
        Game.objects.create(
            match=match,
            team_a=koppels_of(home)[0],
            team_b=koppels_of(away)[0],
        )
    )
    assert home.club is not None
    seasons_rankings_refresh()

    html = page(client, url("club_detail", key=home.club.key))

    assert "entered as a club" in html
    assert f'href="{game_url(game)}"' in html
    seasons = html.split('class="table table-sm align-middle text-end season-tallies"')[1]
    assert re.sub(r"<[^>]+>|\s+", " ", seasons.split("</tr>")[1]).split()[:7] == [
        "2026-2027", "1", "1", "0", "0", "20", "0",
    ]  # fmt: skip


def test_an_unknown_club_is_a_404(client: Client, db: None) -> None:
    assert client.get(url("club_detail", key="nobody")).status_code == 404


def test_a_club_without_games_says_so(client: Client, db: None) -> None:
    ClubFactory.create(key="empty", name="Empty")

    html = page(client, url("club_detail", key="empty"))

    assert "No games played for this club yet." in html
    assert svgs(html) == []


# ---------------------------------------------------------------- escaping


def test_names_with_markup_are_escaped_everywhere(client: Client, db: None) -> None:
    evil = "<script>alert(1)</script>"
    club = ClubFactory.create(key="evil-club", name=evil)
    first = PlayerFactory.create(key="evil", name=evil, club=club)
    team = koppel("evil-koppel", first, PlayerFactory.create(club=club), name=evil)
    other = koppel("other", PlayerFactory.create(), PlayerFactory.create(), name=evil + "2")
    from tests.factories import CompetitionFactory
    from tests.rankings.profile_scenes import entered, played

    competition = CompetitionFactory.create(name=evil)
    day = MatchdayFactory.create(competition=competition, number=1)
    played(day, entered(competition, team), entered(competition, other), (10, 10))

    for address in (
        url("player_detail", key="evil"),
        url("koppel_detail", key="evil-koppel"),
        url("koppel_head_to_head", key="evil-koppel", other="other"),
        url("club_detail", key="evil-club"),
    ):
        html = page(client, address)
        assert "<script>alert" not in html, address
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html, address
        for chart in svgs(html):  # still well-formed XML with the name inside
            assert chart.tag == "{http://www.w3.org/2000/svg}svg"


def test_a_koppel_that_met_many_keeps_the_rest_folded_away(client: Client) -> None:
    busy = koppel_with_games(12)

    html = page(client, url("koppel_detail", key=busy.key))

    assert "Show the rest (12 koppels met in all)" in html
    for index in range(12):
        assert f'href="{url("koppel_head_to_head", key="busy", other=f"o{index}")}"' in html


def test_an_htmx_request_gets_only_the_history(client: Client) -> None:
    busy = koppel_with_games(HISTORY_PER_PAGE + 3)

    response = client.get(
        url("koppel_detail", key=busy.key), {"page": "2"}, headers={"HX-Request": "true"}
    )

    html = response.content.decode()
    assert html.strip().startswith('<div id="history">')
    assert "26–28 of 28" in html
    assert "<h1" not in html


def test_the_club_page_says_when_its_seasons_are_not_computed_yet(
    client: Client, scene: Transfer, settings: Any
) -> None:
    # With a broker the worker computes them; the page shows what is stored and says so.
    settings.CELERY_TASK_ALWAYS_EAGER = False
    html = page(client, url("club_detail", key="kampoe"))
    assert "The season ranking is being computed" in html
    assert "No games played for this club yet." in html  # no season stored yet
    assert f'href="{game_url(scene.games[0])}"' in html  # its games are read live

    seasons_rankings_refresh()
    html = page(client, url("club_detail", key="kampoe"))
    assert "The season ranking is being computed" not in html
    assert "As of " in html
    assert "2025-2026: 2 players" in html
