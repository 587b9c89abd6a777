"""A big public matchday on a phone (issue 7): a page of tables at a time, the page links
swapping only the table list (htmx), and the find box taking a player to their table.

When Chromium cannot start, the tests fail in CI (`CI=true`) and are skipped elsewhere.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoring.views import public
from tests.e2e.conftest import ARTIFACTS, PHONE
from tests.factories import (
    MatchdayFactory,
    MatchFactory,
    PlayerFactory,
    TeamEntryFactory,
    TeamFactory,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_player_pages_through_and_finds_their_table(browser, live_server, monkeypatch):
    ARTIFACTS.mkdir(exist_ok=True)
    monkeypatch.setattr(public, "MATCHES_PER_PAGE", 3)  # the live server runs in this process
    matchday = MatchdayFactory.create(number=1)
    for table in range(1, 8):
        home = TeamEntryFactory.create(
            competition=matchday.competition,
            team=TeamFactory.create(
                name="Kampoe" if table == 6 else "", player_1=PlayerFactory.create()
            ),
        )
        MatchFactory.create(matchday=matchday, home=home, table=table)
    url = reverse(
        "matchday_detail", kwargs={"slug": matchday.competition.slug, "number": matchday.number}
    )
    page = browser.new_context(viewport=PHONE).new_page()
    page.set_default_timeout(15_000)
    page.goto(live_server.url + url)
    tables = page.locator("#matches .table-number")
    expect(tables).to_have_text(["1", "2", "3"])
    expect(page.locator(".matches-range")).to_have_text("1–3 of 7")

    page.locator(".matches-pages a[rel=next]").click()
    expect(tables).to_have_text(["4", "5", "6"])
    expect(page).to_have_url(live_server.url + url + "?page=2")
    assert int(page.evaluate("document.documentElement.scrollWidth")) <= PHONE["width"]

    page.locator("#matches-q").fill("kampoe")
    page.locator(".matches-search button[type=submit]").click()
    expect(tables).to_have_text(["6"])
    expect(page.locator(".matches-found")).to_contain_text("1 table found")
    expect(page.locator(".matches-pages")).to_have_count(0)
    page.screenshot(path=str(ARTIFACTS / "matchday-found-phone.png"), full_page=True)
    page.context.close()
