"""A game's open dispute, and how later writes settle it (a confirmation, a correction)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone

from scoring.models import Game, GameDispute, Round
from troefclub.writes import acting_user


def dispute_open(game: Game) -> GameDispute | None:
    """The open dispute of locked `game`, locked; None when it has none."""
    return game.disputes.select_for_update().filter(resolved_at__isnull=True).first()


def dispute_resolved(
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
    dispute = dispute_open(game)
    if dispute is None:
        return
    changed = (
        Round.history.filter(game_id=game.pk, history_date__gt=dispute.raised_at).exists()
        or game.history.filter(
            history_date__gt=dispute.raised_at, history_date__lt=game.confirmed_at
        ).exists()
    )
    resolution = GameDispute.Resolution.CORRECTED if changed else GameDispute.Resolution.ACCEPTED
    dispute_resolved(dispute, resolution, game.confirmed_by, at=game.confirmed_at)


def dispute_corrected_if_open(game: Game, user: Any) -> None:
    """After a director's write on locked `game` (a round corrected, deleted or undone, the
    game reopened): when it left the game open while a dispute is open, the dispute is
    decided as `corrected` by `user`. Else the table stays locked by the dispute and the
    corrected game can't be confirmed before it is over: a dead end. The table plays on,
    and the other koppel confirms the result at the end as usual; the history keeps the
    dispute and its resolution."""
    if game.status != Game.Status.OPEN or game.by_totals:
        return
    dispute = dispute_open(game)
    if dispute is not None:
        dispute_resolved(dispute, GameDispute.Resolution.CORRECTED, user)
