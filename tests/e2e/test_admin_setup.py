"""The competition's admin page in a real browser (issue 8, "Admin set-up without raw
JSON"): the bye follows the target through static/js/admin_setup.js, the tie-breaks are
chosen place by place, and nothing breaks the Content-Security-Policy. Screenshots at 390
and 1280 wide go to tests/e2e/artifacts/.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.e2e.conftest import ARTIFACTS, DESKTOP, PHONE
from tests.e2e.test_csp import ConsoleWatch, log_in
from tests.factories import UserFactory
from tournaments.models import Competition

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_competition_is_set_up_by_choosing(browser, live_server):
    UserFactory.create(username="bond", is_staff=True, is_superuser=True)
    base = live_server.url
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.set_default_timeout(15_000)
    watch = ConsoleWatch()
    watch.attach(page)
    log_in(page, watch, base, "bond")

    watch.visit(page, base + reverse("admin:tournaments_competition_add"))
    page.locator("#id_name").fill("Club evening")
    target, bye = page.locator("#id_target_score"), page.locator("#id_bye_score_for")
    expect(bye).to_have_value("20")
    target.fill("15")
    expect(bye).to_have_value("15")  # it follows while nobody set it otherwise
    bye.fill("12")
    target.fill("30")
    expect(bye).to_have_value("12")  # set by the director: it stays
    bye.fill("30")
    target.fill("25")
    expect(bye).to_have_value("25")  # equal to the target again: it follows again

    # A new competition starts with docs/interchange.md's tie-breaks (issue 9).
    for place, key in enumerate(["points", "saldo", "points_for", "head_to_head"]):
        expect(page.locator(f"#id_tiebreaks_{place}")).to_have_value(key)
    for place, key in enumerate(["saldo", "points_for", "head_to_head", ""]):
        page.locator(f"#id_tiebreaks_{place}").select_option(key)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "admin-competition-1280.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(ARTIFACTS / "admin-competition-390.png"), full_page=True)
    page.set_viewport_size(DESKTOP)

    page.locator("input[name=_save]").click()
    expect(page.locator(".messagelist")).to_be_visible()
    competition = Competition.objects.get(name="Club evening")
    assert (competition.target_score, competition.bye_score_for) == (25, 25)
    assert competition.tiebreaks == ["saldo", "points_for", "head_to_head"]

    # A tie-break chosen twice: the page says which, and where.
    watch.visit(page, base + reverse("admin:tournaments_competition_change", args=[competition.pk]))
    page.locator("#id_tiebreaks_3").select_option("saldo")
    page.locator("input[name=_continue]").click()
    expect(page.locator(".field-tiebreaks .errorlist")).to_contain_text(
        "chosen twice (places 1 and 4)"
    )
    page.locator(".field-tiebreaks").screenshot(
        path=str(ARTIFACTS / "admin-competition-error-1280.png")
    )
    context.close()

    assert not watch.violations, "CSP violations:\n" + "\n".join(watch.violations)
