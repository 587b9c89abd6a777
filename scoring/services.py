"""Writes: record, correct and delete rounds, enter totals, close games, rebuild standings.

Every write runs in one transaction with the game row locked, lets the rules engine replay
the game, saves the engine's verdict and, when the write can move the standings (most
rounds can't: `_game_refresh_needed`), queues `standings_refresh` once the transaction has
committed, one at a time per competition. Errors are `RuleViolation`s; nothing is saved
when one is raised.

A write that changes a stored result takes what its form saw, required: the round number
a new round gets, or a `seen` token (`scoring.tokens`) compared under the lock. A form
made before someone else's change is refused (`*_changed_meanwhile`); the same form sent
twice finds its work done and writes nothing again.
"""

from __future__ import annotations

import gc
import logging
import secrets
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import wraps
from operator import attrgetter
from typing import Any, ParamSpec, TypeVar

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Case, Exists, F, OuterRef, When
from django.utils import timezone
from simple_history.utils import bulk_create_with_history, bulk_update_with_history

from rankings.services import ratings_refresh_on_commit
from scoring import selectors
from scoring.engine_inputs import game_round_inputs, round_input
from scoring.messages import integrity_violation
from scoring.models import STANDING_COLUMNS, Game, GameDispute, GameLink, Round, Standing
from scoring.rules import (
    Replay,
    RoundInput,
    RuleViolation,
    StandingRow,
    check_game_totals,
    check_match_totals,
    replay,
)
from scoring.tokens import game_token, match_token
from tournaments.models import Competition, Match, Player, StandingsRefreshClaim, Team

logger = logging.getLogger(__name__)

# A sanity bound, not a game rule (RULES.md has no limit on redeals): a game to 20 has at
# most about 20 scoring rounds, and 200 leaves ample room for redeals and fixed-round
# formats. Without it one game of 100,000 redeals (a broken import, a stuck button) made a
# 61 MB public page and an admin page that never loaded. `game_rounds_load`, `round_record`
# and the importer refuse more (`game_too_many_rounds`).
MAX_ROUNDS_PER_GAME = 200

P = ParamSpec("P")
R = TypeVar("R")


def trigger_violations(service: Callable[P, R]) -> Callable[P, R]:
    """Decorate a service so an error of the database's triggers becomes its RuleViolation.

    The services check who plays where (`scoring.rules.places`) before they write, with the
    entries and the place named; the triggers (migrations tournaments/0004, scoring/0003)
    still refuse what a concurrent write slipped past that check. Their IntegrityError
    becomes `RuleViolation(code)` (`scoring.messages.integrity_violation`), so a view shows
    the rule (422) instead of a 500. Put it above `transaction.atomic`: the service's
    transaction (or savepoint) is rolled back before the violation leaves. Other
    IntegrityErrors pass unchanged.
    """

    @wraps(service)
    def guarded(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return service(*args, **kwargs)
        except IntegrityError as exc:
            violation = integrity_violation(exc)
            if violation is None:
                raise
            raise violation from exc

    return guarded


def acting_user(user: Any) -> Any:
    """The user to store as who did a write: `user` when logged in, else None (a table's
    phone, an import, a command or an anonymous request)."""
    return user if getattr(user, "is_authenticated", False) else None


def _game_locked(game_id: int) -> Game:
    # One writer per game: two phones at one table can't both add round 6, and a correction
    # can't interleave with a new round. `of=("self",)` keeps the competition row unlocked so
    # the other tables of the evening are not serialised behind this one.
    try:
        return (
            Game.objects.select_for_update(of=("self",))
            .select_related("match__matchday__competition")
            .get(pk=game_id)
        )
    except Game.DoesNotExist:
        raise RuleViolation("game_unknown", game=game_id) from None


def _replay(game: Game, inputs: Sequence[RoundInput], *, keep_closed: bool = True) -> Replay:
    """Replay `inputs` under the game's competition rules, from the game's first caller
    (set with the seats, `game_seats_set`); a director's close survives."""
    result = replay(
        game.match.matchday.competition.rule_set, inputs, first_caller=game.first_caller
    )
    if keep_closed and game.status == Game.Status.CLOSED and not result.state.finished:
        result = Replay(state=result.state.close(), points=result.points)
    return result


def game_state_set(game: Game, replay: Replay) -> None:
    """Set `game`'s derived fields (score, kaps, baunies, status) from the engine's replay;
    not saved. Shared by `_store_state` and the bulk importer (`tournaments.interchange.load`).
    """
    state = replay.state
    game.score_a, game.score_b = state.score.a, state.score.b
    game.kaps_a, game.kaps_b = state.kaps.a, state.kaps.b
    game.baunies_a, game.baunies_b = state.baunies.a, state.baunies.b
    if state.closed:
        game.status = Game.Status.CLOSED
    elif state.finished:
        game.status = Game.Status.FINISHED
    else:
        game.status = Game.Status.OPEN


def _store_state(game: Game, replay: Replay) -> None:
    before = (game.score_a, game.score_b, game.status)
    game_state_set(game, replay)
    fields = ["score_a", "score_b", "kaps_a", "kaps_b", "baunies_a", "baunies_b", "status"]
    if game.confirmed_at is not None and before != (game.score_a, game.score_b, game.status):
        # A confirmed result that a correction changed must be confirmed again.
        game.confirmed_at, game.confirmed_by, game.confirmed_side = None, None, ""
        fields += ["confirmed_at", "confirmed_by", "confirmed_side"]
    game.save(update_fields=fields)


def _standings_refresh_claim(competition_id: int) -> datetime | None:
    """Claim the one queued refresh of a competition (`StandingsRefreshClaim`); returns the
    claim's stamp when this caller should queue the task, None when one is queued already
    (it hasn't started, so it will see every write committed so far) or the competition is
    gone.

    Runs after the writer's commit, so it must never wait for a rebuild (a rebuild holds
    the competition row; this is another table's row). On PostgreSQL the claim row is
    skipped when locked: only a refresh task that holds the competition (and has seen every
    write committed before it got the lock: writers hold FOR KEY SHARE until they commit,
    `_standings_mark_stale`) or another claimer (whose task comes after now) lock it. A
    claim older than `STANDINGS_SWEEP_SECONDS` belongs to a task that was lost (a killed
    worker); it is taken over, so at worst one more task a sweep interval is queued.
    """
    connection = transaction.get_connection()
    now = timezone.now()
    cutoff = now - timedelta(seconds=settings.STANDINGS_SWEEP_SECONDS)
    table = connection.ops.quote_name(StandingsRefreshClaim._meta.db_table)
    stamp = connection.ops.adapt_datetimefield_value(now)
    if connection.vendor == "postgresql":
        claim = (
            f"UPDATE {table} SET queued_at = %s WHERE competition_id = ("
            f"SELECT competition_id FROM {table} WHERE competition_id = %s"
            " AND (queued_at IS NULL OR queued_at < %s) FOR UPDATE SKIP LOCKED)"
        )
    else:  # SQLite: one writer at a time, nothing to skip
        claim = (
            f"UPDATE {table} SET queued_at = %s WHERE competition_id = %s"
            " AND (queued_at IS NULL OR queued_at < %s)"
        )
    with connection.cursor() as cursor:
        cursor.execute(
            claim, [stamp, competition_id, connection.ops.adapt_datetimefield_value(cutoff)]
        )
        if cursor.rowcount == 1:
            return now
        if StandingsRefreshClaim.objects.filter(pk=competition_id).exists():
            return None
        # The competition's first refresh: its claim row is made claimed. (No task can hold
        # a row that isn't there yet; a concurrent first claimer makes it, and queues.)
        competitions = connection.ops.quote_name(Competition._meta.db_table)
        cursor.execute(
            f"INSERT INTO {table} (competition_id, queued_at) SELECT id, %s FROM {competitions}"
            " WHERE id = %s ON CONFLICT DO NOTHING",
            [stamp, competition_id],
        )
        return now if cursor.rowcount == 1 else None


def _enqueue_standings_refresh(competition_id: int) -> None:
    """After a commit: queue a `standings_refresh` unless one is queued already (the claim)."""
    from scoring.tasks import standings_refresh

    claimed = _standings_refresh_claim(competition_id)
    if claimed is None:
        return
    try:
        standings_refresh.delay(competition_id=competition_id)
    except Exception:
        # The result is saved already; the broker being down must not turn that into an
        # error page. The claim goes (so the next saved result tries again) and the mark
        # stays: the sweep, or `manage.py standings --refresh`, catches up.
        StandingsRefreshClaim.objects.filter(pk=competition_id, queued_at=claimed).update(
            queued_at=None
        )
        logger.exception("standings_refresh not queued for competition %s", competition_id)


def _standings_mark_stale(competition_id: int) -> None:
    """Set `Competition.standings_stale_since` (now) unless a refresh is owed already."""
    connection = transaction.get_connection()
    if connection.vendor == "postgresql":
        # FOR KEY SHARE waits for a rebuild of this competition that runs now (it holds the
        # row FOR UPDATE) and keeps the next one from starting before this write commits,
        # so no rebuild can miss this write and still clear its mark. It conflicts with
        # nothing else a writer takes, so the tables of an evening don't queue behind each
        # other. A mark seen under it can't be cleared before this transaction ends.
        table = connection.ops.quote_name(Competition._meta.db_table)
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT standings_stale_since FROM {table} WHERE id = %s FOR KEY SHARE",
                [competition_id],
            )
            row = cursor.fetchone()
        if row is None or row[0] is not None:
            return
    # Only the first write after a rebuild sets the mark (the oldest write still owed); the
    # condition keeps concurrent writers from overwriting each other's mark.
    Competition.objects.filter(pk=competition_id, standings_stale_since__isnull=True).update(
        standings_stale_since=timezone.now()
    )


