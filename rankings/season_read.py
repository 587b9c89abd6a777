"""Reads of the stored season rankings for their page (issue 20): the lines a refresh
stored (`rankings.season_refresh`), paginated by the page, never computed here.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import OuterRef, Q, QuerySet, Subquery

from rankings.models import SeasonRankingLine, SeasonRankingList, SeasonRankingState
from scoring.rules.seasons import SeasonBy
from tournaments.models import Club, Competition


@dataclass(frozen=True, slots=True, kw_only=True)
class StoredSeasonRanking:
    """A stored season ranking as the page shows it: `season`, `by`, `kind` ("" for both),
    the `club` it is narrowed to (None for all), the `clubs` that played in the season (the
    filter's choices, by name), its `lines` (`SeasonRankingLine`s in the ranking's order:
    a queryset, read a page at a time), `best_evenings`, `evenings` and `games` as
    `rankings.seasons.SeasonRanking` has them; `as_of`, when the refresh that stored them
    started (None: never computed), and `stale`: a write since may have moved them."""

    season: str
    by: SeasonBy
    kind: str
    club: Club | None
    clubs: list[Club]
    lines: QuerySet[SeasonRankingLine]
    best_evenings: int | None
    evenings: int
    games: int
    as_of: datetime | None
    stale: bool


def season_ranking_state(*, season: str) -> SeasonRankingState | None:
    """The stored rankings' state of `season` (None: never queued nor computed). One
    query."""
    return SeasonRankingState.objects.filter(season=season).first()


def season_ranking_found(*, season: str) -> tuple[bool, SeasonRankingState | None]:
    """Whether a competition names `season` (the season has a ranking: `seasons_played`),
    and its stored rankings' state (`season_ranking_state`; None: never queued nor
    computed), in one query: what the API's season ranking reads before anything else
    (its ETag)."""
    state = SeasonRankingState.objects.filter(season=OuterRef("season"))
    found = (
        Competition.objects.filter(season=season)
        .exclude(season="")
        .annotate(
            state_id=Subquery(state.values("id")[:1]),
            state_computed_at=Subquery(state.values("computed_at")[:1]),
            state_stale_since=Subquery(state.values("stale_since")[:1]),
            state_queued_at=Subquery(state.values("queued_at")[:1]),
        )
        .values("state_id", "state_computed_at", "state_stale_since", "state_queued_at")
        .first()
    )
    if found is None:
        return False, None
    if found["state_id"] is None:
        return True, None
    return True, SeasonRankingState(
        pk=found["state_id"],
        season=season,
        computed_at=found["state_computed_at"],
        stale_since=found["state_stale_since"],
        queued_at=found["state_queued_at"],
    )


def season_ranking_stored(
    *, season: str, by: SeasonBy, kind: str, club_key: str, state: SeasonRankingState | None
) -> StoredSeasonRanking:
    """The stored ranking of `season` by `by`, of competitions of `kind` ("" for both) and
    of the club keyed `club_key` ("" for all; a key of no club that played in the season
    is ignored: `club` is then None), with the season's `state`
    (`season_ranking_state`). Two queries (the clubs, the ranking); its `lines` one or two
    more when read (a page and its length). A season never computed has no lines."""
    clubs = list(
        Club.objects.filter(
            season_rankings__season=season, season_rankings__by=by, season_rankings__kind=""
        ).order_by("name", "key")
    )
    chosen = next((club for club in clubs if club.key == club_key), None) if club_key else None
    stored = SeasonRankingList.objects.filter(season=season, by=by, kind=kind, club=chosen).first()
    lines = SeasonRankingLine.objects.filter(ranking=stored).order_by("position")
    if stored is None:
        lines = lines.none()
    computed = state is not None and state.computed_at is not None
    return StoredSeasonRanking(
        season=season,
        by=by,
        kind=kind,
        club=chosen,
        clubs=clubs,
        lines=lines,
        best_evenings=stored.best_evenings if stored else None,
        evenings=stored.evenings if stored else 0,
        games=stored.games if stored else 0,
        as_of=state.computed_at if computed and state else None,
        stale=bool(state and state.stale_since is not None),
    )


def season_lines_found(
    lines: QuerySet[SeasonRankingLine], *, search: str
) -> QuerySet[SeasonRankingLine]:
    """The `lines` whose name or key contains `search` (any case and accents,
    `troefclub.text.Fold`, as every find box); their rank stays the ranking's. Empty
    `search`: every line."""
    words = search.strip()
    if not words:
        return lines
    return lines.filter(Q(name__fold__contains=words) | Q(key__fold__contains=words))
