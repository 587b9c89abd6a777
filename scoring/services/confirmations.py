"""Confirming a game's result: by the director, or by the other koppel at the table; a
dispute, its resolution, a rejection sent back to the table, and accept-all from the
queue.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from scoring.models import Game, GameDispute, GameLink, Round
from scoring.rules import RuleViolation
from scoring.selectors.table import game_entering_koppels
from scoring.services.disputes import dispute_open, dispute_resolved, game_dispute_settle_confirmed
from scoring.services.games import (
    game_inputs_replay,
    game_locked,
    game_refresh_on_commit,
    game_state_store,
    game_write_needed,
)
from scoring.services.refresh import standings_refresh_on_commit
from scoring.services.table import DISPUTE_COMMENT_MAX_LENGTH, ROUND_REJECT_REASON, link_locked
from scoring.tokens import game_token
from troefclub.history import bulk_update_with_history_if_changed
from troefclub.writes import acting_user


def _table_verdict_allowed(game: Game, link: GameLink) -> None:
    """Whether the koppel of `link` may confirm or dispute locked `game`'s result at the
    table: not the koppel that entered the rounds, whatever phone or browser it uses.

    Raises RuleViolation: `game_not_over`, `table_own_rounds` (it entered them).
    """
    if game.status == Game.Status.OPEN:
        raise RuleViolation("game_not_over")
    if link.side in game_entering_koppels(game=game):
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
def table_game_confirm(*, token: str, seen: str) -> Game:
    """The other koppel agrees, through its own link `token`, with the result entered at
    the table: the game is confirmed (`confirmed_at`, `confirmed_side` = the link's
    koppel) and, with confirmation on, counts in the standings from now.

    `seen` is the `game_token` of the result the koppel saw. Confirmed already (the button
    pressed twice, or by the director) stays as it was confirmed.

    Raises RuleViolation: `link_invalid`, `game_changed_meanwhile`, `game_not_over`,
    `table_own_rounds` (the entering koppel's link can't confirm its own rounds),
    `game_disputed`.
    """
    link, game = link_locked(token)
    if seen != game_token(game, list(game.rounds.all())):
        raise RuleViolation("game_changed_meanwhile")
    if game.confirmed_at is not None:
        return game
    _table_verdict_allowed(game, link)
    if dispute_open(game) is not None:
        raise RuleViolation("game_disputed")
    _game_confirm_locked(game, koppel=link.side)
    return game


@transaction.atomic
def table_game_dispute(*, token: str, comment: str, seen: str) -> GameDispute:
    """The other koppel disagrees, through its own link `token`, with the result entered
    at the table: a dispute with
    `comment` (what is wrong, required) goes to the director's queue, and the table can
    neither add nor undo rounds until the director resolves it (`game_dispute_resolve`).

    `seen` is the `game_token` of the result disputed. The same dispute sent twice is
    stored once.

    Raises RuleViolation: `link_invalid`, `dispute_comment_missing`,
    `dispute_comment_too_long` (param limit), `game_disputed` (another dispute is open),
    `game_changed_meanwhile`, `game_not_over`, `game_confirmed`, `table_own_rounds`.
    """
    text = comment.strip()
    if not text:
        raise RuleViolation("dispute_comment_missing")
    if len(text) > DISPUTE_COMMENT_MAX_LENGTH:
        raise RuleViolation("dispute_comment_too_long", limit=DISPUTE_COMMENT_MAX_LENGTH)
    link, game = link_locked(token)
    dispute = dispute_open(game)
    if dispute is not None:
        if (dispute.side, dispute.comment) == (link.side, text):
            return dispute  # sent twice
        raise RuleViolation("game_disputed")
    if seen != game_token(game, list(game.rounds.all())):
        raise RuleViolation("game_changed_meanwhile")
    if game.confirmed_at is not None:
        raise RuleViolation("game_confirmed")
    _table_verdict_allowed(game, link)
    return GameDispute.objects.create(game=game, side=link.side, comment=text)


def _game_send_back(game: Game, rounds: Sequence[Round]) -> None:
    """Remove the result of locked `game` so its table enters it again: every round
    deleted (kept in the history, `ROUND_REJECT_REASON`), entered totals cleared, the game
    open at 0–0 and unconfirmed; with the rounds gone, either koppel may enter again."""
    status_before = game.status
    for rnd in reversed(rounds):  # the last first: the numbers below stay as they are
        rnd._change_reason = ROUND_REJECT_REASON  # type: ignore[attr-defined]
        rnd.delete()
    if game.by_totals:
        game.total_a = game.total_b = None
        game.save(update_fields=["total_a", "total_b"])
    game_state_store(game, game_inputs_replay(game, [], keep_closed=False))
    if game.confirmed_at is not None:  # a 0–0 that stayed 0–0: game_state_store kept it
        game.confirmed_at, game.confirmed_by, game.confirmed_side = None, None, ""
        game.save(update_fields=["confirmed_at", "confirmed_by", "confirmed_side"])
    game_refresh_on_commit(game, status_before)


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
    game = game_locked(game_id)
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
    dispute_resolved(dispute, resolution, user)
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
    game = game_locked(game_id)
    rounds = list(game.rounds.order_by("number"))
    done = not rounds and not game.by_totals and game.status == Game.Status.OPEN
    if not game_write_needed(game, rounds, seen, done=done):
        return game
    if game.confirmed_at is not None:
        raise RuleViolation("game_confirmed")
    dispute = dispute_open(game)
    _game_send_back(game, rounds)
    if dispute is not None:
        dispute_resolved(dispute, GameDispute.Resolution.REJECTED, user)
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
    # With history, like every confirmation: the game's history says who accepted it; a
    # row only for a game the confirmation changed (all of them, unconfirmed until now).
    confirmed = bulk_update_with_history_if_changed(
        chosen,
        Game,
        ["confirmed_at", "confirmed_by", "confirmed_side"],
        default_user=acting_user(user),
    )
    if confirmed:
        standings_refresh_on_commit(competition_id)
    return [game.pk for game in confirmed]
