"""Reads of void and replay (issue 22): a match's replay links for its pages."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from tournaments.models import Match

_JOINS = ("matchday", "home__team", "home__club", "away__team", "away__club")


@dataclass(frozen=True, slots=True)
class ReplayLinks:
    """The voided match `match` replays (`replay_of`) and the match that replays `match`
    (`replayed_by`), each None when there is none; their matchdays and entries joined."""

    replay_of: Match | None = None
    replayed_by: Match | None = None


def match_replay_links(*, match: Match) -> ReplayLinks:
    """`ReplayLinks` of `match`: one query."""
    found = Match.objects.filter(Q(pk=match.replayed_by_id) | Q(replayed_by=match.pk))
    replay_of = replayed_by = None
    for row in found.select_related(*_JOINS):
        if row.replayed_by_id == match.pk:
            replay_of = row
        else:
            replayed_by = row
    return ReplayLinks(replay_of=replay_of, replayed_by=replayed_by)
