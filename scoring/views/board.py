"""Live pages of a matchday: the director's board and the hall's big screen (issue 8).

Both refresh themselves by htmx polling (`hx-trigger="every …"`): an htmx request gets the
page's named partial, a normal one the whole page (`render_page`). Both read in a constant
number of queries (`selectors.matchday_board`); the display reads the stored standings,
never recomputing them.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from scoring.selectors import board as board_selectors
from scoring.selectors.board import (
    TABLE_GROUPS,
    BoardMatch,
    BoardSitting,
    BoardTable,
    MatchdayBoard,
    board_version,
    competition_display_matchday,
)
from scoring.selectors.standings import competition_standings
from scoring.services.standings import standings_catch_up
from tournaments.lookups import matchday_for
from tournaments.models import Competition, Matchday
from troefclub.access import HtmxHttpRequest, director_required
from troefclub.live import live_poll_url, live_unchanged
from troefclub.pages import render_page

# Seconds between two refreshes of the director's board: a round takes a table a minute
# or more, so five seconds shows it "at once" without a request a second per director.
BOARD_POLL_SECONDS = 5
# A table in play without a new round for this long is marked on the board: a stuck table
# (a dispute at the table, a phone gone flat) for the director to walk to.
BOARD_QUIET_MINUTES = 10
# The hall display: its data every 10 s, each page of a view shown for 15 s.
DISPLAY_POLL_SECONDS = 10
DISPLAY_PAGE_SECONDS = 15
# Standings rows the display reads (a page of them at a time, cycling): a hall reads the
# top of the table; at 1,000 koppels nobody waits for page 60. `?top=` asks for more.
DISPLAY_STANDINGS_TOP = 48
DISPLAY_STANDINGS_MAX = 500
DISPLAY_VIEWS = ("pairings", "standings")


Shown = list[tuple[BoardMatch, list[tuple[BoardSitting, list[BoardTable]]]]]


def _shown(board: MatchdayBoard, state: str) -> Shown:
    """The board's matches with their sittings and tables in `state` (a `TABLE_GROUPS`
    key; "" for all), leaving out sittings and matches with none."""
    shown: Shown = []
    for match in board.matches:
        sittings = [
            (sitting, [table for table in sitting.tables if not state or table.group == state])
            for sitting in match.sittings
        ]
        sittings = [(sitting, tables) for sitting, tables in sittings if tables]
        if sittings:
            shown.append((match, sittings))
    return shown


@require_GET
@director_required(matchday_for, poll=True)
def matchday_board(request: HtmxHttpRequest, matchday: Matchday) -> HttpResponse:
    """Every table of the matchday with its live score and state, for its director;
    `state` shows only the tables in one state (`selectors.TABLE_GROUPS`). A poll that is
    no longer allowed (logged out, director no more) reloads the whole page instead of
    swapping the login page into the board."""
    competition = matchday.competition
    board = board_selectors.matchday_board(matchday=matchday)
    now = timezone.localtime()
    version = board_version(board, minute=now)
    unchanged = live_unchanged(request, version)  # the poll's board is still what it shows
    if unchanged is not None:
        return unchanged
    state = request.GET.get("state", "")
    notice = ""
    if state and state not in TABLE_GROUPS:
        notice = _("There is no table state “%(state)s”: every table is shown.") % {
            "state": state[:40]
        }
        state = ""
    context: dict[str, Any] = {
        "competition": competition,
        "matchday": matchday,
        "board": board,
        "state": state,
        "notice": notice,
        "matches": _shown(board, state),
        "poll_seconds": BOARD_POLL_SECONDS,
        "updated_at": now,
        "quiet_since": now - timedelta(minutes=BOARD_QUIET_MINUTES),
        "just_now": now - timedelta(minutes=1),
        "confirming": competition.confirmation_required,
        "poll_url": live_poll_url(request, version),
    }
    return render_page(request, "scoring/board.html", context, partial="board")


def _display_matchday(competition: Competition, asked: str) -> tuple[Matchday | None, str]:
    """The matchday `?matchday=` asks for, else the current one; with a notice when the
    asked one doesn't exist (the screen shows the current one instead)."""
    if asked:
        number = int(asked) if asked.isascii() and asked.isdigit() and len(asked) <= 5 else None
        if number is not None:
            found = competition_display_matchday(competition=competition, number=number)
            if found is not None:
                return found, ""
        notice = _("There is no matchday “%(asked)s”: showing the current one.") % {
            "asked": asked[:20]
        }
        return competition_display_matchday(competition=competition), notice
    return competition_display_matchday(competition=competition), ""


def _standings_top(asked: str) -> int:
    if asked.isascii() and asked.isdigit() and len(asked) <= 4:
        return max(1, min(int(asked), DISPLAY_STANDINGS_MAX))
    return DISPLAY_STANDINGS_TOP


@require_GET
def hall_display(request: HttpRequest, slug: str) -> HttpResponse:
    """The big screen in the hall, public: the current matchday's pairings by table with
    live scores, and the stored standings, cycling (static/js/display.js).

    `?matchday=N` shows matchday N; `?view=pairings|standings` keeps to one view (a second
    screen); `?top=N` reads the top N standings rows (default `DISPLAY_STANDINGS_TOP`).
    """
    competition = get_object_or_404(Competition, slug=slug)
    # As the standings page: where no beat sweeps (embedded mode), rebuild standings that
    # have owed a refresh for long. Otherwise nothing: the rows are read as stored.
    standings_catch_up(competition=competition)
    matchday, notice = _display_matchday(competition, request.GET.get("matchday", "").strip())
    board = board_selectors.matchday_board(matchday=matchday) if matchday is not None else None
    top = _standings_top(request.GET.get("top", "").strip())
    standings = list(competition_standings(competition=competition)[:top])
    view = request.GET.get("view", "")
    context: dict[str, Any] = {
        "competition": competition,
        "matchday": matchday,
        "board": board,
        "notice": notice,
        "standings": standings,
        "as_of": competition.standings_computed_at,
        "stale": competition.standings_stale_since is not None,
        "pinned": view if view in DISPLAY_VIEWS else "",
        "poll_seconds": DISPLAY_POLL_SECONDS,
        "page_seconds": DISPLAY_PAGE_SECONDS,
        "updated_at": timezone.localtime(),
        "confirming": competition.confirmation_required,
    }
    return render_page(request, "scoring/display.html", context, partial="display")
