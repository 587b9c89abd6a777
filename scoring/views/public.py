"""The public pages of play (no login): a competition with its standings and schedule, a
matchday with its results and highlights (and its printable form), a match, a game.

The standings and matchday pages follow the evening by themselves while a matchday is in
play (issue 18): their htmx partial polls every `PUBLIC_POLL_SECONDS` with the version of
what it shows (`scoring.selectors.live`), and an unchanged poll is answered 204 from one
query, before anything of the page is read (`troefclub.live`).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import Count, Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.forfeit_words import forfeit_reason_text
from scoring.models import Game
from scoring.selectors.highlights import match_top_koppels, matchday_highlights
from scoring.selectors.live import (
    LiveStamp,
    competition_in_play,
    competition_live_stamp,
    matchday_in_play,
    matchday_live_stamp,
)
from scoring.selectors.results import competition_game_counts, competition_match_scores
from scoring.selectors.schedule import matchday_matches, matches_paged, with_table_shown
from scoring.selectors.standings import (
    competition_standings,
    competition_standings_summary,
    competition_withdrawal_lines,
)
from scoring.selectors.standings_inputs import (
    Adjustment,
    competition_adjustments,
    matches_adjustments,
)
from scoring.services.standings import standings_catch_up, standings_catch_up_due
from scoring.tables import TIEBREAK_LABELS, StandingTable
from scoring.views.common import (
    GAME_TEAM_JOINS,
    SEARCH_MAX_LENGTH,
    AdjustmentLine,
    competition_reader_scopes,
    game_for,
    match_adjustment_lines,
    match_context,
    sheet_lines,
)
from tournaments.lookups import match_for, matchday_byes, matchday_for
from tournaments.models import Competition, Entry, Match
from tournaments.selectors import MATCH_ENTRY_JOINS
from troefclub.live import live_poll_url, live_polled, live_unchanged, live_version_drop
from troefclub.pages import render_page
from troefclub.reader_cache import reader_cached
from troefclub.tables import page_links, table_configure

# Rounds on the printed paper score grid of a table: a game to 20 can take 19 rounds,
# plus redeals.
PRINT_GRID_ROWS = 24

# Standings rows a page: a phone scrolls 50 short rows easily, and the page stays small
# (issue 7: 1,000 rows were 1.2 MB and 3 s).
STANDINGS_PER_PAGE = 50

# Seconds between two polls of a public page that follows the evening: a table's round
# takes a minute or more, and at league size a poll of 1,000 phones in the hall is one
# small query each.
PUBLIC_POLL_SECONDS = 15


def _unchanged(
    request: HttpRequest, stamp: LiveStamp, *, catches_up: bool = False
) -> HttpResponse | None:
    """The 204 of a poll whose page is unchanged, else None. For a page that `catches_up`
    the standings, never while they owe it (`standings_catch_up`, no broker)."""
    if catches_up and standings_catch_up_due(stale_since=stamp.stale_since):
        live_version_drop(request)
        return None
    return live_unchanged(request, stamp.version)


def _live_context(request: HttpRequest, stamp: LiveStamp, live: bool) -> dict[str, object]:
    """What a live page's template needs: `live_url` (the next poll; "" while nothing is in
    play: no polling), `live_seconds` and `updated_at` (the connection notice's time)."""
    return {
        "live_url": live_poll_url(request, stamp.version) if live else "",
        "live_seconds": PUBLIC_POLL_SECONDS,
        "updated_at": timezone.localtime(),
    }


def adjustment_lines(adjustments: Sequence[Adjustment]) -> list[AdjustmentLine]:
    """The standings' adjustments with their entries and matches fetched (two queries)."""
    if not adjustments:
        return []
    entries = Entry.objects.select_related("team__player_1", "team__player_2", "club").in_bulk(
        {adjustment.entry_id for adjustment in adjustments}
    )
    match_ids = {a.match_id for a in adjustments if a.match_id is not None}
    matches = (
        Match.objects.select_related("matchday", *MATCH_ENTRY_JOINS).in_bulk(match_ids)
        if match_ids
        else {}
    )
    return [
        AdjustmentLine(
            entry=entries.get(adjustment.entry_id),
            kind=adjustment.kind,
            points=adjustment.points,
            reason=forfeit_reason_text(adjustment.reason),
            match=matches.get(adjustment.match_id) if adjustment.match_id else None,
        )
        for adjustment in adjustments
    ]


@reader_cached(competition_reader_scopes)
def competition_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings as stored (`Standing` rows), a page at a time, sorted in the database;
    `q` narrows them to the koppels whose names contain it. Nothing is recomputed here.
    While a matchday is in play the standings poll (`_unchanged`: 204, one query)."""
    competition = get_object_or_404(Competition, slug=slug)
    stamp = competition_live_stamp(competition=competition)
    unchanged = _unchanged(request, stamp, catches_up=True)
    if unchanged is not None:
        return unchanged
    if standings_catch_up(competition=competition):
        stamp = competition_live_stamp(competition=competition)  # what the page shows now
    tiebreaks = [key for key in competition.tiebreaks or [] if isinstance(key, str)]
    search = request.GET.get("q", "").strip()[:SEARCH_MAX_LENGTH]
    summary = competition_standings_summary(competition=competition)
    table = StandingTable(
        competition_standings(competition=competition, search=search),
        tiebreaks=tiebreaks,
        show_byes=summary.byes,
        show_deducted=summary.deducted,
    )
    table_configure(request, table, per_page=STANDINGS_PER_PAGE)
    if search:
        table.empty_text = _("No koppel or player matches this search.")
    counts = competition_game_counts(competition=competition)
    context = {
        "competition": competition,
        "table": table,
        "search": search,
        "tiebreaks": [TIEBREAK_LABELS.get(key, key) for key in tiebreaks],
        "adjustments": adjustment_lines(competition_adjustments(competition=competition)),
        "withdrawals": competition_withdrawal_lines(competition=competition),
        "as_of": summary.as_of,
        "open_games": counts.open_games,
        "awaiting": counts.awaiting,
        # Ordered here: a GROUP BY query drops `Meta.ordering` (Django 3.1+).
        "matchdays": competition.matchdays.annotate(match_count=Count("matches")).order_by(
            "number"
        ),
        "is_director": competition.is_directed_by(request.user),
        **_live_context(request, stamp, competition_in_play(competition=competition)),
    }
    return render_page(request, "scoring/competition_detail.html", context, partial="standings")


# Matches a page of the public matchday page: a player on a phone scrolls through 25 cards
# at most and finds the rest by table or name (`q`). Half the director's 50
# (`common.MATCHES_PER_PAGE`): at league size a page of 50 cards took 2.5× the time of a
# 10-koppel matchday's 5 (issue 20).
MATCHES_PER_PAGE = 25


@reader_cached(competition_reader_scopes)
def matchday_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The matchday's matches by table, a page at a time (`MATCHES_PER_PAGE`); `q` finds a
    table by its number or a koppel, player or club name. Reads only the matches shown.
    While the matchday is in play the matches poll (`_unchanged`: 204, two queries); a poll's
    fresh answer brings the highlights along (htmx out of band)."""
    matchday = matchday_for(slug, number)
    stamp = matchday_live_stamp(matchday=matchday)
    polled = live_polled(request)
    unchanged = _unchanged(request, stamp)
    if unchanged is not None:
        return unchanged
    competition = matchday.competition
    search = request.GET.get("q", "").strip()[:SEARCH_MAX_LENGTH]
    page = matches_paged(
        matchday_matches(matchday=matchday, search=search),
        per_page=MATCHES_PER_PAGE,
        page_number=request.GET.get("page"),
    )
    rows = list(page.object_list)
    ids = [match.pk for match in rows]
    scores = competition_match_scores(competition=competition, match_ids=ids)
    adjustments = match_adjustment_lines(
        rows,
        matches_adjustments(competition=competition, match_ids=ids, scores=scores),
    )
    matches = [(match, scores[match.pk], adjustments.get(match.pk, [])) for match in rows]
    context = {
        "competition": competition,
        "matchday": matchday,
        "matches": matches,
        "page": page,
        "page_links": page_links(page),
        "search": search,
        "byes": matchday_byes(matchday),
        "is_director": competition.is_directed_by(request.user),
        # The full page and a poll show them: a page link swaps the matches alone.
        "highlights": (
            matchday_highlights(matchday=matchday)
            if polled or not getattr(request, "htmx", False)
            else None
        ),
        "live_poll": polled,
        **_live_context(request, stamp, matchday_in_play(matchday=matchday)),
    }
    return render_page(request, "scoring/matchday_detail.html", context, partial="matches")


def matchday_print(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The matchday to print: table numbers and names, big, and an empty score grid each."""
    matchday = matchday_for(slug, number)
    competition = matchday.competition
    matches = list(
        with_table_shown(matchday.matches.select_related(*MATCH_ENTRY_JOINS))
        .prefetch_related(
            Prefetch(
                "games",
                queryset=Game.objects.select_related(*GAME_TEAM_JOINS).order_by("sitting", "table"),
            )
        )
        .order_by("table_shown", "pk")
    )
    scores = competition_match_scores(competition=competition, matchday=matchday)
    context = {
        "competition": competition,
        "matchday": matchday,
        "matches": [(match, scores[match.pk]) for match in matches],
        "byes": matchday_byes(matchday),
        "grid_rows": range(1, PRINT_GRID_ROWS + 1),
        "is_director": competition.is_directed_by(request.user),
    }
    return render(request, "scoring/matchday_print.html", context)


def match_detail(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    match = match_for(slug, match_id)
    context = match_context(request, match, koppel_ranking=match_top_koppels(match=match))
    return render_page(request, "scoring/match_detail.html", context, partial="match")


def game_detail(request: HttpRequest, slug: str, game_id: int) -> HttpResponse:
    game = game_for(slug, game_id)
    competition = game.match.matchday.competition
    context = {
        "competition": competition,
        "game": game,
        "lines": sheet_lines(game),
        "is_director": competition.is_directed_by(request.user),
    }
    return render_page(request, "scoring/game_detail.html", context, partial="game")
