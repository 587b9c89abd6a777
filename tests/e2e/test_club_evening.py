"""A whole club evening in Dutch, in a real browser (issue 8, "Done when"): Debian's
Chromium via Playwright against the live server, on a Swiss club evening of 8 koppels that
counts results only once confirmed.

The director logs in (lands on their competitions), pairs matchday 1 on the schedule page,
opens the live board, sets the seats and the first caller on a table's score sheet and
reads the table's link (the URL its QR code holds). A phone (390×844, no account) opens the
link as koppel A and enters the whole game — one-tap gewone winst and a kap through the
form — and the opponents' phone confirms it: the board, the public standings and the hall
display change. At a second table the opponents dispute the result with a comment; the
director finds it on the board and in the queue, corrects the round on the score sheet and
confirms the corrected result: the board and the standings change again.

Every main page is saved at 390 and 1280 wide (the hall display at 1920×1080 too) as
`tests/e2e/artifacts/evening-<page>-<width>.png`, with its text as `evening-<page>.txt`.
The run prints (and writes to `evening-timings.txt`) how long one one-tap round takes on
the director's sheet and on the table's phone, and a table switch, from the click to the
updated page as Playwright sees it: figures for the note, never asserted.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from scoring.models import Game, GameDispute
from scoring.views import board as board_views
from scoring.views import table as table_views
from tests.e2e.conftest import ARTIFACTS, DESKTOP, PASSWORD, PHONE, refresh_standings_if_not_eager
from tests.e2e.test_csp import ConsoleWatch
from tests.factories import (
    CompetitionFactory,
    PlayerFactory,
    TeamEntryFactory,
    TeamFactory,
    UserFactory,
)
from tournaments.models import Competition

pytestmark = [pytest.mark.e2e, pytest.mark.nl, pytest.mark.django_db(transaction=True)]

FULL_HD = {"width": 1920, "height": 1080}
LOCALE = "nl-NL"  # a Dutch browser; the app's default is Dutch too
KOPPELS = [
    ("Kampoe", "Ramdien Ramsaran", "Anita Pinas"),
    ("Toppers", "Ricardo Sewdien", "Shanti Tjon A Fat"),
    ("", "Jan-Willem van der Berg", "Marlon Kromodimedjo"),
    ("Formula", "Gerda Bhagwandin", "Kishan Menig"),
    ("", "Priya Jagessar", "Dennis Doorson"),
    ("Ekta", "Sandra Hindori", "Roy Wijngaarde"),
    ("Pintoboys", "Natasha Biharie", "Glenn Vreden"),
    ("", "Reshma Ajodhia", "Iwan de Vries"),
]
SCORE = ".scoreboard-score"
POLLED = 15_000  # ms to wait for what a page shows by polling (every second here)
# The score's text without spaces, for `wait_for_function` (polled every animation frame).
SCORE_IS = (
    "([selector, want]) => { const e = document.querySelector(selector);"
    " return e !== null && e.textContent.replace(/\\s+/g, '') === want; }"
)


def club_evening() -> tuple[Competition, Any]:
    """A Swiss club evening, confirmation on, 8 koppels (some named, some by their players),
    nothing paired yet; and its director."""
    competition = CompetitionFactory.create(
        name="Troefclub Paramaribo — clubavond",
        slug="clubavond",
        schedule_format=Competition.Format.SWISS,
        confirmation_required=True,
    )
    for index, (name, first, second) in enumerate(KOPPELS):
        team = TeamFactory.create(
            name=name,
            key=f"koppel-{index + 1}",
            player_1=PlayerFactory.create(name=first),
            player_2=PlayerFactory.create(name=second),
        )
        TeamEntryFactory.create(competition=competition, team=team)
    director = UserFactory.create(username="wedstrijdleider")
    competition.directors.add(director)
    return competition, director


class Evening:
    """The run's browser contexts, screenshots, page texts and timings."""

    def __init__(self, browser: Any, base: str) -> None:
        self.browser = browser
        self.base = base
        self.watch = ConsoleWatch()
        self.overflow: dict[str, int] = {}
        self.timings: dict[str, list[float]] = {}

    def page(self, viewport: dict[str, int]) -> Any:
        context = self.browser.new_context(viewport=viewport, locale=LOCALE)
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.on("dialog", lambda dialog: dialog.accept())
        self.watch.attach(page)
        return page

    def visit(self, page: Any, path: str) -> None:
        self.watch.visit(page, path if path.startswith("http") else self.base + path)

    def shots(self, page: Any, name: str, *, sizes: tuple[dict[str, int], ...] = ()) -> None:
        """`evening-<name>-<width>.png` at 390 and 1280 wide (and `sizes`), full page;
        the page's text beside them, for the untranslated strings the report lists."""
        shown = page.viewport_size
        for size in (PHONE, DESKTOP, *sizes):
            page.set_viewport_size(size)
            if size == PHONE:
                wide = int(page.evaluate("document.documentElement.scrollWidth"))
                if wide > PHONE["width"]:
                    self.overflow[name] = wide
            # caret="initial": the default caret hiding leaves `style=""` on inputs, which
            # htmx copies into swapped-in inputs (a CSP violation made by the test itself).
            page.screenshot(
                path=str(ARTIFACTS / f"evening-{name}-{size['width']}.png"),
                full_page=size != FULL_HD,
                caret="initial",
            )
        page.set_viewport_size(shown)
        (ARTIFACTS / f"evening-{name}.txt").write_text(page.inner_text("body"), encoding="utf-8")
        expect(page.locator("html")).to_have_attribute("lang", "nl")

    def timed(self, what: str, started: float) -> None:
        self.timings.setdefault(what, []).append((time.perf_counter() - started) * 1000)

    def tap(self, page: Any, button: Any, want: str, what: str, scope: str = "") -> None:
        """Tap `button` and wait for the score to read `want`; the time goes to `what`."""
        started = time.perf_counter()
        button.click()
        page.wait_for_function(SCORE_IS, arg=[f"{scope} {SCORE}".strip(), want], polling="raf")
        self.timed(what, started)

    def report(self) -> str:
        lines = ["Club evening timings (ms, click to updated page, as Playwright sees it):"]
        for what, values in self.timings.items():
            lines.append(
                f"  {what}: median {statistics.median(values):.0f} "
                f"(n={len(values)}, min {min(values):.0f}, max {max(values):.0f})"
            )
        lines.append(
            "Taps of a practised director: 1 per ordinary round (gewone winst, one tap); "
            "2 per table switch through the board (card → sheet, Board → board), "
            "1 to the next table from the sheet (› or key n)."
        )
        if self.overflow:
            lines.append(f"Wider than 390 px at 390: {self.overflow}")
        return "\n".join(lines)


