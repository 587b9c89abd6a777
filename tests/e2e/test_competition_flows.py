"""A director runs whole competitions in a real browser (Debian's Chromium via Playwright):
a 12-koppel Swiss tournament over 5 matchdays and a 6-club double round-robin league,
from set-up to the final table.

Runs against pytest-django's `live_server`. Only the entrants are made with factories;
pairing, the schedule, lineups and every result go through the pages. Standings
screenshots (390×844) go to `tests/e2e/artifacts/` (gitignored). When Chromium cannot
start, the tests fail in CI (`CI=true`) and are skipped elsewhere, with the reason.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoring.models import Game, Standing
from tests.e2e.conftest import ARTIFACTS, DESKTOP, PASSWORD, PHONE, refresh_standings_if_not_eager
from tests.factories import (
    ClubFactory,
    CompetitionFactory,
    PlayerFactory,
    TeamEntryFactory,
    TeamFactory,
    league_staff,
)
from tournaments.models import Competition, Entry, Match, Team

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


KOPPELS = [
    "Kampoe",
    "Toppers",
    "Formula",
    "Ekta",
    "Pintoboys",
    "Sonny",
    "Wanica",
    "Nickerie",
    "Para",
    "Marowijne",
    "Commewijne",
    "Saramacca",
]


def logged_in_page(browser: Any, live_server: Any, next_path: str) -> Any:
    """A page of a league-staff director, logged in through the login form, at `next_path`."""
    director = league_staff()
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(f"{live_server.url}{reverse('login')}?next={next_path}")
    page.locator("#id_username").fill(director.username)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"**{next_path}")
    return page


def enter_game_totals(page: Any, live_server: Any, game: Game, a: int, b: int) -> None:
    """Through the score sheet's "Enter totals instead" form."""
    slug = game.match.matchday.competition.slug
    page.goto(live_server.url + reverse("game_sheet", kwargs={"slug": slug, "game_id": game.pk}))
    page.locator("#id_total_a").fill(str(a))
    page.locator("#id_total_b").fill(str(b))
    page.locator("#totals-form button[type=submit]").click()
    expect(page.locator("#sheet .alert-success")).to_contain_text(f"Totals entered: {a}–{b}.")


def test_a_twelve_koppel_swiss_over_five_matchdays(browser, live_server):
    ARTIFACTS.mkdir(exist_ok=True)
    competition = CompetitionFactory.create(
        slug="open-swiss",
        name="Open Swiss",
        schedule_format=Competition.Format.SWISS,
        tiebreaks=["points", "saldo", "buchholz", "head_to_head"],
    )
    for name in KOPPELS:
        TeamEntryFactory.create(competition=competition, team__name=name)
    manage = reverse("competition_manage", kwargs={"slug": competition.slug})
    page = logged_in_page(browser, live_server, manage)

    for number in range(1, 6):
        expect(page.locator("#pair-title")).to_have_text(f"Pair matchday {number}")
        page.locator("#pair-button").click()
        expect(page.locator("#schedule .alert-success")).to_contain_text(
            f"Matchday {number} paired."
        )
        if number == 2:
            # Pairing matchday 3 now is refused: matchday 2 has no results yet.
            page.locator("#pair-button").click()
            expect(page.locator("#pair-error")).to_contain_text("Matchday 2 is not finished")
            expect(page.locator("#id_pair-override_reason")).to_be_visible()
            assert competition.matchdays.count() == 2
        # The matchday page explains each pairing.
        page.goto(
            live_server.url
            + reverse("matchday_manage", kwargs={"slug": competition.slug, "number": number})
        )
        expect(page.locator("tr.match-row")).to_have_count(6)
        expect(page.locator("td.pairing-reason").first).not_to_have_text("—")
        games = Game.objects.filter(
            match__matchday__competition=competition, match__matchday__number=number
        ).select_related("match__matchday__competition")
        for game in games.order_by("table"):
            # Koppel A wins; a margin by table keeps the saldo apart.
            enter_game_totals(page, live_server, game, 20, 2 * (game.table - 1))
        page.goto(live_server.url + manage)

    # The final table: 12 rows, a winner, and nobody met anybody twice.
    refresh_standings_if_not_eager(competition.pk)
    assert not Game.objects.filter(
        match__matchday__competition=competition, status=Game.Status.OPEN
    ).exists()
    pairs = [
        frozenset(pair)
        for pair in Match.objects.filter(matchday__competition=competition).values_list(
            "home_id", "away_id"
        )
    ]
    assert len(pairs) == 30
    assert len(set(pairs)) == 30, "a rematch happened"
    page.set_viewport_size(PHONE)
    page.goto(live_server.url + reverse("competition_detail", kwargs={"slug": competition.slug}))
    rows = page.locator("table.standings tbody tr")
    expect(rows).to_have_count(12)
    winner = Standing.objects.select_related("entry__team").get(competition=competition, rank=1)
    assert winner.points == max(
        Standing.objects.filter(competition=competition).values_list("points", flat=True)
    )
    assert Standing.objects.filter(competition=competition, played=5).count() == 12
    expect(rows.nth(0)).to_contain_text(str(winner.entry))
    expect(page.locator("table.standings thead")).to_contain_text("Buchholz")
    expect(page.locator(".open-count")).to_have_text("no games open")
    page.screenshot(path=str(ARTIFACTS / "swiss-standings-phone.png"), full_page=True)
    page.context.close()


