"""The player page's reads: the player's games, seasons (with the club of each), koppels and
the rating history its chart draws.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import date

from django.db.models import Q, QuerySet

from rankings.models import PlayerRating, RatingChange
from rankings.profiles.history import (
    History,
    by_season,
    history_page,
    history_rows,
    page_koppels,
    seasons_newest_first,
    side_tally,
    teams_of,
)
from rankings.selectors import GameRow, GameSideRow, game_rows
from scoring.models import Game
from scoring.rules.seasons import SeasonBy, SeasonTally, season_tallies
from scoring.selectors.counted import games_counted
from tournaments.models import Club, Player, Team


@dataclass(frozen=True, slots=True, kw_only=True)
class ClubSpell:
    """A club a player played `games` for in a season (`club` None: without a club)."""

    club: Club | None
    games: int


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerSeason:
    """One season of a player: the `clubs` played for then (most games first) and the
    season's `tally` (`SeasonTally`, all competitions of the season)."""

    season: str
    clubs: list[ClubSpell]
    tally: SeasonTally


@dataclass(frozen=True, slots=True, kw_only=True)
class KoppelRecord:
    """A koppel and its `tally` over the games of a page (all seasons)."""

    koppel: Team
    tally: SeasonTally


@dataclass(frozen=True, slots=True, kw_only=True)
class RatingPoint:
    """A player's rating after one rated game: `position` (`RatedGame.position`, the
    order ratings took the games), the game's `date` (None without one) and `ordinal`
    (mu − 3·sigma, what the rating list ranks by)."""

    position: int
    date: date | None
    ordinal: float


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerProfile:
    """What the player page shows: the current `rating` (None: not rated yet) and its
    history `rating_points` (oldest first), the `seasons` (latest first), the `koppels`
    played in (most games first) and a page of the game `history`."""

    player: Player
    rating: PlayerRating | None
    rating_points: list[RatingPoint]
    seasons: list[PlayerSeason]
    koppels: list[KoppelRecord]
    history: History


def player_games(player: Player) -> QuerySet[Game]:
    """The counted games `player` played in, in any koppel (one query first: the player's
    koppels). Named by id, so PostgreSQL reads the games through the indexes on `team_a`
    and `team_b`; a condition on the koppels' players joined every game to its koppels
    first (issue 20)."""
    koppels = list(
        Team.objects.filter(Q(player_1=player) | Q(player_2=player)).values_list("pk", flat=True)
    )
    return games_counted().filter(Q(team_a_id__in=koppels) | Q(team_b_id__in=koppels))


def player_rating_points(player: Player) -> list[RatingPoint]:
    """The player's rating after each of their rated games, oldest first (one query)."""
    rows = (
        RatingChange.objects.filter(player=player)
        .order_by("rated_game__position")
        .values_list(
            "rated_game__position", "rated_game__game__match__matchday__date", "mu", "sigma"
        )
    )
    return [
        RatingPoint(position=position, date=day, ordinal=mu - 3 * sigma)
        for position, day, mu, sigma in rows
    ]


def player_profile(*, player: Player, page_number: str | None) -> PlayerProfile:
    """The player page's reads for `player` (fetched with `select_related("club",
    "rating")`, so its rating costs no query): the rating history (one query), the
    player's koppels (one) and games (`game_rows`, three), the koppels shown (one) and the
    clubs of the seasons (one): seven queries whatever the number of games (fewer without
    games)."""
    try:
        rating: PlayerRating | None = player.rating
    except PlayerRating.DoesNotExist:
        rating = None
    rows = game_rows(player_games(player))

    def side_of(row: GameRow) -> tuple[GameSideRow, GameSideRow, bool]:
        if player.pk in row.a.players:
            return row.a, row.b, False
        return row.b, row.a, False

    spells: dict[str, Counter[int | None]] = defaultdict(Counter)
    own_koppels: set[int] = set()
    for row in rows:
        own, _, _ = side_of(row)
        spells[row.season][own.clubs[own.players.index(player.pk)]] += 1
        own_koppels.add(own.koppel)
    page = history_page(rows, page_number)
    teams = teams_of(own_koppels | page_koppels(page))
    club_ids = {club for counter in spells.values() for club in counter if club is not None}
    clubs = Club.objects.in_bulk(list(club_ids)) if club_ids else {}
    seasons = by_season(rows)
    koppel_tallies = season_tallies((row.season_game() for row in rows), by=SeasonBy.KOPPEL)
    koppels = sorted(
        (
            KoppelRecord(koppel=teams[koppel], tally=tally)
            for koppel, tally in koppel_tallies.items()
            if isinstance(koppel, int) and koppel in own_koppels
        ),
        key=lambda record: (-record.tally.games, str(record.koppel)),
    )
    return PlayerProfile(
        player=player,
        rating=rating,
        rating_points=player_rating_points(player),
        seasons=[
            PlayerSeason(
                season=season,
                clubs=[
                    ClubSpell(club=clubs.get(club) if club is not None else None, games=games)
                    for club, games in spells[season].most_common()
                ],
                tally=side_tally(seasons[season], SeasonBy.PLAYER, player.pk),
            )
            for season in seasons_newest_first(rows)
        ],
        koppels=koppels,
        history=history_rows(page, side_of, teams),
    )
