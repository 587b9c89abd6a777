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
from tests.scoring.selectors.test_highlights import club_match

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


# Below xl the menu is collapsed behind its button (base.html navbar-expand-xl).
MENU_IN_A_ROW = 1200


@pytest.mark.parametrize("width", [320, 390, 768, 992, 1200, 1400])
def test_a_staff_members_navbar_fits_every_width_in_dutch(browser, live_server, width):
    """A director's navbar has the most links, and Dutch the longest words ("Mijn
    competities", "Uitloggen"), and a username may be long: at every width nothing makes
    the page scroll sideways and the search box is at hand beside the brand. Below xl the
    menu opens from its button; from xl it is one row with the box last."""
    scene()
    staff = league_staff()
    staff.username = "directeur_wilhelmina_van_der_velde"
    staff.save(update_fields=["username"])
    context = browser.new_context(viewport={"width": width, "height": 900}, locale="nl-NL")
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}{reverse('login')}?next=/")
    page.locator("#id_username").fill(staff.username)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"{live_server.url}/")
    expect(page.locator("#director-home-link")).to_have_text("Mijn competities")

    def fits() -> bool:
        return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))

    box = page.locator("#navbar-q")
    expect(box).to_be_visible()
    brand = page.locator(".navbar-brand").bounding_box()
    search = page.locator("#navbar-search").bounding_box()
    assert brand and search
    assert search["y"] < brand["y"] + brand["height"]  # beside the brand, not below
    assert search["x"] + search["width"] <= width
    assert fits(), page_width(page)
    shot(page, f"navbar-staff-nl-{width}")
    if width < MENU_IN_A_ROW:
        expect(page.locator("#logout-button")).to_be_hidden()
        page.locator(".navbar-toggler").click()
        expect(page.locator("#logout-button")).to_be_visible()
        expect(page.locator("#navbar-user")).to_be_visible()
        assert fits(), page_width(page)
        shot(page, f"navbar-staff-nl-{width}-menu")
    else:
        logout = page.locator("#logout-button").bounding_box()
        user = page.locator("#navbar-user").bounding_box()
        assert logout and user
        assert logout["x"] < search["x"]  # the box last in the row
        assert logout["y"] < brand["y"] + brand["height"]  # one row
        assert user["x"] + user["width"] <= logout["x"]  # the long name cut, not overlapping
    box.fill("kamp")
    expect(page.locator("#navbar-search-live")).to_contain_text("Alle resultaten")
    live = page.locator("#navbar-search-live").bounding_box()
    assert live and live["x"] >= 0 and live["x"] + live["width"] <= width
    assert fits(), page_width(page)
    context.close()


@pytest.mark.parametrize("locale", ["en-GB", "nl-NL"])
def test_the_game_lists_of_player_koppel_and_club_fit_a_phone(browser, live_server, locale):
    """The game history of a player, a koppel and a club fits a 390 px phone without
    scrolling sideways, long Surinamese names and the Dutch "Uitsl." included: on a phone
    the result sits under the score, in view."""
    from tests.rankings.profile_scenes import transfer

    made = transfer()
    for player, name in (
        (made.bob, "Marcel Wongsodikromo"),
        (made.eve, "Shanti Lachmon-Ramdjiawan"),
        (made.fay, "Ingrid Soekhoe"),
        (made.cor, "Roy Tjon-A-Fat"),
    ):
        player.name = name
        player.save(update_fields=["name"])
    context = browser.new_context(viewport=PHONE, locale=locale)
    page = context.new_page()
    page.set_default_timeout(15_000)
    for name, url in (
        ("player", reverse("player_detail", args=[made.ann.key])),
        ("koppel", reverse("koppel_detail", args=[made.ae.key])),
        ("club", reverse("club_detail", args=[made.kampoe.key])),
    ):
        page.goto(live_server.url + url)
        history = page.locator(".game-history")
        expect(history).to_be_visible()
        shot(page, f"{name}-history-phone-{locale}")
        widths = history.evaluate(
            "table => [table.scrollWidth, table.closest('.table-responsive').clientWidth]"
        )
        assert widths[0] <= widths[1], (name, widths)
        assert page_width(page) <= PHONE["width"], name
        outcome = history.locator(".history-outcome").first.bounding_box()
        assert outcome and outcome["x"] + outcome["width"] <= PHONE["width"], (name, outcome)
    context.close()
