"""PDF score sheets and pairing sheets (rendered to PNG with pdfium and read back), and the
standings and results exports (CSV with a BOM, Excel; formula injection neutralised)."""

from __future__ import annotations

import csv
import datetime
import io
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import openpyxl
import pypdfium2 as pdfium  # type: ignore[import-untyped]
import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from PIL import Image
from reportlab.graphics.barcode import qrencoder

from scoring.exports import neutralised
from scoring.models import Game, GameLink, Standing
from scoring.pdf import drawing, sheets
from scoring.pdf import pairings as pairing_sheets
from scoring.services.rounds import RoundRecord, game_rounds_load
from scoring.views import paper
from tests.builders import pairs_game
from tests.factories import CompetitionFactory, UserFactory, league_staff
from tests.paths import ARTIFACTS
from tournaments.models import Bye, Competition, Entry, Match, Matchday, Player, Team

pytestmark = pytest.mark.django_db

A4_POINTS = (595.28, 841.89)
# Names with accents and letters outside Latin-1: none may turn into an empty box.
NAMES = ["Ramdín Sëwnath", "Kolibrië Nuñez", "Şahin Öztürk", "Łukasz Ørsted"]


@dataclass
class Evening:
    competition: Competition
    matchday: Matchday
    seated: Game  # table 3: seats set, koppel A named
    unseated: Game  # table 5: no seats yet
    bye: Entry


def koppel(key: str, first: str, second: str, name: str = "") -> Team:
    return Team.objects.create(
        key=key,
        name=name,
        player_1=Player.objects.create(key=f"{key}-1", name=first),
        player_2=Player.objects.create(key=f"{key}-2", name=second),
    )


@pytest.fixture
def evening() -> Evening:
    """A club evening: two tables (one seated, one not) and a bye, with accented names."""
    competition = CompetitionFactory.create(slug="clubavond", name="Clubavond Wanica")
    teams = [
        koppel("k1", NAMES[0], NAMES[1], name="Kampoe Ñ"),
        koppel("k2", NAMES[2], NAMES[3]),
        koppel("k3", "Anand Jaggan", "Ilse Kromo"),
        koppel("k4", "Rudi Pinas", "Gerda Vlijter"),
        koppel("k5", "Bye Koppel", "Rustende Speler"),
    ]
    entries = [Entry.objects.create(competition=competition, team=team) for team in teams]
    matchday = Matchday.objects.create(
        competition=competition, number=1, date=datetime.date(2026, 10, 2)
    )
    seated = pairs_game(matchday, entries[0], entries[1], table=3, first_caller=2)
    unseated = pairs_game(matchday, entries[2], entries[3], table=5, seated=False)
    Bye.objects.create(matchday=matchday, entry=entries[4])
    return Evening(competition, matchday, seated, unseated, entries[4])


@pytest.fixture
def director(evening: Evening) -> User:
    user = UserFactory.create()
    evening.competition.directors.add(user)
    return user


@dataclass
class Page:
    size: tuple[float, float]
    image: Image.Image
    text: str


def pages(data: bytes, scale: float = 1) -> list[Page]:
    """Every page of the PDF `data`: its size in points, rendered to an image, its text."""
    document = pdfium.PdfDocument(data)
    result = []
    for page in document:
        text = page.get_textpage().get_text_range()
        image = page.render(scale=scale).to_pil().convert("L")
        result.append(Page(page.get_size(), image, text.replace("\r\n", "\n")))
    return result


def is_a4(size: tuple[float, float]) -> bool:
    return all(abs(got - want) < 1 for got, want in zip(size, A4_POINTS, strict=True))


def ink(image: Image.Image) -> float:
    """The share of the page's pixels that are dark: 0 for a blank page."""
    histogram = image.histogram()
    return sum(histogram[:128]) / (image.width * image.height)


