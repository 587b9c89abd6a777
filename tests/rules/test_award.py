"""Points of one round: RULES.md "Round results" and "Rule-set options"."""

from __future__ import annotations

import itertools

import pytest

from scoring.rules import Points, Result, RuleSet, RuleViolation, Side, award

STANDARD = RuleSet()
BONUS = RuleSet(stinkende_kap_bonus=3, stinkende_baunie_bonus=10)

# (result, points to `side`, points to the other team). RULES.md "Round results".
ROUND_RESULTS = [
    # 000 "Puntentelling", 001 §6
    pytest.param(Result.GEWONE_WINST, 2, 0, id="gewone_winst-2-to-side-000-Puntentelling"),
    # 000 "Puntentelling", 001 §5–6
    pytest.param(Result.KAP, 5, 0, id="kap-5-to-side-000-001s5"),
    # 000 "Puntentelling" (standard rule); 001 §7–8, 004 call it a variant
    pytest.param(Result.KAP_PARTNER, 2, 0, id="kap_partner-2-to-side-000"),
    # 000 "Puntentelling", 001 §6
    pytest.param(Result.BAUNIE, 15, 0, id="baunie-15-to-side-000-001s6"),
    # 000 "Kap en baunie", 001 §6: the other team gets 2, side nothing (not even kap points)
    pytest.param(Result.BAUNIE_MISLUKT, 0, 2, id="baunie_mislukt-2-to-other-000-Kap-en-baunie"),
    # 000 "Kap en baunie" (only source): early tap gives the opponents 2
    pytest.param(Result.KAP_TE_VROEG, 0, 2, id="kap_te_vroeg-2-to-other-000-Kap-en-baunie"),
    # 000 variants, 001 §7, 003 "The redeal"
    pytest.param(Result.REDEAL, 0, 0, id="redeal-0-000-001s7-003"),
]


@pytest.mark.parametrize("side", [Side.A, Side.B], ids=["side-a", "side-b"])
@pytest.mark.parametrize(("result", "to_side", "to_other"), ROUND_RESULTS)
@pytest.mark.parametrize(
    "caller_side", [None, Side.A, Side.B], ids=["no-caller", "caller-a", "caller-b"]
)
def test_round_result_gives_its_points(
    result: Result, to_side: int, to_other: int, side: Side, caller_side: Side | None
) -> None:
    # RULES.md "Round results": the points column, for both sides; without the stinkende
    # bonus the caller changes nothing.
    points = award(result, side, STANDARD, caller_side=caller_side)
    assert points.of(side) == to_side
    assert points.of(side.other) == to_other


def test_points_are_team_a_then_team_b() -> None:
    # RULES.md "Terms": seats 1+3 are team a; Points is (a, b).
    assert award(Result.KAP, Side.A, STANDARD, caller_side=None) == Points(5, 0)
    assert award(Result.KAP, Side.B, STANDARD, caller_side=None) == Points(0, 5)
    assert award(Result.BAUNIE_MISLUKT, Side.A, STANDARD, caller_side=None) == Points(0, 2)


@pytest.mark.parametrize("side", [Side.A, Side.B], ids=["side-a", "side-b"])
def test_kap_partner_is_refused_when_not_allowed(side: Side) -> None:
    # RULES.md "Rule-set options": kap by partner "no (result rejected)"; 001 §8 / 004 §8
    rules = RuleSet(kap_partner_allowed=False)
    with pytest.raises(RuleViolation) as caught:
        award(Result.KAP_PARTNER, side, rules, caller_side=None)
    assert caught.value.code == "kap_partner_not_allowed"


@pytest.mark.parametrize("side", [Side.A, Side.B], ids=["side-a", "side-b"])
def test_kap_by_winner_is_still_allowed_when_kap_partner_is_not(side: Side) -> None:
    # RULES.md "Rule-set options": only the partner's kap is the variant (001 §8)
    rules = RuleSet(kap_partner_allowed=False)
    assert award(Result.KAP, side, rules, caller_side=None).of(side) == 5


@pytest.mark.parametrize("side", [Side.A, Side.B], ids=["side-a", "side-b"])
def test_redeal_is_refused_when_not_allowed(side: Side) -> None:
    # RULES.md "Rule-set options": no-picture redeal "not allowed"; 000, 001 §7
    rules = RuleSet(redeal_allowed=False)
    with pytest.raises(RuleViolation) as caught:
        award(Result.REDEAL, side, rules, caller_side=None)
    assert caught.value.code == "redeal_not_allowed"


@pytest.mark.parametrize("penalty", [1, 2, 3, 7])
def test_early_kap_gives_the_rule_sets_penalty_to_the_opponents(penalty: int) -> None:
    # RULES.md "Rule-set options": early-kap penalty (2 by default), 000 "Kap en baunie"
    rules = RuleSet(early_kap_penalty=penalty)
    assert award(Result.KAP_TE_VROEG, Side.A, rules, caller_side=Side.A) == Points(0, penalty)
    assert award(Result.KAP_TE_VROEG, Side.B, rules, caller_side=Side.B) == Points(penalty, 0)


# ---------------------------------------------------------------- stinkende bonus
# RULES.md "Rule-set options", 000 "Bijzondere regels": extra points when the team that did
# NOT call makes a kap (kap or kap_partner) or a baunie. BONUS: kap +3, baunie +10.


