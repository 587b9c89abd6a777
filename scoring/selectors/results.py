"""Which rows hold a result, and the score of each match so far.

`result_holders` / `holds_result`: what an edit or a delete would lose (issue 6);
`competition_match_scores` / `competition_match_sums`: every match's score, kaps and
baunies, in one query; `competition_match_outcomes`: the outcomes the standings engine
reads; `matchday_results`: whether a matchday is played; `competition_game_counts`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypeVar

from django.db import connections
from django.db.models import (
    Case,
    Count,
    Exists,
    F,
    FilteredRelation,
    Model,
    OuterRef,
    Q,
    QuerySet,
    Sum,
    When,
)

from scoring.models import Game, game_counts_q, game_counts_sql
from scoring.rules import Forfeit
from scoring.rules.standings import OutcomeRow
from tournaments.models import Bye, Competition, Match, Matchday, match_counts_sql

_M = TypeVar("_M", bound=Model)


def result_holders(rows: QuerySet[_M]) -> QuerySet[_M]:
    """The rows of `rows` that hold a result: what an edit or a delete would lose or move.

    `rows` is a queryset of games, matches, matchdays, byes or competitions (issue 6,
    "admin side doors"; the services' "has results" too):

    - a game: it has a round or entered totals, or is over (finished or closed);
    - a match: reported totals, a forfeit, or a game holding a result;
    - a matchday: a match holding a result (a game in play too);
    - a bye: its matchday is *played* (`matchday_results`), exactly when the bye starts to
      count in the standings;
    - a competition: a matchday holding a result.

    Returns a filtered `rows` (one query when evaluated). Raises TypeError for another model.
    """
    games = Game.objects.filter(
        Q(rounds__isnull=False) | Q(total_a__isnull=False) | ~Q(status=Game.Status.OPEN)
    )
    matches = Match.objects.filter(
        Q(total_home__isnull=False) | ~Q(forfeit="") | Q(pk__in=games.values("match_id"))
    )
    played = matches.values("matchday_id")
    lookups: dict[type[Model], Q] = {
        Game: Q(pk__in=games.values("pk")),
        Match: Q(pk__in=matches.values("pk")),
        Matchday: Q(pk__in=played),
        Bye: Q(Exists(matchday_results(matchday=OuterRef("matchday")))),
        Competition: Q(matchdays__in=played),
    }
    if rows.model not in lookups:
        raise TypeError(f"{rows.model.__name__} rows don't hold results")
    return rows.filter(pk__in=rows.model._default_manager.filter(lookups[rows.model]).values("pk"))


def holds_result(row: Game | Match | Matchday | Bye | Competition) -> bool:
    """Whether one saved row holds a result (`result_holders`)."""
    return result_holders(type(row)._default_manager.filter(pk=row.pk)).exists()


@dataclass(slots=True, kw_only=True)
class MatchScore:
    """A match's score so far: game points summed over its games, home and away.

    `*_kaps` / `*_baunies` count rounds won as kap (or kap_partner) / baunie per side;
    a match with reported totals has no games and so no kaps. `awaiting` counts finished
    games still waiting for confirmation (when the competition asks for it). `forfeit` is
    the side that forfeited ("home", "away", "both") or "", `forfeit_reason` why.

    Made by keyword and read by name. Not frozen: a frozen dataclass takes over twice as
    long to make, and a 1,000-koppel league's standings make 7,500 of them (issue 7);
    nothing changes one once made.
    """

    home_id: int
    away_id: int
    home: int = 0
    away: int = 0
    games: int = 0
    open_games: int = 0
    reported: bool = False
    home_kaps: int = 0
    away_kaps: int = 0
    home_baunies: int = 0
    away_baunies: int = 0
    awaiting: int = 0
    forfeit: str = ""
    forfeit_reason: str = ""
    voided: bool = False

    @property
    def finished(self) -> bool:
        """Whether the match counts in the standings: never once voided (issue 22)."""
        if self.voided:
            return False
        if self.forfeit or self.reported:
            return True
        return self.games > 0 and self.open_games == 0 and self.awaiting == 0

    @property
    def not_started(self) -> bool:
        """Every game open at 0–0: read "not started", not "0–0 in play" (issue 8). A game
        of redeals only reads so too: the match's sums can't tell it apart."""
        return (
            self.games > 0
            and self.open_games == self.games
            and self.home == 0
            and self.away == 0
            and not self.forfeit
            and not self.reported
        )


def forfeit_score(competition: Competition, forfeit: str) -> tuple[int, int]:
    """Game points (home, away) of a match forfeited by `forfeit` ("home", "away", "both"):
    the competition's forfeit score to the winner and to the side that forfeits."""
    win, lose = competition.forfeit_score_for, competition.forfeit_score_against
    # Keyed by `str`: a stored forfeit (`MatchScore.forfeit`) finds its `Forfeit`.
    scores: dict[str, tuple[int, int]] = {
        Forfeit.HOME: (lose, win),
        Forfeit.AWAY: (win, lose),
        Forfeit.BOTH: (lose, lose),
    }
    return scores[forfeit]


def competition_match_scores(
    *,
    competition: Competition,
    match_ids: Iterable[int] | None = None,
    matchday: Matchday | None = None,
) -> dict[int, MatchScore]:
    """Every match's score by match id, in two queries (games, then matches).

    `match_ids` / `matchday` narrow it to those matches (a matchday or match page reads
    only its own games, whatever the size of the competition); both None: every match.

    A forfeited match scores the competition's forfeit score (to the winner / to the side
    that forfeits), whatever was played. A voided game is left out of its match's score; a
    voided match keeps the score it had, for its page, marked `voided` (it is never
    `finished`: it counts nowhere, issue 22).
    """
    match_filter = Q(matchday__competition=competition)
    game_filter = Q(match__matchday__competition=competition) & game_counts_q(match=False)
    if matchday is not None:
        match_filter &= Q(matchday=matchday)
        game_filter &= Q(match__matchday=matchday)
    if match_ids is not None:
        wanted = list(match_ids)
        match_filter &= Q(pk__in=wanted)
        game_filter &= Q(match_id__in=wanted)
    sums: dict[int, _GameSums] = defaultdict(_GameSums)
    # Unordered: sums don't care, and Game's default order joins match, matchday and
    # competition only to sort (issue 7: most of a matchday page's query time).
    games = (
        Game.objects.filter(game_filter)
        .order_by()
        .values_list(
            "match_id",
            "a_is_home",
            "status",
            "confirmed_at",
            "score_a",
            "score_b",
            "kaps_a",
            "kaps_b",
            "baunies_a",
            "baunies_b",
        )
    )
    confirming = competition.confirmation_required
    for (
        match_id, a_is_home, status, confirmed_at,
        score_a, score_b, kaps_a, kaps_b, baunies_a, baunies_b,
    ) in games:  # fmt: skip
        sums[match_id].add(
            a_is_home=a_is_home,
            points=(score_a, score_b),
            kaps=(kaps_a, kaps_b),
            baunies=(baunies_a, baunies_b),
            open_game=status == Game.Status.OPEN,
            awaiting=confirming and status != Game.Status.OPEN and confirmed_at is None,
        )
    scores: dict[int, MatchScore] = {}
    matches = Match.objects.filter(match_filter).values_list(
        "pk",
        "home_id",
        "away_id",
        "total_home",
        "total_away",
        "forfeit",
        "forfeit_reason",
        "voided_at",
    )
    for pk, home_id, away_id, total_home, total_away, forfeit, forfeit_reason, voided in matches:
        if not forfeit and total_home is not None and total_away is not None:
            scores[pk] = MatchScore(
                home_id=home_id,
                away_id=away_id,
                home=total_home,
                away=total_away,
                reported=True,
                voided=voided is not None,
            )
            continue
        summed = sums[pk]
        home, away = summed.home, summed.away
        open_games, awaiting = summed.open_games, summed.awaiting
        if forfeit:
            # Whatever was (or wasn't) played, a forfeited match is decided: nothing is open.
            home, away = forfeit_score(competition, forfeit)
            open_games = awaiting = 0
        scores[pk] = MatchScore(
            home_id=home_id,
            away_id=away_id,
            home=home,
            away=away,
            games=summed.games,
            open_games=open_games,
            home_kaps=summed.home_kaps,
            away_kaps=summed.away_kaps,
            home_baunies=summed.home_baunies,
            away_baunies=summed.away_baunies,
            awaiting=awaiting,
            forfeit=forfeit,
            forfeit_reason=forfeit_reason if forfeit else "",
            voided=voided is not None,
        )
    return scores


@dataclass(slots=True)
class _GameSums:
    """A match's games summed so far, home and away (`competition_match_scores`)."""

    home: int = 0
    away: int = 0
    home_kaps: int = 0
    away_kaps: int = 0
    home_baunies: int = 0
    away_baunies: int = 0
    games: int = 0
    open_games: int = 0
    awaiting: int = 0

    def add(
        self,
        *,
        a_is_home: bool,
        points: tuple[int, int],
        kaps: tuple[int, int],
        baunies: tuple[int, int],
        open_game: bool,
        awaiting: bool,
    ) -> None:
        """Add one game: `points`, `kaps` and `baunies` of its koppels a and b."""
        if not a_is_home:
            points, kaps, baunies = points[::-1], kaps[::-1], baunies[::-1]
        self.home += points[0]
        self.away += points[1]
        self.home_kaps += kaps[0]
        self.away_kaps += kaps[1]
        self.home_baunies += baunies[0]
        self.away_baunies += baunies[1]
        self.games += 1
        self.open_games += open_game
        self.awaiting += awaiting


_MATCH_SUM_COLUMNS = (
    *("pk", "home_id", "away_id", "total_home", "total_away", "forfeit", "forfeit_reason"),
    *("home_points", "away_points", "home_kaps", "away_kaps", "home_baunies", "away_baunies"),
    *("game_count", "open_count", "unconfirmed"),
)


def _home_side(field: str) -> Case:
    """The home side's value of a counting game's column (`score`, `kaps`, `baunies`) in
    SQL (`counted`: the games that count, `competition_match_sums`)."""
    return Case(
        When(counted__a_is_home=True, then=F(f"counted__{field}_a")),
        default=F(f"counted__{field}_b"),
    )


def _away_side(field: str) -> Case:
    return Case(
        When(counted__a_is_home=True, then=F(f"counted__{field}_b")),
        default=F(f"counted__{field}_a"),
    )


def competition_match_sums(*, competition: Competition) -> dict[int, MatchScore]:
    """Every match's score by match id, as `competition_match_scores` gives it, summed by the
    database: one query grouping the games by match (sums per side, games, open, awaiting
    confirmation), one row a match. What the standings rebuild reads (issue 7: 7,500 games
    summed in Python took most of a rebuild at 1,000 koppels).

    A forfeited match scores the competition's forfeit score, whatever was played (its
    games' kaps and baunies still count); reported totals replace its games. Only what
    counts (issue 22): a voided match is left out, a voided game is not summed.
    """
    finished = (Game.Status.FINISHED, Game.Status.CLOSED)
    summed = (
        Match.objects.counting()
        .filter(matchday__competition=competition)
        .alias(counted=FilteredRelation("games", condition=game_counts_q("games__", match=False)))
        .order_by()
        .values("pk", "home_id", "away_id", "total_home", "total_away", "forfeit", "forfeit_reason")
        .annotate(
            home_points=Sum(_home_side("score")),
            away_points=Sum(_away_side("score")),
            home_kaps=Sum(_home_side("kaps")),
            away_kaps=Sum(_away_side("kaps")),
            home_baunies=Sum(_home_side("baunies")),
            away_baunies=Sum(_away_side("baunies")),
            game_count=Count("counted"),
            open_count=Count("counted", filter=Q(counted__status=Game.Status.OPEN)),
            unconfirmed=Count(
                "counted",
                filter=Q(counted__status__in=finished, counted__confirmed_at__isnull=True),
            ),
        )
        .values_list(*_MATCH_SUM_COLUMNS)
    )
    # Run as plain SQL: the values as the database gives them (integers and strings) need
    # none of Django's per-value converters, which took longer than the sums (issue 7).
    sql, params = summed.query.sql_with_params()
    with connections[summed.db].cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    confirming = competition.confirmation_required
    scores: dict[int, MatchScore] = {}
    for (
        pk, home_id, away_id, total_home, total_away, forfeit, forfeit_reason,
        home, away, home_kaps, away_kaps, home_baunies, away_baunies,
        count, open_count, unconfirmed,
    ) in rows:  # fmt: skip
        if not forfeit and total_home is not None and total_away is not None:
            scores[pk] = MatchScore(
                home_id=home_id, away_id=away_id, home=total_home, away=total_away, reported=True
            )
            continue
        awaiting = unconfirmed if confirming else 0
        if forfeit:
            # Whatever was (or wasn't) played, a forfeited match is decided: nothing is open.
            home, away = forfeit_score(competition, forfeit)
            open_count = awaiting = 0
        scores[pk] = MatchScore(
            home_id=home_id,
            away_id=away_id,
            home=home or 0,
            away=away or 0,
            games=count,
            open_games=open_count,
            home_kaps=home_kaps or 0,
            away_kaps=away_kaps or 0,
            home_baunies=home_baunies or 0,
            away_baunies=away_baunies or 0,
            awaiting=awaiting,
            forfeit=forfeit,
            forfeit_reason=forfeit_reason if forfeit else "",
        )
    return scores


def competition_match_outcomes(*, competition: Competition) -> list[OutcomeRow]:
    """The finished matches of a competition as the standings count them, in one statement:
    the games summed per match, the match's own columns, and which matches count, all done
    by the database; a row a match, in no given order, with a `MatchOutcome`'s fields in
    its order (`compute_standings` takes them as they are; issue 7: summing, then filtering
    7,500 `MatchScore`s in Python took most of a rebuild at 1,000 koppels).

    The same outcomes `competition_standings_inputs` makes from `competition_match_sums`,
    ineligible players aside (the caller keeps that rule's path, `competition_table`): a
    match counts once it is forfeited (the competition's forfeit score, its games' kaps and
    baunies still counted), has reported totals (those, and no kaps or baunies), or has
    games that are all over (and confirmed, when the competition asks for it). Only what
    counts (issue 22): a voided match is left out, a voided game is not joined.
    """
    matches, matchdays = Match._meta.db_table, Matchday._meta.db_table
    games = Game._meta.db_table
    reported = "m.total_home IS NOT NULL AND m.total_away IS NOT NULL"

    def summed(column: str, side: str) -> str:
        first, second = ("a", "b") if side == "home" else ("b", "a")
        return (
            f"COALESCE(SUM(CASE WHEN g.a_is_home THEN g.{column}_{first}"
            f" ELSE g.{column}_{second} END), 0)"
        )

    def points(side: str) -> str:
        # Forfeited: the forfeit score to the winner or to the side that forfeits
        # (`forfeit_score`); else the reported total, else the games' sum.
        other = "away" if side == "home" else "home"
        return (
            f"CASE WHEN m.forfeit = '{other}' THEN %s WHEN m.forfeit <> '' THEN %s"
            f" WHEN {reported} THEN m.total_{side} ELSE {summed('score', side)} END"
        )

    pending = "g.status = %s"
    statuses: list[str] = [Game.Status.OPEN]
    if competition.confirmation_required:
        pending += " OR (g.status IN (%s, %s) AND g.confirmed_at IS NULL)"
        statuses += [Game.Status.FINISHED, Game.Status.CLOSED]
    win, lose = competition.forfeit_score_for, competition.forfeit_score_against
    # A match with reported totals (and no forfeit) joins none of its games: its kaps and
    # baunies are 0, as its `MatchScore` has them.
    sql = (
        f"SELECT m.home_id, m.away_id, {points('home')}, {points('away')}, "
        f"{summed('kaps', 'home')}, {summed('kaps', 'away')}, "
        f"{summed('baunies', 'home')}, {summed('baunies', 'away')}, "
        "CASE WHEN m.forfeit = '' THEN NULL ELSE m.forfeit END "
        f"FROM {matches} m JOIN {matchdays} d ON d.id = m.matchday_id "
        f"LEFT JOIN {games} g ON g.match_id = m.id AND NOT (m.forfeit = '' AND {reported}) "
        f"AND {game_counts_sql('g')} "
        f"WHERE d.competition_id = %s AND {match_counts_sql('m')} GROUP BY m.id "
        f"HAVING m.forfeit <> '' OR ({reported}) OR (COUNT(g.id) > 0"
        f" AND SUM(CASE WHEN {pending} THEN 1 ELSE 0 END) = 0)"
    )
    with connections[Match.objects.db].cursor() as cursor:
        cursor.execute(sql, [win, lose, win, lose, competition.pk, *statuses])
        return cursor.fetchall()


def matchday_results(*, matchday: Matchday | OuterRef) -> QuerySet[Match]:
    """The matches of `matchday` that have a result: a finished or closed game, reported
    totals or a forfeit. A matchday is *played* once it has one (README "Standings").

    Only stored results decide it, never the clock or the matchday's date, so standings
    stay a function of the data: a round robin made for next March gives nobody a bye's
    points today, and a matchday played earlier than its date counts at once.
    `matchday` may be an `OuterRef` to filter byes (or matchdays) in one query.
    """
    finished_games = Game.objects.filter(match=OuterRef("pk")).exclude(status=Game.Status.OPEN)
    return Match.objects.filter(
        Q(matchday=matchday), ~Q(forfeit="") | Q(total_home__isnull=False) | Exists(finished_games)
    )


@dataclass(frozen=True, slots=True)
class GameCounts:
    """Games still open, and finished games awaiting confirmation (0 when the competition
    doesn't ask for it), of a competition; games of a forfeited match or of a match with
    reported totals are neither (as in `competition_match_scores`)."""

    open_games: int
    awaiting: int


def competition_game_counts(*, competition: Competition) -> GameCounts:
    """`GameCounts` of a competition, in one aggregate query; games that count only (a
    voided game, or one of a voided match, is waited for by nobody)."""
    decided = ~Q(match__forfeit="") | Q(
        match__total_home__isnull=False, match__total_away__isnull=False
    )
    counts = (
        Game.objects.counting()
        .filter(match__matchday__competition=competition)
        .exclude(decided)
        .aggregate(
            open_games=Count("pk", filter=Q(status=Game.Status.OPEN)),
            awaiting=Count("pk", filter=~Q(status=Game.Status.OPEN) & Q(confirmed_at__isnull=True)),
        )
    )
    return GameCounts(
        open_games=counts["open_games"],
        awaiting=counts["awaiting"] if competition.confirmation_required else 0,
    )
