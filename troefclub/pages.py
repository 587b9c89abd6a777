"""Rendering a page, or only its htmx partial (django-htmx's examples: one template, one
named `{% partialdef %}` for an htmx request).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def render_page(
    request: HttpRequest,
    template: str,
    context: dict[str, Any],
    *,
    partial: str,
    status: int = 200,
) -> HttpResponse:
    """The full page, or only its `{% partialdef partial %}` for an htmx request."""
    name = f"{template}#{partial}" if getattr(request, "htmx", False) else template
    return render(request, name, context, status=status)


def page_number_asked(asked: str | None) -> str | None:
    """A page number from the query string for `Paginator.get_page`, with 0 and negative
    numbers taken as the first page. `get_page` gives the first page for text that is no
    number but the last for 0 or -3 (it treats them as past the end); the board and every
    other paged list here show page 1 for them."""
    if asked is None:
        return None
    try:
        number = int(asked)  # as get_page reads it: spaces and any script's digits
    except ValueError:
        return asked
    return "1" if number < 1 else asked
