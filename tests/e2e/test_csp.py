"""The Content-Security-Policy breaks nothing: the main pages, the score sheet (with an htmx
round) and the admin load in a real browser (Debian's Chromium via Playwright) without one
CSP violation in the console, and the scripts they need did run.

Runs against pytest-django's `live_server`. When Chromium cannot start, the test fails in
CI (`CI=true`) and is skipped elsewhere, with the reason.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoring.models import Game
from tests.e2e.conftest import DESKTOP, PASSWORD
from tests.factories import GameFactory, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


class ConsoleWatch:
    """Collects the CSP violations a page reports, from the console and from the DOM's
    `securitypolicyviolation` event (which also catches violations Chromium doesn't log)."""

    def __init__(self) -> None:
        self.violations: list[str] = []
        self.url = ""

    def attach(self, page: Any) -> None:
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.violations.append(f"{self.url}: {error}"))
        page.add_init_script(
            "document.addEventListener('securitypolicyviolation', (e) => "
            "console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI"
            " + ' ' + (e.sample || '')));"
        )

    def _console(self, message: Any) -> None:
        text = message.text
        if "Content Security Policy" in text or text.startswith("CSP violation"):
            self.violations.append(f"{self.url}: {text}")

    def visit(self, page: Any, url: str) -> None:
        self.url = url
        page.goto(url)
        page.wait_for_load_state("load")


def played_game() -> Game:
    game = GameFactory.create(competition__name="Open evening", competition__slug="open-evening")
    for team, name in ((game.team_a, "Kampoe"), (game.team_b, "Toppers")):
        team.name = name
        team.save()
    return game


def log_in(page: Any, watch: ConsoleWatch, base: str, username: str) -> None:
    watch.visit(page, base + reverse("login"))
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    expect(page.locator("#navbar-user")).to_have_text(username)


def test_pages_score_sheet_and_admin_run_without_csp_violations(browser, live_server):
    game = played_game()
    match = game.match
    matchday = match.matchday
    competition = matchday.competition
    slug = competition.slug
    director = UserFactory.create(username="wedstrijdleider")
    competition.directors.add(director)
    UserFactory.create(username="bond", is_staff=True, is_superuser=True)
    base = live_server.url

    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.on("dialog", lambda dialog: dialog.accept())
    watch = ConsoleWatch()
    watch.attach(page)

    # Public pages, as anybody.
    public = [
        reverse("competition_list"),
        reverse("competition_detail", kwargs={"slug": slug}),
        reverse("matchday_detail", kwargs={"slug": slug, "number": matchday.number}),
        reverse("match_detail", kwargs={"slug": slug, "match_id": match.pk}),
        reverse("game_detail", kwargs={"slug": slug, "game_id": game.pk}),
        "/no-such-page/",
    ]
    for path in public:
        watch.visit(page, base + path)
    assert page.evaluate("typeof window.htmx") == "object", "htmx did not load"
    assert page.evaluate("typeof window.bootstrap") == "object", "Bootstrap did not load"

    # The print page's button works through static/js/troefclub.js (no onclick="").
    watch.visit(
        page, base + reverse("matchday_print", kwargs={"slug": slug, "number": matchday.number})
    )
    page.evaluate("window.print = () => { window.printed = true; }")
    page.get_by_role("button", name="Print").click()
    assert page.evaluate("window.printed") is True

    # The director: score sheet with an htmx-recorded round, and the manage pages.
    log_in(page, watch, base, director.username)
    watch.visit(page, base + reverse("game_sheet", kwargs={"slug": slug, "game_id": game.pk}))
    form = page.locator("#round-form")
    form.get_by_label("gewone winst", exact=True).check()
    form.get_by_label("Kampoe", exact=True).check()
    page.locator("#id_tricks_a").fill("7")
    page.locator("#id_tricks_b").fill("3")
    page.get_by_role("button", name="Record round").click()
    expect(page.locator(".scoreboard-score")).to_have_text("2–0")
    page.set_viewport_size({"width": 390, "height": 844})  # the collapsed navbar opens
    page.locator(".navbar-toggler").click()
    expect(page.locator("#main-nav")).to_be_visible()
    page.set_viewport_size(DESKTOP)
    for path in (
        reverse("competition_manage", kwargs={"slug": slug}),
        reverse("matchday_manage", kwargs={"slug": slug, "number": matchday.number}),
        reverse("match_manage", kwargs={"slug": slug, "match_id": match.pk}),
    ):
        watch.visit(page, base + path)
    page.locator("#logout-button").click()

    # The admin, as a league admin: directors (filter_horizontal), autocomplete, history.
    log_in(page, watch, base, "bond")
    for path in (
        reverse("admin:index"),
        reverse("admin:tournaments_competition_changelist"),
        reverse("admin:tournaments_competition_change", args=[competition.pk]),
        reverse("admin:tournaments_matchday_change", args=[matchday.pk]),
        reverse("admin:scoring_game_change", args=[game.pk]),
        reverse("admin:scoring_game_history", args=[game.pk]),
    ):
        watch.visit(page, base + path)
    watch.visit(page, base + reverse("admin:tournaments_competition_change", args=[competition.pk]))
    expect(page.locator("#id_directors_from")).to_be_visible()  # SelectFilter2.js ran
    watch.visit(page, base + reverse("admin:tournaments_player_add"))
    page.locator(".field-club .select2-selection").click()  # an autocomplete (select2) opens
    expect(page.locator(".select2-search__field")).to_be_visible()
    context.close()

    assert not watch.violations, "CSP violations:\n" + "\n".join(watch.violations)
