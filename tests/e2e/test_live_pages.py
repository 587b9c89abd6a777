"""Pages that follow the evening, in a real browser (issue 18): the public standings and
matchday pages update by themselves after a result, and say so when the server can't be
reached; the opponents' phone that follows the rounds shows the same notice.
Screenshots (phone, 390 wide) into tests/e2e/artifacts/.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoring.services.rounds import game_rounds_load, round_record
from scoring.services.table import game_links_ensure, table_round_record
from scoring.views import public
from scoring.views import table as table_views
from tests.builders import league_in_play, rounds_to_end
from tests.e2e.conftest import ARTIFACTS, PHONE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def phone(browser: Any) -> Any:
    page = browser.new_context(viewport=PHONE).new_page()
    page.set_default_timeout(15_000)
    page.problems = []
    page.on("pageerror", lambda error: page.problems.append(str(error)))
    return page


def is_poll(url: str) -> bool:
    return "v=" in url.partition("?")[2]


def test_the_public_pages_follow_the_evening_and_say_when_the_server_is_gone(
    browser, live_server, monkeypatch
):
    ARTIFACTS.mkdir(exist_ok=True)
    monkeypatch.setattr(public, "PUBLIC_POLL_SECONDS", 1)  # the live server runs here
    league = league_in_play(6)  # tonight: tables 1-3, a round at table 1
    page = phone(browser)
    page.goto(live_server.url + reverse("competition_detail", kwargs={"slug": "live-6"}))
    open_count = page.locator("#standings .open-count")
    expect(open_count).to_have_text("3 games still open")
    page.evaluate("window.notReloaded = true")

    # Table 2 plays its game out (as its phone would, round by round, saved at once): the
    # standings page shows it without a reload.
    game_rounds_load(game_id=league.games[2].pk, rounds=rounds_to_end(random.Random(2)))
    expect(open_count).to_have_text("2 games still open")
    assert page.evaluate("window.notReloaded") is True
    notice = page.locator("[data-live-status]")
    expect(notice).to_be_hidden()

    # The laptop's server goes away: the standings stay, with the notice; then come back.
    page.route(is_poll, lambda route: route.abort())
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("No connection")
    expect(page.locator("#standings table")).to_be_visible()
    opacity = "getComputedStyle(document.getElementById('standings')).opacity"
    assert page.evaluate(opacity) == "0.6"  # what is on screen may be old
    page.screenshot(path=str(ARTIFACTS / "standings-live-offline-phone.png"), full_page=True)
    page.unroute(is_poll)
    expect(notice).to_be_hidden()

    # The matchday page follows the tables' scores the same way.
    page.goto(live_server.url + reverse("matchday_detail", kwargs={"slug": "live-6", "number": 2}))
    expect(page.locator("#matches .badge", has_text="in play")).to_have_count(1)
    round_record(game_id=league.games[3].pk, expected_number=1, result="kap", side="a")
    expect(page.locator("#matches .badge", has_text="in play")).to_have_count(2)
    page.route(is_poll, lambda route: route.abort())
    expect(notice).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / "matchday-live-offline-phone.png"), full_page=True)
    assert not page.problems, page.problems


def test_the_opponents_phone_says_when_it_lost_the_connection(browser, live_server, monkeypatch):
    monkeypatch.setattr(table_views, "TABLE_POLL_SECONDS", 1)
    league = league_in_play(2)
    game = league.games[1]
    links = game_links_ensure(game_ids=[game.pk])[game.pk]
    # Koppel A enters through its own link; the opponents follow through theirs.
    table_round_record(token=links["a"].token, expected_number=2, result="gewone_winst", side="a")
    page = phone(browser)
    page.goto(live_server.url + reverse("table_sheet", kwargs={"token": links["b"].token}))
    expect(page.locator("#table-following")).to_be_visible()
    rows = page.locator("#table tbody tr")
    expect(rows).to_have_count(2)

    round_record(game_id=game.pk, expected_number=3, result="gewone_winst", side="a")
    expect(rows).to_have_count(3)
    notice = page.locator("[data-live-status]")
    expect(notice).to_be_hidden()
    page.route("**/t/**", lambda route: route.abort())
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("Trying again every 1 seconds")
    page.screenshot(path=str(ARTIFACTS / "table-following-offline-phone.png"), full_page=True)
    page.unroute("**/t/**")
    expect(notice).to_be_hidden()
    assert not page.problems, page.problems
