"""Rows to engine inputs: stored or submitted rounds as the rules engine takes them.

The adapter between the models and `scoring.rules`, shared by the writes (`services`)
and the reads that replay a game (`selectors.game_next_caller`, the result problems).
"""

from __future__ import annotations

from collections.abc import Sequence

from scoring.models import Game, Round
from scoring.rules import Result, RoundInput, RuleViolation, Side


def round_input(
    game: Game, *, result: str, side: str, caller_id: int | None, tricks: tuple[int, int] | None
) -> RoundInput:
    """A round as the engine takes it: result and side parsed, the caller as a seat (1–4).

    Raises RuleViolation: `result_unknown`, `seats_required` (a caller but no seats),
    `caller_not_at_table`.
    """
    try:
        result_value, side_value = Result(result), Side(side)
    except ValueError:
        raise RuleViolation("result_unknown", result=result, side=side) from None
    seat = None
    if caller_id is not None:
        seats = game.seats
        if None in seats:
            raise RuleViolation("seats_required")
        if caller_id not in seats:
            raise RuleViolation("caller_not_at_table", caller=caller_id)
        seat = seats.index(caller_id) + 1
    return RoundInput(result=result_value, side=side_value, caller=seat, tricks=tricks)


def game_round_inputs(game: Game, rounds: Sequence[Round]) -> list[RoundInput]:
    """The stored `rounds` of `game`, in the order given, as engine input."""
    return [
        round_input(game, result=r.result, side=r.side, caller_id=r.caller_id, tricks=r.tricks)
        for r in rounds
    ]
