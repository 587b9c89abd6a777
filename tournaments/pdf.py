"""Printed paper for the club evening, drawn with ReportLab: one A4 score sheet a game
(`game_sheets_pdf`) and a matchday's pairing sheet (`pairings_pdf`).

This module only draws: it takes plain dataclasses (`GameSheet`, `PairingSheet`) whose
texts were read and worded by the views (`tournaments.export_views`), and returns the
PDF's bytes. Fixed labels go through gettext in the language active when it is called.

Fonts: ReportLab's built-in Helvetica knows only Latin-1-ish (WinAnsi) characters, and
player names may hold any letter. `sheet_fonts` registers DejaVu Sans (Debian's
fonts-dejavu-core) where it is installed, else Bitstream Vera, which ships inside the
reportlab wheel itself (its Latin-1 covers é, ë, ñ), and only then falls back to
Helvetica with a logged warning.
"""

from __future__ import annotations

import functools
import io
import itertools
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

import reportlab
from django.utils.translation import gettext as _
from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

logger = logging.getLogger(__name__)

PAGE_WIDTH, PAGE_HEIGHT = A4
MARGIN = 14 * mm
# The table link's QR code, top right of a score sheet: x, y (bottom left) and size in
# points. Tests find the code on the rendered page by these.
QR_SIZE = 96.0
QR_X = PAGE_WIDTH - MARGIN - QR_SIZE
QR_Y = PAGE_HEIGHT - MARGIN - QR_SIZE
# A crease or a coffee ring on a paper sheet should not make the code unreadable:
# level M restores 15% of the modules.
QR_LEVEL = "M"
QR_BORDER = 4  # modules of white around the code, as the standard asks
# Lines of the round grid: never so thin that a pen can't write in them. Rows that would
# not fit a page at this height are left off (a game of 40 rounds continues on the back).
GRID_ROW_MIN = 11.0
GRID_ROW_MAX = 18.0

_DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
_BUNDLED = Path(reportlab.__file__).resolve().parent / "fonts"
# (regular, bold, name) in the order tried: Debian's DejaVu Sans covers Latin, Greek and
# Cyrillic; reportlab's own Bitstream Vera (always installed with it) covers Latin-1.
FONT_CANDIDATES: list[tuple[Path, Path, str]] = [
    (_DEJAVU / "DejaVuSans.ttf", _DEJAVU / "DejaVuSans-Bold.ttf", "DejaVu Sans"),
    (_BUNDLED / "Vera.ttf", _BUNDLED / "VeraBd.ttf", "Bitstream Vera"),
]


@dataclass(frozen=True, slots=True)
class Fonts:
    """The registered font names to draw with, and where they came from."""

    regular: str
    bold: str
    source: str


@functools.cache
def sheet_fonts() -> Fonts:
    """Register and return the sheet fonts: the first of `FONT_CANDIDATES` that loads,
    else Helvetica (logged: letters outside Latin-1 then show as empty boxes). Registered
    once a process; `sheet_fonts.cache_clear()` looks again."""
    for regular, bold, source in FONT_CANDIDATES:
        if not (regular.is_file() and bold.is_file()):
            continue
        # Registered under the files' own names: ReportLab never replaces a registered
        # font, so one name for two files would keep whichever came first.
        names = (regular.stem, bold.stem)
        try:
            for name, path in zip(names, (regular, bold), strict=True):
                pdfmetrics.registerFont(TTFont(name, str(path)))
        except Exception:  # noqa: BLE001 - a broken font file: try the next one
            logger.warning("font %s could not be loaded", regular, exc_info=True)
            continue
        pdfmetrics.registerFontFamily(
            names[0], normal=names[0], bold=names[1], italic=names[0], boldItalic=names[1]
        )
        return Fonts(regular=names[0], bold=names[1], source=source)
    logger.warning(
        "No TrueType font found (DejaVu Sans or reportlab's Vera): the PDF sheets use "
        "Helvetica, which cannot show every letter of every name."
    )
    return Fonts(regular="Helvetica", bold="Helvetica-Bold", source="Helvetica")


