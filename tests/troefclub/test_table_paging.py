"""Every paged table (standings, season rankings, the rating list) answers any `?page=` and
`?per_page=` with a page, never a 500, and never more than `PER_PAGE_MAX` rows
(`troefclub.tables.table_configure`; a negative `per_page` was a 500, issue 18's tester)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from rankings.services import ratings_refresh
from tests.rankings.test_page_budgets import _star_evening
from tests.rankings.test_season_queries import SEASON, grow
from troefclub.tables import PER_PAGE_MAX

pytestmark = pytest.mark.django_db

HOSTILE = ["-1", "-5", "0", "abc", "1.5", "", "99999999999999999999999", "100000"]


@pytest.fixture
def season() -> None:
    grow(1)
    _star_evening(1, 3)
    ratings_refresh()


def paged_pages() -> list[str]:
    return [
        reverse("competition_detail", kwargs={"slug": "star-evening-1"}),
        reverse("season_rankings", kwargs={"season": SEASON}),
        reverse("season_rankings", kwargs={"season": SEASON}) + "?by=club",
        reverse("season_rankings", kwargs={"season": SEASON}) + "?by=player",
        reverse("rating_list"),
    ]


@pytest.mark.parametrize("value", HOSTILE)
def test_any_per_page_and_page_is_a_page(client: Client, season: None, value: str) -> None:
    for address in paged_pages():
        glue = "&" if "?" in address else "?"
        for query in (f"per_page={value}", f"page={value}", f"per_page={value}&page=2"):
            response = client.get(f"{address}{glue}{query}")
            assert response.status_code == 200, (address, query)


def test_per_page_is_capped(client: Client, season: None) -> None:
    html = client.get(reverse("rating_list") + "?per_page=100000").content.decode()
    rows = len(re.findall(r"<tr[ >]", html.split("<tbody", 1)[1]))
    assert 0 < rows <= PER_PAGE_MAX
