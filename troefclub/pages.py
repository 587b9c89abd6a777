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
