"""The club page's reads: its players now, its seasons, competitions and games.

A club's seasons are read from the stored season rankings (`rankings.season_refresh`, issue
20): the club's line of the season's ranking by club narrowed to the club is its tally, and
the rankings by player and by koppel narrowed to it list who played for it then. Its games
are paged in the database, only the page's read (`game_rows`). A 2,000-player club whose
koppels played 7,500 games took 0.9-1.3 s walking them all in Python. Games of a
competition without a season are in no season ranking: they are still tallied from their
games (a club's seasonless competitions are its own few evenings).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

from django.core.paginator import Page, Paginator
from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet, Window
from django.db.models.functions import RowNumber

from rankings.models import SeasonRankingLine, SeasonRankingList, SeasonRankingState
from rankings.profiles.history import (
    HISTORY_PER_PAGE,
    History,
    history_rows,
    page_koppels,
    side_tally,
    teams_of,
)
from rankings.season_refresh import TALLY_FIELDS
from rankings.selectors import GAME_DATE, GameRow, GameSideRow, game_rows
from scoring.models import Game
from scoring.rules.seasons import SeasonBy, SeasonTally
from scoring.selectors.counted import games_counted
from tournaments.models import Club, Competition, Entry, Player
from troefclub.pages import page_number_asked
from troefclub.tables import page_links

# Players of "Players now" a page: a club of 2,000 players made a 349 KB page (issue 20).
PLAYERS_PER_PAGE = 100

# Names of players and of koppels a season lists at most (the rest are counted): a club
# of 2,000 players listed them all in every season.
SEASON_NAMES_MAX = 30

# The tally columns of a stored line, in `SeasonTally`'s order after `entry` (its saldo is
# worked out, not read).
TALLY_COLUMNS = tuple(name for name in TALLY_FIELDS if name != "saldo")

# The club's games newest first: `rankings.selectors.GAME_ORDER` reversed.
_NEWEST_FIRST = (
    GAME_DATE.desc(nulls_last=True),
    F("match__matchday__time").desc(nulls_last=True),
    "-match__matchday__competition__slug",
    "-match__matchday__number",
    "-sitting",
    "-table",
    "-team_a__key",
    "-team_b__key",
    "-score_a",
    "-score_b",
    "-pk",
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Named:
    """A player or koppel as a club season names it: its `key` (for its link) and `name`
    (a koppel's `Team.__str__`)."""

    key: str
    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True, kw_only=True)
class ClubSeason:
    """One season of a club: its `tally` (every game one of its players played for it
    then, `season_tallies(by="club")`), the first SEASON_NAMES_MAX `players` and `koppels`
    that played for it then (by name) and how many there were (`players_count`,
    `koppels_count`)."""

    season: str
    tally: SeasonTally
    players: list[Named]
    players_count: int
    koppels: list[Named]
    koppels_count: int

    @property
    def players_more(self) -> int:
        """The players the page counts but doesn't name."""
        return max(self.players_count - len(self.players), 0)

    @property
    def koppels_more(self) -> int:
        """The koppels the page counts but doesn't name."""
        return max(self.koppels_count - len(self.koppels), 0)


@dataclass(frozen=True, slots=True, kw_only=True)
class ClubSeasonsState:
    """How fresh a club's stored seasons are: the `states` of the seasons of its
    competitions (None: never queued nor computed; `rankings.season_refresh` refreshes
    them); `as_of`, the oldest time their refreshes started (None: none computed);
    `stale`, a write since may have moved one of them; `pending`, one was never computed
    (the page doesn't show it yet)."""

    states: dict[str, SeasonRankingState | None]

    @property
    def as_of(self) -> datetime | None:
        return min(
            (s.computed_at for s in self.states.values() if s and s.computed_at), default=None
        )

    @property
    def stale(self) -> bool:
        return any(s is not None and s.stale_since is not None for s in self.states.values())

    @property
    def pending(self) -> bool:
        return any(s is None or s.computed_at is None for s in self.states.values())


@dataclass(frozen=True, slots=True, kw_only=True)
class ClubCompetition:
    """A competition the club took part in: `as_club` when it entered as a club (a
    league), and `koppels`, how many of the entered koppels had a player of it."""

    competition: Competition
    as_club: bool
    koppels: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ClubProfile:
    """What the club page shows: a page of its `players` now (by name, PLAYERS_PER_PAGE a
    page) with its `player_links` (`troefclub.tables.page_links`), its `seasons` (latest
    first; games without a season last) and how fresh they are (`seasons_state`), its
    `competitions` (latest season first) and a page of its games (`history`)."""

    club: Club
    players: Page[Player]
    player_links: list[int | None]
    seasons: list[ClubSeason]
    seasons_state: ClubSeasonsState
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


def club_seasons_state(seasons: list[str]) -> ClubSeasonsState:
    """The `ClubSeasonsState` of the stored rankings of `seasons` (those of the club's
    competitions). One query (none without a season)."""
    if not seasons:
        return ClubSeasonsState(states={})
    found = {state.season: state for state in SeasonRankingState.objects.filter(season__in=seasons)}
    return ClubSeasonsState(states={season: found.get(season) for season in seasons})