@pytest.mark.parametrize("side", [Side.A, Side.B], ids=["side-a", "side-b"])
@pytest.mark.parametrize(
    ("result", "expected"),
    [
        pytest.param(Result.KAP, 5 + 3, id="stinkende-kap-000-Bijzondere-regels"),
        pytest.param(Result.KAP_PARTNER, 2 + 3, id="stinkende-kap_partner-000-Bijzondere-regels"),
        pytest.param(Result.BAUNIE, 15 + 10, id="stinkende-baunie-000-Bijzondere-regels"),
    ],
)
def test_stinkende_bonus_is_added_when_the_non_calling_team_makes_it(
    result: Result, expected: int, side: Side
) -> None:
    points = award(result, side, BONUS, caller_side=side.other)
    assert points == Points.to(side, expected)


@pytest.mark.parametrize("side", [Side.A, Side.B], ids=["side-a", "side-b"])
@pytest.mark.parametrize(
    ("result", "expected"),
    [
        pytest.param(Result.KAP, 5, id="own-kap-no-bonus-000"),
        pytest.param(Result.KAP_PARTNER, 2, id="own-kap_partner-no-bonus-000"),
        pytest.param(Result.BAUNIE, 15, id="own-baunie-no-bonus-000"),
    ],
)
def test_stinkende_bonus_is_not_added_when_the_callers_team_makes_it(
    result: Result, expected: int, side: Side
) -> None:
    assert award(result, side, BONUS, caller_side=side) == Points.to(side, expected)


@pytest.mark.parametrize("side", [Side.A, Side.B], ids=["side-a", "side-b"])
@pytest.mark.parametrize("caller_side", [Side.A, Side.B], ids=["caller-a", "caller-b"])
@pytest.mark.parametrize(
    ("result", "to_side", "to_other"),
    [
        pytest.param(Result.GEWONE_WINST, 2, 0, id="gewone_winst-no-bonus-000"),
        pytest.param(Result.BAUNIE_MISLUKT, 0, 2, id="baunie_mislukt-no-bonus-000"),
        pytest.param(Result.KAP_TE_VROEG, 0, 2, id="kap_te_vroeg-no-bonus-000"),
        pytest.param(Result.REDEAL, 0, 0, id="redeal-no-bonus-000"),
    ],
)
def test_stinkende_bonus_never_applies_to_other_results(
    result: Result, to_side: int, to_other: int, side: Side, caller_side: Side
) -> None:
    points = award(result, side, BONUS, caller_side=caller_side)
    assert (points.of(side), points.of(side.other)) == (to_side, to_other)


@pytest.mark.parametrize(
    "rules",
    [
        pytest.param(RuleSet(stinkende_kap_bonus=1), id="kap-bonus-only"),
        pytest.param(RuleSet(stinkende_baunie_bonus=1), id="baunie-bonus-only"),
        pytest.param(BONUS, id="both-bonuses"),
    ],
)
@pytest.mark.parametrize("result", list(Result), ids=[r.value for r in Result])
def test_bonus_on_without_caller_is_refused(rules: RuleSet, result: Result) -> None:
    # RULES.md "Rule-set options": with the bonus on, a round without a caller is refused
    with pytest.raises(RuleViolation) as caught:
        award(result, Side.A, rules, caller_side=None)
    assert caught.value.code == "caller_required_for_bonus"


def test_kap_bonus_does_not_leak_into_baunie_and_back() -> None:
    # 000 "Bijzondere regels": "two agreed numbers", one for kap and one for baunie
    kap_only = RuleSet(stinkende_kap_bonus=4)
    baunie_only = RuleSet(stinkende_baunie_bonus=6)
    assert award(Result.BAUNIE, Side.A, kap_only, caller_side=Side.B) == Points(15, 0)
    assert award(Result.KAP, Side.A, baunie_only, caller_side=Side.B) == Points(5, 0)
    assert award(Result.BAUNIE, Side.A, baunie_only, caller_side=Side.B) == Points(21, 0)
    assert award(Result.KAP, Side.A, kap_only, caller_side=Side.B) == Points(9, 0)


RULE_SETS = {
    "standard": STANDARD,
    "stinkende-bonus": BONUS,
    "penalty-3-kap-bonus": RuleSet(early_kap_penalty=3, stinkende_kap_bonus=2),
}
EVERY_ROUND = [
    pytest.param(rules, result, side, caller, id=f"{name}-{result.value}-{side.value}-by-{caller}")
    for (name, rules), result, side, caller in itertools.product(
        RULE_SETS.items(), list(Result), [Side.A, Side.B], [None, Side.A, Side.B]
    )
    # With the bonus on a round without caller is refused (tested above).
    if not (rules.stinkende_bonus_on and caller is None)
]


@pytest.mark.parametrize(("rules", "result", "side", "caller_side"), EVERY_ROUND)
def test_at_most_one_team_scores(
    rules: RuleSet, result: Result, side: Side, caller_side: Side | None
) -> None:
    # RULES.md "Consequences": only one team scores in a round (every result x side x caller)
    points = award(result, side, rules, caller_side=caller_side)
    assert points.a >= 0 and points.b >= 0
    assert points.a == 0 or points.b == 0
