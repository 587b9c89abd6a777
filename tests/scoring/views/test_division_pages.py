"""The divisions' doors (issue 22): the public page of a season's divisions, and the admin's
promotion and relegation page that makes next season (`season_divisions_roll`)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.builders import pairs_competition
from tests.playoff_scenes import played
from tournaments.models import Competition, Division

pytestmark = pytest.mark.django_db


def _division(slug: str, level: int) -> Division:
    competition = pairs_competition(2, slug=slug)
    first, second = competition.entries.order_by("pk")
    played(competition, [(first, second)])
    name = "Hoofdklasse" if level == 1 else "Eerste klasse"
    return Division.objects.create(
        league="STCB", season="2026-2027", name=name, level=level, competition=competition
    )


@pytest.fixture
def league() -> list[Division]:
    return [_division("hoofd-2026-2027", 1), _division("eerste-2026-2027", 2)]


def test_the_divisions_page_lists_them_with_who_goes_up_and_down(
    client: Client, league: list[Division]
) -> None:
    response = client.get(reverse("season_divisions", kwargs={"season": "2026-2027"}))
    assert response.status_code == 200
    text = response.content.decode()
    assert text.index("Hoofdklasse") < text.index("Eerste klasse")
    assert text.count('goes up">▲') == 1 and text.count('goes down">▼') == 1


def test_a_season_not_begun_says_nobody_goes_up_or_down(client: Client) -> None:
    # Found by the season's browser walk (tests/e2e/test_federation_season.py): next
    # season's page, before a match, put ▲ and ▼ on the entries by name order.
    for level, slug in ((1, "hoofd-2027-2028"), (2, "eerste-2027-2028")):
        competition = pairs_competition(3, slug=slug)
        Division.objects.create(
            league="STCB", season="2027-2028", name=slug, level=level, competition=competition
        )

    response = client.get(reverse("season_divisions", kwargs={"season": "2027-2028"}))

    text = response.content.decode()
    assert response.status_code == 200
    assert 'goes up">▲' not in text and 'goes down">▼' not in text
    assert text.count('class="small text-body-secondary mt-2 mb-0 division-tied"') == 2


def test_a_season_without_divisions_has_no_page(client: Client) -> None:
    response = client.get(reverse("season_divisions", kwargs={"season": "1999"}))
    assert response.status_code == 404


def test_the_admin_shows_the_moves_and_makes_next_season(
    admin_client: Client, league: list[Division]
) -> None:
    url = reverse("admin:tournaments_division_roll", args=["2026-2027"])
    listing = admin_client.get(reverse("admin:tournaments_division_changelist"))
    assert url in listing.content.decode()
    page = admin_client.get(url)
    assert page.status_code == 200 and "Kampoe" in page.content.decode()

    response = admin_client.post(url, {"next_season": "2027-2028"})

    assert response.status_code == 302
    made = Division.objects.filter(season="2027-2028").order_by("level")
    assert [division.competition.slug for division in made] == [
        "hoofd-2027-2028",
        "eerste-2027-2028",
    ]
    again = admin_client.post(url, {"next_season": "2027-2028"})
    assert again.status_code == 200 and "has divisions already" in again.content.decode()
    assert Competition.objects.filter(season="2027-2028").count() == 2
