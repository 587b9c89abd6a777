"""What a newspaper reports of a match and a matchday (issue 10): the koppels of a club match
ranked by the game points they scored ("Topkoppel: A & B (Kampoe) 45"), and a matchday's
highlights (baunies made, most kaps, the highest game score, the biggest win, the top
koppel of a club matchday).

Both read only the games that count (`scoring.selectors.counted.games_counted`: over, and
confirmed where the competition asks for it); a game still in play shows up once it is
over. A match's koppels come in one query. A matchday's highlights read its games' columns
(no model per game: a 1,000-koppel matchday's 500 games with their koppels and players
were 67 ms of its page's 160, issue 20), then the koppels and clubs they name.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from scoring.models import Game
from scoring.selectors.counted import games_counted
from tournaments.models import Club, Competition, Match, Matchday, Team

# Koppels named in one highlight line (tied on most kaps, say); the rest are counted.
LEADERS_SHOWN = 5

# Koppels the baunies line names at most; the rest are counted: a 1,000-koppel matchday
# named 290 of them (23 KB of its page, issue 20).
BAUNIES_SHOWN = 10

_GAME_JOINS = ("team_a__player_1", "team_a__player_2", "team_b__player_1", "team_b__player_2")


@dataclass(slots=True, kw_only=True)
class KoppelLine:
    """One koppel's counted games of a match or matchday: its `club` at the time (the club
    side it played for; None in a pairs competition), game `points` scored, `games`
    played, `kaps` and `baunies` made; in a match's ranking its `rank` (koppels equal on
    points share one: 1, 1, 3) and `top`, the koppel(s) with the most points."""

    koppel: Team
    club: Club | None
    points: int = 0
    games: int = 0
    kaps: int = 0
    baunies: int = 0
    rank: int = 0
    top: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Leaders:
    """The koppels sharing the best `value` of one highlight: the first `LEADERS_SHOWN`
    of them (`lines`, by name) and how many more there are (`more`)."""

    value: int
    lines: list[KoppelLine]
    more: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class GameHighlight:
    """A game worth naming: the `game` id (for its link), the koppel that scored `points`
    (`koppel`, its `club`) against `opponent` (`opponent_club`) scoring `against`; `also`
    counts the other games with the same value."""

    game: int
    koppel: Team
    club: Club | None
    points: int
    opponent: Team
    opponent_club: Club | None
    against: int
    also: int = 0

    @property
    def margin(self) -> int:
        return self.points - self.against


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchdayHighlights:
    """A matchday's highlights over its `games` counted games: the koppels that made a
    baunie (`baunies`, most first, then by name: the first `BAUNIES_SHOWN`; `baunies_more`
    counts the others; `baunies_total`), the koppels with the most kaps
    (`most_kaps`, None when nobody made one; `kaps_total`), the highest score of one koppel
    in one game (`highest_score`), the biggest win by margin (`biggest_win`, None when
    every game was a draw) and, in a club competition, the koppels with the most points
    over the matchday (`top_koppel`, else None)."""

    games: int
    baunies: list[KoppelLine] = field(default_factory=list)
    baunies_more: int = 0
    baunies_total: int = 0
    most_kaps: Leaders | None = None
    kaps_total: int = 0
    highest_score: GameHighlight | None = None
    biggest_win: GameHighlight | None = None
    top_koppel: Leaders | None = None


def _name_key(line: KoppelLine) -> tuple[str, int]:
    return (str(line.koppel).casefold(), line.koppel.pk)


class _Side(NamedTuple):
    """One koppel's side of a game, with its opponent's."""

    koppel: Team
    club: Club | None
    points: int
    kaps: int
    baunies: int
    opponent: Team
    opponent_club: Club | None
    against: int


def _sides(game: Game, home_club: Club | None, away_club: Club | None) -> tuple[_Side, _Side]:
    """Both sides of `game`, A first; `home_club`/`away_club` are its match's club sides."""
    club_a, club_b = (home_club, away_club) if game.a_is_home else (away_club, home_club)
    a, b = game.team_a, game.team_b
    return (
        _Side(a, club_a, game.score_a, game.kaps_a, game.baunies_a, b, club_b, game.score_b),
        _Side(b, club_b, game.score_b, game.kaps_b, game.baunies_b, a, club_a, game.score_a),
    )


def _tally(
    games: Iterable[Game], clubs: dict[int, tuple[Club | None, Club | None]]
) -> dict[tuple[int, int | None], KoppelLine]:
    """Per (koppel id, club id): its points, games, kaps and baunies over `games`; `clubs`
    gives each game's match's (home club, away club)."""
    lines: dict[tuple[int, int | None], KoppelLine] = {}
    for game in games:
        home_club, away_club = clubs[game.match_id]
        for side in _sides(game, home_club, away_club):
            club_id = side.club.pk if side.club else None
            line = lines.setdefault(
                (side.koppel.pk, club_id), KoppelLine(koppel=side.koppel, club=side.club)
            )
            line.points += side.points
            line.games += 1
            line.kaps += side.kaps
            line.baunies += side.baunies
    return lines


