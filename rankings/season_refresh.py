"""Writes of the stored season rankings (issue 20): computed as `rankings.seasons` computes
them, stored for the page to read (`rankings.season_read`).

A season's rankings are every choice the page offers: by player, koppel and club, of both
competition kinds and of each (`KINDS`), for all clubs and for each club that played in
the season. `season_rankings_refresh` computes them all from one read of the season
(`season_data`) and writes only the lines that changed: a refresh after a write that moved
nothing writes nothing.

A write that can move the standings of a competition moves its season's rankings: the
season's queue (`SEASON_RANKINGS`, a `troefclub.refresh` queue that follows the standings'
one with the competition's season as its key) marks the season stale
(`SeasonRankingState.stale_since`) in the write's transaction and queues one
`rankings.tasks.season_rankings_refresh` task after the commit, coalesced per season; the
importer and the season setting's admin queue it themselves
(`season_rankings_refresh_on_commit`). Beat's sweep (`season_rankings_refresh_stale`)
refreshes a season left stale for `STANDINGS_SWEEP_SECONDS`, or never computed.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any, cast

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from rankings.models import SeasonRankingLine, SeasonRankingList, SeasonRankingState
from rankings.seasons import (
    SeasonData,
    SeasonRanking,
    SeasonRankingRow,
    season_data,
    season_ranking_of,
    seasons_played,
)
from rankings.selectors import GameRow
from scoring.rules.seasons import SeasonBy
from tournaments.models import Competition, Player, Team
from troefclub.reader_cache import reader_cache_bump_on_commit, season_scope
from troefclub.refresh import RefreshQueue

logger = logging.getLogger(__name__)

# The competition kinds a ranking is narrowed to ("": both), as the page offers them.
KINDS = ("", Competition.Kind.PAIRS.value, Competition.Kind.CLUBS.value)
# A ranking's choice: (by, kind, club id or None).
Choice = tuple[str, str, int | None]
# The tally columns of a season ranking line (`SeasonRankingRow`, `SeasonRankingLine`).
TALLY_FIELDS = (
    "games",
    "wins",
    "draws",
    "losses",
    "points_for",
    "points_against",
    "saldo",
    "kaps",
    "baunies",
    "failed_baunies",
    "early_kaps",
    "won_as_caller",
    "won_not_caller",
)
# The stored columns of a line, in the order `_line_values` gives them.
LINE_FIELDS = (
    "position",
    "rank",
    "entry",
    "key",
    "name",
    "sort_name",
    *TALLY_FIELDS,
    "best_points",
)
# Lines deleted a statement (SQLite's limit of parameters is far above it).
DELETE_BATCH = 5000


class _SeasonNames:
    """The `rankings.seasons.Names` of a refresh: every player's and koppel's (key, name)
    of the season read once (one query each), the clubs' from the season's data."""

    def __init__(self, data: SeasonData) -> None:
        self.data = data
        self.read: dict[SeasonBy, dict[int, tuple[str, str]]] = {
            SeasonBy.CLUB: {club.pk: (club.key, club.name) for club in data.clubs}
        }

    def __call__(self, by: SeasonBy, ids: Iterable[int]) -> dict[int, tuple[str, str]]:
        if by not in self.read:
            sides = [side for row in self.data.rows for side in (row.a, row.b)]
            if by is SeasonBy.PLAYER:
                players = {p for side in sides for p in side.players}
                rows = Player.objects.filter(pk__in=players).values_list("pk", "key", "name")
                self.read[by] = {pk: (key, name) for pk, key, name in rows}
            else:
                koppels = Team.objects.filter(pk__in={side.koppel for side in sides})
                self.read[by] = {
                    k.pk: (k.key, str(k)) for k in koppels.select_related("player_1", "player_2")
                }
        return {pk: self.read[by][pk] for pk in ids}


def _rows_by_club(data: SeasonData) -> dict[int, SeasonData]:
    """`data` narrowed to each club of the season: the games a player of it played for it
    (either side; oldest first, as `data.rows`), in one pass over the season's games. A
    ranking narrowed to a club reads only those (`season_ranking_of` keeps the same games
    of all of them), so the season's games are read once, not once a club: with 30 clubs
    the refresh walked every game 30 times over (issue 20)."""
    rows: dict[int, list[GameRow]] = {club.pk: [] for club in data.clubs}
    for row in data.rows:
        for club_id in {*row.a.clubs, *row.b.clubs} - {None}:
            rows[cast(int, club_id)].append(row)
    return {club_id: replace(data, rows=club_rows) for club_id, club_rows in rows.items()}


def season_rankings_computed(data: SeasonData) -> dict[Choice, SeasonRanking]:
    """Every ranking of the season of `data`, by (by, kind, club id or None), as
    `rankings.seasons.season_ranking` computes it. Two queries (the names of the players
    and of the koppels); each club's rankings from its own games (`_rows_by_club`); a kind
    that holds every game of a ranking's games is the ranking of both kinds, not computed
    twice."""
    names = _SeasonNames(data)
    computed: dict[Choice, SeasonRanking] = {}
    narrowed = _rows_by_club(data)
    for by in SeasonBy:
        for club in [None, *data.clubs]:
            club_id = club.pk if club is not None else None
            own = data if club_id is None else narrowed[club_id]
            every_kind = {row.kind for row in own.rows}
            both = season_ranking_of(own, by=by, kind="", club=club, names=names)
            computed[(by.value, "", club_id)] = both
            for kind in KINDS[1:]:
                if every_kind == {kind}:
                    ranking = SeasonRanking(**{**_fields(both), "kind": kind})
                else:
                    ranking = season_ranking_of(own, by=by, kind=kind, club=club, names=names)
                computed[(by.value, kind, club_id)] = ranking
    return computed


def _fields(ranking: SeasonRanking) -> dict[str, Any]:
    return {name: getattr(ranking, name) for name in SeasonRanking.__slots__}


def _line_values(
    position: int, row: SeasonRankingRow, best_evenings: int | None
) -> tuple[Any, ...]:
    """A computed line as stored (`LINE_FIELDS`): the best-N average as the game points of
    the best N evenings (the average times N: a whole number, exactly)."""
    best_points = None
    if row.best is not None and best_evenings:
        best_points = int(row.best * best_evenings)
    return (
        position,
        row.rank,
        row.entry,
        row.key,
        row.name,
        row.name.casefold(),
        row.games,
        row.wins,
        row.draws,
        row.losses,
        row.points_for,
        row.points_against,
        row.saldo,
        row.kaps,
        row.baunies,
        row.failed_baunies,
        row.early_kaps,
        row.won_as_caller,
        row.won_not_caller,
        best_points,
    )


def _lock(season: str) -> None:
    """One refresh of a season writes at a time (PostgreSQL: an advisory lock of the
    transaction; SQLite has one writer anyway). Not a row lock: the writes that mark the
    season stale never wait for a refresh."""
    connection = transaction.get_connection()
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [f"ranking:{season}"])


def _write(season: str, computed: dict[Choice, SeasonRanking]) -> int:
    """Store `computed` as the season's rankings, writing only what changed: a list's
    header when it changed, a line deleted and made again when any of its columns did;
    lists of a choice no longer computed (a club that no longer played) deleted. Returns
    the lines written or deleted."""
    lists = {
        (stored.by, stored.kind, stored.club_id): stored
        for stored in SeasonRankingList.objects.filter(season=season)
    }
    stored_lines: dict[int, dict[int, tuple[int, tuple[Any, ...]]]] = {}
    for pk, ranking_id, *values in SeasonRankingLine.objects.filter(
        ranking__season=season
    ).values_list("pk", "ranking_id", *LINE_FIELDS):
        stored_lines.setdefault(ranking_id, {})[values[2]] = (pk, tuple(values))
    deleted: list[int] = []
    created: list[SeasonRankingLine] = []
    for choice, ranking in computed.items():
        header = {
            "games": ranking.games,
            "evenings": ranking.evenings,
            "best_evenings": ranking.best_evenings,
        }
        stored = lists.pop(choice, None)
        if stored is None:
            by, kind, club_id = choice
            stored = SeasonRankingList.objects.create(
                season=season, by=by, kind=kind, club_id=club_id, **header
            )
        elif any(getattr(stored, name) != value for name, value in header.items()):
            SeasonRankingList.objects.filter(pk=stored.pk).update(**header)
        old = stored_lines.get(stored.pk, {})
        for position, row in enumerate(ranking.rows, start=1):
            values = _line_values(position, row, ranking.best_evenings)
            pk, was = old.pop(row.entry, (None, None))
            if was == values:
                continue
            if pk is not None:
                deleted.append(pk)
            created.append(
                SeasonRankingLine(ranking=stored, **dict(zip(LINE_FIELDS, values, strict=True)))
            )
        deleted.extend(pk for pk, _ in old.values())
    if lists:
        SeasonRankingList.objects.filter(pk__in=[stored.pk for stored in lists.values()]).delete()
    for start in range(0, len(deleted), DELETE_BATCH):
        SeasonRankingLine.objects.filter(pk__in=deleted[start : start + DELETE_BATCH]).delete()
    SeasonRankingLine.objects.bulk_create(created, batch_size=2000)
    return len(deleted) + len(created)


def season_rankings_refresh(*, season: str) -> int:
    """Bring the stored rankings of `season` (a `Competition.season`) up to date with its
    games: computed from one read of the season (`season_data`, outside the write's
    transaction), then written in one transaction, one refresh of the season at a time
    (`_lock`), only what changed. Its state's `computed_at` becomes the time this refresh
    started, and the stale mark is cleared when it is older than that (a write marked
    later is seen by the refresh it queued). A refresh that started before the one that
    wrote last writes nothing. Returns the lines written or deleted (0: nothing changed).
    """
    started = timezone.now()
    computed = season_rankings_computed(season_data(season))
    with transaction.atomic():
        _lock(season)
        state, _ = SeasonRankingState.objects.get_or_create(season=season)
        if state.computed_at is not None and state.computed_at > started:
            return 0
        written = _write(season, computed)
        SeasonRankingState.objects.filter(pk=state.pk).update(computed_at=started)
        SeasonRankingState.objects.filter(pk=state.pk, stale_since__lte=started).update(
            stale_since=None
        )
        reader_cache_bump_on_commit(season_scope(season))
    return written


def season_rankings_refresh_queued(*, season: str) -> int:
    """What the `rankings.tasks.season_rankings_refresh` task does: release the claim on the
    season's queued refresh (committed before any game is read: a write committed after
    it queues the next refresh), then `season_rankings_refresh`."""
    SeasonRankingState.objects.filter(season=season, queued_at__isnull=False).update(queued_at=None)
    return season_rankings_refresh(season=season)


def seasons_rankings_owed(*, stale_for: timedelta, now: datetime | None = None) -> list[str]:
    """The seasons whose rankings the sweep refreshes: marked stale for longer than
    `stale_for`, or played and never computed. Two queries."""
    cutoff = (now or timezone.now()) - stale_for
    states = dict(
        SeasonRankingState.objects.filter(
            Q(computed_at__isnull=False) & ~Q(stale_since__lt=cutoff)
        ).values_list("season", "computed_at")
    )
    return [season for season in seasons_played() if season not in states]


def season_rankings_refresh_stale() -> int:
    """The beat sweep (`rankings.tasks.season_rankings_refresh_stale`): refresh every season
    of `seasons_rankings_owed` after `STANDINGS_SWEEP_SECONDS`, one after the other; a
    season that fails is logged and doesn't hold up the others. Returns how many were
    refreshed."""
    refreshed = 0
    owed = seasons_rankings_owed(stale_for=timedelta(seconds=settings.STANDINGS_SWEEP_SECONDS))
    for season in owed:
        try:
            season_rankings_refresh(season=season)
        except Exception:
            logger.exception("season rankings of %s not refreshed", season)
            continue
        refreshed += 1
    return refreshed


def season_rankings_catch_up(*, state: SeasonRankingState | None, season: str) -> bool:
    """The sweep's job where there is no beat (Celery eager, the embedded default): the
    page refreshes a season never computed, or stale for `STANDINGS_SWEEP_SECONDS`, before
    it reads it. With a broker it does nothing. Returns whether it refreshed; a failing
    refresh is logged and the page shows what is stored."""
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        return False
    if state is not None and state.computed_at is not None:
        if state.stale_since is None:
            return False
        if timezone.now() - state.stale_since < timedelta(seconds=settings.STANDINGS_SWEEP_SECONDS):
            return False
    try:
        season_rankings_refresh(season=season)
    except Exception:
        logger.exception("season rankings of %s not caught up", season)
        return False
    return True


# ---------------------------------------------------------------- queueing after a commit


def season_rankings_mark_stale(season: str) -> None:
    """In a write's transaction: mark the season's stored rankings stale (now) unless they
    are already (the oldest write still owed stays the mark). A season never computed has
    no mark to set: its page says so anyway."""
    SeasonRankingState.objects.filter(season=season, stale_since__isnull=True).update(
        stale_since=timezone.now()
    )
    reader_cache_bump_on_commit(season_scope(season))  # its page says "behind"


def season_rankings_send(season: str) -> None:
    """Queue the `season_rankings_refresh` task of `season` (after the claim), to run
    `SEASON_RANKINGS_DELAY_SECONDS` from now: the claim stays held until it starts, so the
    results saved meanwhile queue nothing more and one refresh covers them all."""
    from rankings.tasks import season_rankings_refresh as task  # the tasks import services

    task.apply_async(kwargs={"season": season}, countdown=settings.SEASON_RANKINGS_DELAY_SECONDS)


def competition_season(competition_id: int) -> str | None:
    """The season of a competition (the standings' key) as the season rankings' key: None
    for a competition without a season (it is in no season ranking) or gone. One query."""
    season = Competition.objects.filter(pk=competition_id).values_list("season", flat=True).first()
    return season or None


# A refresh clears its claim before it reads, and holds no claim row while it computes: a
# claim row found busy (taken meanwhile) queues one more refresh, unclaimed.
SEASON_RANKINGS = RefreshQueue(
    name="season_rankings",
    claims=SeasonRankingState,
    key_column="season",
    send=season_rankings_send,
    mark=season_rankings_mark_stale,
    busy_queues=True,
)


def season_rankings_refresh_on_commit(*, season: str) -> None:
    """Mark `season`'s rankings stale now and, once the current transaction commits, queue
    its `rankings.tasks.season_rankings_refresh` unless one is queued already
    (`troefclub.refresh`). For the writes that don't go through the standings' queue: the
    competition import, the season's setting. "" (no season) does nothing."""
    if season:
        SEASON_RANKINGS.on_commit(season)
