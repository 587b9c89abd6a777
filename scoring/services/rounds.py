"""Writes of rounds: record, correct, delete and undo one round, and load a game's rounds in
bulk (an import). Each locks the game, replays the stored rounds with the engine and
stores what it decides.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Q
from simple_history.utils import bulk_create_with_history

from scoring.engine_inputs import game_round_inputs, round_input
from scoring.models import Game, GameLink, Round
from scoring.rules import Replay, RuleViolation
from scoring.selectors.history import ROUND_UNDO_REASON
from scoring.services.disputes import dispute_corrected_if_open
from scoring.services.games import (
    game_inputs_replay,
    game_locked,
    game_refresh_on_commit,
    game_state_store,
    round_points_sync,
)
from scoring.tokens import game_token
from troefclub.writes import acting_user

# A sanity bound, not a game rule (RULES.md has no limit on redeals): a game to 20 has at
# most about 20 scoring rounds, and 200 leaves ample room for redeals and fixed-round
# formats. Without it one game of 100,000 redeals (a broken import, a stuck button) made a
# 61 MB public page and an admin page that never loaded. `game_rounds_load`, `round_record`
# and the importer refuse more (`game_too_many_rounds`).
MAX_ROUNDS_PER_GAME = 200


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One round to load in bulk: as `round_record` takes it (`caller_id` a player id)."""

    result: str
    side: str
    caller_id: int | None = None
    tricks: tuple[int, int] | None = None


def game_rounds_replay(game: Game, rounds: Sequence[RoundRecord]) -> Replay:
    """The engine's verdict on `rounds` loaded into `game`, which has none yet: each
    round's points and the final state (not saved). Shared by `game_rounds_load` and the
    bulk importer (`interchange.load`); `game` may be unsaved, with its match
    (and the match's matchday and competition) and seats set.

    Raises RuleViolation: `game_too_many_rounds` (params limit, rounds), and every
    violation `round_record` raises, with `round` = the number of the first bad round.
    """
    if len(rounds) > MAX_ROUNDS_PER_GAME:
        raise RuleViolation("game_too_many_rounds", limit=MAX_ROUNDS_PER_GAME, rounds=len(rounds))
    inputs = []
    for number, record in enumerate(rounds, start=1):
        try:
            inputs.append(
                round_input(
                    game,
                    result=record.result,
                    side=record.side,
                    caller_id=record.caller_id,
                    tricks=record.tricks,
                )
            )
        except RuleViolation as exc:
            raise exc.at(round=number) from None
    return game_inputs_replay(game, inputs)


@transaction.atomic
def game_rounds_load(*, game_id: int, rounds: Sequence[RoundRecord], user: Any = None) -> Game:
    """Load all rounds of a game that has none yet (an import, a paper sheet typed in).

    The engine replays them in one go and the rounds are saved with one insert; the result
    is exactly as if each had gone through `round_record`.

    Raises RuleViolation: `game_unknown`, `game_has_totals`, `game_has_rounds`,
    `game_too_many_rounds` (params limit, rounds: more than `MAX_ROUNDS_PER_GAME`), and
    every violation `round_record` raises, with `round` = the number of the first bad round.
    """
    game = game_locked(game_id)
    if game.by_totals:
        raise RuleViolation("game_has_totals")
    if game.rounds.exists():
        raise RuleViolation("game_has_rounds")
    replay = game_rounds_replay(game, rounds)
    recorded_by = acting_user(user)
    # With history, like every other write: the audit trail must show imported rounds too.
    bulk_create_with_history(
        [
            Round(
                game=game,
                number=number,
                result=record.result,
                side=record.side,
                caller_id=record.caller_id,
                tricks_a=record.tricks[0] if record.tricks else None,
                tricks_b=record.tricks[1] if record.tricks else None,
                points_a=points.a,
                points_b=points.b,
                recorded_by=recorded_by,
            )
            for number, (record, points) in enumerate(zip(rounds, replay.points, strict=True), 1)
        ],
        Round,
        default_user=recorded_by,
    )
    status_before = game.status
    game_state_store(game, replay)
    game_refresh_on_commit(game, status_before)
    return game