def _rank(lines: list[KoppelLine]) -> None:
    """Number `lines` (most points first) as the season rankings do: koppels equal on
    points share a rank, the next takes its place in the list (1, 1, 3); mark the
    koppels with the most points `top` (none when nobody scored)."""
    best = lines[0].points if lines else 0
    for index, line in enumerate(lines):
        tied = index and line.points == lines[index - 1].points
        line.rank = lines[index - 1].rank if tied else index + 1
        line.top = best > 0 and line.points == best


def _leaders(lines: Iterable[KoppelLine], value: str) -> Leaders | None:
    """The koppels with the highest `value` (an attribute of `KoppelLine`), None when the
    highest is 0."""
    pool = list(lines)
    best = max((getattr(line, value) for line in pool), default=0)
    if best <= 0:
        return None
    tied = sorted((line for line in pool if getattr(line, value) == best), key=_name_key)
    return Leaders(value=best, lines=tied[:LEADERS_SHOWN], more=max(0, len(tied) - LEADERS_SHOWN))


def match_top_koppels(*, match: Match) -> list[KoppelLine]:
    """The koppels of club match `match` ranked as a newspaper lists them: most game points
    over all its counted games (all sittings) first, then most kaps, most baunies, name;
    each with its club side, games, kaps and baunies, its `rank` (equal points share it)
    and the best marked `top`. Empty for a pairs match (its one game's score says it all)
    and before a game of the match counts. `match` has its entries' clubs joined
    (`tournaments.lookups.match_for`). One query."""
    if match.home.club_id is None:
        return []
    games = games_counted().filter(match=match).select_related(*_GAME_JOINS)
    lines = list(_tally(games, {match.pk: (match.home.club, match.away.club)}).values())
    lines.sort(key=lambda line: (-line.points, -line.kaps, -line.baunies, *_name_key(line)))
    _rank(lines)
    return lines


class _GameValues(NamedTuple):
    """The columns of a counted game a matchday's highlights read (`_GAME_VALUES`)."""

    pk: int
    match: int
    sitting: int
    table: int
    a_is_home: bool
    team_a: int
    team_b: int
    score_a: int
    score_b: int
    kaps_a: int
    kaps_b: int
    baunies_a: int
    baunies_b: int
    home_club: int | None
    away_club: int | None


_GAME_VALUES = (
    "pk",
    "match_id",
    "sitting",
    "table",
    "a_is_home",
    "team_a_id",
    "team_b_id",
    "score_a",
    "score_b",
    "kaps_a",
    "kaps_b",
    "baunies_a",
    "baunies_b",
    "match__home__club_id",
    "match__away__club_id",
)


class _SideValues(NamedTuple):
    """One koppel's side of a game by id (`_Side` before its koppels and clubs are read)."""

    koppel: int
    club: int | None
    points: int
    kaps: int
    baunies: int
    opponent: int
    opponent_club: int | None
    against: int


def _value_sides(game: _GameValues) -> tuple[_SideValues, _SideValues]:
    """Both sides of `game`, A first."""
    club_a, club_b = (
        (game.home_club, game.away_club) if game.a_is_home else (game.away_club, game.home_club)
    )
    return (
        _SideValues(
            game.team_a, club_a, game.score_a, game.kaps_a, game.baunies_a,
            game.team_b, club_b, game.score_b,
        ),
        _SideValues(
            game.team_b, club_b, game.score_b, game.kaps_b, game.baunies_b,
            game.team_a, club_a, game.score_a,
        ),
    )  # fmt: skip


class _Best(NamedTuple):
    """The game of a `GameHighlight` by id: its `game`, the `side` named and `also`."""

    game: int
    side: _SideValues
    also: int


def _best_game(games: list[_GameValues], *, by_margin: bool) -> _Best | None:
    """The game with the highest score of one koppel (ties: the bigger margin, then the
    first by sitting and table), or with the biggest win (ties: the higher score, then the
    first); None when no koppel scored (or, by margin, every game was a draw)."""
    best: tuple[tuple[int, int], _GameValues, _SideValues] | None = None
    values: list[int] = []
    for game in sorted(games, key=lambda game: (game.sitting, game.table, game.pk)):
        side = max(_value_sides(game), key=lambda s: s.points)
        margin = side.points - side.against
        rank = (margin, side.points) if by_margin else (side.points, margin)
        values.append(rank[0])
        if best is None or rank > best[0]:
            best = (rank, game, side)
    if best is None or best[0][0] <= 0:
        return None
    rank, game, side = best
    return _Best(game=game.pk, side=side, also=values.count(rank[0]) - 1)


