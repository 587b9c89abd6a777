"""The director's live board and the hall display in a real browser (issue 8).

A club evening of 26 koppels (13 tables and a bye) in every state; the board follows a
round entered elsewhere without a reload and says so when a poll fails; the hall display
fits its lists to the screen and cycles between the tables and the standings.
Screenshots: the board at 390 and 1280 wide, the display at 1920×1080 and 1280×720, into
tests/e2e/artifacts/. When Chromium cannot start, the tests fail in CI (`CI=true`) and are
skipped elsewhere.
"""

from __future__ import annotations

import datetime
import random
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from benchmarks.generate import random_game
from scoring.models import Game, GameDispute
from scoring.services.rounds import RoundRecord, game_rounds_load, round_record
from scoring.services.standings import standings_rebuild
from scoring.views import board as board_views
from tests.builders import random_matchday
from tests.e2e.conftest import ARTIFACTS, DESKTOP, PASSWORD, PHONE
from tests.factories import (
    CompetitionFactory,
    PlayerFactory,
    TeamEntryFactory,
    TeamFactory,
    UserFactory,
)
from tournaments.models import Competition, Match, Matchday

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

FULL_HD = {"width": 1920, "height": 1080}
SMALL_SCREEN = {"width": 1280, "height": 720}
FIRST = [
    "Ramdien",
    "Soekhlal",
    "Jan-Willem",
    "Anita",
    "Ricardo",
    "Shanti",
    "Marlon",
    "Gerda",
    "Kishan",
    "Priya",
    "Dennis",
    "Sandra",
    "Roy",
    "Natasha",
    "Glenn",
    "Reshma",
    "Iwan",
    "Wendy",
    "Armand",
    "Chandra",
    "Errol",
    "Sunita",
    "Hans",
    "Monique",
    "Ravi",
    "Yvonne",
    "Clyde",
    "Astrid",
    "Nardo",
    "Esther",
    "Stanley",
    "Radha",
    "Orlando",
    "Joyce",
    "Prem",
    "Lucia",
    "Henk",
    "Vanita",
    "Edgar",
    "Mala",
    "Frits",
    "Indra",
    "Ronald",
    "Saskia",
    "Baldew",
    "Carla",
    "Winston",
    "Kamla",
    "Pieter",
    "Usha",
    "Remy",
    "Ilse",
]
LAST = [
    "Ramsaran",
    "Pinas",
    "van der Berg",
    "Sewdien",
    "Kromodimedjo",
    "Tjon A Fat",
    "Bhagwandin",
    "Menig",
    "Jagessar",
    "Doorson",
    "Hindori",
    "Wijngaarde",
    "Biharie",
    "Vreden",
    "Ajodhia",
    "de Vries",
    "Mohan",
    "Brunings",
    "Sital",
    "Fernandes",
]


def evening() -> tuple[Competition, Matchday, dict[int, Game]]:
    """26 koppels with long real names, confirmation on: matchday 1 played, matchday 2
    (today) with 13 tables — not started, playing, finished, awaiting confirmation,
    disputed, one forfeit — and a bye."""
    rng = random.Random(8)
    competition = CompetitionFactory.create(
        name="Troefclub Paramaribo — clubavond", slug="clubavond", confirmation_required=True
    )
    entries = []
    for index in range(27):
        players = [
            PlayerFactory.create(
                name=f"{FIRST[(2 * index + k) % len(FIRST)]} "
                f"{LAST[(3 * index + 7 * k) % len(LAST)]}"
            )
            for k in range(2)
        ]
        entries.append(
            TeamEntryFactory.create(
                competition=competition,
                team=TeamFactory.create(
                    name="Kampoe" if index == 4 else "", player_1=players[0], player_2=players[1]
                ),
            )
        )
    today = timezone.localdate()
    games: dict[int, Game] = {}
    states = (
        ["not_started"] * 3
        + ["playing"] * 5
        + ["finished"] * 2
        + ["awaiting", "disputed", "forfeit"]
    )
    for number, date in ((1, today - datetime.timedelta(days=7)), (2, today)):
        matchday = Matchday.objects.create(competition=competition, number=number, date=date)
        for table, game in random_matchday(matchday, entries, rng, seated=False).items():
            state = "finished" if number == 1 else states[(table * 5) % len(states)]
            rounds = [RoundRecord(result=r["result"], side=r["side"]) for r in random_game(rng)]
            if state == "playing":
                rounds = rounds[: rng.randint(2, 6)]
            if state in ("playing", "finished", "awaiting", "disputed"):
                game_rounds_load(game_id=game.pk, rounds=rounds)
            if state == "finished":
                Game.objects.filter(pk=game.pk).update(confirmed_at=timezone.now())
            if state == "disputed":
                GameDispute.objects.create(game=game, side="b", comment="ronde 6 was een kap")
            if state == "forfeit":
                Match.objects.filter(pk=game.match_id).update(
                    forfeit="away", forfeit_reason="no show"
                )
            games[table] = game
    standings_rebuild(competition_id=competition.pk)
    return competition, competition.matchdays.get(number=2), games


