"""The table phone offline (issue 18), in Debian's Chromium via Playwright: a whole game
entered without a connection and sent once, in order, when it is back; a lost answer; a
director's correction meanwhile; two tabs replaying one queue; an upgrade of the service
worker; the phone's copy of the rules against the engine; one way in per koppel.

The phones are 390×844 browser contexts on the live server (localhost: a secure context,
so the service worker runs). Timings measured here are printed (`-s`) for BENCHMARKS.md.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from django.test import override_settings
from django.urls import reverse
from playwright.sync_api import expect

from scoring.models import Game, GameLink, Round, Standing
from scoring.rules import GameState, Points, Result, RoundInput, RuleSet, RuleViolation, Side
from scoring.selectors.table import engine_rules
from scoring.services.rounds import round_correct, round_record
from scoring.services.table import game_link_revoke, game_links_ensure
from tests.e2e.conftest import ARTIFACTS, PHONE, refresh_standings_if_not_eager
from tests.e2e.test_csp import ConsoleWatch
from tests.factories import CompetitionFactory, GameFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WAIT = 20_000


@pytest.fixture(autouse=True)
def patient_assertions() -> Any:
    """The phone sends again after 2, 4, 8 s: an assertion here waits for that."""
    expect.set_options(timeout=WAIT)
    yield
    expect.set_options(timeout=5_000)  # Playwright's default, for the other modules


def named_game(**competition: Any) -> Game:
    game = GameFactory.create(
        competition=CompetitionFactory.create(name="Club evening", **competition)
    )
    for team, name in ((game.team_a, "Kampoe"), (game.team_b, "Toppers")):
        team.name = name
        team.save()
    return game


def url_of(live_server: Any, link: GameLink) -> str:
    return live_server.url + reverse("table_sheet", kwargs={"token": link.token})


def phone(browser: Any, watch: ConsoleWatch | None = None, context: Any = None) -> Any:
    page = (context or browser.new_context(viewport=PHONE)).new_page()
    page.set_default_timeout(WAIT)
    if watch is not None:
        watch.attach(page)
    return page


def until(page: Any, check: str) -> None:
    """Wait until the async function `check` resolves truthy in the page (a function, not
    an expression: Playwright evaluates those without eval, which the CSP forbids)."""
    deadline = time.monotonic() + WAIT / 1000
    while not page.evaluate(check):
        assert time.monotonic() < deadline, f"still false: {check}"
        page.wait_for_timeout(100)


def kept_for_offline(page: Any) -> None:
    """Wait until the service worker controls the page and keeps a copy of it."""
    until(page, "() => !!(navigator.serviceWorker && navigator.serviceWorker.controller)")
    until(
        page,
        """async () => {
            for (const name of await caches.keys()) {
                if (name.startsWith('troefclub-pages-')) {
                    const cache = await caches.open(name);
                    if (await cache.match(location.href, {ignoreVary: true})) return true;
                }
            }
            return false;
        }""",
    )


def other_result(page: Any, result: str, side: str) -> None:
    details = page.locator(".other-result")
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    page.locator("#id_result").select_option(result)
    page.locator(f"#table-round-form input[name=side][value={side}]").check()
    page.locator("#record-other").click()


def waiting(page: Any) -> Any:
    return page.locator(".outbox-round.outbox-waiting")


def none_refused(page: Any) -> None:
    refused = page.locator(".outbox-round.outbox-refused")
    assert refused.count() == 0, page.locator("#table-outbox").inner_text()


# The page takes no second round within this time of the first (settings.TABLE_TAP_GUARD_MS,
# off in the browser tests, tests/e2e/conftest.py, but where it is what is tested).
TAP_GUARD_MS = 500


def tap(page: Any, step: str) -> None:
    if step in ("a", "b"):
        page.locator(f"#quick-{step}").click()
    else:
        result, side = step.split(":")
        other_result(page, result, side)


def stored(game: Game) -> list[str]:
    return [f"{r.result}:{r.side}" for r in Round.objects.filter(game=game).order_by("number")]


# 14 one-tap rounds (7 each, 14–14), then a baunie for Kampoe: 29–14, over at round 15.
GAME = ["a", "b"] * 7 + ["baunie:a"]
GAME_STORED = ["gewone_winst:a", "gewone_winst:b"] * 7 + ["baunie:a"]


def test_a_whole_game_offline_is_stored_once_in_order_when_back_online(browser, live_server):
    ARTIFACTS.mkdir(exist_ok=True)
    game = named_game()
    link = game_links_ensure(game_ids=[game.pk])[game.pk]["a"]
    watch = ConsoleWatch()
    page = phone(browser, watch)
    watch.visit(page, url_of(live_server, link))
    kept_for_offline(page)

    page.context.set_offline(True)
    for number, step in enumerate(GAME, start=1):
        tap(page, step)
        expect(waiting(page)).to_have_count(number)
    expect(page.locator("#table .score-a")).to_have_text("29")
    expect(page.locator("#table .score-b")).to_have_text("14")
    expect(page.locator("#table-outbox .outbox-status")).to_contain_text(
        "sent when the connection is back"
    )
    page.screenshot(path=str(ARTIFACTS / "table-offline-queue-phone.png"), full_page=True)
    assert not Round.objects.filter(game=game).exists()

    response = page.reload()  # offline: the service worker's copy, the queue from IndexedDB
    assert response is not None and response.from_service_worker
    expect(waiting(page)).to_have_count(15)
    expect(page.locator("#table .score-a")).to_have_text("29")
    assert not Round.objects.filter(game=game).exists()

    # Measured in the page (the database is not read meanwhile: an in-memory SQLite
    # shares its locks with the live server): from `online` to the last answer.
    started = time.perf_counter()
    page.context.set_offline(False)
    page.wait_for_function(
        "() => document.querySelector('#table').dataset.rounds === '15'"
        " && document.querySelectorAll('.outbox-round').length === 0",
        polling="raf",
    )
    synced = time.perf_counter() - started
    print(f"\nsync of 15 queued rounds: {synced:.2f} s from `online` to the 15th answer")
    expect(page.locator("#table-outbox")).to_be_hidden()
    page.screenshot(path=str(ARTIFACTS / "table-synced-phone.png"), full_page=True)
    print("VIOLATIONS", watch.violations)
    assert stored(game) == GAME_STORED
    keys = list(Round.objects.filter(game=game).values_list("client_key", flat=True))
    assert None not in keys and len(set(keys)) == 15
    game.refresh_from_db()
    assert (game.status, game.score_a, game.score_b) == ("finished", 29, 14)
    expect(page.locator("#table-waiting")).to_be_visible()  # the sheet as the server has it
    refresh_standings_if_not_eager(game.match.matchday.competition_id)
    home = Standing.objects.get(entry=game.match.home)
    assert (home.played, home.won, home.points_for) == (1, 1, 29)
    assert watch.violations == []


def test_a_lost_answer_is_sent_again_and_stored_once(browser, live_server):
    game = named_game()
    link = game_links_ensure(game_ids=[game.pk])[game.pk]["a"]
    page = phone(browser)
    page.goto(url_of(live_server, link))
    lost: list[int] = []

    def lose_the_first_answer(route: Any) -> None:
        if lost:
            route.continue_()
            return
        route.fetch()  # the server stores the round …
        lost.append(1)
        route.abort()  # … and the phone never hears back

    page.route("**/round/", lose_the_first_answer)
    page.locator("#quick-a").click()
    expect(waiting(page)).to_have_count(1)
    while not lost:
        page.wait_for_timeout(20)
    assert stored(game) == ["gewone_winst:a"]  # stored, the phone doesn't know yet
    page.evaluate("() => window.dispatchEvent(new Event('online'))")  # a retry (as the timer does)
    expect(waiting(page)).to_have_count(0)
    page.locator("#quick-b").click()
    expect(page.locator("#table .score-b")).to_have_text("2")
    expect(waiting(page)).to_have_count(0)
    assert stored(game) == ["gewone_winst:a", "gewone_winst:b"]


def test_a_correction_meanwhile_refuses_the_queued_rounds_visibly(browser, live_server):
    game = named_game()
    link = game_links_ensure(game_ids=[game.pk])[game.pk]["a"]
    page = phone(browser)
    page.goto(url_of(live_server, link))
    for step in ("a", "a"):
        tap(page, step)
    expect(page.locator("#table .score-a")).to_have_text("4")
    expect(waiting(page)).to_have_count(0)

    page.context.set_offline(True)
    for step in ("b", "kap:a", "a"):
        tap(page, step)
    expect(waiting(page)).to_have_count(3)
    first = Round.objects.get(game=game, number=1)
    round_correct(round_id=first.pk, result="gewone_winst", side="b", seen=first.token)
    page.context.set_offline(False)

    refused = page.locator(".outbox-round.outbox-refused")
    expect(refused).to_have_count(3)
    expect(refused.first.locator(".outbox-reason")).to_contain_text("changed by someone else")
    page.screenshot(path=str(ARTIFACTS / "table-refused-phone.png"), full_page=True)
    assert stored(game) == ["gewone_winst:b", "gewone_winst:a"]  # nothing applied over it
    expect(page.locator("#table .score-a")).to_have_text("2")  # the sheet of now
    expect(page.locator("#table .score-b")).to_have_text("2")

    refused.first.locator(".outbox-reenter").click()  # the B round still stands
    expect(page.locator(".outbox-round.outbox-refused")).to_have_count(2)
    expect(waiting(page)).to_have_count(0)
    page.locator(".outbox-round.outbox-refused .outbox-discard").first.click()
    page.locator(".outbox-round.outbox-refused .outbox-discard").first.click()
    expect(page.locator("#table-outbox")).to_be_hidden()
    assert stored(game) == ["gewone_winst:b", "gewone_winst:a", "gewone_winst:b"]


def test_two_tabs_replaying_one_queue_store_each_round_once(browser, live_server):
    game = named_game()
    link = game_links_ensure(game_ids=[game.pk])[game.pk]["a"]
    context = browser.new_context(viewport=PHONE)
    first, second = phone(browser, context=context), phone(browser, context=context)
    first.goto(url_of(live_server, link))
    second.goto(url_of(live_server, link))
    context.set_offline(True)
    for step in ("a", "b", "a", "kap:b", "a"):
        tap(first, step)
    expect(waiting(first)).to_have_count(5)
    context.set_offline(False)  # both tabs send the one queue (IndexedDB) at once
    expect(waiting(first)).to_have_count(0)
    expect(waiting(second)).to_have_count(0)
    none_refused(first)
    assert stored(game) == [
        "gewone_winst:a", "gewone_winst:b", "gewone_winst:a", "kap:b", "gewone_winst:a",
    ]  # fmt: skip


def test_the_first_rounds_queued_can_be_taken_back_too(browser, live_server):
    """No round of this phone stored yet (offline from the start): the sheet has no undo
    button, the queue has one."""
    game = named_game()
    link = game_links_ensure(game_ids=[game.pk])[game.pk]["a"]
    page = phone(browser)
    page.goto(url_of(live_server, link))
    page.context.set_offline(True)
    tap(page, "a")
    tap(page, "b")
    expect(page.locator("#table-undo")).to_have_count(0)
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator(".outbox-undo").click()
    expect(waiting(page)).to_have_count(1)
    page.context.set_offline(False)
    expect(waiting(page)).to_have_count(0)
    assert stored(game) == ["gewone_winst:a"]


def test_undo_takes_back_a_round_still_queued(browser, live_server):
    game = named_game()
    link = game_links_ensure(game_ids=[game.pk])[game.pk]["a"]
    page = phone(browser)
    page.goto(url_of(live_server, link))
    tap(page, "a")
    expect(page.locator("#table-undo")).to_be_visible()
    page.context.set_offline(True)
    tap(page, "b")
    tap(page, "b")
    expect(waiting(page)).to_have_count(2)
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#table-undo").click()
    expect(waiting(page)).to_have_count(1)
    page.context.set_offline(False)
    expect(waiting(page)).to_have_count(0)
    assert stored(game) == ["gewone_winst:a", "gewone_winst:b"]


def test_an_upgrade_replaces_the_old_service_worker_and_its_caches(browser, live_server):
    game = named_game()
    link = game_links_ensure(game_ids=[game.pk])[game.pk]["a"]
    page = phone(browser)
    release = """() => new Promise((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = (event) => resolve(event.data);
        navigator.serviceWorker.controller.postMessage({type: 'release'}, [channel.port2]);
    })"""
    with override_settings(PWA_RELEASE="old-release"):
        page.goto(url_of(live_server, link))
        kept_for_offline(page)
        assert page.evaluate(release) == "old-release"
        names = page.evaluate("() => caches.keys()")
        assert {"troefclub-precache-old-release", "troefclub-pages-old-release"} <= set(names)
    with override_settings(PWA_RELEASE="new-release"):
        page.reload()  # the browser checks /sw.js: a new worker takes over at once
        until(
            page,
            """async () => {
                const names = await caches.keys();
                return names.includes('troefclub-precache-new-release')
                    && !names.some((name) => name.endsWith('old-release'));
            }""",
        )
        page.reload()
        assert page.evaluate(release) == "new-release"
        assert page.locator("#table-texts").get_attribute("data-release") == "new-release"
        kept_for_offline(page)
        page.context.set_offline(True)
        round_record(game_id=game.pk, expected_number=1, result="kap", side="a")  # unseen
        response = page.reload()  # offline: the new release's copy, not the server
        assert response is not None and response.from_service_worker
        assert page.locator("#table-texts").get_attribute("data-release") == "new-release"
        expect(page.locator("#round-1")).to_have_count(0)


def test_the_koppel_that_entered_cannot_confirm_from_a_fresh_browser(browser, live_server):
    game = named_game(confirmation_required=True)
    links = game_links_ensure(game_ids=[game.pk])[game.pk]
    scorer = phone(browser)
    scorer.goto(url_of(live_server, links["a"]))
    for _ in range(4):
        tap(scorer, "kap:a")
    expect(scorer.locator("#table-waiting")).to_be_visible()
    fresh = phone(browser)  # another browser, no cookies, the same (koppel A's) link
    fresh.goto(url_of(live_server, links["a"]))
    expect(fresh.locator("#table-waiting")).to_be_visible()
    expect(fresh.locator("#table-confirm")).to_have_count(0)
    opponents = phone(browser)
    opponents.goto(url_of(live_server, links["b"]))
    opponents.locator("#table-confirm").click()
    expect(opponents.locator("#table-confirmed")).to_be_visible()
    game.refresh_from_db()
    assert game.confirmed_side == "b"


# ---------------------------------------------------------------- the rules copy


RULE_SETS = [
    RuleSet(),
    RuleSet(target_score=None, fixed_rounds=6),
    RuleSet(kap_partner_allowed=False, redeal_allowed=False, early_kap_penalty=3),
    RuleSet(stinkende_kap_bonus=2, stinkende_baunie_bonus=5),
    RuleSet(callers_required=True, target_score=30),
]


def engine_cases(count: int) -> list[dict[str, Any]]:
    """Random (rules, state, round) and what the engine says: points and the next state,
    or the violation's code."""
    rng = random.Random(18)
    cases = []
    for _ in range(count):
        rules = rng.choice(RULE_SETS)
        state = GameState(
            rules=rules,
            score=Points(rng.randint(0, 32), rng.randint(0, 32)),
            rounds=rng.randint(0, 10),
            played=rng.randint(0, 8),
            caller=rng.choice([None, 1, 2, 3, 4]),
            closed=rng.random() < 0.05,
        )
        rnd = RoundInput(
            result=rng.choice(list(Result)),
            side=rng.choice([Side.A, Side.B]),
            caller=rng.choice([None, None, 1, 2, 3, 4]),
        )
        case: dict[str, Any] = {
            "rules": engine_rules(rules),
            "state": {
                "score": [state.score.a, state.score.b],
                "rounds": state.rounds,
                "played": state.played,
                "caller": state.caller,
                "closed": state.closed,
            },
            "round": {"result": rnd.result.value, "side": rnd.side.value, "caller": rnd.caller},
        }
        try:
            step = state.apply(rnd)
        except RuleViolation as exc:
            case["expected"] = {"violation": exc.code}
        else:
            after = step.state
            case["expected"] = {
                "points": [step.points.a, step.points.b],
                "state": {
                    "score": [after.score.a, after.score.b],
                    "rounds": after.rounds,
                    "played": after.played,
                    "caller": after.caller,
                    "closed": after.closed,
                },
            }
        cases.append(case)
    return cases


