"""Plausibility of results known only as totals (DESIGN.md "How the real game is organised")."""

from __future__ import annotations

from functools import cache

from scoring.rules.award import round_amounts
from scoring.rules.errors import RuleViolation
from scoring.rules.types import RuleSet


@cache
def _reachable(total: int, amounts: frozenset[int]) -> bool:
    """Whether `total` is a sum of round amounts (coin problem; 1 and 3 never are with 2/5/15)."""
    reachable = [True] + [False] * total
    for value in range(1, total + 1):
        reachable[value] = any(a <= value and reachable[value - a] for a in amounts)
    return reachable[total]


def check_total(total: int, rules: RuleSet, *, team: str) -> None:
    """Refuse a team total that no sequence of rounds can give.

    `team` names the team in the error (`"a"`, `"b"`, `"home"`, `"away"`).
    Raises RuleViolation: `total_negative`, `total_impossible` (params team, total).
    """
    if total < 0:
        raise RuleViolation("total_negative", team=team, total=total)
    if not _reachable(total, round_amounts(rules)):
        raise RuleViolation("total_impossible", team=team, total=total)


def check_game_totals(total_a: int, total_b: int, rules: RuleSet) -> None:
    """Refuse the final totals of one game when they can't have happened under `rules`.

    Each total must be a sum of round amounts; only one team can reach the target (one
    team scores per round and the game stops there); the winner can't overshoot the target
    by more than the last round's points (the score before it was below the target and
    itself reachable); and with only a target to end the game (no fixed
    rounds, no closing by the director) somebody must have reached it.

    Raises RuleViolation: `total_negative`, `total_impossible`, `totals_both_reached_target`,
    `total_overshoots_target`, `totals_below_target`.
    """
    check_total(total_a, rules, team="a")
    check_total(total_b, rules, team="b")
    target = rules.target_score
    if target is None:
        return
    if total_a >= target and total_b >= target:
        raise RuleViolation("totals_both_reached_target", target=target)
    amounts = round_amounts(rules)
    for team, total in (("a", total_a), ("b", total_b)):
        # The game stops the moment a team reaches the target, so the winner's last round
        # started from a reachable score still below it.
        if total >= target and not any(
            0 <= total - amount < target and _reachable(total - amount, amounts)
            for amount in amounts
        ):
            raise RuleViolation("total_overshoots_target", team=team, total=total, target=target)
    ends_otherwise = rules.fixed_rounds is not None or rules.close_by_director_allowed
    if not ends_otherwise and max(total_a, total_b) < target:
        raise RuleViolation("totals_below_target", target=target)


def check_match_totals(total_home: int, total_away: int, rules: RuleSet) -> None:
    """Refuse a match result known only as totals (the sum over its koppels' games).

    Raises RuleViolation: `total_negative`, `total_impossible` (team `home` or `away`).
    """
    check_total(total_home, rules, team="home")
    check_total(total_away, rules, team="away")
