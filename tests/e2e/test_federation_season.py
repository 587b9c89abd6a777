"""One federation season in Dutch, walked in a real browser (issue 22, "Done when"): a
withdrawal after matchday 3 of a 6-koppel round robin, a match voided and replayed, two
players merged in the admin, play-offs seeded from a three-way tie, promotion to next
season, and an evening with two absent koppels and one late one.

The scenes are made with the builders and services (results as stored totals, the way an
import stores them); every issue-22 action goes through the pages, as a person would:
forms filled, buttons pressed. Screenshots (public pages on a 390×844 phone) go to
`tests/e2e/artifacts/` (gitignored). When Chromium cannot start, the test fails in CI
(`CI=true`) and is skipped elsewhere, with the reason.
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoring.models import Game
from scoring.services.games import game_totals_set
from scoring.services.schedule import schedule_round_robin_create
from scoring.services.standings import standings_rebuild
from tests.e2e.conftest import ARTIFACTS, DESKTOP, PASSWORD, PHONE, refresh_standings_if_not_eager
from tests.factories import (
    CompetitionFactory,
    PlayerFactory,
    TeamEntryFactory,
    TeamFactory,
    UserFactory,
)
from tests.playoff_scenes import played, three_way_tie
from tournaments.models import Bye, Competition, Division, Entry, Match, Matchday, Player

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LOCALE = "nl-NL"
KOPPELS = ["Kampoe", "Toppers", "Formula", "Ekta", "Pintoboys", "Sonny"]


def entered(competition: Competition, names: list[str]) -> dict[str, Entry]:
    """Koppels named `names` entered in `competition`, by name."""
    return {
        name: TeamEntryFactory.create(competition=competition, team__name=name) for name in names
    }


def round_robin_after_three_matchdays(ravi: Player) -> tuple[Competition, dict[str, Entry]]:
    """6 koppels (Kampoe with `ravi`), single round robin (5 matchdays); matchdays 1–3
    played: the home koppel wins each game 20–(2 × table), stored as totals."""
    competition = CompetitionFactory.create(
        slug="hoofdklasse-najaar", name="Hoofdklasse najaar", season="2026"
    )
    entries = {
        "Kampoe": TeamEntryFactory.create(
            competition=competition, team=TeamFactory.create(name="Kampoe", player_1=ravi)
        )
    }
    entries |= entered(competition, KOPPELS[1:])
    schedule_round_robin_create(
        competition_id=competition.pk, double=False, start=datetime.date(2026, 9, 5)
    )
    games = Game.objects.filter(
        match__matchday__competition=competition, match__matchday__number__lte=3
    ).select_related("match__matchday__competition")
    for game in games:
        game_totals_set(game, 20, 2 * game.table)
        game.save()
    standings_rebuild(competition_id=competition.pk)
    return competition, entries


def second_division() -> tuple[Competition, Player]:
    """The 2026 second division: Saramacca beat both, Wanica beat Nickerie. Wanica's
    player_1 is "Ravi Ramdin", registered a second time (the merge's duplicate)."""
    competition = CompetitionFactory.create(
        slug="eerste-klasse-2026", name="Eerste klasse 2026", season="2026"
    )
    entries = entered(competition, ["Saramacca", "Nickerie"])
    duplicate = PlayerFactory.create(name="Ravi Ramdin")
    entries["Wanica"] = TeamEntryFactory.create(
        competition=competition, team=TeamFactory.create(name="Wanica", player_1=duplicate)
    )
    played(
        competition,
        [
            (entries["Saramacca"], entries["Wanica"]),
            (entries["Saramacca"], entries["Nickerie"]),
            (entries["Wanica"], entries["Nickerie"]),
        ],
    )
    return competition, duplicate


def swiss_evening() -> tuple[Competition, dict[str, Entry]]:
    """A Swiss club evening of 7 koppels, not paired yet."""
    competition = CompetitionFactory.create(
        slug="clubavond", name="Clubavond", schedule_format=Competition.Format.SWISS
    )
    names = ["Para", "Marowijne", "Commewijne", "Coronie", "Brokopondo", "Sipaliwini", "Albina"]
    return competition, entered(competition, names)


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"season-{name}.png"), full_page=True)


