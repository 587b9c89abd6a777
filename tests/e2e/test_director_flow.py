"""A director scores a whole game in a real browser (Debian's Chromium via Playwright).

Runs against pytest-django's `live_server`. Screenshots (desktop and a 390×844 phone) go to
`tests/e2e/artifacts/` (gitignored). When Chromium cannot start, the test fails in CI
(`CI=true`) and is skipped elsewhere, with the reason.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoring.models import Game
from tests.e2e.conftest import ARTIFACTS, DESKTOP, PASSWORD, PHONE, refresh_standings_if_not_eager
from tests.factories import GameFactory, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_director_scores_a_game_to_twenty(browser, live_server):
    ARTIFACTS.mkdir(exist_ok=True)
    game = GameFactory.create(competition__name="Open evening", competition__slug="open-evening")
    for team, name in ((game.team_a, "Kampoe"), (game.team_b, "Toppers")):
        team.name = name
        team.save()
    competition = game.match.matchday.competition
    director = UserFactory.create(username="wedstrijdleider")
    competition.directors.add(director)  # a director of this competition, no admin access
    sheet_url = live_server.url + reverse(
        "game_sheet", kwargs={"slug": competition.slug, "game_id": game.pk}
    )

    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.on("dialog", lambda dialog: dialog.accept())  # hx-confirm on undo

    # Log in through the login page; it sends us on to the score sheet.
    page.goto(
        live_server.url + reverse("login") + "?next=" + sheet_url.removeprefix(live_server.url)
    )
    page.locator("#id_username").fill(director.username)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    expect(page.locator("#add-round-title")).to_have_text("Add round 1")
    score = page.locator(".scoreboard-score")
    expect(score).to_have_text("0–0")

    def record(result: str, koppel: str, tricks: tuple[int, int] | None = None) -> None:
        page.locator("#round-form").get_by_label(result, exact=True).check()
        page.locator("#round-form").get_by_label(koppel, exact=True).check()
        page.locator("#id_tricks_a").fill("" if tricks is None else str(tricks[0]))
        page.locator("#id_tricks_b").fill("" if tricks is None else str(tricks[1]))
        page.get_by_role("button", name="Record round").click()

    record("gewone winst", "Kampoe", (7, 3))
    expect(score).to_have_text("2–0")
    expect(page.locator("#sheet .alert-success")).to_contain_text(
        "Round 1 recorded: gewone winst, 2 points to Kampoe"
    )
    record("kap", "Kampoe", (7, 0))
    expect(score).to_have_text("7–0")
    record("redeal (no picture)", "Toppers")
    expect(page.locator("#add-round-title")).to_have_text("Add round 4")
    expect(score).to_have_text("7–0")
    record("gewone winst", "Toppers", (4, 7))
    expect(score).to_have_text("7–2")
    page.screenshot(path=str(ARTIFACTS / "sheet-desktop.png"), full_page=True)

    # A kap at 8–0 does not exist: refused in words, the values kept, nothing saved.
    record("kap", "Kampoe", (8, 0))
    refusal = page.locator("#round-form .alert")
    expect(refusal).to_contain_text("7–0")
    expect(refusal).to_contain_text("Round 5")
    expect(score).to_have_text("7–2")
    expect(page.locator("#id_tricks_a")).to_have_value("8")
    page.screenshot(path=str(ARTIFACTS / "refusal-desktop.png"), full_page=True)
    assert Game.objects.get(pk=game.pk).rounds.count() == 4

    # A wrong round, undone.
    record("failed baunie", "Kampoe", (9, 1))
    expect(score).to_have_text("7–4")
    page.locator("#undo-button").click()
    expect(score).to_have_text("7–2")
    expect(page.locator("#sheet .alert-success")).to_contain_text("Round 5 undone.")

    # On to the end of the game, on a phone.
    page.set_viewport_size(PHONE)
    record("kap", "Kampoe", (7, 0))
    expect(score).to_have_text("12–2")
    record("kap", "Kampoe")
    expect(score).to_have_text("17–2")
    record("gewone winst", "Kampoe", (7, 1))
    expect(score).to_have_text("19–2")
    page.screenshot(path=str(ARTIFACTS / "sheet-phone.png"), full_page=True)
    record("gewone winst", "Kampoe")
    expect(score).to_have_text("21–2")
    expect(page.locator(".scoreboard-status")).to_contain_text("Kampoe won")
    expect(page.locator("#round-form")).to_have_count(0)
    page.screenshot(path=str(ARTIFACTS / "finished-phone.png"), full_page=True)

    game.refresh_from_db()
    assert (game.status, game.score_a, game.score_b) == (Game.Status.FINISHED, 21, 2)
    assert list(game.rounds.values_list("result", flat=True)) == [
        "gewone_winst",
        "kap",
        "redeal",
        "gewone_winst",
        "kap",
        "kap",
        "gewone_winst",
        "gewone_winst",
    ]

    # The standings show the winner first.
    refresh_standings_if_not_eager(competition.pk)
    page.goto(live_server.url + reverse("competition_detail", kwargs={"slug": competition.slug}))
    rows = page.locator("table.standings tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("Kampoe")
    expect(rows.nth(1)).to_contain_text("Toppers")
    expect(page.locator(".standings-status")).to_contain_text("As of")
    page.screenshot(path=str(ARTIFACTS / "standings-phone.png"), full_page=True)
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=str(ARTIFACTS / "standings-desktop.png"), full_page=True)
    context.close()