def save_artifact(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.image.save(ARTIFACTS / name)


def sheet_pdf(client: Client, game: Game) -> bytes:
    url = reverse("game_sheet_pdf", kwargs={"slug": "clubavond", "game_id": game.pk})
    response = client.get(url)
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "application/pdf"
    assert "no-store" in response["Cache-Control"]
    return response.content


# ---------------------------------------------------------------- the score sheet


def test_a_game_sheet_shows_the_game_on_one_a4_page(
    client: Client, evening: Evening, director: User
) -> None:
    client.force_login(director)
    data = sheet_pdf(client, evening.seated)

    [page] = pages(data, scale=1.5)
    assert is_a4(page.size)
    assert 0.01 < ink(page.image) < 0.5  # drawn on, and not a black page
    save_artifact(page, "print-game-sheet.png")
    text = page.text
    for expected in [
        "Clubavond Wanica",
        "Matchday 1 · Friday 2 October 2026",
        "Table 3",
        "Target: 20 points",
        "Kampoe Ñ",  # koppel A's own name, its players under it
        f"{NAMES[0]} & {NAMES[1]}",
        "Seat 2 · koppel B",
        "calls first",
        "Caller",
        "Result",
        "Total B",
        "Both koppels confirm the score by signing.",
        "Koppel B: " + f"{NAMES[2]} & {NAMES[3]}",
        f"game {evening.seated.pk}",
    ]:
        assert expected in text, expected
    for name in NAMES:
        assert name in text
    assert "\n24\n" in text and "\n25\n" not in text  # a game to 20: 19 rounds + 5 spare


def test_a_sheet_without_seats_has_blank_lines_to_fill(
    client: Client, evening: Evening, director: User
) -> None:
    client.force_login(director)
    [page] = pages(sheet_pdf(client, evening.unseated))
    assert "Table 5" in page.text
    assert "Seat 1 · koppel A" in page.text and "calls first" not in page.text
    assert "First caller: seat" in page.text
    request = RequestFactory().get("/")
    games = paper._games_with_names(Game.objects.filter(pk=evening.unseated.pk))
    [sheet] = paper.game_sheets(request, games)
    assert sheet.seats is None and sheet.first_caller is None


def qr_matrix(url: str) -> list[list[bool]]:
    """The QR modules of `url` as the sheet encodes it (level M), made here on its own."""
    code = qrencoder.QRCode(None, qrencoder.QRErrorCorrectLevel.M)
    code.addData(url)
    code.make()
    count = code.getModuleCount()
    return [[bool(code.isDark(row, col)) for col in range(count)] for row in range(count)]


def drawn_matrix(image: Image.Image, scale: float, count: int, side: str = "a") -> list[list[bool]]:
    """Read the modules of koppel `side`'s QR code drawn at `drawing.QR_XS[side]`,
    `QR_Y`, `QR_SIZE` off the page."""
    module = drawing.QR_SIZE / (count + 8)  # four modules of quiet zone each side
    left = drawing.QR_XS[side] + 4 * module
    top = drawing.PAGE_HEIGHT - (drawing.QR_Y + drawing.QR_SIZE) + 4 * module

    def dark(row: int, col: int) -> bool:
        x, y = left + (col + 0.5) * module, top + (row + 0.5) * module
        pixel = image.getpixel((int(x * scale), int(y * scale)))
        assert isinstance(pixel, int)  # a grey ("L") image
        return pixel < 128

    return [[dark(row, col) for col in range(count)] for row in range(count)]


def test_the_sheet_has_each_koppels_own_qr_code(
    client: Client, evening: Evening, director: User
) -> None:
    client.force_login(director)
    [page] = pages(sheet_pdf(client, evening.seated), scale=4)
    for side in ("a", "b"):
        link = GameLink.objects.get(game=evening.seated, side=side, revoked_at__isnull=True)
        expected = qr_matrix(paper.table_link_url(RequestFactory().get("/"), link.token))
        assert link.token in paper.table_link_url(RequestFactory().get("/"), link.token)
        assert drawn_matrix(page.image, 4, len(expected), side) == expected
        # Another token draws another code: the comparison can tell them apart.
        other = qr_matrix(paper.table_link_url(RequestFactory().get("/"), "x" * 32))
        assert drawn_matrix(page.image, 4, len(other), side) != other
    assert "Koppel A scans this" in page.text and "Koppel B scans this" in page.text


def test_a_second_print_keeps_the_link_and_a_revoked_one_is_replaced(
    client: Client, evening: Evening, director: User
) -> None:
    client.force_login(director)
    sheet_pdf(client, evening.seated)
    first = set(GameLink.objects.filter(game=evening.seated))
    sheet_pdf(client, evening.seated)
    assert set(GameLink.objects.filter(game=evening.seated)) == first and len(first) == 2
    revoked = GameLink.objects.get(game=evening.seated, side="a")
    GameLink.objects.filter(pk=revoked.pk).update(revoked_at=timezone.now())
    sheet_pdf(client, evening.seated)
    fresh = GameLink.objects.get(game=evening.seated, side="a", revoked_at__isnull=True)
    assert fresh.token != revoked.token
    assert GameLink.objects.filter(game=evening.seated, revoked_at__isnull=True).count() == 2


def test_the_table_link_url_is_absolute_and_holds_the_token(
    monkeypatch: Any, settings: Any
) -> None:
    settings.ALLOWED_HOSTS = ["club.example"]
    request = RequestFactory().get("/", secure=True, HTTP_HOST="club.example")
    try:
        path = reverse("table_sheet", kwargs={"token": "tok-123"})
    except NoReverseMatch:
        path = "/t/tok-123/"
    assert paper.table_link_url(request, "tok-123") == f"https://club.example{path}"

    def missing(*args: Any, **kwargs: Any) -> str:
        raise NoReverseMatch("table_sheet")

    monkeypatch.setattr(paper, "reverse", missing)
    assert paper.table_link_url(request, "tok-123") == "https://club.example/t/tok-123/"


def test_the_qr_widget_encodes_the_url_it_was_given() -> None:
    widget = drawing.qr_widget("https://club.example/t/abc/")
    assert widget.value == "https://club.example/t/abc/"
    assert widget.barLevel == "M"
    assert drawing.qr_modules("https://club.example/t/abc/") == qr_matrix(
        "https://club.example/t/abc/"
    )


def test_the_matchday_sheets_are_one_page_a_game_by_table(
    client: Client, evening: Evening, director: User
) -> None:
    client.force_login(director)
    url = reverse("matchday_sheets_pdf", kwargs={"slug": "clubavond", "number": 1})
    response = client.get(url)
    assert response.status_code == 200
    assert 'filename="clubavond-matchday-1-sheets.pdf"' in response["Content-Disposition"]
    found = pages(response.content)
    assert [is_a4(page.size) for page in found] == [True, True]
    assert "Table 3" in found[0].text and NAMES[0] in found[0].text
    assert "Table 5" in found[1].text and "Anand Jaggan" in found[1].text
    assert GameLink.objects.filter(game__match__matchday=evening.matchday).count() == 4


def test_a_matchday_without_games_prints_one_page_saying_so(
    client: Client, director: User, evening: Evening
) -> None:
    Matchday.objects.create(competition=evening.competition, number=2)
    client.force_login(director)
    url = reverse("matchday_sheets_pdf", kwargs={"slug": "clubavond", "number": 2})
    [page] = pages(client.get(url).content)
    assert "No games on this matchday." in page.text


@pytest.mark.parametrize(
    ("options", "rows"),
    [
        ({}, 24),  # to 20, 2 points a round at least: 19 rounds, plus 5 spare
        ({"early_kap_penalty": 1}, 44),  # an early kap may give 1 point: 39 + 5
        ({"target_score": None, "fixed_rounds": 16}, 21),
        ({"target_score": 20, "fixed_rounds": 10}, 15),  # whichever ends the game first
        ({"target_score": None, "close_by_director_allowed": True}, 24),
    ],
)
def test_the_grid_has_rows_for_the_longest_game(options: dict[str, Any], rows: int) -> None:
    assert paper.grid_rows(CompetitionFactory.build(**options)) == rows


def test_a_grid_too_long_for_the_page_says_to_continue_on_the_back(
    client: Client, evening: Evening, director: User
) -> None:
    Competition.objects.filter(pk=evening.competition.pk).update(early_kap_penalty=1)
    client.force_login(director)
    [page] = pages(sheet_pdf(client, evening.seated))
    assert "More rounds: continue on the back." in page.text
    assert is_a4(page.size)


@pytest.mark.nl
def test_the_sheet_speaks_dutch_by_default(
    client: Client, evening: Evening, director: User
) -> None:
    client.force_login(director)
    [page] = pages(sheet_pdf(client, evening.seated))
    assert "vrijdag 2 oktober 2026" in page.text
    assert "Table 3" not in page.text
    # Every seat label whole in Dutch (the longer words), nothing clipped with "…".
    for seat, letter in ((1, "A"), (2, "B"), (3, "A"), (4, "B")):
        assert f"Plaats {seat} · koppel {letter}" in page.text
    assert "roept als eerste" in page.text
    assert "…" not in page.text


def test_long_names_wrap_onto_a_second_line_and_a_long_game_continues_on_the_back() -> None:
    long = sheets.Koppel(
        "De Zeer Lange Koppelnaam Van Het Noorden",
        ("Wilhelmina Johanna Ramdin-Sewnath", "Bartholomeus Kolibrië"),
    )
    short = sheets.Koppel("Anand Jaggan & Ilse Kromo", ("Anand Jaggan", "Ilse Kromo"))
    sheet = sheets.GameSheet(
        competition="Nationale Troefcall Competitie 2026–2027 Eerste Klasse",
        place="Matchday 12",
        table=14,
        sitting=3,
        match="Kampoe – Toppers",
        koppel_a=short,
        koppel_b=long,
        seats=None,
        first_caller=None,
        target="20 points",
        grid_rows=44,
        legend="Points: " + " · ".join(f"result {n} {n}" for n in range(16)),
        urls=("https://club.example/t/abc/", "https://club.example/t/def/"),
        reference="game 1",
    )
    [page] = pages(sheets.game_sheets_pdf([sheet]), scale=1.5)
    save_artifact(page, "print-game-sheet-long.png")
    assert is_a4(page.size)
    assert "De Zeer Lange Koppelnaam" in page.text and "Het Noorden" in page.text
    assert "Bartholomeus Kolibrië" in page.text
    assert "More rounds: continue on the back." in page.text
    assert "result 15 15" in page.text  # the legend wraps instead of losing its end


# ---------------------------------------------------------------- fonts


def test_the_sheet_font_has_every_letter_of_the_names() -> None:
    fonts = drawing.sheet_fonts()
    if not Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf").is_file():
        pytest.skip("Debian's fonts-dejavu-core is not installed here")
    assert fonts.source == "DejaVu Sans"
    for name in NAMES:
        assert drawing.font_covers(name, fonts.regular), name
        assert drawing.font_covers(name, fonts.bold), name
    assert not drawing.font_covers("漢字", fonts.regular)  # DejaVu has no Chinese


@pytest.fixture
def fresh_fonts(monkeypatch: Any) -> Iterator[None]:
    """Fonts looked up again in the test, and again after it with the real candidates."""
    drawing.sheet_fonts.cache_clear()
    yield
    monkeypatch.undo()
    drawing.sheet_fonts.cache_clear()
    assert drawing.sheet_fonts().source != "Helvetica"


def test_without_dejavu_the_fonts_inside_reportlab_are_used(
    monkeypatch: Any, fresh_fonts: None
) -> None:
    monkeypatch.setattr(drawing, "FONT_CANDIDATES", drawing.FONT_CANDIDATES[1:])
    fonts = drawing.sheet_fonts()
    assert fonts.source == "Bitstream Vera"
    assert drawing.font_covers("Ramdín Kolibrië Nuñez", fonts.regular)


def test_without_any_truetype_font_helvetica_is_used_with_a_warning(
    monkeypatch: Any, fresh_fonts: None, caplog: Any
) -> None:
    monkeypatch.setattr(drawing, "FONT_CANDIDATES", [])
    with caplog.at_level(logging.WARNING, logger="scoring.pdf.drawing"):
        fonts = drawing.sheet_fonts()
    assert fonts.regular == "Helvetica"
    assert "Helvetica" in caplog.text
    sheet = pairing_sheets.PairingSheet("Clubavond", "Matchday 1", (), ("Ramdín",))
    assert "Ramdín" in pages(pairing_sheets.pairings_pdf(sheet))[0].text  # Latin-1 still shows


# ---------------------------------------------------------------- the pairing sheet


def test_the_pairing_sheet_lists_tables_koppels_players_and_byes(
    client: Client, evening: Evening
) -> None:
    url = reverse("matchday_pairings_pdf", kwargs={"slug": "clubavond", "number": 1})
    response = client.get(url)  # public: nobody logged in
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    [page] = pages(response.content, scale=1.5)
    assert is_a4(page.size)
    assert 0.005 < ink(page.image) < 0.5
    save_artifact(page, "print-pairings.png")
    text = page.text
    for expected in [
        "Clubavond Wanica",
        "Matchday 1 · Friday 2 October 2026 · Pairings",
        "Kampoe Ñ",
        f"{NAMES[0]} & {NAMES[1]}",
        f"{NAMES[2]} & {NAMES[3]}",
        "Anand Jaggan & Ilse Kromo",
        "Bye: Bye Koppel & Rustende Speler",
    ]:
        assert expected in text, expected
    assert text.index("Kampoe Ñ") < text.index("Anand Jaggan")  # by table: 3, then 5
    assert GameLink.objects.count() == 0  # no table link is made (or shown) here


def test_a_long_pairing_sheet_repeats_its_header_on_every_page() -> None:
    pairings = tuple(
        pairing_sheets.Pairing(
            table=n, home=f"Home {n}", away=sheets.Koppel("Named", (f"A{n}", f"B{n}"))
        )
        for n in range(1, 80)
    )
    found = pages(
        pairing_sheets.pairings_pdf(pairing_sheets.PairingSheet("C", "Matchday 1", pairings, ()))
    )
    assert len(found) > 1
    assert all("Table" in page.text and "Home" in page.text for page in found)
    assert "page 2" in found[1].text
    assert "Home 79" in found[-1].text


def test_a_club_matchdays_pairing_sheet_shows_each_sittings_koppels(client: Client) -> None:
    competition = CompetitionFactory.create(slug="liga", kind=Competition.Kind.CLUBS)
    from tournaments.models import Club

    home = Entry.objects.create(
        competition=competition, club=Club.objects.create(key="kampoe", name="Kampoe")
    )
    away = Entry.objects.create(
        competition=competition, club=Club.objects.create(key="toppers", name="Toppers")
    )
    matchday = Matchday.objects.create(competition=competition, number=1)
    match = Match.objects.create(matchday=matchday, home=home, away=away, table=1)
    Game.objects.create(
        match=match,
        table=2,
        sitting=1,
        team_a=koppel("h1", "Hendrik Ré", "Sita Ré"),
        team_b=koppel("a1", "Otto Ñ", "Nel Ñ"),
    )
    url = reverse("matchday_pairings_pdf", kwargs={"slug": "liga", "number": 1})
    [page] = pages(client.get(url).content)
    assert "Kampoe" in page.text and "Toppers" in page.text
    assert "sitting 1: table 2: Hendrik Ré & Sita Ré – Otto Ñ & Nel Ñ" in page.text

    user = league_staff()
    client.force_login(user)
    url = reverse("matchday_sheets_pdf", kwargs={"slug": "liga", "number": 1})
    [sheet] = pages(client.get(url).content)
    assert "Table 2 · sitting 1" in sheet.text and "Kampoe – Toppers" in sheet.text


# ---------------------------------------------------------------- access


@pytest.mark.parametrize("name", ["game_sheet_pdf", "matchday_sheets_pdf"])
def test_sheets_with_qr_codes_are_for_directors_only(
    name: str, client: Client, evening: Evening
) -> None:
    kwargs: dict[str, Any] = {"slug": "clubavond"}
    kwargs.update({"game_id": evening.seated.pk} if name == "game_sheet_pdf" else {"number": 1})
    url = reverse(name, kwargs=kwargs)

    anonymous = client.get(url)
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    client.force_login(UserFactory.create())
    assert client.get(url).status_code == 403
    assert GameLink.objects.count() == 0  # refused before any link was made
    client.force_login(league_staff())
    assert client.get(url).status_code == 200


def test_unknown_games_and_matchdays_are_404(client: Client, evening: Evening) -> None:
    client.force_login(league_staff())
    CompetitionFactory.create(slug="other")  # the game is not of this one
    assert client.get(f"/c/other/game/{evening.seated.pk}/sheet.pdf").status_code == 404
    assert client.get("/c/clubavond/game/999999/sheet.pdf").status_code == 404
    assert client.get("/c/clubavond/matchday/9/sheets.pdf").status_code == 404
    assert client.get("/c/clubavond/matchday/9/pairings.pdf").status_code == 404
    assert client.get("/c/clubavond/standings.pdf/").status_code == 404
    assert client.get("/c/nope/results.csv/").status_code == 404


# ---------------------------------------------------------------- exports


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("=SUM(A1)", "'=SUM(A1)"),
        ("+31 6 1234", "'+31 6 1234"),
        ("-Ray", "'-Ray"),
        ("@home", "'@home"),
        ("\tTab", "'\tTab"),
        ("\rReturn", "'\rReturn"),
        ("Ramdín Sëwnath", "Ramdín Sëwnath"),
        ("Jan-Willem = 2", "Jan-Willem = 2"),
        ("", ""),
        (-12, -12),
        (0, 0),
        (42, 42),
        (None, ""),
        (datetime.date(2026, 10, 2), datetime.date(2026, 10, 2)),
    ],
)
def test_a_cell_that_would_start_a_formula_is_neutralised(value: Any, written: Any) -> None:
    assert neutralised(value) == written


