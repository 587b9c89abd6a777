"""Pages that follow the evening (issue 18): the public standings and matchday pages poll
while a matchday is in play; an unchanged poll is an empty 204 from a query or two, flat
from a club evening to a league; a poll after a result brings the fresh partial; polling
stops once nothing is in play. The table page of the koppel that follows carries the same
connection notice as the board.
"""

from __future__ import annotations

import random
import re
from html import unescape
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from scoring.models import Game
from scoring.selectors.live import matchday_live_stamp
from scoring.services.games import game_close
from scoring.services.matches import match_forfeit_set
from scoring.services.rounds import game_rounds_load, round_record, round_undo
from scoring.services.standings import standings_rebuild
from scoring.services.table import game_links_ensure, table_round_record
from scoring.views import public
from tests.builders import League, league_in_play, rounds_to_end
from tests.seen import game_token_now, match_token_now, next_round
from tournaments.models import Matchday

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
POLL = f'hx-trigger="every {public.PUBLIC_POLL_SECONDS}s"'


@pytest.fixture
def league() -> League:
    return league_in_play(10)


def standings_url(league: League) -> str:
    return reverse("competition_detail", kwargs={"slug": league.competition.slug})


def matchday_url(league: League, number: int = 2) -> str:
    return reverse("matchday_detail", kwargs={"slug": league.competition.slug, "number": number})


def poll_url(html: str, element: str) -> str:
    """The URL the polling element `element` (its id) asks for next."""
    found = re.search(rf'<div id="{element}"[^>]*?hx-get="([^"]+)"', html, re.S)
    assert found, f"#{element} does not poll"
    return unescape(found.group(1))


def play_to_end(game: Game, rng: random.Random) -> None:
    game_rounds_load(game_id=game.pk, rounds=rounds_to_end(rng))


# ---------------------------------------------------------------- the matchday page


def test_the_matchday_page_polls_and_an_unchanged_poll_is_an_empty_204(client, league):
    page = client.get(matchday_url(league)).content.decode()
    assert POLL in page and "data-live-status" in page
    url = poll_url(page, "matches")
    assert url.startswith(matchday_url(league) + "?v=")

    unchanged = client.get(url, **HTMX)
    assert unchanged.status_code == 204 and unchanged.content == b""
    # Only htmx's poll gets the 204: the same address opened by hand is the page.
    assert client.get(url).status_code == 200


def test_a_poll_after_a_round_brings_the_fresh_matches_and_highlights(client, league):
    url = poll_url(client.get(matchday_url(league)).content.decode(), "matches")
    round_record(game_id=league.games[2].pk, expected_number=1, result="kap", side="a")

    fresh = client.get(url, **HTMX)
    assert fresh.status_code == 200
    html = fresh.content.decode()
    assert html.lstrip().startswith('<div id="matches"') and "<html" not in html
    assert '<span class="score fw-bold">5–0</span>' in html or "0–5" in html
    assert '<div id="highlights-slot" hx-swap-oob="true">' in html
    again = poll_url(html, "matches")
    assert again != url
    assert client.get(again, **HTMX).status_code == 204


def test_a_page_link_after_a_poll_is_no_poll(client, league, monkeypatch):
    monkeypatch.setattr(public, "MATCHES_PER_PAGE", 2)
    url = poll_url(client.get(matchday_url(league)).content.decode(), "matches")
    round_record(game_id=league.games[2].pk, expected_number=1, result="kap", side="a")
    html = client.get(url, **HTMX).content.decode()
    links = re.findall(
        r'class="page-link"[^>]*href="([^"]+)"|href="([^"]+)"[^>]*class="page-link"', html
    )
    hrefs = [unescape(a or b) for a, b in links]
    assert hrefs and all("v=" not in href for href in hrefs), hrefs
    # Page 2, asked for as htmx's boosted link does: the matches, not a 204.
    page_two = client.get(matchday_url(league) + "?page=2", **HTMX)
    assert page_two.status_code == 200 and "hx-swap-oob" not in page_two.content.decode()


@pytest.mark.parametrize(
    "write",
    ["round", "undo", "close", "forfeit", "table round"],
)
def test_every_result_write_moves_the_matchday_version(league, write):
    before = matchday_live_stamp(matchday=league.tonight).version
    game = league.games[1]
    if write == "round":
        round_record(game_id=game.pk, expected_number=2, result="redeal", side="a")
    elif write == "undo":
        last = game.rounds.get(number=1)
        round_undo(game_id=game.pk, round_id=last.pk, seen=game_token_now(game_id=game.pk))
    elif write == "close":
        game_close(game_id=game.pk, seen=game_token_now(game_id=game.pk))
    elif write == "forfeit":
        match_forfeit_set(
            match_id=game.match_id,
            side="away",
            reason="no show",
            seen=match_token_now(match_id=game.match_id),
        )
    else:
        link = game_links_ensure(game_ids=[game.pk])[game.pk]["a"]
        table_round_record(
            token=link.token,
            expected_number=next_round(game.pk),
            result="kap",
            side="b",
        )
    tonight = Matchday.objects.select_related("competition").get(pk=league.tonight.pk)
    assert matchday_live_stamp(matchday=tonight).version != before


