"""Reads for the player, koppel and club pages (issue 10): seasons, koppels, head-to-head
records, game histories and the numbers their charts draw.

Every page reads all the counted games of its player, koppel or club with
`rankings.selectors.game_rows` (three queries whatever their number), works out its
tallies in Python (`scoring.rules.seasons.season_tallies`) and pages its game history in
Python over those rows: the season tallies need every game anyway, so a page of the
history costs no query of its own, and the names of the koppels shown (of that page and of
the other lists) come in one more query. So each page costs the same number of queries
however many games, seasons and opponents there are (tests/rankings/test_profile_queries.py).

Clubs are always the club a player played for at the time (`GameSideRow.clubs`): a
transfer never moves old games to the new club.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import Case, Count, Exists, OuterRef, Q, QuerySet, Value, When

from rankings.models import PlayerRating, RatingChange
from rankings.selectors import GameRow, GameSideRow, game_rows, games_counted
from scoring.models import Game
from scoring.rules.seasons import SeasonBy, SeasonTally, season_tallies
from tournaments.models import Club, Competition, Entry, Player, Team
from tournaments.tables import page_links

# Games a page of a history: a phone scrolls 25 rows easily.
HISTORY_PER_PAGE = 25
# Evenings in a koppel's points chart: more bars than this are too thin at 390 px.
CHART_EVENINGS = 30
# Points in a rating chart at most (`rankings.charts.thin`).
CHART_RATING_POINTS = 200
# Koppels a search for an opponent offers at most.
KOPPEL_CHOICES = 10


class Outcome(StrEnum):
    """A game's result for one side."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


def outcome(points: int, other: int) -> Outcome:
    """WIN, DRAW or LOSS for the side with `points` against `other` (game points)."""
    if points > other:
        return Outcome.WIN
    return Outcome.DRAW if points == other else Outcome.LOSS


@dataclass(frozen=True, slots=True, kw_only=True)
class HistoryLine:
    """One game of a history, seen from one side: where it was played (`game` id,
    `date`, competition `slug`, `competition` name, `matchday` number), `koppel` (the
    side's) and `opponent` (`Team`s), the game points of each (`points_for`,
    `points_against`) and the `outcome` for the side; None when both koppels played for
    the club whose page this is (a club evening of one club)."""

    game: int
    date: date | None
    slug: str
    competition: str
    matchday: int
    koppel: Team
    opponent: Team
    points_for: int
    points_against: int
    outcome: Outcome | None


@dataclass(frozen=True, slots=True)
class History:
    """A page of a game history, newest first: `page` (a Django `Page` of `GameRow`s),
    `links` (the page numbers to link, `tournaments.tables.page_links`) and `lines`."""

    page: Page[GameRow]
    links: list[int | None]
    lines: list[HistoryLine]


# Which side of a game is the page's: the side itself, and whether the other side is the
# page's too (two koppels of one club).
SideOf = Callable[[GameRow], tuple[GameSideRow, GameSideRow, bool]]


def _history_page(rows: Sequence[GameRow], page_number: str | None) -> Page[GameRow]:
    """The page `page_number` (as the query string gave it) of `rows` newest first; a
    number that isn't one gives the first page, one out of range the last (never an
    error)."""
    newest_first = list(reversed(rows))
    return Paginator(newest_first, HISTORY_PER_PAGE).get_page(page_number)


def _history(page: Page[GameRow], side_of: SideOf, teams: dict[int, Team]) -> History:
    lines = []
    for row in page.object_list:
        own, other, both = side_of(row)
        lines.append(
            HistoryLine(
                game=row.game,
                date=row.date,
                slug=row.slug,
                competition=row.name,
                matchday=row.matchday,
                koppel=teams[own.koppel],
                opponent=teams[other.koppel],
                points_for=own.points,
                points_against=other.points,
                outcome=None if both else outcome(own.points, other.points),
            )
        )
    return History(page=page, links=page_links(page), lines=lines)


def _page_koppels(page: Page[GameRow]) -> set[int]:
    return {koppel for row in page.object_list for koppel in (row.a.koppel, row.b.koppel)}


def _teams(ids: Collection[int]) -> dict[int, Team]:
    """The koppels `ids` with their players (one query; none when `ids` is empty).
    Not `in_bulk`: on SQLite it splits more than 999 ids into several queries."""
    if not ids:
        return {}
    teams = Team.objects.select_related("player_1", "player_2").filter(pk__in=list(ids))
    return {team.pk: team for team in teams}


def _seasons_newest_first(rows: Sequence[GameRow]) -> list[str]:
    """The seasons of `rows` (oldest first), the one played last first."""
    last: dict[str, int] = {}
    for index, row in enumerate(rows):
        last[row.season] = index
    return sorted(last, key=last.__getitem__, reverse=True)


