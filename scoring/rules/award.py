"""Points of one round and the trick counts that fit it (RULES.md "Round results")."""

from __future__ import annotations

from scoring.rules.errors import RuleViolation
from scoring.rules.types import KAP_RESULTS, Points, Result, RuleSet, Side

# Base points, and whether they go to `side` (True) or to the other team (False).
# RULES.md "Round results"; kap_te_vroeg's amount is the rule set's early_kap_penalty.
_BASE: dict[Result, tuple[int, bool]] = {
    Result.GEWONE_WINST: (2, True),
    Result.KAP: (5, True),
    Result.KAP_PARTNER: (2, True),
    Result.BAUNIE: (15, True),
    Result.BAUNIE_MISLUKT: (2, False),
    Result.REDEAL: (0, True),
}

# Trick counts (side's tricks, other team's tricks) each result allows: inclusive ranges.
# RULES.md "Consequences the engine must enforce".
_TRICKS: dict[Result, tuple[range, range]] = {
    Result.GEWONE_WINST: (range(7, 8), range(1, 7)),
    Result.KAP: (range(7, 8), range(0, 1)),
    Result.KAP_PARTNER: (range(7, 8), range(0, 1)),
    Result.BAUNIE: (range(13, 14), range(0, 1)),
    Result.BAUNIE_MISLUKT: (range(7, 13), range(1, 2)),
    Result.KAP_TE_VROEG: (range(0, 7), range(0, 1)),
}


def award(result: Result, side: Side, rules: RuleSet, *, caller_side: Side | None) -> Points:
    """Points of one round: (team a, team b), at most one of them above 0.

    `side` is the team the result is about, `caller_side` the caller's team or None when
    unknown. Sources: RULES.md "Round results" (2/5/2/15, 2 to the opponents for a failed
    baunie, early_kap_penalty to the opponents for a kap_te_vroeg, 0 for a redeal) and
    "Rule-set options" (kap by partner, stinkende bonus, redeal allowed).

    Raises RuleViolation: `kap_partner_not_allowed`, `redeal_not_allowed`,
    `caller_required_for_bonus` (the stinkende bonus is on and the caller is unknown).
    """
    if result is Result.KAP_PARTNER and not rules.kap_partner_allowed:
        raise RuleViolation("kap_partner_not_allowed")
    if result is Result.REDEAL and not rules.redeal_allowed:
        raise RuleViolation("redeal_not_allowed")
    if rules.stinkende_bonus_on and caller_side is None:
        raise RuleViolation("caller_required_for_bonus")

    if result is Result.KAP_TE_VROEG:
        return Points.to(side.other, rules.early_kap_penalty)
    amount, to_side = _BASE[result]
    if to_side and caller_side is not None and caller_side is not side:
        # A stinkende kap/baunie: made by the team that did not call (000 "Bijzondere regels").
        if result in KAP_RESULTS:
            amount += rules.stinkende_kap_bonus
        elif result is Result.BAUNIE:
            amount += rules.stinkende_baunie_bonus
    return Points.to(side if to_side else side.other, amount)


def check_tricks(result: Result, side: Side, tricks: tuple[int, int]) -> None:
    """Refuse trick counts that don't fit the result; `tricks` is (team a, team b).

    RULES.md "Consequences": gewone_winst 7 vs 1–6; kap/kap_partner exactly 7 vs 0 (kap
    only at 7–0, never after the 8th trick); baunie 13 vs 0; baunie_mislukt 7–12 vs 1;
    kap_te_vroeg at most 6 vs 0; redeal no tricks at all.

    Raises RuleViolation: `tricks_invalid` (negative, or more than 13 in all),
    `tricks_with_redeal`, `kap_only_at_seven_nil`, `tricks_do_not_fit`.
    """
    tricks_a, tricks_b = tricks
    if tricks_a < 0 or tricks_b < 0 or tricks_a + tricks_b > 13:
        raise RuleViolation("tricks_invalid", tricks_a=tricks_a, tricks_b=tricks_b)
    if result is Result.REDEAL:
        raise RuleViolation("tricks_with_redeal")
    own, other = (tricks_a, tricks_b) if side is Side.A else (tricks_b, tricks_a)
    own_range, other_range = _TRICKS[result]
    if own in own_range and other in other_range:
        return
    if result in KAP_RESULTS:
        raise RuleViolation("kap_only_at_seven_nil", side_tricks=own, other_tricks=other)
    raise RuleViolation(
        "tricks_do_not_fit", result=result.value, side_tricks=own, other_tricks=other
    )


def round_amounts(rules: RuleSet) -> frozenset[int]:
    """Every positive number of points a single round can give a team under `rules`."""
    amounts = {2, 5, 15, rules.early_kap_penalty}
    if rules.stinkende_bonus_on:
        amounts |= {5 + rules.stinkende_kap_bonus, 15 + rules.stinkende_baunie_bonus}
        if rules.kap_partner_allowed:
            amounts.add(2 + rules.stinkende_kap_bonus)
    return frozenset(amounts)
