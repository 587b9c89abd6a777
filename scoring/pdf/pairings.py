"""A matchday's printed pairing sheet: every table with its koppels (and a club match's
sittings), for the hall's wall.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from scoring.pdf.drawing import MARGIN, PAGE_WIDTH, Fonts, sheet_fonts
from scoring.pdf.sheets import Koppel


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
