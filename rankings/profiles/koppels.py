"""The koppel page's reads: its games, seasons, the koppels it met (head-to-head) and its
points per evening; a koppel found by its shown name ("A & B").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db.models import Case, Q, QuerySet, Value, When

from rankings.profiles.history import (
    CHART_EVENINGS,
    KOPPEL_CHOICES,
    History,
    Outcome,
    SideOf,
    by_season,
    history_page,
    history_rows,
    outcome,
    page_koppels,
    seasons_newest_first,
    side_tally,
    teams_of,
)
from rankings.selectors import GameRow, GameSideRow, game_rows
from scoring.models import Game
from scoring.rules.seasons import SeasonBy, SeasonTally
from scoring.selectors.counted import games_counted
from tournaments.models import Team
from tournaments.selectors import koppel_players_q
from troefclub.ordering import blank_last


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
    page = history_page(rows, page_number)
    teams = teams_of(set(met) | page_koppels(page))
    teams[koppel.pk] = koppel
    seasons = by_season(rows)
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
            KoppelSeason(
                season=season, tally=side_tally(seasons[season], SeasonBy.KOPPEL, koppel.pk)
            )
            for season in seasons_newest_first(rows)
        ],
        total=side_tally(rows, SeasonBy.KOPPEL, koppel.pk),
        meetings=meetings,
        evenings=_evenings(rows, side_of),
        history=history_rows(page, side_of, teams),
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
    page = history_page(rows, page_number)
    return HeadToHead(
        koppel=koppel,
        other=other,
        games=record[0],
        wins=record[1],
        draws=record[2],
        losses=record[3],
        points_for=record[4],
        points_against=record[5],
        history=history_rows(page, side_of, {koppel.pk: koppel, other.pk: other}),
    )


def koppels_matching(*, text: str, exclude: Team) -> list[Team]:
    """The koppels (other than `exclude`) that `text` names, for the head-to-head form:
    the one whose key or name is `text`, or whose two players are named "A & B" ("A en
    B", "A and B"; either order); failing that, up to KOPPEL_CHOICES whose name or a
    player's name contains it; any case and accents (`troefclub.text.Fold`). One query; an
    empty `text` finds nothing."""
    text = text.strip()
    if not text:
        return []
    exact = Q(key__fold__exact=text) | Q(name__fold__exact=text)
    players = koppel_players_q(text)
    if players is not None:
        exact |= players
    found: list[Team] = list(
        Team.objects.select_related("player_1", "player_2")
        .exclude(pk=exclude.pk)
        .filter(
            exact
            | Q(name__fold__contains=text)
            | Q(player_1__name__fold__contains=text)
            | Q(player_2__name__fold__contains=text)
        )
        .annotate(exact=Case(When(exact, then=Value(1)), default=Value(0)))
        .order_by("-exact", blank_last("name"), "key")[: KOPPEL_CHOICES + 1]
    )
    named = [team for team in found if getattr(team, "exact", 0)]
    return named[:1] if len(named) == 1 else found[:KOPPEL_CHOICES]
