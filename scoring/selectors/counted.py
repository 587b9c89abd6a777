"""Which games count (for the season rankings, the ratings, the matchday highlights and the
player, koppel and club pages): over, confirmed where the competition counts results only
once confirmed, as the standings count them, and neither the game nor its match voided
(`Game.objects.counting()`, issue 22).
"""

from __future__ import annotations

from django.db.models import QuerySet

from scoring.models import Game

FINISHED = (Game.Status.FINISHED, Game.Status.CLOSED)


def games_counted() -> QuerySet[Game]:
    """Every game that counts for rankings and ratings: finished or closed by the director,
    and confirmed when its competition counts results only once confirmed (as the standings
    do), and not voided, nor in a voided match (`scoring.models.game_counts_q`). Unordered;
    callers filter and order it."""
    return (
        Game.objects.counting()
        .filter(status__in=FINISHED)
        .exclude(
            match__matchday__competition__confirmation_required=True, confirmed_at__isnull=True
        )
    )
