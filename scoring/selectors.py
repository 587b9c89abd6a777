"""Reads with logic: standings inputs and tables, game sheets. Each owns its joins."""

from __future__ import annotations

import hashlib
import logging
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum
from itertools import groupby
from operator import itemgetter
from typing import Any, TypeVar, cast

from django.db import connections
from django.db.models import (
    Case,
    CharField,
    Count,
    Exists,
    F,
    Max,
    Model,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
    When,
)
from django.db.models.functions import Coalesce, Concat, Lower, NullIf
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.engine_inputs import game_round_inputs
from scoring.messages import RESULT_LABELS, pairing_reason_message
from scoring.models import STANDING_COLUMNS, Game, GameDispute, GameLink, Round, Standing
from scoring.rules import (
    ByeOutcome,
    Forfeit,
    MatchOutcome,
    MatchResult,
    Points,
    Replay,
    Result,
    RuleSet,
    RuleViolation,
    StandingRow,
    check_game_totals,
    compute_standings,
    found_at_bye,
    game_seating_check,
    koppel_club,
    matchday_places_violations,
    pairs_match_games_violations,
    replay,
    sitting_koppels_violations,
)
from scoring.rules.eligibility import (
    FieldedKoppel,
    IneligiblePenalty,
    eligibility_applies,
    ineligible_forfeit,
    ineligible_penalties,
    ineligible_players,
)
from scoring.rules.standings import OutcomeRow
from tournaments.models import (
    Bye,
    Club,
    Competition,
    Deduction,
    Entry,
    Match,
    Matchday,
    Player,
    SquadMember,
    Team,
)
from tournaments.schedules import club_movement

logger = logging.getLogger(__name__)

TEAM_JOINS = ("player_1", "player_2")
ENTRY_JOINS = ("team__player_1", "team__player_2", "club")  # what `str(entry)` reads
_M = TypeVar("_M", bound=Model)


def natural_key(text: str) -> tuple[tuple[int, int | str], ...]:
    """Sort key that puts "Koppel 2" before "Koppel 10": digit runs compare as numbers."""
    return tuple(
        (0, int(part)) if part.isdigit() else (1, part.casefold())
        for part in re.split(r"(\d+)", text)
        if part
    )


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


def entries_on_schedule(rows: QuerySet[Entry]) -> QuerySet[Entry]:
    """The entries of `rows` that have a match or a bye: their competition, koppel and club
    stay as they are (the database refuses it too, `entry_scheduled_fixed`)."""
    scheduled = (
        Q(pk__in=Match.objects.values("home_id"))
        | Q(pk__in=Match.objects.values("away_id"))
        | Q(pk__in=Bye.objects.values("entry_id"))
    )
    return rows.filter(scheduled)


def competition_entries(*, competition: Competition) -> list[Entry]:
    """The entries of a competition in natural name order (the order inside a full tie,
    and round 1's seeding of a Swiss tournament)."""
    entries = list(competition.entries.select_related("team__player_1", "team__player_2", "club"))
    return sorted(entries, key=lambda entry: (natural_key(str(entry)), entry.pk))


def competition_entry_ids(*, competition: Competition) -> list[int]:
    """The ids of a competition's entries in `competition_entries`' order (natural name
    order, then id), from one query of names: no model instances, for the standings.

    The name is `str(entry)` spelled out (`Entry.__str__`, `Team.__str__`): a koppel's own
    name, else "player 1 & player 2"; a club's name.
    """
    names = _entry_sort_names("e.competition_id = %s", [competition.pk])
    return [pk for _key, pk in sorted((natural_key(name), pk) for pk, name in names.items())]


def _entry_sort_names(where: str, params: list[int]) -> dict[int, str]:
    """`str(entry)` by id for the entries `e` that `where` picks, from one query of names
    (an ORM query of the same joins took twice as long to build as to run, issue 7)."""
    entries, teams = Entry._meta.db_table, Team._meta.db_table
    players = Player._meta.db_table
    clubs = Club._meta.db_table
    sql = (
        "SELECT e.id, e.team_id, t.name, p1.name, p2.name, c.name"
        f" FROM {entries} e LEFT JOIN {teams} t ON t.id = e.team_id"
        f" LEFT JOIN {players} p1 ON p1.id = t.player_1_id"
        f" LEFT JOIN {players} p2 ON p2.id = t.player_2_id"
        f" LEFT JOIN {clubs} c ON c.id = e.club_id WHERE {where}"
    )
    with connections[Entry.objects.db].cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    return {
        pk: (team_name or f"{first} & {second}") if team_id is not None else str(club)
        for pk, team_id, team_name, first, second, club in rows
    }


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

    @property
    def finished(self) -> bool:
        """Whether the match counts in the standings."""
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
    that forfeits), whatever was played.
    """
    match_filter = Q(matchday__competition=competition)
    game_filter = Q(match__matchday__competition=competition)
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
        "pk", "home_id", "away_id", "total_home", "total_away", "forfeit", "forfeit_reason"
    )
    for pk, home_id, away_id, total_home, total_away, forfeit, forfeit_reason in matches:
        if not forfeit and total_home is not None and total_away is not None:
            scores[pk] = MatchScore(
                home_id=home_id, away_id=away_id, home=total_home, away=total_away, reported=True
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
    """The home side's value of a game column (`score`, `kaps`, `baunies`) in SQL."""
    return Case(
        When(games__a_is_home=True, then=F(f"games__{field}_a")), default=F(f"games__{field}_b")
    )


def _away_side(field: str) -> Case:
    return Case(
        When(games__a_is_home=True, then=F(f"games__{field}_b")), default=F(f"games__{field}_a")
    )