def test_a_federation_season_in_dutch(browser, live_server):
    ARTIFACTS.mkdir(exist_ok=True)
    ravi = PlayerFactory.create(name="Ravi Ramdin")
    league, koppels = round_robin_after_three_matchdays(ravi)
    top, _ = three_way_tie(slug="hoofdklasse-2026", name="Hoofdklasse 2026", season="2026")
    lower, duplicate = second_division()
    for level, competition, name in ((1, top, "Hoofdklasse"), (2, lower, "Eerste klasse")):
        Division.objects.create(
            league="SBTB", season="2026", name=name, level=level, competition=competition
        )
    evening, guests = swiss_evening()
    admin = UserFactory.create(is_staff=True, is_superuser=True)
    url = live_server.url

    context = browser.new_context(viewport=DESKTOP, locale=LOCALE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(f"{url}{reverse('login')}?next=/")
    page.locator("#id_username").fill(admin.username)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"{url}/")
    expect(page.locator("html")).to_have_attribute("lang", "nl")

    # 1–2. Sonny withdraws after matchday 3: reason and confirmation on the director's page.
    page.goto(url + reverse("withdrawals_manage", kwargs={"slug": league.slug}))
    expect(page.locator("#withdrawn-title")).to_have_text("Teruggetrokken deelnemers")
    expect(page.locator("#id_withdraw-from_matchday")).to_have_value("4")
    page.locator("#id_withdraw-entry").select_option(label="Sonny")
    page.locator("#id_withdraw-reason").fill("Koppel heeft zich afgemeld na speeldag 3")
    page.locator("#withdraw-form button[type=submit]").click()
    # Not confirmed: refused, the choices kept.
    expect(page.locator("#withdraw-form")).to_contain_text("Dit veld is vereist.")
    expect(page.locator("#id_withdraw-reason")).to_have_value(
        "Koppel heeft zich afgemeld na speeldag 3"
    )
    page.locator("#id_withdraw-confirm").check()
    page.locator("#withdraw-form button[type=submit]").click()
    expect(page.locator("#withdrawn-list")).to_contain_text("Sonny")
    shot(page, "1-withdrawals")
    page.set_viewport_size(PHONE)
    refresh_standings_if_not_eager(league.pk)
    page.goto(url + reverse("competition_detail", kwargs={"slug": league.slug}))
    sonny = page.locator("table.standings tbody tr", has_text="Sonny")
    expect(sonny.locator(".standing-withdrawn")).to_have_text("teruggetrokken")
    expect(page.locator("section.withdrawals")).to_contain_text("Koppel heeft zich afgemeld")
    shot(page, "2-standings-phone")

    # 3. A match of matchday 2 voided with its reason, its replay on a new matchday.
    voided = (
        Match.objects.filter(matchday__competition=league, matchday__number=2)
        .exclude(home=koppels["Sonny"])
        .exclude(away=koppels["Sonny"])
        .order_by("table")[0]
    )
    page.set_viewport_size(DESKTOP)
    page.goto(url + reverse("match_manage", kwargs={"slug": league.slug, "match_id": voided.pk}))
    page.locator("#id_void-reason").fill("Zaal ging om 23:00 dicht")
    page.locator("#void-form button[type=submit]").click()
    expect(page.locator("#match-voided")).to_contain_text("Ongeldig verklaard")
    page.locator("#id_replay-date").fill("2026-11-28")
    page.locator("#replay-form button[type=submit]").click()
    expect(page.locator("#replayed-by-link")).to_be_visible()
    expect(page.locator("#forfeit-form")).to_have_count(0)  # voided: no forfeit on it
    shot(page, "3-void-replay")
    voided.refresh_from_db()
    assert voided.replayed_by is not None
    assert voided.replayed_by.matchday.number == 6
    page.set_viewport_size(PHONE)
    page.goto(url + reverse("match_detail", kwargs={"slug": league.slug, "match_id": voided.pk}))
    expect(page.locator("#match-voided")).to_contain_text("Zaal ging om 23:00 dicht")
    shot(page, "3-voided-match-phone")
    refresh_standings_if_not_eager(league.pk)
    page.goto(url + reverse("competition_detail", kwargs={"slug": league.slug}))
    # The voided match counts for neither side: Toppers played 3 (and a walk-over against
    # Sonny), Pintoboys 3, less the voided one.
    for name, count in (("Toppers", "3"), ("Pintoboys", "2")):
        row = page.locator("table.standings tbody tr", has_text=name)
        expect(row.locator("td").nth(2)).to_have_text(count)

    # 4. The two Ravi Ramdins merged in the admin, keeping the first.
    page.set_viewport_size(DESKTOP)
    page.goto(url + reverse("admin:tournaments_player_changelist") + "?q=Ramdin")
    for player in (ravi, duplicate):
        page.locator(f"input.action-select[value='{player.pk}']").check()
    page.locator("select[name=action]").select_option("merge_players")
    page.locator("button[name=index]").click()
    page.get_by_label(f"Ravi Ramdin ({ravi.key})").check()
    page.get_by_role("button", name="Samenvoegen").click()
    expect(page.locator(".messagelist .success")).to_contain_text(
        f"Ravi Ramdin ({duplicate.key}) is samengevoegd met Ravi Ramdin ({ravi.key})"
    )
    expect(page.locator("#result_list tbody tr")).to_have_count(1)
    shot(page, "4-merged")
    page.set_viewport_size(PHONE)
    page.goto(url + reverse("player_detail", kwargs={"key": duplicate.key}))
    assert page.url.endswith(reverse("player_detail", kwargs={"key": ravi.key}))
    expect(page.locator("h1")).to_contain_text("Ravi Ramdin")
    shot(page, "4-player-phone")

    # 5. Play-offs of the top division: Kampoe, Toppers and Formula tied on everything
    # behind Pintoboys; the drawn order with how it was drawn.
    page.set_viewport_size(DESKTOP)
    page.goto(url + reverse("playoff_manage", kwargs={"slug": top.slug}))
    expect(page.locator("#seeding tr.table-warning")).to_have_count(3)
    page.locator("#id_playoff-lot_0").select_option(label="Formula › Kampoe › Toppers")
    page.locator("#id_playoff-lot_reason").fill(
        "Geloot door de secretaris op 2 december, getuige de voorzitter"
    )
    page.locator("#playoff-form button[type=submit]").click()
    page.wait_for_url("**/bracket/")
    page.set_viewport_size(PHONE)
    bracket = page.locator("main")
    for seed in ("1. Pintoboys", "2. Formula", "3. Kampoe", "4. Toppers"):
        expect(bracket).to_contain_text(seed)
    expect(bracket).to_contain_text("Geloot door de secretaris")
    expect(bracket.locator(".list-group-item span:nth-child(2)")).to_have_text([""] * 6)
    shot(page, "5-bracket-phone")

    # 6. Promotion and relegation: Saramacca up, Ekta down, next season made.
    page.set_viewport_size(DESKTOP)
    page.goto(url + reverse("admin:tournaments_division_changelist"))
    page.get_by_role("link", name="Promotie en degradatie 2026").click()
    expect(page.locator("#content")).to_contain_text("Saramacca")
    page.locator("#id_next_season").fill("2027")
    page.locator("#content form input[type=submit]").click()
    expect(page.locator(".messagelist .success")).to_be_visible()
    shot(page, "6-roll")
    page.set_viewport_size(PHONE)
    page.goto(url + reverse("season_divisions", kwargs={"season": "2027"}))
    divisions = page.locator("main section")
    expect(divisions).to_have_count(2)
    expect(divisions.nth(0)).to_contain_text("Saramacca")
    expect(divisions.nth(0)).not_to_contain_text("Ekta")
    expect(divisions.nth(1)).to_contain_text("Ekta")
    expect(divisions.nth(1)).not_to_contain_text("Saramacca")
    # Nothing played in 2027 yet: nobody is said to go up or down.
    expect(page.locator("main .text-success, main .text-danger")).to_have_count(0)
    shot(page, "6-divisions-2027-phone")
    assert Division.objects.filter(season="2027").count() == 2

    # 7. The Swiss evening: four present, two absent, Albina late.
    page.set_viewport_size(DESKTOP)
    checkin = url + reverse("checkin_manage", kwargs={"slug": evening.slug, "number": 1})
    page.goto(checkin)
    marks = {"Para": 1, "Marowijne": 1, "Commewijne": 1, "Coronie": 1}
    marks |= {"Brokopondo": 0, "Sipaliwini": 0}
    for name, present in marks.items():
        row = page.locator("#checkin-list li", has_text=name)
        row.get_by_role("button", name="aanwezig" if present else "afwezig").click()
        expect(row.locator(".badge")).to_have_text("aanwezig" if present else "afwezig")
    expect(page.locator("#present-count")).to_have_text("4 aanwezig")
    shot(page, "7-checkin")
    page.goto(url + reverse("competition_manage", kwargs={"slug": evening.slug}))
    page.locator("#pair-button").click()
    expect(page.locator("#schedule .alert-success")).to_be_visible()
    paired = Matchday.objects.get(competition=evening, number=1)
    in_play = {
        str(entry)
        for match in paired.matches.select_related("home__team", "away__team")
        for entry in (match.home, match.away)
    }
    assert in_play == {"Para", "Marowijne", "Commewijne", "Coronie"}
    page.goto(checkin)
    row = page.locator("#checkin-list li", has_text="Albina")
    row.get_by_role("button", name="aanwezig").click()
    expect(row.locator(".badge")).to_have_text("aanwezig")
    assert Bye.objects.filter(matchday=paired, entry=guests["Albina"]).exists()
    page.goto(url + reverse("matchday_manage", kwargs={"slug": evening.slug, "number": 1}))
    expect(page.locator("tr.match-row")).to_have_count(2)
    expect(page.locator("p.bye")).to_contain_text("Albina")
    for absent in ("Brokopondo", "Sipaliwini"):
        expect(page.locator("tr.match-row", has_text=absent)).to_have_count(0)
    shot(page, "7-matchday")
    page.set_viewport_size(PHONE)
    page.goto(url + reverse("matchday_detail", kwargs={"slug": evening.slug, "number": 1}))
    expect(page.locator("p.byes")).to_contain_text("Albina")
    shot(page, "7-matchday-phone")
    context.close()
