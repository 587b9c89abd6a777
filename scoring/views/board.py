"""Live pages of a matchday: the director's board and the hall's big screen (issue 8).

Both refresh themselves by htmx polling (`hx-trigger="every …"`): an htmx request gets the
page's named partial, a normal one the whole page (`render_page`). Both read in a constant
number of queries (`selectors.matchday_board`); the display reads the stored standings,
never recomputing them.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
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
    TableState,
    competition_display_matchday,
)
from scoring.selectors.board_live import (
    BoardIndex,
    BoardPage,
    BoardStamp,
    board_changed_games,
    board_index,
    board_stamp,
)
from scoring.selectors.standings import competition_standings
from scoring.services.standings import standings_catch_up
from scoring.views.common import competition_reader_scopes
from tournaments.lookups import matchday_for
from tournaments.models import Competition, Matchday
from troefclub.access import HtmxHttpRequest, director_required
from troefclub.live import (
    VERSION_PARAMETER,
    live_poll_url,
    live_polled,
    live_unchanged,
    live_version,
)
from troefclub.pages import render_page
from troefclub.reader_cache import reader_cached

# Seconds between two refreshes of the director's board: a round takes a table a minute
# or more, so five seconds shows it "at once" without a request a second per director.
BOARD_POLL_SECONDS = 5
# A table in play without a new round for this long is marked on the board: a stuck table
# (a dispute at the table, a phone gone flat) for the director to walk to.
BOARD_QUIET_MINUTES = 10
# Tables a page of the board (whole matches: a club match of more is a page of its own):
# a screenful or two on a laptop, about 100 KB, whatever the size of the matchday.
BOARD_PAGE_TABLES = 50
# The hall display: its data every 10 s, each page of a view shown for 15 s.
DISPLAY_POLL_SECONDS = 10
DISPLAY_PAGE_SECONDS = 15
# Standings rows the display reads (a page of them at a time, cycling): a hall reads the
# top of the table; at 1,000 koppels nobody waits for page 60. `?top=` asks for more.
DISPLAY_STANDINGS_TOP = 48
DISPLAY_STANDINGS_MAX = 500
DISPLAY_VIEWS = ("pairings", "standings")
# Tables the display is sent at a time (whole matches): a few screenfuls, cycled through
# before it asks for the next part; at 500 tables a matchday, not 330 KB every 10 s. 50:
# a part of 100 (90 KB) took 2.2-3.1× the 10-koppel screen to render (issue 20).
DISPLAY_PART_TABLES = 50


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


def _number(asked: str) -> int | None:
    """A positive number asked in the query (a page, a table), else None."""
    text = asked.strip()
    if text.isascii() and text.isdigit() and len(text) <= 6:
        return int(text) or None
    return None


def _board_page(
    index: BoardIndex, state: str, asked_page: str, asked_table: str
) -> tuple[str, list[BoardPage], BoardPage | None, int | None, str]:
    """The state shown, the board's pages in it, the page shown, the table asked for and a
    notice: `?table=N` shows the page holding table N (among every table when the state
    shown has none such), `?page=N` page N (the last one when past it)."""
    pages = index.pages(state=state, size=BOARD_PAGE_TABLES)
    table = _number(asked_table) if asked_table else None
    if asked_table:
        holding = [p for p in pages if any(entry.table == table for entry in p.entries)]
        if not holding and state:
            state = ""
            pages = index.pages(state="", size=BOARD_PAGE_TABLES)
            holding = [p for p in pages if any(entry.table == table for entry in p.entries)]
        if holding:
            return state, pages, holding[0], table, ""
        notice = _("There is no table “%(table)s” on this matchday.") % {"table": asked_table[:20]}
        return state, pages, pages[0] if pages else None, None, notice
    number = _number(asked_page) or 1
    return state, pages, pages[min(number, len(pages)) - 1] if pages else None, None, ""


def _quiet(table: BoardTable, since: datetime | None) -> bool:
    """Whether `table` is marked quiet on a board of the minute `since`."""
    if since is None or table.state != TableState.PLAYING or table.last_round_at is None:
        return False
    return table.last_round_at < since - timedelta(minutes=BOARD_QUIET_MINUTES)


@require_GET
@director_required(matchday_for, poll=True)
def matchday_board(request: HtmxHttpRequest, matchday: Matchday) -> HttpResponse:
    """One page of the matchday's tables (`BOARD_PAGE_TABLES`, whole matches) with their
    live score and state, for its director; `state` shows only the tables in one state
    (`selectors.TABLE_GROUPS`), `page` a page of them, `table` the page holding that table.

    A poll carries the board's version it shows (`BoardStamp`): unchanged, it is answered
    204 from one small query, before anything is built; changed, with only the tables of
    its page whose games moved since (their fragments swapped by element id, htmx
    `hx-swap-oob`) and the summary; the whole page's board when more than tables moved (a
    match, a bye, a table link) or when it shows one state (a table may have left it). A
    poll that is no longer allowed (logged out, director no more) reloads the whole page
    instead of swapping the login page into the board.
    """
    competition = matchday.competition
    now = timezone.localtime()
    stamp = board_stamp(matchday=matchday, minute=now)
    held = BoardStamp.parse(request.GET.get("v")) if live_polled(request) else None
    unchanged = live_unchanged(request, stamp.version)  # the poll's board is still what it shows
    if unchanged is not None:
        return unchanged
    state = request.GET.get("state", "")
    notice = ""
    if state and state not in TABLE_GROUPS:
        notice = _("There is no table state “%(state)s”: every table is shown.") % {
            "state": state[:40]
        }
        state = ""
    index = board_index(matchday=matchday)
    state, pages, page, target, missing = _board_page(
        index, state, request.GET.get("page", ""), request.GET.get("table", "")
    )
    board = board_selectors.matchday_board(
        matchday=matchday, match_ids=page.match_ids if page is not None else []
    )
    context: dict[str, Any] = {
        "competition": competition,
        "matchday": matchday,
        "board": board,
        "counts": index.counts,
        "state": state,
        "notice": notice or missing,
        "matches": _shown(board, state),
        "pages": pages,
        "page": page,
        "target": target,
        "poll_seconds": BOARD_POLL_SECONDS,
        "updated_at": now,
        "quiet_since": now - timedelta(minutes=BOARD_QUIET_MINUTES),
        "confirming": competition.confirmation_required,
        "poll_url": live_poll_url(request, stamp.version),
    }
    if held is not None and held.others == stamp.others and not state:
        changed = board_changed_games(matchday=matchday, since=held)
        then = held.minute_at
        moved = [
            (match, sittings)
            for match, sittings in context["matches"]
            if any(
                (table.game is not None and table.game.pk in changed)
                or _quiet(table, then) != _quiet(table, now)
                for _sitting, tables in sittings
                for table in tables
            )
        ]
        context["moved"] = moved
        response = render(request, "scoring/_board_changes.html", context)
        response["HX-Reswap"] = "none"  # only the out-of-band fragments are swapped
        return response
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


def _display_version(matchday: Matchday | None, stamp: BoardStamp | None, standings: str) -> str:
    """The display's version: the matchday shown and its board's stamp, then (after "~")
    the standings' stamps."""
    board = f"{matchday.pk}:{stamp.version}" if matchday is not None and stamp else "-"
    return f"{board}~{standings}"