def games_by_table(competition: Competition) -> dict[int, Game]:
    games = Game.objects.filter(match__matchday__competition=competition).select_related(
        "team_a__player_1", "team_a__player_2", "team_b__player_1", "team_b__player_2"
    )
    return {game.table: game for game in games}


def table_link(evening: Evening, page: Any, card: Any, name: str = "") -> tuple[str, str]:
    """From the board: the table's link page (a QR code per koppel); the links of koppel A
    and koppel B it holds."""
    card.locator(".board-link").click()
    urls = []
    for side in "ab":
        expect(page.locator(f"#table-qr-{side} svg")).to_be_visible()
        url = page.locator(f"#table-url-{side}").get_attribute("href")
        assert url is not None and "/t/" in url
        assert page.locator(f"#table-url-{side}").inner_text() == url  # the QR's text, in words
        urls.append(url)
    if name:
        evening.shots(page, name)
    return urls[0], urls[1]


def other_result(phone: Any, result: str, side: str) -> None:
    """A round that is not a gewone winst: through "another result" on the table's page."""
    details = phone.locator(".other-result")
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    phone.locator("#id_result").select_option(result)
    phone.locator(f"#table-round-form input[name=side][value={side}]").check()
    phone.locator("#record-other").click()


def standings_first(page: Any) -> Any:
    return page.locator("table.standings tbody tr").first


