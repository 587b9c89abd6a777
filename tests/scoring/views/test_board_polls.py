"""The board and the hall display at league size (issue 20): pages of tables, and polls that
send only what changed.

An unchanged poll is answered 204 from its stamp, before anything is built; a poll after a
round gets that table's fragment alone (swapped by its id, `hx-swap-oob`), the board's head
and the next poll; the board shows a page of tables (whole matches), by state too, and the
page holding a table asked for; the display is sent a part of the tables at a time.
Query counts are flat from a sample-sized evening to a bigger one.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scoring.models import Game, Round, Standing
from scoring.selectors import board as board_selectors
from scoring.selectors import board_live
from scoring.services.rounds import round_record
from scoring.services.standings import standings_rebuild
from scoring.services.table import game_links_ensure
from scoring.views import board as board_views
from tests.factories import UserFactory, league_staff
from tests.patching import patch_everywhere
from tests.scoring.views.test_board_display import (
    HTMX,
    SAMPLE,
    Evening,
    board_url,
    build,
    display_url,
    fixed_minute,
    poll_of,
    states_shown,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening() -> Evening:
    """Twelve koppels: six tables, one in each state (table 2 playing), and a bye."""
    return build(12)


@pytest.fixture
def director(evening: Evening) -> Any:
    user = UserFactory.create()
    evening.competition.directors.add(user)
    return user


def never_built(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make building a board or its index fail the test."""

    def built(**_: Any) -> None:
        raise AssertionError("an unchanged poll must not build the board")

    assert patch_everywhere(monkeypatch, board_selectors.matchday_board, built)
    assert patch_everywhere(monkeypatch, board_live.board_index, built)


def oob_ids(html: str) -> list[str]:
    """The ids of the elements a poll's answer swaps out of band, in order."""
    return re.findall(r'id="([\w-]+)" hx-swap-oob="true"', html)


def a_round(game: Game) -> None:
    round_record(
        game_id=game.pk, expected_number=game.rounds.count() + 1, result="redeal", side="a"
    )


def count(client: Client, url: str, **headers: Any) -> tuple[int, Any]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, **headers)
    return len(captured.captured_queries), response


# ---------------------------------------------------------------- the board's polls


def test_an_unchanged_poll_is_answered_before_the_board_is_built(
    client, evening, director, monkeypatch
):
    fixed_minute(monkeypatch)
    client.force_login(director)
    url = poll_of(client.get(board_url(evening)).content.decode(), "board")
    client.get(url, **HTMX)  # warm: the session
    never_built(monkeypatch)
    queries, response = count(client, url, **HTMX)
    assert response.status_code == 204 and response.content == b""
    # The matchday with its competition, the session, the user, the director check (the
    # user's permissions, the competition's directors), the stamp.
    assert queries <= 7


def test_a_poll_after_one_round_sends_only_that_tables_fragment(
    client, evening, director, monkeypatch
):
    fixed_minute(monkeypatch)
    client.force_login(director)
    url = poll_of(client.get(board_url(evening)).content.decode(), "board")
    playing = evening.games[2]
    a_round(playing)

    response = client.get(url, **HTMX)
    assert response.status_code == 200
    assert response["HX-Reswap"] == "none"  # nothing but the fragments is swapped
    html = response.content.decode()
    assert oob_ids(html) == ["board-poll", "board-head", f"board-table-{playing.pk}"]
    assert states_shown(html) == {2: "playing"}
    assert "2 rounds" in html
    assert "2 of 6 tables finished" in without_space(html)
    # The next poll holds the new version: nothing changed since.
    again = poll_of(html, "board")
    assert again != url
    assert client.get(again, **HTMX).status_code == 204


def without_space(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))


def test_a_poll_sends_again_only_the_tables_changed_since_its_version(
    client, evening, director, monkeypatch
):
    fixed_minute(monkeypatch)
    client.force_login(director)
    url = poll_of(client.get(board_url(evening)).content.decode(), "board")
    a_round(evening.games[2])
    first = poll_of(client.get(url, **HTMX).content.decode(), "board")
    assert client.get(first, **HTMX).status_code == 204
    a_round(evening.games[1])  # table 1: not started, now playing
    html = client.get(first, **HTMX).content.decode()
    assert oob_ids(html) == ["board-poll", "board-head", f"board-table-{evening.games[1].pk}"]
    assert states_shown(html) == {1: "playing"}


