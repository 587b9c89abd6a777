"""Trick counts must fit the result: RULES.md "Round results", "Consequences the engine must
enforce". Tricks are (team a, team b); `side` decides which count is the side's own."""

from __future__ import annotations

import pytest

from scoring.rules import Result, RoundInput, RuleSet, RuleViolation, Side, check_tricks
from scoring.rules.game import GameState


def _as_ab(side: Side, own: int, other: int) -> tuple[int, int]:
    """(own, other) seen from `side`, as (team a, team b)."""
    return (own, other) if side is Side.A else (other, own)


SIDES = pytest.mark.parametrize("side", [Side.A, Side.B], ids=["side-a", "side-b"])

# (result, own tricks, other tricks) that fit. RULES.md "Consequences".
FITTING = [
    # gewone_winst 7 vs 1–6: 000 "Overzicht" (opponents have at least one trick), 001 §6
    pytest.param(Result.GEWONE_WINST, 7, 1, id="gewone_winst-7-1-000"),
    pytest.param(Result.GEWONE_WINST, 7, 6, id="gewone_winst-7-6-000"),
    # kap/kap_partner exactly 7–0: 000 "Kap en baunie"
    pytest.param(Result.KAP, 7, 0, id="kap-7-0-000"),
    pytest.param(Result.KAP_PARTNER, 7, 0, id="kap_partner-7-0-000"),
    # baunie 13–0: 000, 001 §6
    pytest.param(Result.BAUNIE, 13, 0, id="baunie-13-0-000"),
    # baunie_mislukt 7–12 vs 1: 000 "Kap en baunie"
    pytest.param(Result.BAUNIE_MISLUKT, 7, 1, id="baunie_mislukt-7-1-000"),
    pytest.param(Result.BAUNIE_MISLUKT, 12, 1, id="baunie_mislukt-12-1-000"),
    # kap_te_vroeg at most 6 vs 0: 000 "Kap en baunie"
    pytest.param(Result.KAP_TE_VROEG, 6, 0, id="kap_te_vroeg-6-0-000"),
    pytest.param(Result.KAP_TE_VROEG, 0, 0, id="kap_te_vroeg-0-0-000"),
]


@SIDES
@pytest.mark.parametrize(("result", "own", "other"), FITTING)
def test_trick_counts_that_fit_are_accepted(
    result: Result, own: int, other: int, side: Side
) -> None:
    check_tricks(result, side, _as_ab(side, own, other))  # does not raise


# (result, own, other, code) that don't fit.
NOT_FITTING = [
    # gewone_winst 7 vs 1–6: 000 "Overzicht", 001 §6
    pytest.param(Result.GEWONE_WINST, 7, 0, "tricks_do_not_fit", id="gewone_winst-7-0-is-a-kap"),
    pytest.param(Result.GEWONE_WINST, 6, 1, "tricks_do_not_fit", id="gewone_winst-6-1"),
    pytest.param(Result.GEWONE_WINST, 8, 1, "tricks_do_not_fit", id="gewone_winst-8-1"),
    pytest.param(Result.GEWONE_WINST, 6, 7, "tricks_do_not_fit", id="gewone_winst-6-7-lost"),
    # kap/kap_partner exactly 7–0: 000 "Kap en baunie"
    pytest.param(Result.KAP, 6, 0, "kap_only_at_seven_nil", id="kap-6-0"),
    pytest.param(Result.KAP, 7, 1, "kap_only_at_seven_nil", id="kap-7-1"),
    pytest.param(Result.KAP_PARTNER, 6, 0, "kap_only_at_seven_nil", id="kap_partner-6-0"),
    pytest.param(Result.KAP_PARTNER, 8, 0, "kap_only_at_seven_nil", id="kap_partner-8-0"),
    pytest.param(Result.KAP_PARTNER, 7, 1, "kap_only_at_seven_nil", id="kap_partner-7-1"),
    # baunie 13–0: 000, 001 §6
    pytest.param(Result.BAUNIE, 12, 0, "tricks_do_not_fit", id="baunie-12-0"),
    pytest.param(Result.BAUNIE, 12, 1, "tricks_do_not_fit", id="baunie-12-1"),
    pytest.param(Result.BAUNIE, 7, 0, "tricks_do_not_fit", id="baunie-7-0"),
    # baunie_mislukt 7–12 vs 1: 000 "Kap en baunie"
    pytest.param(Result.BAUNIE_MISLUKT, 6, 1, "tricks_do_not_fit", id="baunie_mislukt-6-1"),
    pytest.param(Result.BAUNIE_MISLUKT, 7, 0, "tricks_do_not_fit", id="baunie_mislukt-7-0"),
    pytest.param(Result.BAUNIE_MISLUKT, 7, 2, "tricks_do_not_fit", id="baunie_mislukt-7-2"),
    pytest.param(Result.BAUNIE_MISLUKT, 13, 0, "tricks_do_not_fit", id="baunie_mislukt-13-0"),
    # kap_te_vroeg at most 6 vs 0: 000 "Kap en baunie"
    pytest.param(Result.KAP_TE_VROEG, 7, 0, "tricks_do_not_fit", id="kap_te_vroeg-7-0"),
    pytest.param(Result.KAP_TE_VROEG, 6, 1, "tricks_do_not_fit", id="kap_te_vroeg-6-1"),
    pytest.param(Result.KAP_TE_VROEG, 0, 1, "tricks_do_not_fit", id="kap_te_vroeg-0-1"),
]


