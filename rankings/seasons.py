"""The season rankings as computed from the games (issue 10), and the stored season's data
they are computed from. The page reads stored rankings (`rankings.season_read`); this is
what `rankings.season_refresh` stores, and the reference the stored rankings are tested
against (tests/rankings/test_season_stored.py): the refresh computes, the page reads.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import cast

from rankings.models import Season
from rankings.selectors import GameRow, game_rows
from scoring.rules.seasons import (
    SeasonBy,
    SeasonGame,
    SeasonSide,
    SeasonTally,
    best_n_of_m,
    season_tallies,
)
from scoring.selectors.counted import games_counted
from tournaments.models import Club, Competition, Player, Team

# (key, name) of each id of a player, koppel or club (`_season_names`).
Names = Callable[[SeasonBy, Iterable[int]], dict[int, tuple[str, str]]]


def seasons_played() -> list[str]:
    """Every season a competition names (`Competition.season`, distinct, empty left out),
    newest first: the highest string first ("2026-2027" before "2025-2026"). One query."""
    return list(
        Competition.objects.exclude(season="")
        .order_by("-season")
        .values_list("season", flat=True)
        .distinct()
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class SeasonRankingRow:
    """One player's, koppel's or club's line of a season ranking: its `rank` (shared by
    entries equal on every ranking key: 1, 2, 2, 4), its id `entry`, `key` and `name`
    (for a koppel its `Team.__str__`), the `SeasonTally` columns (game points, counts of
    games and rounds) and `best`, its best-N-of-M average (an exact Fraction of game
    points an evening; None when the season has no best-N setting)."""

    rank: int
    entry: int
    key: str
    name: str
    games: int
    wins: int
    draws: int
    losses: int
    points_for: int
    points_against: int
    saldo: int
    kaps: int
    baunies: int
    failed_baunies: int
    early_kaps: int
    won_as_caller: int
    won_not_caller: int
    best: Fraction | None

    @property
    def sort_name(self) -> str:
        """The name as a sort compares it: any case alike."""
        return self.name.casefold()


@dataclass(frozen=True, slots=True, kw_only=True)
class SeasonRanking:
    """A season ranking as a page shows it: the `season`, what it ranks (`by`), the
    competition `kind` it is narrowed to ("" for both), the `club` it is narrowed to (None
    for all), the `clubs` that played in the season (any kind, by name: the filter's
    choices), its `rows` best first, the season's best-N setting `best_evenings` (None:
    none), `evenings` (M: the matchdays, of any competition, of the games counted) and
    `games` (how many games are counted)."""

    season: str
    by: SeasonBy
    kind: str
    club: Club | None
    clubs: list[Club]
    rows: list[SeasonRankingRow]
    best_evenings: int | None
    evenings: int
    games: int


@dataclass(frozen=True, slots=True, kw_only=True)
class SeasonData:
    """What a season's rankings are computed from: the `season`, its counted games
    (`rows`, oldest first), the `clubs` that played in it (any kind, by name) and its
    best-N setting `best_evenings` (None: none); `made`, the games as the rankings read
    them, filled as they are computed."""

    season: str
    rows: list[GameRow]
    clubs: list[Club]
    best_evenings: int | None
    # The games as the rankings read them, by (game, by, club), made once for all the
    # rankings of the season (`_season_game`); shared by the copies narrowed to a club.
    made: dict[tuple[int, str, int | None], SeasonGame] = field(default_factory=dict)


def season_data(season: str) -> SeasonData:
    """The `SeasonData` of `season`: five queries, whatever its size (the setting, the
    games (three, `game_rows`), the clubs)."""
    best_evenings = (
        Season.objects.filter(name=season).values_list("best_evenings", flat=True).first()
    )
    rows = game_rows(games_counted().filter(match__matchday__competition__season=season))
    club_ids = {
        club for row in rows for side in (row.a, row.b) for club in side.clubs if club is not None
    }
    clubs = list(Club.objects.filter(pk__in=club_ids).order_by("name", "key")) if club_ids else []
    return SeasonData(season=season, rows=rows, clubs=clubs, best_evenings=best_evenings)


def _side(side: SeasonSide, *, koppel: Hashable, players: tuple, clubs: tuple) -> SeasonSide:
    """`side` with its `koppel`, `players` and `clubs` as given: `dataclasses.replace`
    without its introspection (it was a third of a refresh of 30 clubs, issue 20)."""
    return SeasonSide(
        koppel, players, clubs, side.points, side.kaps, side.baunies, side.failed_baunies,
        side.early_kaps, side.won_as_caller, side.won_not_caller,
    )  # fmt: skip


def _narrowed_side(side: SeasonSide, by: SeasonBy, club: int) -> SeasonSide:
    """`side` narrowed to `club` as `_season_game` says (the side itself when nothing
    changes)."""
    if by is SeasonBy.CLUB:
        if club not in side.clubs:
            return side
        one, two = side.clubs
        clubs = (one if one == club else None, two if two == club else None)
        return (
            side
            if clubs == side.clubs
            else _side(side, koppel=side.koppel, players=side.players, clubs=clubs)
        )
    if by is SeasonBy.PLAYER:
        (one, two), (club_one, club_two) = side.players, side.clubs
        players = (one if club_one == club else None, two if club_two == club else None)
        return (
            side
            if players == side.players
            else _side(side, koppel=side.koppel, players=players, clubs=side.clubs)
        )
    if club in side.clubs:
        return side
    return _side(side, koppel=None, players=side.players, clubs=side.clubs)


def _season_game(
    row: GameRow,
    by: SeasonBy,
    club: int | None,
    made: dict[tuple[int, str, int | None], SeasonGame],
) -> SeasonGame:
    """`row` as the season rules read it; narrowed to `club` (a club id), a player who did
    not play for it at the time, or a koppel none of whose players did, becomes None (the
    caller drops None's tally). By club, the caller keeps only the games the club played:
    the club's line and its opponents' lines are made of those, and a partner from another
    club who sat with the club's player is no opponent, so that side counts for the club
    alone (a second tester saw such partners' clubs ranked above the club itself). `made`
    keeps what was made already, by (game, by, club), for the other rankings of a
    refresh."""
    key = (row.game, by.value, club)
    game = made.get(key)
    if game is not None:
        return game
    if club is None:
        game = made.get((row.game, "", None))
        if game is None:
            game = made[(row.game, "", None)] = row.season_game()
    else:
        whole = _season_game(row, by, None, made)
        game = SeasonGame(
            whole.date,
            whole.game,
            _narrowed_side(whole.a, by, club),
            _narrowed_side(whole.b, by, club),
        )
    made[key] = game
    return game


def _season_names(
    by: SeasonBy, ids: Iterable[int], clubs: dict[int, Club]
) -> dict[int, tuple[str, str]]:
    """(key, name) of each player, koppel or club id: one query for players or koppels,
    none for clubs (the season's clubs are already read)."""
    ids = list(ids)
    if by is SeasonBy.CLUB:
        return {pk: (clubs[pk].key, clubs[pk].name) for pk in ids}
    if not ids:
        return {}
    if by is SeasonBy.PLAYER:
        rows = Player.objects.filter(pk__in=ids).values_list("pk", "key", "name")
        return {pk: (key, name) for pk, key, name in rows}
    koppels = Team.objects.filter(pk__in=ids).select_related("player_1", "player_2")
    return {koppel.pk: (koppel.key, str(koppel)) for koppel in koppels}


def season_ranking(
    *, season: str, by: SeasonBy | str, kind: str = "", club_key: str = ""
) -> SeasonRanking:
    """The season ranking of `season` (a `Competition.season`) by player, koppel or club
    (`by`: a `SeasonBy` or its value; ValueError for another) (issue 10), over its counted
    games (`games_counted`), of competitions of `kind` only ("pairs" or "clubs"; "" for
    both), and of the club keyed `club_key` only ("" for all; a key of no club that played
    in the season is ignored: `club` is then None):

    - by player: only the games each player played for that club at the time;
    - by koppel: only the games each koppel played with a player of that club at the time;
    - by club: only the games that club played: its line and its opponents'.

    Ranked on wins, then saldo, then game points for; when the season has a best-N setting
    (`Season.best_evenings`), on the best-N-of-M average alone, wins, saldo and points for
    only ordering the entries it ties. Entries equal on every ranking key share a rank and
    are listed by name. An evening is one matchday of one competition; its score is the
    game points the entry scored in its games of that matchday
    (`scoring.rules.seasons.best_n_of_m`).

    Six queries at most, whatever the season's size: the season's data (five,
    `season_data`), the names of the players or koppels.
    """
    by = SeasonBy(by)
    data = season_data(season)
    chosen = next((club for club in data.clubs if club.key == club_key), None) if club_key else None
    clubs_by_id = {club.pk: club for club in data.clubs}
    return season_ranking_of(
        data,
        by=by,
        kind=kind,
        club=chosen,
        names=lambda by, ids: _season_names(by, ids, clubs_by_id),
    )


def season_ranking_of(
    data: SeasonData, *, by: SeasonBy, kind: str, club: Club | None, names: Names
) -> SeasonRanking:
    """The season ranking of `season_ranking`, from the season's `data`, narrowed to
    `kind` ("" for both) and `club` (one of `data.clubs`, None for all); `names` gives the
    (key, name) of the ranked ids. No query but those of `names`."""
    rows = [row for row in data.rows if not kind or row.kind == kind]
    if club is not None:
        rows = [row for row in rows if club.pk in row.a.clubs or club.pk in row.b.clubs]
    club_id = club.pk if club is not None else None
    games = [_season_game(row, by, club_id, data.made) for row in rows]
    tallies = season_tallies(games, by=by)
    tallies.pop(None, None)

    best_evenings = data.best_evenings
    evenings: dict[tuple[int, int], list[SeasonGame]] = {}
    for row, game in zip(rows, games, strict=True):
        evenings.setdefault((row.competition, row.matchday), []).append(game)
    best: dict[Hashable, Fraction | None] = {}
    if best_evenings:
        scores: dict[Hashable, list[int]] = {}
        for evening in evenings.values():
            for entry, tally in season_tallies(evening, by=by).items():
                scores.setdefault(entry, []).append(tally.points_for)
        best = {entry: best_n_of_m(scores.get(entry, []), best_evenings) for entry in tallies}

    named = names(by, cast(Iterable[int], tallies))
    return SeasonRanking(
        season=data.season,
        by=by,
        kind=kind,
        club=club,
        clubs=data.clubs,
        rows=_season_rows_ranked(tallies, named, best, ranked_on_best=bool(best_evenings)),
        best_evenings=best_evenings,
        evenings=len(evenings),
        games=len(rows),
    )


def _season_rows_ranked(
    tallies: dict[Hashable, SeasonTally],
    names: dict[int, tuple[str, str]],
    best: dict[Hashable, Fraction | None],
    *,
    ranked_on_best: bool,
) -> list[SeasonRankingRow]:
    """The tallies as ranked rows, best first (see `season_ranking`)."""
    lowest = Fraction(-1)  # no average (no evening) ranks below every average
    ranking_keys = 1 if ranked_on_best else 3

    def order(entry: Hashable, tally: SeasonTally) -> tuple[object, ...]:
        average = best.get(entry)
        keys = (-tally.wins, -tally.saldo, -tally.points_for)
        first = (-(average if average is not None else lowest),) if ranked_on_best else ()
        return (*first, *keys, names[cast(int, entry)][1].casefold(), entry)

    ordered = sorted((order(entry, tally), entry, tally) for entry, tally in tallies.items())
    ranked: list[SeasonRankingRow] = []
    previous: tuple[object, ...] | None = None
    rank = 0
    for position, (keys, entry, tally) in enumerate(ordered, start=1):
        if keys[:ranking_keys] != previous:
            rank, previous = position, keys[:ranking_keys]
        key, name = names[cast(int, entry)]
        ranked.append(
            SeasonRankingRow(
                rank=rank,
                entry=cast(int, entry),
                key=key,
                name=name,
                games=tally.games,
                wins=tally.wins,
                draws=tally.draws,
                losses=tally.losses,
                points_for=tally.points_for,
                points_against=tally.points_against,
                saldo=tally.saldo,
                kaps=tally.kaps,
                baunies=tally.baunies,
                failed_baunies=tally.failed_baunies,
                early_kaps=tally.early_kaps,
                won_as_caller=tally.won_as_caller,
                won_not_caller=tally.won_not_caller,
                best=best.get(entry),
            )
        )
    return ranked
