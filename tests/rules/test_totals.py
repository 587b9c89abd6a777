"""Plausibility of results known only as totals: RULES.md "Round results" (2/5/2/15, 2 to the
opponents) and "Game end"; DESIGN.md "How the real game is organised" (STCB totals)."""

from __future__ import annotations

import pytest

from scoring.rules import (
    RuleSet,
    RuleViolation,
    check_game_totals,
    check_match_totals,
    check_total,
    round_amounts,
)

STANDARD = RuleSet()


@pytest.mark.parametrize("total", [1, 3], ids=lambda t: f"total-{t}")
def test_one_and_three_are_impossible_totals(total: int) -> None:
    # RULES.md "Round results": every round gives 2, 5 or 15 (000 "Puntentelling")
    with pytest.raises(RuleViolation) as caught:
        check_total(total, STANDARD, team="a")
    assert caught.value.code == "total_impossible"
    assert caught.value.params == {"team": "a", "total": total}


@pytest.mark.parametrize("total", [0, 2, 4, 5, 6, 7, 8, 9, 10, 11, 17, 19, 34, 91, 1001])
def test_every_other_total_is_possible(total: int) -> None:
    # RULES.md "Round results": 2 and 5 make every number from 4 on (and 0 and 2)
    check_total(total, STANDARD, team="a")


@pytest.mark.parametrize("total", [-1, -2, -20])
def test_negative_total_is_refused(total: int) -> None:
    # types.Points: "never negative"; no round takes points away
    with pytest.raises(RuleViolation) as caught:
        check_total(total, STANDARD, team="home")
    assert caught.value.code == "total_negative"
    assert caught.value.params == {"team": "home", "total": total}


@pytest.mark.parametrize(
    ("rules", "total", "possible"),
    [
        # 000 "Bijzondere regels": a stinkende kap_partner of 2 + 1 makes 3 possible
        pytest.param(RuleSet(stinkende_kap_bonus=1), 3, True, id="kap-bonus-1-makes-3"),
        pytest.param(RuleSet(stinkende_kap_bonus=1), 1, False, id="kap-bonus-1-still-not-1"),
        # kap by partner not allowed (001 §8): only 5 + 1 = 6 is new, 3 stays impossible
        pytest.param(
            RuleSet(stinkende_kap_bonus=1, kap_partner_allowed=False),
            3,
            False,
            id="kap-bonus-1-no-partner-not-3",
        ),
        pytest.param(RuleSet(stinkende_baunie_bonus=1), 3, False, id="baunie-bonus-not-3"),
        # a larger bonus: kap_partner 2 + 1 is not there, but 5 + 3 = 8 is still just 8
        pytest.param(RuleSet(stinkende_kap_bonus=3), 3, False, id="kap-bonus-3-not-3"),
        # RuleSet.early_kap_penalty of 1 (000 says 2): 1 becomes possible
        pytest.param(RuleSet(early_kap_penalty=1), 1, True, id="penalty-1-makes-1"),
        pytest.param(RuleSet(early_kap_penalty=3), 3, True, id="penalty-3-makes-3"),
    ],
)
def test_bonus_values_change_which_totals_are_possible(
    rules: RuleSet, total: int, possible: bool
) -> None:
    if possible:
        check_total(total, rules, team="a")
    else:
        with pytest.raises(RuleViolation) as caught:
            check_total(total, rules, team="a")
        assert caught.value.code == "total_impossible"


def test_round_amounts_include_the_stinkende_amounts() -> None:
    # RULES.md "Rule-set options": bonus added to kap (5), kap_partner (2) and baunie (15)
    assert round_amounts(STANDARD) == {2, 5, 15}
    assert round_amounts(RuleSet(stinkende_kap_bonus=3, stinkende_baunie_bonus=10)) == {
        2,
        5,
        15,
        2 + 3,
        5 + 3,
        15 + 10,
    }
    assert round_amounts(RuleSet(stinkende_kap_bonus=3, kap_partner_allowed=False)) == {
        2,
        5,
        8,
        15,
    }


