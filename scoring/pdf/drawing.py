"""What the printed sheets draw with: A4 pages, fonts that cover the names (DejaVu Sans,
else reportlab's Bitstream Vera), texts fitted to a width, QR codes.
"""

from __future__ import annotations

import functools
import itertools
import logging
from dataclasses import dataclass
from pathlib import Path

import reportlab
from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

logger = logging.getLogger(__name__)


PAGE_WIDTH, PAGE_HEIGHT = A4

MARGIN = 14 * mm

# The table links' QR codes, top right of a score sheet, koppel A's left of koppel B's:
# x, y (bottom left) and size in points. Tests find the codes on the rendered page by these.
QR_SIZE = 96.0

QR_GAP = 14.0

QR_X = PAGE_WIDTH - MARGIN - QR_SIZE

# Where each koppel's code starts: {"a": x, "b": x}.
QR_XS = {"a": QR_X - QR_SIZE - QR_GAP, "b": QR_X}

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


class Pen:
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
