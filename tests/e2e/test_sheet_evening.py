"""A director's club evening on the score sheet, in a real browser (Debian's Chromium via
Playwright): logging in lands on tonight's matchday, seats and the first caller are set on
the sheet, a gewone winst takes one tap (or one key), the round form fits a 390×844 phone
without scrolling, and the next table is one tap (or `n`) away.

Screenshots at 390 and 1280 wide go to `tests/e2e/artifacts/` (gitignored). When Chromium
cannot start, the tests fail in CI (`CI=true`) and are skipped elsewhere, with the reason.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from scoring.models import Game
from scoring.services.rounds import round_record
from tests.e2e.conftest import ARTIFACTS, DESKTOP, PASSWORD, PHONE
from tests.factories import (
    CompetitionFactory,
    GameFactory,
    MatchdayFactory,
    MatchFactory,
    UserFactory,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TABLES = 8


def club_evening() -> list[Game]:
    """Tonight's matchday of a club evening: eight tables, nobody seated yet."""
    competition = CompetitionFactory.create(name="Club evening", slug="club-evening")
    matchday = MatchdayFactory.create(competition=competition, number=1, date=timezone.localdate())
    games = []
    for table in range(1, TABLES + 1):
        game = GameFactory.create(
            match=MatchFactory.create(matchday=matchday, table=table),
            table=table,
            seat_1=None,
            seat_2=None,
            seat_3=None,
            seat_4=None,
        )
        games.append(game)
    first = games[0]
    for team, name in ((first.team_a, "Kampoe"), (first.team_b, "Toppers")):
        team.name = name
        team.save()
    for player, name in zip(
        (
            first.team_a.player_1,
            first.team_a.player_2,
            first.team_b.player_1,
            first.team_b.player_2,
        ),
        ("Anita", "Ravi", "Boy", "Sharda"),
        strict=True,
    ):
        player.name = name
        player.save()
    return games


def bottom(locator) -> float:
    box = locator.bounding_box()
    assert box is not None
    return box["y"] + box["height"]


def test_a_directors_evening_on_the_sheet(browser, live_server):
    ARTIFACTS.mkdir(exist_ok=True)
    games = club_evening()
    competition = games[0].match.matchday.competition
    director = UserFactory.create(username="wedstrijdleider")
    competition.directors.add(director)
    sheet = [
        reverse("game_sheet", kwargs={"slug": competition.slug, "game_id": game.pk})
        for game in games
    ]

    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.on("dialog", lambda dialog: dialog.accept())  # the undo's confirmation

    # Logging in lands on tonight's matchday.
    page.goto(live_server.url + reverse("login"))
    page.locator("#id_username").fill(director.username)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(live_server.url + reverse("director_home"))
    evening = page.locator(f"#evening-{competition.slug}")
    expect(evening).to_contain_text("Matchday 1")
    expect(evening).to_contain_text("8 tables: 8 not started")
    page.screenshot(path=str(ARTIFACTS / "director-home-phone.png"), full_page=True)
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=str(ARTIFACTS / "director-home-desktop.png"), full_page=True)
    page.set_viewport_size(PHONE)

    # The sheets start at table 1; nobody is seated: set the seats and who calls first.
    evening.locator(".sheets-link").click()
    page.wait_for_url(live_server.url + sheet[0])
    expect(page.locator(".scoreboard-status")).to_contain_text("Not started")
    page.locator("#seats-panel summary").click()
    seat_1, seat_2, first = (page.locator("#seats-form fieldset").nth(n) for n in range(3))
    seat_1.get_by_label("Ravi", exact=True).check()  # Anita sits opposite, in seat 3
    seat_2.get_by_label("Boy", exact=True).check()
    first.get_by_label("Ravi", exact=True).check()
    page.locator("#seats-button").click()
    expect(page.locator("#sheet .alert-success")).to_contain_text("Seats set; Ravi calls round 1.")
    game = Game.objects.get(pk=games[0].pk)
    assert (game.first_caller, str(game.seat_1), str(game.seat_3)) == (1, "Ravi", "Anita")
    expect(page.locator("#id_caller option:checked")).to_have_text("Ravi")

    # On a phone, freshly opened: result, koppel and record are on the first screen.
    page.goto(live_server.url + sheet[0])
    form = page.locator("#round-form")
    for target in (
        form.get_by_label("redeal (no picture)", exact=True),
        form.get_by_label("Toppers", exact=True),
        page.locator("#record-button"),
        page.locator("#one-tap-b"),
    ):
        expect(target).to_be_visible()
        assert bottom(target) <= PHONE["height"], target
    assert int(page.evaluate("document.documentElement.scrollWidth")) <= PHONE["width"]
    page.screenshot(path=str(ARTIFACTS / "sheet-evening-phone.png"))

    # One tap: a gewone winst for Kampoe, Ravi calling.
    score = page.locator(".scoreboard-score")
    page.locator("#one-tap-a").click()
    expect(score).to_have_text("2–0")
    expect(page.locator("#round-1 .caller")).to_have_text("Ravi")
    # Toppers win the next one: the call passes to Boy, proposed for round 3.
    page.locator("#one-tap-b").click()
    expect(score).to_have_text("2–2")
    expect(page.locator("#id_caller option:checked")).to_have_text("Boy")
    # A redeal through the form: no koppel shown for it.
    form.get_by_label("redeal (no picture)", exact=True).check()
    page.locator("#record-button").click()
    expect(page.locator("#round-3 .result")).to_have_text("redeal (no picture)")
    page.screenshot(path=str(ARTIFACTS / "sheet-evening-played-phone.png"), full_page=True)

    # On a desktop, by keyboard: b, then u undoes it, then n opens table 2.
    page.set_viewport_size(DESKTOP)
    page.locator("body").press("b")
    expect(score).to_have_text("2–4")
    page.locator("#id_tricks_a").press("a")  # typing in a field is not a shortcut
    expect(score).to_have_text("2–4")
    page.locator("#id_tricks_a").press("Escape")  # leaves the field: keys work again
    page.locator("body").press("u")
    expect(score).to_have_text("2–2")
    expect(page.locator("#sheet-keys")).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / "sheet-evening-desktop.png"), full_page=True)
    page.locator("body").press("n")
    page.wait_for_url(live_server.url + sheet[1])
    expect(page.locator("h1")).to_contain_text("Table 2")
    expect(page.locator(".table-switch a")).to_have_count(TABLES)

    # Undo on a finished game says, before it is done, that the game reopens.
    for number in range(1, 5):
        round_record(game_id=games[1].pk, expected_number=number, result="kap", side="a")
    page.goto(live_server.url + sheet[1])
    expect(page.locator("#undo-button")).to_contain_text("reopens the game")
    confirm = page.locator("#undo-button").locator("xpath=..").get_attribute("hx-confirm")
    assert confirm is not None and "is no longer the winner" in confirm
    assert Game.objects.get(pk=games[1].pk).status == Game.Status.FINISHED
    page.screenshot(path=str(ARTIFACTS / "sheet-finished-desktop.png"), full_page=True)
    context.close()