def _stored_seasons(club: Club) -> list[ClubSeason]:
    """The club's seasons as the stored rankings narrowed to it have them (see the module),
    newest first (the highest season string first). Three queries: the club's lists with
    their lengths, the club's own lines, the names each season shows."""
    lists = (
        SeasonRankingList.objects.filter(club=club, kind="")
        .exclude(season="")  # games without a season: `_seasonless`
        .annotate(entries=Count("lines"))
        .values_list("pk", "season", "by", "entries")
    )
    counted: dict[tuple[str, str], tuple[int, int]] = {
        (season, by): (pk, entries) for pk, season, by, entries in lists
    }
    if not counted:
        return []
    tallies = {
        season: SeasonTally(club.pk, *columns)
        for season, *columns in SeasonRankingLine.objects.filter(
            ranking__club=club, ranking__kind="", ranking__by=SeasonBy.CLUB.value, entry=club.pk
        )
        .exclude(ranking__season="")
        .values_list("ranking__season", *TALLY_COLUMNS)
    }
    named_lists = {
        pk: (season, by)
        for (season, by), (pk, _) in counted.items()
        if by in (SeasonBy.PLAYER.value, SeasonBy.KOPPEL.value)
    }
    names: dict[tuple[str, str], list[Named]] = defaultdict(list)
    first = (
        SeasonRankingLine.objects.filter(ranking_id__in=list(named_lists))
        .annotate(
            nth=Window(
                RowNumber(), partition_by=F("ranking_id"), order_by=(F("sort_name"), F("position"))
            )
        )
        .filter(nth__lte=SEASON_NAMES_MAX)
        .order_by("ranking_id", "nth")
        .values_list("ranking_id", "key", "name")
    )
    for ranking_id, key, name in first:
        names[named_lists[ranking_id]].append(Named(key=key, name=name))

    def count(season: str, by: SeasonBy) -> int:
        return counted.get((season, by.value), (0, 0))[1]

    return [
        ClubSeason(
            season=season,
            tally=tallies[season],
            players=names[(season, SeasonBy.PLAYER.value)],
            players_count=count(season, SeasonBy.PLAYER),
            koppels=names[(season, SeasonBy.KOPPEL.value)],
            koppels_count=count(season, SeasonBy.KOPPEL),
        )
        for season in sorted(tallies, reverse=True)
        if tallies[season].games
    ]


def _seasonless(club: Club) -> ClubSeason | None:
    """The club's games of competitions without a season as one season "" (no stored
    ranking holds them), tallied from the games (`game_rows`, three queries, and their
    koppels, one); None without such games."""
    rows = [
        row
        for row in game_rows(club_games(club).filter(match__matchday__competition__season=""))
        if club.pk in row.a.clubs + row.b.clubs
    ]
    if not rows:
        return None
    players: set[int] = set()
    koppels: set[int] = set()
    for row in rows:
        for side in (row.a, row.b):
            if club.pk not in side.clubs:
                continue
            koppels.add(side.koppel)
            players.update(
                p for p, then in zip(side.players, side.clubs, strict=True) if then == club.pk
            )
    teams = teams_of(koppels)
    people = {
        player.pk: player for team in teams.values() for player in (team.player_1, team.player_2)
    }
    by_name = sorted((people[pk] for pk in players), key=lambda p: (p.name.casefold(), p.pk))
    named_koppels = sorted(teams.values(), key=lambda team: (str(team).casefold(), team.pk))
    return ClubSeason(
        season="",
        tally=side_tally(rows, SeasonBy.CLUB, club.pk),
        players=[Named(key=p.key, name=p.name) for p in by_name[:SEASON_NAMES_MAX]],
        players_count=len(by_name),
        koppels=[Named(key=t.key, name=str(t)) for t in named_koppels[:SEASON_NAMES_MAX]],
        koppels_count=len(named_koppels),
    )


def club_history(club: Club, page_number: str | None) -> History:
    """A page of the club's games, newest first (`page_number` as the query string gave
    it: never an error), sorted and paged in the database: their number, the page's ids,
    the page's `game_rows` (three) and their koppels (one): six queries."""
    page = Paginator(
        club_games(club).order_by(*_NEWEST_FIRST).values_list("pk", flat=True), HISTORY_PER_PAGE
    ).get_page(page_number_asked(page_number))
    ids = list(page.object_list)
    rows = list(reversed(game_rows(games_counted().filter(pk__in=ids)))) if ids else []
    rows_page: Page[GameRow] = Page(rows, page.number, page.paginator)  # type: ignore[arg-type]

    def side_of(row: GameRow) -> tuple[GameSideRow, GameSideRow, bool]:
        if club.pk in row.a.clubs:
            return row.a, row.b, club.pk in row.b.clubs
        return row.b, row.a, False

    return history_rows(rows_page, side_of, teams_of(page_koppels(rows_page)))


def club_profile(
    *, club: Club, page_number: str | None, players_page: str | None = None
) -> ClubProfile:
    """The club page's reads: a page of its players now (`players_page` as the query
    string gave it; two queries: their number and the page), its competitions (one), its
    seasons from the stored rankings (three, `_stored_seasons`) and how fresh they are
    (one, `club_seasons_state`), a page of its games (six, `club_history`); four more when
    it played in a competition without a season (`_seasonless`). The same number of
    queries whatever the number of games, players and seasons."""
    players_now = Paginator(club.players.order_by("name", "pk"), PLAYERS_PER_PAGE).get_page(
        page_number_asked(players_page)
    )
    competitions = club_competitions(club)
    seasons = _stored_seasons(club)
    if any(item.competition.season == "" for item in competitions):
        seasonless = _seasonless(club)
        if seasonless is not None:
            seasons.append(seasonless)
    named = sorted({item.competition.season for item in competitions} - {""})
    return ClubProfile(
        club=club,
        players=players_now,
        player_links=page_links(players_now),
        seasons=seasons,
        seasons_state=club_seasons_state(named),
        competitions=competitions,
        history=club_history(club, page_number),
    )