class StandingsRefreshOnCommit:
    """The on-commit callback of `standings_refresh_on_commit`: the refresh one
    competition (`competition_id`) is owed by the writes of one transaction.

    Every write that owes it registers it (`transaction.on_commit`), and its first run after
    the commit queues the task (`_enqueue_standings_refresh`); its other runs do nothing,
    so a transaction of many writes costs one claim, not one a write. Registering it from
    each write, not only the first, keeps it owed when a savepoint holding an earlier
    registration is rolled back: Django drops the callbacks of that savepoint, and the
    writes after it register it again.
    """

    __slots__ = ("competition_id", "done")

    def __init__(self, competition_id: int) -> None:
        self.competition_id = competition_id
        self.done = False

    def __call__(self) -> None:
        if self.done:
            return
        self.done = True
        _enqueue_standings_refresh(self.competition_id)

    def __repr__(self) -> str:
        state = "run" if self.done else "pending"
        return f"<StandingsRefreshOnCommit competition={self.competition_id} {state}>"


class _RefreshesOwed(threading.local):
    """Per thread (a database connection and its transaction belong to one thread): the
    `StandingsRefreshOnCommit` of each competition that the next commit may run. Replaced
    once it has run; one whose transaction rolled back never runs and serves the next."""

    def __init__(self) -> None:
        self.by_competition: dict[int, StandingsRefreshOnCommit] = {}


_refreshes_owed = _RefreshesOwed()


def standings_refresh_on_commit(competition_id: int) -> None:
    """Mark the competition's standings stale now and, once the transaction commits, queue
    a `standings_refresh` unless one is queued already and hasn't started
    (`_standings_refresh_claim`: a burst of results queues one refresh, issue 7).

    Called by every write that can move the standings, inside its transaction (a game
    write only when `_game_refresh_needed` says it can): the mark
    (`Competition.standings_stale_since`) commits or rolls back with the write, and stays
    until a rebuild that saw the write clears it (`standings_rebuild`), so a refresh lost
    to a down broker or a killed worker is redone by the `standings_refresh_stale` sweep.

    An import or a batch of corrections in one transaction queues one refresh per
    competition, not one per round: its writes share one `StandingsRefreshOnCommit`, which
    claims and queues once after the commit. Each write marks (a query; a mark there
    already is kept) and registers the callback, so a savepoint rolled back takes only its
    own mark and registration with it.
    """
    _standings_mark_stale(competition_id)
    owed = _refreshes_owed.by_competition
    refresh = owed.get(competition_id)
    if refresh is None or refresh.done:
        refresh = owed[competition_id] = StandingsRefreshOnCommit(competition_id)
    transaction.on_commit(refresh)
    # What moves the standings can move the player ratings (issue 10): their own refresh,
    # queued after the standings' one.
    ratings_refresh_on_commit()


def _game_refresh_needed(game: Game, before: str) -> bool:
    """Whether a write that took locked `game` from status `before` to `game.status` can
    move its competition's standings. Issue 7: most rounds can't, and then the write
    neither marks the standings stale nor queues a refresh.

    The standings read a game only through its match, and only once the match counts:
    forfeited, reported, or every game over and confirmed if required
    (`competition_standings_inputs`); a bye counts once its matchday has a game over
    (`matchday_results`). A write that leaves the game OPEN before and after (a round that
    doesn't end it, a correction, delete or undo inside an open game, rounds loaded that
    don't end it) changes nothing they read: the match has an open game before and after,
    and the game is no finished game of its matchday. The exception is a forfeited match,
    whose outcome still counts the kaps and baunies of all its games
    (`competition_match_sums`). Every other game write (to or from OPEN, between FINISHED
    and CLOSED, on an over game) can move them; so can confirmations, totals and writes on
    matches, byes, deductions and the schedule, which call `standings_refresh_on_commit`
    directly.

    The forfeit is the one read with the game lock (no extra query, no match lock: the
    schedule services lock a match before its games). A forfeit committed while this write
    is in flight may be refreshed without this write's kap or baunie of an open game; the
    next refresh of the competition counts it.
    """
    if before != Game.Status.OPEN or game.status != Game.Status.OPEN:
        return True
    return bool(game.match.forfeit)


def _game_refresh_on_commit(game: Game, before: str) -> None:
    """`standings_refresh_on_commit` for a write on locked `game` when it can move the
    standings (`_game_refresh_needed`); `before` is the game's status before the write."""
    if _game_refresh_needed(game, before):
        standings_refresh_on_commit(game.match.matchday.competition_id)


def _sync_points(rounds: Sequence[Round], replay: Replay) -> None:
    changed = []
    for rnd, points in zip(rounds, replay.points, strict=True):
        if (rnd.points_a, rnd.points_b) != (points.a, points.b):
            rnd.points_a, rnd.points_b = points.a, points.b
            changed.append(rnd)
    for rnd in changed:
        rnd.save(update_fields=["points_a", "points_b"])


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
    bulk importer (`tournaments.interchange.load`); `game` may be unsaved, with its match
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
    return _replay(game, inputs)


