"""Links that reach the phones (issue 18): the QR codes of the printed sheets, the table
link page and the e-mails use SITE_URL, never the address the director's page was opened
with; the pages a director prints from warn while SITE_URL is unset or this computer only.
"""

from __future__ import annotations

import re

import pypdfium2 as pdfium  # type: ignore[import-untyped]
import pytest
import zxingcpp
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.urls import reverse

from scoring.models import Game, GameLink
from tests.builders import pairs_game, pairs_matchday
from tests.factories import UserFactory
from tournaments.models import Matchday

pytestmark = pytest.mark.django_db

SITE = "http://192.168.1.20:8000"


@pytest.fixture
def evening() -> tuple[Matchday, list[Game]]:
    """Matchday 1 of a pairs competition: two games, at tables 1 and 2."""
    _competition, matchday, entries = pairs_matchday(4)
    games = [
        pairs_game(matchday, entries[0], entries[1], table=1),
        pairs_game(matchday, entries[2], entries[3], table=2),
    ]
    return matchday, games


@pytest.fixture
def director(evening: tuple[Matchday, list[Game]]) -> User:
    user = UserFactory.create()
    evening[0].competition.directors.add(user)
    return user


def decoded_qr_codes(pdf: bytes) -> list[list[str]]:
    """The QR codes a phone's camera reads off each page of `pdf`: the page rasterised by
    pdfium at 216 dpi, decoded by zxing-cpp."""
    pages = []
    for page in pdfium.PdfDocument(pdf):
        image = page.render(scale=3).to_pil().convert("L")
        codes = zxingcpp.read_barcodes(image)
        pages.append(
            sorted(code.text for code in codes if code.format == zxingcpp.BarcodeFormat.QRCode)
        )
    return pages


def token_of(game: Game, side: str) -> str:
    return GameLink.objects.get(game=game, side=side, revoked_at__isnull=True).token


def sheet_urls(base: str, game: Game) -> list[str]:
    """The two QR codes of a game's printed sheet: one way in per koppel (issue 18)."""
    return sorted(f"{base}/t/{token_of(game, side)}/" for side in ("a", "b"))


def test_the_printed_sheets_qr_code_decodes_to_the_site_url(
    client: Client, settings, evening, director
) -> None:
    settings.SITE_URL = SITE  # the page is asked for at http://testserver: SITE_URL wins
    matchday, games = evening
    client.force_login(director)
    slug = matchday.competition.slug

    response = client.get(reverse("game_sheet_pdf", kwargs={"slug": slug, "game_id": games[0].pk}))
    assert response.status_code == 200
    assert decoded_qr_codes(response.content) == [sheet_urls(SITE, games[0])]

    response = client.get(reverse("matchday_sheets_pdf", kwargs={"slug": slug, "number": 1}))
    assert response.status_code == 200
    assert decoded_qr_codes(response.content) == [
        sheet_urls(SITE, games[0]),
        sheet_urls(SITE, games[1]),
    ]


def test_without_a_site_url_the_qr_code_holds_the_address_the_page_was_asked_at(
    client: Client, settings, evening, director
) -> None:
    settings.SITE_URL = ""
    matchday, games = evening
    client.force_login(director)
    url = reverse(
        "game_sheet_pdf", kwargs={"slug": matchday.competition.slug, "game_id": games[0].pk}
    )
    response = client.get(url)
    assert decoded_qr_codes(response.content) == [sheet_urls("http://testserver", games[0])]


def test_the_link_page_shows_the_site_url(client: Client, settings, evening, director) -> None:
    settings.SITE_URL = SITE
    matchday, games = evening
    client.force_login(director)
    url = reverse("game_link", kwargs={"slug": matchday.competition.slug, "game_id": games[0].pk})
    html = client.get(url).content.decode()
    for side in ("a", "b"):
        assert f'href="{SITE}/t/{token_of(games[0], side)}/"' in html
    assert "testserver" not in html


def director_pages(matchday: Matchday, game: Game) -> dict[str, tuple[str, str]]:
    """The pages a director opens before printing, where the warning belongs: name ->
    (URL, what the warning comes before)."""
    slug, number = matchday.competition.slug, matchday.number
    day = {"slug": slug, "number": number}
    return {
        "table link": (
            reverse("game_link", kwargs={"slug": slug, "game_id": game.pk}),
            'id="table-qr-a"',
        ),
        "matchday (director)": (reverse("matchday_manage", kwargs=day), 'id="matchday"'),
        "matchday (public)": (reverse("matchday_detail", kwargs=day), 'id="matches"'),
    }


@pytest.mark.parametrize(
    ("site_url", "host", "problem"),
    [
        ("", "127.0.0.1:8000", "local"),  # dev.py run on the laptop, opened there
        ("", "testserver", "unset"),
        ("http://127.0.0.1:8000", "192.168.1.20:8000", "local"),
        ("http://localhost:8000", "testserver", "local"),
        (SITE, "127.0.0.1:8000", ""),
        ("https://troef.example", "testserver", ""),
    ],
)
def test_the_pages_a_director_prints_from_warn_while_links_may_not_reach_phones(
    client: Client, settings, evening, director, site_url, host, problem
) -> None:
    settings.SITE_URL = site_url
    settings.ALLOWED_HOSTS = ["testserver", "127.0.0.1", "192.168.1.20"]
    matchday, games = evening
    client.force_login(director)
    for name, (url, printed) in director_pages(matchday, games[0]).items():
        response = client.get(url, HTTP_HOST=host)
        assert response.status_code == 200, name
        html = response.content.decode()
        assert ('id="phone-links-warning"' in html) is bool(problem), name
        if problem:
            assert f'data-problem="{problem}"' in html, name
            # In words, above the QR code, the links and the tables to print.
            assert html.index('id="phone-links-warning"') < html.index(printed), name


def test_the_public_pages_warn_nobody_but_the_director(client: Client, settings, evening) -> None:
    settings.SITE_URL = ""
    settings.ALLOWED_HOSTS = ["127.0.0.1"]
    matchday, games = evening
    pages = director_pages(matchday, games[0])
    day = {"slug": matchday.competition.slug, "number": matchday.number}
    # The print page has no QR code at all: it warns nobody (issue 18's tester).
    for name, address in (
        ("matchday (public)", pages["matchday (public)"][0]),
        ("print", reverse("matchday_print", kwargs=day)),
    ):
        response = client.get(address, HTTP_HOST="127.0.0.1")
        assert response.status_code == 200, name
        assert "phone-links-warning" not in response.content.decode(), name


def test_the_password_reset_mail_links_to_the_site_url(client: Client, settings) -> None:
    settings.EMAIL_HOST = "smtp.troef.example"  # the test run's backend keeps mail in memory
    settings.SITE_URL = "https://troef.example"
    settings.ALLOWED_HOSTS = ["127.0.0.1"]
    user = UserFactory.create(email="director@troef.example")
    response = client.post(reverse("password_reset"), {"email": user.email}, HTTP_HOST="127.0.0.1")
    assert response.status_code == 302
    body = str(mail.outbox[0].body)
    link = re.search(r"https://troef\.example(/accounts/reset/\S+/)", body)
    assert link, body
    assert "127.0.0.1" not in body and "testserver" not in body
