"""The navbar's search box, a club match's koppel ranking and a matchday's highlights in a
real browser (issue 10), on a desktop and on a 390×844 phone: typing shows the first
results under the box, Enter opens the results page, a result opens its page; nothing is
wider than the phone's screen.

Screenshots go to /tmp/h4-*.png (looked at by hand) and `tests/e2e/artifacts/`. When
Chromium cannot start, the tests fail in CI (`CI=true`) and are skipped elsewhere.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.e2e.conftest import ARTIFACTS, DESKTOP, PASSWORD, PHONE
from tests.factories import CompetitionFactory, PlayerFactory, TeamFactory, league_staff
from tests.rankings.test_highlights import club_match

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp")


def shot(page: Any, name: str) -> None:
    """A full-page screenshot as /tmp/h4-`name`.png, copied to the artifacts."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = SHOTS / f"h4-{name}.png"
    page.screenshot(path=str(path), full_page=True)
    shutil.copy(path, ARTIFACTS / path.name)


def page_width(page: Any) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


def new_page(browser: Any, viewport: dict[str, int]) -> Any:
    page = browser.new_context(viewport=viewport).new_page()
    page.set_default_timeout(15_000)
    return page


def scene() -> dict[str, Any]:
    """A club match played out (clubs Kampoe and Toppers, koppels "Kampoe 1" ...), and a
    pairs competition and a player whose names contain "kamp" too."""
    match, koppels = club_match()
    CompetitionFactory.create(slug="kampoe-evening", name="Kampoe club evening")
    player = PlayerFactory.create(key="kamperveen", name="J. Kamperveen")
    TeamFactory.create(key="kamp-duo", name="", player_1=player)
    return {"match": match, "koppels": koppels}


@pytest.mark.parametrize(("viewport", "label"), [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_the_navbar_search_finds_and_opens_a_competition(browser, live_server, viewport, label):
    scene()
    page = new_page(browser, viewport)
    page.goto(live_server.url + reverse("competition_list"))
    box = page.locator("#navbar-q")
    expect(box).to_be_visible()  # on a phone too: outside the collapsed menu
    expect(box).to_have_attribute("placeholder", "Search")

    box.fill("kamp")
    live = page.locator("#navbar-search-live")
    expect(live.locator(".search-clubs")).to_contain_text("Kampoe")
    expect(live.locator(".search-players")).to_contain_text("J. Kamperveen")
    expect(live.locator(".search-all a")).to_have_text("All results for “kamp”")
    assert page_width(page) <= viewport["width"]
    shot(page, f"search-live-{label}")

    box.press("Enter")
    page.wait_for_url("**/search/?q=kamp")
    expect(page.locator("#search-page-q")).to_have_value("kamp")
    expect(page.locator("#navbar-q")).to_have_value("kamp")
    results = page.locator("#search-results")
    expect(results.locator(".search-competitions")).to_contain_text("Kampoe club evening")
    expect(results.locator(".search-koppels")).to_contain_text("Kampoe 1")
    expect(results.locator(".search-players")).to_contain_text("J. Kamperveen")
    expect(page.locator("#navbar-search-live")).to_be_hidden()  # the focus left the box
    assert page_width(page) <= viewport["width"]
    shot(page, f"search-results-{label}")

    results.get_by_role("link", name="Kampoe club evening").click()
    page.wait_for_url(live_server.url + reverse("competition_detail", args=["kampoe-evening"]))
    expect(page.locator("h1")).to_contain_text("Kampoe club evening")
    page.context.close()


def test_a_too_short_search_hints_and_the_page_box_searches_again(browser, live_server):
    scene()
    page = new_page(browser, PHONE)
    page.goto(live_server.url + reverse("search") + "?q=k")
    expect(page.locator(".search-hint")).to_contain_text("at least two letters")
    page.locator("#search-page-q").fill("toppers")
    page.locator(".search-page-form button[type=submit]").click()
    page.wait_for_url("**/search/?q=toppers")
    expect(page.locator("#search-results .search-clubs")).to_contain_text("Toppers")
    page.context.close()


def test_the_match_and_matchday_pages_on_a_phone(browser, live_server):
    made = scene()
    match = made["match"]
    slug = match.matchday.competition.slug
    page = new_page(browser, PHONE)

    page.goto(live_server.url + reverse("match_detail", args=[slug, match.pk]))
    ranking = page.locator(".koppel-ranking")
    expect(ranking.locator(".top-koppel-line")).to_contain_text("Kampoe 1 (Kampoe) 40")
    expect(ranking.locator("tbody tr")).to_have_count(4)
    expect(ranking.locator("tbody tr.koppel-top")).to_contain_text("Kampoe 1")
    assert page_width(page) <= PHONE["width"]
    shot(page, "match-phone")

    page.goto(live_server.url + reverse("matchday_detail", args=[slug, 1]))
    highlights = page.locator(".matchday-highlights")
    expect(highlights.locator(".highlight-top-koppel")).to_contain_text("Kampoe 1 (Kampoe)")
    expect(highlights.locator(".highlight-biggest-win")).to_contain_text("20–0")
    assert page_width(page) <= PHONE["width"]
    shot(page, "matchday-phone")

    # The menu button beside the box still opens the menu.
    page.locator(".navbar-toggler").click()
    expect(page.locator("#main-nav")).to_have_class(re.compile(r"\bshow\b"))
    expect(page.locator("#main-nav").get_by_role("link", name="Log in")).to_be_visible()
    shot(page, "menu-open-phone")
    page.context.close()


@pytest.mark.parametrize("width", [768, 992])
def test_a_staff_members_navbar_keeps_to_one_line_with_the_search(browser, live_server, width):
    """A director's navbar has the most links: on a tablet (768) the search is its button
    alone, which opens the search page; from 992 the box itself. Nothing overflows."""
    staff = league_staff()
    page = new_page(browser, {"width": width, "height": 900})
    page.goto(f"{live_server.url}{reverse('login')}?next=/")
    page.locator("#id_username").fill(staff.username)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    expect(page.locator("#navbar-user")).to_be_visible()
    shot(page, f"navbar-staff-{width}")
    brand = page.locator(".navbar-brand").bounding_box()
    search = page.locator("#navbar-search").bounding_box()
    logout = page.locator("#logout-button").bounding_box()
    assert brand and search and logout
    assert search["y"] < brand["y"] + brand["height"] and logout["x"] < search["x"], (brand, search)
    assert search["x"] + search["width"] <= width and page_width(page) <= width
    if width < 992:
        expect(page.locator("#navbar-q")).to_be_hidden()
        page.locator(".navbar-search-button").click()
        page.wait_for_url("**/search/?q=")
        expect(page.locator("#search-page-q")).to_be_visible()
    else:
        expect(page.locator("#navbar-q")).to_be_visible()
    page.context.close()
