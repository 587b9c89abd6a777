"""Properties of any game, with hypothesis: RULES.md "Round results", "Consequences the engine
must enforce", "Who calls next" and "Game end".

Rule sets are valid by construction; rounds are drawn freely and filtered through
`GameState.apply` (a refused round is left out, as the app would refuse it).
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import (
    GameState,
    Points,
    Result,
    RoundInput,
    RuleSet,
    RuleViolation,
    Side,
    Step,
    replay,
)

# Trick counts (side's own, other team's) that fit each result (RULES.md "Consequences").
FITTING_TRICKS: dict[Result, list[tuple[int, int]]] = {
    Result.GEWONE_WINST: [(7, other) for other in range(1, 7)],
    Result.KAP: [(7, 0)],
    Result.KAP_PARTNER: [(7, 0)],
    Result.BAUNIE: [(13, 0)],
    Result.BAUNIE_MISLUKT: [(own, 1) for own in range(7, 13)],
    Result.KAP_TE_VROEG: [(own, 0) for own in range(0, 7)],
    Result.REDEAL: [],
}


@st.composite
def rule_sets(draw: st.DrawFn) -> RuleSet:
    target = draw(st.one_of(st.none(), st.sampled_from([7, 15, 20, 50]), st.integers(1, 60)))
    fixed = draw(st.one_of(st.none(), st.integers(1, 20)))
    close = draw(st.booleans())
    if target is None and fixed is None:
        close = True  # a game must be able to end (RuleSet: rule_set_invalid otherwise)
    bonus = st.one_of(st.just(0), st.integers(1, 10))
    return RuleSet(
        target_score=target,
        fixed_rounds=fixed,
        kap_partner_allowed=draw(st.booleans()),
        early_kap_penalty=draw(st.sampled_from([2, 2, 1, 3, 5])),
        stinkende_kap_bonus=draw(bonus),
        stinkende_baunie_bonus=draw(bonus),
        redeal_allowed=draw(st.booleans()),
        callers_required=draw(st.booleans()),
        close_by_director_allowed=close,
    )


@dataclass(frozen=True)
class RawRound:
    """A round as drawn: the caller and tricks are resolved against the state when applied."""

    result: Result
    side: Side
    caller: str | int | None  # "rotation", None (not written down) or a seat, maybe wrong
    tricks: str | tuple[int, int] | None  # "fit", None, or any counts

    def to_input(self, state: GameState) -> RoundInput:
        caller: int | None
        if self.caller == "rotation":
            caller = state.caller if state.caller is not None else 1
        else:
            caller = self.caller  # type: ignore[assignment]
        tricks: tuple[int, int] | None
        if self.tricks == "fit":
            fitting = FITTING_TRICKS[self.result]
            if fitting:
                own, other = fitting[(state.rounds * 7) % len(fitting)]
                tricks = (own, other) if self.side is Side.A else (other, own)
            else:
                tricks = None
        else:
            tricks = self.tricks  # type: ignore[assignment]
        return RoundInput(self.result, self.side, caller=caller, tricks=tricks)


@st.composite
def raw_rounds(draw: st.DrawFn) -> RawRound:
    # Mostly rounds that can be accepted, sometimes a wrong caller or impossible tricks.
    caller = draw(st.sampled_from(["rotation"] * 12 + [None, None, 0, 1, 2, 3, 4, 5]))
    tricks: str | tuple[int, int] | None
    if draw(st.integers(0, 9)) == 0:
        tricks = draw(st.tuples(st.integers(-1, 14), st.integers(-1, 14)))
    else:
        tricks = draw(st.sampled_from([None, "fit"]))
    return RawRound(
        result=draw(st.sampled_from(list(Result))),
        side=draw(st.sampled_from([Side.A, Side.B])),
        caller=caller,
        tricks=tricks,
    )


@dataclass
class Played:
    rules: RuleSet
    first_caller: int | None
    inputs: list[RoundInput]  # accepted rounds, in order
    steps: list[Step]  # one per accepted round
    refused: list[tuple[int, RoundInput, RuleViolation]]  # (accepted so far, round, error)

    @property
    def states(self) -> list[GameState]:
        """The state before any round, then after each accepted round."""
        return [GameState(rules=self.rules, caller=self.first_caller)] + [
            step.state for step in self.steps
        ]

    @property
    def state(self) -> GameState:
        return self.states[-1]


def _play(rules: RuleSet, first_caller: int | None, raws: list[RawRound]) -> Played:
    played = Played(rules, first_caller, [], [], [])
    state = GameState(rules=rules, caller=first_caller)
    for raw in raws:
        rnd = raw.to_input(state)
        try:
            step = state.apply(rnd)
        except RuleViolation as exc:
            played.refused.append((len(played.inputs), rnd, exc))
            continue
        played.inputs.append(rnd)
        played.steps.append(step)
        state = step.state
    return played


def _finish(played: Played) -> GameState:
    """Play the game to its natural end (or close it when nothing else can end it)."""
    state = played.state
    rules = played.rules
    if rules.target_score is None and rules.fixed_rounds is None:
        return state if state.finished else state.close()
    while not state.finished:
        caller = state.caller if state.caller is not None else 1
        rnd = RoundInput(Result.GEWONE_WINST, Side.A, caller=caller if rules.needs_caller else None)
        step = state.apply(rnd)
        played.inputs.append(rnd)
        played.steps.append(step)
        state = step.state
    return state


games = st.tuples(
    rule_sets(),
    st.one_of(st.none(), st.integers(1, 4)),
    st.lists(raw_rounds(), min_size=4, max_size=40),
)

FAST = settings(deadline=None)


@FAST
@given(games)
def test_at_most_one_team_scores_per_round_and_never_negative(game: tuple) -> None:
    # RULES.md "Consequences": only one team scores in a round; types.Points never negative
    played = _play(*game)
    for step in played.steps:
        assert step.points.a >= 0 and step.points.b >= 0
        assert step.points.a == 0 or step.points.b == 0
    for state in played.states:
        assert state.score.a >= 0 and state.score.b >= 0


@FAST
@given(games)
def test_game_score_is_the_sum_of_its_rounds(game: tuple) -> None:
    # game.py: "A game is never stored as a score: it is the replay of its rounds"
    played = _play(*game)
    total = Points()
    for step in played.steps:
        total = total + step.points
    assert played.state.score == total
    result = replay(played.rules, played.inputs, first_caller=played.first_caller)
    assert result.state.score == total
    assert result.running[-1:] == ((total,) if played.steps else ())


@FAST
@given(games)
def test_replaying_any_prefix_equals_applying_step_by_step(game: tuple) -> None:
    played = _play(*game)
    states = played.states
    for count in range(len(played.inputs) + 1):
        result = replay(played.rules, played.inputs[:count], first_caller=played.first_caller)
        assert result.state == states[count]
        assert list(result.points) == [step.points for step in played.steps[:count]]


@FAST
@given(games)
def test_replay_refuses_a_refused_round_at_its_round_number(game: tuple) -> None:
    # RuleViolation: params["round"] is the 1-based number of the round that broke the rule
    played = _play(*game)
    for accepted, rnd, exc in played.refused[:5]:
        rounds = [*played.inputs[:accepted], rnd]
        try:
            replay(played.rules, rounds, first_caller=played.first_caller)
        except RuleViolation as again:
            assert again.code == exc.code
            assert again.params == {**exc.params, "round": accepted + 1}
        else:
            raise AssertionError(f"replay accepted a refused round: {exc}")


@FAST
@given(games, st.lists(raw_rounds(), min_size=1, max_size=5))
def test_a_finished_game_accepts_no_round(game: tuple, more: list[RawRound]) -> None:
    # RULES.md "Game end": "No round can be added to a finished game"
    played = _play(*game)
    state = _finish(played)
    assert state.finished
    for raw in more:
        try:
            state.apply(raw.to_input(state))
        except RuleViolation as exc:
            assert exc.code == "game_finished"
        else:
            raise AssertionError("a finished game accepted a round")


@FAST
@given(games)
def test_a_game_ended_by_its_target_has_exactly_one_team_at_or_above_it(game: tuple) -> None:
    # RULES.md "Game end" and "Consequences": a game can never reach the target on both sides
    played = _play(*game)
    rules = played.rules
    state = _finish(played)
    target = rules.target_score
    if target is None or rules.fixed_rounds is not None or state.closed:
        return
    assert (state.score.a >= target) != (state.score.b >= target)
    assert state.winner is not None and not state.drawn
    assert state.score.of(state.winner) >= target


@FAST
@given(games)
def test_only_fixed_rounds_or_a_close_can_end_a_game_level(game: tuple) -> None:
    # RULES.md "Game end": a draw needs fixed rounds (001 §8) or a director's close
    played = _play(*game)
    state = _finish(played)
    if state.drawn:
        assert state.closed or played.rules.fixed_rounds is not None


@FAST
@given(games)
def test_caller_stays_or_moves_one_seat_left(game: tuple) -> None:
    # RULES.md "Who calls next": the same caller, or the next seat clockwise (001 §7)
    played = _play(*game)
    states = played.states
    for before, step, rnd in zip(states[:-1], played.steps, played.inputs, strict=True):
        caller = rnd.caller if rnd.caller is not None else before.caller
        after = step.state.caller
        if caller is None:
            assert after is None
        elif rnd.result is Result.REDEAL:
            assert after == caller
        else:
            assert after in (caller, caller % 4 + 1)