def _same_round(
    rnd: Round, *, result: str, side: str, caller_id: int | None, tricks: tuple[int, int] | None
) -> bool:
    """Whether stored round `rnd` says exactly what a form asks for (a form sent twice)."""
    asked = Round(
        result=result,
        side=side,
        caller_id=caller_id,
        tricks_a=tricks[0] if tricks else None,
        tricks_b=tricks[1] if tricks else None,
    )
    return asked.token == rnd.token


@transaction.atomic
def round_record(
    *,
    game_id: int,
    expected_number: int,
    result: str,
    side: str,
    caller_id: int | None = None,
    tricks: tuple[int, int] | None = None,
    user: Any = None,
    link: GameLink | None = None,
    client_key: uuid.UUID | None = None,
) -> Round:
    """Add the next round to a game and return it, with its points from the engine.

    `result` is a RULES.md round result, `side` "a" or "b" (the team the result is about),
    `caller_id` a player seated at the game, `tricks` (team a, team b) or None.
    `expected_number` (required) is the round number the scorer's form was made for: when
    another phone, or the same form sent twice, recorded that round meanwhile, nothing is
    saved twice. A round loaded without a form goes through `game_rounds_load`. `link` is
    the table link the round was entered with (`table_round_record`), None for a director;
    `client_key` the idempotency key its phone made (`table_round_record` looks it up first).

    Raises RuleViolation: `game_unknown`, `game_has_totals`, `round_already_recorded`
    (param number: that round is stored already, exactly like this: a form sent twice),
    `sheet_changed` (params number, recorded), `sheet_rounds_removed` (the same params: the
    form is for a later round than the next), `game_too_many_rounds` (params limit, rounds:
    the game has `MAX_ROUNDS_PER_GAME` already), `result_unknown`, `seats_required`,
    `caller_not_at_table`, and every engine violation for this round (`round` = its number).
    """
    game = game_locked(game_id)
    return round_record_locked(
        game,
        list(game.rounds.order_by("number")),
        expected_number=expected_number,
        result=result,
        side=side,
        caller_id=caller_id,
        tricks=tricks,
        user=user,
        link=link,
        client_key=client_key,
    )


def round_record_locked(
    game: Game,
    rounds: Sequence[Round],
    *,
    expected_number: int,
    result: str,
    side: str,
    caller_id: int | None = None,
    tricks: tuple[int, int] | None = None,
    user: Any = None,
    link: GameLink | None = None,
    client_key: uuid.UUID | None = None,
) -> Round:
    """`round_record` for a caller that holds the game already: `game` locked
    (`game_locked`) in the caller's transaction and `rounds` its stored rounds in order,
    read under that lock. The table's and the sheet's queues lock the game and read its
    rounds for their own checks first; locking and reading them again (in a savepoint)
    cost a game-ending round four queries more (issue 20). On return `game` holds its new
    state, so `game_token(game, [*rounds, new round])` is the token as stored.

    Raises RuleViolation: what `round_record` raises, but `game_unknown`.
    """
    if game.by_totals:
        raise RuleViolation("game_has_totals")
    number = len(rounds) + 1
    if expected_number != number:
        if 1 <= expected_number <= len(rounds) and _same_round(
            rounds[expected_number - 1],
            result=result,
            side=side,
            caller_id=caller_id,
            tricks=tricks,
        ):
            raise RuleViolation("round_already_recorded", number=expected_number)
        if expected_number > number:
            # A form from before rounds were undone or deleted elsewhere (or sent by hand).
            raise RuleViolation(
                "sheet_rounds_removed", number=expected_number, recorded=len(rounds)
            )
        raise RuleViolation("sheet_changed", number=expected_number, recorded=len(rounds))
    if number > MAX_ROUNDS_PER_GAME:
        raise RuleViolation("game_too_many_rounds", limit=MAX_ROUNDS_PER_GAME, rounds=number)
    try:
        new = round_input(game, result=result, side=side, caller_id=caller_id, tricks=tricks)
        before = game_inputs_replay(game, game_round_inputs(game, rounds))
        step = before.state.apply(new)
    except RuleViolation as exc:
        raise exc.at(round=number) from None
    rnd = Round.objects.create(
        game=game,
        number=number,
        result=new.result.value,
        side=new.side.value,
        caller_id=caller_id,
        tricks_a=tricks[0] if tricks else None,
        tricks_b=tricks[1] if tricks else None,
        points_a=step.points.a,
        points_b=step.points.b,
        recorded_by=acting_user(user),
        link=link,
        client_key=client_key,
    )
    status_before = game.status
    game_state_store(game, Replay(state=step.state, points=(*before.points, step.points)))
    game_refresh_on_commit(game, status_before)
    return rnd


