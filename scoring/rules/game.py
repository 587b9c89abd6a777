"""A game as a sequence of rounds: scores, caller rotation and game end.

RULES.md "Who calls next" and "Game end". A game is never stored as a score: it is the
replay of its rounds, so a correction anywhere is checked against every round after it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from scoring.rules.award import award, check_tricks
from scoring.rules.errors import RuleViolation
from scoring.rules.types import (
    KAP_RESULTS,
    Points,
    Result,
    RoundInput,
    RuleSet,
    Side,
    next_seat,
    seat_side,
)


@dataclass(frozen=True, slots=True)
class GameState:
    """Where a game stands after some rounds.

    - `score`: game points of team a and b.
    - `rounds`: rounds recorded, redeals included; `played`: rounds played (no redeals).
    - `caller`: the seat (1–4) that must call the next round, None while unknown.
    - `closed`: ended by the director before its natural end (time limit).
    - `kaps` / `baunies`: per team, rounds won as kap or kap_partner / as baunie.
    """

    rules: RuleSet
    score: Points = field(default_factory=Points)
    rounds: int = 0
    played: int = 0
    caller: int | None = None
    closed: bool = False
    kaps: Points = field(default_factory=Points)
    baunies: Points = field(default_factory=Points)

    @property
    def target_reached(self) -> bool:
        target = self.rules.target_score
        return target is not None and max(self.score.a, self.score.b) >= target

    @property
    def finished(self) -> bool:
        """The game is over: target reached, fixed rounds played, or closed by the director."""
        fixed = self.rules.fixed_rounds
        return self.closed or self.target_reached or (fixed is not None and self.played >= fixed)

    @property
    def winner(self) -> Side | None:
        """The winning team of a finished game; None while open or when it ended level."""
        return self.score.leader if self.finished else None

    @property
    def drawn(self) -> bool:
        return self.finished and self.score.leader is None

    def apply(self, rnd: RoundInput) -> Step:
        """Add one round. Returns the new state and the round's points.

        Raises RuleViolation: `game_finished` (no round after the end), `caller_invalid`,
        `caller_required`, `caller_out_of_turn` (expected seat in `expected`), and whatever
        `award` and `check_tricks` raise.
        """
        if self.finished:
            raise RuleViolation("game_finished", score_a=self.score.a, score_b=self.score.b)
        caller = rnd.caller
        if caller is not None:
            if isinstance(caller, bool) or caller not in (1, 2, 3, 4):
                raise RuleViolation("caller_invalid", caller=caller)
            if self.caller is not None and caller != self.caller:
                raise RuleViolation("caller_out_of_turn", expected=self.caller, given=caller)
        elif self.rules.needs_caller:
            code = (
                "caller_required_for_bonus" if self.rules.stinkende_bonus_on else "caller_required"
            )
            raise RuleViolation(code)
        else:
            # Not written down, but the rotation still says who called.
            caller = self.caller
        if rnd.tricks is not None:
            check_tricks(rnd.result, rnd.side, rnd.tricks)
        caller_side = seat_side(caller) if caller is not None else None
        points = award(rnd.result, rnd.side, self.rules, caller_side=caller_side)

        next_caller = caller
        if caller is not None and rnd.result is not Result.REDEAL:
            assert caller_side is not None
            if points.of(caller_side) == 0:
                # The caller's team did not get this round's points: calling passes left.
                next_caller = next_seat(caller)
        state = replace(
            self,
            score=self.score + points,
            rounds=self.rounds + 1,
            played=self.played + (0 if rnd.result is Result.REDEAL else 1),
            caller=next_caller,
            kaps=self.kaps + (Points.to(rnd.side, 1) if rnd.result in KAP_RESULTS else Points()),
            baunies=self.baunies
            + (Points.to(rnd.side, 1) if rnd.result is Result.BAUNIE else Points()),
        )
        return Step(state=state, points=points)

    def close(self) -> GameState:
        """End the game now, as the director does at a time limit; level scores make a draw.

        Raises RuleViolation: `close_not_allowed` (the competition doesn't allow it),
        `game_finished` (it is already over).
        """
        if not self.rules.close_by_director_allowed:
            raise RuleViolation("close_not_allowed")
        if self.finished:
            raise RuleViolation("game_finished", score_a=self.score.a, score_b=self.score.b)
        return replace(self, closed=True)


@dataclass(frozen=True, slots=True)
class Step:
    """One applied round: the state after it and the points it gave."""

    state: GameState
    points: Points


@dataclass(frozen=True, slots=True)
class Replay:
    """A whole game replayed: the final state and each round's points, in order."""

    state: GameState
    points: tuple[Points, ...]

    @property
    def running(self) -> tuple[Points, ...]:
        """The score after each round (running totals)."""
        totals: list[Points] = []
        score = Points()
        for points in self.points:
            score = score + points
            totals.append(score)
        return tuple(totals)


def replay(
    rules: RuleSet,
    rounds: Iterable[RoundInput],
    *,
    first_caller: int | None = None,
    closed: bool = False,
) -> Replay:
    """Replay `rounds` in order from 0–0 and return the final state and each round's points.

    `first_caller` is the seat found by dealing until a jack (RULES.md "Who calls next");
    when None, the first round's caller (if any) starts the rotation. `closed` closes the
    game after the last round, as a director did.

    Raises RuleViolation with `round` (1-based) added to its params, from the first round
    that breaks a rule; `close` errors carry no round.
    """
    state = GameState(rules=rules, caller=first_caller)
    points: list[Points] = []
    for number, rnd in enumerate(rounds, start=1):
        try:
            step = state.apply(rnd)
        except RuleViolation as exc:
            raise exc.at(round=number) from None
        state = step.state
        points.append(step.points)
    if closed:
        state = state.close()
    return Replay(state=state, points=tuple(points))