def font_covers(text: str, font: str) -> bool:
    """Whether the registered TrueType `font` has a glyph for every character of `text`
    (white space aside). Standard fonts (Helvetica) are taken to cover Latin-1 only."""
    face = getattr(pdfmetrics.getFont(font), "face", None)
    chars = {ord(char) for char in text if not char.isspace()}
    if face is None:
        return all(code < 256 for code in chars)
    return chars <= set(face.charToGlyph)


# ---------------------------------------------------------------- what goes on the paper


@dataclass(frozen=True, slots=True)
class Koppel:
    """A koppel as printed: its shown name and its two players."""

    name: str
    players: tuple[str, str]

    @property
    def players_line(self) -> str:
        return f"{self.players[0]} & {self.players[1]}"

    @property
    def named(self) -> bool:
        """Whether the koppel has a name of its own (else its name is its players)."""
        return self.name != self.players_line


@dataclass(frozen=True, slots=True)
class GameSheet:
    """One game's score sheet.

    `place` is the matchday line ("Matchday 3 · Friday 2 October 2026"); `sitting` and
    `match` are set for a club match (its sitting and "home club – away club"). `seats`
    are the four players clockwise (seats 1 and 3 are koppel A), None when not set yet:
    the sheet then has blank lines to write them on. `first_caller` is the seat (1-4)
    that calls the first round, when known. `target` says how the game ends ("20
    points"), `legend` lists the results with their points. `url` is the table link the
    QR code holds.
    """

    competition: str
    place: str
    table: int
    sitting: int | None
    match: str | None
    koppel_a: Koppel
    koppel_b: Koppel
    seats: tuple[str, str, str, str] | None
    first_caller: int | None
    target: str
    grid_rows: int
    legend: str
    url: str
    reference: str


@dataclass(frozen=True, slots=True)
class Pairing:
    """One table of the pairing sheet: home and away as printed, and for a club match
    its games, a line a sitting ("sitting 1: table 2 koppel – koppel · table 3 ...")."""

    table: int | None
    home: Koppel | str
    away: Koppel | str
    games: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PairingSheet:
    """A matchday's pairing sheet: the tables in order and the entries that have a bye."""

    competition: str
    place: str
    pairings: tuple[Pairing, ...]
    byes: tuple[Koppel | str, ...]


# ---------------------------------------------------------------- drawing helpers


def fit(text: str, font: str, size: float, width: float, *, smallest: float = 7.0) -> float:
    """The font size, at most `size` and at least `smallest`, at which `text` fits
    `width` points (the caller clips what still doesn't fit, see `clipped`)."""
    needed = pdfmetrics.stringWidth(text, font, size)
    if needed <= width:
        return size
    return max(smallest, size * width / needed)


def clipped(text: str, font: str, size: float, width: float) -> str:
    """`text` cut with an ellipsis so it fits `width` points at `size`."""
    if pdfmetrics.stringWidth(text, font, size) <= width:
        return text
    while text and pdfmetrics.stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text.rstrip() + "…"