def competition_match_sums(*, competition: Competition) -> dict[int, MatchScore]:
    """Every match's score by match id, as `competition_match_scores` gives it, summed by the
    database: one query grouping the games by match (sums per side, games, open, awaiting
    confirmation), one row a match. What the standings rebuild reads (issue 7: 7,500 games
    summed in Python took most of a rebuild at 1,000 koppels).

    A forfeited match scores the competition's forfeit score, whatever was played (its
    games' kaps and baunies still count); reported totals replace its games.
    """
    finished = (Game.Status.FINISHED, Game.Status.CLOSED)
    summed = (
        Match.objects.filter(matchday__competition=competition)
        .order_by()
        .values("pk", "home_id", "away_id", "total_home", "total_away", "forfeit", "forfeit_reason")
        .annotate(
            home_points=Sum(_home_side("score")),
            away_points=Sum(_away_side("score")),
            home_kaps=Sum(_home_side("kaps")),
            away_kaps=Sum(_away_side("kaps")),
            home_baunies=Sum(_home_side("baunies")),
            away_baunies=Sum(_away_side("baunies")),
            game_count=Count("games"),
            open_count=Count("games", filter=Q(games__status=Game.Status.OPEN)),
            unconfirmed=Count(
                "games",
                filter=Q(games__status__in=finished, games__confirmed_at__isnull=True),
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
    games that are all over (and confirmed, when the competition asks for it).
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
        "WHERE d.competition_id = %s GROUP BY m.id "
        f"HAVING m.forfeit <> '' OR ({reported}) OR (COUNT(g.id) > 0"
        f" AND SUM(CASE WHEN {pending} THEN 1 ELSE 0 END) = 0)"
    )
    with connections[Match.objects.db].cursor() as cursor:
        cursor.execute(sql, [win, lose, win, lose, competition.pk, *statuses])
        return cursor.fetchall()


@dataclass(frozen=True, slots=True)
class Adjustment:
    """A forfeit or a deduction shown under the standings, with its reason.

    `kind` is "forfeit" or "deduction"; `points` the competition points deducted (0 for a
    forfeit); `reason` the words the director or the rules gave.
    """

    entry_id: int
    kind: str
    points: int
    reason: str
    match_id: int | None = None


def competition_ineligible_players_apply(competition: Competition) -> bool:
    """Whether the ineligible-players rule applies (`eligibility_applies`): a club
    competition requiring squads."""
    return eligibility_applies(
        club_competition=competition.kind == Competition.Kind.CLUBS,
        squads_required=competition.squads_required,
    )


def competition_ineligible_players(
    *, competition: Competition, match_ids: Iterable[int] | None = None
) -> dict[int, dict[str, list[str]]]:
    """Players who played for a club without being on its squad for the season
    (`ineligible_players`).

    Only for club competitions that require squads. By match id, then side ("home" /
    "away"), the names of the ineligible players, in three queries. `match_ids` narrows
    it to those matches (a matchday or match page); None: every match.
    """
    if not competition_ineligible_players_apply(competition):
        return {}
    squads = set(
        SquadMember.objects.filter(season=competition.season).values_list(
            "squad__club_id", "player_id"
        )
    )
    clubs = dict(Entry.objects.filter(competition=competition).values_list("pk", "club_id"))
    games = Game.objects.filter(match__matchday__competition=competition).values_list(
        "match_id",
        "match__home_id",
        "match__away_id",
        "a_is_home",
        "team_a__player_1_id",
        "team_a__player_1__name",
        "team_a__player_2_id",
        "team_a__player_2__name",
        "team_b__player_1_id",
        "team_b__player_1__name",
        "team_b__player_2_id",
        "team_b__player_2__name",
    )
    if match_ids is not None:
        games = games.filter(match_id__in=list(match_ids))
    return ineligible_players(_fielded_koppels(games), clubs=clubs, squads=squads)


def _fielded_koppels(games: Iterable[Any]) -> Iterator[FieldedKoppel[int, int, int]]:
    """The two koppels of each game row (`competition_ineligible_players`), home first."""
    for (
        match_id, home_id, away_id, a_is_home,
        a_1, a_1_name, a_2, a_2_name, b_1, b_1_name, b_2, b_2_name,
    ) in games:  # fmt: skip
        team_a = ((a_1, a_1_name), (a_2, a_2_name))
        team_b = ((b_1, b_1_name), (b_2, b_2_name))
        home, away = (team_a, team_b) if a_is_home else (team_b, team_a)
        yield FieldedKoppel(match_id, "home", home_id, home)
        yield FieldedKoppel(match_id, "away", away_id, away)


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


def competitions_standings_stale(*, stale_for: timedelta) -> list[int]:
    """Ids of the competitions whose standings have owed a refresh for longer than
    `stale_for` (`Competition.standings_stale_since`), oldest first.

    The periodic sweep (`scoring.tasks.standings_refresh_stale`) refreshes these; a
    younger mark belongs to a refresh that is most likely queued or running right now.
    """
    cutoff = timezone.now() - stale_for
    return list(
        Competition.objects.filter(standings_stale_since__lt=cutoff)
        .order_by("standings_stale_since", "pk")
        .values_list("pk", flat=True)
    )


@dataclass(frozen=True, slots=True)
class StandingsInputs:
    """What the standings are computed from, and what the standings page shows beside them:
    the adjustments, the games still open and those awaiting confirmation."""

    outcomes: list[MatchOutcome]
    byes: list[ByeOutcome]
    deductions: dict[int, int]
    adjustments: list[Adjustment]
    open_games: int = 0
    awaiting: int = 0


def competition_standings_inputs(
    *, competition: Competition, scores: dict[int, MatchScore] | None = None
) -> StandingsInputs:
    """The finished matches, byes and deductions of a competition, in a few queries.

    `scores`: the competition's `competition_match_scores` (or `competition_match_sums`),
    when the caller has them already; else `competition_match_sums` reads them.

    A match counts once it is forfeited, has reported totals, or games that are all over
    (and confirmed, when the competition asks for it). A bye counts once its matchday is
    played (`matchday_results`), so a schedule made ahead gives nobody points today. A
    side that fielded a player not on its club's squad loses the match by forfeit; if it
    lost anyway, it loses `ineligible_deduction` competition points instead (issue 3,
    squads).
    """
    if scores is None:
        scores = competition_match_sums(competition=competition)
    ineligible = competition_ineligible_players(competition=competition)
    outcomes: list[MatchOutcome] = []
    adjustments: list[Adjustment] = []
    deductions: dict[int, int] = defaultdict(int)
    for match_id, score in scores.items():
        if not score.finished:
            continue
        sides = ineligible.get(match_id)
        if score.forfeit or not sides:
            adjustments += _forfeit_adjustments(match_id, score)
        else:  # ineligible players: a side forfeits, or loses points
            penalties = _ineligible_penalties(competition, score, sides)
            adjustments += _penalty_adjustments(match_id, score, penalties, sides)
            for penalty in penalties:
                if not penalty.forfeit:
                    deductions[_side_entry(score, penalty.side)] += penalty.points
            score = _after_penalties(competition, score, penalties)
        outcomes.append(
            MatchOutcome(
                home=score.home_id,
                away=score.away_id,
                home_points=score.home,
                away_points=score.away,
                home_kaps=score.home_kaps,
                away_kaps=score.away_kaps,
                home_baunies=score.home_baunies,
                away_baunies=score.away_baunies,
                forfeit=Forfeit(score.forfeit) if score.forfeit else None,
            )
        )
    byes = _played_byes(competition)
    _add_deductions(competition, deductions, adjustments)
    return StandingsInputs(
        outcomes,
        byes,
        dict(deductions),
        adjustments,
        open_games=sum(score.open_games for score in scores.values()),
        awaiting=sum(score.awaiting for score in scores.values()),
    )


def _played_byes(competition: Competition) -> list[ByeOutcome]:
    """The byes that count: their matchday is played (`matchday_results`: a match with a
    forfeit, reported totals or a game over), in no given order.

    `matchday_results` spelled out in SQL: its ORM form took 2 ms to compile, five times
    what the query takes to run (issue 7)."""
    byes, matchdays = Bye._meta.db_table, Matchday._meta.db_table
    matches, games = Match._meta.db_table, Game._meta.db_table
    sql = (
        f"SELECT b.entry_id FROM {byes} b JOIN {matchdays} d ON d.id = b.matchday_id"
        f" WHERE d.competition_id = %s AND EXISTS (SELECT 1 FROM {matches} m"
        " WHERE m.matchday_id = b.matchday_id AND (m.forfeit <> '' OR m.total_home IS NOT NULL"
        f" OR EXISTS (SELECT 1 FROM {games} g WHERE g.match_id = m.id AND g.status <> %s)))"
    )
    with connections[Bye.objects.db].cursor() as cursor:
        cursor.execute(sql, [competition.pk, Game.Status.OPEN])
        rows = cursor.fetchall()
    result = MatchResult(competition.bye_result)
    return [
        ByeOutcome(
            entry=entry_id,
            result=result,
            points_for=competition.bye_score_for,
            points_against=competition.bye_score_against,
        )
        for (entry_id,) in rows
    ]


def _add_deductions(
    competition: Competition, deductions: dict[int, int], adjustments: list[Adjustment]
) -> None:
    """Add the competition's deductions to `deductions` (points by entry) and list them."""
    # A voided deduction counts no more (and is not listed): its row stays for the audit.
    for entry_id, points, reason, match_id in (
        Deduction.objects.filter(competition=competition, voided_at__isnull=True)
        .order_by("created_at")
        .values_list("entry_id", "points", "reason", "match_id")
    ):
        deductions[entry_id] += points
        adjustments.append(Adjustment(entry_id, "deduction", points, reason, match_id))


def _rows(model: type[Model], where: str, params: list[Any], columns: str = "id") -> list[Any]:
    """`columns` of the rows of `model`'s table that `where` picks, as plain tuples: for the
    rebuild's small reads, whose ORM form took longer to build than to run (issue 7)."""
    with connections[model._default_manager.db].cursor() as cursor:
        cursor.execute(f"SELECT {columns} FROM {model._meta.db_table} WHERE {where}", params)
        return cursor.fetchall()


def _natural_order(rows: list[StandingRow], competition: Competition) -> list[StandingRow]:
    """`rows` (ranked, entries tied on every key in any order) with each tie in natural
    name order, then id: the order `compute_standings` keeps given `competition_entry_ids`.

    Only the tied entries' names are read and keyed (one query, none without a tie): sorting
    all 1,000 names by `natural_key` took a fifth of a rebuild (issue 7)."""
    # A rank is one more than the number of rows above it: a tie of rank r starts at r - 1.
    ties = [
        range(rank - 1, rank - 1 + size)
        for rank, size in Counter(row.rank for row in rows).items()
        if size > 1
    ]
    if not ties:
        return rows
    tied = cast(list[int], [rows[index].entry for tie in ties for index in tie])
    if len(tied) <= 500:
        names = _entry_sort_names(f"e.id IN ({', '.join(['%s'] * len(tied))})", tied)
    else:  # most of the table (no match played yet): all names, in fewer parameters
        names = _entry_sort_names("e.competition_id = %s", [competition.pk])
    ordered = list(rows)
    for tie in ties:
        ordered[tie.start : tie.stop] = sorted(
            rows[tie.start : tie.stop],
            key=lambda row: (natural_key(names[cast(int, row.entry)]), row.entry),
        )
    return ordered


def competition_table(
    *, competition: Competition, tiebreaks: Sequence[str] | None = None
) -> list[StandingRow]:
    """The ranked table as it stands now, computed from the results (not the stored rows).

    `tiebreaks` defaults to the competition's own; Swiss pairing ranks on points and saldo.

    A match, bye or deduction of an entry of another competition (stored before the
    database refused it, issue 6) is left out and logged, not an error: one bad row must
    not stop the whole table. `manage.py check_results` and the matchday page list it.
    """
    # Entries in no given order: the ties are put in name order afterwards (`_natural_order`).
    entries: list[int] = [pk for (pk,) in _rows(Entry, "competition_id = %s", [competition.pk])]
    found: Sequence[MatchOutcome | OutcomeRow]
    deductions_found: dict[int, int]
    if competition_ineligible_players_apply(competition):
        # The ineligible-players rule reads every game's players: the slower path, for club
        # competitions (a few dozen entries at most).
        inputs = competition_standings_inputs(competition=competition)
        found, byes_found, deductions_found = inputs.outcomes, inputs.byes, inputs.deductions
    else:
        found = competition_match_outcomes(competition=competition)
        byes_found = _played_byes(competition)
        deductions_found = defaultdict(int)
        # A voided deduction counts no more (`_add_deductions`).
        where = "competition_id = %s AND voided_at IS NULL"
        for entry_id, points in _rows(Deduction, where, [competition.pk], "entry_id, points"):
            deductions_found[entry_id] += points
    ours = set(entries)
    outcomes: Sequence[MatchOutcome | OutcomeRow] = found
    if not (
        ours.issuperset(map(itemgetter(0), found)) and ours.issuperset(map(itemgetter(1), found))
    ):
        outcomes = [row for row in found if row[0] in ours and row[1] in ours]
    byes = [bye for bye in byes_found if bye.entry in ours]
    deductions = {entry: points for entry, points in deductions_found.items() if entry in ours}
    if len(outcomes) + len(byes) + len(deductions) < (
        len(found) + len(byes_found) + len(deductions_found)
    ):
        logger.warning(
            "standings of %s leave out results of entries of another competition "
            "(manage.py check_results %s lists them)",
            competition.slug,
            competition.slug,
        )
    rows = compute_standings(
        entries,
        outcomes,
        scheme=competition.points_scheme,
        tiebreaks=competition.tiebreaks if tiebreaks is None else tiebreaks,
        byes=byes,
        deductions=deductions,
    )
    return _natural_order(rows, competition)


def match_adjustments(
    *, match: Match, scores: dict[int, MatchScore] | None = None
) -> list[Adjustment]:
    """The forfeits (recorded, or derived from ineligible players) and deductions tied to
    one match, with their reasons: the standings' adjustments of that match.

    `scores`: the match's `competition_match_scores`, when the caller has them already.
    """
    found = matches_adjustments(
        competition=match.matchday.competition, match_ids=[match.pk], scores=scores
    )
    return found.get(match.pk, [])


def _score_adjustments(
    competition: Competition, match_id: int, score: MatchScore, ineligible: dict[str, list[str]]
) -> list[Adjustment]:
    """The adjustments one finished match makes: a recorded forfeit, or the forfeit or
    deduction of a side that fielded ineligible players (`ineligible_penalties`; issue 3,
    squads): a side loses the match by forfeit, or, when it is the only one and lost
    anyway, `ineligible_deduction` competition points. `competition_standings_inputs`
    scores the table from these."""
    if score.forfeit or not ineligible:
        return _forfeit_adjustments(match_id, score)
    penalties = _ineligible_penalties(competition, score, ineligible)
    return _penalty_adjustments(match_id, score, penalties, ineligible)


def _forfeit_adjustments(match_id: int, score: MatchScore) -> list[Adjustment]:
    """A recorded forfeit of one side or both, with its reason; none without a forfeit."""
    return [
        Adjustment(entry_id, "forfeit", 0, score.forfeit_reason, match_id)
        for side, entry_id in (("home", score.home_id), ("away", score.away_id))
        if score.forfeit in (side, Forfeit.BOTH)
    ]


def _ineligible_penalties(
    competition: Competition, score: MatchScore, ineligible: dict[str, list[str]]
) -> list[IneligiblePenalty]:
    """The penalties of the sides of a match (without a recorded forfeit) that fielded the
    `ineligible` players (by side), in that order."""
    return ineligible_penalties(
        list(ineligible),
        home_points=score.home,
        away_points=score.away,
        deduction=competition.ineligible_deduction,
    )


def _penalty_adjustments(
    match_id: int,
    score: MatchScore,
    penalties: Iterable[IneligiblePenalty],
    ineligible: dict[str, list[str]],
) -> list[Adjustment]:
    """`penalties` as adjustments, each with the names of its side's `ineligible` players."""
    found: list[Adjustment] = []
    for penalty in penalties:
        names = ", ".join(ineligible[penalty.side])
        reason = _("Ineligible: %(names)s not on the squad") % {"names": names}
        kind = "forfeit" if penalty.forfeit else "deduction"
        entry_id = _side_entry(score, penalty.side)
        found.append(Adjustment(entry_id, kind, penalty.points, reason, match_id))
    return found


def _after_penalties(
    competition: Competition, score: MatchScore, penalties: Iterable[IneligiblePenalty]
) -> MatchScore:
    """`score` as the standings count it after `penalties`: a match forfeited by them
    scores the competition's forfeit score, and no kaps or baunies."""
    forfeit = ineligible_forfeit(penalties)
    if forfeit is None:
        return score
    home, away = forfeit_score(competition, forfeit)
    return MatchScore(
        home_id=score.home_id, away_id=score.away_id, home=home, away=away, forfeit=forfeit
    )


def _side_entry(score: MatchScore, side: str) -> int:
    """The entry of `side` ("home" / "away") of the match `score` is of."""
    return score.home_id if side == "home" else score.away_id


def matches_adjustments(
    *,
    competition: Competition,
    match_ids: Iterable[int],
    scores: dict[int, MatchScore] | None = None,
) -> dict[int, list[Adjustment]]:
    """The adjustments of some matches of a competition (a matchday's), by match id; see
    `match_adjustments`. Reads only those matches: at most four queries (scores when not
    given, ineligible players in a club competition with squads, deductions).

    `scores`: their `competition_match_scores`, when the caller has them already.
    """
    wanted = sorted(set(match_ids))
    if not wanted:
        return {}
    if scores is None or any(match_id not in scores for match_id in wanted):
        scores = competition_match_scores(competition=competition, match_ids=wanted)
    ineligible = competition_ineligible_players(competition=competition, match_ids=wanted)
    found: dict[int, list[Adjustment]] = defaultdict(list)
    for match_id in wanted:
        score = scores.get(match_id)
        if score is not None and score.finished:
            rows = _score_adjustments(competition, match_id, score, ineligible.get(match_id, {}))
            if rows:
                found[match_id].extend(rows)
    for deduction in Deduction.objects.filter(
        competition=competition, voided_at__isnull=True, match_id__in=wanted
    ).order_by("created_at"):
        found[cast(int, deduction.match_id)].append(
            Adjustment(
                deduction.entry_id,
                "deduction",
                deduction.points,
                deduction.reason,
                deduction.match_id,
            )
        )
    return dict(found)


def competition_adjustments(*, competition: Competition) -> list[Adjustment]:
    """The adjustments listed under the standings, without recomputing the standings:
    forfeits and ineligible players match by match (in match order), then the deductions
    that are not voided, oldest first. The same list as `competition_standings_inputs`
    gives, in three to six queries however big the competition.
    """
    forfeited = set(
        Match.objects.filter(matchday__competition=competition)
        .exclude(forfeit="")
        .values_list("pk", flat=True)
    )
    ineligible = competition_ineligible_players(competition=competition)
    wanted = sorted(forfeited | set(ineligible))
    scores = competition_match_scores(competition=competition, match_ids=wanted) if wanted else {}
    found: list[Adjustment] = []
    for match_id in wanted:
        score = scores.get(match_id)
        if score is not None and score.finished:
            found += _score_adjustments(competition, match_id, score, ineligible.get(match_id, {}))
    found += [
        Adjustment(
            deduction.entry_id, "deduction", deduction.points, deduction.reason, deduction.match_id
        )
        for deduction in Deduction.objects.filter(
            competition=competition, voided_at__isnull=True
        ).order_by("created_at")
    ]
    return found


@dataclass(frozen=True, slots=True)
class GameCounts:
    """Games still open, and finished games awaiting confirmation (0 when the competition
    doesn't ask for it), of a competition; games of a forfeited match or of a match with
    reported totals are neither (as in `competition_match_scores`)."""

    open_games: int
    awaiting: int


def competition_game_counts(*, competition: Competition) -> GameCounts:
    """`GameCounts` of a competition, in one aggregate query."""
    decided = ~Q(match__forfeit="") | Q(
        match__total_home__isnull=False, match__total_away__isnull=False
    )
    counts = (
        Game.objects.filter(match__matchday__competition=competition)
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


def club_koppels(*, entry: Entry, competition: Competition) -> QuerySet[Team]:
    """The koppels that may play for `entry`'s club in `competition`: both players of the
    club and, when the competition requires squads, both on the club's squad for its season.
    None for a pairs entry."""
    if entry.club_id is None:
        return Team.objects.none()
    teams = Team.objects.filter(player_1__club_id=entry.club_id, player_2__club_id=entry.club_id)
    if competition.squads_required:
        teams = teams.filter(
            player_1__squad_places__season=competition.season,
            player_1__squad_places__squad__club_id=entry.club_id,
        ).filter(
            player_2__squad_places__season=competition.season,
            player_2__squad_places__squad__club_id=entry.club_id,
        )
    return teams.select_related(*TEAM_JOINS).order_by("name", "key")


@dataclass(frozen=True, slots=True)
class Rematch:
    """A match of the matchday whose entries met before, on the matchdays numbered."""

    match: Match
    earlier: list[int]


@dataclass(frozen=True, slots=True)
class RepeatBye:
    """A bye of the matchday for an entry that had one before, on the matchdays numbered."""

    bye: Bye
    earlier: list[int]


@dataclass(frozen=True, slots=True)
class MatchdayProblems:
    """What the director should look at on a matchday: entries neither playing nor on a
    bye, matches without a table, rematches and second byes; and what the rules forbid but
    was stored before the database refused it (issue 6): entries of another competition
    (`foreign`) and entries with more than one place (`twice`)."""

    left_out: list[Entry]
    without_table: list[Match]
    rematches: list[Rematch]
    repeat_byes: list[RepeatBye]
    foreign: list[Entry] = field(default_factory=list)
    twice: list[Entry] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(
            self.left_out
            or self.without_table
            or self.rematches
            or self.repeat_byes
            or self.foreign
            or self.twice
        )


def matchday_problems(*, matchday: Matchday) -> MatchdayProblems:
    """The problems of one matchday, in four queries (entry ids, its matches, the earlier
    matches of its pairs, byes), and one more for the names of the entries it lists (of
    another competition too) when there are any: a 1,000-koppel matchday names none of its
    fine ones (issue 7).

    A rematch is a pairing of two entries that met on an earlier matchday (in a double round
    robin: met twice already); a repeat bye one for an entry that had a bye on an earlier
    matchday (double round robin: two). Pairings themselves may allow both when nothing
    else was possible; the director decides. An entry of another competition or with two
    places (`scoring.rules.matchday_places_violations`) is listed, never an error: the page
    must show what is stored, to be put right.
    """
    competition = matchday.competition
    allowed = 2 if competition.schedule_format == Competition.Format.DOUBLE_ROUND_ROBIN else 1
    entry_ids = list(competition.entries.values_list("pk", flat=True))
    todays = Match.objects.filter(matchday=matchday)
    matches = list(with_table_shown(todays).order_by("table_shown", "pk"))
    # Only the earlier matches of a pair that plays today, either way round: a few rows,
    # not the whole season (issue 7: 7,000 matches read for a 1,000-koppel matchday).
    same_pair = todays.filter(
        Q(home=OuterRef("home"), away=OuterRef("away"))
        | Q(home=OuterRef("away"), away=OuterRef("home"))
    )
    met: dict[frozenset[int], list[int]] = defaultdict(list)
    for home_id, away_id, number in (
        Match.objects.filter(
            Exists(same_pair),
            matchday__competition=competition,
            matchday__number__lt=matchday.number,
        )
        .order_by()
        .values_list("home_id", "away_id", "matchday__number")
    ):
        met[frozenset((home_id, away_id))].append(number)
    byes: list[Bye] = []
    had_bye: dict[int, list[int]] = defaultdict(list)
    resting_today = Bye.objects.filter(matchday=matchday).values("entry_id")
    for bye in Bye.objects.filter(
        matchday__competition=competition,
        matchday__number__lte=matchday.number,
        entry_id__in=resting_today,
    ).select_related("matchday"):
        if bye.matchday_id == matchday.pk:
            byes.append(bye)
        else:
            had_bye[bye.entry_id].append(bye.matchday.number)
    playing = [(match.home_id, match.away_id) for match in matches]
    resting = [bye.entry_id for bye in byes]
    places = list(matchday_places_violations(playing, resting, entries=frozenset(entry_ids)))
    others = {v.params["entry"] for v in places if v.code == "entry_other_competition"}
    busy = {bye.entry_id for bye in byes}
    for match in matches:
        busy |= {match.home_id, match.away_id}
    rematches = [
        Rematch(match, sorted(set(numbers)))
        for match in matches
        if len(numbers := met[frozenset((match.home_id, match.away_id))]) >= allowed
    ]
    repeat_byes = [
        RepeatBye(bye, sorted(set(numbers)))
        for bye in byes
        if len(numbers := had_bye[bye.entry_id]) >= allowed
    ]
    twice = dict.fromkeys(v.params["entry"] for v in places if v.code == "entry_twice_on_matchday")
    without_table = [match for match in matches if getattr(match, "table_shown", None) is None]
    # Names only for what is listed: the matches and byes named, the entries left out.
    listed = [*(rematch.match for rematch in rematches), *without_table]
    left_out_ids = [pk for pk in entry_ids if pk not in busy]
    wanted = {*left_out_ids, *others, *twice, *(bye.entry_id for bye in byes)}
    wanted |= {pk for match in listed for pk in (match.home_id, match.away_id)}
    named = (
        {e.pk: e for e in Entry.objects.filter(pk__in=wanted).select_related(*ENTRY_JOINS)}
        if wanted
        else {}
    )
    for match in listed:
        match.home, match.away = named[match.home_id], named[match.away_id]
    for bye in byes:
        bye.entry = named[bye.entry_id]
    left_out = sorted(
        (named[pk] for pk in left_out_ids), key=lambda entry: (natural_key(str(entry)), entry.pk)
    )
    return MatchdayProblems(
        left_out=left_out,
        without_table=without_table,
        rematches=rematches,
        repeat_byes=repeat_byes,
        foreign=[named[entry_id] for entry_id in sorted(others)],
        twice=[named[entry_id] for entry_id in twice],
    )


@dataclass(frozen=True, slots=True)
class MatchdaySummary:
    """One matchday on the director's schedule: its matches and how many are finished
    (`MatchScore.finished`: a forfeit, reported totals, or games all over and confirmed
    where the competition asks for it)."""

    matchday: Matchday
    matches: int
    finished: int


def competition_schedule(*, competition: Competition) -> list[MatchdaySummary]:
    """Every matchday of the competition in order, with its match counts: one aggregate
    query, whatever the size of the schedule. Counts what `competition_match_scores` would
    say match by match, without summing any game (issue 7: the schedule of 7,500 matches
    took 2 s that way)."""
    games = Game.objects.filter(match=OuterRef("matches"))
    unsettled = Q(status=Game.Status.OPEN)
    if competition.confirmation_required:
        unsettled |= Q(confirmed_at__isnull=True)
    finished = (
        ~Q(matches__forfeit="")
        | Q(matches__total_home__isnull=False, matches__total_away__isnull=False)
        | (Q(Exists(games)) & ~Q(Exists(games.filter(unsettled))))
    )
    matchdays = competition.matchdays.annotate(
        match_count=Count("matches"), finished_count=Count("matches", filter=finished)
    ).order_by("number")
    return [
        MatchdaySummary(matchday, matchday.match_count, matchday.finished_count)
        for matchday in matchdays
    ]


def with_table_shown(rows: QuerySet[Match]) -> QuerySet[Match]:
    """`rows` annotated with `table_shown`: the match's table, or else its first game's (a
    pairs match is one game, and files often give the table only there)."""
    first_game_table = (
        Game.objects.filter(match=OuterRef("pk"), table__isnull=False)
        .order_by("table")
        .values("table")[:1]
    )
    return rows.annotate(table_shown=Coalesce("table", Subquery(first_game_table)))


def matchday_matches(*, matchday: Matchday, search: str = "") -> QuerySet[Match]:
    """The matches of a matchday by table shown (`with_table_shown`; then id), both
    entries' names joined.

    `search` keeps the matches at that table number (digits) or whose home or away entry
    is named like it (`entry_named`): a player looking for their table on a big matchday.
    """
    rows = with_table_shown(Match.objects.filter(matchday=matchday))
    order: list[Any] = ["table_shown", "pk"]
    words = search.strip()
    if words:
        found = entry_named(words, entry="home") | entry_named(words, entry="away")
        if words.isascii() and words.isdigit() and len(words) <= 9:  # a table number
            found |= Q(table_shown=int(words))
            # That table first, then the koppels whose names hold the digits.
            order.insert(0, Case(When(table_shown=int(words), then=0), default=1))
        rows = rows.filter(found)
    joins = [f"{side}__{join}" for side in ("home", "away") for join in ENTRY_JOINS]
    return rows.select_related(*joins).order_by(*order)


# The order of the stored standings inside a shared rank (and the last keys of every
# other sort of the standings page, so tied rows keep their places between reloads).
STANDINGS_ORDER = ("rank", "entry__team__key", "entry__club__name", "entry_id")


def entry_named(words: str, *, entry: str = "entry") -> Q:
    """The rows whose entry (the relation `entry`, e.g. "entry", "home", "away") has a
    koppel name or key, a player's or the club's name containing `words`, any case: how
    every page's find box matches names (standings, matchday). `words` is stripped; empty
    matches every row."""
    words = words.strip()
    if not words:
        return Q()
    return (
        Q(**{f"{entry}__team__name__icontains": words})
        | Q(**{f"{entry}__team__key__icontains": words})
        | Q(**{f"{entry}__team__player_1__name__icontains": words})
        | Q(**{f"{entry}__team__player_2__name__icontains": words})
        | Q(**{f"{entry}__club__name__icontains": words})
    )


def competition_standings(*, competition: Competition, search: str = "") -> QuerySet[Standing]:
    """The stored standings rows, best first, with their entries' names joined.

    `search` keeps the rows whose koppel name or key, player or club name contains it
    (any case, `entry_named`): a player looking for their own row in a big table.
    `entry_sort` (an alias, not selected) is the entry's name as shown, lower case: the
    koppel's name, else "<player> & <player>", else the club's name; the standings table
    sorts its Entry column by it in SQL (pages are cut in the database).
    """
    rows = Standing.objects.filter(competition=competition)
    if search.strip():
        rows = rows.filter(entry_named(search))
    shown = Coalesce(
        NullIf("entry__team__name", Value("")),
        "entry__club__name",  # null for a koppel's entry: a club's has no team
        Concat(
            "entry__team__player_1__name",
            Value(" & "),
            "entry__team__player_2__name",
            output_field=CharField(),
        ),
        output_field=CharField(),
    )
    return (
        rows.alias(entry_sort=Lower(shown))
        .select_related("entry__team__player_1", "entry__team__player_2", "entry__club")
        .order_by(*STANDINGS_ORDER)
    )


@dataclass(frozen=True, slots=True)
class StandingsSummary:
    """What the standings page says beside the stored rows: when they were computed (None:
    never), and whether any entry had a bye that counted or a deduction (their columns)."""

    as_of: datetime | None
    byes: bool
    deducted: bool


def competition_standings_summary(*, competition: Competition) -> StandingsSummary:
    """`StandingsSummary` of the stored standings, in one aggregate query."""
    as_of, byes, deducted = (
        Competition.objects.filter(pk=competition.pk)
        .annotate(byes=Max("standings__byes"), deducted=Max("standings__deducted"))
        .values_list("standings_computed_at", "byes", "deducted")
        .get()
    )
    return StandingsSummary(as_of=as_of, byes=bool(byes), deducted=bool(deducted))


def competition_standings_as_of(*, competition: Competition) -> datetime | None:
    """When the standings were last computed (`Competition.standings_computed_at`: the
    last rebuild, whether or not it changed a row); None when never."""
    stamp: datetime | None = (
        Competition.objects.filter(pk=competition.pk)
        .values_list("standings_computed_at", flat=True)
        .get()
    )
    return stamp


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One line of a score sheet: the round and the running score after it."""

    round: Round
    running: Points


def game_sheet(*, game: Game) -> list[SheetRow]:
    """The game's rounds in order, each with the running totals after it."""
    rows = []
    running = Points()
    for rnd in game.rounds.select_related("caller").order_by("number"):
        running = running + Points(rnd.points_a, rnd.points_b)
        rows.append(SheetRow(round=rnd, running=running))
    return rows


def game_detail(*, game_id: int) -> Game:
    """A game with its match, competition, koppels and seated players joined, in four small
    queries: the game with its match, matchday and competition; the match's two entries
    with their clubs; the (at most four) koppels; the (at most eight) players.

    Joining them all in one query (12 or more tables) cost PostgreSQL 3–13 ms of planning
    for a 0.5 ms execution (past `join_collapse_limit`, at `geqo_threshold`, issue 7), and
    the score sheet reads the game twice a saved round; four queries on primary keys
    plan in well under a millisecond.
    Raises Game.DoesNotExist.
    """
    game = Game.objects.select_related("match__matchday__competition").get(pk=game_id)
    match = game.match
    entries = Entry.objects.select_related("club").in_bulk([match.home_id, match.away_id])
    match.home, match.away = entries[match.home_id], entries[match.away_id]
    sides = (match.home, match.away)
    koppels = Team.objects.in_bulk(
        {game.team_a_id, game.team_b_id} | {e.team_id for e in sides if e.team_id is not None}
    )
    game.team_a, game.team_b = koppels[game.team_a_id], koppels[game.team_b_id]
    for entry in sides:
        if entry.team_id is not None:
            entry.team = koppels[entry.team_id]
    teams = list(koppels.values())
    seats = ("seat_1", "seat_2", "seat_3", "seat_4")
    wanted = {player_id for team in teams for player_id in (team.player_1_id, team.player_2_id)}
    wanted |= {getattr(game, f"{seat}_id") for seat in seats} - {None}
    players = Player.objects.in_bulk(wanted)
    for team in teams:
        team.player_1 = players[team.player_1_id]
        team.player_2 = players[team.player_2_id]
    for seat in seats:
        player_id = getattr(game, f"{seat}_id")
        if player_id is not None:
            setattr(game, seat, players[player_id])
    return game


def game_next_caller(*, game: Game, rounds: Sequence[Round]) -> int | None:
    """The player id whose turn it is to call the next round (RULES.md "Who calls next").

    `rounds` are the game's stored rounds in order. None while the rotation is unknown
    (no caller recorded yet, no seats) or the game is over.
    """
    if None in game.seats:
        return None
    try:
        state = replay(
            game.match.matchday.competition.rule_set,
            game_round_inputs(game, rounds),
            first_caller=game.first_caller,
        )
    except RuleViolation:
        return None  # stored rounds that no longer fit the rules: nobody to propose
    if state.state.finished or state.state.caller is None:
        return None
    return game.seats[state.state.caller - 1]


def competition_games_replay(
    *, competition: Competition, rules: RuleSet
) -> list[tuple[Game, list[Round], Replay | None]]:
    """Every game of a competition replayed under `rules`, in two queries.

    Returns (game, its rounds in order, the replay) per game; the replay is None for a game
    entered as totals (those are checked with `check_game_totals`). Used to try a change
    of rules before saving it, and to re-score the games after it.

    Raises RuleViolation from the first game that breaks `rules`, with `game` (its id) and,
    for a round, `round` added to the params.
    """
    games = list(
        Game.objects.filter(match__matchday__competition=competition)
        .select_related("match__matchday")
        .prefetch_related(Prefetch("rounds", queryset=Round.objects.order_by("number")))
        .order_by("match__matchday__number", "match_id", "sitting", "table")
    )
    replayed: list[tuple[Game, list[Round], Replay | None]] = []
    for game in games:
        rounds = list(game.rounds.all())
        try:
            if game.total_a is not None and game.total_b is not None:
                check_game_totals(game.total_a, game.total_b, rules)
                replayed.append((game, rounds, None))
                continue
            game_replay = replay(
                rules, game_round_inputs(game, rounds), first_caller=game.first_caller
            )
            if game.status == Game.Status.CLOSED and not game_replay.state.finished:
                game_replay = Replay(state=game_replay.state.close(), points=game_replay.points)
        except RuleViolation as exc:
            raise exc.at(game=game.pk) from None
        replayed.append((game, rounds, game_replay))
    return replayed


def game_setup_check(
    *,
    match: Match,
    team_a: Team,
    team_b: Team,
    seats: Sequence[Player | None],
    game: Game | None = None,
    table: int | None = None,
    sitting: int | None = None,
) -> bool:
    """Check who plays a game before it is saved; returns whether koppel A plays for home.

    Koppel A and B are the match's two koppels (pairs) or one koppel of each club (club
    match); seats are all four players clockwise or none, seats 1 and 3 being koppel A
    (RULES.md "Terms"): the engine's `game_seating_check`, which the importer uses too; a
    match with reported totals takes no games; a pairs game sits at its match's table in
    sitting 1, a club-match game within the competition's sittings and tables; and once a
    game has rounds, its match, koppels and seats stay as they are (the rounds depend on
    them).

    Raises RuleViolation: `match_reported_totals`, `game_same_koppel`,
    `koppel_not_in_match` (param koppel: its name), `game_koppels_share_player` (param
    player: its name), `seat_player_twice` (params player, first_seat, seat),
    `seats_incomplete`, `seats_do_not_fit`, `game_place_not_in_match` (params table,
    sitting), `game_has_rounds_setup`.
    """
    if match.total_home is not None:
        raise RuleViolation("match_reported_totals")
    competition = match.matchday.competition
    if table is not None and sitting is not None:
        if competition.kind == Competition.Kind.PAIRS:
            fits = sitting == 1 and (match.table is None or table == match.table)
        else:
            fits = sitting <= competition.sittings and table <= competition.koppels_per_side
        if not fits:
            raise RuleViolation("game_place_not_in_match", table=table, sitting=sitting)
    home, away = match.home, match.away
    entries: tuple[int | None, int | None]
    plays_for: tuple[int | None, int | None]
    if home.team_id is not None:  # a pairs match: a koppel is its own entry
        entries, plays_for = (home.team_id, away.team_id), (team_a.pk, team_b.pk)
    else:  # a club match: a koppel plays for its players' club
        entries = (home.club_id, away.club_id)
        plays_for = (
            koppel_club((team_a.player_1.club_id, team_a.player_2.club_id)),
            koppel_club((team_b.player_1.club_id, team_b.player_2.club_id)),
        )
    # One player, one place (issue 6): named, so the message says who.
    named_players = {
        player.pk: str(player)
        for player in (team_a.player_1, team_a.player_2, team_b.player_1, team_b.player_2)
    }
    named_players.update((seat.pk, str(seat)) for seat in seats if seat is not None)
    try:
        a_is_home = game_seating_check(
            *entries,
            team_a,
            team_b,
            plays_for=plays_for,
            players=(team_a.player_ids, team_b.player_ids),
            seats=[seat.pk if seat is not None else None for seat in seats],
        )
    except RuleViolation as exc:
        params = dict(exc.params)
        if "koppel" in params:
            params["koppel"] = str(params["koppel"])
        if "player" in params:
            params["player"] = named_players.get(params["player"], params["player"])
        raise RuleViolation(exc.code, **params) from None

    if game is not None and game.pk is not None and game.rounds.exists():
        stored = Game.objects.get(pk=game.pk)
        before = (stored.match_id, stored.team_a_id, stored.team_b_id, stored.seats)
        after = (
            match.pk,
            team_a.pk,
            team_b.pk,
            tuple(seat.pk if seat else None for seat in seats),
        )
        if before != after:
            raise RuleViolation("game_has_rounds_setup")
    return a_is_home


@dataclass(frozen=True, slots=True)
class SittingScore:
    """One sitting of a club match: its games, the match score after it, and the koppels
    that sit out (facing an empty place: they score nothing this sitting)."""

    number: int
    games: list[Game]
    home: int
    away: int
    running_home: int
    running_away: int
    sits_out: list[Team] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class MatchMovement:
    """How a club match's stored lineup was played: the movement ran over `tables` koppels
    a side for `sittings` sittings (`planned`: the competition's number); `sits_out` by
    sitting number the koppels facing an empty place."""

    tables: int
    sittings: int
    planned: int
    sits_out: dict[int, list[Team]]

    @property
    def capped(self) -> bool:
        """Fewer sittings than the competition plans: too few koppels a side for them."""
        return 0 < self.sittings < self.planned


def match_movement(*, match: Match) -> MatchMovement | None:
    """The movement of a club match from its stored lineup (`Match.lineup`), in one query.

    None for a pairs match or a match without a stored lineup (imported or reported data).
    """
    competition = match.matchday.competition
    lineup = match.lineup or {}
    if competition.kind != Competition.Kind.CLUBS or not lineup:
        return None
    home = [t for t in lineup.get("home") or [] if t is not None]
    away = [t for t in lineup.get("away") or [] if t is not None]
    late = {int(team_id): sitting for team_id, sitting in (lineup.get("late") or {}).items()}
    tables = max(len(home), len(away))
    sittings = min(competition.sittings, tables)
    if not home or not away:
        return MatchMovement(tables, 0, competition.sittings, {})
    try:
        movement = club_movement(
            home + [None] * (tables - len(home)),
            away + [None] * (tables - len(away)),
            sittings=sittings,
            late=late,
        )
    except RuleViolation:
        return None  # a lineup the movement no longer takes: show the games only
    idle: dict[int, list[int]] = {}
    for number, places in enumerate(movement, start=1):
        alone = [
            koppel
            for place in places
            if (place.home is None) != (place.away is None)
            for koppel in (place.home, place.away)
            if koppel is not None
        ]
        if alone:
            idle[number] = alone
    teams = (
        Team.objects.select_related(*TEAM_JOINS).in_bulk({k for ks in idle.values() for k in ks})
        if idle
        else {}
    )
    sits_out = {
        number: [teams[koppel] for koppel in koppels if koppel in teams]
        for number, koppels in idle.items()
    }
    return MatchMovement(tables, sittings, competition.sittings, sits_out)


@dataclass(frozen=True, slots=True)
class TopKoppel:
    """The koppel of one side with the most game points in a match."""

    team: Team
    points: int


def match_sittings(
    *, games: Sequence[Game], movement: MatchMovement | None = None
) -> tuple[list[SittingScore], dict[str, TopKoppel]]:
    """Per sitting the games, the running match score and who sits out (from `movement`);
    the top koppel of each side, once a game has points.

    `games` are ordered by sitting and table. A koppel's points are the game points it
    scored in all its games of the match.
    """
    sits_out = movement.sits_out if movement is not None else {}
    by_sitting = {
        number: list(group) for number, group in groupby(games, key=lambda game: game.sitting)
    }
    sittings: list[SittingScore] = []
    running = [0, 0]
    by_koppel: dict[str, dict[int, list[Any]]] = {"home": {}, "away": {}}
    scored = False
    for number in sorted(set(by_sitting) | set(sits_out)):
        played = by_sitting.get(number, [])
        home = away = 0
        for game in played:
            home_team, away_team = (
                (game.team_a, game.team_b) if game.a_is_home else (game.team_b, game.team_a)
            )
            home_points, away_points = (
                (game.score_a, game.score_b) if game.a_is_home else (game.score_b, game.score_a)
            )
            home += home_points
            away += away_points
            scored = scored or bool(home_points or away_points)
            for side, team, points in (
                ("home", home_team, home_points),
                ("away", away_team, away_points),
            ):
                slot = by_koppel[side].setdefault(team.pk, [team, 0])
                slot[1] += points
        running[0] += home
        running[1] += away
        sittings.append(
            SittingScore(
                number, played, home, away, running[0], running[1], sits_out.get(number, [])
            )
        )
    top: dict[str, TopKoppel] = {}
    for side, koppels in by_koppel.items():
        if koppels and scored:
            # Most points first; on a tie, the koppel that played first (stable order).
            team, points = max(koppels.values(), key=lambda slot: slot[1])
            top[side] = TopKoppel(team, points)
    return sittings, top


# ================================================================ the matchday board
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
    shown = (tables, [bye.pk for bye in board.byes], minute.strftime("%Y%m%d%H%M"))
    return hashlib.blake2b(repr(shown).encode(), digest_size=8).hexdigest()


def _table_state(game: Game, *, confirming: bool, disputed: bool, rounds: int) -> TableState:
    if disputed:
        return TableState.DISPUTED
    if game.is_over:
        if confirming and game.confirmed_at is None:
            return TableState.AWAITING
        return TableState.FINISHED
    if rounds or game.by_totals or game.score_a or game.score_b:
        return TableState.PLAYING
    return TableState.NOT_STARTED


def _board_games(matchday: Matchday) -> dict[int, list[Game]]:
    """The matchday's games by match id, by sitting and table, with their koppels' names
    and, annotated: `round_count`, `last_round_at`, `disputed` (an open dispute) and
    `linked` (an active table link). One query; the annotations are correlated subqueries
    on indexed columns, a few rows each."""
    rounds = Round.objects.filter(game=OuterRef("pk")).order_by().values("game")
    games = (
        Game.objects.filter(match__matchday=matchday)
        .select_related(*(f"team_{side}__{join}" for side in "ab" for join in TEAM_JOINS))
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


def matchday_board(*, matchday: Matchday) -> MatchdayBoard:
    """Every table of `matchday` with its state (`TableState`), koppels and score, grouped
    by match and sitting, its byes, and how many tables are in each state.

    Five queries whatever the size of the matchday: the matches with their entries' names,
    their games with the koppels' names (`_board_games`), their scores (two,
    `competition_match_scores`) and the byes. `matchday.competition` must be joined.
    """
    competition = matchday.competition
    clubs = competition.kind == Competition.Kind.CLUBS
    joins = [f"{side}__{join}" for side in ("home", "away") for join in ENTRY_JOINS]
    matches = list(
        with_table_shown(Match.objects.filter(matchday=matchday))
        .select_related(*joins)
        .order_by("table_shown", "pk")
    )
    games = _board_games(matchday)
    scores = competition_match_scores(competition=competition, matchday=matchday)
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


# ================================================================ audit history
#
# The directors' history pages read simple-history's records (`<Model>.history`): one
# record a save, "+" created, "~" changed, "-" deleted, with the user the middleware saw.
# Consecutive records of one object are compared with `diff_against` (no queries: foreign
# keys stay ids) and worded here; names come from one query per kind of thing named.

# A write saves several rows in one transaction (a correction: the round, the later
# rounds' points, the game's score), milliseconds apart; records that follow one another
# this closely, by the same user, and only carry what the engine derived are one change.
_SAME_WRITE = timedelta(seconds=5)
# The `history_change_reason` of a round deleted by the score sheet's undo button
# (`services.round_undo`), so its history says "undone" rather than "deleted".
ROUND_UNDO_REASON = "undo"
_GAME_DERIVED = frozenset(
    {"score_a", "score_b", "kaps_a", "kaps_b", "baunies_a", "baunies_b", "confirmed_by"}
)


@dataclass(frozen=True, slots=True)
class HistoryLine:
    """One change on a director's history page, in words.

    `when` is when it was saved; `who` the user's name, "" when no user made it (an import
    or a management command); `what` one sentence; `details` the "old → new" phrases;
    `game_id`, on a match's page, the game whose own history page tells more.
    """

    when: datetime
    who: str
    what: str
    details: tuple[str, ...] = ()
    game_id: int | None = None


@dataclass(slots=True)
class _Event:
    """A `HistoryLine` being built; `derived` events may join the write before them."""

    when: datetime
    user_id: int | None
    who: str
    what: str
    details: list[str]
    derived: bool = False
    game_id: int | None = None
    # What a derived event adds to the write it joins (see `_merged`); only its details
    # when it joins a change of the same row (`subject`: model name and id).
    joined: tuple[str, ...] = ()
    subject: tuple[str, int] | None = None


@dataclass(frozen=True, slots=True)
class _Names:
    teams: dict[int, str]
    players: dict[int, str]
    entries: dict[int, str]

    def team(self, pk: int | None) -> str:
        return "—" if pk is None else self.teams.get(pk, _("koppel #%(id)s") % {"id": pk})

    def player(self, pk: int | None) -> str:
        return "—" if pk is None else self.players.get(pk, _("player #%(id)s") % {"id": pk})

    def entry(self, pk: int | None) -> str:
        return "—" if pk is None else self.entries.get(pk, _("entry #%(id)s") % {"id": pk})


def _history_names(
    *,
    team_ids: Iterable[int | None],
    player_ids: Iterable[int | None],
    entry_ids: Iterable[int],
    known_teams: Iterable[Team] = (),
) -> _Names:
    """The names the history records refer to by id: one query a kind, none when unused
    (`known_teams` are loaded already)."""
    known = {team.pk: str(team) for team in known_teams}
    teams = {pk for pk in team_ids if pk is not None} - known.keys()
    players = {pk for pk in player_ids if pk is not None}
    entries = set(entry_ids)
    return _Names(
        teams=known
        | {
            team.pk: str(team)
            for team in (
                Team.objects.filter(pk__in=teams).select_related(*TEAM_JOINS) if teams else []
            )
        },
        players=dict(Player.objects.filter(pk__in=players).values_list("pk", "name"))
        if players
        else {},
        entries={
            entry.pk: str(entry)
            for entry in (
                Entry.objects.filter(pk__in=entries).select_related(
                    "team__player_1", "team__player_2", "club"
                )
                if entries
                else []
            )
        },
    )


def _history_of(
    model: type[Model], *, annotate: dict[str, Any] | None = None, **filters: Any
) -> list[Any]:
    """The history records of `model` matching `filters`, oldest first, users joined;
    `annotate` adds expressions to each record (in the same query)."""
    history = model.history  # type: ignore[attr-defined]
    return list(
        history.filter(**filters)
        .annotate(**(annotate or {}))
        .select_related("history_user")
        .order_by("history_date", "history_id")
    )


def _at_table(koppel: str | None) -> str:
    """The `who` of a change made at the table (through the game's link, no account)."""
    if not koppel:
        return _("at the table (through the game's link)")
    return _("at the table (%(koppel)s, through the game's link)") % {"koppel": koppel}


def _side_name(side: str, koppels: tuple[str, str]) -> str | None:
    return {"a": koppels[0], "b": koppels[1]}.get(side)


def _with_previous(records: Iterable[Any]) -> Iterable[tuple[Any, Any]]:
    """Each record (oldest first) with the record before it of the same row, or None."""
    previous: dict[int, Any] = {}
    for record in records:
        yield record, previous.get(record.id)
        previous[record.id] = record


def _changes(record: Any, previous: Any) -> dict[str, tuple[Any, Any]]:
    """field name -> (old, new) of what `record` changed since `previous`."""
    delta = record.diff_against(previous)
    return {change.field: (change.old, change.new) for change in delta.changes}


def _event(record: Any, what: str, details: Iterable[str] = (), **extra: Any) -> _Event:
    user = record.history_user
    who = (user.get_full_name() or user.get_username()) if user is not None else ""
    subject = (type(record).__name__, record.id)
    return _Event(
        record.history_date,
        record.history_user_id,
        who,
        what,
        list(details),
        subject=subject,
        **extra,
    )


def _arrow(old: Any, new: Any) -> str:
    return _("%(old)s → %(new)s") % {"old": old, "new": new}


def _score(a: int | None, b: int | None) -> str:
    return _("none") if a is None else f"{a}–{b}"


def _round_points(a: int, b: int, koppels: tuple[str, str]) -> str:
    if a:
        return _("%(points)s points to %(koppel)s") % {"points": a, "koppel": koppels[0]}
    if b:
        return _("%(points)s points to %(koppel)s") % {"points": b, "koppel": koppels[1]}
    return _("no points")


def _round_about(record: Any, koppels: tuple[str, str]) -> str:
    """ "kap for Noord": the round's result and the koppel it is about; a redeal is about
    neither koppel, so only its result."""
    result = RESULT_LABELS.get(record.result, record.result)
    if record.result == Result.REDEAL:
        return str(result)
    return _("%(result)s for %(koppel)s") % {
        "result": result,
        "koppel": koppels[0] if record.side == "a" else koppels[1],
    }


def _round_facts(record: Any, names: _Names, koppels: tuple[str, str]) -> list[str]:
    facts = []
    if record.caller_id is not None:
        facts.append(_("caller %(name)s") % {"name": names.player(record.caller_id)})
    if record.tricks_a is not None:
        facts.append(_("tricks %(tricks)s") % {"tricks": _score(record.tricks_a, record.tricks_b)})
    facts.append(_round_points(record.points_a, record.points_b, koppels))
    return facts


def _round_events(records: list[Any], names: _Names, koppels: tuple[str, str]) -> list[_Event]:
    """Round N added / corrected / deleted, renumbered or re-scored, in words."""
    events = []
    for record, previous in _with_previous(records):
        number = {"number": record.number}
        if record.history_type == "+":
            what = _("Round %(number)s added: %(about)s") % {
                **number,
                "about": _round_about(record, koppels),
            }
            events.append(
                _table_who(
                    _event(record, what, _round_facts(record, names, koppels)), record, koppels
                )
            )
            continue
        if record.history_type == "-":
            undone = record.history_change_reason == ROUND_UNDO_REASON
            what = (
                _("Round %(number)s undone: %(about)s")
                if undone
                else _("Round %(number)s deleted: %(about)s")
            ) % {**number, "about": _round_about(record, koppels)}
            event = _event(record, what, _round_facts(record, names, koppels))
            events.append(_table_who(event, record, koppels) if undone else event)
            continue
        if previous is None:
            continue  # history began after the row was made: nothing to compare with
        changed = _changes(record, previous)
        details = []
        if "result" in changed:
            old, new = changed["result"]
            details.append(
                _("result %(change)s")
                % {"change": _arrow(RESULT_LABELS.get(old, old), RESULT_LABELS.get(new, new))}
            )
        if "side" in changed and Result.REDEAL not in changed.get("result", (record.result,)):
            old, new = (koppels[0] if side == "a" else koppels[1] for side in changed["side"])
            details.append(_("koppel %(change)s") % {"change": _arrow(old, new)})
        if "caller" in changed:
            old, new = (names.player(pk) for pk in changed["caller"])
            details.append(_("caller %(change)s") % {"change": _arrow(old, new)})
        if {"tricks_a", "tricks_b"} & changed.keys():
            old = _score(previous.tricks_a, previous.tricks_b)
            new = _score(record.tricks_a, record.tricks_b)
            details.append(_("tricks %(change)s") % {"change": _arrow(old, new)})
        corrected = bool(details)
        if {"points_a", "points_b"} & changed.keys():
            old = _round_points(previous.points_a, previous.points_b, koppels)
            new = _round_points(record.points_a, record.points_b, koppels)
            details.append(_arrow(old, new))
        if corrected:
            what = _("Round %(number)s corrected") % number
        elif "number" in changed:
            what = _("Round %(old)s is now round %(new)s") % dict(
                zip(("old", "new"), changed["number"], strict=True)
            )
        elif details:
            what = _("Round %(number)s re-scored") % number
        else:
            continue
        joined = (
            (_("%(what)s: %(details)s") % {"what": what, "details": "; ".join(details)},)
            if details
            else (what,)
        )
        events.append(_event(record, what, details, derived=not corrected, joined=joined))
    return events


def _table_who(event: _Event, record: Any, koppels: tuple[str, str]) -> _Event:
    """A round added (or undone) through the table's link by nobody logged in: the table
    did it, the koppel that enters with that link (`link_side`, annotated by
    `game_history`; unknown on a match's page)."""
    if record.history_user_id is None and getattr(record, "link_id", None) is not None:
        event.who = _at_table(_side_name(getattr(record, "link_side", None) or "", koppels))
    return event


def _dispute_events(records: list[Any], koppels: tuple[str, str]) -> list[_Event]:
    """A koppel disputed the result at the table (with its comment), and how the director
    decided it."""
    events = []
    for record, previous in _with_previous(records):
        koppel = _side_name(record.side, koppels) or record.side
        if record.history_type == "+":
            event = _event(
                record,
                _("Result disputed by %(koppel)s") % {"koppel": koppel},
                [_("comment: %(comment)s") % {"comment": record.comment}],
            )
            if record.history_user_id is None:
                event.who = _at_table(koppel)
            events.append(event)
        elif (
            record.history_type == "~"
            and previous is not None
            and record.resolution
            and record.resolution != previous.resolution
        ):
            label = GameDispute.Resolution(record.resolution).label
            what = _("Dispute of %(koppel)s decided: %(resolution)s") % {
                "koppel": koppel,
                "resolution": label,
            }
            events.append(_event(record, what))
    return events


def _game_place(record: Any) -> str:
    return _("table %(table)s, sitting %(sitting)s") % {
        "table": record.table,
        "sitting": record.sitting,
    }


def _game_event(record: Any, previous: Any, names: _Names) -> _Event | None:
    """One game record in words: created, deleted, totals, closed, reopened, confirmed,
    moved, seats; `derived` when it only carries what the engine computed (the score)."""
    koppels = _("%(a)s – %(b)s") % {
        "a": names.team(record.team_a_id),
        "b": names.team(record.team_b_id),
    }
    if record.history_type == "+":
        what = _("Game created: %(koppels)s at %(place)s") % {
            "koppels": koppels,
            "place": _game_place(record),
        }
        return _event(record, what, game_id=record.id)
    if record.history_type == "-":
        what = _("Game removed: %(koppels)s at %(place)s") % {
            "koppels": koppels,
            "place": _game_place(record),
        }
        return _event(record, what, game_id=record.id)
    if previous is None:
        return None
    changed = _changes(record, previous)
    whats: list[str] = []
    details: list[str] = []
    if {"total_a", "total_b"} & changed.keys():
        old = _score(previous.total_a, previous.total_b)
        new = _score(record.total_a, record.total_b)
        if previous.total_a is None:
            whats.append(_("Totals entered: %(totals)s") % {"totals": new})
        elif record.total_a is None:
            whats.append(_("Totals cleared (were %(totals)s)") % {"totals": old})
        else:
            whats.append(_("Totals corrected: %(change)s") % {"change": _arrow(old, new)})
    if "status" in changed:
        old, new = changed["status"]
        if new == Game.Status.CLOSED:
            whats.append(_("Closed by the director"))
        elif old == Game.Status.CLOSED:
            whats.append(_("Reopened"))
        elif new == Game.Status.FINISHED:
            details.append(_("game over"))
        else:
            details.append(_("in play again"))
    at_table = ""
    if "confirmed_at" in changed:
        if record.confirmed_at is not None:
            whats.append(_("Result confirmed"))
            side = getattr(record, "confirmed_side", "")
            if side and record.history_user_id is None:
                # The other koppel confirmed at the table (`table_game_confirm`).
                at_table = _at_table(names.team(getattr(record, f"team_{side}_id")))
        else:
            details.append(_("confirmation withdrawn: the result changed"))
    for field_name, label in (("team_a", _("koppel A")), ("team_b", _("koppel B"))):
        if field_name in changed:
            old, new = (names.team(pk) for pk in changed[field_name])
            details.append(_("%(label)s %(change)s") % {"label": label, "change": _arrow(old, new)})
    seats = ("seat_1", "seat_2", "seat_3", "seat_4")
    if set(seats) & changed.keys():
        old, new = (
            ", ".join(names.player(getattr(version, f"{seat}_id")) for seat in seats)
            for version in (previous, record)
        )
        details.append(_("seats %(change)s") % {"change": _arrow(old, new)})
    if {"table", "sitting"} & changed.keys():
        change = _arrow(_game_place(previous), _game_place(record))
        details.append(change)
    if "a_is_home" in changed:
        details.append(_("koppel A plays for the other side now"))
    if "match" in changed:
        details.append(_("moved to another match"))
    setup = {"team_a", "team_b", "table", "sitting", "a_is_home", "match", *seats}
    if not whats and setup & changed.keys():
        whats.append(_("Game changed"))
    if {"score_a", "score_b"} & changed.keys():
        details.append(
            _("score %(change)s")
            % {
                "change": _arrow(
                    _score(previous.score_a, previous.score_b),
                    _score(record.score_a, record.score_b),
                )
            }
        )
    if not whats and not details:
        return None
    what = "; ".join(whats) if whats else _("Score updated")
    event = _event(
        record, what, details, derived=not whats, game_id=record.id, joined=tuple(details)
    )
    if at_table:
        event.who = at_table
    return event


def _merged(events: list[_Event]) -> list[HistoryLine]:
    """Oldest-first events as lines, newest first; a derived event joins the event just
    before it when the same user saved both in one write (`_SAME_WRITE`)."""
    merged: list[_Event] = []
    for event in sorted(events, key=lambda event: event.when):
        last = merged[-1] if merged else None
        if (
            event.derived
            and last is not None
            and last.user_id == event.user_id
            and event.when - last.when <= _SAME_WRITE
        ):
            last.details.extend(event.details if last.subject == event.subject else event.joined)
            continue
        merged.append(event)
    return [
        HistoryLine(event.when, event.who, event.what, tuple(event.details), event.game_id)
        for event in reversed(merged)
    ]


def game_history(*, game: Game) -> list[HistoryLine]:
    """Every change of one game, newest first: rounds added, corrected (old → new),
    deleted, renumbered or re-scored; totals entered or cleared; closed, reopened,
    confirmed; seats and places. The score the engine derived joins the change that
    caused it; a koppel's dispute and its decision. Rounds entered, undone and results
    confirmed or disputed at the table (no account) say so instead of a user. Four queries
    whatever the number of changes (game records, round records with their link's koppel,
    dispute records, player names); `game` comes with its koppels (`game_detail`).
    """
    game_records = _history_of(Game, id=game.pk)
    # The koppel that enters with the link a round came through: who added it at the table.
    link_side = GameLink.objects.filter(pk=OuterRef("link_id")).values("entering_side")[:1]
    round_records = _history_of(Round, annotate={"link_side": Subquery(link_side)}, game_id=game.pk)
    seats = ("seat_1_id", "seat_2_id", "seat_3_id", "seat_4_id")
    names = _history_names(
        team_ids=[game.team_a_id, game.team_b_id]
        + [pk for record in game_records for pk in (record.team_a_id, record.team_b_id)],
        player_ids=[record.caller_id for record in round_records]
        + [getattr(record, seat) for record in game_records for seat in seats],
        entry_ids=[],
        known_teams=(game.team_a, game.team_b),
    )
    koppels = (names.team(game.team_a_id), names.team(game.team_b_id))
    events = _round_events(round_records, names, koppels)
    events += _dispute_events(_history_of(GameDispute, game_id=game.pk), koppels)
    for record, previous in _with_previous(game_records):
        event = _game_event(record, previous, names)
        if event is not None:
            event.game_id = None  # on the game's own page there is nothing to link to
            events.append(event)
    return _merged(events)


def _match_event(record: Any, previous: Any, names: _Names) -> _Event | None:
    """One match record in words: created, reported totals, forfeit, lineup, table."""
    if record.history_type == "+":
        what = _("Match created: %(home)s – %(away)s") % {
            "home": names.entry(record.home_id),
            "away": names.entry(record.away_id),
        }
        made = [_("table %(table)s") % {"table": record.table}] if record.table else []
        reason = pairing_reason_message(record.pairing_reason)
        if reason:
            made.append(reason)
        return _event(record, what, made)
    if record.history_type == "-":
        return _event(record, _("Match deleted"))
    if previous is None:
        return None
    changed = _changes(record, previous)
    whats: list[str] = []
    details: list[str] = []
    if {"total_home", "total_away"} & changed.keys():
        old = _score(previous.total_home, previous.total_away)
        new = _score(record.total_home, record.total_away)
        if previous.total_home is None:
            whats.append(_("Reported totals entered: %(totals)s") % {"totals": new})
        elif record.total_home is None:
            whats.append(_("Reported totals cleared (were %(totals)s)") % {"totals": old})
        else:
            whats.append(_("Reported totals corrected: %(change)s") % {"change": _arrow(old, new)})
    if {"forfeit", "forfeit_reason"} & changed.keys():
        if not record.forfeit:
            whats.append(_("Forfeit lifted"))
        else:
            whats.append(
                _("Forfeit: %(side)s. Reason: %(reason)s")
                % {"side": Match.Forfeit(record.forfeit).label, "reason": record.forfeit_reason}
            )
    if "lineup" in changed:
        whats.append(_("Lineup set") if not previous.lineup else _("Lineup changed"))
        details.extend(_lineup_words(record.lineup or {}, names))
    if {"home", "away"} & changed.keys():
        whats.append(_("Entries changed"))
        for field_name, label in (("home", _("home")), ("away", _("away"))):
            if field_name in changed:
                old, new = (names.entry(pk) for pk in changed[field_name])
                details.append(
                    _("%(label)s %(change)s") % {"label": label, "change": _arrow(old, new)}
                )
    if "table" in changed:
        whats.append(
            _("Table %(change)s") % {"change": _arrow(*(t or "—" for t in changed["table"]))}
        )
    if "matchday" in changed:
        whats.append(_("Moved to another matchday"))
    if "pairing_reason" in changed:
        reason = pairing_reason_message(record.pairing_reason)
        if reason:
            details.append(reason)
    if not whats and not details:
        return None
    return _event(record, "; ".join(whats) or _("Pairing reason changed"), details)


def _lineup_words(lineup: dict[str, Any], names: _Names) -> list[str]:
    """ "home: K1, K2, —" and "away: …", and who joins late, from `Match.lineup`."""
    words = []
    for side, label in (("home", _("home")), ("away", _("away"))):
        places = lineup.get(side) or []
        words.append(
            _("%(side)s: %(koppels)s")
            % {"side": label, "koppels": ", ".join(names.team(pk) for pk in places) or "—"}
        )
    for team_id, sitting in (lineup.get("late") or {}).items():
        words.append(
            _("%(koppel)s joins at sitting %(sitting)s")
            % {"koppel": names.team(int(team_id)), "sitting": sitting}
        )
    return words


def _deduction_event(record: Any, previous: Any, names: _Names) -> _Event | None:
    about = {"points": record.points, "entry": names.entry(record.entry_id)}
    reason = _("reason: %(reason)s") % {"reason": record.reason}
    if record.history_type == "+":
        return _event(
            record, _("Deduction added: %(points)s points from %(entry)s") % about, [reason]
        )
    if record.history_type == "-":
        return _event(
            record, _("Deduction deleted: %(points)s points from %(entry)s") % about, [reason]
        )
    if previous is None or "voided_at" not in _changes(record, previous):
        return None
    if record.voided_at is None:
        return _event(record, _("Deduction counts again: %(points)s points from %(entry)s") % about)
    why = _("why: %(reason)s") % {"reason": record.void_reason}
    return _event(
        record, _("Deduction voided: %(points)s points from %(entry)s") % about, [reason, why]
    )


def _bye_event(record: Any, previous: Any, names: _Names) -> _Event | None:
    entry = {"entry": names.entry(record.entry_id)}
    if record.history_type == "+":
        return _event(record, _("Bye on this matchday for %(entry)s") % entry)
    if record.history_type == "-":
        return _event(record, _("Bye of %(entry)s removed") % entry)
    if previous is None or previous.entry_id == record.entry_id:
        return None
    change = _arrow(names.entry(previous.entry_id), names.entry(record.entry_id))
    return _event(record, _("Bye moved: %(change)s") % {"change": change})


def match_history(*, match: Match) -> list[HistoryLine]:
    """Every change of one match, newest first: created, reported totals, forfeits,
    lineups, tables; its games created, removed, finished, closed, reopened, confirmed or
    entered as totals (each links to the game's own history for its rounds); deductions
    tied to the match added or voided; byes given, moved or removed on its matchday.

    Seven queries whatever the number of changes: match, game, deduction and bye records,
    then entry, koppel and player names.
    """
    match_records = _history_of(Match, id=match.pk)
    game_records = _history_of(Game, match_id=match.pk)
    deduction_records = _history_of(Deduction, match_id=match.pk)
    bye_records = _history_of(Bye, matchday_id=match.matchday_id)
    seats = ("seat_1_id", "seat_2_id", "seat_3_id", "seat_4_id")
    names = _history_names(
        team_ids=[
            *(pk for record in game_records for pk in (record.team_a_id, record.team_b_id)),
            *(
                pk
                for record in match_records
                for side in ("home", "away")
                for pk in ((record.lineup or {}).get(side) or [])
            ),
        ],
        player_ids=[getattr(record, seat) for record in game_records for seat in seats],
        entry_ids=[
            *(pk for record in match_records for pk in (record.home_id, record.away_id)),
            *(record.entry_id for record in (*deduction_records, *bye_records)),
        ],
    )
    events: list[_Event] = []
    for record, previous in _with_previous(match_records):
        if event := _match_event(record, previous, names):
            events.append(event)
    for record, previous in _with_previous(game_records):
        event = _game_event(record, previous, names)
        if event is None:
            continue
        if event.derived:
            # The score moves with every round (the game's page lists those); here only
            # the moment a game is over, or in play again, is worth a line.
            if previous is None or previous.status == record.status:
                continue
            event.what = (
                _("Game over: %(score)s") % {"score": _score(record.score_a, record.score_b)}
                if record.status != Game.Status.OPEN
                else _("Game in play again")
            )
            event.details = []
            event.derived = False
        if record.history_type == "~":  # "created"/"removed" name the place already
            event.what = _("%(place)s: %(what)s") % {
                "place": _game_place(record).capitalize(),
                "what": event.what,
            }
        events.append(event)
    for record, previous in _with_previous(deduction_records):
        if event := _deduction_event(record, previous, names):
            events.append(event)
    for record, previous in _with_previous(bye_records):
        if event := _bye_event(record, previous, names):
            events.append(event)
    return _merged(events)


# ------------------------------------------------------------------ stored faults (check_results)


@dataclass(frozen=True, slots=True)
class ResultProblem:
    """A stored fault that `manage.py check_results` lists: `place` names where, as the
    importer does (`matchday 3, match a-b, game table 2, round 5`), and `violation` what
    (worded by `scoring.messages.rule_message`)."""

    place: str
    violation: RuleViolation


# Game fields the services derive from the rounds (or the entered totals).
GAME_DERIVED_FIELDS = ("score_a", "score_b", "kaps_a", "kaps_b", "baunies_a", "baunies_b", "status")


def competition_result_problems(*, competition: Competition) -> list[ResultProblem]:
    """Every stored fault in a competition's schedule, results and standings (issue 6).

    The rules are the engine's, checked over what is stored, in a few queries:

    - who plays where, each matchday (`scoring.rules.matchday_places_violations`): an entry
      of another competition, an entry with two places (a bye included), a player in two
      entries of the matchday's matches (both of one match, or two matches);
    - the games (`pairs_match_games_violations`, `sitting_koppels_violations`): a pairs
      match with more than one game, or none while it has no reported totals and no
      forfeit; a game of koppels that are not the pairs match's; a koppel at two tables in
      a sitting of a matchday;
    - a match with reported totals and games with rounds (the rounds don't count);
    - a game whose score, kaps, baunies or status, or a round whose points, differ from a
      replay of its rounds through the engine (from its totals, for a game entered as
      totals), and rounds the engine refuses under the competition's rules;
    - standings rows that differ from a fresh computation (`competition_table`).

    Entries and koppels are named by key; an entry of another competition as
    "key (its competition's slug)". Returns [] for a competition with nothing wrong.
    """
    problems = _places_problems(competition)
    problems += _game_problems(competition)
    problems += _standings_problems(competition)
    return problems


def _matchday_place(number: int) -> str:
    return _("matchday %(number)s") % {"number": number}


def _match_place(match: Match, names: dict[int, str]) -> str:
    slug = f"{names[match.home_id]}-{names[match.away_id]}"
    return ", ".join((_matchday_place(match.matchday.number), _("match %(slug)s") % {"slug": slug}))


def _entry_names(competition: Competition, ids: Iterable[int]) -> dict[int, str]:
    """Entry id -> key; "key (slug)" for an entry of another competition."""
    names: dict[int, str] = {}
    for entry in Entry.objects.filter(pk__in=set(ids)).select_related(
        "team", "club", "competition"
    ):
        names[entry.pk] = (
            entry.key
            if entry.competition_id == competition.pk
            else f"{entry.key} ({entry.competition.slug})"
        )
    return names


def _named(violation: RuleViolation, names: dict[Any, str], keys: Sequence[str]) -> RuleViolation:
    """`violation` with the ids in `keys` of its params (single, or (home, away) places)
    replaced by names."""
    params = dict(violation.params)
    for key in keys:
        value = params.get(key)
        if isinstance(value, tuple):
            params[key] = tuple(names.get(item, item) for item in value)
        elif value is not None:
            params[key] = names.get(value, value)
    return RuleViolation(violation.code, **params)


def koppel_entry_players(ids: Iterable[int]) -> tuple[dict[int, tuple[int, int]], dict[int, str]]:
    """For the koppel entries among `ids`: entry id -> its two player ids, and player id ->
    name (the words of `matchday_places_violations`' `players`)."""
    entries = Entry.objects.filter(pk__in=set(ids), team__isnull=False).select_related(
        "team__player_1", "team__player_2"
    )
    players: dict[int, tuple[int, int]] = {}
    player_names: dict[int, str] = {}
    for entry in entries:
        assert entry.team is not None
        team = entry.team
        players[entry.pk] = (team.player_1_id, team.player_2_id)
        player_names[team.player_1_id] = str(team.player_1)
        player_names[team.player_2_id] = str(team.player_2)
    return players, player_names


def _places_problems(competition: Competition) -> list[ResultProblem]:
    matches = list(
        Match.objects.filter(matchday__competition=competition)
        .select_related("matchday")
        .order_by("matchday__number", "pk")
    )
    byes = list(
        Bye.objects.filter(matchday__competition=competition)
        .select_related("matchday")
        .order_by("matchday__number", "pk")
    )
    ours = set(competition.entries.values_list("pk", flat=True))
    names = _entry_names(
        competition,
        [*(m.home_id for m in matches), *(m.away_id for m in matches), *(b.entry_id for b in byes)],
    )
    players, player_names = koppel_entry_players(
        [i for m in matches for i in (m.home_id, m.away_id)]
    )
    day_matches_of: dict[int, list[Match]] = defaultdict(list)
    day_byes_of: dict[int, list[Bye]] = defaultdict(list)
    for match in matches:
        day_matches_of[match.matchday.number].append(match)
    for bye in byes:
        day_byes_of[bye.matchday.number].append(bye)
    problems: list[ResultProblem] = []
    for number in sorted(day_matches_of.keys() | day_byes_of.keys()):
        day_matches, day_byes = day_matches_of[number], day_byes_of[number]
        for violation in matchday_places_violations(
            [(m.home_id, m.away_id) for m in day_matches],
            [b.entry_id for b in day_byes],
            entries=ours,
            players=players,
        ):
            params = violation.params
            index = params["index"]
            if found_at_bye(violation):
                bye = day_byes[index]
                place = ", ".join(
                    (_matchday_place(number), _("bye %(entry)s") % {"entry": names[bye.entry_id]})
                )
            else:
                place = _match_place(day_matches[index], names)
            named = _named(violation, names, ("entry", "first", "second", "match"))
            named = _named(named, player_names, ("player",))
            problems.append(ResultProblem(place, named))
    return problems


def _problem_game_place(game: Game, match_place: str, sittings: bool) -> str:
    if sittings:
        name = _("game sitting %(sitting)s table %(table)s") % {
            "sitting": game.sitting,
            "table": game.table,
        }
    else:
        name = _("game table %(table)s") % {"table": game.table}
    return f"{match_place}, {name}"


def _game_problems(competition: Competition) -> list[ResultProblem]:
    matches = list(
        Match.objects.filter(matchday__competition=competition)
        .select_related("matchday", "home__team", "away__team")
        .order_by("matchday__number", "table", "pk")
    )
    games = list(
        Game.objects.filter(match__matchday__competition=competition)
        .select_related("team_a", "team_b")
        .prefetch_related(Prefetch("rounds", queryset=Round.objects.order_by("number")))
        .order_by("sitting", "table", "pk")
    )
    by_match: dict[int, list[Game]] = defaultdict(list)
    for game in games:
        by_match[game.match_id].append(game)
    names = _entry_names(competition, [i for m in matches for i in (m.home_id, m.away_id)])
    koppels = {g.team_a_id: g.team_a.key for g in games} | {
        g.team_b_id: g.team_b.key for g in games
    }
    for match in matches:
        for entry in (match.home, match.away):
            if entry.team is not None:
                koppels[entry.team.pk] = entry.team.key
    pairs = competition.kind == Competition.Kind.PAIRS
    rules = competition.rule_set
    problems: list[ResultProblem] = []
    places: dict[int, str] = {}
    by_matchday: dict[int, list[tuple[Game, str]]] = defaultdict(list)
    for match in matches:
        match_place = _match_place(match, names)
        match_games = by_match[match.pk]
        sittings = len({game.sitting for game in match_games}) > 1
        for game in match_games:
            places[game.pk] = _problem_game_place(game, match_place, sittings)
            by_matchday[match.matchday_id].append((game, places[game.pk]))
        if pairs:
            problems += _pairs_match_problems(match, match_games, match_place, places, koppels)
        if match.total_home is not None and any(g.rounds.all() for g in match_games):
            problems.append(ResultProblem(match_place, RuleViolation("match_totals_and_rounds")))
        for game in match_games:
            problems += _game_replay_problems(game, places[game.pk], rules)
    for seated in by_matchday.values():
        for violation in sitting_koppels_violations(
            [(game.sitting, game.team_a_id, game.team_b_id) for game, _place in seated]
        ):
            place = seated[violation.params["index"]][1]
            problems.append(ResultProblem(place, _named(violation, koppels, ("koppel",))))
    return problems


def _pairs_match_problems(
    match: Match,
    games: list[Game],
    match_place: str,
    places: dict[int, str],
    koppels: dict[int, str],
) -> list[ResultProblem]:
    problems: list[ResultProblem] = []
    if match.home.team_id is None or match.away.team_id is None:
        return problems  # a club entry in a pairs competition: nothing to compare with
    needs_game = match.total_home is None and not match.forfeit
    for violation in pairs_match_games_violations(
        match.home.team_id,
        match.away.team_id,
        [(game.team_a_id, game.team_b_id) for game in games],
        complete=needs_game,
    ):
        index = violation.params.get("index")
        place = places[games[index].pk] if index is not None else match_place
        named = _named(violation, koppels, ("koppel", "home", "away"))
        problems.append(ResultProblem(place, named))
    return problems


def _game_replay_problems(game: Game, place: str, rules: RuleSet) -> list[ResultProblem]:
    """A game's derived fields (and its rounds' points) against the engine's replay."""
    rounds = list(game.rounds.all())
    if game.total_a is not None and game.total_b is not None:
        expected: dict[str, Any] = {
            "score_a": game.total_a,
            "score_b": game.total_b,
            "kaps_a": 0,
            "kaps_b": 0,
            "baunies_a": 0,
            "baunies_b": 0,
            "status": Game.Status.FINISHED,
        }
        points: Sequence[Points] = []
    else:
        try:
            game_replay = replay(
                rules, game_round_inputs(game, rounds), first_caller=game.first_caller
            )
        except RuleViolation as exc:
            number = exc.params.get("round")
            where = f"{place}, {_('round %(number)s') % {'number': number}}" if number else place
            params = {key: value for key, value in exc.params.items() if key != "round"}
            return [ResultProblem(where, RuleViolation(exc.code, **params))]
        state = game_replay.state
        if game.status == Game.Status.CLOSED and not state.finished:
            state = state.close()  # the director's close stands (scoring.services._replay)
        status = (
            Game.Status.CLOSED
            if state.closed
            else Game.Status.FINISHED
            if state.finished
            else Game.Status.OPEN
        )
        expected = {
            "score_a": state.score.a,
            "score_b": state.score.b,
            "kaps_a": state.kaps.a,
            "kaps_b": state.kaps.b,
            "baunies_a": state.baunies.a,
            "baunies_b": state.baunies.b,
            "status": status,
        }
        points = game_replay.points
    problems = [
        ResultProblem(
            place,
            RuleViolation(
                "game_score_differs",
                field=getattr(Game._meta.get_field(name), "verbose_name", name),
                stored=getattr(game, name),
                replayed=value,
            ),
        )
        for name, value in expected.items()
        if getattr(game, name) != value
    ]
    for rnd, awarded in zip(rounds, points, strict=False):
        if (rnd.points_a, rnd.points_b) != (awarded.a, awarded.b):
            problems.append(
                ResultProblem(
                    f"{place}, {_('round %(number)s') % {'number': rnd.number}}",
                    RuleViolation(
                        "game_score_differs",
                        field=_("points"),
                        stored=f"{rnd.points_a}–{rnd.points_b}",
                        replayed=f"{awarded.a}–{awarded.b}",
                    ),
                )
            )
    return problems


def _standings_problems(competition: Competition) -> list[ResultProblem]:
    # The rebuild's own list of columns (`STANDING_COLUMNS`): check what it writes, all of it.
    place = _("standings")
    try:
        rows = competition_table(competition=competition)
    except RuleViolation as exc:
        return [ResultProblem(place, exc)]
    stored = {
        standing.entry_id: standing
        for standing in Standing.objects.filter(competition=competition).select_related(
            "entry__team", "entry__club"
        )
    }
    computed_ids = {row.entry for row in rows}
    entries = {entry.pk: entry.key for entry in competition_entries(competition=competition)}
    problems: list[ResultProblem] = []
    for row in rows:
        entry_id = cast(int, row.entry)
        entry = entries.get(entry_id, entry_id)
        standing = stored.get(entry_id)
        if standing is None:
            problems.append(
                ResultProblem(place, RuleViolation("standings_row_missing", entry=entry))
            )
            continue
        for column in STANDING_COLUMNS:
            if getattr(standing, column) != getattr(row, column):
                problems.append(
                    ResultProblem(
                        place,
                        RuleViolation(
                            "standings_row_differs",
                            entry=entry,
                            column=column.replace("_", " "),
                            stored=getattr(standing, column),
                            computed=getattr(row, column),
                        ),
                    )
                )
    for entry_id, standing in stored.items():
        if entry_id not in computed_ids:
            problems.append(
                ResultProblem(place, RuleViolation("standings_row_extra", entry=standing.entry.key))
            )
    return problems


# ================================================================ scoring at the table
#
# The table's own phone page (a game's `GameLink`, no account) and the director's queue of
# disputes and long-unconfirmed results (issue 8), each in a constant number of queries.


def table_link(*, token: str) -> GameLink | None:
    """The active table link with `token`; None for an unknown or revoked one. One query
    (none for a token that can't be one)."""
    if not token or len(token) > cast(int, GameLink._meta.get_field("token").max_length):
        return None
    return GameLink.objects.filter(token=token, revoked_at__isnull=True).first()


def game_entering_koppels(*, game: Game, link: GameLink | None = None) -> frozenset[str]:
    """The koppels ("a"/"b") that entered rounds of `game` at the table: the entering
    koppel of the links its stored rounds came through, and of `link` (the table's own).
    One query.

    They don't confirm or dispute what they entered: the other koppel does. A game entered
    by the director only has none, and either koppel may confirm it.
    """
    sides = set(
        GameLink.objects.filter(rounds__game=game)
        .exclude(entering_side="")
        .values_list("entering_side", flat=True)
        .distinct()
    )
    if link is not None and link.entering_side:
        sides.add(link.entering_side)
    return frozenset(sides)


@dataclass(frozen=True, slots=True)
class TableSheet:
    """What the table's phone shows of its game, besides the game itself.

    `lines` are the score sheet rows, each with its result in words; `seen` the
    `game_token` the page's forms send back; `next_caller` the player whose turn it is to
    call (None when unknown); `dispute` the open dispute; `entering` the koppels ("a"/"b")
    that entered rounds at the table (`game_entering_koppels`: they don't confirm).
    """

    lines: list[tuple[SheetRow, str]]
    seen: str
    next_caller: int | None
    dispute: GameDispute | None
    entering: frozenset[str]

    @property
    def last_round(self) -> Round | None:
        return self.lines[-1][0].round if self.lines else None


def game_table_sheet(*, game: Game, link: GameLink) -> TableSheet:
    """The table page's view of `game` (as `game_detail` reads it) through its `link`:
    three queries (the rounds, the open dispute, the koppels that entered rounds)."""
    from scoring.tokens import game_token  # tokens imports the models, as this module does

    rows = game_sheet(game=game)
    rounds = [row.round for row in rows]
    return TableSheet(
        lines=[(row, str(RESULT_LABELS.get(row.round.result, row.round.result))) for row in rows],
        seen=game_token(game, rounds),
        next_caller=game_next_caller(game=game, rounds=rounds),
        dispute=game.disputes.filter(resolved_at__isnull=True).first(),
        entering=game_entering_koppels(game=game, link=link),
    )


# What the director's queue shows of each game: its place and koppels' names.
QUEUE_GAME_JOINS = (
    "match__matchday",
    *(f"team_{side}__{join}" for side in "ab" for join in TEAM_JOINS),
)


@dataclass(frozen=True, slots=True)
class QueueGame:
    """A game in the director's queue: disputed at the table, or over and unconfirmed for
    too long. `changed_at` is when its result last changed (its newest history record;
    None without history); `seen` its `game_token` for the queue's buttons."""

    game: Game
    dispute: GameDispute | None
    changed_at: datetime | None
    seen: str

    @property
    def corrected(self) -> bool:
        """The result changed after the dispute was raised: the director corrected it."""
        return (
            self.dispute is not None
            and self.changed_at is not None
            and self.changed_at > self.dispute.raised_at
        )

    @property
    def table(self) -> int:
        """The table the players know: a pairs match's own table, else the game's."""
        return self.game.match.table or self.game.table


@dataclass(frozen=True, slots=True)
class DirectorQueue:
    """The director's queue of a competition: open disputes (oldest first) and results
    over but unconfirmed for longer than the wait (the longest waiting first; only when
    the competition asks for confirmation)."""

    disputes: list[QueueGame]
    waiting: list[QueueGame]


def _game_changed_at(game: str = "pk") -> Subquery:
    """When the outer query's game (its field `game`) last changed: the game's newest
    history record (every write on a game saves it, a round too)."""
    newest = Game.history.filter(id=OuterRef(game)).order_by("-history_date")
    return Subquery(newest.values("history_date")[:1])


def director_queue(
    *, competition: Competition, wait: timedelta, now: datetime | None = None
) -> DirectorQueue:
    """The disputes and long-unconfirmed results of `competition` for its director.

    A result is waiting when it is over, not confirmed, not disputed, the competition asks
    for confirmation, and it has not changed for `wait` (the koppels had time to confirm
    it at the table). Three queries whatever the competition's size: the open disputes
    with their games, the waiting games, and their rounds (for the `seen` tokens).
    """
    from scoring.tokens import game_token  # tokens imports the models, as this module does

    cutoff = (now or timezone.now()) - wait
    in_competition = Game.objects.filter(match__matchday__competition=competition)
    disputes = list(
        GameDispute.objects.filter(
            resolved_at__isnull=True, game__match__matchday__competition=competition
        )
        .select_related(*(f"game__{join}" for join in QUEUE_GAME_JOINS))
        .annotate(changed_at=_game_changed_at("game_id"))
        .order_by("raised_at", "pk")
    )
    waiting_games: list[Game] = []
    if competition.confirmation_required:
        open_dispute = GameDispute.objects.filter(game=OuterRef("pk"), resolved_at__isnull=True)
        waiting_games = list(
            in_competition.filter(
                status__in=[Game.Status.FINISHED, Game.Status.CLOSED], confirmed_at__isnull=True
            )
            .exclude(Exists(open_dispute))
            .select_related(*QUEUE_GAME_JOINS)
            .annotate(changed_at=_game_changed_at())
            .filter(Q(changed_at__lte=cutoff) | Q(changed_at__isnull=True))
            .order_by(F("changed_at").asc(nulls_first=True), "pk")
        )
    rounds: dict[int, list[Round]] = defaultdict(list)
    ids = [dispute.game_id for dispute in disputes] + [game.pk for game in waiting_games]
    if ids:
        for rnd in Round.objects.filter(game_id__in=ids):
            rounds[rnd.game_id].append(rnd)

    def item(game: Game, dispute: GameDispute | None, changed_at: datetime | None) -> QueueGame:
        return QueueGame(game, dispute, changed_at, game_token(game, rounds[game.pk]))

    return DirectorQueue(
        disputes=[item(d.game, d, getattr(d, "changed_at", None)) for d in disputes],
        waiting=[item(game, None, getattr(game, "changed_at", None)) for game in waiting_games],
    )


# ---------------------------------------------------------------- the director's evening


@dataclass(frozen=True, slots=True)
class SheetStop:
    """One game of a matchday as the score sheet's table switch shows it.

    `started`: rounds or totals entered (a game of redeals only has started too).
    """

    game_id: int
    table: int
    sitting: int
    status: str
    started: bool


# The order a director walks a matchday's tables: a pairs match sits at one table (its
# game's), a club match's games by sitting and table.
SHEET_ORDER = (F("match__table").asc(nulls_last=True), "match_id", "sitting", "table", "pk")


def matchday_sheet_stops(*, matchday_id: int) -> list[SheetStop]:
    """Every game of a matchday in table order (`SHEET_ORDER`), in one query of a few
    columns: the score sheet's previous/next table and its table switch."""
    rows = (
        Game.objects.filter(match__matchday_id=matchday_id)
        .annotate(has_rounds=Exists(Round.objects.filter(game=OuterRef("pk"))))
        .order_by(*SHEET_ORDER)
        .values_list("pk", "table", "sitting", "status", "total_a", "has_rounds")
    )
    return [
        SheetStop(pk, table, sitting, status, total_a is not None or has_rounds)
        for pk, table, sitting, status, total_a, has_rounds in rows
    ]


@dataclass(frozen=True, slots=True)
class EveningMatchday:
    """The matchday a director is most likely running now, with its games counted.

    `tonight`: its date is today (else it is the first matchday with games still open).
    `not_started`: open at 0–0 (no points yet); `playing`: open with points;
    `over`: finished or closed; `awaiting`: over and not confirmed (counts only where the
    competition asks for confirmation). `first_sheet`: the game whose score sheet to open
    first: the first open one by table, else the first.
    """

    matchday: Matchday
    tonight: bool
    tables: int
    not_started: int
    playing: int
    over: int
    awaiting: int
    first_sheet: int | None


@dataclass(frozen=True, slots=True)
class DirectedCompetition:
    """A competition the user directs, and its matchdays for tonight: every one dated today
    (a club may play two speelrondes in one evening), else the first with open games;
    empty: nothing to play."""

    competition: Competition
    evenings: tuple[EveningMatchday, ...]

    @property
    def evening(self) -> EveningMatchday | None:
        """The first of `evenings`, None when there is nothing to play."""
        return self.evenings[0] if self.evenings else None


def directed_competitions(*, user: Any) -> list[DirectedCompetition]:
    """The competitions `user` directs (`Competition.is_directed_by`: their own, or every
    one for staff allowed to direct them all), newest season first, each with tonight's
    matchdays: every one dated today, else the first with open games.

    Two queries (and the user's permissions), whatever the number of competitions, matchdays
    or games. An anonymous user directs nothing.
    """
    if not user.is_authenticated:
        return []
    competitions: QuerySet[Competition] = Competition.objects.order_by("-season", "name")
    if not user.has_perm("tournaments.direct_every_competition"):
        competitions = competitions.filter(directors=user)
    found = list(competitions)
    if not found:
        return []
    today = timezone.localdate()
    open_games = Game.objects.filter(status=Game.Status.OPEN, total_a__isnull=True)
    first_open = (
        open_games.filter(match__matchday__competition=OuterRef("competition"))
        .order_by("match__matchday__number")
        .values("match__matchday__number")[:1]
    )
    first_sheet = (
        Game.objects.filter(match__matchday=OuterRef("pk"))
        .order_by(Case(When(status=Game.Status.OPEN, then=0), default=1), *SHEET_ORDER)
        .values("pk")[:1]
    )
    games = "matches__games"
    is_open = Q(matches__games__status=Game.Status.OPEN)
    no_points = Q(matches__games__score_a=0, matches__games__score_b=0)
    candidates = (
        Matchday.objects.filter(competition__in=found)
        .filter(Q(date=today) | Q(number=Subquery(first_open)))
        .annotate(
            tables=Count(games),
            not_started=Count(games, filter=is_open & no_points),
            playing=Count(games, filter=is_open & ~no_points),
            over=Count(games, filter=~is_open),
            awaiting=Count(games, filter=~is_open & Q(matches__games__confirmed_at__isnull=True)),
            first_sheet=Subquery(first_sheet),
        )
        .order_by("competition_id", "number")
    )
    by_id = {competition.pk: competition for competition in found}
    chosen: dict[int, list[EveningMatchday]] = {}
    for matchday in candidates:
        matchday.competition = by_id[matchday.competition_id]  # for its links, no query
        tonight = matchday.date == today
        held = chosen.setdefault(matchday.competition_id, [])
        if held and not held[0].tonight and tonight:
            held.clear()  # a matchday dated today replaces the first open one
        elif held and not (held[0].tonight and tonight):
            continue  # every one dated today, else the first open one (they come by number)
        held.append(
            EveningMatchday(
                matchday=matchday,
                tonight=tonight,
                tables=matchday.tables,
                not_started=matchday.not_started,
                playing=matchday.playing,
                over=matchday.over,
                awaiting=matchday.awaiting,
                first_sheet=matchday.first_sheet,
            )
        )
    return [DirectedCompetition(c, tuple(chosen.get(c.pk, ()))) for c in found]