def test_the_phones_rules_copy_scores_every_case_as_the_engine(browser, live_server):
    cases = engine_cases(600)
    assert {"violation"} & {key for case in cases for key in case["expected"]}  # both kinds
    game = named_game()
    link = game_links_ensure(game_ids=[game.pk])[game.pk]["a"]
    page = phone(browser)
    page.goto(url_of(live_server, link))
    answers = page.evaluate(
        """(cases) => cases.map((c) => {
            try {
                const step = TableRules.apply(c.rules, c.state, c.round);
                return {points: step.points, state: step.state};
            } catch (error) {
                return {violation: error.code || String(error)};
            }
        })""",
        cases,
    )
    wrong = [
        (case, got) for case, got in zip(cases, answers, strict=True) if got != case["expected"]
    ]
    assert wrong == [], wrong[:3]


def test_the_table_page_is_an_installable_app(browser, live_server):
    """Chromium's own check: the manifest (name from the competition, icons) and the
    service worker make the table page installable."""
    game = named_game()
    link = game_links_ensure(game_ids=[game.pk])[game.pk]["a"]
    page = phone(browser)
    page.goto(url_of(live_server, link))
    kept_for_offline(page)
    manifest = page.evaluate(
        "() => fetch(document.querySelector('link[rel=manifest]').href).then((r) => r.json())"
    )
    assert manifest["name"].startswith("Club evening")
    assert manifest["start_url"] == reverse("table_sheet", kwargs={"token": link.token})
    cdp = page.context.new_cdp_session(page)
    errors = [
        e["errorId"] for e in cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    ]
    # Playwright's contexts are incognito-like: Chromium never installs from those.
    assert set(errors) <= {"in-incognito"}, errors
    # The check can fail: a page without a manifest is not installable.
    page.goto(live_server.url + reverse("competition_list"))
    errors = [
        e["errorId"] for e in cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    ]
    assert set(errors) - {"in-incognito"}, errors


