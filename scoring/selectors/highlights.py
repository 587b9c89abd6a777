"""What a newspaper reports of a match and a matchday (issue 10): the koppels of a club match
ranked by the game points they scored ("Topkoppel: A & B (Kampoe) 45"), and a matchday's
highlights (baunies made, most kaps, the highest game score, the biggest win, the top
koppel of a club matchday).

Both read only the games that count (`scoring.selectors.counted.games_counted`: over, and
confirmed where the competition asks for it), in one query whatever the number of games;
a game still in play shows up once it is over.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from django.db.models import QuerySet

from scoring.models import Game
from scoring.selectors.counted import games_counted
from tournaments.models import Club, Competition, Match, Matchday, Team

# Koppels named in one highlight line (tied on most kaps, say); the rest are counted.
LEADERS_SHOWN = 5

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
    """A game worth naming: the `game` (for its link), the koppel that scored `points`
    (`koppel`, its `club`) against `opponent` (`opponent_club`) scoring `against`; `also`
    counts the other games with the same value."""

    game: Game
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
    baunie (`baunies`, most first; `baunies_total`), the koppels with the most kaps
    (`most_kaps`, None when nobody made one; `kaps_total`), the highest score of one koppel
    in one game (`highest_score`), the biggest win by margin (`biggest_win`, None when
    every game was a draw) and, in a club competition, the koppels with the most points
    over the matchday (`top_koppel`, else None)."""

    games: int
    baunies: list[KoppelLine] = field(default_factory=list)
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


def _game_order(game: Game) -> tuple[int, int, int]:
    return (game.sitting, game.table, game.pk)


def _best_game(
    games: list[Game], clubs: dict[int, tuple[Club | None, Club | None]], *, by_margin: bool
) -> GameHighlight | None:
    """The game with the highest score of one koppel (ties: the bigger margin, then the
    first by sitting and table), or with the biggest win (ties: the higher score, then the
    first); None when no koppel scored (or, by margin, every game was a draw)."""
    best: tuple[tuple[int, int], Game, _Side] | None = None
    values: list[int] = []
    for game in sorted(games, key=_game_order):
        home_club, away_club = clubs[game.match_id]
        side = max(_sides(game, home_club, away_club), key=lambda s: s.points)
        margin = side.points - side.against
        rank = (margin, side.points) if by_margin else (side.points, margin)
        values.append(rank[0])
        if best is None or rank > best[0]:
            best = (rank, game, side)
    if best is None or best[0][0] <= 0:
        return None
    rank, game, side = best
    return GameHighlight(
        game=game,
        koppel=side.koppel,
        club=side.club,
        points=side.points,
        opponent=side.opponent,
        opponent_club=side.opponent_club,
        against=side.against,
        also=values.count(rank[0]) - 1,
    )


def _matchday_games(matchday: Matchday) -> QuerySet[Game]:
    return (
        games_counted()
        .filter(match__matchday=matchday)
        .select_related(*_GAME_JOINS, "match__home__club", "match__away__club")
    )


def matchday_highlights(*, matchday: Matchday) -> MatchdayHighlights | None:
    """The highlights of `matchday` (`MatchdayHighlights`) over its counted games; None
    before any game counts. Clubs are named in a club competition only (the club side a
    koppel played for). One query whatever the number of games."""
    games = list(_matchday_games(matchday))
    if not games:
        return None
    clubs = {game.match_id: (game.match.home.club, game.match.away.club) for game in games}
    lines = list(_tally(games, clubs).values())
    baunies = sorted(
        (line for line in lines if line.baunies), key=lambda line: (-line.baunies, *_name_key(line))
    )
    club_competition = matchday.competition.kind == Competition.Kind.CLUBS
    return MatchdayHighlights(
        games=len(games),
        baunies=baunies,
        baunies_total=sum(line.baunies for line in lines),
        most_kaps=_leaders(lines, "kaps"),
        kaps_total=sum(line.kaps for line in lines),
        highest_score=_best_game(games, clubs, by_margin=False),
        biggest_win=_best_game(games, clubs, by_margin=True),
        top_koppel=_leaders(lines, "points") if club_competition else None,
    )