@pytest.fixture
def stored(evening: Evening) -> Competition:
    """Hand-made standings rows (as a rebuild would store them), one with a negative saldo
    and a koppel named like a formula; the exports must read them as they are."""
    competition = evening.competition
    Team.objects.filter(key="k3").update(name="=SUM(A1)")
    Player.objects.filter(key="k4-1").update(name="-Ray")
    now = timezone.now()
    rows = [
        ("k1", 1, 2, 40, 12),
        ("k2", 2, 2, 30, 25),
        ("k4", 3, 0, 25, 37),
        ("k3", 4, 0, 12, 24),
    ]
    for key, rank, points, points_for, against in rows:
        Standing.objects.create(
            competition=competition,
            entry=Entry.objects.get(competition=competition, team__key=key),
            rank=rank,
            played=1,
            won=1 if points else 0,
            lost=0 if points else 1,
            points=points,
            points_for=points_for,
            points_against=against,
            saldo=points_for - against,
            computed_at=now,
        )
    Competition.objects.filter(pk=competition.pk).update(standings_computed_at=now)
    return competition


def download(client: Client, name: str, fmt: str) -> Any:
    response = client.get(reverse(name, kwargs={"slug": "clubavond", "fmt": fmt}))
    assert response.status_code == 200
    return response


