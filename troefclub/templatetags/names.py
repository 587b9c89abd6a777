"""`{% load names %}`: user-given names shown isolated from the text around them
(issue 19, `troefclub.bidi`).

- `{{ player.name|bdi }}`, `{{ game.team_a|bdi }}`: the name (its `str`, escaped) in
  `<bdi>`, where markup may go (element content, `blocktranslate` values).
- `{{ competition.name|bdi_text }}`: where no markup may go (`<title>`, an attribute, an
  `<option>`): without bidi controls, between FIRST STRONG ISOLATE and POP DIRECTIONAL
  ISOLATE when it has anything right to left. Escaped by the template as usual.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString

from troefclub.bidi import isolated, isolated_text

register = template.Library()


@register.filter(name="bdi")
def bdi(value: Any) -> SafeString:
    """`value` in `<bdi>` (`troefclub.bidi.isolated`)."""
    return isolated(value)


@register.filter(name="bdi_text")
def bdi_text(value: Any) -> str:
    """`value` as isolated plain text (`troefclub.bidi.isolated_text`)."""
    return isolated_text(value)


@register.filter(name="bdi_each")
def bdi_each(values: Any) -> list[SafeString]:
    """Each of `values` in `<bdi>`, for `join`: `{{ koppels|bdi_each|join:", " }}`."""
    return [isolated(value) for value in values]
