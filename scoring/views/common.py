"""What the pages of play share: finding a game from its URL (a 404 when it is unknown or
of another competition), a match page's content, the lines of a score sheet.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _

from scoring.forfeit_words import forfeit_reason_text
from scoring.forms.sheet import MatchTotalsForm
from scoring.models import Game
from scoring.selectors.matches import MatchMovement, match_movement, match_sittings
from scoring.selectors.results import competition_match_scores
from scoring.selectors.sheet import SheetRow, game_detail, game_sheet
from scoring.selectors.standings_inputs import Adjustment, match_adjustments
from scoring.selectors.voids import match_replay_links
from tournaments.models import Entry, Match
from tournaments.reader_pages import competition_reader_id
from troefclub.reader_cache import competition_scope
from troefclub.rule_messages import RESULT_LABELS

GAME_TEAM_JOINS = ("team_a__player_1", "team_a__player_2", "team_b__player_1", "team_b__player_2")

SEARCH_MAX_LENGTH = 100

# Tables a page of a matchday: a 1,000-koppel matchday has 500 (262 KB, issue 7); a player
# finds theirs with the find box or the page links.
MATCHES_PER_PAGE = 50


@dataclass(frozen=True, slots=True)
class AdjustmentLine:
    """A forfeit or deduction under the standings, with names instead of ids."""

    entry: Entry | None
    kind: str
    points: int
    reason: str
    match: Match | None


def match_adjustment_lines(
    matches: Sequence[Match], adjustments: Mapping[int, Sequence[Adjustment]]
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
                reason=forfeit_reason_text(a.reason),
                match=by_id.get(match_id),
            )
            for a in rows
        ]
        for match_id, rows in adjustments.items()
        if match_id in by_id
    }


def capped_text(movement: MatchMovement) -> str:
    """Why a club match has fewer sittings than its competition plans."""
    return _("%(sittings)s sittings instead of %(planned)s: only %(koppels)s koppels a side.") % {
        "sittings": movement.sittings,
        "planned": movement.planned,
        "koppels": movement.tables,
    }


def match_page_context(match: Match) -> dict[str, Any]:
    """What every match page shows (public and director's): sittings and tables, the
    running score, top koppels, who sits out, forfeits and deductions."""
    competition = match.matchday.competition
    games = list(match.games.select_related(*GAME_TEAM_JOINS).order_by("sitting", "table"))
    movement = match_movement(match=match)
    sittings, top = match_sittings(games=games, movement=movement)
    scores = competition_match_scores(competition=competition, match_ids=[match.pk])
    return {
        "competition": competition,
        "match": match,
        "games": games,
        "sittings": sittings,
        "movement": movement,
        "top_koppels": top,
        "adjustments": match_adjustment_lines(
            [match], {match.pk: match_adjustments(match=match, scores=scores)}
        ).get(match.pk, []),
        "score": scores[match.pk],
        "replay_links": match_replay_links(match=match),
    }


def match_context(request: HttpRequest, match: Match, **extra: Any) -> dict[str, Any]:
    """What the match page shows; `extra` may carry a bound totals form with its errors."""
    context = match_page_context(match)
    games = context["games"]
    is_director = context["competition"].is_directed_by(request.user)
    context["is_director"] = is_director
    if is_director and not games and match.voided_at is None:
        initial = {"total_home": match.total_home, "total_away": match.total_away}
        context["totals_form"] = MatchTotalsForm(initial=initial, match=match)
    context.update(extra)
    return context


def sheet_lines(game: Game) -> list[tuple[SheetRow, str]]:
    """The game's score sheet rows, each with its result in words."""
    return [
        (row, str(RESULT_LABELS.get(row.round.result, row.round.result)))
        for row in game_sheet(game=game)
    ]


def game_for(slug: str, game_id: int) -> Game:
    """The game `game_id` of competition `slug`, with everything its pages show; else 404."""
    try:
        game = game_detail(game_id=game_id)
    except Game.DoesNotExist:
        raise Http404("no such game") from None
    if game.match.matchday.competition.slug != slug:
        raise Http404("game of another competition")
    return game


def competition_reader_scopes(request: HttpRequest, *, slug: str, **_: object) -> list[str] | None:
    """The reader-cache scopes of a competition's public page (`troefclub.reader_cache`):
    the competition's, by its slug (kept in the cache: no query once known); None for no
    such competition (the view's 404)."""
    competition_id = competition_reader_id(slug)
    return None if competition_id is None else [competition_scope(competition_id)]
