"""The director's score sheet entering rounds offline (issue 18), in Debian's Chromium via
Playwright: five rounds entered without a connection (taps and the a / b keys) wait on the
computer with their running score, survive a reload from the service worker's copy, and
are stored once, in order, when the connection is back; the buttons that need the server
are off meanwhile, with the reason on the page. A table phone's round in between refuses
the queued rounds visibly instead of applying them over it.
"""

from __future__ import annotations

import time
import uuid
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoring.models import Game, Round
from scoring.services.table import game_links_ensure, table_round_record
from tests.e2e.conftest import ARTIFACTS, DESKTOP, PASSWORD
from tests.e2e.test_table_offline import WAIT, kept_for_offline, named_game
from tests.factories import UserFactory
from tests.seen import game_token_now

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def patient_assertions() -> Any:
    """The sheet sends again after 2, 4, 8 s: an assertion here waits for that."""
    expect.set_options(timeout=WAIT)
    yield
    expect.set_options(timeout=5_000)


def director_sheet(browser: Any, live_server: Any, game: Game, viewport: Any = DESKTOP) -> Any:
    competition = game.match.matchday.competition
    director = UserFactory.create()
    competition.directors.add(director)
    page = browser.new_context(viewport=viewport).new_page()
    page.set_default_timeout(WAIT)
    page.goto(live_server.url + reverse("login"))
    page.locator("#id_username").fill(director.username)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"{live_server.url}/**")
    page.goto(
        live_server.url
        + reverse("game_sheet", kwargs={"slug": competition.slug, "game_id": game.pk})
    )
    kept_for_offline(page)
    return page


def waiting(page: Any) -> Any:
    return page.locator("#sheet-outbox .outbox-round.outbox-waiting")


def stored(game: Game) -> list[str]:
    return [f"{r.result}:{r.side}" for r in Round.objects.filter(game=game).order_by("number")]


