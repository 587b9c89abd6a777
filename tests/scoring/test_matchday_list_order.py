"""The standings page lists the matchdays by number, however they were made: the list is
a GROUP BY query (its match counts), which drops `Meta.ordering`."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import CompetitionFactory
from tournaments.models import Matchday

pytestmark = pytest.mark.django_db


def test_matchdays_made_out_of_order_are_listed_by_number(client: Client) -> None:
    competition = CompetitionFactory.create()
    for number in (2, 4, 3, 1):
        Matchday.objects.create(competition=competition, number=number)
    page = client.get(reverse("competition_detail", kwargs={"slug": competition.slug}))
    html = page.content.decode()
    links = [
        reverse("matchday_detail", kwargs={"slug": competition.slug, "number": n})
        for n in (1, 2, 3, 4)
    ]
    positions = [html.find(f'href="{link}"') for link in links]
    assert -1 not in positions, positions
    assert positions == sorted(positions)