def test_a_poll_of_one_state_gets_the_whole_board(client, evening, director, monkeypatch):
    """A table may have left the state shown, or come into it: the page's board is sent
    again whole."""
    fixed_minute(monkeypatch)
    client.force_login(director)
    page = client.get(board_url(evening, state="playing")).content.decode()
    url = poll_of(page, "board")
    assert "state=playing" in url
    a_round(evening.games[2])
    html = client.get(url, **HTMX).content.decode()
    assert html.lstrip().startswith('<div id="board"') and "hx-swap-oob" not in html
    assert states_shown(html) == {2: "playing"}


def test_a_table_link_made_sends_the_whole_board(client, evening, director, monkeypatch):
    fixed_minute(monkeypatch)
    client.force_login(director)
    url = poll_of(client.get(board_url(evening)).content.decode(), "board")
    game_links_ensure(game_ids=[evening.games[1].pk])
    html = client.get(url, **HTMX).content.decode()
    assert html.lstrip().startswith('<div id="board"')
    assert "table link" in html


def test_a_table_turning_quiet_is_sent_when_the_minute_turns(client, evening, director):
    """The poll's version holds its minute: once the minute turns past ten minutes after a
    playing table's last round, the next poll sends that table again, marked quiet."""
    playing = evening.games[2]
    Round.objects.filter(game=playing).update(recorded_at=timezone.now() - timedelta(minutes=30))
    client.force_login(director)
    url = poll_of(client.get(board_url(evening)).content.decode(), "board")
    asked = re.search(r"v=([^&]+)", url)
    stamp = board_live.BoardStamp.parse(asked.group(1) if asked else None)
    assert stamp is not None
    earlier = timezone.localtime() - timedelta(minutes=25)  # the table was not quiet yet
    held = replace(stamp, minute=earlier.strftime(board_live.MINUTE))
    html = client.get(url.replace(stamp.version, held.version), **HTMX).content.decode()
    assert oob_ids(html) == ["board-poll", "board-head", f"board-table-{playing.pk}"]
    assert "board-quiet" in html


# ---------------------------------------------------------------- pages of the board


def test_the_board_shows_a_page_of_tables_with_links_to_the_others(client, monkeypatch):
    evening = build(24)  # 12 tables
    monkeypatch.setattr(board_views, "BOARD_PAGE_TABLES", 5)
    client.force_login(league_staff())
    html = client.get(board_url(evening)).content.decode()
    assert sorted(states_shown(html)) == [1, 2, 3, 4, 5]
    assert "12 tables finished" in without_space(html)  # the whole matchday's counts
    assert '<a class="page-link" href="?page=2"' in html and ">6–10</a>" in html
    assert sorted(states_shown(client.get(board_url(evening, page="3")).content.decode())) == [
        11,
        12,
    ]
    # Past the last page: the last one.
    assert sorted(states_shown(client.get(board_url(evening, page="99")).content.decode())) == [
        11,
        12,
    ]


def test_a_director_jumps_to_a_table(client, monkeypatch):
    evening = build(24)
    monkeypatch.setattr(board_views, "BOARD_PAGE_TABLES", 5)
    client.force_login(league_staff())
    html = client.get(board_url(evening, table="8")).content.decode()
    assert sorted(states_shown(html)) == [6, 7, 8, 9, 10]
    assert re.search(r'board-target" data-state="\w+" data-game="\d+" aria-label="Table 8"', html)
    # Not in the state shown: every table is searched.
    html = client.get(board_url(evening, state="finished", table="8")).content.decode()
    assert 8 in states_shown(html)
    html = client.get(board_url(evening, table="99")).content.decode()
    assert "There is no table “99” on this matchday." in html


def test_the_state_filter_pages_the_tables_in_that_state(client, monkeypatch):
    evening = build(48)  # 24 tables: not started are 1, 7, 13, 19
    monkeypatch.setattr(board_views, "BOARD_PAGE_TABLES", 2)
    client.force_login(league_staff())
    html = client.get(board_url(evening, state="not_started")).content.decode()
    assert states_shown(html) == {1: "not_started", 7: "not_started"}
    assert '<a class="page-link" href="?state=not_started&amp;page=2"' in html
    html = client.get(board_url(evening, state="not_started", page="2")).content.decode()
    assert states_shown(html) == {13: "not_started", 19: "not_started"}