def _by_season(rows: Iterable[GameRow]) -> dict[str, list[GameRow]]:
    seasons: dict[str, list[GameRow]] = defaultdict(list)
    for row in rows:
        seasons[row.season].append(row)
    return seasons


def _tally(rows: Iterable[GameRow], by: SeasonBy, entry: int) -> SeasonTally:
    tallies = season_tallies((row.season_game() for row in rows), by=by)
    return tallies.get(entry) or SeasonTally(entry)


# ---------------------------------------------------------------- player


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
    """The counted games `player` played in, in any koppel."""
    return games_counted().filter(
        Q(team_a__player_1=player)
        | Q(team_a__player_2=player)
        | Q(team_b__player_1=player)
        | Q(team_b__player_2=player)
    )


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
    player's games (`game_rows`, three), the koppels shown (one) and the clubs of the
    seasons (one): six queries whatever the number of games (fewer without games)."""
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
    page = _history_page(rows, page_number)
    teams = _teams(own_koppels | _page_koppels(page))
    club_ids = {club for counter in spells.values() for club in counter if club is not None}
    clubs = Club.objects.in_bulk(list(club_ids)) if club_ids else {}
    seasons = _by_season(rows)
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
                tally=_tally(seasons[season], SeasonBy.PLAYER, player.pk),
            )
            for season in _seasons_newest_first(rows)
        ],
        koppels=koppels,
        history=_history(page, side_of, teams),
    )


# ---------------------------------------------------------------- koppel


@dataclass(frozen=True, slots=True, kw_only=True)
class KoppelSeason:
    """One season of a koppel: its `tally` over all competitions of the season."""

    season: str
    tally: SeasonTally


@dataclass(frozen=True, slots=True, kw_only=True)
class Meeting:
    """A koppel's record against one `opponent`: games, wins, draws, losses and game
    points for and against, and the `last` date they met (None: no date known)."""

    opponent: Team
    games: int
    wins: int
    draws: int
    losses: int
    points_for: int
    points_against: int
    last: date | None


@dataclass(frozen=True, slots=True, kw_only=True)
class Evening:
    """A koppel's game points on one evening (a date; None: games without one): `games`
    played, `points_for` and `points_against` summed."""

    date: date | None
    games: int
    points_for: int
    points_against: int


@dataclass(frozen=True, slots=True, kw_only=True)
class KoppelProfile:
    """What the koppel page shows: the `seasons` (latest first), the `total` over all of
    them, the `meetings` with every koppel met (most games first), the latest
    `evenings` for the chart (oldest first, at most CHART_EVENINGS) and a page of the
    game `history`."""

    koppel: Team
    seasons: list[KoppelSeason]
    total: SeasonTally
    meetings: list[Meeting]
    evenings: list[Evening]
    history: History


def koppel_games(koppel: Team) -> QuerySet[Game]:
    """The counted games of `koppel`."""
    return games_counted().filter(Q(team_a=koppel) | Q(team_b=koppel))


def _koppel_side(koppel_id: int) -> SideOf:
    def side_of(row: GameRow) -> tuple[GameSideRow, GameSideRow, bool]:
        if row.a.koppel == koppel_id:
            return row.a, row.b, False
        return row.b, row.a, False

    return side_of


def _meetings(rows: Iterable[GameRow], side_of: SideOf) -> dict[int, list[Any]]:
    """Per opponent id: [games, wins, draws, losses, for, against, last date]."""
    met: dict[int, list[Any]] = {}
    for row in rows:
        own, other, _ = side_of(row)
        record = met.setdefault(other.koppel, [0, 0, 0, 0, 0, 0, None])
        result = outcome(own.points, other.points)
        record[0] += 1
        record[1] += result is Outcome.WIN
        record[2] += result is Outcome.DRAW
        record[3] += result is Outcome.LOSS
        record[4] += own.points
        record[5] += other.points
        record[6] = row.date or record[6]
    return met


def _evenings(rows: Iterable[GameRow], side_of: SideOf) -> list[Evening]:
    days: dict[date | None, list[int]] = {}
    for row in rows:
        own, other, _ = side_of(row)
        day = days.setdefault(row.date, [0, 0, 0])
        day[0] += 1
        day[1] += own.points
        day[2] += other.points
    # Rows are oldest first (games without a date before the rest), so the dict is too.
    return [
        Evening(date=day, games=games, points_for=points, points_against=against)
        for day, (games, points, against) in list(days.items())[-CHART_EVENINGS:]
    ]


def koppel_profile(*, koppel: Team, page_number: str | None) -> KoppelProfile:
    """The koppel page's reads for `koppel` (fetched with its players): its games
    (`game_rows`, three queries) and the koppels it met (one). Four queries whatever the
    number of games and opponents."""
    rows = game_rows(koppel_games(koppel))
    side_of = _koppel_side(koppel.pk)
    met = _meetings(rows, side_of)
    page = _history_page(rows, page_number)
    teams = _teams(set(met) | _page_koppels(page))
    teams[koppel.pk] = koppel
    seasons = _by_season(rows)
    meetings = [
        Meeting(
            opponent=teams[opponent],
            games=games,
            wins=wins,
            draws=draws,
            losses=losses,
            points_for=points_for,
            points_against=against,
            last=last,
        )
        for opponent, (games, wins, draws, losses, points_for, against, last) in met.items()
    ]
    meetings.sort(key=lambda meeting: (-meeting.games, str(meeting.opponent)))
    return KoppelProfile(
        koppel=koppel,
        seasons=[
            KoppelSeason(season=season, tally=_tally(seasons[season], SeasonBy.KOPPEL, koppel.pk))
            for season in _seasons_newest_first(rows)
        ],
        total=_tally(rows, SeasonBy.KOPPEL, koppel.pk),
        meetings=meetings,
        evenings=_evenings(rows, side_of),
        history=_history(page, side_of, teams),
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class HeadToHead:
    """Two koppels' record against each other: `games`, `wins` of `koppel`, `losses`
    (the wins of `other`), `draws`, game `points_for` (`koppel`'s) and `points_against`
    (`other`'s), and a page of their games (`history`, seen from `koppel`)."""

    koppel: Team
    other: Team
    games: int
    wins: int
    draws: int
    losses: int
    points_for: int
    points_against: int
    history: History


def koppel_head_to_head(*, koppel: Team, other: Team, page_number: str | None) -> HeadToHead:
    """The games between `koppel` and `other` (fetched with their players) and their
    record (`game_rows`: three queries, or one when they never met)."""
    rows = game_rows(
        games_counted().filter(Q(team_a=koppel, team_b=other) | Q(team_a=other, team_b=koppel))
    )
    side_of = _koppel_side(koppel.pk)
    record = _meetings(rows, side_of).get(other.pk, [0, 0, 0, 0, 0, 0, None])
    page = _history_page(rows, page_number)
    return HeadToHead(
        koppel=koppel,
        other=other,
        games=record[0],
        wins=record[1],
        draws=record[2],
        losses=record[3],
        points_for=record[4],
        points_against=record[5],
        history=_history(page, side_of, {koppel.pk: koppel, other.pk: other}),
    )


# Between the two players' names of a koppel as people write it: "A & B" (how a koppel
# without a name of its own is shown), "A en B", "A and B".
KOPPEL_NAME_JOINS = re.compile(r"\s*&\s*|\s+(?:en|and)\s+", re.IGNORECASE)


def koppel_player_names(text: str) -> tuple[str, str] | None:
    """The two player names of `text` when it names a koppel by its players ("Sharda S. &
    Shanti L.", "sharda en shanti", "A and B"), else None (one name, or more than two)."""
    names = [name.strip() for name in KOPPEL_NAME_JOINS.split(text.strip())]
    if len(names) == 2 and all(names):
        return names[0], names[1]
    return None


def koppel_players_q(text: str, *, lookup: str = "iexact") -> Q | None:
    """A `Team` filter: the koppels whose two players' names match the two names of
    `text` (`koppel_player_names`), in either order; `lookup` says how a name matches
    ("iexact": the whole name, "icontains": part of it, both any case). None when `text`
    names no two players."""
    names = koppel_player_names(text)
    if names is None:
        return None
    first, second = names
    one, two = f"player_1__name__{lookup}", f"player_2__name__{lookup}"
    return Q(**{one: first, two: second}) | Q(**{one: second, two: first})


def koppels_matching(*, text: str, exclude: Team) -> list[Team]:
    """The koppels (other than `exclude`) that `text` names, for the head-to-head form:
    the one whose key or name is `text` (any case), or whose two players are named
    "A & B" ("A en B", "A and B"; either order); failing that, up to KOPPEL_CHOICES whose
    name or a player's name contains it. One query; an empty `text` finds nothing."""
    text = text.strip()
    if not text:
        return []
    exact = Q(key__iexact=text) | Q(name__iexact=text)
    players = koppel_players_q(text)
    if players is not None:
        exact |= players
    found: list[Team] = list(
        Team.objects.select_related("player_1", "player_2")
        .exclude(pk=exclude.pk)
        .filter(
            exact
            | Q(name__icontains=text)
            | Q(player_1__name__icontains=text)
            | Q(player_2__name__icontains=text)
        )
        .annotate(exact=Case(When(exact, then=Value(1)), default=Value(0)))
        .order_by("-exact", "name", "key")[: KOPPEL_CHOICES + 1]
    )
    named = [team for team in found if getattr(team, "exact", 0)]
    return named[:1] if len(named) == 1 else found[:KOPPEL_CHOICES]


# ---------------------------------------------------------------- club


@dataclass(frozen=True, slots=True, kw_only=True)
class ClubSeason:
    """One season of a club: its `tally` (every game one of its players played for it
    then, `season_tallies(by="club")`), the `players` and `koppels` that played for it
    then (by name)."""

    season: str
    tally: SeasonTally
    players: list[Player]
    koppels: list[Team]


@dataclass(frozen=True, slots=True, kw_only=True)
class ClubCompetition:
    """A competition the club took part in: `as_club` when it entered as a club (a
    league), and `koppels`, how many of the entered koppels had a player of it."""

    competition: Competition
    as_club: bool
    koppels: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ClubProfile:
    """What the club page shows: its `players` now, its `seasons` (latest first), its
    `competitions` (latest season first) and a page of its games (`history`)."""

    club: Club
    players: list[Player]
    seasons: list[ClubSeason]
    competitions: list[ClubCompetition]
    history: History


def club_games(club: Club) -> QuerySet[Game]:
    """The counted games in which a koppel played for `club` at the time: a club match of
    the club, or a pairs game whose koppel's entry kept the club for one of its players.
    (`game_rows` then says which side was the club's.)"""
    return games_counted().filter(
        Q(match__home__club=club)
        | Q(match__away__club=club)
        | Q(match__home__player_1_club=club)
        | Q(match__home__player_2_club=club)
        | Q(match__away__player_1_club=club)
        | Q(match__away__player_2_club=club)
    )


def club_competitions(club: Club) -> list[ClubCompetition]:
    """The competitions `club` entered as a club, or in which an entered koppel kept it for
    one of its players; latest season first (one query)."""
    kept = Q(player_1_club=club) | Q(player_2_club=club)
    competitions = (
        Competition.objects.filter(
            Exists(Entry.objects.filter(Q(club=club) | kept, competition=OuterRef("pk")))
        )
        .annotate(
            as_club=Exists(Entry.objects.filter(club=club, competition=OuterRef("pk"))),
            koppels=Count(
                "entries",
                filter=Q(entries__player_1_club=club) | Q(entries__player_2_club=club),
            ),
        )
        .order_by("-season", "name")
    )
    return [
        ClubCompetition(
            competition=competition,
            as_club=competition.as_club,
            koppels=competition.koppels,
        )
        for competition in competitions
    ]


def club_profile(*, club: Club, page_number: str | None) -> ClubProfile:
    """The club page's reads: its players now (one query), its games (`game_rows`,
    three), the koppels and players shown (one) and its competitions (one). Six queries
    whatever the number of games and seasons."""
    players_now = list(club.players.order_by("name"))
    rows = [row for row in game_rows(club_games(club)) if club.pk in row.a.clubs + row.b.clubs]

    def side_of(row: GameRow) -> tuple[GameSideRow, GameSideRow, bool]:
        if club.pk in row.a.clubs:
            return row.a, row.b, club.pk in row.b.clubs
        return row.b, row.a, False

    season_players: dict[str, set[int]] = defaultdict(set)
    season_koppels: dict[str, set[int]] = defaultdict(set)
    for row in rows:
        for side in (row.a, row.b):
            if club.pk not in side.clubs:
                continue
            season_koppels[row.season].add(side.koppel)
            for player, at_the_time in zip(side.players, side.clubs, strict=True):
                if at_the_time == club.pk:
                    season_players[row.season].add(player)
    page = _history_page(rows, page_number)
    koppel_ids = {koppel for koppels in season_koppels.values() for koppel in koppels}
    teams = _teams(koppel_ids | _page_koppels(page))
    # Every player who played for the club is in one of its koppels: no query of its own.
    players = {
        player.pk: player for team in teams.values() for player in (team.player_1, team.player_2)
    }
    seasons = _by_season(rows)
    return ClubProfile(
        club=club,
        players=players_now,
        seasons=[
            ClubSeason(
                season=season,
                tally=_tally(seasons[season], SeasonBy.CLUB, club.pk),
                players=sorted(
                    (players[pk] for pk in season_players[season]), key=lambda p: p.name
                ),
                koppels=sorted((teams[pk] for pk in season_koppels[season]), key=str),
            )
            for season in _seasons_newest_first(rows)
        ],
        competitions=club_competitions(club),
        history=_history(page, side_of, teams),
    )