def test_the_standings_csv_has_a_bom_names_and_numbers(client: Client, stored: Competition) -> None:
    response = download(client, "standings_export", "csv")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="clubavond-standings.csv"'
    assert response.content.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    header = rows[0]
    assert header[:3] == ["Rank", "Koppel", "Players"]
    assert {"Played", "Won", "Points", "Points for", "Points against", "Saldo"} <= set(header)
    assert "Head-to-head" in header  # a tie-break of the competition: the page shows it too
    by_rank = {row[0]: dict(zip(header, row, strict=True)) for row in rows[1:]}
    assert by_rank["1"]["Koppel"] == "Kampoe Ñ"
    assert by_rank["1"]["Players"] == f"{NAMES[0]} & {NAMES[1]}"
    assert by_rank["1"]["Saldo"] == "28"
    assert by_rank["3"]["Saldo"] == "-12"  # a number, not '-12
    assert by_rank["3"]["Players"] == "'-Ray & Gerda Vlijter"
    assert by_rank["4"]["Koppel"] == "'=SUM(A1)"
    assert by_rank["4"]["Head-to-head"] == ""


def test_the_standings_xlsx_keeps_numbers_numeric(client: Client, stored: Competition) -> None:
    response = download(client, "standings_export", "xlsx")
    assert response["Content-Disposition"] == 'attachment; filename="clubavond-standings.xlsx"'
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    assert sheet is not None
    rows = list(sheet.iter_rows())
    header = [cell.value for cell in rows[0]]
    saldo = header.index("Saldo")
    cells = {row[0].value: row for row in rows[1:]}
    assert cells[3][saldo].value == -12 and cells[3][saldo].data_type == "n"
    assert cells[1][header.index("Points")].value == 2
    assert cells[4][1].value == "'=SUM(A1)" and cells[4][1].data_type == "s"
    assert cells[1][1].value == "Kampoe Ñ"
    assert not [cell for row in rows for cell in row if cell.data_type == "f"]  # no formula