def test_a_club_evening_in_dutch(browser, live_server, monkeypatch):
    ARTIFACTS.mkdir(exist_ok=True)
    # The live server runs in this process: pages refresh themselves every second.
    monkeypatch.setattr(board_views, "BOARD_POLL_SECONDS", 1)
    monkeypatch.setattr(board_views, "DISPLAY_POLL_SECONDS", 1)
    monkeypatch.setattr(board_views, "DISPLAY_PAGE_SECONDS", 3)
    monkeypatch.setattr(table_views, "TABLE_POLL_SECONDS", 1)
    competition, director = club_evening()
    slug = competition.slug
    evening = Evening(browser, live_server.url)
    board_url = reverse("matchday_board", kwargs={"slug": slug, "number": 1})
    standings_url = reverse("competition_detail", kwargs={"slug": slug})
    display_url = reverse("hall_display", kwargs={"slug": slug})

    # ---- 1. The director logs in, lands on their competitions, pairs matchday 1.
    page = evening.page(DESKTOP)
    evening.visit(page, reverse("login"))
    page.locator("#id_username").fill(director.username)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(live_server.url + reverse("director_home"))
    expect(page.locator("#logout-button")).to_have_text("Uitloggen")
    evening.shots(page, "director-home-login")
    page.locator(f'a[href="{reverse("competition_manage", kwargs={"slug": slug})}"]').click()
    expect(page.locator("#pair-button")).to_contain_text("Speelronde 1")
    page.locator("#id_pair-date").fill(timezone.localdate().isoformat())
    page.locator("#pair-button").click()
    expect(page.locator(".matchday-card")).to_have_count(1)
    expect(page.locator(".matchday-card li")).to_have_count(4)  # 8 koppels: 4 tables
    evening.shots(page, "manage")
    games = games_by_table(competition)
    assert sorted(games) == [1, 2, 3, 4]

    # Tonight's matchday on the director's home page; its live board.
    page.locator("#director-home-link").click()
    tonight = page.locator(f"#evening-{slug}")
    expect(tonight).to_contain_text("Speelronde 1")
    evening.shots(page, "director-home")
    tonight.locator(".manage-link").click()
    page.locator("#board-link").click()
    page.wait_for_url(live_server.url + board_url)
    cards = {
        table: page.locator(f'#board .board-table[data-game="{game.pk}"]')
        for table, game in games.items()
    }
    for card in cards.values():
        expect(card).to_have_attribute("data-state", "not_started")
    expect(cards[1].locator(".board-sheet")).to_contain_text("Scorekaart")
    evening.shots(page, "board")

    # ---- 2. Table 1's score sheet: the seats and who calls first.
    first = games[1]
    a_1, a_2 = first.team_a.player_1, first.team_a.player_2
    b_1 = first.team_b.player_1
    cards[1].locator(".board-sheet").click()
    page.locator("#seats-panel summary").click()
    seat_1, seat_2, caller = (page.locator("#seats-form fieldset").nth(n) for n in range(3))
    seat_1.get_by_label(str(a_2), exact=True).check()  # a_1 sits opposite, in seat 3
    seat_2.get_by_label(str(b_1), exact=True).check()
    caller.get_by_label(str(a_2), exact=True).check()
    expect(page.locator("#record-button")).to_have_text("Ronde opslaan")
    page.locator("#seats-button").click()
    expect(page.locator("#sheet .alert-success")).to_be_visible()
    expect(page.locator("#seats-panel .seats-line")).to_contain_text(str(a_2))
    expect(page.locator("#id_caller option:checked")).to_have_text(str(a_2))
    first.refresh_from_db()
    assert (first.seat_1_id, first.seat_3_id, first.first_caller) == (a_2.pk, a_1.pk, 1)
    evening.shots(page, "sheet")

    # ---- 3. Its table link; a phone without an account enters the game as koppel A.
    page.locator("#board-link").click()
    url, url_b = table_link(evening, page, cards[1], "game-link")
    scorer = evening.page(PHONE)
    evening.visit(scorer, url)
    expect(scorer.locator("#who-am-i")).to_contain_text(str(first.team_a))
    expect(scorer.locator("#table-rounds-title")).to_have_text("Rondes")
    evening.shots(scorer, "table-koppel")
    expect(scorer.locator("#table-round-form #id_caller option:checked")).to_have_text(str(a_2))
    quick_a, quick_b = scorer.locator("#quick-a"), scorer.locator("#quick-b")
    # Ten one-tap rounds and a kap: 6–0, 6–4, 11–4 (kap), then to 21–4.
    taps = ["a", "a", "a", "b", "b", "kap", "a", "a", "a", "a", "a"]
    a = b = 0
    for step in taps:
        if step == "kap":
            other_result(scorer, "kap", "a")
            a += 5
            expect(scorer.locator(f"#table {SCORE}")).to_have_text(f"{a}–{b}")
            evening.shots(scorer, "table-entering")
            continue
        a, b = (a + 2, b) if step == "a" else (a, b + 2)
        button = quick_a if step == "a" else quick_b
        evening.tap(scorer, button, f"{a}–{b}", "table phone: one-tap round", "#table")
    expect(scorer.locator("#table-waiting")).to_be_visible()
    evening.shots(scorer, "table-over")
    first.refresh_from_db()
    assert (first.status, first.score_a, first.score_b) == (Game.Status.FINISHED, 21, 4)
    assert first.confirmed_at is None

    # The board shows it awaiting confirmation.
    page.locator(".board-nav-link").click()
    expect(cards[1]).to_have_attribute("data-state", "awaiting", timeout=POLLED)

    # ---- 4. The opponents' phone confirms; the board, standings and big screen follow.
    display = evening.page(FULL_HD)
    evening.visit(display, display_url + "?view=standings")
    expect(display.locator('.display-heading [data-heading="standings"]')).to_have_text("Stand")
    checker = evening.page(PHONE)
    evening.visit(checker, url_b)
    expect(checker.locator("#table-confirm")).to_be_visible()
    evening.shots(checker, "table-confirm")
    checker.locator("#table-confirm").click()
    expect(checker.locator("#table-confirmed")).to_be_visible()
    expect(scorer.locator("#table-confirmed")).to_be_visible(timeout=POLLED)  # followed
    first.refresh_from_db()
    assert first.confirmed_side == "b" and first.confirmed_at is not None
    expect(cards[1]).to_have_attribute("data-state", "finished", timeout=POLLED)  # no reload
    expect(cards[1].locator(".board-points").first).to_have_text("21")
    evening.shots(page, "board-confirmed")
    scorer.context.close()
    checker.context.close()

    refresh_standings_if_not_eager(competition.pk)  # the worker's job: none runs here
    winner_1 = str(first.team_a)
    leader = display.locator(".display-standing").first
    expect(leader).to_contain_text(winner_1, timeout=POLLED)  # polled, no reload
    expect(leader.locator(".display-strong")).to_have_text("2")
    evening.shots(display, "display-standings", sizes=(FULL_HD,))
    evening.visit(display, display_url + "?view=pairings")
    expect(display.locator(".display-table")).to_have_count(4)
    evening.shots(display, "display-tables", sizes=(FULL_HD,))
    display.context.close()

    public = evening.page(PHONE)
    evening.visit(public, standings_url)
    expect(public.locator("#standings-title")).to_have_text("Stand")
    expect(standings_first(public)).to_contain_text(winner_1)
    evening.shots(public, "standings")

    # ---- The director's evening at speed: table switches and one-tap rounds (timed).
    third = games[3]
    for table in (3, 4, 2, 3, 4):
        started = time.perf_counter()
        cards[table].locator(".board-sheet").click()
        page.wait_for_url(
            live_server.url
            + reverse("game_sheet", kwargs={"slug": slug, "game_id": games[table].pk})
        )
        evening.timed("director: board → sheet", started)
        started = time.perf_counter()
        page.locator("#board-link").click()
        page.wait_for_url(live_server.url + board_url)
        evening.timed("director: sheet → board", started)
    cards[3].locator(".board-sheet").click()
    a = b = 0
    for step in "aabababaab":  # ten gewone winst: 12–8, still playing
        a, b = (a + 2, b) if step == "a" else (a, b + 2)
        evening.tap(page, page.locator(f"#one-tap-{step}"), f"{a}–{b}", "director sheet: one-tap")
    third.refresh_from_db()
    assert (third.status, third.score_a, third.score_b) == (Game.Status.OPEN, 12, 8)
    for _switch in range(5):
        onward = page.locator("#next-table, #previous-table").last  # next, else previous
        href = onward.get_attribute("href")
        started = time.perf_counter()
        onward.click()
        page.wait_for_url(live_server.url + str(href))
        evening.timed("director: sheet → next table (one tap)", started)

    # ---- 5. Table 2: entered at the table, disputed by the opponents.
    second = games[2]
    page.locator("#board-link").click()
    url, url_b = table_link(evening, page, cards[2])
    scorer = evening.page(PHONE)
    evening.visit(scorer, url)
    a = b = 0
    for step in ["a", "b", "kap", "kap", "a", "kap", "kap"]:  # 24–2
        if step == "kap":
            other_result(scorer, "kap", "a")
            a += 5
            expect(scorer.locator(f"#table {SCORE}")).to_have_text(f"{a}–{b}")
            continue
        a, b = (a + 2, b) if step == "a" else (a, b + 2)
        scorer.locator(f"#quick-{step}").click()
        expect(scorer.locator(f"#table {SCORE}")).to_have_text(f"{a}–{b}")
    expect(scorer.locator("#table-waiting")).to_be_visible()
    page.locator(".board-nav-link").click()
    expect(cards[2]).to_have_attribute("data-state", "awaiting", timeout=POLLED)
    checker = evening.page(PHONE)
    evening.visit(checker, url_b)
    comment = "Ronde 3 was een gewone winst, geen kap."
    checker.locator("#table-dispute-form textarea").fill(comment)
    checker.locator("#table-dispute").click()
    expect(checker.locator("#table-disputed")).to_contain_text(comment)
    evening.shots(checker, "table-disputed")
    expect(scorer.locator("#table-disputed")).to_be_visible(timeout=POLLED)  # followed
    scorer.context.close()
    checker.context.close()
    dispute = GameDispute.objects.get(game=second)

    # The board says so by itself (polled); the queue lists it.
    expect(cards[2]).to_have_attribute("data-state", "disputed", timeout=POLLED)
    expect(page.locator("#board-summary .text-danger-emphasis")).to_be_visible()
    evening.shots(page, "board-disputed")
    page.locator("#director-queue-link").click()
    item = page.locator(f"#dispute-{dispute.pk}")
    expect(item.locator(".queue-comment")).to_contain_text(comment)
    evening.shots(page, "queue")

    # Corrected on the score sheet (round 3 a gewone winst: 21–2), then confirmed.
    item.locator(f'a[href$="/game/{second.pk}/sheet/"]').last.click()
    expect(page.locator(SCORE)).to_have_text("24–2")
    page.locator("#round-3 .round-actions a").click()
    edit = page.locator("#round-edit")
    edit.get_by_label("gewone winst", exact=True).check()
    evening.shots(page, "round-edit")
    edit.locator("button[type=submit]").click()
    expect(page.locator(SCORE)).to_have_text("21–2")
    expect(page.locator("#round-3 .result")).to_contain_text("gewone winst")
    expect(page.locator("#confirm-button")).to_contain_text("bevestigen")  # confirmed below
    evening.shots(page, "sheet-corrected")
    page.locator("#board-link").click()
    expect(cards[2]).to_have_attribute("data-state", "disputed")  # until the director decides
    page.locator("#director-queue-link").click()
    item.locator("button[name=resolution][value=corrected]").click()
    expect(page.locator("#queue [id^=dispute-]")).to_have_count(0)
    evening.shots(page, "queue-resolved")
    dispute.refresh_from_db()
    second.refresh_from_db()
    assert dispute.resolution == GameDispute.Resolution.CORRECTED
    assert (second.score_a, second.score_b) == (21, 2) and second.confirmed_at is not None

    # The board and the standings follow: table 2's koppel A leads on saldo (+19 to +17).
    page.goto(live_server.url + board_url)
    expect(cards[2]).to_have_attribute("data-state", "finished")
    expect(cards[2].locator(".board-points").first).to_have_text("21")
    refresh_standings_if_not_eager(competition.pk)
    public.reload()
    expect(standings_first(public)).to_contain_text(str(second.team_a))
    expect(public.locator("table.standings tbody tr").nth(1)).to_contain_text(winner_1)
    evening.shots(public, "standings-after")
    display = evening.page(FULL_HD)
    evening.visit(display, display_url + "?view=standings")
    expect(display.locator(".display-standing").first).to_contain_text(str(second.team_a))
    display.context.close()
    public.context.close()
    page.context.close()

    report = evening.report()
    print("\n" + report)
    (ARTIFACTS / "evening-timings.txt").write_text(report + "\n", encoding="utf-8")
    assert evening.watch.violations == [], evening.watch.violations
