"""Reads of the play-offs: a competition's final order for seeding (the standings'
own ranks, `competition_table`, never a sort of our own: sendou.ink #2645) and a stage's
bracket with its ties' aggregate scores.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from scoring.rules import RuleViolation
from scoring.rules.standings import TIEBREAK_ATTRIBUTES, StandingRow
from scoring.selectors.results import competition_match_scores
from scoring.selectors.standings import competition_table
from tournaments.models import Competition, Entry, Playoff, PlayoffTie

# What put an entry above the next when no tie-break key did: the result of a deciding
# match between the two, or the director's drawing of lots (its reason kept on the stage).
DECIDED_BY_DECIDING_MATCH = "deciding_match"
DECIDED_BY_LOT = "lot"


@dataclass(frozen=True, slots=True)
class FinalPlace:
    """One entry in a competition's final order: its rank in the standings (shared by
    entries tied on every key) and what put it above the next entry (`decided_by`: a
    tie-break key, `deciding_match`, `lot`; "" for the last)."""

    entry_id: int
    rank: int
    decided_by: str


@dataclass(frozen=True, slots=True)
class FinalOrder:
    """`places` best first; `unresolved`: groups of entry ids sharing a rank that no
    deciding match or lot has ordered yet (their places keep the standings' order)."""

    places: list[FinalPlace]
    unresolved: list[tuple[int, ...]] = field(default_factory=list)

    def unresolved_within(self, count: int) -> list[tuple[int, ...]]:
        """The unresolved groups with an entry among the first `count` places."""
        top = {place.entry_id for place in self.places[:count]}
        return [group for group in self.unresolved if top.intersection(group)]


def _separating_key(upper: StandingRow, lower: StandingRow, keys: Sequence[str]) -> str:
    """The first of the competition's keys (points first, as `compute_standings`) on which
    `upper` is ahead of `lower`; head-to-head when no column separates them."""
    for key in keys:
        if key == "head_to_head":
            if upper.head_to_head is not None and upper.head_to_head != lower.head_to_head:
                return key
            continue
        attribute = TIEBREAK_ATTRIBUTES[key]
        if getattr(upper, attribute) != getattr(lower, attribute):
            return key
    return "head_to_head"


def deciding_match_winners(competition: Competition) -> dict[frozenset[int], int]:
    """The decided deciding matches of `competition`: the two source entry ids -> the
    source entry id of the winner (three queries, however many there are)."""
    winners: dict[frozenset[int], int] = {}
    stages = Playoff.objects.filter(source=competition, kind=Playoff.Kind.DECIDING)
    for playoff in stages.prefetch_related("seeds", "ties"):
        seeds = {seed.entry_id: seed.source_entry_id for seed in playoff.seeds.all()}
        for tie in playoff.ties.all():
            if tie.winner_id is not None and len(seeds) == 2:
                winners[frozenset(seeds.values())] = seeds[tie.winner_id]
    return winners


def competition_final_order(
    *, competition: Competition, lots: Sequence[Sequence[int]] = ()
) -> FinalOrder:
    """The competition's final order: the standings' ranks (`competition_table`, the
    competition's own tie-breaks), each group sharing a rank ordered by a decided deciding
    match (two entries) or else by `lots` (a group's entry ids in the order the director's
    drawing of lots gave). A group neither orders stays in the standings' order and is
    listed in `unresolved`.

    Raises RuleViolation `playoff_lot_not_a_tie` (a lot naming entries that don't share a
    rank, or not all of them).
    """
    rows = competition_table(competition=competition)
    keys = list(competition.tiebreaks)
    if "points" not in keys:
        keys.insert(0, "points")
    groups: list[list[StandingRow]] = []
    for row in rows:
        if groups and groups[-1][0].rank == row.rank:
            groups[-1].append(row)
        else:
            groups.append([row])
    by_set = {frozenset(map(int, lot)): [int(entry) for entry in lot] for lot in lots}
    group_sets = {frozenset(int(row.entry) for row in group) for group in groups}  # type: ignore[call-overload]
    for lot in by_set:
        if lot not in group_sets or len(lot) < 2:
            raise RuleViolation("playoff_lot_not_a_tie")
    places: list[FinalPlace] = []
    unresolved: list[tuple[int, ...]] = []
    decided = deciding_match_winners(competition)
    for index, group in enumerate(groups):
        ids = [int(row.entry) for row in group]  # type: ignore[call-overload]
        following = groups[index + 1][0] if index + 1 < len(groups) else None
        last_key = _separating_key(group[-1], following, keys) if following else ""
        if len(ids) == 1:
            places.append(FinalPlace(ids[0], group[0].rank, last_key))
            continue
        how = ""
        winner = decided.get(frozenset(ids)) if len(ids) == 2 else None
        if winner is not None:
            ids = [winner, *(entry for entry in ids if entry != winner)]
            how = DECIDED_BY_DECIDING_MATCH
        elif frozenset(ids) in by_set:
            ids = by_set[frozenset(ids)]
            how = DECIDED_BY_LOT
        else:
            unresolved.append(tuple(ids))
        for position, entry in enumerate(ids):
            is_last = position == len(ids) - 1
            places.append(FinalPlace(entry, group[0].rank, last_key if is_last else how))
    return FinalOrder(places, unresolved)


@dataclass(frozen=True, slots=True)
class TieScore:
    """A tie's game points over its legs that count, from the tie's home entry's side
    (the better seed), whether every leg counts, who forfeited a leg, and the deciding
    match's score once it counts (home entry first)."""

    home: int
    away: int
    complete: bool
    forfeited_by: int | None  # the entry id that forfeited a leg: it goes out
    decider: tuple[int, int] | None = None
    played: int = 0  # legs that count so far: none, and 0–0 is no score to show


def playoff_tie_scores(*, playoff: Playoff) -> dict[int, TieScore]:
    """The aggregate score of each tie of `playoff` that has its legs made, by tie id,
    from the matches' scores as the standings count them (`competition_match_scores`: a
    leg counts once its games are over, confirmed where the competition asks, or it is
    forfeited or reported). Three queries."""
    ties = list(playoff.ties.filter(leg_1__isnull=False))
    ids = [m for tie in ties for m in (tie.leg_1_id, tie.leg_2_id, tie.decider_id) if m]
    matches = competition_match_scores(competition=playoff.competition, match_ids=ids)
    scores: dict[int, TieScore] = {}
    for tie in ties:
        legs = [matches.get(m) for m in (tie.leg_1_id, tie.leg_2_id) if m]
        home = away = 0
        complete = len(legs) == playoff.legs
        forfeited_by = None
        played = 0
        for leg in legs:
            if leg is None or not leg.finished:
                complete = False
                continue
            played += 1
            if leg.forfeit in ("home", "away"):
                forfeited_by = leg.home_id if leg.forfeit == "home" else leg.away_id
            if leg.home_id == tie.home_id:
                home, away = home + leg.home, away + leg.away
            else:
                home, away = home + leg.away, away + leg.home
        decider = matches.get(tie.decider_id) if tie.decider_id else None
        decided = None
        if decider is not None and decider.finished:
            decided = (decider.home, decider.away)
            if decider.forfeit in ("home", "away"):
                decided = (0, 1) if decider.forfeit == "home" else (1, 0)
        scores[tie.pk] = TieScore(home, away, complete, forfeited_by, decided, played)
    return scores


def tie_level(score: TieScore) -> bool:
    """Whether all legs count and left the tie level (nobody forfeited)."""
    return score.complete and score.forfeited_by is None and score.home == score.away


def tie_winner(playoff: Playoff, tie: PlayoffTie, score: TieScore) -> int | None:
    """The entry id that goes through `tie` on `score`, or None while a leg (or the
    deciding match) is to come.

    A forfeit puts the forfeiting side out; more game points over the legs go through; a
    level tie goes to the home entry (the better seed) under `higher_seed`, and to the
    winner of the deciding match under `deciding_game` (still level: None, the director
    decides with the deciding match's games).
    """
    if not score.complete or tie.home_id is None or tie.away_id is None:
        return None
    if score.forfeited_by is not None:
        return tie.away_id if score.forfeited_by == tie.home_id else tie.home_id
    if score.home != score.away:
        return tie.home_id if score.home > score.away else tie.away_id
    if playoff.level_rule == Playoff.LevelRule.HIGHER_SEED:
        return tie.home_id
    if score.decider is not None and score.decider[0] != score.decider[1]:
        return tie.home_id if score.decider[0] > score.decider[1] else tie.away_id
    return None


@dataclass(frozen=True, slots=True)
class BracketTie:
    """A tie as the bracket shows it."""

    tie: PlayoffTie
    home: Entry | None
    away: Entry | None
    score: TieScore | None
    home_seed: int | None
    away_seed: int | None


def playoff_bracket(*, playoff: Playoff) -> list[list[BracketTie]]:
    """The bracket: the rounds, first round first, each its ties top to bottom."""
    seeds = {seed.entry_id: seed.seed for seed in playoff.seeds.all()}
    scores = playoff_tie_scores(playoff=playoff)
    ties = playoff.ties.select_related(
        "home__team__player_1",
        "home__team__player_2",
        "home__club",
        "away__team__player_1",
        "away__team__player_2",
        "away__club",
        "winner",
    )
    rounds: list[list[BracketTie]] = [[] for _ in range(playoff.rounds)]
    for tie in ties:
        rounds[tie.round - 1].append(
            BracketTie(
                tie,
                tie.home,
                tie.away,
                scores.get(tie.pk),
                seeds.get(tie.home_id) if tie.home_id else None,
                seeds.get(tie.away_id) if tie.away_id else None,
            )
        )
    return rounds