def test_the_standings_export_reads_the_stored_rows(client: Client, stored: Competition) -> None:
    """Rows a rebuild would not make (no game was played) come out as stored."""
    response = download(client, "standings_export", "csv")
    assert "Kampoe Ñ" in response.content.decode("utf-8-sig")
    assert Standing.objects.filter(competition=stored, saldo=-12).exists()


def test_the_results_export_has_every_match_its_score_status_and_byes(
    client: Client, evening: Evening
) -> None:
    game_rounds_load(
        game_id=evening.seated.pk,
        rounds=[RoundRecord(result="gewone_winst", side="a")] * 9
        + [RoundRecord(result="kap", side="b"), RoundRecord(result="gewone_winst", side="a")],
    )
    response = download(client, "results_export", "csv")
    assert response["Content-Disposition"] == 'attachment; filename="clubavond-results.csv"'
    assert response.content.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == [
        "Matchday",
        "Date",
        "Table",
        "Home",
        "Home players",
        "Away",
        "Away players",
        "Home score",
        "Away score",
        "Status",
    ]
    assert rows[1] == [
        "1",
        "2026-10-02",
        "3",
        "Kampoe Ñ",
        f"{NAMES[0]} & {NAMES[1]}",
        f"{NAMES[2]} & {NAMES[3]}",
        f"{NAMES[2]} & {NAMES[3]}",
        "20",
        "5",
        "finished",
    ]
    assert rows[2][2:4] == ["5", "Anand Jaggan & Ilse Kromo"]
    assert rows[2][7:] == ["", "", "not started"]
    assert rows[3][3] == "Bye Koppel & Rustende Speler" and rows[3][-1] == "bye"

    workbook = openpyxl.load_workbook(
        io.BytesIO(download(client, "results_export", "xlsx").content)
    )
    sheet = workbook.active
    assert sheet is not None
    assert sheet.cell(row=2, column=8).value == 20 and sheet.cell(row=2, column=8).data_type == "n"
    assert sheet.cell(row=2, column=1).value == 1