def test_the_directors_score_sheet_is_kept_for_reading_offline(browser, live_server):
    from tests.factories import UserFactory

    game = named_game()
    competition = game.match.matchday.competition
    director = UserFactory.create()
    competition.directors.add(director)
    page = phone(browser)
    page.goto(live_server.url + reverse("login"))
    page.locator("#id_username").fill(director.username)
    page.locator("#id_password").fill("pass-word-123")
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"{live_server.url}/**")
    sheet = reverse("game_sheet", kwargs={"slug": competition.slug, "game_id": game.pk})
    page.goto(live_server.url + sheet)
    kept_for_offline(page)
    page.context.set_offline(True)
    round_record(game_id=game.pk, expected_number=1, result="kap", side="a")  # unseen
    response = page.reload()
    assert response is not None and response.from_service_worker
    expect(page.locator("#sheet")).to_contain_text("Kampoe")
    expect(page.locator("#round-1")).to_have_count(0)  # the kept copy, for reading


def test_background_sync_sends_the_queue_of_a_closed_page(browser, live_server):
    """The phone's page was closed with rounds still queued: when the connection is back
    the service worker sends them (Background Sync), in order, once."""
    game = named_game()
    link = game_links_ensure(game_ids=[game.pk])[game.pk]["a"]
    context = browser.new_context(viewport=PHONE)
    page = phone(browser, context=context)
    page.goto(url_of(live_server, link))
    kept_for_offline(page)
    other = phone(browser, context=context)  # the worker stays: a page of the site is open
    other.goto(live_server.url + reverse("competition_list"))
    context.set_offline(True)
    for step in ("a", "kap:b", "a"):
        tap(page, step)
    expect(waiting(page)).to_have_count(3)
    page.wait_for_timeout(2500)  # a send failed: the page asked for Background Sync
    page.close()
    context.set_offline(False)
    deadline = time.monotonic() + WAIT / 1000
    while time.monotonic() < deadline:
        other.wait_for_timeout(500)  # the database is read between the worker's sends
        if Round.objects.filter(game=game).count() == 3:
            break
    assert stored(game) == ["gewone_winst:a", "kap:b", "gewone_winst:a"]