@SIDES
@pytest.mark.parametrize(("result", "own", "other", "code"), NOT_FITTING)
def test_trick_counts_that_dont_fit_are_refused(
    result: Result, own: int, other: int, code: str, side: Side
) -> None:
    with pytest.raises(RuleViolation) as caught:
        check_tricks(result, side, _as_ab(side, own, other))
    assert caught.value.code == code
    assert caught.value.params["side_tricks"] == own
    assert caught.value.params["other_tricks"] == other


@SIDES
@pytest.mark.parametrize("result", [Result.KAP, Result.KAP_PARTNER], ids=["kap", "kap_partner"])
def test_kap_at_eight_nil_is_refused(result: Result, side: Side) -> None:
    # RULES.md "Consequences": once a team leads 8–0 it must play for all 13 (000 "Kap en baunie")
    with pytest.raises(RuleViolation) as caught:
        check_tricks(result, side, _as_ab(side, 8, 0))
    assert caught.value.code == "kap_only_at_seven_nil"


@SIDES
def test_trick_counts_are_read_from_the_sides_point_of_view(side: Side) -> None:
    # RoundInput: tricks are (team a, team b); 7–0 for side b is (0, 7)
    with pytest.raises(RuleViolation) as caught:
        check_tricks(Result.KAP, side, _as_ab(side.other, 7, 0))
    assert caught.value.code == "kap_only_at_seven_nil"
    assert caught.value.params == {"side_tricks": 0, "other_tricks": 7}


@pytest.mark.parametrize("result", list(Result), ids=[r.value for r in Result])
@SIDES
@pytest.mark.parametrize(
    "tricks",
    [
        pytest.param((-1, 0), id="negative-a"),
        pytest.param((7, -1), id="negative-b"),
        pytest.param((14, 0), id="fourteen-a"),
        pytest.param((0, 14), id="fourteen-b"),
        pytest.param((7, 7), id="fourteen-in-all"),
        pytest.param((13, 1), id="fourteen-13-1"),
    ],
)
def test_impossible_trick_counts_are_refused_for_every_result(
    result: Result, side: Side, tricks: tuple[int, int]
) -> None:
    # RULES.md "Round results": a round is 13 tricks; counts are 0 or more
    with pytest.raises(RuleViolation) as caught:
        check_tricks(result, side, tricks)
    assert caught.value.code == "tricks_invalid"
    assert caught.value.params == {"tricks_a": tricks[0], "tricks_b": tricks[1]}


@SIDES
@pytest.mark.parametrize("tricks", [(0, 0), (7, 0), (13, 0)], ids=["0-0", "7-0", "13-0"])
def test_tricks_with_a_redeal_are_refused(side: Side, tricks: tuple[int, int]) -> None:
    # RULES.md "Consequences": redeal "none"; 003 "The redeal"
    with pytest.raises(RuleViolation) as caught:
        check_tricks(Result.REDEAL, side, tricks)
    assert caught.value.code == "tricks_with_redeal"


def test_game_checks_trick_counts_when_given() -> None:
    # RULES.md "Consequences": counting tricks is optional; when recorded they must fit
    state = GameState(rules=RuleSet())
    with pytest.raises(RuleViolation) as caught:
        state.apply(RoundInput(Result.KAP, Side.B, tricks=(0, 8)))
    assert caught.value.code == "kap_only_at_seven_nil"
    step = state.apply(RoundInput(Result.KAP, Side.B, tricks=(0, 7)))
    assert step.state.score.b == 5
    # Without tricks the same result is fine.
    assert state.apply(RoundInput(Result.KAP, Side.B)).state.score.b == 5
