"""The club page's reads: its players' games for the club, its seasons and competitions."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.core.paginator import Page, Paginator
from django.db.models import Count, Exists, OuterRef, Q, QuerySet

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
from scoring.rules.seasons import SeasonBy, SeasonTally
from scoring.selectors.counted import games_counted
from tournaments.models import Club, Competition, Entry, Player, Team
from troefclub.tables import page_links

# Players of "Players now" a page: a club of 2,000 players made a 349 KB page (issue 20).
PLAYERS_PER_PAGE = 100

# Names of players and of koppels a season lists at most (the rest are counted): a club
# of 2,000 players listed them all in every season.
SEASON_NAMES_MAX = 30


@dataclass(frozen=True, slots=True, kw_only=True)
class ClubSeason:
    """One season of a club: its `tally` (every game one of its players played for it
    then, `season_tallies(by="club")`), the `players` and `koppels` that played for it
    then (by name; the page names SEASON_NAMES_MAX of each and counts the rest)."""

    season: str
    tally: SeasonTally
    players: list[Player]
    koppels: list[Team]

    @property
    def players_shown(self) -> list[Player]:
        """The first SEASON_NAMES_MAX `players`: what the page names."""
        return self.players[:SEASON_NAMES_MAX]

    @property
    def players_more(self) -> int:
        """The `players` the page counts but doesn't name."""
        return max(len(self.players) - SEASON_NAMES_MAX, 0)

    @property
    def koppels_shown(self) -> list[Team]:
        """The first SEASON_NAMES_MAX `koppels`: what the page names."""
        return self.koppels[:SEASON_NAMES_MAX]

    @property
    def koppels_more(self) -> int:
        """The `koppels` the page counts but doesn't name."""
        return max(len(self.koppels) - SEASON_NAMES_MAX, 0)


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
    first), its `competitions` (latest season first) and a page of its games
    (`history`)."""

    club: Club
    players: Page[Player]
    player_links: list[int | None]
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


def club_profile(
    *, club: Club, page_number: str | None, players_page: str | None = None
) -> ClubProfile:
    """The club page's reads: a page of its players now (`players_page` as the query
    string gave it; two queries: their number and the page), its games (`game_rows`,
    three), the koppels and players shown (one) and its competitions (one). Seven queries
    whatever the number of games, players and seasons."""
    players_now = Paginator(club.players.order_by("name", "pk"), PLAYERS_PER_PAGE).get_page(
        players_page
    )
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
    page = history_page(rows, page_number)
    koppel_ids = {koppel for koppels in season_koppels.values() for koppel in koppels}
    teams = teams_of(koppel_ids | page_koppels(page))
    # Every player who played for the club is in one of its koppels: no query of its own.
    players = {
        player.pk: player for team in teams.values() for player in (team.player_1, team.player_2)
    }
    seasons = by_season(rows)
    return ClubProfile(
        club=club,
        players=players_now,
        player_links=page_links(players_now),
        seasons=[
            ClubSeason(
                season=season,
                tally=side_tally(seasons[season], SeasonBy.CLUB, club.pk),
                players=sorted(
                    (players[pk] for pk in season_players[season]), key=lambda p: p.name
                ),
                koppels=sorted((teams[pk] for pk in season_koppels[season]), key=str),
            )
            for season in seasons_newest_first(rows)
        ],
        competitions=club_competitions(club),
        history=history_rows(page, side_of, teams),
    )
