"""The play-off pages (issue 22): the director's seeding page and its forms, the public
bracket and its PDF."""

from __future__ import annotations

import pypdfium2 as pdfium  # type: ignore[import-untyped]
import pytest
from django.test import Client
from django.urls import reverse

from scoring.services.playoffs import playoff_create
from tests.playoff_scenes import leg_won, three_way_tie, two_pairs_tied
from tournaments.models import Playoff

pytestmark = pytest.mark.django_db


def test_the_seeding_page_shows_the_tie_break_of_each_seed_and_the_undecided_tie(
    director_client: Client,
) -> None:
    competition, _entries = three_way_tie()
    page = director_client.get(reverse("playoff_manage", kwargs={"slug": competition.slug}))
    assert page.status_code == 200
    text = page.content.decode()
    assert "tied on everything: undecided" in text
    assert "Drawn order of" in text


def test_the_director_makes_the_play_offs_by_a_drawing_of_lots(director_client: Client) -> None:
    competition, entries = three_way_tie()
    drawn = ",".join(str(entries[name].pk) for name in ("Toppers", "Formula", "Kampoe"))
    response = director_client.post(
        reverse("playoff_manage", kwargs={"slug": competition.slug}),
        {
            "action": "playoff",
            "playoff-size": "4",
            "playoff-legs": "2",
            "playoff-level_rule": "higher_seed",
            "playoff-lot_0": drawn,
            "playoff-lot_reason": "Drawn by the director, 2 June",
        },
    )
    playoff = Playoff.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse(
        "playoff_bracket", kwargs={"slug": playoff.competition.slug}
    )
    assert [str(seed.entry) for seed in playoff.seeds.all()] == [
        "Pintoboys",
        "Toppers",
        "Formula",
        "Kampoe",
    ]


def test_the_play_offs_refused_say_why_on_the_page(director_client: Client) -> None:
    competition, _entries = three_way_tie()
    response = director_client.post(
        reverse("playoff_manage", kwargs={"slug": competition.slug}),
        {
            "action": "playoff",
            "playoff-size": "4",
            "playoff-legs": "1",
            "playoff-level_rule": "higher_seed",
        },
    )
    assert response.status_code == 422
    assert "share rank 2" in response.content.decode()
    assert not Playoff.objects.exists()


def test_the_director_makes_a_deciding_match(director_client: Client) -> None:
    competition, entries = two_pairs_tied()
    pair = ",".join(str(pk) for pk in sorted((entries["Kampoe"].pk, entries["Formula"].pk)))
    page = director_client.get(reverse("playoff_manage", kwargs={"slug": competition.slug}))
    assert "deciding-form" in page.content.decode()
    response = director_client.post(
        reverse("playoff_manage", kwargs={"slug": competition.slug}),
        {"action": "deciding", "deciding-pair": pair},
    )
    assert response.status_code == 302
    assert Playoff.objects.get().kind == Playoff.Kind.DECIDING


def test_the_seeding_page_is_the_directors(client: Client) -> None:
    competition, _entries = two_pairs_tied()
    response = client.get(reverse("playoff_manage", kwargs={"slug": competition.slug}))
    assert response.status_code in (302, 403)


@pytest.fixture
def bracket() -> Playoff:
    competition, entries = two_pairs_tied()
    lots = [
        [entries["Kampoe"].pk, entries["Formula"].pk],
        [entries["Ekta"].pk, entries["Toppers"].pk],
    ]
    playoff = playoff_create(
        competition_id=competition.pk, size=4, legs=1, by=None, lots=lots, lot_reason="drawn"
    )
    leg_won(playoff.ties.get(round=1, position=1), 1, by_home=True)
    return playoff


def test_the_bracket_page_shows_rounds_seeds_and_scores(client: Client, bracket: Playoff) -> None:
    response = client.get(reverse("playoff_bracket", kwargs={"slug": bracket.competition.slug}))
    assert response.status_code == 200
    text = response.content.decode()
    assert "Semi-finals" in text and "Final" in text
    assert "1. " in text and "Kampoe" in text and ">20<" in text


def test_the_bracket_pdf_renders_the_ties(client: Client, bracket: Playoff) -> None:
    response = client.get(reverse("playoff_bracket_pdf", kwargs={"slug": bracket.competition.slug}))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    [page] = list(pdfium.PdfDocument(response.content))
    text = page.get_textpage().get_text_range()
    assert "Semi-finals" in text and "1. Kampoe" in text and "20–0" in text


def test_a_tie_not_played_yet_shows_no_score(client: Client, bracket: Playoff) -> None:
    slug = bracket.competition.slug
    page = client.get(reverse("playoff_bracket", kwargs={"slug": slug})).content.decode()
    pdf = client.get(reverse("playoff_bracket_pdf", kwargs={"slug": slug})).content
    [sheet] = list(pdfium.PdfDocument(pdf))
    assert page.count(">0<") == 1  # the played semi-final's 20–0, not the other's 0–0
    assert sheet.get_textpage().get_text_range().count("0–0") == 1  # in "20–0" only


def test_a_competition_that_is_no_stage_has_no_bracket(client: Client) -> None:
    competition, _entries = two_pairs_tied()
    response = client.get(reverse("playoff_bracket", kwargs={"slug": competition.slug}))
    assert response.status_code == 404


def test_the_standings_pages_link_the_bracket_both_ways(client: Client, bracket: Playoff) -> None:
    bracket_url = reverse("playoff_bracket", kwargs={"slug": bracket.competition.slug})
    for competition in (bracket.source, bracket.competition):
        page = client.get(reverse("competition_detail", kwargs={"slug": competition.slug}))
        assert bracket_url in page.content.decode()