@transaction.atomic
def game_rounds_load(*, game_id: int, rounds: Sequence[RoundRecord], user: Any = None) -> Game:
    """Load all rounds of a game that has none yet (an import, a paper sheet typed in).

    The engine replays them in one go and the rounds are saved with one insert; the result
    is exactly as if each had gone through `round_record`.

    Raises RuleViolation: `game_unknown`, `game_has_totals`, `game_has_rounds`,
    `game_too_many_rounds` (params limit, rounds: more than `MAX_ROUNDS_PER_GAME`), and
    every violation `round_record` raises, with `round` = the number of the first bad round.
    """
    game = _game_locked(game_id)
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
    _store_state(game, replay)
    _game_refresh_on_commit(game, status_before)
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
) -> Round:
    """Add the next round to a game and return it, with its points from the engine.

    `result` is a RULES.md round result, `side` "a" or "b" (the team the result is about),
    `caller_id` a player seated at the game, `tricks` (team a, team b) or None.
    `expected_number` (required) is the round number the scorer's form was made for: when
    another phone, or the same form sent twice, recorded that round meanwhile, nothing is
    saved twice. A round loaded without a form goes through `game_rounds_load`. `link` is
    the table link the round was entered with (`table_round_record`), None for a director.

    Raises RuleViolation: `game_unknown`, `game_has_totals`, `round_already_recorded`
    (param number: that round is stored already, exactly like this: a form sent twice),
    `sheet_changed` (params number, recorded), `sheet_rounds_removed` (the same params: the
    form is for a later round than the next), `game_too_many_rounds` (params limit, rounds:
    the game has `MAX_ROUNDS_PER_GAME` already), `result_unknown`, `seats_required`,
    `caller_not_at_table`, and every engine violation for this round (`round` = its number).
    """
    game = _game_locked(game_id)
    if game.by_totals:
        raise RuleViolation("game_has_totals")
    rounds = list(game.rounds.order_by("number"))
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
        before = _replay(game, game_round_inputs(game, rounds))
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
    )
    status_before = game.status
    _store_state(game, Replay(state=step.state, points=(*before.points, step.points)))
    _game_refresh_on_commit(game, status_before)
    return rnd


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
    overwritten; when it already says what is asked (the form sent twice), nothing is
    written and the round is returned as it is.

    A correction that breaks a later round (a caller out of turn, a round after the new
    end of the game) is refused with that round's number. A correction that changes the
    winner reopens or recloses the game; one that leaves a disputed game open decides the
    dispute as corrected by director `user` (`_dispute_corrected_if_open`).

    Raises RuleViolation: `round_unknown`, `round_changed`, `correction_ends_game`, and
    everything `round_record` raises.
    """
    game_id = Round.objects.filter(pk=round_id).values_list("game_id", flat=True).first()
    if game_id is None:
        raise RuleViolation("round_unknown", round_id=round_id)
    game = _game_locked(game_id)
    rounds = list(game.rounds.order_by("number"))
    target = _round_of(rounds, round_id)
    if seen != target.token:
        if _same_round(target, result=result, side=side, caller_id=caller_id, tricks=tricks):
            return target
        raise RuleViolation("round_changed", round=target.number)
    try:
        changed = round_input(game, result=result, side=side, caller_id=caller_id, tricks=tricks)
    except RuleViolation as exc:
        raise exc.at(round=target.number) from None
    inputs = game_round_inputs(game, rounds)
    inputs[target.number - 1] = changed
    try:
        replay = _replay(game, inputs)
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
    target.save(update_fields=["result", "side", "caller", "tricks_a", "tricks_b"])
    _sync_points(rounds, replay)
    status_before = game.status
    _store_state(game, replay)
    _game_refresh_on_commit(game, status_before)
    _dispute_corrected_if_open(game, user)
    return target


def _round_of(rounds: Sequence[Round], round_id: int) -> Round:
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
    corrected by director `user` (`_dispute_corrected_if_open`).

    Raises RuleViolation: `round_unknown` (also when it was deleted meanwhile, or the form
    was sent twice), `round_changed`, and engine violations of the later rounds.
    """
    game_id = Round.objects.filter(pk=round_id).values_list("game_id", flat=True).first()
    if game_id is None:
        raise RuleViolation("round_unknown", round_id=round_id)
    game = _game_locked(game_id)
    rounds = list(game.rounds.order_by("number"))
    doomed = _round_of(rounds, round_id)
    if seen != doomed.token:
        raise RuleViolation("round_changed", round=doomed.number)
    _round_remove(game, rounds, doomed)
    _dispute_corrected_if_open(game, user)


@transaction.atomic
def round_undo(*, game_id: int, round_id: int, seen: str, user: Any = None) -> int:
    """Delete the last round of a game (the "undo" button of the score sheet); returns its
    number.

    `round_id` is the round the sheet showed as the last one and `seen` (required) the
    sheet's `game_token`: when the game changed meanwhile, nothing is undone. A disputed
    game left open has its dispute decided as corrected by director `user`
    (`_dispute_corrected_if_open`).

    Raises RuleViolation: `game_unknown`, `round_unknown` (that round is gone already: the
    form sent twice, or deleted elsewhere), `game_changed_meanwhile`, and engine
    violations (none expected: the rounds before the last one stand as they are).
    """
    game = _game_locked(game_id)
    rounds = list(game.rounds.order_by("number"))
    doomed = _round_of(rounds, round_id)
    if seen != game_token(game, rounds) or doomed is not rounds[-1]:
        raise RuleViolation("game_changed_meanwhile")
    # simple-history stores this with the deletion: the history says "undone", not "deleted".
    doomed._change_reason = selectors.ROUND_UNDO_REASON  # type: ignore[attr-defined]
    _round_remove(game, rounds, doomed)
    _dispute_corrected_if_open(game, user)
    return doomed.number


def _round_remove(game: Game, rounds: Sequence[Round], doomed: Round) -> None:
    """Delete `doomed` from the locked `game` whose stored `rounds` are given in order."""
    kept = [r for r in rounds if r.pk != doomed.pk]
    replay = _replay(game, game_round_inputs(game, kept))
    doomed.delete()
    for rnd in kept:
        if rnd.number > doomed.number:
            # Ascending, one row at a time: the number below is always free already.
            rnd.number -= 1
            rnd.save(update_fields=["number"])
    _sync_points(kept, replay)
    status_before = game.status
    _store_state(game, replay)
    _game_refresh_on_commit(game, status_before)


def _write_needed(game: Game, rounds: Sequence[Round], seen: str, *, done: bool) -> bool:
    """Whether a write on `game` goes ahead. The form must have seen the game as it is now
    (`seen` is its `game_token`), except when what it asks is `done` already: then a stale
    form (the button pressed twice) is answered with False, nothing to write.

    Raises RuleViolation: `game_changed_meanwhile`.
    """
    if seen == game_token(game, rounds):
        return True
    if done:
        return False
    raise RuleViolation("game_changed_meanwhile")


def game_close_replay(game: Game, replay: Replay) -> Replay:
    """`replay` (of `game`'s rounds, by the engine) as the director's close leaves it. Shared
    by `game_close` and the bulk importer (`tournaments.interchange.load`).

    Raises RuleViolation: `game_finished` (entered totals, or over already),
    `close_not_allowed`.
    """
    if game.by_totals:  # a game entered as totals has no rounds: replaying them raised nothing
        raise RuleViolation("game_finished", score_a=game.score_a, score_b=game.score_b)
    return Replay(state=replay.state.close(), points=replay.points)


