"""The directors' history pages: every change of a game or of a match, newest first, with
who made it (issue 6, audit history). Read only; the same access as the score sheet
(`scoring.views.denied`). The lines come from `scoring.selectors.game_history` and
`match_history`.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from scoring import selectors
from scoring.views import denied
from tournaments.views import game_for, match_for


@require_GET
def game_history(request: HttpRequest, slug: str, game_id: int) -> HttpResponse:
    """Every round added, corrected or deleted, totals, close, reopen and confirmation of
    one game."""
    game = game_for(slug, game_id)
    competition = game.match.matchday.competition
    if response := denied(request, competition):
        return response
    context = {
        "competition": competition,
        "game": game,
        "lines": selectors.game_history(game=game),
    }
    return render(request, "scoring/game_history.html", context)


@require_GET
def match_history(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    """Every change of one match: totals, forfeits, lineups, its games, its deductions and
    the byes of its matchday."""
    match = match_for(slug, match_id)
    competition = match.matchday.competition
    if response := denied(request, competition):
        return response
    context = {
        "competition": competition,
        "match": match,
        "lines": selectors.match_history(match=match),
    }
    return render(request, "tournaments/match_history.html", context)