# ---------------------------------------------------------------- one game's totals
# RULES.md "Game end" and "Consequences": one team scores per round, the game stops at the
# target; target 20: the highest plausible total is 19 + 15 = 34.


@pytest.mark.parametrize(
    ("total_a", "total_b"),
    [
        pytest.param(20, 0, id="20-0"),
        pytest.param(0, 20, id="0-20"),
        pytest.param(20, 19, id="20-19"),
        pytest.param(21, 18, id="21-18"),
        pytest.param(34, 0, id="34-0-19-plus-baunie"),
        pytest.param(17, 33, id="17-33"),
        pytest.param(24, 2, id="24-2"),
    ],
)
def test_plausible_game_totals_pass(total_a: int, total_b: int) -> None:
    check_game_totals(total_a, total_b, STANDARD)


@pytest.mark.parametrize(
    ("total_a", "total_b", "code", "params"),
    [
        pytest.param(20, 20, "totals_both_reached_target", {"target": 20}, id="20-20-both"),
        pytest.param(34, 21, "totals_both_reached_target", {"target": 20}, id="34-21-both"),
        pytest.param(
            35, 0, "total_overshoots_target", {"team": "a", "total": 35, "target": 20}, id="35-0"
        ),
        pytest.param(
            4, 40, "total_overshoots_target", {"team": "b", "total": 40, "target": 20}, id="4-40"
        ),
        pytest.param(18, 16, "totals_below_target", {"target": 20}, id="18-16-below"),
        pytest.param(0, 0, "totals_below_target", {"target": 20}, id="0-0-below"),
        pytest.param(-2, 20, "total_negative", {"team": "a", "total": -2}, id="negative-a"),
        pytest.param(20, 3, "total_impossible", {"team": "b", "total": 3}, id="3-impossible"),
        pytest.param(1, 20, "total_impossible", {"team": "a", "total": 1}, id="1-impossible"),
    ],
)
def test_implausible_game_totals_are_refused(
    total_a: int, total_b: int, code: str, params: dict[str, object]
) -> None:
    with pytest.raises(RuleViolation) as caught:
        check_game_totals(total_a, total_b, STANDARD)
    assert caught.value.code == code
    assert caught.value.params == params


@pytest.mark.parametrize(
    ("target", "highest"),
    [(20, 34), (15, 29), (50, 64), (7, 21)],
    ids=lambda value: str(value),
)
def test_highest_total_is_one_round_past_the_target(target: int, highest: int) -> None:
    # RULES.md "Game end": the game ends the moment a team reaches the target
    rules = RuleSet(target_score=target)
    check_game_totals(highest, 0, rules)
    with pytest.raises(RuleViolation) as caught:
        check_game_totals(highest + 1, 0, rules)
    assert caught.value.code == "total_overshoots_target"


def test_a_baunie_bonus_raises_the_highest_total() -> None:
    # 000 "Bijzondere regels": a stinkende baunie of 15 + 10 from 19 gives 44
    rules = RuleSet(stinkende_baunie_bonus=10)
    check_game_totals(44, 0, rules)
    with pytest.raises(RuleViolation):
        check_game_totals(45, 0, rules)


@pytest.mark.parametrize(
    "rules",
    [
        pytest.param(RuleSet(fixed_rounds=8), id="fixed-rounds-001s8"),
        pytest.param(RuleSet(close_by_director_allowed=True), id="director-close"),
    ],
)
def test_totals_below_target_pass_when_the_game_can_end_otherwise(rules: RuleSet) -> None:
    # RULES.md "Game end": fixed rounds, or a director's close (time limit), can end it early
    check_game_totals(18, 16, rules)
    check_game_totals(10, 10, rules)  # a draw
    with pytest.raises(RuleViolation) as caught:
        check_game_totals(20, 20, rules)
    assert caught.value.code == "totals_both_reached_target"


def test_without_a_target_any_reachable_totals_pass() -> None:
    # RULES.md "Game end": fixed rounds instead of a target (001 §8)
    rules = RuleSet(target_score=None, fixed_rounds=30)
    check_game_totals(200, 150, rules)
    with pytest.raises(RuleViolation) as caught:
        check_game_totals(200, 3, rules)
    assert caught.value.code == "total_impossible"


