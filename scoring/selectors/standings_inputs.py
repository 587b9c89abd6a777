"""What the standings are computed from: finished matches, counted byes, deductions, and the
adjustments shown under the table (forfeits, ineligible players, deductions).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, cast

from django.db import connections
from django.utils.translation import gettext as _

from scoring.models import Game, game_counts_q
from scoring.rules import ByeOutcome, Forfeit, MatchOutcome, MatchResult
from scoring.rules.eligibility import (
    FieldedKoppel,
    IneligiblePenalty,
    eligibility_applies,
    ineligible_forfeit,
    ineligible_penalties,
    ineligible_players,
)
from scoring.selectors.results import (
    MatchScore,
    competition_match_scores,
    competition_match_sums,
    forfeit_score,
)
from tournaments.models import Bye, Competition, Deduction, Entry, Match, Matchday, SquadMember


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
    # A voided game (or one of a voided match) fielded nobody that counts (issue 22).
    games = Game.objects.filter(
        game_counts_q(), match__matchday__competition=competition
    ).values_list(
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
    byes = played_byes(competition)
    _add_deductions(competition, deductions, adjustments)
    return StandingsInputs(
        outcomes,
        byes,
        dict(deductions),
        adjustments,
        open_games=sum(score.open_games for score in scores.values()),
        awaiting=sum(score.awaiting for score in scores.values()),
    )


def played_byes(competition: Competition) -> list[ByeOutcome]:
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
        Match.objects.counting()
        .filter(matchday__competition=competition)
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