@transaction.atomic
def game_close(*, game_id: int, seen: str) -> Game:
    """End a game before its natural end, as the director does at a time limit.

    `seen` (required) is the `game_token` the director's page showed: a game changed
    meanwhile is not closed unseen. A stale form on a game closed already (the button
    pressed twice) changes nothing.

    Raises RuleViolation: `game_unknown`, `game_changed_meanwhile`, `close_not_allowed`,
    `game_finished`.
    """
    game = _game_locked(game_id)
    rounds = list(game.rounds.order_by("number"))
    if not _write_needed(game, rounds, seen, done=game.status == Game.Status.CLOSED):
        return game
    replay = _replay(game, game_round_inputs(game, rounds))
    _store_state(game, game_close_replay(game, replay))
    standings_refresh_on_commit(game.match.matchday.competition_id)
    return game


@transaction.atomic
def game_reopen(*, game_id: int, seen: str, user: Any = None) -> Game:
    """Undo a director's close (or clear entered totals): the game is open again.

    `seen` (required) is the `game_token` the director's page showed: a game changed
    meanwhile is not reopened unseen. A stale form on a game open already (the button
    pressed twice) changes nothing. A disputed game has its dispute decided as corrected by
    director `user` (`_dispute_corrected_if_open`).

    Raises RuleViolation: `game_unknown`, `game_changed_meanwhile`, `game_not_closed`.
    """
    game = _game_locked(game_id)
    rounds = list(game.rounds.order_by("number"))
    already_open = game.status == Game.Status.OPEN and not game.by_totals
    if not _write_needed(game, rounds, seen, done=already_open):
        return game
    if game.by_totals:
        game.total_a = game.total_b = None
        game.save(update_fields=["total_a", "total_b"])
    elif game.status != Game.Status.CLOSED:
        raise RuleViolation("game_not_closed")
    replay = _replay(game, game_round_inputs(game, rounds), keep_closed=False)
    status_before = game.status
    _store_state(game, replay)
    _game_refresh_on_commit(game, status_before)
    _dispute_corrected_if_open(game, user)
    return game


def game_seats_token(game: Game, rounds: Sequence[Round]) -> str:
    """The token of a game's seating as its score sheet shows it: the `game_token` (the
    seats can't change once a round exists) and the four seats and the first caller."""
    values = (*game.seats, game.first_caller)
    seating = ".".join("" if value is None else str(value) for value in values)
    return f"{game_token(game, rounds)}:{seating}"


@transaction.atomic
def game_seats_set(
    *, game_id: int, seats: Sequence[int | None], first_caller: int | None, seen: str
) -> Game:
    """Seat the four players of a game and say which seat calls round 1, before it starts.

    `seats` are four player ids clockwise, seats 1 and 3 koppel A's two players and seats 2
    and 4 koppel B's (RULES.md "Terms"), or four Nones to clear them; `first_caller` is
    the seat (1-4) found by dealing until a jack (RULES.md "Who calls next"), or None
    while not known. From it the engine checks and proposes every caller
    (`_replay`, `selectors.game_next_caller`). `seen` (required) is the
    `game_seats_token` the sheet showed: seats changed or rounds entered meanwhile are
    not overwritten; the same form sent twice finds its seats stored and changes nothing.
    Who may sit is `selectors.game_setup_check`, as in the admin.

    Raises RuleViolation: `game_unknown`, `game_changed_meanwhile`, `game_has_rounds_setup`
    (rounds depend on the seats), `seats_incomplete`, `seats_do_not_fit`,
    `seat_player_twice`, `game_koppels_share_player`, `seat_invalid` (param seat: a first
    caller outside 1-4), `seats_required` (a first caller without seats),
    `match_reported_totals`.
    """
    game = _game_locked(game_id)
    rounds = list(game.rounds.order_by("number"))
    wanted = tuple(seats)
    if len(wanted) != 4:
        raise RuleViolation("seats_incomplete")
    if (game.seats, game.first_caller) == (wanted, first_caller):
        return game  # stored already (the form sent twice): nothing to change
    if seen != game_seats_token(game, rounds):
        raise RuleViolation("game_changed_meanwhile")
    if rounds:
        raise RuleViolation("game_has_rounds_setup")
    if first_caller is not None:
        if isinstance(first_caller, bool) or first_caller not in (1, 2, 3, 4):
            raise RuleViolation("seat_invalid", seat=first_caller)
        if None in wanted:
            raise RuleViolation("seats_required")
    players = Player.objects.in_bulk([pk for pk in wanted if pk is not None])
    if len(players) != len({pk for pk in wanted if pk is not None}):
        raise RuleViolation("seats_do_not_fit")  # an id that is nobody's: not their player
    match = Match.objects.select_related(
        "matchday__competition",
        "home__team__player_1",
        "home__team__player_2",
        "away__team__player_1",
        "away__team__player_2",
    ).get(pk=game.match_id)
    koppels = Team.objects.select_related("player_1", "player_2").in_bulk(
        [game.team_a_id, game.team_b_id]
    )
    # `game=None`: the rounds were refused above, so the "rounds exist" check is done.
    selectors.game_setup_check(
        match=match,
        team_a=koppels[game.team_a_id],
        team_b=koppels[game.team_b_id],
        seats=[players[pk] if pk is not None else None for pk in wanted],
    )
    game.seat_1_id, game.seat_2_id, game.seat_3_id, game.seat_4_id = wanted
    game.first_caller = first_caller
    game.save(update_fields=["seat_1", "seat_2", "seat_3", "seat_4", "first_caller"])
    return game


def game_totals_set(game: Game, total_a: int, total_b: int) -> None:
    """Set `game` to the final totals given (not saved), once the engine found them
    plausible (`check_game_totals`, RULES.md points). Shared by `game_totals_enter` and the
    bulk importer (`tournaments.interchange.load`).

    Raises RuleViolation: the `check_game_totals` codes.
    """
    check_game_totals(total_a, total_b, game.match.matchday.competition.rule_set)
    game.total_a, game.total_b = total_a, total_b
    game.score_a, game.score_b = total_a, total_b
    game.kaps_a = game.kaps_b = game.baunies_a = game.baunies_b = 0
    game.status = Game.Status.FINISHED
    # New totals need a new confirmation.
    game.confirmed_at, game.confirmed_by, game.confirmed_side = None, None, ""


@transaction.atomic
def game_totals_enter(*, game_id: int, total_a: int, total_b: int, seen: str) -> Game:
    """Record a game known only by its final totals (a paper sheet); the game is over.

    `seen` (required) is the `game_token` the director's page showed (an import passes
    the token of the game it has just made): totals or rounds entered meanwhile are not
    overwritten. A stale form whose totals are stored already (sent twice) changes
    nothing. Checked for plausibility (RULES.md points; DESIGN.md: "a team total of 1 or
    3 can't happen").

    Raises RuleViolation: `game_unknown`, `game_changed_meanwhile`, `game_has_rounds`,
    and the `check_game_totals` codes.
    """
    game = _game_locked(game_id)
    rounds = list(game.rounds.order_by("number"))
    stored = (game.total_a, game.total_b) == (total_a, total_b)
    if not _write_needed(game, rounds, seen, done=stored):
        return game
    if rounds:
        raise RuleViolation("game_has_rounds")
    game_totals_set(game, total_a, total_b)
    game.save()
    standings_refresh_on_commit(game.match.matchday.competition_id)
    return game