# ---------------------------------------------------------------- the display's polls


def test_an_unchanged_display_poll_is_answered_before_anything_is_built(
    client, evening, monkeypatch
):
    url = poll_of(client.get(display_url(evening.competition)).content.decode(), "display")
    never_built(monkeypatch)
    queries, response = count(client, url, **HTMX)
    assert response.status_code == 204
    # The competition, the matchday shown, the stamp.
    assert queries <= 3


def test_a_display_poll_after_a_round_sends_only_that_table(client, evening):
    url = poll_of(client.get(display_url(evening.competition)).content.decode(), "display")
    playing = evening.games[2]
    a_round(playing)
    response = client.get(url, **HTMX)
    assert response["HX-Reswap"] == "none"
    html = response.content.decode()
    assert oob_ids(html) == ["display-poll", f"display-table-{playing.pk}"]
    assert "display-standing" not in html
    assert client.get(poll_of(html, "display"), **HTMX).status_code == 204


def test_a_display_poll_after_the_standings_moved_sends_them(client, evening):
    url = poll_of(client.get(display_url(evening.competition)).content.decode(), "display")
    standings_rebuild(competition_id=evening.competition.pk)
    html = client.get(url, **HTMX).content.decode()
    assert oob_ids(html) == ["display-poll", "display-standings-list", "display-as-of"]
    assert html.count('class="display-item display-standing"') == 13


def test_a_display_opened_before_any_standings_gets_them_by_its_poll(client, evening):
    """The screen put up before the first game ended shows "no standings yet" in the box
    the poll swaps: the first standings have somewhere to go (the club evening's e2e test,
    with a broker, waited for them in vain)."""
    Standing.objects.filter(competition=evening.competition).delete()
    page = client.get(display_url(evening.competition)).content.decode()
    assert 'id="display-standings-list"' in page and "display-empty" in page
    url = poll_of(page, "display")
    standings_rebuild(competition_id=evening.competition.pk)
    html = client.get(url, **HTMX).content.decode()
    assert "display-standings-list" in oob_ids(html)
    assert html.count('class="display-item display-standing"') == 13


def test_the_display_is_sent_a_part_of_the_tables_at_a_time(client, evening, monkeypatch):
    monkeypatch.setattr(board_views, "DISPLAY_PART_TABLES", 4)
    html = client.get(display_url(evening.competition)).content.decode()
    assert 'data-part="1" data-parts="2"' in html
    assert re.findall(r'<span class="display-table-number">(\d+)</span>', html) == [
        "1",
        "2",
        "3",
        "4",
    ]
    html = client.get(display_url(evening.competition, "?part=2"), **HTMX).content.decode()
    assert 'data-part="2" data-parts="2"' in html
    assert re.findall(r'<span class="display-table-number">(\d+)</span>', html) == ["5", "6"]
    assert "part=2&amp;v=" in html  # its poll keeps to its part


# ---------------------------------------------------------------- query counts


def test_poll_queries_are_flat_from_the_sample_size_to_a_bigger_evening(client, monkeypatch):
    fixed_minute(monkeypatch)
    client.force_login(league_staff())
    counts: dict[str, list[int]] = {}
    for koppels in (SAMPLE, 60):
        evening = build(koppels)
        board = poll_of(client.get(board_url(evening)).content.decode(), "board")
        display = poll_of(client.get(display_url(evening.competition)).content.decode(), "display")
        client.get(board, **HTMX)  # warm
        for name, url in (("board", board), ("display", display)):
            queries, response = count(client, url, **HTMX)
            assert response.status_code == 204
            counts.setdefault(f"{name} unchanged", []).append(queries)
        a_round(evening.games[2])
        for name, url in (("board", board), ("display", display)):
            queries, response = count(client, url, **HTMX)
            assert response["HX-Reswap"] == "none"
            counts.setdefault(f"{name} changed", []).append(queries)
    print("poll queries (8 koppels, 60 koppels):", counts)
    for name, (small, big) in counts.items():
        assert small == big, (name, small, big)
    assert counts["board unchanged"][0] <= 7 and counts["display unchanged"][0] <= 3
    assert counts["board changed"][0] <= 14 and counts["display changed"][0] <= 11
