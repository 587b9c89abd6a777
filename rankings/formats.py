"""How the rankings pages write numbers (issue 10): ratings, averages and chart labels in
the language of the page (Dutch "5,9", English "5.9"), rounded the way the templates'
`floatformat` rounds, with a real minus sign as the standings write a saldo.

One place for it, so a page's header, its tables and its charts' hover texts can't
disagree (a chart once cut 5.85 to 5.8 where the header said 5.9). Templates reach these
through `{% load rankings_format %}` (`rankings.templatetags.rankings_format`).
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from django.template.defaultfilters import floatformat

from troefclub.tables import MINUS, signed

__all__ = ["decimal", "signed"]


def decimal(value: float | Fraction | Decimal | int | None, places: int) -> str:
    """`value` with exactly `places` decimals (`places` ≥ 0), rounded half away from zero
    (5.85 → "5.9"; a float rounds as it is written, `repr`), in the active language's
    number format ("5,9" in Dutch, no thousands separator) and with a real minus sign
    ("−3.2"); "—" for None. A Fraction (a best-N average) rounds from its exact value."""
    if value is None:
        return "—"
    if isinstance(value, Fraction):
        value = Decimal(value.numerator) / Decimal(value.denominator)
    return str(floatformat(value, places)).replace("-", MINUS)
