"""Which games count (for the season rankings, the ratings and the matchday highlights):
over, and confirmed where the competition counts results only once confirmed, as the
standings count them.
"""

from __future__ import annotations

from django.db.models import QuerySet

from scoring.models import Game

FINISHED = (Game.Status.FINISHED, Game.Status.CLOSED)


def games_counted() -> QuerySet[Game]:
    """Every game that counts for rankings and ratings: finished or closed by the director,
    and confirmed when its competition counts results only once confirmed (as the standings
    do). Unordered; callers filter and order it."""
    return Game.objects.filter(status__in=FINISHED).exclude(
        match__matchday__competition__confirmation_required=True, confirmed_at__isnull=True
    )
