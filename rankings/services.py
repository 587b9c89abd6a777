"""Writes of the player ratings (issue 10): OpenSkill, kept equal to a rebuild from scratch.

Every counted game (`scoring.selectors.counted.games_counted`), in `GAME_ORDER`, is one
Plackett–Luce match (Weng & Lin 2011, Algorithm 4; `openskill.models.PlackettLuce` with its
defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300): koppel A's two players against koppel
B's, ranked by the game points (more points rank 1, equal points a draw). The stored
ratings (`RatedGame`, `RatingChange`, `PlayerRating`) are what replaying those games in
that order gives.

`ratings_refresh` replays only from the first game whose place in that order or whose
signature (what the ratings read of it) changed, starting from the ratings stored before
it: the floats are read back exactly as they were written (float64 survives PostgreSQL
double precision and SQLite REAL), so a refresh after any series of writes stores the
same numbers, bit for bit, as `ratings_rebuild` (tests/rankings/test_ratings_refresh.py).

A write that can move the ratings queues the `rankings.tasks.ratings_refresh` task once
its transaction commits (`RATINGS`, a `troefclub.refresh` queue that follows the standings'
one, and `ratings_refresh_on_commit`, called by the importer); writes made in the admin (a
matchday's date, a koppel's players) are picked up by the beat run of the same task every
`STANDINGS_SWEEP_SECONDS`.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from django.db import transaction
from django.db.models import Count, F, Window
from django.db.models.functions import RowNumber
from django.utils import timezone
from openskill.models import PlackettLuce, PlackettLuceRating

from rankings.models import PlayerRating, RatedGame, RatingChange, RatingsLock
from rankings.selectors import GAME_DATE, GAME_ORDER
from scoring.selectors.counted import games_counted
from troefclub.reader_cache import RATINGS_SCOPE, reader_cache_bump_on_commit
from troefclub.refresh import RefreshQueue

logger = logging.getLogger(__name__)

# The rating model, with the library's defaults (mu 25, sigma 25/3): stateless between
# calls to `rate`, so one instance serves every refresh.
MODEL = PlackettLuce()

# Ranks of koppels A and B by the game's outcome: lower is better, equal is a draw.
RANKS = {"a": [1, 2], "b": [2, 1], "draw": [1, 1]}

LOCK_PK = 1  # the one `RatingsLock` row

# Only what the ratings read of a game (one query): id, date, the four players, the points.
_COLUMNS = (
    "pk",
    "rated_on",
    "team_a__player_1_id",
    "team_a__player_2_id",
    "team_b__player_1_id",
    "team_b__player_2_id",
    "score_a",
    "score_b",
)


@dataclass(frozen=True, slots=True)
class RatingGame:
    """A counted game as the ratings take it: `game` id, koppel A's and B's `players`
    (player 1, player 2 of each koppel), `outcome` ("a", "b" or "draw", from the game
    points) and `signature`, the text of all that and the date (`RatedGame.signature`)."""

    game: int
    a: tuple[int, int]
    b: tuple[int, int]
    outcome: str
    signature: str

    @property
    def players(self) -> tuple[int, int, int, int]:
        return (*self.a, *self.b)


def _signature(day: date | None, a: tuple[int, int], b: tuple[int, int], outcome: str) -> str:
    when = day.isoformat() if day is not None else "-"
    return f"{when} {a[0]},{a[1]} {b[0]},{b[1]} {outcome}"


def rating_games() -> list[RatingGame]:
    """Every counted game in the order the ratings take them (`GAME_ORDER`): one query.

    A game whose two koppels share a player is left out: no rating model rates a player
    against himself (the schedule services don't make such games; this keeps a bad import
    from stopping every refresh)."""
    games = []
    rows = games_counted().annotate(rated_on=GAME_DATE).order_by(*GAME_ORDER).values_list(*_COLUMNS)
    for pk, day, a_1, a_2, b_1, b_2, score_a, score_b in rows:
        if len({a_1, a_2, b_1, b_2}) != 4:
            continue
        outcome = "a" if score_a > score_b else "b" if score_b > score_a else "draw"
        a, b = (a_1, a_2), (b_1, b_2)
        games.append(RatingGame(pk, a, b, outcome, _signature(day, a, b, outcome)))
    return games


def _first_change(stored: list[tuple[int, int, str]], games: list[RatingGame]) -> int:
    """How many games at the start of `games` are stored as they are (`stored`: position,
    game id and signature of each `RatedGame`, by position): the replay starts after them."""
    for index, ((position, game_id, signature), game) in enumerate(
        zip(stored, games, strict=False)
    ):
        if position != index + 1 or game_id != game.game or signature != game.signature:
            return index
    return min(len(stored), len(games))


@dataclass(slots=True)
class _State:
    """A player's rating so far and the number of rated games it is made of."""

    mu: float
    sigma: float
    games: int