@dataclass(frozen=True, slots=True)
class SentRound:
    """A queued round (a table phone's or a director's sheet's offline queue), as the
    server took it.

    `round` is the stored round; `stored_already` says it was stored by an earlier send of
    the same `client_key` (a retry, a lost answer, a second tab replaying the queue).
    `game_token` is the game's `game_token` now: the queue sends it as `seen` with its next
    round. It is "" when the game changed since `round` was stored by more than the same
    queue's own later rounds (a correction, an undo, a round from elsewhere): the next
    queued round is then refused (`game_changed_meanwhile`) instead of applied over the
    newer state. `rounds` is the number of the game's rounds in that same state, read in
    the same transaction as the token: a count read after the commit may already hold
    another tab's next round, and a queue that pairs it with this token sends its next
    round on a state that never was.
    """

    round: Round
    stored_already: bool
    game_token: str
    rounds: int


def round_sent_before(
    game: Game, *, client_key: uuid.UUID, link: GameLink | None, user: Any = None
) -> SentRound | None:
    """The round of `game` stored already with `client_key`, or None for a new key.

    The sender is a table link (`link`) or, with `link` None, the director `user` on the
    score sheet. Its "own later rounds" (which keep its queue valid, each built on the one
    before) are the rounds added through the same link, or by the same director on the
    sheet. `game` must be locked (`game_locked`).

    Raises RuleViolation: `round_key_elsewhere` (the key belongs to another game or
    sender: a broken or forged queue), `round_removed_meanwhile` (param number: it was
    stored, then undone or removed; sending it again would bring it back).
    """
    rnd = Round.objects.filter(client_key=client_key).first()
    if rnd is None:
        removed = (
            Round.history.filter(client_key=client_key)
            .order_by("-history_id")
            .values_list("number", flat=True)
            .first()
        )
        if removed is not None:
            raise RuleViolation("round_removed_meanwhile", number=removed)
        return None
    link_id = link.pk if link is not None else None
    if rnd.game_id != game.pk or rnd.link_id != link_id:
        raise RuleViolation("round_key_elsewhere")
    added = (
        Round.history.filter(id=rnd.pk, history_type="+")
        .order_by("history_id")
        .values_list("history_id", flat=True)
        .first()
    )
    if link is not None:
        own = Q(history_type="+", link_id=link.pk)
    else:
        director = acting_user(user)
        own = Q(
            history_type="+",
            link_id=None,
            recorded_by_id=director.pk if director is not None else None,
        )
    # What happened to the game since: only the sender's own later rounds keep its queue
    # valid; anything else (a correction, an undo, a round from elsewhere, a rejection)
    # makes the next queued round a refusal.
    changed = (
        added is None
        or Round.history.filter(game_id=game.pk, history_id__gt=added).exclude(own).exists()
    )
    rounds = list(game.rounds.all())
    token = "" if changed else game_token(game, rounds)
    return SentRound(round=rnd, stored_already=True, game_token=token, rounds=len(rounds))