@transaction.atomic
def match_totals_enter(*, match_id: int, total_home: int, total_away: int, seen: str) -> Match:
    """Record a match known only as reported totals (a newspaper result).

    `seen` (required) is the `match_token` the director's page showed (an import passes
    the token of the match it has just made): totals, games or a forfeit entered
    meanwhile are not overwritten. A stale form whose totals are stored already (sent
    twice) changes nothing.

    Raises RuleViolation: `match_unknown`, `match_changed_meanwhile`, `match_has_games`,
    and the `check_match_totals` codes.
    """
    try:
        match = (
            Match.objects.select_for_update(of=("self",))
            .select_related("matchday__competition")
            .get(pk=match_id)
        )
    except Match.DoesNotExist:
        raise RuleViolation("match_unknown", match=match_id) from None
    game_ids = list(match.games.values_list("pk", flat=True))
    if seen != match_token(match, game_ids):
        if (match.total_home, match.total_away) == (total_home, total_away):
            return match
        raise RuleViolation("match_changed_meanwhile")
    if game_ids:
        raise RuleViolation("match_has_games")
    check_match_totals(total_home, total_away, match.matchday.competition.rule_set)
    match.total_home, match.total_away = total_home, total_away
    match.save(update_fields=["total_home", "total_away"])
    standings_refresh_on_commit(match.matchday.competition_id)
    return match


@transaction.atomic
def competition_games_rescore(*, competition_id: int) -> int:
    """Re-score every game of a competition under its current rules; returns games changed.

    Run after a league admin changes the rule options, so stored points, game status and
    standings follow the new rules. All the competition's games are locked first.

    Raises RuleViolation from the first game that the new rules break (`game` = its id,
    `round` when a round breaks them); then nothing is changed.
    """
    competition = Competition.objects.get(pk=competition_id)
    # Lock every game: no round may be added under the old rules while we re-score.
    list(
        Game.objects.select_for_update(of=("self",))
        .filter(match__matchday__competition=competition)
        .values_list("pk", flat=True)
    )
    changed = 0
    for game, rounds, game_replay in selectors.competition_games_replay(
        competition=competition, rules=competition.rule_set
    ):
        if game_replay is None:
            continue
        before = (game.score_a, game.score_b, game.status)
        _sync_points(rounds, game_replay)
        _store_state(game, game_replay)
        changed += before != (game.score_a, game.score_b, game.status)
    standings_refresh_on_commit(competition_id)
    return changed


def _standings_locked(competition_id: int) -> Competition | None:
    # Serialise rebuilds of one competition: two workers must not interleave their upserts.
    # FOR UPDATE also waits for writes that have marked the standings stale and not yet
    # committed (they hold the row FOR KEY SHARE), so the rebuild sees them.
    return Competition.objects.select_for_update().filter(pk=competition_id).first()


def _standings_write(
    competition_id: int, rows: Sequence[StandingRow], computed_at: datetime
) -> None:
    """Make `rows` the stored standings of a competition: insert the new rows, rewrite the
    rows with a changed value (stamped `computed_at`), delete the rows of entries gone.

    A row whose values are unchanged is left as it is, stamp included: after one more
    result most of a 1,000-row table stays the same, and rewriting every row took 3/4 of
    the upsert (issue 7). So `computed_at` says when a row's values were computed, and the
    table's newest stamp when it last changed; when it was last computed is
    `Competition.standings_computed_at`, and whether it is behind is the mark's job
    (`Competition.standings_stale_since`).

    PostgreSQL: one statement (each column as an array literal, `unnest`, a deleting CTE,
    INSERT … ON CONFLICT): no model instances, no per-value adaptation (`bulk_create` of
    1,000 `Standing`s took 0.35 s). SQLite: a delete and one prepared upsert, executemany.
    """
    connection = transaction.get_connection()
    quote = connection.ops.quote_name
    table = quote(Standing._meta.db_table)
    # The model's fields of the same names, whose columns are named as the fields are.
    columns = [quote(name) for name in STANDING_COLUMNS]
    names = ", ".join(columns)
    stamped = [*columns, quote("computed_at")]
    refresh = ", ".join(f"{column} = excluded.{column}" for column in stamped)
    stored = ", ".join(f"{table}.{column}" for column in columns)
    computed = ", ".join(f"excluded.{column}" for column in columns)
    differs = "IS DISTINCT FROM" if connection.vendor == "postgresql" else "IS NOT"
    upsert = (
        f"ON CONFLICT (competition_id, entry_id) DO UPDATE SET {refresh}"
        f" WHERE ({stored}) {differs} ({computed})"
    )
    stamp = connection.ops.adapt_datetimefield_value(computed_at)
    values = list(map(attrgetter("entry", *STANDING_COLUMNS), rows))
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # Each column as one array literal ("{3,1,NULL}"), made by one %-format: psycopg
            # adapting 16,000 Python ints one by one took longer than the upsert itself. The
            # values are ints or None (head_to_head), so "None" is only ever a whole element.
            literal = "{" + ",".join(["%s"] * len(values)) + "}"
            arrays = [
                (literal % column).replace("None", "NULL") for column in zip(*values, strict=True)
            ] or ["{}"] * (len(columns) + 1)
            unnest = ", ".join(["%s::integer[]"] * len(arrays))
            # The unchanged rows are left out by one hash join with the stored rows before
            # the upsert: ON CONFLICT finding and skipping them one by one took 4.6 µs a row
            # (issue 7). The upsert's own filter stays for a row stored meanwhile.
            old = ", ".join(f"old.{column}" for column in columns)
            fresh = ", ".join(f"new.{column}" for column in columns)
            cursor.execute(
                f"WITH new (entry_id, {names}) AS (SELECT * FROM unnest({unnest})), "
                f"gone AS (DELETE FROM {table} WHERE competition_id = %s"
                " AND entry_id NOT IN (SELECT entry_id FROM new)) "
                f"INSERT INTO {table} (competition_id, computed_at, entry_id, {names}) "
                f"SELECT %s, %s, new.* FROM new LEFT JOIN {table} old"
                " ON old.competition_id = %s AND old.entry_id = new.entry_id"
                f" WHERE old.entry_id IS NULL OR ({old}) IS DISTINCT FROM ({fresh}) {upsert}",
                [*arrays, competition_id, competition_id, stamp, competition_id],
            )
            return
        Standing.objects.filter(competition_id=competition_id).exclude(
            entry_id__in=[value[0] for value in values]
        ).delete()
        marks = ", ".join(["%s"] * (len(columns) + 3))
        cursor.executemany(
            f"INSERT INTO {table} (competition_id, computed_at, entry_id, {names}) "
            f"VALUES ({marks}) {upsert}",
            [(competition_id, stamp, *value) for value in values],
        )


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector for one rebuild.

    A rebuild at 1,000 koppels makes some 40,000 short-lived objects (a score and an outcome
    per match, rows, lists), none in a reference cycle: reference counting frees them all.
    Their allocation set off dozens of collections, and about one full collection of the
    whole worker heap (Django, Celery) a rebuild, a fifth of its time (issue 7). Collection
    resumes, and catches up, when the rebuild is done.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _standings_store(competition: Competition) -> int:
    """Compute and store the standings of locked `competition`; compare-and-clear its mark."""
    seen = competition.standings_stale_since
    now = timezone.now()
    with _collector_paused():
        rows = selectors.competition_table(competition=competition)
        _standings_write(competition.pk, rows, now)
    # The stamp the page shows as "as of", and the mark compare-and-cleared: a write marked
    # after this rebuild started (a new value) stays owed.
    Competition.objects.filter(pk=competition.pk).update(
        standings_computed_at=now,
        standings_stale_since=Case(
            When(standings_stale_since=seen, then=None), default=F("standings_stale_since")
        ),
    )
    return len(rows)


