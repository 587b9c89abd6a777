"""A play-off's printed bracket: each round's ties with their seeds, aggregate score and
who went through, for the hall's wall."""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from scoring.pdf.drawing import MARGIN, sheet_fonts


@dataclass(frozen=True, slots=True)
class BracketLine:
    """One tie as printed: the two sides ("1. Kampoe", or "—" while unknown), the score
    ("" before it counts) and the winner's name ("" until decided)."""

    home: str
    away: str
    score: str
    winner: str


@dataclass(frozen=True, slots=True)
class BracketSheet:
    title: str
    subtitle: str
    rounds: tuple[tuple[str, tuple[BracketLine, ...]], ...]  # (round name, ties)
    winner_label: str


def bracket_pdf(sheet: BracketSheet) -> bytes:
    """The bracket on A4: a section a round, a row a tie."""
    fonts = sheet_fonts()
    buffer = io.BytesIO()
    document = SimpleDocTemplate(
        buffer,
        pagesize=A4,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN,
        bottomMargin=MARGIN,
        title=sheet.title,
        creator="troefclub",
    )
    base = ParagraphStyle("cell", fontName=fonts.regular, fontSize=12, leading=15)
    bold = ParagraphStyle("bold", base, fontName=fonts.bold)
    title = ParagraphStyle("title", bold, fontSize=16, leading=20)
    story: list[Any] = [
        Paragraph(escape(sheet.title), title),
        Paragraph(escape(sheet.subtitle), base),
        Spacer(1, 8),
    ]
    width = document.width
    for name, lines in sheet.rounds:
        story.append(Paragraph(escape(name), bold))
        rows = [
            [
                Paragraph(escape(line.home), base),
                "–",
                Paragraph(escape(line.away), base),
                Paragraph(escape(line.score), base),
                Paragraph(escape(line.winner), bold),
            ]
            for line in lines
        ]
        table = Table(
            rows,
            colWidths=[width * 0.3, width * 0.04, width * 0.3, width * 0.12, width * 0.24],
        )
        table.setStyle(
            TableStyle(
                [
                    ("GRID", (0, 0), (-1, -1), 0.5, colors.grey),
                    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ]
            )
        )
        story += [table, Spacer(1, 10)]
    document.build(story)
    return buffer.getvalue()