def watched(page: Any) -> list[str]:
    """The page's script errors and Content-Security-Policy violations, as they happen."""
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on(
        "console",
        lambda message: problems.append(message.text) if "CSP" in message.text else None,
    )
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', (e) => "
        "console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI));"
    )
    return problems


def logged_in(browser: Any, live_server: Any, viewport: dict[str, int], next_url: str) -> Any:
    page = browser.new_context(viewport=viewport).new_page()
    page.problems = watched(page)
    page.set_default_timeout(15_000)
    page.goto(live_server.url + reverse("login") + "?next=" + next_url)
    page.locator("#id_username").fill("wedstrijdleider")
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    return page


def test_the_board_follows_the_tables_live(browser, live_server, monkeypatch):
    ARTIFACTS.mkdir(exist_ok=True)
    monkeypatch.setattr(board_views, "BOARD_POLL_SECONDS", 1)  # the live server runs here
    competition, matchday, games = evening()
    director = UserFactory.create(username="wedstrijdleider")
    competition.directors.add(director)
    url = reverse("matchday_board", kwargs={"slug": competition.slug, "number": matchday.number})

    page = logged_in(browser, live_server, PHONE, url)
    expect(page.locator("#board .board-table")).to_have_count(13)
    assert int(page.evaluate("document.documentElement.scrollWidth")) <= PHONE["width"]
    page.screenshot(path=str(ARTIFACTS / "board-phone.png"), full_page=True)

    # A table enters a round on its phone: the board shows it without a reload.
    waiting = next(
        table
        for table, game in games.items()
        if not game.rounds.exists() and not Match.objects.get(pk=game.match_id).forfeit
    )
    card = page.locator(f'#board .board-table[data-game="{games[waiting].pk}"]')
    expect(card).to_have_attribute("data-state", "not_started")
    page.evaluate("window.notReloaded = true")
    round_record(game_id=games[waiting].pk, expected_number=1, result="kap", side="a")
    expect(card).to_have_attribute("data-state", "playing")
    expect(card.locator(".board-points").first).to_have_text("5")
    assert page.evaluate("window.notReloaded") is True

    # The connection drops: the board stays, marked stale; it comes back by itself.
    page.route("**/board/**", lambda route: route.abort())
    expect(page.locator("[data-live-status]")).to_be_visible()
    expect(page.locator("#board .board-table")).to_have_count(13)
    page.unroute("**/board/**")
    expect(page.locator("[data-live-status]")).to_be_hidden()

    assert not page.problems, page.problems
    # One tap to the table's sheet.
    card.locator(".board-sheet").click()
    expect(page).to_have_url(
        live_server.url
        + reverse("game_sheet", kwargs={"slug": competition.slug, "game_id": games[waiting].pk})
    )
    page.context.close()

    page = logged_in(browser, live_server, DESKTOP, url)
    expect(page.locator("#board .board-table")).to_have_count(13)
    page.screenshot(path=str(ARTIFACTS / "board-desktop.png"), full_page=True)
    page.locator(".board-filters a", has_text="Playing").click()
    expect(page.locator("#board .board-table")).to_have_count(6)
    page.context.close()


