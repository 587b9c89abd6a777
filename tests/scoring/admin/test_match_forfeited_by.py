"""The admin's match page says who set a forfeit only when there is one (a tester found
"forfeited by: the director" on every match: the stored cause's default)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring.services.matches import match_forfeit_set
from tests.builders import pairs_matchday
from tests.factories import MatchFactory
from tests.seen import match_token_now
from tournaments.models import Match

pytestmark = pytest.mark.django_db


def forfeited_by(admin_client, match: Match) -> str:
    page = admin_client.get(reverse("admin:tournaments_match_change", args=[match.pk]))
    assert page.status_code == 200
    found = re.search(
        r'field-forfeited_by.*?<div class="readonly">(.*?)</div>', page.content.decode(), re.S
    )
    assert found is not None
    return found.group(1).strip()


def test_a_match_without_forfeit_names_nobody(admin_client):
    _competition, matchday, (home, away) = pairs_matchday(2)
    match = MatchFactory.create(matchday=matchday, home=home, away=away)
    assert forfeited_by(admin_client, match) == "—"


def test_a_directors_forfeit_says_the_director(admin_client):
    _competition, matchday, (home, away) = pairs_matchday(2)
    match = MatchFactory.create(matchday=matchday, home=home, away=away)
    match_forfeit_set(
        match_id=match.pk, side="home", reason="late", seen=match_token_now(match_id=match.pk)
    )
    assert forfeited_by(admin_client, match) == "the director"