@transaction.atomic
def game_round_send(
    *,
    game_id: int,
    expected_number: int,
    result: str,
    side: str,
    client_key: uuid.UUID,
    seen: str,
    caller_id: int | None = None,
    tricks: tuple[int, int] | None = None,
    user: Any = None,
) -> SentRound:
    """Record the next round of a game from the director's score sheet's offline queue
    (static/js/sheet_queue.js): `round_record`, made idempotent and chained.

    `client_key` is the idempotency key the sheet made for this round: a key stored on
    this game already (a retry, a lost answer, two tabs replaying one queue) returns that
    round (`stored_already`), nothing stored twice. `seen` is the `game_token` the sheet
    built the round on (the page's, then each answer's `game_token`): a new round on
    another state (a table phone's round, another director, a close, a correction) is
    refused, never applied over it. `expected_number` is the number the sheet gave it.

    Raises RuleViolation: `game_unknown`, `round_key_elsewhere`,
    `round_removed_meanwhile` (param number), `game_changed_meanwhile`, and everything
    `round_record` raises (`game_finished` on a game that is over, the engine's rules).
    """
    game = game_locked(game_id)
    sent = round_sent_before(game, client_key=client_key, link=None, user=user)
    if sent is not None:
        return sent
    rounds = list(game.rounds.order_by("number"))
    if seen != game_token(game, rounds):
        raise RuleViolation("game_changed_meanwhile")
    rnd = round_record_locked(
        game,
        rounds,
        expected_number=expected_number,
        result=result,
        side=side,
        caller_id=caller_id,
        tricks=tricks,
        user=user,
        client_key=client_key,
    )
    # `game` holds its new state: the token as stored, without reading it back.
    return SentRound(
        round=rnd,
        stored_already=False,
        game_token=game_token(game, [*rounds, rnd]),
        rounds=len(rounds) + 1,
    )


@transaction.atomic
def round_correct(
    *,
    round_id: int,
    result: str,
    side: str,
    caller_id: int | None = None,
    tricks: tuple[int, int] | None = None,
    seen: str,
    user: Any = None,
) -> Round:
    """Change what happened in one round; the whole game is replayed with the change.

    `seen` (required) is the round's `token` when the director opened the correction: if
    the round was corrected meanwhile (another phone, another tab), nothing is
    overwritten. When it already says what is asked (the form sent twice, or saved as it
    was opened), nothing is written and the round is returned as it is.

    A correction that breaks a later round (a caller out of turn, a round after the new
    end of the game) is refused with that round's number. A correction that changes the
    winner reopens or recloses the game; one that leaves a disputed game open decides the
    dispute as corrected by director `user` (`dispute_corrected_if_open`).

    Raises RuleViolation: `round_unknown`, `round_changed`, `correction_ends_game`, and
    everything `round_record` raises.
    """
    game_id = Round.objects.filter(pk=round_id).values_list("game_id", flat=True).first()
    if game_id is None:
        raise RuleViolation("round_unknown", round_id=round_id)
    game = game_locked(game_id)
    rounds = list(game.rounds.order_by("number"))
    target = round_of(rounds, round_id)
    if _same_round(target, result=result, side=side, caller_id=caller_id, tricks=tricks):
        return target  # says so already: nothing to write, no history row, no refresh
    if seen != target.token:
        raise RuleViolation("round_changed", round=target.number)
    try:
        changed = round_input(game, result=result, side=side, caller_id=caller_id, tricks=tricks)
    except RuleViolation as exc:
        raise exc.at(round=target.number) from None
    inputs = game_round_inputs(game, rounds)
    inputs[target.number - 1] = changed
    try:
        replay = game_inputs_replay(game, inputs)
    except RuleViolation as exc:
        if exc.code == "game_finished" and exc.params.get("round", 0) > target.number:
            # Said from the round being corrected: it ends the game, later rounds exist.
            raise RuleViolation(
                "correction_ends_game",
                round=target.number,
                ends_at=exc.params["round"] - 1,
                rounds=len(rounds),
            ) from None
        raise
    target.result, target.side, target.caller_id = (
        changed.result.value,
        changed.side.value,
        caller_id,
    )
    target.tricks_a, target.tricks_b = (tricks[0], tricks[1]) if tricks else (None, None)
    # Its new points in the same save: one history row for the correction, not a second
    # one for its points (`round_points_sync` then saves only the later rounds it moved).
    points = replay.points[target.number - 1]
    target.points_a, target.points_b = points.a, points.b
    target.save(
        update_fields=["result", "side", "caller", "tricks_a", "tricks_b", "points_a", "points_b"]
    )
    round_points_sync(rounds, replay)
    status_before = game.status
    game_state_store(game, replay)
    game_refresh_on_commit(game, status_before)
    dispute_corrected_if_open(game, user)
    return target


