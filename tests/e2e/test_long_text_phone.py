"""Long text on a 390×844 phone (issue 18): a 120-character club name without a space, names
to match, a 500-character dispute comment, the game history. No page is wider than the
screen, in English or Dutch; long text wraps, and a table too wide for the screen scrolls
in its own box (`.table-responsive`), whose edge fades where more is hidden (the scroll
hint, static/js/troefclub.js), so its last column (a round's ✕, the ratings' σ) is seen to
be there.

Screenshots go to `tests/e2e/artifacts/` (gitignored).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from rankings.services import ratings_rebuild
from scoring.models import Game, GameDispute
from scoring.services.rounds import round_record
from scoring.services.standings import standings_rebuild
from tests.e2e.conftest import ARTIFACTS, PASSWORD, PHONE
from tests.factories import (
    ClubFactory,
    CompetitionFactory,
    GameFactory,
    MatchdayFactory,
    MatchFactory,
    PlayerFactory,
    TeamEntryFactory,
    TeamFactory,
    UserFactory,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

CLUB = ("Kolibrie" * 15)[:120]  # 120 characters, not one space
COMMENT = ("Ronde7wasgeenkapmaareengewonewinstvoorkoppelB" * 12)[:500]


def long_names() -> dict[str, Any]:
    """A pairs evening of the club with the 120-character name: four koppels of long-named
    players (one koppel named as long), two finished games, a dispute of 500 characters,
    the standings and ratings computed, and a director."""
    club = ClubFactory.create(key="kolibrie", name=CLUB)
    competition = CompetitionFactory.create(
        slug="lange-namen",
        name="Avondcompetitie" + "Wongsodikromo" * 5,
        season="2026-2027",
    )
    matchday = MatchdayFactory.create(competition=competition, number=1)
    entries = []
    for number in range(4):
        team = TeamFactory.create(
            key=f"lang-{number}",
            name=("Tjon-A-Fat" * 12)[:120] if number == 0 else "",
            player_1=PlayerFactory.create(
                key=f"speler-{number}-1", name=f"Marcel{'Wongsodikromo' * 4}{number}", club=club
            ),
            player_2=PlayerFactory.create(
                key=f"speler-{number}-2", name=f"Ingrid{'Soekhoe' * 6}{number}", club=club
            ),
        )
        entries.append(TeamEntryFactory.create(competition=competition, team=team))
    games = []
    for table, (home, away) in enumerate(((0, 1), (2, 3)), start=1):
        match = MatchFactory.create(matchday=matchday, home=entries[home], away=entries[away])
        game = GameFactory.create(match=match, table=table)
        while Game.objects.get(pk=game.pk).status == Game.Status.OPEN:
            round_record(
                game_id=game.pk,
                expected_number=game.rounds.count() + 1,
                result="kap",
                side="a" if table == 1 else "b",
            )
        games.append(Game.objects.get(pk=game.pk))
    GameDispute.objects.create(game=games[0], side="b", comment=COMMENT)
    standings_rebuild(competition_id=competition.pk)
    ratings_rebuild()
    director = UserFactory.create(username="wedstrijdleider")
    competition.directors.add(director)
    return {"competition": competition, "games": games, "club": club, "director": director}


def pages(scene: dict[str, Any]) -> dict[str, str]:
    competition, game = scene["competition"], scene["games"][0]
    slug = competition.slug
    on_game = {"slug": slug, "game_id": game.pk}
    koppel = game.team_a
    return {
        "competitions": reverse("competition_list"),
        "standings": reverse("competition_detail", kwargs={"slug": slug}),
        "matchday": reverse("matchday_detail", kwargs={"slug": slug, "number": 1}),
        "match": reverse("match_detail", kwargs={"slug": slug, "match_id": game.match_id}),
        "game": reverse("game_detail", kwargs=on_game),
        "sheet": reverse("game_sheet", kwargs=on_game),
        "game-history": reverse("game_history", kwargs=on_game),
        "queue": reverse("director_queue", kwargs={"slug": slug}),
        "director-home": reverse("director_home"),
        "manage": reverse("competition_manage", kwargs={"slug": slug}),
        "matchday-manage": reverse("matchday_manage", kwargs={"slug": slug, "number": 1}),
        "board": reverse("matchday_board", kwargs={"slug": slug, "number": 1}),
        "print": reverse("matchday_print", kwargs={"slug": slug, "number": 1}),
        "rankings": reverse("rankings_latest"),
        "ratings": reverse("rating_list"),
        "player": reverse("player_detail", kwargs={"key": koppel.player_1.key}),
        "koppel": reverse("koppel_detail", kwargs={"key": koppel.key}),
        "head-to-head": reverse(
            "koppel_head_to_head", kwargs={"key": koppel.key, "other": game.team_b.key}
        ),
        "club": reverse("club_detail", kwargs={"key": scene["club"].key}),
        "search": reverse("search") + "?q=kolibrie",
    }


def logged_in(browser: Any, live_server: Any, director: User, locale: str) -> Any:
    context = browser.new_context(viewport=PHONE, locale=locale)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}{reverse('login')}")
    page.locator("#id_username").fill(director.username)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state()
    return page


# Every table that does not fit its box: its box must be a `.table-responsive` that shows
# the scroll hint (its hidden edge faded out: a gradient `mask-image` on the box).
HIDDEN_TABLES = """() => [...document.querySelectorAll('table')]
  .filter(table => table.offsetParent !== null)
  .map(table => {
    const box = table.closest('.table-responsive');
    const style = box ? getComputedStyle(box) : null;
    const hint = style ? style.maskImage || style.webkitMaskImage || 'none' : 'none';
    return {
      table: table.className || table.id || 'table',
      wider: table.scrollWidth > (box || table.parentElement).clientWidth + 1,
      boxed: box !== null,
      hinted: hint.includes('gradient'),
    };
  })
  .filter(found => found.wider && !(found.boxed && found.hinted))"""


@pytest.mark.parametrize("locale", ["nl-NL", "en-GB"])
def test_long_text_and_wide_tables_fit_a_phone(browser, live_server, settings, locale):
    ARTIFACTS.mkdir(exist_ok=True)
    settings.RATING_MIN_GAMES = 1  # the two games' players are on the rating list
    scene = long_names()
    page = logged_in(browser, live_server, scene["director"], locale)
    wide: dict[str, int] = {}
    unhinted: dict[str, Any] = {}
    for name, url in pages(scene).items():
        response = page.goto(f"{live_server.url}{url}")
        assert response is not None and response.ok, (name, url)
        page.screenshot(path=str(ARTIFACTS / f"long-{name}-{locale}.png"), full_page=True)
        if name == "queue":
            assert COMMENT[:60] in page.content()  # the 500 characters are on the page
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > page.evaluate("window.innerWidth"):
            wide[name] = width
        if hidden := page.evaluate(HIDDEN_TABLES):
            unhinted[name] = hidden
    hint = scroll_hint_both_ways(page, f"{live_server.url}{pages(scene)['ratings']}")
    page.context.close()
    assert wide == {}, f"wider than the {PHONE['width']} px screen: {wide}"
    assert unhinted == {}, f"tables wider than their box without the scroll hint: {unhinted}"
    assert hint == ["end", "start"], "the hint follows the scrolling: more to the right, then left"


def scroll_hint_both_ways(page: Any, url: str) -> list[str | None]:
    """The rating list's box on a phone (its σ past the right edge): the sides it hints
    at as shown, then once scrolled to its end."""
    page.goto(url)
    box = page.locator(".table-responsive").first
    shown = box.get_attribute("data-more")
    box.evaluate("box => box.scrollTo({left: box.scrollWidth})")
    page.wait_for_function(
        "() => document.querySelector('.table-responsive').dataset.more !== 'end'"
    )
    return [shown, box.get_attribute("data-more")]


def test_the_hall_display_shows_the_whole_competition_name_on_a_phone(browser, live_server):
    """The hall display held on a phone: the name wraps on a line of its own instead of
    being cut to its first letter beside the heading and the clock."""
    ARTIFACTS.mkdir(exist_ok=True)
    scene = long_names()
    context = browser.new_context(viewport=PHONE, locale="nl-NL")
    page = context.new_page()
    url = reverse("hall_display", kwargs={"slug": scene["competition"].slug})
    response = page.goto(f"{live_server.url}{url}")
    assert response is not None and response.ok
    page.screenshot(path=str(ARTIFACTS / "long-hall-display.png"))
    title = page.locator(".display-title")
    cut = title.evaluate("title => title.scrollWidth > title.clientWidth + 1")
    width = page.evaluate("document.documentElement.scrollWidth")
    context.close()
    assert not cut, "the competition's name is cut off"
    assert width <= PHONE["width"]
