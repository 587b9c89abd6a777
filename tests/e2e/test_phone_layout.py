"""The director's pages on a 390×844 phone, measured in a real browser (Debian's Chromium
via Playwright): touch targets big enough for a thumb, and no page wider than the screen.

Screenshots go to `tests/e2e/artifacts/` (gitignored). When Chromium cannot start, the
tests fail in CI (`CI=true`) and are skipped elsewhere, with the reason.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from scoring.models import Game
from scoring.services.rounds import round_record
from tests.e2e.conftest import ARTIFACTS, PASSWORD, PHONE
from tests.factories import GameFactory, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TOUCH_TARGET = 44  # px, WCAG 2.5.5
TARGETS_APART = 8  # px at least between two neighbouring buttons


def game_with_rounds() -> tuple[Game, User]:
    """A game with two rounds recorded without a user (as an import does), and its director."""
    game = GameFactory.create()
    for number, (result, side) in enumerate((("kap", "a"), ("gewone_winst", "b")), start=1):
        round_record(game_id=game.pk, expected_number=number, result=result, side=side)
    director = UserFactory.create()
    game.match.matchday.competition.directors.add(director)
    return game, director


def phone_page(browser: Any, live_server: Any, director: User, url: str) -> Any:
    """A 390 px wide page, logged in as `director` through the login page, showing `url`."""
    page = browser.new_context(viewport=PHONE).new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}{reverse('login')}?next={url}")
    page.locator("#id_username").fill(director.username)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"{live_server.url}{url}")
    return page


def page_width(page: Any) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


def test_a_rounds_edit_and_delete_buttons_are_thumb_sized_and_apart(browser, live_server):
    ARTIFACTS.mkdir(exist_ok=True)
    game, director = game_with_rounds()
    slug = game.match.matchday.competition.slug
    page = phone_page(
        browser,
        live_server,
        director,
        reverse("game_sheet", kwargs={"slug": slug, "game_id": game.pk}),
    )
    actions = page.locator("#round-2 .round-actions")
    edit = actions.get_by_role("link", name="Edit round 2")
    delete = actions.get_by_role("button", name="Delete round 2")
    expect(edit).to_be_visible()
    actions.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "sheet-round-buttons-phone.png"), full_page=True)

    edit_box, delete_box = edit.bounding_box(), delete.bounding_box()
    for name, box in (("edit", edit_box), ("delete", delete_box)):
        assert box["width"] >= TOUCH_TARGET and box["height"] >= TOUCH_TARGET, (name, box)
    assert delete_box["x"] - (edit_box["x"] + edit_box["width"]) >= TARGETS_APART
    assert page_width(page) <= PHONE["width"]
    page.context.close()


def test_the_game_history_fits_a_phone(browser, live_server):
    ARTIFACTS.mkdir(exist_ok=True)
    game, director = game_with_rounds()
    slug = game.match.matchday.competition.slug
    page = phone_page(
        browser,
        live_server,
        director,
        reverse("game_history", kwargs={"slug": slug, "game_id": game.pk}),
    )
    expect(page.locator(".history-who").first).to_have_text("no user (an import or a command)")
    page.screenshot(path=str(ARTIFACTS / "game-history-phone.png"), full_page=True)

    assert page_width(page) <= PHONE["width"]
    page.context.close()


# ---------------------------------------------------------------- the director's pages at 390

NAMES = ("Shanti Lachmon", "Roy Tjon-A-Fat", "Ingrid Soekhoe", "Marcel Wongsodikromo")


def evening_with_long_names() -> tuple[Game, User]:
    """A matchday of four tables with long Surinamese names: one game over, one playing,
    two not started; and its director."""
    from tests.factories import MatchFactory, PlayerFactory, TeamEntryFactory, TeamFactory

    first = GameFactory.create(
        competition__close_by_director_allowed=True, competition__confirmation_required=True
    )
    matchday = first.match.matchday
    matchday.date = timezone.localdate()
    matchday.save(update_fields=["date"])
    games = [first]
    for table in (2, 3, 4):
        entries = [
            TeamEntryFactory.create(
                competition=matchday.competition,
                team=TeamFactory.create(
                    player_1=PlayerFactory.create(name=f"{NAMES[(table + n) % 4]} {table}{n}"),
                    player_2=PlayerFactory.create(name=f"{NAMES[(table + n + 1) % 4]} {n}"),
                ),
            )
            for n in range(2)
        ]
        match = MatchFactory.create(matchday=matchday, home=entries[0], away=entries[1])
        games.append(GameFactory.create(match=match, table=table))
    for _ in range(4):
        round_record(
            game_id=first.pk,
            expected_number=first.rounds.count() + 1,
            result="kap",
            side="a",
        )
    round_record(game_id=games[1].pk, expected_number=1, result="gewone_winst", side="b")
    director = UserFactory.create()
    matchday.competition.directors.add(director)
    return first, director


@pytest.mark.parametrize("locale", ["en-GB", "nl-NL"])
def test_the_director_pages_fit_a_phone(browser, live_server, locale: str):
    """No director page is wider than a 390 px phone, in English or Dutch (longer), and the
    matchday's table of matches fits without scrolling sideways (its actions in view)."""
    ARTIFACTS.mkdir(exist_ok=True)
    game, director = evening_with_long_names()
    matchday = game.match.matchday
    slug = matchday.competition.slug
    day = {"slug": slug, "number": matchday.number}
    pages = {
        "matchday-manage": reverse("matchday_manage", kwargs=day),
        "competition-manage": reverse("competition_manage", kwargs={"slug": slug}),
        "match-manage": reverse("match_manage", kwargs={"slug": slug, "match_id": game.match_id}),
        "board": reverse("matchday_board", kwargs=day),
        "queue": reverse("director_queue", kwargs={"slug": slug}),
        "director-home": reverse("director_home"),
    }
    context = browser.new_context(viewport=PHONE, locale=locale)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}{reverse('login')}")
    page.locator("#id_username").fill(director.username)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state()
    wide: dict[str, int] = {}
    for name, url in pages.items():
        page.goto(f"{live_server.url}{url}")
        page.screenshot(path=str(ARTIFACTS / f"{name}-phone-{locale}.png"), full_page=True)
        if page_width(page) > PHONE["width"]:
            wide[name] = page_width(page)
    inner = page_width_of(page, live_server, pages["matchday-manage"], ".manage-matches")
    context.close()
    assert wide == {}, wide
    assert inner <= PHONE["width"], f"the matches table is {inner} px wide"


def page_width_of(page: Any, live_server: Any, url: str, selector: str) -> int:
    """The scroll width of `selector` on `url`: wider than the screen, part of it is
    reached only by scrolling the table sideways."""
    page.goto(f"{live_server.url}{url}")
    return int(page.locator(selector).evaluate("element => element.scrollWidth"))
