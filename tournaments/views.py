"""Public pages: competitions, standings, matchdays, matches and games. No login needed.

Each view fetches what the page shows (through `scoring.selectors` where there is logic),
then renders; an htmx request gets the page's named partial, a normal one the full page.
Anything unknown, or a match or game of another competition, is a 404.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.paginator import Paginator
from django.db.models import Count, Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django_tables2 import RequestConfig

from scoring import selectors, services
from scoring.forms import MatchTotalsForm
from scoring.messages import RESULT_LABELS
from scoring.models import Game
from tournaments.models import Bye, Competition, Entry, Match, Matchday
from tournaments.tables import TIEBREAK_LABELS, StandingTable, page_links

ENTRY_JOINS = (
    "home__team__player_1",
    "home__team__player_2",
    "home__club",
    "away__team__player_1",
    "away__team__player_2",
    "away__club",
)
# Rounds on the printed paper score grid of a table: a game to 20 can take 19 rounds,
# plus redeals.
PRINT_GRID_ROWS = 24
GAME_TEAM_JOINS = ("team_a__player_1", "team_a__player_2", "team_b__player_1", "team_b__player_2")
# Standings rows a page: a phone scrolls 50 short rows easily, and the page stays small
# (issue 7: 1,000 rows were 1.2 MB and 3 s).
STANDINGS_PER_PAGE = 50
SEARCH_MAX_LENGTH = 100
# Tables a page of a matchday: a 1,000-koppel matchday has 500 (262 KB, issue 7); a player
# finds theirs with the find box or the page links.
MATCHES_PER_PAGE = 50


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


def competition_list(request: HttpRequest) -> HttpResponse:
    competitions = Competition.objects.annotate(entry_count=Count("entries")).order_by(
        "-season", "name"
    )
    return render_page(
        request,
        "tournaments/competition_list.html",
        {"competitions": competitions},
        partial="competitions",
    )


@dataclass(frozen=True, slots=True)
class AdjustmentLine:
    """A forfeit or deduction under the standings, with names instead of ids."""

    entry: Entry | None
    kind: str
    points: int
    reason: str
    match: Match | None


def adjustment_lines(adjustments: Sequence[selectors.Adjustment]) -> list[AdjustmentLine]:
    """The standings' adjustments with their entries and matches fetched (two queries)."""
    if not adjustments:
        return []
    entries = Entry.objects.select_related("team__player_1", "team__player_2", "club").in_bulk(
        {adjustment.entry_id for adjustment in adjustments}
    )
    match_ids = {a.match_id for a in adjustments if a.match_id is not None}
    matches = (
        Match.objects.select_related("matchday", *ENTRY_JOINS).in_bulk(match_ids)
        if match_ids
        else {}
    )
    return [
        AdjustmentLine(
            entry=entries.get(adjustment.entry_id),
            kind=adjustment.kind,
            points=adjustment.points,
            reason=adjustment.reason,
            match=matches.get(adjustment.match_id) if adjustment.match_id else None,
        )
        for adjustment in adjustments
    ]


def match_adjustment_lines(
    matches: Sequence[Match], adjustments: Mapping[int, Sequence[selectors.Adjustment]]
) -> dict[int, list[AdjustmentLine]]:
    """The adjustments of `matches` (by match id) with their entries: the match's own sides,
    any other entry in one more query."""
    by_id = {match.pk: match for match in matches}
    sides = {(match.pk, entry.pk): entry for match in matches for entry in (match.home, match.away)}
    others = {
        a.entry_id
        for match_id, rows in adjustments.items()
        for a in rows
        if (match_id, a.entry_id) not in sides
    }
    fetched = (
        Entry.objects.select_related("team__player_1", "team__player_2", "club").in_bulk(others)
        if others
        else {}
    )
    return {
        match_id: [
            AdjustmentLine(
                entry=sides.get((match_id, a.entry_id)) or fetched.get(a.entry_id),
                kind=a.kind,
                points=a.points,
                reason=a.reason,
                match=by_id.get(match_id),
            )
            for a in rows
        ]
        for match_id, rows in adjustments.items()
        if match_id in by_id
    }


def capped_text(movement: selectors.MatchMovement) -> str:
    """Why a club match has fewer sittings than its competition plans."""
    return _("%(sittings)s sittings instead of %(planned)s: only %(koppels)s koppels a side.") % {
        "sittings": movement.sittings,
        "planned": movement.planned,
        "koppels": movement.tables,
    }