def round_of(rounds: Sequence[Round], round_id: int) -> Round:
    # Looked up again under the game lock: the round may have gone since it was found.
    found = next((r for r in rounds if r.pk == round_id), None)
    if found is None:
        raise RuleViolation("round_unknown", round_id=round_id)
    return found


@transaction.atomic
def round_delete(*, round_id: int, seen: str, user: Any = None) -> None:
    """Delete one round; later rounds move up one number.

    `seen` (required) is the round's `token` on the page that asked to delete it: a round
    corrected meanwhile is not deleted unseen (`round_changed`). The rest of the game is
    replayed: deleting a round that later rounds depend on (the caller rotation) is
    refused with the reason. A disputed game left open has its dispute decided as
    corrected by director `user` (`dispute_corrected_if_open`).

    Raises RuleViolation: `round_unknown` (also when it was deleted meanwhile, or the form
    was sent twice), `round_changed`, and engine violations of the later rounds.
    """
    game_id = Round.objects.filter(pk=round_id).values_list("game_id", flat=True).first()
    if game_id is None:
        raise RuleViolation("round_unknown", round_id=round_id)
    game = game_locked(game_id)
    rounds = list(game.rounds.order_by("number"))
    doomed = round_of(rounds, round_id)
    if seen != doomed.token:
        raise RuleViolation("round_changed", round=doomed.number)
    _round_remove(game, rounds, doomed)
    dispute_corrected_if_open(game, user)


@transaction.atomic
def round_undo(*, game_id: int, round_id: int, seen: str, user: Any = None) -> int:
    """Delete the last round of a game (the "undo" button of the score sheet); returns its
    number.

    `round_id` is the round the sheet showed as the last one and `seen` (required) the
    sheet's `game_token`: when the game changed meanwhile, nothing is undone. A disputed
    game left open has its dispute decided as corrected by director `user`
    (`dispute_corrected_if_open`).

    Raises RuleViolation: `game_unknown`, `round_unknown` (that round is gone already: the
    form sent twice, or deleted elsewhere), `game_changed_meanwhile`, and engine
    violations (none expected: the rounds before the last one stand as they are).
    """
    game = game_locked(game_id)
    rounds = list(game.rounds.order_by("number"))
    doomed = round_of(rounds, round_id)
    if seen != game_token(game, rounds) or doomed is not rounds[-1]:
        raise RuleViolation("game_changed_meanwhile")
    # simple-history stores this with the deletion: the history says "undone", not "deleted".
    doomed._change_reason = ROUND_UNDO_REASON  # type: ignore[attr-defined]
    _round_remove(game, rounds, doomed)
    dispute_corrected_if_open(game, user)
    return doomed.number


def _round_remove(game: Game, rounds: Sequence[Round], doomed: Round) -> None:
    """Delete `doomed` from the locked `game` whose stored `rounds` are given in order."""
    kept = [r for r in rounds if r.pk != doomed.pk]
    replay = game_inputs_replay(game, game_round_inputs(game, kept))
    doomed.delete()
    for rnd in kept:
        if rnd.number > doomed.number:
            # Ascending, one row at a time: the number below is always free already.
            rnd.number -= 1
            rnd.save(update_fields=["number"])
    round_points_sync(kept, replay)
    status_before = game.status
    game_state_store(game, replay)
    game_refresh_on_commit(game, status_before)