def _final_scores(rules: RuleSet, limit: int) -> set[tuple[int, int]]:
    """Every final score of a game under `rules` (target only), found by playing all rounds."""
    target = rules.target_score
    assert target is not None
    amounts = round_amounts(rules)
    finals: set[tuple[int, int]] = set()
    seen = {(0, 0)}
    todo = [(0, 0)]
    while todo:
        a, b = todo.pop()
        for amount in amounts:
            for after in ((a + amount, b), (a, b + amount)):
                if max(after) >= target:
                    finals.add(after)
                elif after not in seen:
                    seen.add(after)
                    todo.append(after)
    assert all(max(final) <= limit for final in finals)
    return finals


@pytest.mark.parametrize(
    "rules",
    [
        pytest.param(RuleSet(target_score=20), id="target-20-000"),
        pytest.param(RuleSet(target_score=15), id="target-15-001s4"),
        pytest.param(RuleSet(target_score=10), id="target-10-any-positive"),
        pytest.param(RuleSet(target_score=7), id="target-7-any-positive"),
        pytest.param(RuleSet(target_score=20, stinkende_kap_bonus=3), id="target-20-kap-bonus"),
    ],
)
def test_game_totals_are_accepted_exactly_when_a_game_can_end_there(rules: RuleSet) -> None:
    # RULES.md "Game end": "A game ends the moment a team reaches the target score", so the
    # winner's total is a score below the target plus one round's points.
    # check_game_totals docstring: "Refuse the final totals of one game when they can't have
    # happened under `rules`". Compared with every game actually played out.
    assert rules.target_score is not None
    limit = rules.target_score + max(round_amounts(rules)) + 5
    finals = _final_scores(rules, limit)
    wrongly_accepted = []
    wrongly_refused = []
    for a in range(limit + 1):
        for b in range(limit + 1):
            try:
                check_game_totals(a, b, rules)
            except RuleViolation:
                if (a, b) in finals:
                    wrongly_refused.append((a, b))
            else:
                if (a, b) not in finals:
                    wrongly_accepted.append((a, b))
    assert wrongly_refused == []
    assert wrongly_accepted == [], f"impossible final scores accepted: {wrongly_accepted[:10]}"


def test_twelve_nil_at_target_seven_is_refused() -> None:
    # RULES.md "Game end": with target 7 a team that reaches 12 must have been at 10 or 7
    # (already over) before the last round: 2 and 5 can't get there from below 7.
    with pytest.raises(RuleViolation):
        check_game_totals(12, 0, RuleSet(target_score=7))


# ---------------------------------------------------------------- match totals


@pytest.mark.parametrize(
    ("home", "away"),
    [
        # data/stcb-2019-08-24.json: STcB competitie 2019, matchday 1 (as published)
        pytest.param(91, 49, id="formula-openbaar-groen-91-49"),
        pytest.param(75, 68, id="toppers-kolibrie-75-68"),
        pytest.param(78, 65, id="pintoboys-shaktie-78-65"),
        pytest.param(90, 65, id="ekta-t-hofje-90-65"),
    ],
)
def test_real_stcb_match_totals_pass(home: int, away: int) -> None:
    check_match_totals(home, away, STANDARD)


@pytest.mark.parametrize(
    ("home", "away", "code", "team"),
    [
        pytest.param(3, 40, "total_impossible", "home", id="home-3"),
        pytest.param(40, 1, "total_impossible", "away", id="away-1"),
        pytest.param(-5, 40, "total_negative", "home", id="home-negative"),
    ],
)
def test_impossible_match_totals_are_refused(home: int, away: int, code: str, team: str) -> None:
    with pytest.raises(RuleViolation) as caught:
        check_match_totals(home, away, STANDARD)
    assert caught.value.code == code
    assert caught.value.params["team"] == team


def test_match_totals_may_both_pass_any_target() -> None:
    # A match sums several games, so both sides can be far past one game's target.
    check_match_totals(91, 90, STANDARD)