@transaction.atomic
def standings_rebuild(*, competition_id: int) -> int:
    """Recompute a competition's standings from its finished matches; returns rows written.

    Always rebuilds (an import, `manage.py standings --refresh`, the stale sweep); a queued
    refresh goes through `standings_refresh_owed`. A handful of queries whatever the size:
    the competition locked, entries, one aggregate of the matches' games, byes, deductions,
    one upsert, the mark cleared. Running it twice changes nothing the second time (rows
    are rewritten only when a value changed, `_standings_write`). A competition that no
    longer exists is nothing to do (a task queued before a delete), and returns 0.

    Clears `Competition.standings_stale_since` only if it still holds the value this
    rebuild saw when it started (compare-and-clear): a write marked after that start stays
    owed, and the next refresh or sweep picks it up.
    """
    competition = _standings_locked(competition_id)
    if competition is None:
        return 0
    return _standings_store(competition)


@transaction.atomic
def standings_refresh_owed(*, competition_id: int) -> int:
    """What a queued `standings_refresh` task does: release the competition's claim
    (`StandingsRefreshClaim`) and rebuild the standings if a write still owes it.

    Returns the rows written; 0 when nothing is owed (`standings_stale_since` is empty once
    the competition is locked: the rebuild before this one saw every write, about two
    queries) or the competition is gone.

    The claim is released under the competition lock, in this transaction: until this task
    holds the competition, writes committing meanwhile queue nothing (this task will see
    them); from then on they wait for it (`_standings_mark_stale`) and, once it commits,
    queue the next one. So a competition has at most one refresh running and one queued,
    however many results arrive (issue 7).
    """
    competition = _standings_locked(competition_id)
    StandingsRefreshClaim.objects.filter(pk=competition_id, queued_at__isnull=False).update(
        queued_at=None
    )
    if competition is None or competition.standings_stale_since is None:
        return 0
    return _standings_store(competition)


def standings_catch_up(*, competition: Competition) -> bool:
    """The beat sweep's job where there is no beat: the embedded default (Celery eager).

    Rebuilds `competition`'s standings when they have owed a refresh for longer than
    `settings.STANDINGS_SWEEP_SECONDS` (an inline refresh that failed leaves the mark, and
    nothing else would clear it until the next result). Called by the standings page;
    with a broker configured it does nothing, the `standings_refresh_stale` sweep does it.
    Returns whether it rebuilt; a failing rebuild is logged and the page shows the mark.
    """
    since = competition.standings_stale_since
    if not settings.CELERY_TASK_ALWAYS_EAGER or since is None:
        return False
    if timezone.now() - since < timedelta(seconds=settings.STANDINGS_SWEEP_SECONDS):
        return False
    try:
        standings_rebuild(competition_id=competition.pk)
    except Exception:
        logger.exception("stale standings of competition %s not rebuilt", competition.pk)
        return False
    competition.refresh_from_db(fields=["standings_stale_since", "standings_computed_at"])
    return True


# ---------------------------------------------------------------- scoring at the table


@transaction.atomic
def game_links_ensure(*, game_ids: Sequence[int]) -> dict[int, GameLink]:
    """The active table link of each game in `game_ids`, made where a game has none.

    Returns {game id: GameLink}. Idempotent: a second call returns the same links (the
    partial unique constraint `gamelink_one_active_per_game` keeps it one per game even
    when two directors print at once; the loser of that race reads the winner's link).
    Unknown ids are left out.
    """
    wanted = set(game_ids)
    links = {
        link.game_id: link
        for link in GameLink.objects.filter(game_id__in=wanted, revoked_at__isnull=True)
    }
    missing = sorted(
        set(Game.objects.filter(pk__in=wanted - links.keys()).values_list("pk", flat=True))
    )
    if missing:
        GameLink.objects.bulk_create(
            [GameLink(game_id=game_id, token=secrets.token_urlsafe(24)) for game_id in missing],
            ignore_conflicts=True,
        )
        links.update(
            (link.game_id, link)
            for link in GameLink.objects.filter(game_id__in=missing, revoked_at__isnull=True)
        )
    return links


# The longest comment a koppel can give with a dispute (`GameDispute.comment`).
DISPUTE_COMMENT_MAX_LENGTH = 500
# The `history_change_reason` of the rounds a director's rejection removes: the history
# keeps them (simple-history), and says why they went.
ROUND_REJECT_REASON = "rejected"


def _koppel_checked(koppel: str) -> str:
    """`koppel` ("a"/"b"): the koppel a phone at the table said it is.

    Raises RuleViolation: `koppel_unknown`.
    """
    if koppel not in ("a", "b"):
        raise RuleViolation("koppel_unknown")
    return koppel


def _link_locked(token: str) -> tuple[GameLink, Game]:
    """The active link with `token` and its game, both locked: the game first, as every
    write on a game locks it, so a table's phone and the director's sheet take turns.

    Raises RuleViolation: `link_invalid` (unknown token, or the link was revoked).
    """
    game_id = GameLink.objects.filter(token=token).values_list("game_id", flat=True).first()
    if game_id is None:
        raise RuleViolation("link_invalid")
    game = _game_locked(game_id)
    # Locked too: the first round entered through it fixes its koppel, once.
    link = GameLink.objects.select_for_update().filter(token=token, game_id=game_id).first()
    if link is None or link.revoked_at is not None:
        raise RuleViolation("link_invalid")
    return link, game


def _dispute_open(game: Game) -> GameDispute | None:
    """The open dispute of locked `game`, locked; None when it has none."""
    return game.disputes.select_for_update().filter(resolved_at__isnull=True).first()


@transaction.atomic
def game_link_revoke(*, game_id: int, link_id: int) -> GameLink:
    """Revoke a game's table link (a link that got out, a phone that must stop); returns it.

    The token opens nothing any more; the next `game_links_ensure` (the director's link
    page, a printed sheet) makes a new one. `link_id` is the link the director's page
    showed: revoking it twice (the button pressed twice) changes nothing, and never
    revokes the new link made meanwhile. Rounds entered with it stay.

    Raises RuleViolation: `game_unknown`, `link_unknown` (not a link of this game).
    """
    game = _game_locked(game_id)
    link = GameLink.objects.select_for_update().filter(pk=link_id, game=game).first()
    if link is None:
        raise RuleViolation("link_unknown")
    if link.revoked_at is None:
        link.revoked_at = timezone.now()
        link.save(update_fields=["revoked_at"])
    return link


@transaction.atomic
def table_round_record(
    *,
    token: str,
    koppel: str,
    expected_number: int,
    result: str,
    side: str,
    caller_id: int | None = None,
    tricks: tuple[int, int] | None = None,
) -> Round:
    """Record the next round of the link's game from the table's phone (`round_record`).

    `token` is the table link's secret: it opens its own game only. `koppel` ("a"/"b") is
    the koppel the phone said it is: the first round entered through the link makes it the
    link's entering koppel, and from then on only that koppel enters rounds (the other one
    confirms). `expected_number` is the round number the phone's page was showing: a
    double tap or a retried request finds the round stored once (`round_already_recorded`).

    Raises RuleViolation: `link_invalid`, `koppel_unknown`, `table_other_koppel_enters`
    (param team: the entering one), `game_confirmed`, `game_disputed`, and everything
    `round_record` raises (`game_finished` on a game that is over).
    """
    link, game = _link_locked(token)
    _koppel_checked(koppel)
    if link.entering_side and link.entering_side != koppel:
        raise RuleViolation("table_other_koppel_enters", team=link.entering_side)
    if expected_number > game.rounds.count():
        # A new round, not a retry of one stored already (`round_record` says that one).
        if game.confirmed_at is not None:
            raise RuleViolation("game_confirmed")
        if _dispute_open(game) is not None:
            raise RuleViolation("game_disputed")
    rnd = round_record(
        game_id=game.pk,
        expected_number=expected_number,
        result=result,
        side=side,
        caller_id=caller_id,
        tricks=tricks,
        link=link,
    )
    if not link.entering_side:
        link.entering_side = koppel
        link.save(update_fields=["entering_side"])
    return rnd


