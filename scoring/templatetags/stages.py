"""`{% stage_links competition %}`: a competition page's links to its play-offs and
deciding matches, or, on a stage, to its bracket and the competition it was seeded from
(issue 22). One query."""

from __future__ import annotations

from typing import Any

from django import template
from django.db.models import Q

from tournaments.models import Competition, Playoff

register = template.Library()


@register.inclusion_tag("scoring/_stage_links.html")
def stage_links(competition: Competition) -> dict[str, Any]:
    stages = list(
        Playoff.objects.filter(Q(source=competition) | Q(competition=competition))
        .select_related("competition", "source")
        .order_by("pk")
    )
    return {
        "own": next((stage for stage in stages if stage.competition_id == competition.pk), None),
        "seeded": [stage for stage in stages if stage.source_id == competition.pk],
    }