# Per (koppel id, club id): points, games, kaps, baunies.
_Tallies = dict[tuple[int, int | None], list[int]]
_POINTS, _GAMES, _KAPS, _BAUNIES = range(4)


def _top(tallies: _Tallies, column: int) -> list[tuple[int, int | None]]:
    """The (koppel, club) keys with the highest `column`; none when it is 0."""
    best = max((tally[column] for tally in tallies.values()), default=0)
    if best <= 0:
        return []
    return [key for key, tally in tallies.items() if tally[column] == best]


def _first_by_value(tallies: _Tallies, column: int, shown: int) -> list[tuple[int, int | None]]:
    """The keys whose `column` is at least that of the `shown`-th highest (its ties
    included: which of them are shown depends on their names)."""
    values = sorted((tally[column] for tally in tallies.values() if tally[column]), reverse=True)
    if not values:
        return []
    cutoff = values[min(shown, len(values)) - 1]
    return [key for key, tally in tallies.items() if tally[column] >= cutoff]


def matchday_highlights(*, matchday: Matchday) -> MatchdayHighlights | None:
    """The highlights of `matchday` (`MatchdayHighlights`) over its counted games; None
    before any game counts. Clubs are named in a club competition only (the club side a
    koppel played for). Three queries at most whatever the number of games: the games'
    columns, then the koppels named (with their players) and their clubs; the koppels read
    are those a line names or must sort by name (ties at its cut), not all of them."""
    games = [
        _GameValues(*row)
        for row in games_counted().filter(match__matchday=matchday).values_list(*_GAME_VALUES)
    ]
    if not games:
        return None
    tallies: _Tallies = {}
    for game in games:
        for side in _value_sides(game):
            tally = tallies.setdefault((side.koppel, side.club), [0, 0, 0, 0])
            tally[_POINTS] += side.points
            tally[_GAMES] += 1
            tally[_KAPS] += side.kaps
            tally[_BAUNIES] += side.baunies
    club_competition = matchday.competition.kind == Competition.Kind.CLUBS
    baunie_keys = _first_by_value(tallies, _BAUNIES, BAUNIES_SHOWN)
    kaps_keys = _top(tallies, _KAPS)
    top_keys = _top(tallies, _POINTS) if club_competition else []
    highest = _best_game(games, by_margin=False)
    biggest = _best_game(games, by_margin=True)
    best_sides = [best.side for best in (highest, biggest) if best is not None]
    keys = {*baunie_keys, *kaps_keys, *top_keys}
    koppel_ids = {koppel for koppel, _ in keys} | {
        koppel for side in best_sides for koppel in (side.koppel, side.opponent)
    }
    club_ids = {club for _, club in keys} | {
        club for side in best_sides for club in (side.club, side.opponent_club)
    }
    club_ids.discard(None)
    # Not `in_bulk`: on SQLite it splits more than 999 ids into several queries.
    teams = {
        team.pk: team
        for team in Team.objects.select_related("player_1", "player_2").filter(
            pk__in=list(koppel_ids)
        )
    }
    clubs = (
        {club.pk: club for club in Club.objects.filter(pk__in=list(club_ids))} if club_ids else {}
    )

    def line(key: tuple[int, int | None]) -> KoppelLine:
        points, played, kaps, baunies = tallies[key]
        koppel, club = key
        return KoppelLine(
            koppel=teams[koppel],
            club=clubs.get(club) if club is not None else None,
            points=points,
            games=played,
            kaps=kaps,
            baunies=baunies,
        )

    def highlight(best: _Best | None) -> GameHighlight | None:
        if best is None:
            return None
        side = best.side
        return GameHighlight(
            game=best.game,
            koppel=teams[side.koppel],
            club=clubs.get(side.club) if side.club is not None else None,
            points=side.points,
            opponent=teams[side.opponent],
            opponent_club=clubs.get(side.opponent_club) if side.opponent_club else None,
            against=side.against,
            also=best.also,
        )

    baunies = sorted(
        (line(key) for key in baunie_keys), key=lambda line: (-line.baunies, *_name_key(line))
    )
    baunie_makers = sum(1 for tally in tallies.values() if tally[_BAUNIES])
    return MatchdayHighlights(
        games=len(games),
        baunies=baunies[:BAUNIES_SHOWN],
        baunies_more=baunie_makers - min(len(baunies), BAUNIES_SHOWN),
        baunies_total=sum(tally[_BAUNIES] for tally in tallies.values()),
        most_kaps=_leaders((line(key) for key in kaps_keys), "kaps"),
        kaps_total=sum(tally[_KAPS] for tally in tallies.values()),
        highest_score=highlight(highest),
        biggest_win=highlight(biggest),
        top_koppel=_leaders((line(key) for key in top_keys), "points") if top_keys else None,
    )