@transaction.atomic
def table_round_undo(*, token: str, koppel: str, round_id: int, seen: str) -> int:
    """Undo the table's own last round (`round_undo`); returns its number.

    Only the link's entering koppel undoes, only a round entered through this link, only
    while the game is neither confirmed nor disputed. `round_id` is the round the page
    showed as the last one and `seen` the page's `game_token`.

    Raises RuleViolation: `link_invalid`, `koppel_unknown`, `table_not_entering`,
    `round_unknown` (not a round of this game, or undone already: the form sent twice),
    `game_changed_meanwhile`, `round_not_from_table` (param number), `game_confirmed`,
    `game_disputed`, `game_closed_by_director` (the director closed it: frozen for the
    table, or undoing round after round would take the game back from the director).
    """
    link, game = _link_locked(token)
    if link.entering_side != _koppel_checked(koppel):
        raise RuleViolation("table_not_entering")
    rounds = list(game.rounds.order_by("number"))
    doomed = _round_of(rounds, round_id)
    if doomed is not rounds[-1]:
        raise RuleViolation("game_changed_meanwhile")
    if doomed.link_id != link.pk:
        raise RuleViolation("round_not_from_table", number=doomed.number)
    if game.confirmed_at is not None:
        raise RuleViolation("game_confirmed")
    if _dispute_open(game) is not None:
        raise RuleViolation("game_disputed")
    if game.status == Game.Status.CLOSED:
        raise RuleViolation("game_closed_by_director")
    return round_undo(game_id=game.pk, round_id=round_id, seen=seen)


def _table_verdict_allowed(game: Game, link: GameLink, koppel: str) -> None:
    """Whether `koppel` may confirm or dispute locked `game`'s result at the table.

    Raises RuleViolation: `game_not_over`, `table_own_rounds` (it entered them).
    """
    if game.status == Game.Status.OPEN:
        raise RuleViolation("game_not_over")
    if koppel in selectors.game_entering_koppels(game=game, link=link):
        raise RuleViolation("table_own_rounds")


def game_confirmed_set(game: Game, *, user: Any, at: datetime) -> None:
    """Mark `game`'s result confirmed by `user` (None unless logged in) at `at`; not saved.
    Shared by `game_confirm`, the table's and the queue's confirmations and the bulk
    importer.

    Raises RuleViolation: `game_not_over`.
    """
    if game.status == Game.Status.OPEN:
        raise RuleViolation("game_not_over")
    game.confirmed_at = at
    game.confirmed_by = acting_user(user)


@transaction.atomic
def game_confirm(*, game_id: int, user: Any, seen: str) -> Game:
    """Confirm a finished game's result (the opponents or the director agree with it).

    `seen` (required) is the `game_token` of the result the director agreed with: a
    result changed meanwhile is not confirmed unseen. A result confirmed already (the
    button pressed twice, or by another director) stays as it was confirmed.

    An open dispute of the game (raised at the table) is resolved with it: "corrected" when
    the rounds or the result changed after it was raised, else "accepted" — confirming on
    the score sheet is the director's decision, as in the queue.

    Raises RuleViolation: `game_unknown`, `game_changed_meanwhile`, `game_not_over`.
    """
    game = (
        Game.objects.select_for_update(of=("self",))
        .select_related("match__matchday")
        .filter(pk=game_id)
        .first()
    )
    if game is None:
        raise RuleViolation("game_unknown", game=game_id)
    if seen != game_token(game, list(game.rounds.all())):
        raise RuleViolation("game_changed_meanwhile")
    if game.confirmed_at is not None:
        return game
    game_confirmed_set(game, user=user, at=timezone.now())
    game.confirmed_side = ""
    game.save(update_fields=["confirmed_at", "confirmed_by", "confirmed_side"])
    game_dispute_settle_confirmed(game)
    standings_refresh_on_commit(game.match.matchday.competition_id)
    return game


def _game_confirm_locked(game: Game, *, user: Any = None, koppel: str = "") -> bool:
    """Confirm locked `game`'s result: by `koppel` at the table, or by director `user`.
    Returns whether it was written (False: confirmed already). Queues the standings.

    Raises RuleViolation: `game_not_over`.
    """
    if game.confirmed_at is not None:
        return False
    game_confirmed_set(game, user=user, at=timezone.now())
    game.confirmed_side = koppel
    game.save(update_fields=["confirmed_at", "confirmed_by", "confirmed_side"])
    standings_refresh_on_commit(game.match.matchday.competition_id)
    return True


@transaction.atomic
def table_game_confirm(*, token: str, koppel: str, seen: str) -> Game:
    """The other koppel agrees with the result entered at the table: the game is
    confirmed (`confirmed_at`, `confirmed_side` = `koppel`) and, with confirmation on,
    counts in the standings from now.

    `seen` is the `game_token` of the result the koppel saw. Confirmed already (the button
    pressed twice, or by the director) stays as it was confirmed.

    Raises RuleViolation: `link_invalid`, `koppel_unknown`, `game_changed_meanwhile`,
    `game_not_over`, `table_own_rounds` (the entering koppel can't confirm its own
    rounds), `game_disputed`.
    """
    link, game = _link_locked(token)
    _koppel_checked(koppel)
    if seen != game_token(game, list(game.rounds.all())):
        raise RuleViolation("game_changed_meanwhile")
    if game.confirmed_at is not None:
        return game
    _table_verdict_allowed(game, link, koppel)
    if _dispute_open(game) is not None:
        raise RuleViolation("game_disputed")
    _game_confirm_locked(game, koppel=koppel)
    return game


@transaction.atomic
def table_game_dispute(*, token: str, koppel: str, comment: str, seen: str) -> GameDispute:
    """The other koppel disagrees with the result entered at the table: a dispute with
    `comment` (what is wrong, required) goes to the director's queue, and the table can
    neither add nor undo rounds until the director resolves it (`game_dispute_resolve`).

    `seen` is the `game_token` of the result disputed. The same dispute sent twice is
    stored once.

    Raises RuleViolation: `link_invalid`, `koppel_unknown`, `dispute_comment_missing`,
    `dispute_comment_too_long` (param limit), `game_disputed` (another dispute is open),
    `game_changed_meanwhile`, `game_not_over`, `game_confirmed`, `table_own_rounds`.
    """
    text = comment.strip()
    if not text:
        raise RuleViolation("dispute_comment_missing")
    if len(text) > DISPUTE_COMMENT_MAX_LENGTH:
        raise RuleViolation("dispute_comment_too_long", limit=DISPUTE_COMMENT_MAX_LENGTH)
    link, game = _link_locked(token)
    _koppel_checked(koppel)
    dispute = _dispute_open(game)
    if dispute is not None:
        if (dispute.side, dispute.comment) == (koppel, text):
            return dispute  # sent twice
        raise RuleViolation("game_disputed")
    if seen != game_token(game, list(game.rounds.all())):
        raise RuleViolation("game_changed_meanwhile")
    if game.confirmed_at is not None:
        raise RuleViolation("game_confirmed")
    _table_verdict_allowed(game, link, koppel)
    return GameDispute.objects.create(game=game, side=koppel, comment=text)


