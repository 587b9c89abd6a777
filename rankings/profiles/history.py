"""What the player, koppel and club pages share: a page of the game history with the koppels
named, the outcome of a game for a side, and the season tallies of a set of games.

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

from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from enum import StrEnum

from django.core.paginator import Page, Paginator

from rankings.selectors import GameRow, GameSideRow
from scoring.rules.seasons import SeasonBy, SeasonTally, season_tallies
from tournaments.models import Team
from troefclub.pages import page_number_asked
from troefclub.tables import page_links

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
    `links` (the page numbers to link, `troefclub.tables.page_links`) and `lines`."""

    page: Page[GameRow]
    links: list[int | None]
    lines: list[HistoryLine]


# Which side of a game is the page's: the side itself, and whether the other side is the
# page's too (two koppels of one club).
SideOf = Callable[[GameRow], tuple[GameSideRow, GameSideRow, bool]]


def history_page(rows: Sequence[GameRow], page_number: str | None) -> Page[GameRow]:
    """The page `page_number` (as the query string gave it) of `rows` newest first; a
    number that isn't one gives the first page, one out of range the last (never an
    error)."""
    newest_first = list(reversed(rows))
    return Paginator(newest_first, HISTORY_PER_PAGE).get_page(page_number_asked(page_number))


def history_rows(page: Page[GameRow], side_of: SideOf, teams: dict[int, Team]) -> History:
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


def page_koppels(page: Page[GameRow]) -> set[int]:
    return {koppel for row in page.object_list for koppel in (row.a.koppel, row.b.koppel)}


def teams_of(ids: Collection[int]) -> dict[int, Team]:
    """The koppels `ids` with their players (one query; none when `ids` is empty).
    Not `in_bulk`: on SQLite it splits more than 999 ids into several queries."""
    if not ids:
        return {}
    teams = Team.objects.select_related("player_1", "player_2").filter(pk__in=list(ids))
    return {team.pk: team for team in teams}


def seasons_newest_first(rows: Sequence[GameRow]) -> list[str]:
    """The seasons of `rows` (oldest first), the one played last first."""
    last: dict[str, int] = {}
    for index, row in enumerate(rows):
        last[row.season] = index
    return sorted(last, key=last.__getitem__, reverse=True)


def by_season(rows: Iterable[GameRow]) -> dict[str, list[GameRow]]:
    seasons: dict[str, list[GameRow]] = defaultdict(list)
    for row in rows:
        seasons[row.season].append(row)
    return seasons


def side_tally(rows: Iterable[GameRow], by: SeasonBy, entry: int) -> SeasonTally:
    tallies = season_tallies((row.season_game() for row in rows), by=by)
    return tallies.get(entry) or SeasonTally(entry)
