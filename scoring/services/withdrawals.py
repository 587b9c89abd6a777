"""Withdrawal of an entry from a matchday on, and its reinstatement (issue 22).

A withdrawal touches the schedule and the standings: its pending matches become walk-overs
won by the opponents (`Match.ForfeitCause.WITHDRAWAL`) or are removed, its unplayed byes
go, and its played matches keep their results or are annulled for both sides (read by
`scoring.selectors.standings.competition_table`). A played match is never turned into a
forfeit (citadel #327): only matches holding no result at all are touched.
"""

from __future__ import annotations

import datetime
from typing import Any, cast

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import Q

from scoring.models import Game
from scoring.rules import Forfeit, RuleViolation
from scoring.selectors.results import result_holders
from scoring.services.refresh import standings_refresh_on_commit
from scoring.services.schedule import (
    competition_entry_id_set,
    match_with_games_create,
    matchday_places,
    places_check,
)
from tournaments.models import (
    Bye,
    Competition,
    Entry,
    Match,
    Matchday,
    Withdrawal,
    WithdrawalFixtures,
    WithdrawalPlayed,
)
from tournaments.selectors import ENTRY_JOINS
from tournaments.services.locks import competition_locked

REASON_MAX = cast(int, Withdrawal._meta.get_field("reason").max_length)

# The `history_change_reason` of the match rows a withdrawal or a reinstatement writes:
# the one event is the `Withdrawal`'s history row; each match's own row says it came from it.
WITHDRAWAL_REASON = "withdrawal"
REINSTATE_REASON = "reinstatement"


def withdrawal_reason_check(reason: str) -> str:
    """The reason a withdrawal is stored with (stripped). Shared with the importer.

    Raises RuleViolation: `withdrawal_reason_required`, `withdrawal_reason_too_long`
    (param limit).
    """
    reason = reason.strip()
    if not reason:
        raise RuleViolation("withdrawal_reason_required")
    if len(reason) > REASON_MAX:
        raise RuleViolation("withdrawal_reason_too_long", limit=REASON_MAX)
    return reason


def _entry_locked(entry_id: int) -> tuple[Competition, Entry]:
    """The entry's competition, its matchdays and the entry, locked in the order every
    schedule write takes them (`entry_delete`): nobody pairs, scores a bye or adds a
    match of this competition while the withdrawal looks at what is pending."""
    competition_id = (
        Entry.objects.filter(pk=entry_id).values_list("competition_id", flat=True).first()
    )
    if competition_id is None:
        raise RuleViolation("entry_unknown", entry=entry_id)
    competition = competition_locked(competition_id)
    list(Matchday.objects.select_for_update().filter(competition=competition).values("pk"))
    entry = (
        Entry.objects.select_for_update(of=("self",)).select_related(*ENTRY_JOINS).get(pk=entry_id)
    )
    return competition, entry


def _from_number(
    competition: Competition, from_matchday: int | None, from_date: datetime.date | None
) -> int:
    """The first matchday the entry no longer plays: `from_matchday`, or the first matchday
    on or after `from_date` (none yet: the next one to be added).

    Raises RuleViolation: `withdrawal_from_missing` (neither or both given),
    `withdrawal_matchday_invalid` (param number).
    """
    if (from_matchday is None) == (from_date is None):
        raise RuleViolation("withdrawal_from_missing")
    if from_matchday is not None:
        if not 1 <= from_matchday <= 32767:
            raise RuleViolation("withdrawal_matchday_invalid", number=from_matchday)
        return from_matchday
    numbers = competition.matchdays.order_by("number")
    first = numbers.filter(date__gte=from_date).values_list("number", flat=True).first()
    if first is not None:
        return first
    last = numbers.reverse().values_list("number", flat=True).first()
    return (last or 0) + 1


def _entry_matches(entry: Entry) -> Q:
    return Q(home=entry) | Q(away=entry)


def _played_resolved(competition: Competition, entry: Entry) -> str:
    """The competition's `withdrawal_played` for this entry: "half" resolves to "annul"
    when it played (a result of any kind) fewer than half of its scheduled matches, else
    "keep"; a Swiss tournament keeps (its schedule ahead is unknown, and Swiss practice
    lets results stand)."""
    setting = competition.withdrawal_played
    if setting != WithdrawalPlayed.HALF:
        return str(setting)
    if competition.schedule_format == Competition.Format.SWISS:
        return WithdrawalPlayed.KEEP
    matches = Match.objects.filter(_entry_matches(entry), matchday__competition=competition)
    scheduled = matches.count()
    played = result_holders(matches).count()
    return WithdrawalPlayed.ANNUL if played * 2 < scheduled else WithdrawalPlayed.KEEP