def test_the_hall_display_fits_the_screen_and_cycles(browser, live_server, monkeypatch):
    ARTIFACTS.mkdir(exist_ok=True)
    monkeypatch.setattr(board_views, "DISPLAY_PAGE_SECONDS", 2)
    monkeypatch.setattr(board_views, "DISPLAY_POLL_SECONDS", 1)
    competition, matchday, games = evening()
    url = live_server.url + reverse("hall_display", kwargs={"slug": competition.slug})

    for name, viewport in (("1920", FULL_HD), ("1280", SMALL_SCREEN)):
        page = browser.new_context(viewport=viewport).new_page()
        page.set_default_timeout(15_000)
        errors = watched(page)
        page.goto(url + "?view=pairings")
        pairings = page.locator('[data-view="pairings"]')
        expect(pairings).to_be_visible()
        expect(page.locator(".display-heading")).to_contain_text("Matchday 2")
        # Nothing spills off the screen: shown items lie inside it, and no scrollbar.
        assert int(page.evaluate("document.documentElement.scrollHeight")) <= viewport["height"]
        bottoms = page.eval_on_selector_all(
            '[data-view="pairings"] [data-item]:not([hidden])',
            "items => items.map(i => i.getBoundingClientRect().bottom)",
        )
        assert bottoms and max(bottoms) <= viewport["height"]
        page.screenshot(path=str(ARTIFACTS / f"display-tables-{name}.png"))
        page.goto(url + "?view=standings")
        expect(page.locator('[data-view="standings"]')).to_be_visible()
        expect(page.locator('[data-view="pairings"]')).to_be_hidden()
        expect(page.locator("[data-page-label]")).to_have_text("1/2")  # 27 rows: two pages
        page.screenshot(path=str(ARTIFACTS / f"display-standings-{name}.png"))
        assert not errors, errors
        page.context.close()

    # Cycling: the tables' pages, then the standings', then round again; a data refresh
    # keeps the view on screen.
    page = browser.new_context(viewport=SMALL_SCREEN).new_page()
    page.set_default_timeout(15_000)
    problems = watched(page)
    page.goto(url)
    expect(page.locator('[data-view="pairings"]')).to_be_visible()
    expect(page.locator('[data-view="standings"]')).to_be_visible(timeout=20_000)
    expect(page.locator('[data-view="pairings"]')).to_be_visible(timeout=20_000)
    assert not problems, problems
    # A poll that fails leaves the screen as it was, with a mark.
    page.route("**/display/**", lambda route: route.abort())
    expect(page.locator(".display-offline")).to_be_visible()
    expect(page.locator(".display-title")).to_have_text(competition.name)
    page.unroute("**/display/**")
    expect(page.locator(".display-offline")).to_be_hidden()
    page.context.close()


def test_a_club_match_on_the_board_and_the_display(browser, live_server):
    """Two club matches of 4 koppels a side: the board groups their tables by sitting, the
    played sitting folded; the display shows each match's score and current sitting."""
    from tests.scoring.views.test_board_display import club_match_on

    ARTIFACTS.mkdir(exist_ok=True)
    competition = CompetitionFactory.create(
        name="Bondscompetitie 2026",
        kind="clubs",
        koppels_per_side=4,
        min_koppels=4,
        sittings=4,
        confirmation_required=True,
    )
    matchday = Matchday.objects.create(competition=competition, number=1)
    for seed in (1, 2):
        club_match_on(matchday, seed)
    standings_rebuild(competition_id=competition.pk)
    director = UserFactory.create(username="wedstrijdleider")
    competition.directors.add(director)
    url = reverse("matchday_board", kwargs={"slug": competition.slug, "number": 1})
    for name, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page = logged_in(browser, live_server, viewport, url)
        expect(page.locator("#board .board-match")).to_have_count(2)
        expect(
            page.locator("#board .board-sitting-done:not(.board-sitting-pending)")
        ).to_have_count(2)
        page.screenshot(path=str(ARTIFACTS / f"board-clubs-{name}.png"), full_page=True)
        page.context.close()
    page = browser.new_context(viewport=FULL_HD).new_page()
    page.goto(live_server.url + reverse("hall_display", kwargs={"slug": competition.slug}))
    expect(page.locator(".display-match")).to_have_count(2)
    page.screenshot(path=str(ARTIFACTS / "display-clubs-1920.png"))
    page.context.close()