def _states_before(position: int, players: Iterable[int] | None) -> dict[int, _State]:
    """The ratings of `players` (None: everyone's) after the rated games up to `position`
    (their latest `RatingChange` there, and how many they played): one query. A player
    without one is missing (a new player)."""
    if position == 0 or (players is not None and not players):
        return {}
    changes = RatingChange.objects.filter(rated_game__position__lte=position)
    if players is not None:
        changes = changes.filter(player_id__in=sorted(set(players)))
    by_player = F("player_id")
    rows = (
        changes.annotate(
            latest=Window(
                RowNumber(), partition_by=[by_player], order_by=F("rated_game__position").desc()
            ),
            played=Window(Count("pk"), partition_by=[by_player]),
        )
        .filter(latest=1)
        .values_list("player_id", "mu", "sigma", "played")
    )
    return {player: _State(mu, sigma, played) for player, mu, sigma, played in rows}


def _rating_of(states: dict[int, _State], player: int) -> PlackettLuceRating:
    state = states.get(player)
    return MODEL.rating() if state is None else MODEL.rating(mu=state.mu, sigma=state.sigma)


def _delete_from(position: int) -> set[int]:
    """Delete the rated games after `position` and their changes; returns the players whose
    changes went (their `PlayerRating` must be rewritten)."""
    doomed = RatingChange.objects.filter(rated_game__position__gt=position)
    gone = set(doomed.order_by().values_list("player_id", flat=True).distinct())
    if gone:
        doomed.delete()  # no dependents, no signals: one DELETE
    # The changes went first, so nothing cascades and this is one DELETE too (a queryset
    # delete would read every rated game first to cascade by hand).
    connection = transaction.get_connection()
    table = connection.ops.quote_name(RatedGame._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {table} WHERE position > %s", [position])
    return gone


def _ratings_write(*, rebuild: bool) -> int:
    """The refresh (`rebuild`: from position 1); in the caller's transaction. A refresh
    that rated anything bumps the rating list's reader pages on its commit
    (`troefclub.reader_cache`); one that found nothing to do bumps nothing."""
    RatingsLock.objects.select_for_update().get_or_create(pk=LOCK_PK)  # one refresh at a time
    games = rating_games()
    stored = list(
        RatedGame.objects.order_by("position").values_list("position", "game", "signature")
    )
    start = 0 if rebuild else _first_change(stored, games)
    if start == len(stored) == len(games):
        return 0

    gone = _delete_from(start) if start < len(stored) else set()
    replayed = games[start:]
    touched = gone.union(*(game.players for game in replayed))
    states = _states_before(start, None if rebuild else touched)

    rated_games = [
        RatedGame(position=position, game_id=game.game, signature=game.signature)
        for position, game in enumerate(replayed, start=start + 1)
    ]
    RatedGame.objects.bulk_create(rated_games, batch_size=2000)
    changes = []
    for rated_game, game in zip(rated_games, replayed, strict=True):
        teams = [[_rating_of(states, p) for p in game.a], [_rating_of(states, p) for p in game.b]]
        after = MODEL.rate(teams, ranks=list(RANKS[game.outcome]))
        for player, rating in zip(game.players, (*after[0], *after[1]), strict=True):
            state = states.get(player)
            if state is None:
                states[player] = _State(rating.mu, rating.sigma, 1)
            else:
                state.mu, state.sigma, state.games = rating.mu, rating.sigma, state.games + 1
            changes.append(
                RatingChange(
                    rated_game=rated_game, player_id=player, mu=rating.mu, sigma=rating.sigma
                )
            )
    RatingChange.objects.bulk_create(changes, batch_size=2000)

    if rebuild:
        touched.update(states)
        PlayerRating.objects.all().delete()
    else:
        PlayerRating.objects.filter(player_id__in=sorted(touched)).delete()
    PlayerRating.objects.bulk_create(
        [
            PlayerRating(
                player_id=player,
                mu=state.mu,
                sigma=state.sigma,
                ordinal=MODEL.rating(mu=state.mu, sigma=state.sigma).ordinal(),
                games=state.games,
            )
            for player, state in sorted(states.items())
            if player in touched
        ],
        batch_size=2000,
    )
    RatingsLock.objects.filter(pk=LOCK_PK).update(refreshed_at=timezone.now())
    reader_cache_bump_on_commit(RATINGS_SCOPE)
    return len(replayed)


@transaction.atomic
def ratings_refresh() -> int:
    """Bring the stored ratings up to date with the counted games; returns how many games
    were (re)rated (0: nothing changed).

    One transaction with the `RatingsLock` row locked (one refresh at a time; the row is
    made on the first run). Reads the games in rating order and the stored `RatedGame`s
    (position, game, signature), finds the first position where they differ (a game
    finished, corrected, deleted, moved to another date, its koppels' players changed)
    and replays from there: the rated games from there on and their `RatingChange`s are
    deleted, each player's rating before that position is read back (their latest change
    before it, one query), the rest is rated again with OpenSkill and written in bulk, and
    the `PlayerRating` of every player whose latest change went or came is rewritten (a
    player left without a rated game has none). Nothing changed: three queries (the lock,
    the games, the rated games), no write.
    Same numbers, bit for bit, as `ratings_rebuild`.
    """
    return _ratings_write(rebuild=False)


@transaction.atomic
def ratings_rebuild() -> int:
    """Rate every counted game again from scratch (`manage.py ratings --rebuild`): every
    stored rating is deleted and the games are replayed from position 1, in one
    transaction under the `RatingsLock`. Returns the number of games rated. Gives the
    numbers `ratings_refresh` keeps (tests/rankings/test_ratings_refresh.py)."""
    return _ratings_write(rebuild=True)


def ratings_refresh_queued() -> int:
    """What the `rankings.tasks.ratings_refresh` task does (queued after a write, or run by
    beat): release the claim on the queued refresh, then `ratings_refresh`; returns its
    count.

    The claim (`RatingsLock.queued_at`) is released in a step of its own, committed before
    the refresh reads any game: a write committed before the release is read by this
    refresh (and queued nothing, finding the claim taken); one committed after it finds
    the claim free and queues the next refresh. So at most one refresh is queued behind
    the one running, however many games finish meanwhile.
    """
    RatingsLock.objects.filter(pk=LOCK_PK, queued_at__isnull=False).update(queued_at=None)
    return ratings_refresh()


# ---------------------------------------------------------------- queueing after a commit


def ratings_refresh_send(_key: int) -> None:
    """Queue the `ratings_refresh` task (after the claim)."""
    from rankings.tasks import ratings_refresh as ratings_refresh_task  # tasks import services

    ratings_refresh_task.delay()


# One claim row in all (`RatingsLock`, pk LOCK_PK). A refresh holds it for as long as it
# rates and may have read the games before a write committed: a claim row it holds means
# one more refresh, queued unclaimed (at worst that refresh finds nothing to do).
RATINGS = RefreshQueue(
    name="ratings",
    claims=RatingsLock,
    key_column="id",
    send=ratings_refresh_send,
    busy_queues=True,
    fixed_key=LOCK_PK,
)


def ratings_refresh_on_commit() -> None:
    """Once the current transaction commits, queue a `rankings.tasks.ratings_refresh`
    unless one is queued already and hasn't started (`RatingsLock.queued_at`;
    `troefclub.refresh`).

    The ratings follow the standings (`RankingsConfig.ready`): every write that queues a
    standings refresh (a game over, corrected, reopened, confirmed, its totals, the
    schedule) queues this one too; the competition import calls it itself. A broker that is
    down is logged, never raised (the write is saved); beat runs the task every
    `STANDINGS_SWEEP_SECONDS` anyway.
    """
    RATINGS.on_commit()