@require_GET
@reader_cached(competition_reader_scopes, by_version=True)
def hall_display(request: HttpRequest, slug: str) -> HttpResponse:
    """The big screen in the hall, public: the current matchday's pairings by table with
    live scores, and the stored standings, cycling (static/js/display.js).

    `?matchday=N` shows matchday N; `?view=pairings|standings` keeps to one view (a second
    screen); `?top=N` reads the top N standings rows (default `DISPLAY_STANDINGS_TOP`);
    `?part=N` the Nth part of the tables (`DISPLAY_PART_TABLES` a part, whole matches: the
    screen asks for the next part once it has shown this one's pages).

    A poll carries the version it shows: unchanged (the matchday's `BoardStamp` and the
    standings' stamps), it is answered 204 before anything is read; changed, with only
    what moved, swapped by element id (htmx `hx-swap-oob`): the standings when their
    stamps moved, the tables of its part whose games moved; the whole screen when more
    moved (another matchday, a match, a bye) or for a club match (its sitting may turn).
    """
    competition = get_object_or_404(Competition, slug=slug)
    # As the standings page: where no beat sweeps (embedded mode), rebuild standings that
    # have owed a refresh for long. Otherwise nothing: the rows are read as stored.
    if standings_catch_up(competition=competition):
        competition.refresh_from_db()
    matchday, notice = _display_matchday(competition, request.GET.get("matchday", "").strip())
    stamp = board_stamp(matchday=matchday, minute=None) if matchday is not None else None
    standings_stamp = live_version(
        competition.standings_computed_at, competition.standings_stale_since
    )
    version = _display_version(matchday, stamp, standings_stamp)
    asked = request.GET.get(VERSION_PARAMETER, "") if live_polled(request) else ""
    unchanged = live_unchanged(request, version)
    if unchanged is not None:
        return unchanged
    held_board, _sep, held_standings = asked.partition("~")
    index = board_index(matchday=matchday) if matchday is not None else None
    parts = index.pages(state="", size=DISPLAY_PART_TABLES) if index is not None else []
    asked_part = _number(request.GET.get("part", "")) or 1
    part = parts[min(asked_part, len(parts)) - 1] if parts else None
    board = (
        board_selectors.matchday_board(
            matchday=matchday, match_ids=part.match_ids if part is not None else []
        )
        if matchday is not None
        else None
    )
    view = request.GET.get("view", "")
    context: dict[str, Any] = {
        "competition": competition,
        "matchday": matchday,
        "board": board,
        "notice": notice,
        "parts": len(parts),
        "part": part.number if part is not None else 1,
        "as_of": competition.standings_computed_at,
        "stale": competition.standings_stale_since is not None,
        "pinned": view if view in DISPLAY_VIEWS else "",
        "poll_seconds": DISPLAY_POLL_SECONDS,
        "page_seconds": DISPLAY_PAGE_SECONDS,
        "updated_at": timezone.localtime(),
        "confirming": competition.confirmation_required,
        "poll_url": live_poll_url(request, version),
    }
    standings_moved = held_standings != standings_stamp
    if standings_moved or not asked:
        top = _standings_top(request.GET.get("top", "").strip())
        context["standings"] = list(competition_standings(competition=competition)[:top])
    held = BoardStamp.parse(held_board.partition(":")[2]) if ":" in held_board else None
    same_day = matchday is not None and held_board.partition(":")[0] == str(matchday.pk)
    if (
        asked
        and matchday is not None
        and board is not None
        and stamp is not None
        and not board.clubs
        and same_day
        and held is not None
        and held.others == stamp.others
    ):
        changed = board_changed_games(matchday=matchday, since=held) if held != stamp else set()
        context["moved"] = [
            table for table in board.tables if table.game is not None and table.game.pk in changed
        ]
        context["standings_moved"] = standings_moved
        response = render(request, "scoring/_display_changes.html", context)
        response["HX-Reswap"] = "none"  # only the out-of-band fragments are swapped
        return response
    if "standings" not in context:
        top = _standings_top(request.GET.get("top", "").strip())
        context["standings"] = list(competition_standings(competition=competition)[:top])
    return render_page(request, "scoring/display.html", context, partial="display")