def _pending(competition: Competition, entry: Entry, number: int, *, walkover: bool) -> list[Match]:
    """The entry's matches from matchday `number` on that hold no result and no deduction
    (locked): the only ones a withdrawal changes; for walk-overs also those another
    withdrawal made walk-overs (both sides withdrew: both forfeit)."""
    mine = Match.objects.filter(
        _entry_matches(entry), matchday__competition=competition, matchday__number__gte=number
    )
    open_ones = Q(pk__in=mine.exclude(pk__in=result_holders(mine).values("pk")).values("pk"))
    if walkover:
        played_games = result_holders(Game.objects.filter(match__in=mine)).values("match_id")
        open_ones |= (
            Q(forfeit_cause=Match.ForfeitCause.WITHDRAWAL)
            & ~Q(forfeit="")
            & ~Q(pk__in=played_games)
            & ~Q(total_home__isnull=False)
        )
    untouched = mine.filter(open_ones, deductions__isnull=True)
    return list(
        Match.objects.select_for_update(of=("self",))
        .select_related("matchday")
        .filter(pk__in=untouched.values("pk"))
        .order_by("matchday__number", "pk")
    )


def _walkover_side(match: Match, withdrawn: set[int]) -> str:
    """The side of `match` that forfeits with the entries `withdrawn` (ids) out."""
    home, away = match.home_id in withdrawn, match.away_id in withdrawn
    if home and away:
        return Forfeit.BOTH
    if home:
        return Forfeit.HOME
    return Forfeit.AWAY if away else ""


def _withdrawn_at(competition: Competition, number: int, *, without: int | None = None) -> set[int]:
    rows = Withdrawal.objects.filter(entry__competition=competition, from_matchday__lte=number)
    if without is not None:
        rows = rows.exclude(entry_id=without)
    return set(rows.values_list("entry_id", flat=True))


@transaction.atomic
def entry_withdraw(
    *,
    entry_id: int,
    reason: str,
    from_matchday: int | None = None,
    from_date: datetime.date | None = None,
    by: AbstractBaseUser | None = None,
) -> Withdrawal:
    """Withdraw an entry from matchday `from_matchday` (or the first matchday on or after
    `from_date`) on, as the competition's settings say (`WithdrawalSettings`).

    Its matches from then on that hold no result become walk-overs won by the opponents
    (`fixtures` "walkover": the forfeit score, `Match.ForfeitCause.WITHDRAWAL`) or are
    removed with their empty games ("remove"); its byes from then on that count for nothing
    yet go. Its played matches keep their results or are annulled for both sides
    (`played`, "half" resolved now: `_played_resolved`); the standings read that. One
    `Withdrawal` row (one history row), a standings refresh on commit. The same withdrawal
    asked for again (same matchday and reason) writes nothing.

    Raises RuleViolation: `entry_unknown`, `withdrawal_reason_required`,
    `withdrawal_reason_too_long` (param limit), `withdrawal_from_missing`,
    `withdrawal_matchday_invalid` (param number), `entry_already_withdrawn` (params entry,
    number).
    """
    reason = withdrawal_reason_check(reason)
    competition, entry = _entry_locked(entry_id)
    number = _from_number(competition, from_matchday, from_date)
    existing = Withdrawal.objects.filter(entry=entry).first()
    if existing is not None:
        if (existing.from_matchday, existing.reason) == (number, reason):
            return existing  # asked for again: nothing to write
        raise RuleViolation(
            "entry_already_withdrawn", entry=str(entry), number=existing.from_matchday
        )
    played = _played_resolved(competition, entry)
    fixtures = str(competition.withdrawal_fixtures)
    removed: list[dict[str, Any]] = []
    for match in _pending(
        competition, entry, number, walkover=fixtures == WithdrawalFixtures.WALKOVER
    ):
        if fixtures == WithdrawalFixtures.REMOVE:
            removed.append(
                {
                    "matchday": match.matchday.number,
                    "home": match.home_id,
                    "away": match.away_id,
                    "table": match.table,
                }
            )
            Game.objects.filter(match=match).delete()
            match._change_reason = WITHDRAWAL_REASON  # type: ignore[attr-defined]
            match.delete()
            continue
        out = _withdrawn_at(competition, match.matchday.number) | {entry.pk}
        match.forfeit = _walkover_side(match, out)
        match.forfeit_reason = reason
        match.forfeit_cause = Match.ForfeitCause.WITHDRAWAL
        match._change_reason = WITHDRAWAL_REASON  # type: ignore[attr-defined]
        match.save(update_fields=["forfeit", "forfeit_reason", "forfeit_cause"])
    byes = Bye.objects.filter(entry=entry, matchday__number__gte=number).select_related("matchday")
    for bye in byes.exclude(pk__in=result_holders(byes).values("pk")):
        removed.append({"matchday": bye.matchday.number, "bye": True})
        bye.delete()
    last = competition.matchdays.order_by("-number").values_list("number", flat=True).first()
    withdrawal = Withdrawal(
        entry=entry,
        from_matchday=number,
        from_date=from_date,
        reason=reason,
        fixtures=fixtures,
        played=played,
        removed=removed,
        matchdays_then=last or 0,
        created_by_id=by.pk if by is not None and by.is_authenticated else None,
    )
    withdrawal.save()
    standings_refresh_on_commit(competition.pk)
    return withdrawal