def club_with_koppels(name: str, koppels: int = 2) -> Any:
    club = ClubFactory.create(name=name)
    for index in range(koppels):
        TeamFactory.create(
            name=f"{name} {index + 1}",
            player_1=PlayerFactory.create(club=club),
            player_2=PlayerFactory.create(club=club),
        )
    return club


def test_a_six_club_double_round_robin_league(browser, live_server):
    ARTIFACTS.mkdir(exist_ok=True)
    competition = CompetitionFactory.create(
        slug="club-league",
        name="Club league",
        kind=Competition.Kind.CLUBS,
        schedule_format=Competition.Format.DOUBLE_ROUND_ROBIN,
        koppels_per_side=2,
        min_koppels=2,
        sittings=2,
        tiebreaks=["points", "saldo", "points_for"],
    )
    for name in KOPPELS[:6]:
        Entry.objects.create(competition=competition, club=club_with_koppels(name))
    manage = reverse("competition_manage", kwargs={"slug": competition.slug})
    page = logged_in_page(browser, live_server, manage)

    # The whole season in one action.
    page.locator("#id_rr-start").fill("2026-09-05")
    page.locator("#id_rr-days_between").fill("14")
    page.locator("#generate-form button[type=submit]").click()
    expect(page.locator("#schedule .alert-success")).to_contain_text(
        "Round robin generated: 10 matchdays."
    )
    expect(page.locator(".matchday-card")).to_have_count(10)
    matches = list(
        Match.objects.filter(matchday__competition=competition)
        .select_related("home__club", "away__club", "matchday__competition")
        .order_by("matchday__number", "table")
    )
    assert len(matches) == 30

    # One match played koppel against koppel: the lineup, then every game's totals.
    first = matches[0]
    page.goto(
        live_server.url
        + reverse("match_manage", kwargs={"slug": competition.slug, "match_id": first.pk})
    )
    for side, entry in (("home", first.home), ("away", first.away)):
        koppels = Team.objects.filter(player_1__club=entry.club).order_by("key")
        for place, koppel in enumerate(koppels, start=1):
            page.locator(f"#id_lineup-{side}_{place}").select_option(str(koppel.pk))
    page.locator("#lineup-form button[type=submit]").click()
    expect(page.locator("#manage .alert-success")).to_contain_text(
        "Lineup saved: 4 games over 2 sittings."
    )
    expect(page.locator("section.sitting")).to_have_count(2)
    for game in first.games.select_related("match__matchday__competition").order_by(
        "sitting", "table"
    ):
        enter_game_totals(page, live_server, game, 20, 6)
    page.goto(
        live_server.url
        + reverse("match_detail", kwargs={"slug": competition.slug, "match_id": first.pk})
    )
    expect(page.locator(".match-title")).to_contain_text("80–24")
    # The public page ranks the koppels of finished games (the director's live box is not
    # there): each home koppel won both its games 20–6.
    expect(page.locator(".top-koppels")).to_have_count(0)
    expect(page.locator(".koppel-ranking .top-koppel-line")).to_contain_text(") 40")

    # The others known as reported totals, entered on each match page.
    for index, match in enumerate(matches[1:], start=1):
        page.goto(
            live_server.url
            + reverse("match_detail", kwargs={"slug": competition.slug, "match_id": match.pk})
        )
        home, away = (60 + index, 40) if index % 3 else (44, 50 + index)
        page.locator("#id_total_home").fill(str(home))
        page.locator("#id_total_away").fill(str(away))
        page.locator("#match form button[type=submit]").click()
        expect(page.locator("#match .alert-success")).to_contain_text(
            f"Match totals entered: {home}–{away}."
        )

    refresh_standings_if_not_eager(competition.pk)
    page.set_viewport_size(PHONE)
    page.goto(live_server.url + reverse("competition_detail", kwargs={"slug": competition.slug}))
    rows = page.locator("table.standings tbody tr")
    expect(rows).to_have_count(6)
    standings = list(Standing.objects.filter(competition=competition).order_by("rank"))
    assert all(row.played == 10 for row in standings)
    assert sum(row.won for row in standings) == 30  # no draws among these results
    winner = standings[0]
    expect(rows.nth(0)).to_contain_text(str(winner.entry))
    expect(page.locator(".open-count")).to_have_text("no games open")
    page.screenshot(path=str(ARTIFACTS / "club-league-standings-phone.png"), full_page=True)
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=str(ARTIFACTS / "club-league-standings-desktop.png"), full_page=True)
    page.context.close()
