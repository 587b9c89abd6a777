"""The public page of a season's divisions: each league's divisions, top first, with their
entries in the order of the standings and who goes up and who goes down."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from scoring.selectors.divisions import season_division_moves


@require_safe
def season_divisions_page(request: HttpRequest, season: str) -> HttpResponse:
    """The divisions of `season` with the proposed moves (as the standings stand now)."""
    moves = season_division_moves(season=season)
    if not moves:
        raise Http404(_("This season has no divisions."))
    return render(request, "scoring/season_divisions.html", {"season": season, "moves": moves})