def test_a_matchday_not_in_play_does_not_poll(client, league):
    page = client.get(matchday_url(league, number=1)).content.decode()
    assert POLL not in page and "data-live" not in page


def test_a_matchday_dated_today_polls_before_its_first_round(client):
    league = league_in_play(4, tonight=timezone.localdate())
    Game.objects.filter(match__matchday=league.tonight).update(status=Game.Status.OPEN)
    league.games[1].rounds.all().delete()
    assert POLL in client.get(matchday_url(league)).content.decode()


def test_polling_stops_when_the_last_game_is_over(client, league, refreshed):
    standings = poll_url(client.get(standings_url(league)).content.decode(), "standings")
    matches = poll_url(client.get(matchday_url(league)).content.decode(), "matches")
    rng = random.Random(3)
    with refreshed():  # the standings' refresh, as the worker (or eager Celery) runs it
        for game in league.games.values():
            if game.rounds.exists():  # table 1: the director closes it (time is up)
                game_close(game_id=game.pk, seen=game_token_now(game_id=game.pk))
            else:
                play_to_end(game, rng)

    last_matches = client.get(matches, **HTMX)
    assert last_matches.status_code == 200
    assert POLL not in last_matches.content.decode()
    last_standings = client.get(standings, **HTMX)
    assert last_standings.status_code == 200
    assert POLL not in last_standings.content.decode()


# ---------------------------------------------------------------- the standings page


def test_the_standings_poll_until_the_finished_game_is_in_them(client, league, refreshed):
    page = client.get(standings_url(league)).content.decode()
    assert POLL in page and "data-live-status" in page
    url = poll_url(page, "standings")
    assert client.get(url, **HTMX).status_code == 204

    # A round inside an open game moves no standings: still unchanged.
    round_record(game_id=league.games[2].pk, expected_number=1, result="kap", side="a")
    assert client.get(url, **HTMX).status_code == 204

    with refreshed():  # the standings' refresh, as the worker (or eager Celery) runs it
        play_to_end(league.games[3], random.Random(5))
    fresh = client.get(url, **HTMX)
    assert fresh.status_code == 200
    html = fresh.content.decode()
    assert html.lstrip().startswith('<div id="standings"')
    assert POLL in html  # tables 1 and 2 still play
    assert client.get(poll_url(html, "standings"), **HTMX).status_code == 204


def test_the_standings_links_carry_no_version(client, league):
    url = poll_url(client.get(standings_url(league) + "?sort=-saldo").content.decode(), "standings")
    assert "sort=-saldo" in url
    standings_rebuild(competition_id=league.competition.pk)  # a new "as of"
    html = client.get(url, **HTMX).content.decode()
    hrefs = [unescape(h) for h in re.findall(r'<a [^>]*href="([^"]*)"', html)]
    assert any("sort=" in href for href in hrefs)
    assert all("v=" not in href for href in hrefs), hrefs


# ---------------------------------------------------------------- cheap at league size


def queries_of(client: Client, url: str) -> tuple[int, Any]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, headers={"HX-Request": "true"})
    return len(captured.captured_queries), response


@pytest.mark.parametrize("size", [10, 120])
def test_an_unchanged_poll_costs_a_query_or_two_whatever_the_size(
    client, size, django_assert_max_num_queries
):
    league = league_in_play(size)
    standings = poll_url(client.get(standings_url(league)).content.decode(), "standings")
    matches = poll_url(client.get(matchday_url(league)).content.decode(), "matches")
    with django_assert_max_num_queries(1):
        assert client.get(standings, **HTMX).status_code == 204
    with django_assert_max_num_queries(2):
        assert client.get(matches, **HTMX).status_code == 204


def test_the_unchanged_polls_cost_the_same_at_10_and_120_koppels(client):
    counts = []
    for size in (10, 120):
        league = league_in_play(size)
        standings = poll_url(client.get(standings_url(league)).content.decode(), "standings")
        matches = poll_url(client.get(matchday_url(league)).content.decode(), "matches")
        counts.append((queries_of(client, standings)[0], queries_of(client, matches)[0]))
    assert counts[0] == counts[1] == (1, 2)


# ---------------------------------------------------------------- the table page


def test_the_following_koppels_page_has_the_boards_connection_notice(client, league):
    game = league.games[1]
    links = game_links_ensure(game_ids=[game.pk])[game.pk]
    # Koppel A entered a round; koppel B's phone follows through its own link.
    table_round_record(
        token=links["a"].token, expected_number=next_round(game.pk), result="kap", side="b"
    )
    url = reverse("table_sheet", kwargs={"token": links["b"].token})
    html = client.get(url).content.decode()
    assert 'hx-trigger="every 10s"' in html
    table = re.search(r'<div id="table"[^>]*>', html)
    assert table and "data-live" in table.group(0)
    # The notice is the one the board shows (one partial), outside the swapped partial.
    assert html.count("data-live-status") == 1
    assert html.index("data-live-status") < html.index('<div id="table"')
    assert "Trying again every 10 seconds" in html
    assert 'src="/static/js/live.js"' in html