class _Pen:
    """A canvas with the sheet's fonts: text that fits its box, lines, labels."""

    def __init__(self, canvas: Canvas, fonts: Fonts) -> None:
        self.canvas = canvas
        self.fonts = fonts

    def text(
        self,
        x: float,
        y: float,
        text: str,
        *,
        size: float = 10,
        bold: bool = False,
        width: float | None = None,
        align: str = "left",
        color: colors.Color = colors.black,
    ) -> None:
        font = self.fonts.bold if bold else self.fonts.regular
        if width is not None:
            size = fit(text, font, size, width)
            text = clipped(text, font, size, width)
        self.canvas.setFillColor(color)
        self.canvas.setFont(font, size)
        if align == "right":
            self.canvas.drawRightString(x, y, text)
        elif align == "center":
            self.canvas.drawCentredString(x, y, text)
        else:
            self.canvas.drawString(x, y, text)
        self.canvas.setFillColor(colors.black)

    def lines(
        self,
        x: float,
        y: float,
        text: str,
        *,
        size: float,
        width: float,
        bold: bool = False,
        most: int = 2,
        color: colors.Color = colors.black,
    ) -> int:
        """`text` wrapped to `width` on at most `most` lines (the last one clipped), the
        first at `y`; returns the lines drawn. A long name stays readable, not shrunk."""
        font = self.fonts.bold if bold else self.fonts.regular
        wrapped = simpleSplit(text, font, size, width) or [""]
        if len(wrapped) > most:
            wrapped = [*wrapped[: most - 1], " ".join(wrapped[most - 1 :])]
        for index, line in enumerate(wrapped):
            top = y - index * size * 1.2
            self.text(x, top, line, size=size, bold=bold, width=width, color=color)
        return len(wrapped)

    def line(self, x1: float, y1: float, x2: float, y2: float, *, width: float = 0.5) -> None:
        self.canvas.setLineWidth(width)
        self.canvas.line(x1, y1, x2, y2)


def qr_widget(url: str) -> QrCodeWidget:
    """ReportLab's QR code widget for `url`, at `QR_LEVEL`, encoded (`widget.qr`)."""
    widget = QrCodeWidget(url, barLevel=QR_LEVEL, barBorder=QR_BORDER)
    widget.qr.make()
    return widget


def qr_modules(url: str) -> list[list[bool]]:
    """The QR code of `url` as rows of modules, top row first; True is dark."""
    return [[bool(module) for module in row] for row in qr_widget(url).qr.modules]


def draw_qr(canvas: Canvas, url: str, x: float, y: float, size: float) -> None:
    """The QR code of `url` in the square of `size` points at (x, y), bottom left, with the
    standard quiet zone of `QR_BORDER` modules inside it.

    The widget encodes; its modules are drawn here as one filled path, not through the
    widget's shape tree (one validated shape a run of modules: 0.1 s a sheet, most of the
    time of a 100-table matchday), which also leaves no seams between touching modules.
    """
    rows = qr_modules(url)
    module = size / (len(rows) + 2 * QR_BORDER)
    path = canvas.beginPath()
    for index, row in enumerate(rows):
        top = y + size - (QR_BORDER + index) * module
        column = 0
        for dark, run in itertools.groupby(row):
            length = len(list(run))
            if dark:
                path.rect(x + (QR_BORDER + column) * module, top - module, length * module, module)
            column += length
    canvas.saveState()
    canvas.setFillColor(colors.black)
    canvas.drawPath(path, stroke=0, fill=1)
    canvas.restoreState()


# ---------------------------------------------------------------- the score sheet


