"""A club's squad for a season: players put on it and taken off before its lock date."""

from __future__ import annotations

import datetime

from django.db import transaction
from django.utils import timezone

from scoring.rules import RuleViolation
from tournaments.models import Squad, SquadMember


def _squad_open(squad: Squad, today: datetime.date | None) -> None:
    today = today or timezone.localdate()
    if squad.locked_on is not None and today >= squad.locked_on:
        raise RuleViolation("squad_locked", squad=str(squad), locked_on=squad.locked_on.isoformat())


@transaction.atomic
def squad_member_add(
    *, squad_id: int, player_id: int, today: datetime.date | None = None
) -> SquadMember:
    """Put a player on a club's squad for the season, before the lock date.

    A player is on one club's squad per season: moving to another club waits for the next
    season. Raises RuleViolation: `squad_unknown`, `squad_locked`, `player_on_other_squad`.
    """
    squad = Squad.objects.select_for_update().select_related("club").filter(pk=squad_id).first()
    if squad is None:
        raise RuleViolation("squad_unknown")
    _squad_open(squad, today)
    other = (
        SquadMember.objects.filter(season=squad.season, player_id=player_id)
        .select_related("squad__club", "player")
        .first()
    )
    if other is not None:
        if other.squad_id == squad.pk:
            return other
        raise RuleViolation(
            "player_on_other_squad",
            player=str(other.player),
            club=str(other.squad.club),
            season=squad.season,
        )
    return SquadMember.objects.create(squad=squad, player_id=player_id, season=squad.season)


@transaction.atomic
def squad_member_remove(
    *, squad_id: int, player_id: int, today: datetime.date | None = None
) -> None:
    """Take a player off a squad, before the lock date.

    Raises RuleViolation: `squad_unknown`, `squad_locked`.
    """
    squad = Squad.objects.select_for_update().filter(pk=squad_id).first()
    if squad is None:
        raise RuleViolation("squad_unknown")
    _squad_open(squad, today)
    SquadMember.objects.filter(squad=squad, player_id=player_id).delete()