def test_five_rounds_entered_offline_are_stored_once_in_order_when_back(browser, live_server):
    ARTIFACTS.mkdir(exist_ok=True)
    game = named_game()
    page = director_sheet(browser, live_server, game)
    page.context.set_offline(True)
    expect(page.locator("#sheet-offline-hint")).to_be_visible()
    expect(page.locator("#totals-form button")).to_be_disabled()

    for number, side in enumerate("ababa", start=1):
        if number % 2:
            page.locator(f"#one-tap-{side}").click()
        else:
            page.locator("body").press(side)  # the keyboard shortcut
        expect(waiting(page)).to_have_count(number)
    # Gewone winst is 2 points: 3 for Kampoe, 2 for Toppers.
    expect(page.locator("#sheet .score-a")).to_have_text("6")
    expect(page.locator("#sheet .score-b")).to_have_text("4")
    expect(page.locator("#sheet-outbox .outbox-status")).to_contain_text("connection is back")
    expect(page.locator("#add-round-title")).to_have_text("Add round 6")
    page.screenshot(path=str(ARTIFACTS / "sheet-offline-queue-desktop.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(ARTIFACTS / "sheet-offline-queue-phone.png"), full_page=True)
    page.set_viewport_size(DESKTOP)
    assert not Round.objects.filter(game=game).exists()

    response = page.reload()  # offline: the service worker's copy, the queue from IndexedDB
    assert response is not None and response.from_service_worker
    expect(waiting(page)).to_have_count(5)
    expect(page.locator("#sheet .score-a")).to_have_text("6")
    expect(page.locator("#totals-form button")).to_be_disabled()
    assert not Round.objects.filter(game=game).exists()

    started = time.perf_counter()
    page.context.set_offline(False)
    page.wait_for_function(
        "() => document.querySelector('#sheet').dataset.rounds === '5'"
        " && document.querySelectorAll('#sheet-outbox .outbox-round').length === 0",
        polling="raf",
    )
    print(f"\nsheet: 5 queued rounds sent in {time.perf_counter() - started:.2f} s after `online`")
    expect(page.locator("#sheet-outbox")).to_be_hidden()
    expect(page.locator("#sheet-offline-hint")).to_be_hidden()
    expect(page.locator("#undo-button")).to_be_enabled()
    assert stored(game) == ["gewone_winst:a", "gewone_winst:b"] * 2 + ["gewone_winst:a"]
    keys = list(Round.objects.filter(game=game).values_list("client_key", flat=True))
    assert None not in keys and len(set(keys)) == 5
    assert Round.history.filter(game_id=game.pk, history_type="+").count() == 5


def test_a_table_phones_round_meanwhile_refuses_the_queue_visibly(browser, live_server):
    game = named_game()
    page = director_sheet(browser, live_server, game)
    page.context.set_offline(True)
    page.locator("#one-tap-a").click()
    page.locator("#one-tap-a").click()
    expect(waiting(page)).to_have_count(2)
    link = game_links_ensure(game_ids=[game.pk])[game.pk]["b"]
    table_round_record(  # the table phone, meanwhile
        token=link.token,
        expected_number=1,
        result="gewone_winst",
        side="b",
        client_key=uuid.uuid4(),
        seen=game_token_now(game_id=game.pk),
    )
    page.context.set_offline(False)
    refused = page.locator("#sheet-outbox .outbox-round.outbox-refused")
    expect(refused).to_have_count(2)
    expect(refused.first).to_contain_text("changed by someone else")
    expect(page.locator("#sheet").first).to_have_attribute("data-rounds", "1")
    page.screenshot(path=str(ARTIFACTS / "sheet-offline-refused-desktop.png"), full_page=True)
    assert stored(game) == ["gewone_winst:b"]
    refused.first.locator(".outbox-discard").click()
    expect(refused).to_have_count(1)
    refused.first.locator(".outbox-reenter").click()
    expect(page.locator("#sheet-outbox .outbox-round")).to_have_count(0)
    assert stored(game) == ["gewone_winst:b", "gewone_winst:a"]


def test_a_post_that_cannot_reach_the_server_is_queued_and_sent(browser, live_server):
    """The browser thinks it is online, but the sheet's post gets no answer (the hall's
    Wi-Fi dropped the request): the round goes into the queue, and is stored once."""
    game = named_game()
    page = director_sheet(browser, live_server, game)
    lost = {"count": 0}

    def drop_the_sheets_post(route: Any) -> None:
        if route.request.method == "POST" and lost["count"] == 0:
            lost["count"] += 1
            route.abort()
        else:
            route.continue_()

    page.route("**/sheet/", drop_the_sheets_post)
    page.locator("#one-tap-b").click()
    page.wait_for_function(
        "() => document.querySelector('#sheet').dataset.rounds === '1'"
        " && document.querySelectorAll('#sheet-outbox .outbox-round').length === 0",
        polling="raf",
    )
    assert lost["count"] == 1
    expect(page.locator("#save-error")).to_be_hidden()
    assert stored(game) == ["gewone_winst:b"]
    assert Round.objects.get(game=game).client_key is not None


def test_take_back_removes_the_last_round_still_queued(browser, live_server):
    game = named_game()
    page = director_sheet(browser, live_server, game)
    page.on("dialog", lambda dialog: dialog.accept())
    page.context.set_offline(True)
    page.locator("#one-tap-a").click()
    page.locator("#one-tap-b").click()
    expect(waiting(page)).to_have_count(2)
    page.locator("#sheet-outbox .outbox-undo").click()
    expect(waiting(page)).to_have_count(1)
    expect(page.locator("#sheet .score-b")).to_have_text("0")
    page.context.set_offline(False)
    expect(page.locator("#sheet-outbox")).to_be_hidden()
    expect(page.locator("#sheet")).to_have_attribute("data-rounds", "1")
    assert stored(game) == ["gewone_winst:a"]


def test_rounds_queued_when_the_login_expired_wait_and_say_so(browser, live_server):
    """The director's session ended while rounds waited (cookies gone): the send lands on
    the login page. The rounds are neither refused nor lost: the box says to log in again,
    and once logged in (another tab) they are sent."""
    game = named_game()
    page = director_sheet(browser, live_server, game)
    page.context.set_offline(True)
    page.locator("#one-tap-b").click()
    expect(waiting(page)).to_have_count(1)
    director = game.match.matchday.competition.directors.get()
    page.context.clear_cookies()
    page.context.set_offline(False)
    login_text = page.locator("#sheet-texts").get_attribute("data-login") or ""
    assert login_text
    expect(page.locator("#sheet-outbox .outbox-status")).to_have_text(login_text)
    expect(waiting(page)).to_have_count(1)
    assert stored(game) == []

    again = page.context.new_page()
    again.goto(live_server.url + reverse("login"))
    again.locator("#id_username").fill(director.username)
    again.locator("#id_password").fill(PASSWORD)
    again.locator("main form button[type=submit]").click()
    again.wait_for_url(f"{live_server.url}/**")
    expect(waiting(page)).to_have_count(0)
    assert stored(game) == ["gewone_winst:b"]
