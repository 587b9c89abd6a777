"""Reads for the rankings, ratings and the player, koppel and club pages (issue 10).

Everything here starts from `games_counted`: the games that count once they are over (and
confirmed, where the competition asks for it). `game_rows` reads any set of them in three
queries, whatever its size, with the club each player played for at the time: the club
side's club in a club competition, the club the koppel's entry kept in a pairs competition
(`Entry.player_1_club`/`player_2_club`), never a player's club of today.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from django.db.models import Count, DateField, F, OuterRef, Q, QuerySet, Subquery, Window
from django.db.models.functions import Coalesce, Rank

from rankings.models import PlayerRating
from scoring.models import Game, Round
from scoring.rules import Result
from scoring.rules.seasons import (
    SeasonGame,
    SeasonSide,
)
from tournaments.models import Club, Competition, Entry, Matchday


def _matchday_date_or_nearest() -> Coalesce:
    """A game's date as the order of games reads it: its matchday's, or, for a matchday
    without one, the date of the nearest earlier matchday of its competition that has one,
    else of the nearest later one (None when the competition has no date at all). An
    undated matchday played between two dated ones is placed between them, not before
    every dated game of every season (a second tester's finding)."""
    nearest = Matchday.objects.filter(
        competition=OuterRef("match__matchday__competition"), date__isnull=False
    ).values("date")
    earlier = nearest.filter(number__lt=OuterRef("match__matchday__number")).order_by("-number")
    later = nearest.filter(number__gt=OuterRef("match__matchday__number")).order_by("number")
    return Coalesce(
        "match__matchday__date",
        Subquery(earlier[:1]),
        Subquery(later[:1]),
        output_field=DateField(),
    )


# The date a game is ordered by (ratings, histories, tallies): see above.
GAME_DATE = _matchday_date_or_nearest()


# The order games are taken in (the ratings, histories, tallies): a total order read from
# the data alone, so importing the same seasons in another order (other ids) rates them the
# same (issue 22, tests/rankings/test_rating_order.py):
#   the date (`GAME_DATE`; games of a competition without any date first);
#   the matchday's start time, a matchday without one first (as an undated competition: the
#     time is optional, and an evening whose time is unknown is taken as starting the day);
#   the competition by slug (unique and stable across exports, unlike its id);
#   the matchday number, the sitting, the table;
#   koppel A's and koppel B's keys (unique), then the game points: two games still equal on
#     all of that have the same four players and the same outcome, so whichever goes first
#     the ratings are the same; the id only makes the database's order deterministic.
GAME_ORDER = (
    GAME_DATE.asc(nulls_first=True),
    F("match__matchday__time").asc(nulls_first=True),
    "match__matchday__competition__slug",
    "match__matchday__number",
    "sitting",
    "table",
    "team_a__key",
    "team_b__key",
    "score_a",
    "score_b",
    "pk",
)


@dataclass(frozen=True, slots=True, kw_only=True)
class GameSideRow:
    """One koppel's side of a counted game: `koppel` id, its `players` ids (player 1,
    player 2 of the koppel), their `clubs` at the time (ids or None, same order), its game
    `points`, `kaps` and `baunies` (as stored on the game), `failed_baunies` and
    `early_kaps` (its rounds of `baunie_mislukt` / `kap_te_vroeg`), rounds it won while
    one of its players called (`won_as_caller`) or while the other side called
    (`won_not_caller`)."""

    koppel: int
    players: tuple[int, int]
    clubs: tuple[int | None, int | None]
    points: int
    kaps: int
    baunies: int
    failed_baunies: int
    early_kaps: int
    won_as_caller: int
    won_not_caller: int

    def season_side(self) -> SeasonSide:
        return SeasonSide(
            koppel=self.koppel,
            players=self.players,
            clubs=self.clubs,
            points=self.points,
            kaps=self.kaps,
            baunies=self.baunies,
            failed_baunies=self.failed_baunies,
            early_kaps=self.early_kaps,
            won_as_caller=self.won_as_caller,
            won_not_caller=self.won_not_caller,
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class GameRow:
    """A counted game with where it was played: `game` id, `date` (the matchday's; None
    when the matchday has none), the competition (`competition` id, `slug`, `name`,
    `season`, `kind`), `matchday` number, `match` id, `sitting`, `table`, and its sides
    `a` and `b` (`GameSideRow`)."""

    game: int
    date: date | None
    competition: int
    slug: str
    name: str
    season: str
    kind: str
    matchday: int
    match: int
    sitting: int
    table: int
    a: GameSideRow
    b: GameSideRow

    def season_game(self) -> SeasonGame:
        """The game as `scoring.rules.seasons` reads it (a game without a date sorts as
        the earliest day)."""
        return SeasonGame(
            date=self.date or date.min,
            game=self.game,
            a=self.a.season_side(),
            b=self.b.season_side(),
        )


_GAME_COLUMNS = (
    "pk",
    "match__matchday__date",
    "match__matchday__competition_id",
    "match__matchday__competition__slug",
    "match__matchday__competition__name",
    "match__matchday__competition__season",
    "match__matchday__competition__kind",
    "match__matchday__number",
    "match_id",
    "sitting",
    "table",
    "a_is_home",
    "match__home__club_id",
    "match__away__club_id",
    "team_a_id",
    "team_a__player_1_id",
    "team_a__player_2_id",
    "team_b_id",
    "team_b__player_1_id",
    "team_b__player_2_id",
    "score_a",
    "score_b",
    "kaps_a",
    "kaps_b",
    "baunies_a",
    "baunies_b",
)


# Up to this many games (or koppels), `game_rows` names them by id in its later queries:
# the planner then reads only their rows through the indexes on `game_id` (`team_id`). A
# subquery instead made PostgreSQL hash-join all 98,000 rounds of the database before
# narrowing them to a player's 15 games (issue 20: the player page grew 4× from 10 to
# 1,000 koppels). More (a season, a big club) read most of the table anyway, where the
# hash join is right and a list of ids would only be long.
IDS_NAMED_MAX = 1000


def _round_counts(games: QuerySet[Game] | list[int]) -> dict[int, tuple[int, ...]]:
    """Per game id: failed baunies, early kaps, rounds won as caller and not as caller, of
    side A then side B (8 counts), in one query over the rounds of `games` (game ids, or a
    queryset of games)."""
    a_called = Q(caller_id=F("game__team_a__player_1_id")) | Q(
        caller_id=F("game__team_a__player_2_id")
    )
    b_called = Q(caller_id=F("game__team_b__player_1_id")) | Q(
        caller_id=F("game__team_b__player_2_id")
    )
    rows = (
        Round.objects.filter(game__in=games if isinstance(games, list) else games.values("pk"))
        .order_by()
        .values("game_id")
        .annotate(
            failed_a=Count("pk", filter=Q(result=Result.BAUNIE_MISLUKT, side="a")),
            early_a=Count("pk", filter=Q(result=Result.KAP_TE_VROEG, side="a")),
            caller_a=Count("pk", filter=Q(points_a__gt=0) & a_called),
            not_caller_a=Count("pk", filter=Q(points_a__gt=0) & b_called),
            failed_b=Count("pk", filter=Q(result=Result.BAUNIE_MISLUKT, side="b")),
            early_b=Count("pk", filter=Q(result=Result.KAP_TE_VROEG, side="b")),
            caller_b=Count("pk", filter=Q(points_b__gt=0) & b_called),
            not_caller_b=Count("pk", filter=Q(points_b__gt=0) & a_called),
        )
        .values_list(
            "game_id",
            "failed_a",
            "early_a",
            "caller_a",
            "not_caller_a",
            "failed_b",
            "early_b",
            "caller_b",
            "not_caller_b",
        )
    )
    return {row[0]: row[1:] for row in rows}


def entry_player_clubs(
    competition_ids: Iterable[int], *, koppels: Iterable[int] | None = None
) -> dict[tuple[int, int], tuple[int | None, int | None]]:
    """The clubs each pairs entry kept for its players, by (competition id, koppel id):
    one query; only the entries of `koppels` (ids) when given, else every koppel's."""
    entries = Entry.objects.filter(competition_id__in=list(competition_ids), team__isnull=False)
    if koppels is not None:
        entries = entries.filter(team_id__in=list(koppels))
    rows = entries.values_list("competition_id", "team_id", "player_1_club_id", "player_2_club_id")
    return {(competition, team): (club_1, club_2) for competition, team, club_1, club_2 in rows}


def _counted(counts: tuple[int, ...]) -> dict[str, int]:
    """One side's four round counts of `_round_counts`, by `GameSideRow` field."""
    failed, early, as_caller, not_caller = counts
    return {
        "failed_baunies": failed,
        "early_kaps": early,
        "won_as_caller": as_caller,
        "won_not_caller": not_caller,
    }


def game_rows(games: QuerySet[Game]) -> list[GameRow]:
    """The counted `games` (a queryset of `games_counted`, filtered as the caller likes) as
    `GameRow`s, oldest first (date, competition, matchday, sitting, table; games without
    a date first). Three queries whatever the number of games: the games with their
    places, their rounds' counts, and the pairs entries' clubs; the last two name the
    games and koppels found by id when there are few (`IDS_NAMED_MAX`), so a player's
    page reads its own rounds, not the database's."""
    values = list(games.order_by(*GAME_ORDER).values_list(*_GAME_COLUMNS))
    if not values:
        return []
    ids = [row[0] for row in values]
    counts = _round_counts(ids if len(ids) <= IDS_NAMED_MAX else games)
    pairs = {row[2] for row in values if row[6] == Competition.Kind.PAIRS}
    koppels = {team for row in values for team in (row[14], row[17])}
    kept = (
        entry_player_clubs(pairs, koppels=koppels if len(koppels) <= IDS_NAMED_MAX else None)
        if pairs
        else {}
    )
    rows = []
    for (
        pk, day, competition, slug, name, season, kind, number, match, sitting, table,
        a_is_home, home_club, away_club,
        team_a, a_1, a_2, team_b, b_1, b_2,
        score_a, score_b, kaps_a, kaps_b, baunies_a, baunies_b,
    ) in values:  # fmt: skip
        if kind == Competition.Kind.CLUBS:
            club_a = home_club if a_is_home else away_club
            club_b = away_club if a_is_home else home_club
            clubs_a: tuple[int | None, int | None] = (club_a, club_a)
            clubs_b: tuple[int | None, int | None] = (club_b, club_b)
        else:
            clubs_a = kept.get((competition, team_a), (None, None))
            clubs_b = kept.get((competition, team_b), (None, None))
        n = counts.get(pk, (0,) * 8)
        rows.append(
            GameRow(
                game=pk,
                date=day,
                competition=competition,
                slug=slug,
                name=name,
                season=season,
                kind=kind,
                matchday=number,
                match=match,
                sitting=sitting,
                table=table,
                a=GameSideRow(
                    koppel=team_a,
                    players=(a_1, a_2),
                    clubs=clubs_a,
                    points=score_a,
                    kaps=kaps_a,
                    baunies=baunies_a,
                    **_counted(n[:4]),
                ),
                b=GameSideRow(
                    koppel=team_b,
                    players=(b_1, b_2),
                    clubs=clubs_b,
                    points=score_b,
                    kaps=kaps_b,
                    baunies=baunies_b,
                    **_counted(n[4:]),
                ),
            )
        )
    return rows


# Rating list


@dataclass(frozen=True, slots=True, kw_only=True)
class RatingList:
    """The rating list as a page shows it: `ratings`, the `PlayerRating`s of `min_games`
    rated games or more (of the players of `club` only, by their club now, when it is not
    None), best first (ordinal, then name), each with its `rank` annotated (shared by
    equal ordinals) and its player and club joined; `below`, how many players of the same
    choice have fewer games and are left out; `clubs`, the clubs of listed players (the
    filter's choices, by name)."""

    ratings: QuerySet[PlayerRating]
    below: int
    min_games: int
    club: Club | None
    clubs: list[Club]


def rating_list(*, min_games: int, club_key: str = "") -> RatingList:
    """The players' ratings with at least `min_games` rated games (`RATING_MIN_GAMES`),
    of the club keyed `club_key` only (their club now; "" or a key of no listed player's
    club: every club). Two queries here (the clubs, the count below the threshold), one
    or two more when `ratings` is read (a page of it and its length)."""
    clubs = list(
        Club.objects.filter(players__rating__games__gte=min_games)
        .distinct()
        .order_by("name", "key")
    )
    chosen = next((club for club in clubs if club.key == club_key), None) if club_key else None
    ratings = PlayerRating.objects.all()
    if chosen is not None:
        ratings = ratings.filter(player__club=chosen)
    below = ratings.filter(games__lt=min_games).count()
    listed = (
        ratings.filter(games__gte=min_games)
        .select_related("player__club")
        .annotate(rank=Window(Rank(), order_by=F("ordinal").desc()))
        .order_by("-ordinal", "player__name", "pk")
    )
    return RatingList(ratings=listed, below=below, min_games=min_games, club=chosen, clubs=clubs)
