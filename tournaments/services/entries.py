"""Entries: a koppel or club entered into a competition, changed while it has played
nothing, deleted while nothing of it counts; the clubs a koppel's entry keeps.
"""

from __future__ import annotations

from django.db import transaction

from scoring.rules import RuleViolation
from tournaments.models import Competition, Entry, Matchday, Team
from tournaments.selectors import ENTRY_JOINS, entries_on_schedule
from tournaments.services.locks import competition_locked
from troefclub.refresh import refresh_on_commit
from troefclub.writes import trigger_violations

#
# Issue 10: past results keep the club and koppel a player played for at the time. A
# koppel's entry keeps each player's club as it was when the koppel was entered
# (`Entry.player_1_club` / `player_2_club`, read by `rankings.selectors.game_rows`), so a
# transfer afterwards (`Player.club` changed) moves no game; and a koppel that has played
# keeps its two players, so its games never move to other players.


def _player_clubs_fill(entry: Entry) -> None:
    """Set `entry`'s kept clubs to its koppel's players' clubs now; none for a club's entry
    (the database refuses them there: `entry_player_clubs_only_for_koppels`). One query for
    a koppel's entry."""
    entry.player_1_club_id = entry.player_2_club_id = None
    if entry.team_id is None:
        return
    clubs = Team.objects.filter(pk=entry.team_id).values_list(
        "player_1__club_id", "player_2__club_id"
    )
    entry.player_1_club_id, entry.player_2_club_id = clubs.first() or (None, None)


def entry_kind_check(competition: Competition, *, team_id: int | None, club_id: int | None) -> None:
    """Refuse an entry of the wrong kind for `competition`: a pairs competition enters
    koppels, a club competition clubs. Its table, its matches and its export (the importer
    reads a pairs file's entries as koppels) know no other. Neither or both of koppel and
    club are the database's check (`entry_team_or_club`), not this one's. No query.

    Raises RuleViolation `entry_club_in_pairs_competition` (the club is the wrong field)
    or `entry_koppel_in_club_competition` (the koppel is), param competition (its name).
    """
    if competition.kind == Competition.Kind.CLUBS:
        if team_id is not None:
            raise RuleViolation("entry_koppel_in_club_competition", competition=str(competition))
    elif club_id is not None:
        raise RuleViolation("entry_club_in_pairs_competition", competition=str(competition))


# The entry form field each refusal of `entry_kind_check` is about.
ENTRY_KIND_FIELDS = {
    "entry_club_in_pairs_competition": "club",
    "entry_koppel_in_club_competition": "team",
}


@trigger_violations
@transaction.atomic
def entry_add(
    *, competition_id: int, team_id: int | None = None, club_id: int | None = None
) -> Entry:
    """Enter a koppel (`team_id`, pairs competition) or a club (`club_id`, club competition).

    A koppel's entry keeps the club each of its players plays for now (`Player.club`) as
    their club in this competition. Queues a standings refresh (a row more in the table).

    Raises RuleViolation `competition_unknown`, `entry_club_in_pairs_competition` /
    `entry_koppel_in_club_competition` (param competition: `entry_kind_check`),
    `entry_koppel_entered_twice` / `entry_club_entered_twice` (the database's unique
    constraint, worded: `troefclub.writes.integrity_violation`); IntegrityError from the
    database's other checks (neither or both of koppel and club), which the admin's forms
    check first.
    """
    competition = competition_locked(competition_id)
    entry_kind_check(competition, team_id=team_id, club_id=club_id)
    entry = Entry(competition=competition, team_id=team_id, club_id=club_id)
    _player_clubs_fill(entry)
    entry.save()
    refresh_on_commit("standings", competition.pk)
    return entry


@trigger_violations
@transaction.atomic
def entry_change(
    *,
    entry_id: int,
    competition_id: int,
    team_id: int | None = None,
    club_id: int | None = None,
) -> Entry:
    """Give an entry that is not on the schedule another competition, koppel or club.

    When any of them changes, the kept clubs are those of the (new) koppel's players now,
    as for a new entry (`entry_add`); the entry has played nothing, so no game moves. Queues
    a standings refresh of the competition it left and the one it is in.

    Raises RuleViolation `entry_unknown`, `competition_unknown`, `entry_scheduled_fixed`
    (the entry has a match or a bye: the database's trigger, worded), `entry_kind_check`'s
    codes; the entered-twice codes and IntegrityError as `entry_add`.
    """
    # Two admins changing one entry: the second sees the first's koppel, not its own guess.
    entry = Entry.objects.select_for_update().filter(pk=entry_id).first()
    if entry is None:
        raise RuleViolation("entry_unknown", entry=entry_id)
    before = entry.competition_id
    if (entry.competition_id, entry.team_id, entry.club_id) != (competition_id, team_id, club_id):
        target = Competition.objects.filter(pk=competition_id).first()
        if target is None:
            raise RuleViolation("competition_unknown", competition=competition_id)
        entry_kind_check(target, team_id=team_id, club_id=club_id)
        entry.competition_id, entry.team_id, entry.club_id = competition_id, team_id, club_id
        _player_clubs_fill(entry)
        entry.save()
        for competition in sorted({before, competition_id}):
            refresh_on_commit("standings", competition)
    return entry


@transaction.atomic
def entry_delete(*, entry_id: int) -> None:
    """Take a wrong entry out of its competition, while nothing of it counts anywhere: no
    match and no bye (played or not), no deduction (a voided one included: it is the
    entry's history). Its standings rows go with it (they are derived) and the table is
    rebuilt on commit. An entry deleted already is left so.

    Raises RuleViolation `entry_on_schedule`, `entry_has_deductions` (param entry: its name).
    """
    entered = Entry.objects.filter(pk=entry_id).values_list("competition_id", flat=True)
    competition_id = entered.first()
    if competition_id is None:
        return
    # The competition first, as every schedule write locks it (pairing, matchdays,
    # deductions), then its matchdays, which `match_create` and `bye_add` lock: nobody
    # schedules this entry or deducts from it between the check and the delete.
    competition = competition_locked(competition_id)
    list(Matchday.objects.select_for_update().filter(competition=competition).values("pk"))
    entry = (
        Entry.objects.select_for_update(of=("self",))
        .select_related(*ENTRY_JOINS)
        .filter(pk=entry_id)
        .first()
    )
    if entry is None:
        return
    if entries_on_schedule(Entry.objects.filter(pk=entry.pk)).exists():
        raise RuleViolation("entry_on_schedule", entry=str(entry))
    if entry.deductions.exists():
        raise RuleViolation("entry_has_deductions", entry=str(entry))
    entry.delete()  # its standings rows with it (their foreign key cascades)
    refresh_on_commit("standings", competition.pk)


@transaction.atomic
def entry_player_clubs_set(
    *, entry_id: int, player_1_club_id: int | None, player_2_club_id: int | None
) -> Entry:
    """Correct the clubs a koppel's entry kept for its players (a league admin's fix of a
    club that was wrong when the koppel was entered). It moves the entry's games, past ones
    included, to those clubs in the season rankings; standings don't read clubs, so nothing
    is refreshed.

    Raises RuleViolation `entry_unknown`; IntegrityError on a club's entry (it keeps no
    players' clubs: `entry_player_clubs_only_for_koppels`).
    """
    entry = Entry.objects.select_for_update().filter(pk=entry_id).first()
    if entry is None:
        raise RuleViolation("entry_unknown", entry=entry_id)
    entry.player_1_club_id, entry.player_2_club_id = player_1_club_id, player_2_club_id
    entry.save(update_fields=["player_1_club", "player_2_club"])
    return entry