# ---------------------------------------------------------------- query counts


def big_matchday(koppels: int) -> Competition:
    """A pairs competition of `koppels` koppels, all paired on matchday 1 (one game a table,
    seats set), with one bye and stored standings: made in bulk."""
    competition = CompetitionFactory.create(slug=f"size-{koppels}")
    players = Player.objects.bulk_create(
        [Player(key=f"s{koppels}-p{n}", name=f"Spelér {n}") for n in range(2 * koppels + 2)]
    )
    teams = Team.objects.bulk_create(
        [
            Team(key=f"s{koppels}-t{n}", player_1=players[2 * n], player_2=players[2 * n + 1])
            for n in range(koppels + 1)
        ]
    )
    entries = Entry.objects.bulk_create(
        [Entry(competition=competition, team=team) for team in teams]
    )
    matchday = Matchday.objects.create(competition=competition, number=1)
    matches = Match.objects.bulk_create(
        [
            Match(matchday=matchday, home=entries[n], away=entries[n + 1], table=n // 2 + 1)
            for n in range(0, koppels, 2)
        ]
    )
    Game.objects.bulk_create(
        [
            Game(
                match=match,
                table=index + 1,
                team_a=teams[2 * index],
                team_b=teams[2 * index + 1],
                seat_1=teams[2 * index].player_1,
                seat_2=teams[2 * index + 1].player_1,
                seat_3=teams[2 * index].player_2,
                seat_4=teams[2 * index + 1].player_2,
            )
            for index, match in enumerate(matches)
        ]
    )
    Bye.objects.create(matchday=matchday, entry=entries[-1])
    now = timezone.now()
    Standing.objects.bulk_create(
        [
            Standing(competition=competition, entry=entry, rank=rank, computed_at=now)
            for rank, entry in enumerate(entries, start=1)
        ]
    )
    return competition


def count_queries(client: Client, url: str) -> int:
    client.get(url)  # warm: the session; the table links are made on the first print
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(captured.captured_queries)


@pytest.mark.heavy
@pytest.mark.parametrize(
    ("name", "kwargs", "budget"),
    [
        ("matchday_sheets_pdf", {"number": 1}, 11),  # 2 of them: the links' savepoint
        ("matchday_pairings_pdf", {"number": 1}, 3),
        ("standings_export", {"fmt": "csv"}, 3),
        ("standings_export", {"fmt": "xlsx"}, 3),
        ("results_export", {"fmt": "csv"}, 5),
    ],
)
def test_print_and_export_queries_are_flat(
    name: str, kwargs: dict[str, Any], budget: int, client: Client
) -> None:
    small, large = big_matchday(4), big_matchday(200)
    client.force_login(league_staff())
    counts = [
        count_queries(client, reverse(name, kwargs={"slug": c.slug, **kwargs}))
        for c in (small, large)
    ]
    assert counts[0] == counts[1], f"{name}: {counts[0]} queries at 4 koppels, {counts[1]} at 200"
    assert counts[1] <= budget, f"{name}: {counts[1]} queries, budget {budget}"
    # The 200-koppel matchday prints one sheet a table: 100 pages.
    if name == "matchday_sheets_pdf":
        data = client.get(reverse(name, kwargs={"slug": large.slug, **kwargs})).content
        assert len(pdfium.PdfDocument(data)) == 100


@pytest.mark.nl
def test_a_dutch_csv_splits_on_semicolons(client: Client, stored: Competition) -> None:
    """Dutch Excel's list separator is ";" (its decimal mark the comma): a Dutch reader's
    CSV uses it, with the same BOM, names and numbers."""
    response = download(client, "standings_export", "csv")
    text = response.content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text), delimiter=";"))
    assert rows[0][:3] == ["Positie", "Koppel", "Spelers"]
    assert len({len(row) for row in rows}) == 1 and len(rows[0]) > 5
