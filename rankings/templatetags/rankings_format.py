"""Template filters writing numbers as the rankings tables do (`rankings.formats`):
`{{ rating|decimal:1 }}` ("5,9" in Dutch, "−3.2"), `{{ saldo|signed }}` ("+4", "−68")."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from django import template

from rankings import formats

register = template.Library()


@register.filter
def decimal(value: float | Fraction | Decimal | int | None, places: int) -> str:
    """`value` rounded to `places` decimals in the page's language (`formats.decimal`)."""
    return formats.decimal(value, int(places))


@register.filter
def signed(value: int | None) -> str:
    """A saldo with its sign and a real minus: "+4", "0", "−68" (`troefclub.tables.signed`)."""
    return formats.signed(value)