def competition_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings as stored (`Standing` rows), a page at a time, sorted in the database;
    `q` narrows them to the koppels whose names contain it. Nothing is recomputed here."""
    competition = get_object_or_404(Competition, slug=slug)
    services.standings_catch_up(competition=competition)
    tiebreaks = [key for key in competition.tiebreaks or [] if isinstance(key, str)]
    search = request.GET.get("q", "").strip()[:SEARCH_MAX_LENGTH]
    summary = selectors.competition_standings_summary(competition=competition)
    table = StandingTable(
        selectors.competition_standings(competition=competition, search=search),
        tiebreaks=tiebreaks,
        show_byes=summary.byes,
        show_deducted=summary.deducted,
    )
    RequestConfig(request, paginate={"per_page": STANDINGS_PER_PAGE}).configure(table)
    if search:
        table.empty_text = _("No koppel or player matches this search.")
    counts = selectors.competition_game_counts(competition=competition)
    context = {
        "competition": competition,
        "table": table,
        "search": search,
        "tiebreaks": [TIEBREAK_LABELS.get(key, key) for key in tiebreaks],
        "adjustments": adjustment_lines(selectors.competition_adjustments(competition=competition)),
        "as_of": summary.as_of,
        "open_games": counts.open_games,
        "awaiting": counts.awaiting,
        "matchdays": competition.matchdays.annotate(match_count=Count("matches")),
        "is_director": competition.is_directed_by(request.user),
    }
    return render_page(request, "tournaments/competition_detail.html", context, partial="standings")


def matchday_for(slug: str, number: int) -> Matchday:
    """Matchday `number` of competition `slug`, with its competition joined; else 404."""
    return get_object_or_404(
        Matchday.objects.select_related("competition"), competition__slug=slug, number=number
    )


def matchday_byes(matchday: Matchday) -> list[Bye]:
    return list(
        matchday.byes.select_related(
            "entry__team__player_1", "entry__team__player_2", "entry__club"
        )
    )


def matchday_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The matchday's matches by table, a page at a time (`MATCHES_PER_PAGE`); `q` finds a
    table by its number or a koppel, player or club name. Reads only the matches shown."""
    matchday = matchday_for(slug, number)
    competition = matchday.competition
    search = request.GET.get("q", "").strip()[:SEARCH_MAX_LENGTH]
    found = selectors.matchday_matches(matchday=matchday, search=search)
    page = Paginator(found, MATCHES_PER_PAGE).get_page(request.GET.get("page"))
    rows = list(page.object_list)
    ids = [match.pk for match in rows]
    scores = selectors.competition_match_scores(competition=competition, match_ids=ids)
    adjustments = match_adjustment_lines(
        rows,
        selectors.matches_adjustments(competition=competition, match_ids=ids, scores=scores),
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
    }
    return render_page(request, "tournaments/matchday_detail.html", context, partial="matches")


def matchday_print(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The matchday to print: table numbers and names, big, and an empty score grid each."""
    matchday = matchday_for(slug, number)
    competition = matchday.competition
    matches = list(
        selectors.with_table_shown(matchday.matches.select_related(*ENTRY_JOINS))
        .prefetch_related(
            Prefetch(
                "games",
                queryset=Game.objects.select_related(*GAME_TEAM_JOINS).order_by("sitting", "table"),
            )
        )
        .order_by("table_shown", "pk")
    )
    scores = selectors.competition_match_scores(competition=competition, matchday=matchday)
    context = {
        "competition": competition,
        "matchday": matchday,
        "matches": [(match, scores[match.pk]) for match in matches],
        "byes": matchday_byes(matchday),
        "grid_rows": range(1, PRINT_GRID_ROWS + 1),
    }
    return render(request, "tournaments/matchday_print.html", context)


def match_for(slug: str, match_id: int) -> Match:
    """The match `match_id` of competition `slug`, with its entries joined; else 404."""
    return get_object_or_404(
        Match.objects.select_related("matchday__competition", *ENTRY_JOINS),
        pk=match_id,
        matchday__competition__slug=slug,
    )


def match_page_context(match: Match) -> dict[str, Any]:
    """What every match page shows (public and director's): sittings and tables, the
    running score, top koppels, who sits out, forfeits and deductions."""
    competition = match.matchday.competition
    games = list(match.games.select_related(*GAME_TEAM_JOINS).order_by("sitting", "table"))
    movement = selectors.match_movement(match=match)
    sittings, top = selectors.match_sittings(games=games, movement=movement)
    scores = selectors.competition_match_scores(competition=competition, match_ids=[match.pk])
    return {
        "competition": competition,
        "match": match,
        "games": games,
        "sittings": sittings,
        "movement": movement,
        "top_koppels": top,
        "adjustments": match_adjustment_lines(
            [match], {match.pk: selectors.match_adjustments(match=match, scores=scores)}
        ).get(match.pk, []),
        "score": scores[match.pk],
    }


def match_context(request: HttpRequest, match: Match, **extra: Any) -> dict[str, Any]:
    """What the match page shows; `extra` may carry a bound totals form with its errors."""
    context = match_page_context(match)
    games = context["games"]
    is_director = context["competition"].is_directed_by(request.user)
    context["is_director"] = is_director
    if is_director and not games:
        initial = {"total_home": match.total_home, "total_away": match.total_away}
        context["totals_form"] = MatchTotalsForm(initial=initial, match=match)
    context.update(extra)
    return context


def match_detail(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    match = match_for(slug, match_id)
    return render_page(
        request, "tournaments/match_detail.html", match_context(request, match), partial="match"
    )


def sheet_lines(game: Game) -> list[tuple[selectors.SheetRow, str]]:
    """The game's score sheet rows, each with its result in words."""
    return [
        (row, str(RESULT_LABELS.get(row.round.result, row.round.result)))
        for row in selectors.game_sheet(game=game)
    ]


def game_for(slug: str, game_id: int) -> Game:
    """The game `game_id` of competition `slug`, with everything its pages show; else 404."""
    try:
        game = selectors.game_detail(game_id=game_id)
    except Game.DoesNotExist:
        raise Http404("no such game") from None
    if game.match.matchday.competition.slug != slug:
        raise Http404("game of another competition")
    return game


def game_detail(request: HttpRequest, slug: str, game_id: int) -> HttpResponse:
    game = game_for(slug, game_id)
    competition = game.match.matchday.competition
    context = {
        "competition": competition,
        "game": game,
        "lines": sheet_lines(game),
        "is_director": competition.is_directed_by(request.user),
    }
    return render_page(request, "tournaments/game_detail.html", context, partial="game")