def test_a_double_tap_is_one_round_online_and_offline(browser, live_server, settings):
    settings.TABLE_TAP_GUARD_MS = TAP_GUARD_MS
    game = named_game()
    link = game_links_ensure(game_ids=[game.pk])[game.pk]["a"]
    page = phone(browser)
    page.goto(url_of(live_server, link))
    page.locator("#quick-b").dblclick()
    expect(page.locator("#table-undo")).to_be_visible()
    page.wait_for_timeout(TAP_GUARD_MS + 50)
    page.context.set_offline(True)
    page.locator("#quick-a").dblclick()
    expect(waiting(page)).to_have_count(1)
    page.context.set_offline(False)
    expect(waiting(page)).to_have_count(0)
    assert stored(game) == ["gewone_winst:b", "gewone_winst:a"]


def test_while_rounds_wait_the_undo_button_names_the_waiting_round(browser, live_server):
    game = named_game()
    link = game_links_ensure(game_ids=[game.pk])[game.pk]["a"]
    page = phone(browser)
    page.goto(url_of(live_server, link))
    tap(page, "a")
    undo = page.locator("#table-undo")
    expect(undo).to_contain_text("1")  # "Undo round 1": the stored round
    stored_label = undo.inner_text()
    page.context.set_offline(True)
    tap(page, "b")
    expect(waiting(page)).to_have_count(1)
    # Not "Undo round 1": the button takes back the waiting round now.
    expect(undo).not_to_have_text(stored_label)
    expect(undo).to_have_text(page.locator("#table-texts").get_attribute("data-undo") or "")
    page.context.set_offline(False)
    expect(waiting(page)).to_have_count(0)
    expect(undo).to_contain_text("2")


def test_a_revoked_link_lists_the_rounds_this_phone_never_stored(browser, live_server):
    game = named_game()
    link = game_links_ensure(game_ids=[game.pk])[game.pk]["a"]
    page = phone(browser)
    page.goto(url_of(live_server, link))
    kept_for_offline(page)
    page.context.set_offline(True)
    tap(page, "b")
    tap(page, "b")
    expect(waiting(page)).to_have_count(2)
    game_link_revoke(game_id=game.pk, link_id=link.pk)
    page.context.set_offline(False)
    expect(page.locator(".outbox-round.outbox-refused")).to_have_count(2)
    page.reload()
    unsent = page.locator("#link-invalid-unsent")
    expect(unsent).to_be_visible()
    expect(unsent.locator("li")).to_have_count(2)
    assert stored(game) == []
    page.screenshot(path=str(ARTIFACTS / "table-revoked-unsent-phone.png"), full_page=True)
