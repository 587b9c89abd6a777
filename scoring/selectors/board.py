"""The director's live board of a matchday and the hall display: every table with its score
and state, grouped by match and sitting, and the version a poll compares.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from itertools import groupby

from django.db.models import Count, Exists, Max, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from scoring.models import Game, GameDispute, GameLink, Round
from scoring.selectors.results import MatchScore, competition_match_scores
from scoring.selectors.schedule import with_table_shown
from tournaments.models import Bye, Competition, Entry, Match, Matchday, Team
from tournaments.selectors import ENTRY_JOINS, TEAM_JOINS
from troefclub.live import live_version

#
# The director's live board of a matchday and the hall's big screen (issue 8): every table
# with its koppels, score and state, in a constant number of queries whatever the size of
# the matchday (the matches, their games, their scores, the byes).


class TableState(StrEnum):
    """Where one table of a matchday is. A forfeited match, or one known only as reported
    totals, is one table whatever its games say."""

    NOT_STARTED = "not_started"  # no round, no totals
    PLAYING = "playing"
    FINISHED = "finished"  # over (and confirmed, where the competition asks for it)
    AWAITING = "awaiting"  # over, not confirmed yet, and the competition asks for it
    DISPUTED = "disputed"  # a koppel disputes the result: an open `GameDispute`
    FORFEIT = "forfeit"
    REPORTED = "reported"

    @property
    def group(self) -> str:
        """The board's filter this state falls under: a forfeit or reported totals are as
        decided as a finished game."""
        if self in (TableState.FORFEIT, TableState.REPORTED):
            return TableState.FINISHED.value
        return self.value


# The board's filters, in the order its summary names them.
TABLE_GROUPS = ("not_started", "playing", "awaiting", "disputed", "finished")


@dataclass(frozen=True, slots=True)
class BoardTable:
    """One table on the board: a game, or a match decided without its games (`game` None,
    or kept for a pairs match's sheet link).

    `home`/`away` are the game's koppels (Team) playing for the match's home and away
    side (a club match's koppel A may play away), or the match's entries for a match
    decided as a whole; `score_home`/`score_away` their points. `rounds` counts the rounds
    entered, `last_round_at` when the last was; `linked` says the game has an active table
    link (`GameLink`).
    """

    match: Match
    game: Game | None
    table: int | None
    sitting: int
    state: TableState
    home: Team | Entry
    away: Team | Entry
    score_home: int
    score_away: int
    rounds: int = 0
    last_round_at: datetime | None = None
    linked: bool = False

    @property
    def group(self) -> str:
        return self.state.group


@dataclass(frozen=True, slots=True)
class BoardSitting:
    """One sitting of a match on the board, its tables by number."""

    number: int
    tables: list[BoardTable]

    @property
    def done(self) -> bool:
        """Every table decided and counted: the board shows it folded."""
        return all(table.group == TableState.FINISHED for table in self.tables)

    @property
    def pending(self) -> bool:
        """No table started: a later sitting, shown folded until it is the one played."""
        return all(table.state == TableState.NOT_STARTED for table in self.tables)


@dataclass(frozen=True, slots=True)
class BoardMatch:
    """A match on the board: its score (`competition_match_scores`), its tables by sitting,
    and the sitting being played (the first with a table not finished; else the last)."""

    match: Match
    score: MatchScore
    table: int | None
    sittings: list[BoardSitting]

    @property
    def tables(self) -> list[BoardTable]:
        return [table for sitting in self.sittings for table in sitting.tables]

    @property
    def current_sitting(self) -> BoardSitting | None:
        for sitting in self.sittings:
            if not sitting.done:
                return sitting
        return self.sittings[-1] if self.sittings else None


@dataclass(frozen=True, slots=True)
class BoardCounts:
    """How many tables of the board are in each group (`TableState.group`)."""

    total: int = 0
    not_started: int = 0
    playing: int = 0
    awaiting: int = 0
    disputed: int = 0
    finished: int = 0


@dataclass(frozen=True, slots=True)
class MatchdayBoard:
    """A matchday's tables for its director's board and the hall display.

    `matches` in table order (`with_table_shown`, then id); `clubs` when the matches are
    club matches (several games a match, by sitting); `byes` with their entries' names.
    """

    matchday: Matchday
    clubs: bool
    matches: list[BoardMatch]
    byes: list[Bye]
    counts: BoardCounts

    @property
    def tables(self) -> list[BoardTable]:
        return [table for match in self.matches for table in match.tables]


def board_version(board: MatchdayBoard, *, minute: datetime) -> str:
    """A short hash of what the board shows: every table's state, score, rounds, last
    round and link, the byes, and `minute` (the "n minutes ago" texts change with it).

    The board's poll sends it back: an unchanged board answers 204 (nothing sent, nothing
    swapped) instead of the whole board again, which at league size is 620 KB a poll.
    """
    tables = [
        (
            t.match.pk,
            t.game.pk if t.game is not None else None,
            str(t.state),
            t.score_home,
            t.score_away,
            t.rounds,
            t.last_round_at.isoformat() if t.last_round_at else "",
            t.linked,
        )
        for t in board.tables
    ]
    return live_version(tables, [bye.pk for bye in board.byes], minute.strftime("%Y%m%d%H%M"))


def table_state(
    *, over: bool, confirmed: bool, started: bool, confirming: bool, disputed: bool
) -> TableState:
    """The state of a game's table: `over` (not open), `confirmed` (a confirmation
    stored), `started` (a round, totals or points entered), whether the competition is
    `confirming` results and whether the game is `disputed` (an open dispute)."""
    if disputed:
        return TableState.DISPUTED
    if over:
        if confirming and not confirmed:
            return TableState.AWAITING
        return TableState.FINISHED
    if started:
        return TableState.PLAYING
    return TableState.NOT_STARTED


def _table_state(game: Game, *, confirming: bool, disputed: bool, rounds: int) -> TableState:
    return table_state(
        over=game.is_over,
        confirmed=game.confirmed_at is not None,
        started=bool(rounds or game.by_totals or game.score_a or game.score_b),
        confirming=confirming,
        disputed=disputed,
    )


def _board_games(matchday: Matchday, match_ids: list[int] | None) -> dict[int, list[Game]]:
    """The matchday's games (only those of `match_ids` when given) by match id, by sitting
    and table, with their koppels' names and, annotated: `round_count`, `last_round_at`,
    `disputed` (an open dispute) and `linked` (an active table link). One query; the
    annotations are correlated subqueries on indexed columns, a few rows each."""
    rounds = Round.objects.filter(game=OuterRef("pk")).order_by().values("game")
    wanted = Game.objects.filter(match__matchday=matchday)
    if match_ids is not None:
        wanted = wanted.filter(match_id__in=match_ids)
    games = (
        wanted.select_related(*(f"team_{side}__{join}" for side in "ab" for join in TEAM_JOINS))
        .annotate(
            round_count=Coalesce(Subquery(rounds.annotate(n=Count("pk")).values("n")), 0),
            last_round_at=Subquery(rounds.annotate(last=Max("recorded_at")).values("last")),
            disputed=Exists(
                GameDispute.objects.filter(game=OuterRef("pk"), resolved_at__isnull=True)
            ),
            linked=Exists(GameLink.objects.filter(game=OuterRef("pk"), revoked_at__isnull=True)),
        )
        .order_by("match_id", "sitting", "table")
    )
    by_match: dict[int, list[Game]] = defaultdict(list)
    for game in games:
        by_match[game.match_id].append(game)
    return by_match


def _board_match(
    match: Match, score: MatchScore, games: list[Game], *, clubs: bool, confirming: bool
) -> BoardMatch:
    shown = getattr(match, "table_shown", None)
    if score.forfeit or score.reported:
        # Decided as a whole: one table, the match's own sides and score.
        state = TableState.FORFEIT if score.forfeit else TableState.REPORTED
        only = BoardTable(
            match=match,
            game=None if clubs or not games else games[0],
            table=shown,
            sitting=1,
            state=state,
            home=match.home,
            away=match.away,
            score_home=score.home,
            score_away=score.away,
        )
        return BoardMatch(match, score, shown, [BoardSitting(1, [only])])
    if not games:
        # A club match whose lineup isn't set: nobody sits down yet.
        waiting = BoardTable(
            match=match,
            game=None,
            table=shown,
            sitting=1,
            state=TableState.NOT_STARTED,
            home=match.home,
            away=match.away,
            score_home=0,
            score_away=0,
        )
        return BoardMatch(match, score, shown, [BoardSitting(1, [waiting])])
    sittings: list[BoardSitting] = []
    for number, group in groupby(games, key=lambda game: game.sitting):
        tables = []
        for game in group:
            rounds = int(getattr(game, "round_count", 0))
            home, away = (
                (game.team_a, game.team_b) if game.a_is_home else (game.team_b, game.team_a)
            )
            scores = (
                (game.score_a, game.score_b) if game.a_is_home else (game.score_b, game.score_a)
            )
            tables.append(
                BoardTable(
                    match=match,
                    game=game,
                    # A pairs match is one game: the match's table is the one players look for.
                    table=game.table if clubs else (match.table or game.table),
                    sitting=number,
                    state=_table_state(
                        game,
                        confirming=confirming,
                        disputed=bool(getattr(game, "disputed", False)),
                        rounds=rounds,
                    ),
                    home=home,
                    away=away,
                    score_home=scores[0],
                    score_away=scores[1],
                    rounds=rounds,
                    last_round_at=getattr(game, "last_round_at", None),
                    linked=bool(getattr(game, "linked", False)),
                )
            )
        sittings.append(BoardSitting(number, tables))
    return BoardMatch(match, score, shown, sittings)


def matchday_board(*, matchday: Matchday, match_ids: Sequence[int] | None = None) -> MatchdayBoard:
    """Every table of `matchday` with its state (`TableState`), koppels and score, grouped
    by match and sitting, its byes, and how many tables are in each state.

    `match_ids` narrows it to those matches of the matchday (a page of the board,
    `scoring.selectors.board_live`): their tables only, counted only. Five queries whatever
    the size of the matchday: the matches with their entries' names, their games with the
    koppels' names (`_board_games`), their scores (two, `competition_match_scores`) and
    the byes. `matchday.competition` must be joined.
    """
    competition = matchday.competition
    clubs = competition.kind == Competition.Kind.CLUBS
    joins = [f"{side}__{join}" for side in ("home", "away") for join in ENTRY_JOINS]
    wanted = None if match_ids is None else list(match_ids)
    rows = Match.objects.filter(matchday=matchday)
    if wanted is not None:
        rows = rows.filter(pk__in=wanted)
    matches = list(with_table_shown(rows).select_related(*joins).order_by("table_shown", "pk"))
    games = _board_games(matchday, wanted)
    scores = competition_match_scores(competition=competition, matchday=matchday, match_ids=wanted)
    confirming = competition.confirmation_required
    board_matches = [
        _board_match(
            match, scores[match.pk], games.get(match.pk, []), clubs=clubs, confirming=confirming
        )
        for match in matches
    ]
    byes = list(
        Bye.objects.filter(matchday=matchday)
        .select_related(*(f"entry__{join}" for join in ENTRY_JOINS))
        .order_by("pk")
    )
    groups = Counter(table.group for match in board_matches for table in match.tables)
    counts = BoardCounts(total=sum(groups.values()), **{key: groups[key] for key in TABLE_GROUPS})
    return MatchdayBoard(matchday, clubs, board_matches, byes, counts)


def competition_display_matchday(
    *, competition: Competition, number: int | None = None
) -> Matchday | None:
    """The matchday the hall display shows: matchday `number` when given (None when there
    is no such matchday); else the one being played, in one query:

    - the newest matchday with a game in play (open, a round entered);
    - else the newest with open games that isn't dated after today (a round robin's later
      matchdays are paired and open from the start, but not tonight's);
    - else the newest not dated after today (the last played, its final scores);
    - else the first (the season has not started).

    Games of a forfeited match or of one with reported totals are never open here (as in
    `competition_game_counts`). None when the competition has no matchday.
    """
    open_games = Game.objects.filter(
        match__matchday=OuterRef("pk"),
        status=Game.Status.OPEN,
        match__forfeit="",
        match__total_home__isnull=True,
    )
    matchdays = list(
        competition.matchdays.annotate(
            in_play=Exists(open_games.filter(Exists(Round.objects.filter(game=OuterRef("pk"))))),
            has_open=Exists(open_games),
        ).order_by("number")
    )
    if number is not None:
        return next((matchday for matchday in matchdays if matchday.number == number), None)
    if not matchdays:
        return None
    today = timezone.localdate()
    due = [matchday for matchday in matchdays if matchday.date is None or matchday.date <= today]
    for candidates in (
        [m for m in matchdays if getattr(m, "in_play", False)],
        [m for m in due if getattr(m, "has_open", False)],
        due,
    ):
        if candidates:
            return candidates[-1]
    return matchdays[0]
