"""The site search page (issue 10): /search/?q=words, and its live results under the
navbar's search box (an htmx request gets only the results, shorter)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from rankings.search import GROUP_LIMIT, site_search

# Rows per group in the live results under the navbar box: the full page shows more.
LIVE_LIMIT = 5


def search(request: HttpRequest) -> HttpResponse:
    """Players, koppels, clubs and competitions matching `q` (`rankings.search.site_search`);
    any `q` is accepted (too short: a hint, too long: cut)."""
    live = bool(getattr(request, "htmx", False)) and not request.htmx.boosted  # type: ignore[attr-defined]
    results = site_search(text=request.GET.get("q", ""), limit=LIVE_LIMIT if live else GROUP_LIMIT)
    context = {"results": results, "navbar_q": results.words, "live": live}
    if live:
        if not results.searched:
            return HttpResponse("")  # too short: the list under the box empties (and hides)
        return render(request, "rankings/_search_results.html", context)
    return render(request, "rankings/search.html", context)
