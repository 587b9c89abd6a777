"""Scoring at the table in a real browser (Debian's Chromium via Playwright): two phones at
390×844 on the same game's link, one entering rounds with one tap, the other confirming;
the director's link page (QR code) and queue. No CSP violation on any of them.

Screenshots go to `tests/e2e/artifacts/` (gitignored). When Chromium cannot start, the
tests fail in CI (`CI=true`) and are skipped elsewhere, with the reason.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoring.models import Game, GameDispute
from scoring.services.table import game_links_ensure, table_round_record
from tests.e2e.conftest import ARTIFACTS, DESKTOP, PASSWORD, PHONE
from tests.e2e.test_csp import ConsoleWatch
from tests.factories import CompetitionFactory, GameFactory, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def named_game() -> Game:
    competition = CompetitionFactory.create(name="Club evening", confirmation_required=True)
    game = GameFactory.create(competition=competition)
    for team, name in ((game.team_a, "Kampoe"), (game.team_b, "Toppers")):
        team.name = name
        team.save()
    return game


def phone(browser: Any, watch: ConsoleWatch) -> Any:
    page = browser.new_context(viewport=PHONE).new_page()
    page.set_default_timeout(15_000)
    watch.attach(page)
    return page


def shot(page: Any, name: str, *, full_page: bool = True) -> None:
    # caret="initial": Playwright's default hides the caret by setting inputs' style and
    # leaves `style=""` behind, which htmx then copies onto the swapped-in inputs (a CSP
    # violation the test would make itself).
    page.screenshot(path=str(ARTIFACTS / name), full_page=full_page, caret="initial")


def width(page: Any) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


def test_two_phones_score_and_confirm_a_game(browser, live_server):
    ARTIFACTS.mkdir(exist_ok=True)
    game = named_game()
    links = game_links_ensure(game_ids=[game.pk])[game.pk]
    url, url_b = (
        live_server.url + reverse("table_sheet", kwargs={"token": links[side].token})
        for side in "ab"
    )
    watch = ConsoleWatch()

    scorer = phone(browser, watch)
    watch.visit(scorer, url)
    expect(scorer.locator("#who-am-i")).to_contain_text("Kampoe")

    quick_a, quick_b = scorer.locator("#quick-a"), scorer.locator("#quick-b")
    expect(quick_a).to_be_visible()
    # The one-tap buttons sit under the score without scrolling on a 390×844 phone.
    for button in (quick_a, quick_b):
        box = button.bounding_box()
        assert box["y"] + box["height"] <= PHONE["height"], box
        assert box["height"] >= 44 and box["width"] >= 44, box
    shot(scorer, "table-enter-phone.png", full_page=False)
    for expected in ("5–0", "10–0", "15–0"):
        # A kap is not the one-tap round: through "another result".
        scorer.locator(".other-result summary").click()
        scorer.locator("#id_result").select_option("kap")
        scorer.locator("#id_side_0").check()
        scorer.locator("#record-other").click()
        expect(scorer.locator("#table .score-a")).to_have_text(expected.split("–")[0])
    quick_b.click()  # a mistake …
    expect(scorer.locator("#table .score-b")).to_have_text("2")
    scorer.once("dialog", lambda dialog: dialog.accept())
    scorer.locator("#table-undo").click()  # … undone
    expect(scorer.locator("#table .score-b")).to_have_text("0")
    scorer.locator(".other-result summary").click()
    scorer.locator("#id_result").select_option("kap")
    scorer.locator("#id_side_0").check()
    scorer.locator("#record-other").click()
    expect(scorer.locator("#table-waiting")).to_be_visible()
    assert width(scorer) <= PHONE["width"]
    shot(scorer, "table-waiting-phone.png")

    checker = phone(browser, watch)
    watch.visit(checker, url_b)
    expect(checker.locator("#table-confirm")).to_be_visible()
    assert width(checker) <= PHONE["width"]
    shot(checker, "table-confirm-phone.png")
    checker.locator("#table-confirm").click()
    expect(checker.locator("#table-confirmed")).to_be_visible()

    game.refresh_from_db()
    assert (game.score_a, game.score_b, game.confirmed_side) == (20, 0, "b")
    # The scorer's phone follows by itself (polling) and sees the confirmation.
    expect(scorer.locator("#table-confirmed")).to_be_visible(timeout=15_000)
    assert watch.violations == []
    scorer.context.close()
    checker.context.close()


def test_a_revoked_link_and_the_directors_pages(browser, live_server):
    ARTIFACTS.mkdir(exist_ok=True)
    game = named_game()
    competition = game.match.matchday.competition
    director = UserFactory.create()
    competition.directors.add(director)
    link = game_links_ensure(game_ids=[game.pk])[game.pk]["a"]
    for number in range(1, 5):
        table_round_record(token=link.token, expected_number=number, result="kap", side="a")
    GameDispute.objects.create(game=game, side="b", comment="Round 4 was a kap for Toppers")
    watch = ConsoleWatch()
    base = live_server.url

    for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page = browser.new_context(viewport=viewport).new_page()
        page.set_default_timeout(15_000)
        watch.attach(page)
        watch.visit(page, base + reverse("login"))
        page.locator("#id_username").fill(director.username)
        page.locator("#id_password").fill(PASSWORD)
        page.locator("main form button[type=submit]").click()
        page.wait_for_url(f"{base}/**")
        link_page = reverse("game_link", kwargs={"slug": competition.slug, "game_id": game.pk})
        watch.visit(page, base + link_page)
        expect(page.locator("#table-qr-a svg")).to_be_visible()
        expect(page.locator("#table-qr-b svg")).to_be_visible()
        assert width(page) <= viewport["width"]
        shot(page, f"table-link-{name}.png")
        watch.visit(page, base + reverse("director_queue", kwargs={"slug": competition.slug}))
        expect(page.get_by_text("Round 4 was a kap for Toppers")).to_be_visible()
        assert width(page) <= viewport["width"]
        shot(page, f"table-queue-{name}.png")
        if name == "phone":
            page.once("dialog", lambda dialog: dialog.accept())
            page.get_by_role("button", name="Reject: the table enters it again").click()
            expect(page.get_by_text("No open disputes.")).to_be_visible()
            watch.visit(page, base + link_page)
            page.locator("#revoke-link-a").click()
            expect(page.locator("#table-url-a")).not_to_have_text(link.token)
        page.context.close()

    game.refresh_from_db()
    assert game.status == "open" and not game.rounds.exists()
    visitor = browser.new_context(viewport=PHONE).new_page()
    watch.attach(visitor)
    response = visitor.goto(base + reverse("table_sheet", kwargs={"token": link.token}))
    assert response.status == 404
    expect(visitor.locator("#link-invalid")).to_be_visible()
    shot(visitor, "table-invalid-phone.png")
    visitor.context.close()
    assert watch.violations == []


def test_the_language_switch_works_on_the_table_page(browser, live_server):
    """The table page's referrer policy must not make Chromium post `Origin: null`: the
    language switch (and the page's own forms) would fail Django's CSRF check."""
    game = named_game()
    link = game_links_ensure(game_ids=[game.pk])[game.pk]["a"]
    url = live_server.url + reverse("table_sheet", kwargs={"token": link.token})
    watch = ConsoleWatch()
    page = browser.new_context(viewport=DESKTOP).new_page()
    page.set_default_timeout(15_000)
    watch.attach(page)
    watch.visit(page, url)
    before = page.locator("html").get_attribute("lang")
    switch = page.locator("#language-switch button").first
    wanted = switch.get_attribute("lang")
    assert wanted and wanted != before
    switch.click()
    expect(page.locator("html")).to_have_attribute("lang", wanted)
    assert page.url == url
    expect(page.locator("#quick-a")).to_be_visible()
    assert watch.violations == []
    page.context.close()