def _game_send_back(game: Game, rounds: Sequence[Round]) -> None:
    """Remove the result of locked `game` so its table enters it again: every round
    deleted (kept in the history, `ROUND_REJECT_REASON`), entered totals cleared, the game
    open at 0–0 and unconfirmed, and its link's entering koppel free again."""
    status_before = game.status
    for rnd in reversed(rounds):  # the last first: the numbers below stay as they are
        rnd._change_reason = ROUND_REJECT_REASON  # type: ignore[attr-defined]
        rnd.delete()
    if game.by_totals:
        game.total_a = game.total_b = None
        game.save(update_fields=["total_a", "total_b"])
    _store_state(game, _replay(game, [], keep_closed=False))
    if game.confirmed_at is not None:  # a 0–0 that stayed 0–0: _store_state kept it
        game.confirmed_at, game.confirmed_by, game.confirmed_side = None, None, ""
        game.save(update_fields=["confirmed_at", "confirmed_by", "confirmed_side"])
    GameLink.objects.filter(game=game, revoked_at__isnull=True).update(entering_side="")
    _game_refresh_on_commit(game, status_before)


def _dispute_resolved(
    dispute: GameDispute, resolution: str, user: Any, at: datetime | None = None
) -> None:
    dispute.resolved_at = at or timezone.now()
    dispute.resolution = resolution
    dispute.resolved_by = acting_user(user)
    dispute.save(update_fields=["resolved_at", "resolution", "resolved_by"])


def game_dispute_settle_confirmed(game: Game) -> None:
    """Decide the open dispute of locked `game`, just confirmed by a director on the score
    sheet (its `confirmed_at`/`confirmed_by` set): "corrected" when rounds or the result
    changed after the dispute was raised, else "accepted". No dispute: nothing to do."""
    dispute = _dispute_open(game)
    if dispute is None:
        return
    changed = (
        Round.history.filter(game_id=game.pk, history_date__gt=dispute.raised_at).exists()
        or game.history.filter(
            history_date__gt=dispute.raised_at, history_date__lt=game.confirmed_at
        ).exists()
    )
    resolution = GameDispute.Resolution.CORRECTED if changed else GameDispute.Resolution.ACCEPTED
    _dispute_resolved(dispute, resolution, game.confirmed_by, at=game.confirmed_at)


def _dispute_corrected_if_open(game: Game, user: Any) -> None:
    """After a director's write on locked `game` (a round corrected, deleted or undone, the
    game reopened): when it left the game open while a dispute is open, the dispute is
    decided as `corrected` by `user`. Else the table stays locked by the dispute and the
    corrected game can't be confirmed before it is over: a dead end. The table plays on,
    and the other koppel confirms the result at the end as usual; the history keeps the
    dispute and its resolution."""
    if game.status != Game.Status.OPEN or game.by_totals:
        return
    dispute = _dispute_open(game)
    if dispute is not None:
        _dispute_resolved(dispute, GameDispute.Resolution.CORRECTED, user)


@transaction.atomic
def game_dispute_resolve(*, dispute_id: int, resolution: str, user: Any, seen: str) -> GameDispute:
    """The director decides a dispute raised at the table; returns it, resolved.

    `resolution` is a `GameDispute.Resolution`:
    - `accepted`: the result stands as entered, confirmed by the director (`user`);
    - `corrected`: the director has fixed the result on the score sheet; it is confirmed
      as it stands now;
    - `rejected`: the rounds entered (or totals) are removed, so the table enters the game
      again; the history keeps them. The game is open and not started.

    `seen` is the `game_token` of the result the director's page showed: a result
    changed meanwhile is not decided unseen. A dispute resolved already the same way (the
    button pressed twice) is returned as it is.

    Raises RuleViolation: `dispute_unknown`, `resolution_unknown`,
    `dispute_resolved_already` (resolved otherwise, by another director or another
    screen), `game_changed_meanwhile`, `game_not_over` (accepting or confirming a
    correction that left the game open).
    """
    if resolution not in GameDispute.Resolution.values:
        raise RuleViolation("resolution_unknown")
    game_id = GameDispute.objects.filter(pk=dispute_id).values_list("game_id", flat=True).first()
    if game_id is None:
        raise RuleViolation("dispute_unknown")
    game = _game_locked(game_id)
    dispute = GameDispute.objects.select_for_update().get(pk=dispute_id)
    if dispute.resolved_at is not None:
        if dispute.resolution == resolution:
            return dispute
        raise RuleViolation("dispute_resolved_already")
    rounds = list(game.rounds.order_by("number"))
    if seen != game_token(game, rounds):
        raise RuleViolation("game_changed_meanwhile")
    if resolution == GameDispute.Resolution.REJECTED:
        _game_send_back(game, rounds)
    else:
        _game_confirm_locked(game, user=user)
    _dispute_resolved(dispute, resolution, user)
    return dispute


@transaction.atomic
def game_table_reject(*, game_id: int, user: Any, seen: str) -> Game:
    """The director rejects a result entered at the table that nobody confirmed: the
    rounds (or totals) are removed and the table enters the game again (as in a rejected
    dispute, `game_dispute_resolve`; an open dispute is resolved so).

    `seen` is the `game_token` the director's page showed; a game sent back already (the
    button pressed twice) is returned as it is.

    Raises RuleViolation: `game_unknown`, `game_changed_meanwhile`, `game_confirmed`.
    """
    game = _game_locked(game_id)
    rounds = list(game.rounds.order_by("number"))
    done = not rounds and not game.by_totals and game.status == Game.Status.OPEN
    if not _write_needed(game, rounds, seen, done=done):
        return game
    if game.confirmed_at is not None:
        raise RuleViolation("game_confirmed")
    dispute = _dispute_open(game)
    _game_send_back(game, rounds)
    if dispute is not None:
        _dispute_resolved(dispute, GameDispute.Resolution.REJECTED, user)
    return game


@transaction.atomic
def games_accept_all(
    *,
    competition_id: int,
    user: Any,
    matchday_id: int | None = None,
    seen: Mapping[int, str] | None = None,
) -> list[int]:
    """The director accepts every result of a competition (or of one of its matchdays)
    that is over, unconfirmed and not disputed: each is confirmed by `user`. Returns the
    ids of the games confirmed now.

    `seen` ({game id: `game_token`}), when given, limits it to the games the director's
    page listed, as they were listed: a game whose result changed since, or that was not
    on the page, is left for another look. Sent twice, the second finds nothing left to
    confirm. A disputed game is never accepted here: its dispute is decided on its own.
    """
    disputed = GameDispute.objects.filter(game=OuterRef("pk"), resolved_at__isnull=True)
    games = (
        Game.objects.select_for_update(of=("self",))
        .filter(
            match__matchday__competition_id=competition_id,
            status__in=[Game.Status.FINISHED, Game.Status.CLOSED],
            confirmed_at__isnull=True,
        )
        .exclude(Exists(disputed))
        .order_by("pk")
    )
    if matchday_id is not None:
        games = games.filter(match__matchday_id=matchday_id)
    if seen is not None:
        games = games.filter(pk__in=list(seen))
    chosen = list(games)
    if seen is not None and chosen:
        rounds: dict[int, list[Round]] = {game.pk: [] for game in chosen}
        for rnd in Round.objects.filter(game_id__in=rounds):
            rounds[rnd.game_id].append(rnd)
        chosen = [game for game in chosen if seen[game.pk] == game_token(game, rounds[game.pk])]
    if not chosen:
        return []
    now = timezone.now()
    for game in chosen:
        game_confirmed_set(game, user=user, at=now)
        game.confirmed_side = ""
    # With history, like every confirmation: the game's history says who accepted it.
    bulk_update_with_history(
        chosen,
        Game,
        ["confirmed_at", "confirmed_by", "confirmed_side"],
        default_user=acting_user(user),
    )
    standings_refresh_on_commit(competition_id)
    return [game.pk for game in chosen]
