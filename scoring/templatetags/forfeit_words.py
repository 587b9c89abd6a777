"""`{{ reason|forfeit_words }}`: a forfeit's reason as the reader reads it
(`scoring.forfeit_words.forfeit_reason_text`)."""

from __future__ import annotations

from django import template

from scoring.forfeit_words import forfeit_reason_text

register = template.Library()


@register.filter
def forfeit_words(reason: str) -> str:
    """A lineup's stored reason in the active language; any other reason as it is."""
    return forfeit_reason_text(reason or "")