def game_sheets_pdf(sheets: Sequence[GameSheet], *, title: str = "") -> bytes:
    """The PDF of `sheets`, one A4 page each (an empty page when there are none)."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4, pageCompression=1)
    canvas.setTitle(title or (sheets[0].competition if sheets else ""))
    canvas.setCreator("troefclub")
    pen = _Pen(canvas, sheet_fonts())
    for sheet in sheets:
        _draw_sheet(pen, sheet)
        canvas.showPage()
    if not sheets:
        pen.text(MARGIN, PAGE_HEIGHT - MARGIN - 20, _("No games on this matchday."), size=12)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _draw_sheet(pen: _Pen, sheet: GameSheet) -> None:
    left, right = MARGIN, PAGE_WIDTH - MARGIN
    width = right - left
    head_width = QR_X - left - 12
    top = PAGE_HEIGHT - MARGIN

    # Heading: competition, matchday, the table big (what players look for), the target.
    pen.text(left, top - 14, sheet.competition, size=15, bold=True, width=head_width)
    pen.text(left, top - 30, sheet.place, size=10.5, width=head_width)
    table = _("Table %(table)s") % {"table": sheet.table}
    if sheet.sitting is not None:
        table += " · " + _("sitting %(sitting)s") % {"sitting": sheet.sitting}
    pen.text(left, top - 60, table, size=24, bold=True, width=head_width)
    y = top - 78
    if sheet.match:
        pen.text(left, y, sheet.match, size=10.5, width=head_width)
        y -= 14
    pen.text(left, y, _("Target: %(target)s") % {"target": sheet.target}, size=10.5, bold=True)

    # The table link: the QR code and what it is for.
    draw_qr(pen.canvas, sheet.url, QR_X, QR_Y, QR_SIZE)
    pen.text(
        QR_X + QR_SIZE / 2,
        QR_Y - 8,
        _("Scan to enter the rounds"),
        size=7,
        align="center",
        width=QR_SIZE + 20,
    )

    # The two koppels side by side.
    y = QR_Y - 24
    column = (width - 16) / 2
    depth = 0.0
    for index, (letter, koppel) in enumerate((("A", sheet.koppel_a), ("B", sheet.koppel_b))):
        x = left + index * (column + 16)
        pen.text(x, y, _("Koppel %(letter)s") % {"letter": letter}, size=8, color=colors.grey)
        count = pen.lines(x, y - 15, koppel.name, size=12.5, bold=True, width=column)
        below = y - 15 - 15 * (count - 1)  # the last line of the name
        if koppel.named:
            count = pen.lines(x, below - 14, koppel.players_line, size=10, width=column)
            below -= 14 + 12 * (count - 1)
        depth = max(depth, y - below)
    y -= depth + 21

    # Seats clockwise (1 and 3 are koppel A), written on blank lines when not set yet.
    pen.text(left, y, _("Seats (clockwise)"), size=8, color=colors.grey)
    seat_width = width / 4
    for index in range(4):
        x = left + index * seat_width
        letter = "A" if index % 2 == 0 else "B"
        label = _("Seat %(seat)s · koppel %(letter)s") % {"seat": index + 1, "letter": letter}
        pen.text(x, y - 12, label, size=7.5, width=seat_width - 8)
        if sheet.seats is not None:
            pen.text(x, y - 26, sheet.seats[index], size=10.5, width=seat_width - 8)
        else:
            pen.line(x, y - 28, x + seat_width - 10, y - 28)
        if sheet.first_caller == index + 1:
            # On its own line under the name: after the seat label it was clipped in Dutch
            # ("Plaats 4 · koppel B · roept als ee…"), a quarter of the page is too narrow.
            pen.text(x, y - 38, _("calls first"), size=7.5, bold=True, width=seat_width - 8)
    y -= 40
    if sheet.first_caller is None:
        pen.text(left, y, _("First caller: seat"), size=9)
        start = left + pdfmetrics.stringWidth(_("First caller: seat"), pen.fonts.regular, 9) + 4
        pen.line(start, y - 2, start + 40, y - 2)
        y -= 16
    else:
        y -= 12

    # The round grid, to the bottom less the legend and the signatures.
    footer_height = 122
    _draw_grid(pen, sheet, top=y, bottom=MARGIN + footer_height, left=left, width=width)

    # Legend, final score and the signatures of both koppels.
    y = MARGIN + footer_height - 10
    legend = pen.lines(left, y, sheet.legend, size=7, width=width, color=colors.dimgrey)
    y -= 22 + 8.4 * (legend - 1)
    pen.text(left, y, _("Final score"), size=10, bold=True)
    pen.text(left + 90, y, "A", size=10)
    pen.line(left + 100, y - 2, left + 150, y - 2)
    pen.text(left + 160, y, "B", size=10)
    pen.line(left + 170, y - 2, left + 220, y - 2)
    y -= 22
    pen.text(left, y, _("Both koppels confirm the score by signing."), size=8)
    y -= 34
    column = (width - 24) / 2
    for index, (letter, koppel) in enumerate((("A", sheet.koppel_a), ("B", sheet.koppel_b))):
        x = left + index * (column + 24)
        pen.line(x, y, x + column, y)
        caption = _("Koppel %(letter)s: %(name)s") % {"letter": letter, "name": koppel.name}
        pen.text(x, y - 10, caption, size=7.5, width=column)
    pen.text(right, MARGIN - 16, sheet.reference, size=6.5, align="right", color=colors.grey)


def _draw_grid(
    pen: _Pen, sheet: GameSheet, *, top: float, bottom: float, left: float, width: float
) -> None:
    """The round grid: number, caller, result, points A and B, running totals A and B."""
    header = 22.0
    rows = sheet.grid_rows
    row = min(GRID_ROW_MAX, (top - bottom - header) / rows)
    if row < GRID_ROW_MIN:  # cut, leaving a line under the grid to say so
        row = GRID_ROW_MIN
        rows = int((top - bottom - header - 12) // row)
    # Widths: the number narrow, the words wide, four equal number columns.
    narrow, points = 24.0, 52.0
    words = (width - narrow - 4 * points) / 2
    columns = [
        ("#", narrow),
        (_("Caller"), words),
        (_("Result"), words),
        (_("Points A"), points),
        (_("Points B"), points),
        (_("Total A"), points),
        (_("Total B"), points),
    ]
    edges = [left]
    for _label, column_width in columns:
        edges.append(edges[-1] + column_width)
    bottom_line = top - header - rows * row
    canvas = pen.canvas
    canvas.setFillColor(colors.Color(0.92, 0.92, 0.92))
    canvas.rect(left, top - header, width, header, stroke=0, fill=1)
    # The running totals are what both koppels check: shade them lightly.
    canvas.setFillColor(colors.Color(0.965, 0.965, 0.965))
    canvas.rect(edges[5], bottom_line, edges[7] - edges[5], rows * row, stroke=0, fill=1)
    canvas.setFillColor(colors.black)
    for (label, column_width), x in zip(columns, edges, strict=False):
        pen.text(
            x + column_width / 2,
            top - 14,
            label,
            size=8,
            bold=True,
            align="center",
            width=column_width - 4,
        )
    for index in range(rows + 1):
        y = top - header - index * row
        pen.line(left, y, left + width, y, width=0.4)
    pen.line(left, top, left + width, top, width=0.8)
    number_size = min(8.5, row * 0.6)
    for index in range(rows):
        y = top - header - (index + 1) * row + (row - number_size) / 2 + 1
        pen.text(
            edges[0] + narrow / 2,
            y,
            str(index + 1),
            size=number_size,
            align="center",
            color=colors.dimgrey,
        )
    for x in edges:
        pen.line(x, top, x, bottom_line, width=0.8 if x in (edges[0], edges[5], edges[7]) else 0.4)
    pen.line(left, bottom_line, left + width, bottom_line, width=0.8)
    if rows < sheet.grid_rows:
        pen.text(
            left + width,
            bottom_line - 9,
            _("More rounds: continue on the back."),
            size=7,
            align="right",
        )


# ---------------------------------------------------------------- the pairing sheet


def pairings_pdf(sheet: PairingSheet) -> bytes:
    """The pairing sheet of a matchday: every table with its two sides (and a club
    match's games), then the byes; as many A4 pages as it takes, the header repeated."""
    fonts = sheet_fonts()
    buffer = io.BytesIO()
    title = f"{sheet.competition} · {sheet.place}"
    document = SimpleDocTemplate(
        buffer,
        pagesize=A4,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN,
        bottomMargin=MARGIN + 6,
        title=title,
        creator="troefclub",
    )
    style = _styles(fonts)
    story: list[Any] = [
        Paragraph(escape(sheet.competition), style["title"]),
        Paragraph(escape(sheet.place) + " · " + escape(_("Pairings")), style["subtitle"]),
        Spacer(1, 6),
    ]
    if sheet.pairings:
        story.append(_pairings_table(sheet, style, document.width))
    else:
        story.append(Paragraph(escape(_("No tables paired yet.")), style["cell"]))
    if sheet.byes:
        story.append(Spacer(1, 10))
        names = ", ".join(_side_text(bye) for bye in sheet.byes)
        story.append(Paragraph(f"<b>{escape(_('Bye'))}:</b> {names}", style["cell"]))
    document.build(story, onFirstPage=_page_number(fonts), onLaterPages=_page_number(fonts))
    return buffer.getvalue()


def _styles(fonts: Fonts) -> dict[str, ParagraphStyle]:
    # Names big enough to find one's own table on a sheet pinned to the wall.
    base = ParagraphStyle("cell", fontName=fonts.regular, fontSize=12, leading=15)
    return {
        "title": ParagraphStyle("title", base, fontName=fonts.bold, fontSize=16, leading=20),
        "subtitle": ParagraphStyle("subtitle", base, fontSize=11.5, leading=15),
        "cell": base,
        "small": ParagraphStyle("small", base, fontSize=9.5, leading=12),
        "table": ParagraphStyle(
            "table", base, fontName=fonts.bold, fontSize=16, leading=19, alignment=1
        ),
        "head": ParagraphStyle("head", base, fontName=fonts.bold, fontSize=9, leading=11),
    }


def _side_text(side: Koppel | str) -> str:
    """A side as paragraph markup: a named koppel in bold with its players after it."""
    if isinstance(side, str):
        return f"<b>{escape(side)}</b>"
    if side.named:
        return f"<b>{escape(side.name)}</b> ({escape(side.players_line)})"
    return f"<b>{escape(side.name)}</b>"


def _side_cell(side: Koppel | str, style: dict[str, ParagraphStyle]) -> list[Paragraph]:
    if isinstance(side, str) or not side.named:
        name = side if isinstance(side, str) else side.name
        return [Paragraph(f"<b>{escape(name)}</b>", style["cell"])]
    return [
        Paragraph(f"<b>{escape(side.name)}</b>", style["cell"]),
        Paragraph(escape(side.players_line), style["small"]),
    ]


def _pairings_table(sheet: PairingSheet, style: dict[str, ParagraphStyle], width: float) -> Table:
    number, dash = 44.0, 14.0
    side = (width - number - dash) / 2
    rows: list[list[Any]] = [
        [
            Paragraph(escape(_("Table")), style["head"]),
            Paragraph(escape(_("Home")), style["head"]),
            "",
            Paragraph(escape(_("Away")), style["head"]),
        ]
    ]
    spans: list[tuple[Any, ...]] = []
    for pairing in sheet.pairings:
        rows.append(
            [
                Paragraph("—" if pairing.table is None else str(pairing.table), style["table"]),
                _side_cell(pairing.home, style),
                "–",
                _side_cell(pairing.away, style),
            ]
        )
        if pairing.games:
            lines = "<br/>".join(escape(line) for line in pairing.games)
            rows.append(["", Paragraph(lines, style["small"]), "", ""])
            spans.append(("SPAN", (1, len(rows) - 1), (3, len(rows) - 1)))
    table = Table(rows, colWidths=[number, side, dash, side], repeatRows=1)
    table.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, -1), sheet_fonts().regular),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("ALIGN", (2, 0), (2, -1), "CENTER"),
                ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.black),
                ("LINEBELOW", (0, 1), (-1, -1), 0.3, colors.grey),
                ("TOPPADDING", (0, 1), (-1, -1), 5),
                ("BOTTOMPADDING", (0, 1), (-1, -1), 5),
                *spans,
            ]
        )
    )
    return table


def _page_number(fonts: Fonts) -> Callable[[Canvas, Any], None]:
    def draw(canvas: Canvas, document: Any) -> None:
        canvas.saveState()
        canvas.setFont(fonts.regular, 7.5)
        canvas.setFillColor(colors.grey)
        page = _("page %(number)s") % {"number": document.page}
        canvas.drawRightString(PAGE_WIDTH - MARGIN, MARGIN - 8, page)
        canvas.restoreState()

    return draw
