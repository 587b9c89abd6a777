"""Check-in for an evening (issue 22): who is present on a matchday, and a late koppel
added to a matchday paired without it.
"""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import Q

from scoring.rules import RuleViolation
from scoring.services.refresh import standings_refresh_on_commit
from scoring.services.schedule import (
    competition_entry_id_set,
    match_with_games_create,
    matchday_places,
    places_check,
)
from tournaments.models import Bye, CheckIn, Competition, Entry, Matchday
from tournaments.selectors import ENTRY_JOINS, entries_withdrawn
from tournaments.services.locks import competition_locked

# A late koppel's bye (`Bye.reason`): waiting for another late one, or the evening's bye.
LATE = "late"


@transaction.atomic
def checkin_record(
    *, entry_id: int, number: int, present: bool, by: AbstractBaseUser | None = None
) -> CheckIn:
    """Mark an entry present (or absent) on the evening of matchday `number`.

    Before the matchday is paired, a Swiss pairing then pairs only the entries present
    (`tournaments.selectors.entries_not_expected`). After, an entry marked present that has
    no place on it is a late koppel (pairs competitions): it meets another late koppel
    waiting with a late bye, or gets the late bye itself (`Bye.reason` {"code": "late"},
    scored as the competition's bye). A club's late koppel joins its club's match through
    the lineup instead (`Competition.late_koppel_until_sitting`). The same mark sent again
    writes nothing.

    Raises RuleViolation: `entry_unknown`, `checkin_matchday_invalid` (param number),
    `entry_withdrawn` (params entry, number), and `places_check`'s codes.
    """
    if not 1 <= number <= 32767:
        raise RuleViolation("checkin_matchday_invalid", number=number)
    competition_id = (
        Entry.objects.filter(pk=entry_id).values_list("competition_id", flat=True).first()
    )
    if competition_id is None:
        raise RuleViolation("entry_unknown", entry=entry_id)
    # The competition first, as every schedule write: the late koppel's place is decided
    # against the matchday's places as they are, not as another director's click left them.
    competition = competition_locked(competition_id)
    entry = Entry.objects.select_related(*ENTRY_JOINS).get(pk=entry_id)
    if present and entry.pk in entries_withdrawn(competition=competition, number=number):
        withdrawal = entry.withdrawal
        raise RuleViolation("entry_withdrawn", entry=str(entry), number=withdrawal.from_matchday)
    checkin = CheckIn.objects.select_for_update().filter(entry=entry, number=number).first()
    if checkin is not None and checkin.present == present:
        return checkin  # marked so already: nothing to write
    if checkin is None:
        checkin = CheckIn(entry=entry, number=number)
    checkin.present = present
    checkin.by_id = by.pk if by is not None and by.is_authenticated else None
    checkin.save()
    matchday = Matchday.objects.select_for_update().filter(competition=competition, number=number)
    paired = matchday.first()
    if present and paired is not None and competition.kind == Competition.Kind.PAIRS:
        _late_place(competition, paired, entry)
    return checkin


def _late_place(competition: Competition, matchday: Matchday, entry: Entry) -> None:
    """Give `entry`, present late on the paired `matchday`, a place if it has none: a match
    against the late koppel waiting with the late bye, else the late bye."""
    if (
        matchday.matches.filter(Q(home=entry) | Q(away=entry)).exists()
        or matchday.byes.filter(entry=entry).exists()
    ):
        return
    entry_ids = competition_entry_id_set(competition)
    waiting = (
        matchday.byes.select_for_update()
        .filter(reason__code=LATE)
        .exclude(entry=entry)
        .order_by("pk")
        .first()
    )
    if waiting is not None:
        other = waiting.entry
        waiting.delete()
        places_check(entry_ids, stored=matchday_places(matchday), matches=[(other.pk, entry.pk)])
        taken = set(matchday.matches.exclude(table=None).values_list("table", flat=True))
        table = next(n for n in range(1, len(taken) + 2) if n not in taken)
        match_with_games_create(
            competition,
            matchday,
            other,
            entry,
            table=table,
            pairing_reason={"code": LATE, "params": {}},
        )
    else:
        places_check(entry_ids, stored=matchday_places(matchday), byes=[entry.pk])
        Bye.objects.create(matchday=matchday, entry=entry, reason={"code": LATE, "params": {}})
    standings_refresh_on_commit(competition.pk)
