"""A save the page cannot show is never silent (issue 8's tester: a tap after the link was
revoked left the page as it was and the round was lost without a word)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoring.models import Round
from scoring.services.table import game_link_revoke, game_links_ensure
from tests.e2e.conftest import PHONE
from tests.factories import GameFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_tap_after_the_link_was_revoked_says_it_was_not_saved(browser, live_server):
    game = GameFactory.create()
    link = game_links_ensure(game_ids=[game.pk])[game.pk]["a"]
    page = browser.new_context(viewport=PHONE).new_page()
    page.set_default_timeout(15_000)
    page.goto(live_server.url + reverse("table_sheet", kwargs={"token": link.token}))
    expect(page.locator("#quick-a")).to_be_visible()
    error = page.locator("#save-error")
    expect(error).to_be_hidden()

    game_link_revoke(game_id=game.pk, link_id=link.pk)  # the director, meanwhile
    page.locator("#quick-a").click()

    # The tap is kept on the phone, refused with the reason (issue 18's queue), until the
    # user discards it or enters it again.
    refused = page.locator(".outbox-round.outbox-refused")
    expect(refused).to_have_count(1)
    expect(refused.locator(".outbox-reason")).to_contain_text("no longer valid")
    expect(page.locator("#table-outbox")).to_contain_text("not stored")
    assert not Round.objects.filter(game=game).exists()
    page.context.close()