@transaction.atomic
def entry_reinstate(*, entry_id: int, by: AbstractBaseUser | None = None) -> None:
    """Undo an entry's withdrawal while nothing later depends on it: its walk-overs are
    lifted (a match both sides withdrew from stays the other's walk-over), the matches and
    byes it removed come back, its played matches count again. Deletes the `Withdrawal`
    (its history keeps it: one history row); a standings refresh on commit. An entry not
    withdrawn is left so: nothing written.

    Refused once something later depends on it: a matchday added after the withdrawal
    (paired without the entry), a matchday from the withdrawal on played since (a result
    other than its walk-overs: those now stand), or a place a removed match or bye would
    take back taken meanwhile. Reinstating undoes a withdrawal made too soon or by mistake,
    before its evenings are played.

    Raises RuleViolation: `entry_unknown`, `reinstate_after_later_matchday` (params entry,
    number), `reinstate_after_played_matchday` (params entry, number),
    `reinstate_place_taken` (params entry, number).
    """
    competition, entry = _entry_locked(entry_id)
    withdrawal = Withdrawal.objects.select_for_update().filter(entry=entry).first()
    if withdrawal is None:
        return
    later = (
        competition.matchdays.filter(number__gt=withdrawal.matchdays_then)
        .order_by("number")
        .values_list("number", flat=True)
        .first()
    )
    if later is not None:
        raise RuleViolation("reinstate_after_later_matchday", entry=str(entry), number=later)
    played = _played_since(competition, withdrawal.from_matchday)
    if played is not None:
        raise RuleViolation("reinstate_after_played_matchday", entry=str(entry), number=played)
    walkovers = Match.objects.select_for_update(of=("self",)).filter(
        _entry_matches(entry),
        matchday__competition=competition,
        matchday__number__gte=withdrawal.from_matchday,
        forfeit_cause=Match.ForfeitCause.WITHDRAWAL,
    )
    for match in walkovers.exclude(forfeit="").select_related("matchday"):
        out = _withdrawn_at(competition, match.matchday.number, without=entry.pk)
        side = _walkover_side(match, out)
        match.forfeit = side
        if not side:
            match.forfeit_reason = ""
            match.forfeit_cause = Match.ForfeitCause.DIRECTOR
        match._change_reason = REINSTATE_REASON  # type: ignore[attr-defined]
        match.save(update_fields=["forfeit", "forfeit_reason", "forfeit_cause"])
    _removed_restore(competition, entry, withdrawal.removed)
    if by is not None and by.is_authenticated:
        withdrawal._history_user = by  # type: ignore[attr-defined]  # simple-history reads it
    withdrawal.delete()
    standings_refresh_on_commit(competition.pk)


def _played_since(competition: Competition, number: int) -> int | None:
    """The first matchday from `number` on with a result other than a withdrawal's
    walk-over (None: none): played without the entry, its walk-overs there now stand."""
    others = Match.objects.filter(
        matchday__competition=competition, matchday__number__gte=number
    ).exclude(forfeit_cause=Match.ForfeitCause.WITHDRAWAL, forfeit__gt="")
    return (
        result_holders(others)
        .order_by("matchday__number")
        .values_list("matchday__number", flat=True)
        .first()
    )


def _removed_restore(competition: Competition, entry: Entry, removed: list[dict[str, Any]]) -> None:
    """Put back the matches and byes a withdrawal removed (`Withdrawal.removed`), each on
    its matchday if the places are still free.

    Raises RuleViolation `reinstate_place_taken` (params entry, number).
    """
    entries = {e.pk: e for e in competition.entries.all()}
    entry_ids = competition_entry_id_set(competition)
    for item in removed:
        matchday = competition.matchdays.filter(number=int(item["matchday"])).first()
        if matchday is None:
            raise RuleViolation("reinstate_place_taken", entry=str(entry), number=item["matchday"])
        try:
            if item.get("bye"):
                places_check(entry_ids, stored=matchday_places(matchday), byes=[entry.pk])
                Bye.objects.create(matchday=matchday, entry=entry)
                continue
            home, away = entries.get(item["home"]), entries.get(item["away"])
            if home is None or away is None:
                raise RuleViolation(
                    "reinstate_place_taken", entry=str(entry), number=matchday.number
                )
            places_check(entry_ids, stored=matchday_places(matchday), matches=[(home.pk, away.pk)])
            table = item.get("table")
            if table is not None and matchday.matches.filter(table=table).exists():
                table = None
            taken = set(matchday.matches.exclude(table=None).values_list("table", flat=True))
            if table is None:
                table = next(n for n in range(1, len(taken) + 2) if n not in taken)
            match_with_games_create(competition, matchday, home, away, table=table)
        except RuleViolation as exc:
            if exc.code == "reinstate_place_taken":
                raise
            raise RuleViolation(
                "reinstate_place_taken", entry=str(entry), number=matchday.number
            ) from exc
