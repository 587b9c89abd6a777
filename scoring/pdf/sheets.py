"""A game's printed score sheet: the koppels, seats and first caller, a grid for the rounds,
and the QR code of the game's table link.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from scoring.pdf.drawing import (
    GRID_ROW_MAX,
    GRID_ROW_MIN,
    MARGIN,
    PAGE_HEIGHT,
    PAGE_WIDTH,
    QR_GAP,
    QR_SIZE,
    QR_XS,
    QR_Y,
    Pen,
    draw_qr,
    sheet_fonts,
)


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
    points"), `legend` lists the results with their points. `urls` are the two koppels'
    table links (A's, B's) their QR codes hold.
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
    urls: tuple[str, str]
    reference: str


def game_sheets_pdf(sheets: Sequence[GameSheet], *, title: str = "") -> bytes:
    """The PDF of `sheets`, one A4 page each (an empty page when there are none)."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4, pageCompression=1)
    canvas.setTitle(title or (sheets[0].competition if sheets else ""))
    canvas.setCreator("troefclub")
    pen = Pen(canvas, sheet_fonts())
    for sheet in sheets:
        _draw_sheet(pen, sheet)
        canvas.showPage()
    if not sheets:
        pen.text(MARGIN, PAGE_HEIGHT - MARGIN - 20, _("No games on this matchday."), size=12)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _draw_sheet(pen: Pen, sheet: GameSheet) -> None:
    left, right = MARGIN, PAGE_WIDTH - MARGIN
    width = right - left
    head_width = QR_XS["a"] - left - 12
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

    # The table links, one per koppel: its QR code and whose it is. Each koppel scans its
    # own: the one that enters the rounds can't confirm them.
    for (letter, koppel), url in zip(
        (("a", sheet.koppel_a), ("b", sheet.koppel_b)), sheet.urls, strict=True
    ):
        x = QR_XS[letter]
        draw_qr(pen.canvas, url, x, QR_Y, QR_SIZE)
        caption = _("Koppel %(letter)s scans this") % {"letter": letter.upper()}
        pen.text(
            x + QR_SIZE / 2,
            QR_Y - 8,
            caption,
            size=7,
            bold=True,
            align="center",
            width=QR_SIZE + QR_GAP - 2,
        )
        pen.text(
            x + QR_SIZE / 2,
            QR_Y - 16,
            koppel.name,
            size=6.5,
            align="center",
            width=QR_SIZE + QR_GAP - 2,
        )

    # The two koppels side by side.
    y = QR_Y - 32
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
    pen: Pen, sheet: GameSheet, *, top: float, bottom: float, left: float, width: float
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
