"""Writes of one matchday's matches: a match or bye added or deleted, two entries swapped, a
match moved to another table, a forfeit.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.db.models import Q

from scoring.forfeit_words import forfeit_reason_stored
from scoring.models import Game
from scoring.rules import Forfeit, RuleViolation
from scoring.selectors.results import holds_result
from scoring.services.refresh import standings_refresh_on_commit
from scoring.services.schedule import (
    competition_entry_id_set,
    match_with_games_create,
    matchday_places,
    matches_have_results,
    places_check,
)
from scoring.tokens import match_token, matchday_token
from tournaments.models import Bye, Competition, Deduction, Entry, Match, Matchday, Withdrawal
from tournaments.services.locks import competition_entry, matchday_locked
from troefclub.writes import trigger_violations


def _withdrawn_refuse(matchday: Matchday, *entries: Entry) -> None:
    """Refuse a place on `matchday` to an entry withdrawn by then (from it or an earlier
    matchday, `entry_withdraw`): its later fixtures are walk-overs or gone, so a place
    added by hand would bring it back without a reinstatement.

    Raises RuleViolation: `entry_withdrawn` (params entry, number: its first matchday out).
    """
    withdrawal = (
        Withdrawal.objects.filter(entry__in=entries, from_matchday__lte=matchday.number)
        .select_related("entry")
        .order_by("pk")
        .first()
    )
    if withdrawal is not None:
        entry = next(entry for entry in entries if entry.pk == withdrawal.entry_id)
        raise RuleViolation("entry_withdrawn", entry=str(entry), number=withdrawal.from_matchday)


@trigger_violations
@transaction.atomic
def match_create(
    *, matchday_id: int, home_id: int, away_id: int, table: int | None = None
) -> Match:
    """Add a match by hand; nobody plays twice on one matchday, a bye included.

    `table` defaults to the first free table. The same match asked for twice (a double
    click) is made once: the second time is refused with `match_already_added`.

    Raises RuleViolation: `matchday_unknown`, `entry_unknown`, `match_same_entry`,
    `match_already_added` (param match), `entry_withdrawn` (params entry, number: an entry
    withdrawn by this matchday), `entry_twice_on_matchday` (params entry, first, second:
    `places_check`), `table_taken` (param table).
    """
    matchday = matchday_locked(matchday_id)
    competition = matchday.competition
    home, away = competition_entry(competition, home_id), competition_entry(competition, away_id)
    if home.pk == away.pk:
        raise RuleViolation("match_same_entry")
    if matchday.matches.filter(home=home, away=away).exists():
        raise RuleViolation("match_already_added", match=f"{home} – {away}")
    _withdrawn_refuse(matchday, home, away)
    places_check(
        competition_entry_id_set(competition),
        stored=matchday_places(matchday),
        matches=[(home.pk, away.pk)],
    )
    taken = set(matchday.matches.exclude(table=None).values_list("table", flat=True))
    if table is None:
        table = next(n for n in range(1, len(taken) + 2) if n not in taken)
    elif table in taken:
        raise RuleViolation("table_taken", table=table)
    match = match_with_games_create(competition, matchday, home, away, table=table)
    standings_refresh_on_commit(competition.pk)
    return match


@transaction.atomic
def match_delete(*, match_id: int) -> None:
    """Remove a match (and its empty games) that has no result yet.

    Raises RuleViolation: `match_unknown`, `match_has_results`.
    """
    match = Match.objects.select_for_update().filter(pk=match_id).first()
    if match is None:
        raise RuleViolation("match_unknown", match=match_id)
    # A deduction given on the match (even a voided one: it is history) keeps it too.
    if matches_have_results([match]) or match.deductions.exists():
        raise RuleViolation("match_has_results")
    Game.objects.filter(match=match).delete()
    competition_id = match.matchday.competition_id
    match.delete()
    standings_refresh_on_commit(competition_id)


@trigger_violations
@transaction.atomic
def bye_add(*, matchday_id: int, entry_id: int) -> Bye:
    """Give an entry the bye of a matchday by hand (a manual schedule: the admin's bye
    page); nobody plays twice on one matchday, so the entry has no match that day and no
    bye yet. The bye's reason stays empty: given by hand.

    Raises RuleViolation: `matchday_unknown`, `entry_unknown`, `entry_withdrawn` (params
    entry, number), and `places_check`'s codes (`entry_twice_on_matchday` (params entry,
    first, second), ...).
    """
    matchday = matchday_locked(matchday_id)
    competition = matchday.competition
    entry = competition_entry(competition, entry_id)
    _withdrawn_refuse(matchday, entry)
    places_check(
        competition_entry_id_set(competition), stored=matchday_places(matchday), byes=[entry.pk]
    )
    bye = Bye.objects.create(matchday=matchday, entry=entry)
    standings_refresh_on_commit(competition.pk)
    return bye


@transaction.atomic
def bye_delete(*, bye_id: int) -> None:
    """Take a bye off its matchday (to give it to another entry), until the matchday is
    played: from then on the bye counts in the standings and stays
    (`scoring.selectors.results.result_holders`). A bye deleted already is left so.

    Raises RuleViolation: `bye_counts` (param number).
    """
    matchday_id = Bye.objects.filter(pk=bye_id).values_list("matchday_id", flat=True).first()
    if matchday_id is None:
        return
    # The matchday first, as `match_create` and `bye_add` lock it: its places hold still.
    matchday = matchday_locked(matchday_id)
    bye = Bye.objects.select_for_update().filter(pk=bye_id).first()
    if bye is None:
        return
    if holds_result(bye):
        raise RuleViolation("bye_counts", number=matchday.number)
    bye.delete()
    standings_refresh_on_commit(matchday.competition_id)


@trigger_violations
@transaction.atomic
def matchday_entries_swap(*, matchday_id: int, entry_a_id: int, entry_b_id: int, seen: str) -> None:
    """Swap two entries' places on a matchday: between two matches, or with the bye.

    Only matches without results (and without a deduction given on them, as
    `match_delete`) can change. The matches and the bye keep their rows (their ids, their
    tables, their history), each with its new entry and a manual pairing reason
    (`_places_trade`). Their games follow the koppels: every game of a swapped match has a
    koppel of the entry that left (a pairs match's one game is its two koppels; a club
    match's games each have a koppel of both clubs), so none can stay; it goes with its
    table links (they were that koppel's) and a pairs match gets its new game. A club
    match's lineup goes too (its koppels were the old club's): the director sets the new
    one. The other matches of the matchday and their games are not touched. Two entries
    that both have the bye have nothing to swap: nothing is written.

    `seen` (required) is the `matchday_token` of the page the swap was asked on: a swap
    sent twice would swap back, and one made on pairings changed meanwhile would move
    the wrong entries, so both are refused (`matchday_changed_meanwhile`).

    Locks the matchday, the two places, then the swapped matches' games: a round being
    recorded on one of them meanwhile is waited for, then refuses the swap.

    Raises RuleViolation: `matchday_unknown`, `matchday_changed_meanwhile`,
    `entry_unknown`, `entry_not_scheduled` (param entry), `swap_same_match`,
    `match_has_results`, and `places_check`'s codes for a matchday stored with an entry
    twice (the swap would leave it so).
    """
    matchday = matchday_locked(matchday_id)
    if seen != matchday_token(matchday_id=matchday.pk):
        raise RuleViolation("matchday_changed_meanwhile")
    competition = matchday.competition
    entry_a, entry_b = (
        competition_entry(competition, entry_a_id),
        competition_entry(competition, entry_b_id),
    )
    places = {entry.pk: _place_of(matchday, entry) for entry in (entry_a, entry_b)}
    place_a, place_b = places[entry_a.pk], places[entry_b.pk]
    if isinstance(place_a, Match) and isinstance(place_b, Match) and place_a.pk == place_b.pk:
        raise RuleViolation("swap_same_match")
    matches = [place for place in (place_a, place_b) if isinstance(place, Match)]
    if not matches:
        return  # both have the bye: swapped, each still has it
    games = list(
        Game.objects.select_for_update(of=("self",)).filter(match__in=matches).order_by("pk")
    )
    if matches_have_results(matches) or Deduction.objects.filter(match__in=matches).exists():
        raise RuleViolation("match_has_results")
    new_pairs: dict[int, dict[str, Entry]] = {}
    byes: list[tuple[Bye, Entry]] = []
    for place, old, new in ((place_a, entry_a, entry_b), (place_b, entry_b, entry_a)):
        if isinstance(place, Bye):
            byes.append((place, new))
        else:
            sides = new_pairs.setdefault(place.pk, {"home": place.home, "away": place.away})
            sides["home" if place.home_id == old.pk else "away"] = new
    kept = matchday_places(
        matchday,
        without_matches=[match.pk for match in matches],
        without_byes=[bye.pk for bye, _new in byes],
    )
    places_check(
        competition_entry_id_set(competition),
        stored=kept,
        matches=[(sides["home"].pk, sides["away"].pk) for sides in new_pairs.values()],
        byes=[new.pk for _bye, new in byes],
    )
    # The games go first: a pairs match's game must be its match's koppels at every
    # moment (the database's trigger), so it can't follow them row by row.
    Game.objects.filter(pk__in=[game.pk for game in games]).delete()
    _places_trade(matchday, (place_a, entry_a, entry_b), (place_b, entry_b, entry_a))
    if competition.kind == Competition.Kind.PAIRS:
        for match in matches:
            assert match.home.team_id is not None and match.away.team_id is not None
            Game.objects.create(
                match=match,
                table=match.table or 1,
                team_a_id=match.home.team_id,
                team_b_id=match.away.team_id,
            )
    standings_refresh_on_commit(competition.pk)


# The matchday number of `_places_trade`'s parking place: none a competition reaches (the
# field's largest), so it never meets a real matchday. Never committed.
PARKED_MATCHDAY = 32767

Place = Match | Bye


def _places_trade(
    matchday: Matchday, first: tuple[Place, Entry, Entry], second: tuple[Place, Entry, Entry]
) -> None:
    """Give each of two locked places of `matchday` (a match or a bye; (place, entry
    leaving, entry coming)) the other's entry, in place: one history row each.

    An entry is in one place a matchday at every moment (unique constraints and the
    database's triggers check each row as it is written, on PostgreSQL and SQLite), so two
    places can't trade entries one row after the other: the first place waits on a parking
    matchday of the competition (an update without history, never committed) while the
    second takes its entry, then comes back with the second's. The parking matchday is
    deleted again before the transaction ends.
    """
    place, _leaving, _coming = first
    parking = Matchday.objects.create(
        competition_id=matchday.competition_id, number=PARKED_MATCHDAY
    )
    type(place).objects.filter(pk=place.pk).update(matchday=parking)
    for traded in (second, first):
        _place_entry_set(*traded)
    parking.delete()


def _place_entry_set(place: Place, leaving: Entry, coming: Entry) -> None:
    """Put `coming` in `leaving`'s seat of `place` (saved, with its matchday as loaded),
    given by hand now; a match's lineup, of the clubs it had, is cleared."""
    manual = {"code": "manual", "params": {}}
    if isinstance(place, Bye):
        place.entry, place.reason = coming, manual
        place.save(update_fields=["matchday", "entry", "reason"])
        return
    side = "home" if place.home_id == leaving.pk else "away"
    setattr(place, side, coming)
    place.pairing_reason, place.lineup = manual, {}
    place.save(update_fields=["matchday", side, "pairing_reason", "lineup"])


def _place_of(matchday: Matchday, entry: Entry) -> Match | Bye:
    match = (
        matchday.matches.select_for_update()
        .select_related("home", "away")
        .filter(Q(home=entry) | Q(away=entry))
        .first()
    )
    if match is not None:
        return match
    bye = matchday.byes.select_for_update().filter(entry=entry).first()
    if bye is None:
        raise RuleViolation("entry_not_scheduled", entry=str(entry))
    return bye


@transaction.atomic
def match_table_move(*, match_id: int, table: int) -> Match:
    """Move a match to another table of its matchday; a match already there swaps tables.

    Raises RuleViolation: `match_unknown`, `table_invalid`, `match_already_at_table` (param
    table: nothing to move).
    """
    if table < 1:
        raise RuleViolation("table_invalid", table=table)
    match = (
        Match.objects.select_for_update()
        .select_related("matchday__competition")
        .filter(pk=match_id)
        .first()
    )
    if match is None:
        raise RuleViolation("match_unknown", match=match_id)
    other = (
        Match.objects.select_for_update()
        .filter(matchday=match.matchday, table=table)
        .exclude(pk=match.pk)
        .first()
    )
    old = match.table
    if old == table:
        raise RuleViolation("match_already_at_table", table=table)
    # Row by row with save(), not update(): the audit history records every move.
    if other is not None:
        # Free the table first: (matchday, table) is unique.
        other.table = None
        other.save(update_fields=["table"])
    match.table = table
    match.save(update_fields=["table"])
    if other is not None:
        other.table = old
        other.save(update_fields=["table"])
    if match.matchday.competition.kind == Competition.Kind.PAIRS:
        moves = [(match, table)] + ([(other, old)] if other is not None and old is not None else [])
        for moved, new_table in moves:
            for game in Game.objects.select_for_update().filter(match=moved):
                game.table = new_table
                game.save(update_fields=["table"])
    match.refresh_from_db()
    return match


def forfeit_reason_short(
    competition: Competition,
    home_teams: Sequence[int | None],
    away_teams: Sequence[int | None],
    short: Sequence[Forfeit],
) -> str:
    """Why the `short` sides (`Forfeit.HOME`, `Forfeit.AWAY`) forfeit: "fewer than 3
    koppels (home 2)", stored as data and worded on the page (`scoring.forfeit_words`)."""
    counts = {
        Forfeit.HOME: sum(t is not None for t in home_teams),
        Forfeit.AWAY: sum(t is not None for t in away_teams),
    }
    return forfeit_reason_stored(
        competition.min_koppels, {str(side): counts[side] for side in short}
    )


def forfeit_check(side: str, reason: str) -> str:
    """The reason a forfeit of `side` (a `Forfeit` value: "home", "away", "both"; "" lifts
    it) is stored with (stripped). Shared by `match_forfeit_set` and the bulk importer.

    Raises RuleViolation: `forfeit_side_invalid`, `forfeit_reason_missing`.
    """
    if side not in ("", *Forfeit):
        raise RuleViolation("forfeit_side_invalid", side=side)
    reason = reason.strip()
    if side and not reason:
        raise RuleViolation("forfeit_reason_missing")
    return reason


def match_not_voided(match: Match) -> None:
    """Refuse a write of a result, forfeit or lineup to a voided match (issue 22): it is the
    record of what was voided and counts nowhere, so what is written to it would be lost
    from sight; its replay is another match. Raises RuleViolation `match_voided`."""
    if match.voided_at is not None:
        raise RuleViolation("match_voided")


@transaction.atomic
def match_forfeit_set(*, match_id: int, side: str, reason: str, seen: str) -> Match:
    """Record (or with `side=""` lift) a forfeit: the side loses the match whatever was played.

    The forfeit is the director's (`Match.ForfeitCause.DIRECTOR`): a lineup can't lift it.
    The one a lineup made stays the lineup's while the form sends it back unchanged.

    `seen` (required) is the `match_token` of the director's page (an import passes the
    match's token as it is): a forfeit, lineup or totals changed meanwhile are not
    overwritten. A form asking for the forfeit stored already (sent twice, stale or not)
    changes nothing: no history row, no refresh.

    Raises RuleViolation: `match_unknown`, `match_voided`, `forfeit_side_invalid`,
    `forfeit_reason_missing`, `match_changed_meanwhile`.
    """
    match = Match.objects.select_for_update().select_related("matchday").filter(pk=match_id).first()
    if match is None:
        raise RuleViolation("match_unknown", match=match_id)
    match_not_voided(match)
    reason = forfeit_check(side, reason)
    if (match.forfeit, match.forfeit_reason) == (side, reason if side else ""):
        return match  # stored already: nothing to write, no history row, no refresh
    if seen != match_token(match, match.games.values_list("pk", flat=True)):
        raise RuleViolation("match_changed_meanwhile")
    match.forfeit_cause = Match.ForfeitCause.DIRECTOR
    match.forfeit, match.forfeit_reason = side, reason if side else ""
    match.save(update_fields=["forfeit", "forfeit_reason", "forfeit_cause"])
    standings_refresh_on_commit(match.matchday.competition_id)
    return match
