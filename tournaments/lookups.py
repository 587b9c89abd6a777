"""Finding a competition, matchday or match from its URL: a 404 when it is unknown or of
another competition. The pages and their access check (`troefclub.access`) read
through these, so a page and the check before it fetch the same rows once.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404

from tournaments.models import Bye, Competition, Match, Matchday
from tournaments.selectors import MATCH_ENTRY_JOINS


def competition_for(slug: str) -> Competition:
    """Competition `slug`; else 404."""
    return get_object_or_404(Competition, slug=slug)


def matchday_for(slug: str, number: int) -> Matchday:
    """Matchday `number` of competition `slug`, with its competition joined; else 404."""
    return get_object_or_404(
        Matchday.objects.select_related("competition"), competition__slug=slug, number=number
    )


def matchday_byes(matchday: Matchday) -> list[Bye]:
    return list(
        matchday.byes.select_related(
            "entry__team__player_1", "entry__team__player_2", "entry__club"
        )
    )


def match_for(slug: str, match_id: int) -> Match:
    """The match `match_id` of competition `slug`, with its entries joined; else 404."""
    return get_object_or_404(
        Match.objects.select_related("matchday__competition", *MATCH_ENTRY_JOINS),
        pk=match_id,
        matchday__competition__slug=slug,
    )
