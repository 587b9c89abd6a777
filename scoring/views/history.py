"""The directors' history pages: every change of a game or of a match, newest first, with
who made it (issue 6, audit history). Read only; the same access as the score sheet
(`troefclub.access.director_required`). The lines come from `scoring.selectors.history.game_history`
and `match_history`.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from scoring.models import Game
from scoring.selectors import history, history_match
from scoring.views.common import game_for
from tournaments.lookups import match_for
from tournaments.models import Match
from troefclub.access import HtmxHttpRequest, director_required


@require_GET
@director_required(game_for)
def game_history(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """Every round added, corrected or deleted, totals, close, reopen and confirmation of
    one game."""
    context = {
        "competition": game.match.matchday.competition,
        "game": game,
        "lines": history.game_history(game=game),
    }
    return render(request, "scoring/game_history.html", context)


@require_GET
@director_required(match_for)
def match_history(request: HtmxHttpRequest, match: Match) -> HttpResponse:
    """Every change of one match: totals, forfeits, lineups, its games, its deductions and
    the byes of its matchday."""
    context = {
        "competition": match.matchday.competition,
        "match": match,
        "lines": history_match.match_history(match=match),
    }
    return render(request, "scoring/match_history.html", context)
