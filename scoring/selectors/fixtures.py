"""The fixtures of a competition, a koppel or a club: what their calendar feeds list.

A fixture is a match on a dated matchday (its opponents, its table once it has one), or,
for a matchday dated but not paired yet, the matchday itself (the evening is known, the
opponents not yet). Undated matchdays have no place in a calendar and are left out.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from scoring.models import Game
from scoring.selectors.schedule import with_table_shown
from tournaments.models import Club, Competition, Entry, Match, Matchday, Team
from tournaments.selectors import MATCH_ENTRY_JOINS

# A feed lists the fixtures from this many days ago on: the evenings ahead, and the last
# two weeks' (a league's whole past would make every fetch long, and no phone needs it).
FIXTURES_PAST_DAYS = 14
# At most this many fixtures a feed, the earliest first: a matchday of 1,000 koppels has
# 500 matches, and 2,000 events took 2.6 s to render (BENCHMARKS.md, issue 21); a koppel
# or a club has a few a week.
FIXTURES_MAX = 500


@dataclass(frozen=True, slots=True)
class Fixtures:
    """What a feed shows: `matches` (each with its matchday and competition, both entries
    named, and `table_shown`: its table or its first game's, None before it has one) and
    the `unpaired` matchdays (dated, no match yet; each with its competition), both in
    date order."""

    matches: list[Match]
    unpaired: list[Matchday]


def _since() -> datetime.date:
    return timezone.localdate() - datetime.timedelta(days=FIXTURES_PAST_DAYS)


def _fixtures(matches: Q, matchdays: Q) -> Fixtures:
    """The matches `matches` picks and the unpaired matchdays `matchdays` picks, dated
    from `FIXTURES_PAST_DAYS` ago, at most `FIXTURES_MAX` of each. Two queries."""
    since = _since()
    rows = (
        with_table_shown(Match.objects.filter(matches, matchday__date__gte=since))
        .select_related("matchday__competition", *MATCH_ENTRY_JOINS)
        .order_by("matchday__date", "matchday__time", "matchday__number", "table_shown", "pk")
    )
    days = (
        Matchday.objects.filter(matchdays, date__gte=since)
        .exclude(Exists(Match.objects.filter(matchday=OuterRef("pk"))))
        .select_related("competition")
        .order_by("date", "time", "competition__slug", "number")
    )
    return Fixtures(matches=list(rows[:FIXTURES_MAX]), unpaired=list(days[:FIXTURES_MAX]))


def competition_fixtures(*, competition: Competition) -> Fixtures:
    """The dated matches and unpaired matchdays of `competition`."""
    return _fixtures(Q(matchday__competition=competition), Q(competition=competition))


def koppel_fixtures(*, team: Team) -> Fixtures:
    """The dated matches `team` plays in: its own entry's (pairs competitions) and the
    club matches it has a game in; and the unpaired matchdays of the competitions it is
    entered in."""
    plays = Exists(
        Game.objects.filter(match=OuterRef("pk")).filter(Q(team_a=team) | Q(team_b=team))
    )
    entered = Entry.objects.filter(team=team).values("competition_id")
    return _fixtures(
        Q(home__team=team) | Q(away__team=team) | Q(plays), Q(competition_id__in=entered)
    )


def club_fixtures(*, club: Club) -> Fixtures:
    """The dated matches of `club`: its club competitions' matches, and the pairs matches
    of koppels with a player who played for it there (the club at the time, `Entry`); and
    the unpaired matchdays of the competitions it or such a koppel is entered in."""
    playing = Q(club=club) | Q(player_1_club=club) | Q(player_2_club=club)
    entries = Entry.objects.filter(playing)
    return _fixtures(
        Q(home__in=entries) | Q(away__in=entries),
        Q(competition_id__in=entries.values("competition_id")),
    )
