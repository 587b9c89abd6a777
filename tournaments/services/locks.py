"""The rows a competition's writes lock first, in one order (competition, then matchday), so
two directors' writes queue instead of racing.
"""

from __future__ import annotations

from scoring.rules import RuleViolation
from tournaments.models import Competition, Entry, Matchday


def competition_locked(competition_id: int) -> Competition:
    # One director at a time sets up a competition's schedule: two clicks on "pair the
    # next matchday" must not make two matchdays with the same number.
    competition = Competition.objects.select_for_update().filter(pk=competition_id).first()
    if competition is None:
        raise RuleViolation("competition_unknown", competition=competition_id)
    return competition


def matchday_locked(matchday_id: int) -> Matchday:
    matchday = (
        Matchday.objects.select_for_update()
        .select_related("competition")
        .filter(pk=matchday_id)
        .first()
    )
    if matchday is None:
        raise RuleViolation("matchday_unknown", matchday=matchday_id)
    return matchday


def competition_entry(competition: Competition, entry_id: int) -> Entry:
    entry = Entry.objects.filter(competition=competition, pk=entry_id).first()
    if entry is None:
        raise RuleViolation("entry_unknown", entry=entry_id)
    return entry
