"""`{% load qr %}{{ url|qr_svg }}`: a QR code of an absolute URL as inline SVG (segno).

For the table links of issue 8 (the director's link page, printed score sheets, the
board): a phone's camera opens the table's own score page. Inline SVG needs no image
request and no inline style, so the Content-Security-Policy stays as it is.
"""

from __future__ import annotations

import segno
from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

register = template.Library()

# Pixels a module: a version 4 code (a link of ~60 characters) is 33 modules wide, plus
# the quiet zone; the page scales the SVG with CSS (class `qr-code`) anyway.
QR_SCALE = 4
# Quiet zone around the code, in modules: 4 is the standard, needed on a busy page.
QR_BORDER = 4


@register.filter(is_safe=True)
def qr_svg(url: str) -> SafeString:
    """`url` as an inline `<svg class="qr-code">` QR code (error correction M: a printed
    sheet survives a crease), black on white whatever the page's colours, titled for
    screen readers. An empty `url` gives an empty string."""
    if not url:
        return mark_safe("")
    code = segno.make(str(url), error="m", micro=False)
    svg = code.svg_inline(
        scale=QR_SCALE,
        border=QR_BORDER,
        dark="#000",
        light="#fff",
        svgclass="qr-code",
        lineclass=None,
        omitsize=True,
        title=_("QR code of the link"),  # segno escapes it
    )
    # segno's output is built from the code's modules and our escaped title only.
    return mark_safe(svg.replace("<svg ", '<svg role="img" ', 1))
