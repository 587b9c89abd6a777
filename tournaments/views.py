"""The public list of competitions, newest season first (the home page). No login needed;
an htmx request gets the page's named partial, a normal one the full page. A
competition's own pages are pages of play (`scoring.views.public`).
"""

from __future__ import annotations

from django.db.models import Count
from django.http import HttpRequest, HttpResponse

from tournaments.models import Competition
from troefclub.pages import render_page


def competition_list(request: HttpRequest) -> HttpResponse:
    """Every competition with its number of entries, newest season first."""
    competitions = Competition.objects.annotate(entry_count=Count("entries")).order_by(
        "-season", "name"
    )
    return render_page(
        request,
        "tournaments/competition_list.html",
        {"competitions": competitions},
        partial="competitions",
    )
