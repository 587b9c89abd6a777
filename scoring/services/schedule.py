"""Writes of a competition's schedule: a round robin, a Swiss matchday's pairing, a matchday
added or deleted, with the games of each new match.
"""

from __future__ import annotations

import datetime
from collections import Counter, defaultdict
from collections.abc import Collection, Mapping, Sequence
from typing import Any, cast

from django.db import transaction
from simple_history.utils import bulk_create_with_history

from scoring.models import Game
from scoring.rules import RuleViolation, matchday_places_violations
from scoring.selectors.results import result_holders
from scoring.selectors.schedule import matchday_problems
from scoring.selectors.standings import competition_table
from scoring.services.refresh import standings_refresh_on_commit
from tournaments.models import Bye, Competition, Deduction, Entry, Match, Matchday
from tournaments.schedules import SwissEntrant, SwissRound, round_robin, swiss_pair
from tournaments.selectors import (
    ENTRY_JOINS,
    competition_entries,
    entries_not_expected,
    entries_withdrawn,
    koppel_entry_players,
)
from tournaments.services.locks import competition_locked, matchday_locked
from troefclub.writes import trigger_violations


def _next_matchday_number(competition: Competition, number: int) -> None:
    """Check that the form's matchday `number` is the next one of the locked `competition`.

    The form carries the number it was made to add (the caller has checked that it does
    not exist: a form sent twice); made before another director added or deleted a
    matchday, it finds the numbering moved on. Raises RuleViolation:
    `matchday_number_changed` (params number, next).
    """
    last = competition.matchdays.order_by("-number").values_list("number", flat=True).first()
    if number != (last or 0) + 1:
        raise RuleViolation("matchday_number_changed", number=number, next=(last or 0) + 1)


def _matchday_create(
    competition: Competition, number: int, date: datetime.date | None, **extra: Any
) -> Matchday:
    return Matchday.objects.create(competition=competition, number=number, date=date, **extra)


def _time_check(date: datetime.date | None, time: datetime.time | None) -> None:
    """A start time belongs to a date: refuse one without. Raises RuleViolation
    `matchday_time_without_date`."""
    if time is not None and date is None:
        raise RuleViolation("matchday_time_without_date")


def match_with_games_create(
    competition: Competition,
    matchday: Matchday,
    home: Entry,
    away: Entry,
    *,
    table: int,
    pairing_reason: dict[str, Any] | None = None,
) -> Match:
    """A match; in a pairs competition also its one game, at the same table.

    The callers check the matchday's places first (`places_check`); the game is the
    match's own two koppels, the one game a pairs match has.
    """
    match = Match.objects.create(
        matchday=matchday, home=home, away=away, table=table, pairing_reason=pairing_reason or {}
    )
    if competition.kind == Competition.Kind.PAIRS:
        assert home.team_id is not None and away.team_id is not None
        Game.objects.create(
            match=match, table=table, team_a_id=home.team_id, team_b_id=away.team_id
        )
    return match


def _entries_named(violation: RuleViolation) -> RuleViolation:
    """`violation` with the entry ids in its params (`entry`, and the (home, away) places
    `first`, `second`, `match`) replaced by the entries' names, for the message."""
    keys = ("entry", "first", "second", "match")

    def ids(value: Any) -> tuple[Any, ...]:
        return value if isinstance(value, tuple) else (value,)

    given = {key: value for key, value in violation.params.items() if key in keys and value}
    names = {
        entry.pk: str(entry)
        for entry in Entry.objects.filter(
            pk__in={entry_id for value in given.values() for entry_id in ids(value)}
        ).select_related(*ENTRY_JOINS)
    }
    for key, value in given.items():
        named = tuple(names.get(entry_id, entry_id) for entry_id in ids(value))
        given[key] = named if isinstance(value, tuple) else named[0]
    return RuleViolation(violation.code, **{**violation.params, **given})


def places_check(
    entry_ids: Collection[int],
    *,
    stored: tuple[Sequence[tuple[int, int]], Sequence[int]] = ((), ()),
    matches: Sequence[tuple[int, int]] = (),
    byes: Sequence[int] = (),
) -> None:
    """The one check of who plays where (`scoring.rules.matchday_places_check`) over a
    matchday as a write leaves it: `stored` (matches as (home id, away id), bye entry ids)
    stay, `matches` and `byes` are added; `entry_ids` are the competition's entries.

    A fault among the stored places alone (stored before the triggers; the matchday page
    and `manage.py check_results` show it) doesn't stop this write; a fault it adds does.

    Raises RuleViolation, the entries named: `entry_other_competition` (params entry,
    match), `match_same_entry` (param entry), `entry_twice_on_matchday` (params entry,
    first, second: the two places, a (home, away) pair or None for the bye);
    `match_entries_share_player` (params player: named, match), `player_twice_on_matchday`
    (params player: named, first, second) for a player in two koppel entries.
    """
    stored_matches, stored_byes = stored
    players, player_names = koppel_entry_players(
        [entry for match in [*stored_matches, *matches] for entry in match]
    )

    def fault(violation: RuleViolation) -> tuple[Any, ...]:
        return (violation.code, violation.params.get("entry"), violation.params.get("player"))

    known = {
        fault(violation)
        for violation in matchday_places_violations(
            stored_matches, stored_byes, entries=entry_ids, players=players
        )
    }
    for violation in matchday_places_violations(
        [*stored_matches, *matches], [*stored_byes, *byes], entries=entry_ids, players=players
    ):
        if fault(violation) not in known:
            named = _entries_named(violation)
            if "player" in named.params:
                player = named.params["player"]
                named = RuleViolation(
                    named.code, **{**named.params, "player": player_names.get(player, player)}
                )
            raise named


def matchday_places(
    matchday: Matchday, *, without_matches: Collection[int] = (), without_byes: Collection[int] = ()
) -> tuple[list[tuple[int, int]], list[int]]:
    """The stored (home id, away id) of a matchday's matches and the entry ids of its byes,
    oldest first, leaving out the match and bye ids given."""
    matches = matchday.matches.exclude(pk__in=without_matches).order_by("pk")
    byes = matchday.byes.exclude(pk__in=without_byes).order_by("pk")
    return (
        list(matches.values_list("home_id", "away_id")),
        list(byes.values_list("entry_id", flat=True)),
    )


def competition_entry_id_set(competition: Competition) -> set[int]:
    return set(competition.entries.values_list("pk", flat=True))


def games_have_results(matches: Sequence[Match]) -> bool:
    """Whether a game of these matches has rounds, totals or is over."""
    games = Game.objects.filter(match__in=matches)
    return result_holders(games).exists()


def matches_have_results(matches: Sequence[Match]) -> bool:
    """Whether any of the matches has a result that an edit would throw away (reported
    totals, a forfeit, a game with a result: `scoring.selectors.results.result_holders`)."""
    rows = Match.objects.filter(pk__in=[match.pk for match in matches])
    return result_holders(rows).exists()


@trigger_violations
@transaction.atomic
def schedule_round_robin_create(
    *,
    competition_id: int,
    double: bool | None = None,
    start: datetime.date | None = None,
    days_between: int = 7,
    time: datetime.time | None = None,
) -> list[Matchday]:
    """The whole season's round robin in one go: matchdays, matches, tables and byes.

    Berger tables over the entries in name order; `double` (default: the competition's
    format) adds the return cycle with home and away swapped. An odd number of entries
    gives one bye per matchday. Pairs competitions get their games too; club matches get
    theirs when the lineups are set. Dates start at `start`, `days_between` days apart;
    every matchday starts at `time` (None: no start time; needs `start`).

    Raises RuleViolation: `competition_unknown`, `schedule_exists` (matchdays already
    there: edit them instead), `schedule_too_few_entries`, `schedule_duplicate_entry`.
    """
    _time_check(start, time)
    competition = competition_locked(competition_id)
    if competition.matchdays.exists():
        raise RuleViolation("schedule_exists")
    if double is None:
        double = competition.schedule_format == Competition.Format.DOUBLE_ROUND_ROBIN
    # An entry withdrawn before the schedule is made is left out of it (issue 22): its
    # withdrawal came before any matchday was paired.
    gone = entries_withdrawn(competition=competition, number=32767)
    entries = [e for e in competition_entries(competition=competition) if e.pk not in gone]
    entry_ids = {entry.pk for entry in entries}
    matchdays = []
    for number, pairing in enumerate(round_robin(entries, double=double), start=1):
        places_check(
            entry_ids,
            matches=[(home.pk, away.pk) for home, away in pairing.pairs],
            byes=[pairing.bye.pk] if pairing.bye is not None else [],
        )
        date = start + datetime.timedelta(days=days_between * (number - 1)) if start else None
        matchday = _matchday_create(competition, number, date, time=time)
        for table, (home, away) in enumerate(pairing.pairs, start=1):
            match_with_games_create(competition, matchday, home, away, table=table)
        if pairing.bye is not None:
            Bye.objects.create(matchday=matchday, entry=pairing.bye, reason={"code": "round_robin"})
        matchdays.append(matchday)
    standings_refresh_on_commit(competition.pk)
    return matchdays


def _open_in_matchday(matchday: Matchday) -> int:
    """What keeps a matchday from being finished: games still open, matches with no result
    and no games, and entries left out (neither a match nor the bye)."""
    open_games = (
        Game.objects.filter(match__matchday=matchday, status=Game.Status.OPEN)
        .filter(match__forfeit="")
        .count()
    )
    unplayed = (
        Match.objects.filter(matchday=matchday, games__isnull=True, total_home__isnull=True)
        .filter(forfeit="")
        .count()
    )
    left_out = matchday_problems(matchday=matchday).left_out
    return open_games + unplayed + len(left_out)


@trigger_violations
@transaction.atomic
def swiss_matchday_pair(
    *,
    competition_id: int,
    number: int,
    override_reason: str = "",
    date: datetime.date | None = None,
    time: datetime.time | None = None,
) -> Matchday:
    """Pair the next matchday of a Swiss tournament from the standings as they are now.

    No rematch while avoidable, at most one bye per entrant, closest scores
    (`_swiss_entrants`, `tournaments.schedules.swiss_pair`); each match keeps its reason
    for the director's page. Refused while a game of the previous matchday is unfinished,
    unless `override_reason` says why (it is stored on the matchday).

    `number` (required) is the matchday the director's form was made to pair: sent twice,
    the second finds it paired (`matchday_already_paired`) and pairs nothing.

    Raises RuleViolation: `competition_unknown`, `not_swiss`, `matchday_already_paired`
    (param number), `matchday_number_changed` (params number, next),
    `previous_matchday_unfinished` (params number, open), `swiss_too_few_entrants`,
    `swiss_no_bye_possible`, `matchday_time_without_date` (a `time` needs a `date`), and
    `places_check`'s codes.
    """
    _time_check(date, time)
    competition = competition_locked(competition_id)
    _swiss_number_check(competition, number)
    last = competition.matchdays.order_by("-number").first()
    override_reason = override_reason.strip()
    _previous_matchday_check(last, override_reason)
    entries = competition_entries(competition=competition)
    next_number = (last.number + 1) if last else 1
    pairing = swiss_pair(_swiss_entrants(competition, number=next_number))
    by_id = {entry.pk: entry for entry in entries}
    places_check(
        by_id.keys(),
        matches=[(pair.home, pair.away) for pair in pairing.pairs],
        byes=[pairing.bye] if pairing.bye is not None else [],
    )
    matchday = _matchday_create(
        competition,
        (last.number + 1) if last else 1,
        date,
        override_reason=override_reason,
        time=time,
    )
    _swiss_matches_create(competition, matchday, pairing, by_id)
    _swiss_bye_create(matchday, pairing, by_id)
    standings_refresh_on_commit(competition.pk)
    return matchday


def _swiss_number_check(competition: Competition, number: int) -> None:
    """Check that the locked `competition` is a Swiss tournament and that matchday
    `number`, the one the director's form was made to pair, is not paired yet and is the
    next one (`_next_matchday_number`).

    Raises RuleViolation: `not_swiss`, `matchday_already_paired` (param number),
    `matchday_number_changed` (params number, next).
    """
    if competition.schedule_format != Competition.Format.SWISS:
        raise RuleViolation("not_swiss")
    if competition.matchdays.filter(number=number).exists():
        raise RuleViolation("matchday_already_paired", number=number)
    _next_matchday_number(competition, number)


def _previous_matchday_check(last: Matchday | None, override_reason: str) -> None:
    """Refuse to pair after `last`, the previous matchday (None: there is none), while it
    is unfinished (`_open_in_matchday`), unless the director's `override_reason`
    (stripped; "" for none) says why.

    Raises RuleViolation: `previous_matchday_unfinished` (params number, open: how many
    games, matches and entries keep it open).
    """
    if last is None or override_reason:
        return
    open_count = _open_in_matchday(last)
    if open_count:
        raise RuleViolation("previous_matchday_unfinished", number=last.number, open=open_count)


def _swiss_entrants(competition: Competition, *, number: int) -> list[SwissEntrant[int]]:
    """The entrants of Swiss matchday `number`, by entry id: ranked by competition points,
    then saldo (the standings as they are now), each with the opponents met, the byes had
    and the home matches played so far (`_swiss_so_far`). networkx's maximum-weight
    matching pairs them (`tournaments.schedules.swiss_pair`). An entry withdrawn by then,
    or absent from the evening's check-in, is no entrant (issue 22: `entries_not_expected`).
    """
    table = competition_table(competition=competition, tiebreaks=["points", "saldo"])
    opponents, home_games, byes = _swiss_so_far(competition)
    away = entries_not_expected(competition=competition, number=number)
    entrants: list[SwissEntrant[int]] = []
    for row in table:
        entry_id = cast(int, row.entry)
        if entry_id in away:
            continue
        entrants.append(
            SwissEntrant(
                id=entry_id,
                points=row.points,
                tiebreak=row.saldo,
                opponents=tuple(opponents[entry_id]),
                byes=byes[entry_id],
                home_games=home_games[entry_id],
            )
        )
    return entrants


def _swiss_so_far(
    competition: Competition,
) -> tuple[defaultdict[int, list[int]], Counter[int], Counter[int]]:
    """By entry id, from the competition's stored matches and byes: the opponents met (entry
    ids, one per match), the home matches played and the byes had."""
    opponents: defaultdict[int, list[int]] = defaultdict(list)
    home_games: Counter[int] = Counter()
    for home_id, away_id in Match.objects.filter(matchday__competition=competition).values_list(
        "home_id", "away_id"
    ):
        opponents[home_id].append(away_id)
        opponents[away_id].append(home_id)
        home_games[home_id] += 1
    byes = Counter(
        Bye.objects.filter(matchday__competition=competition).values_list("entry_id", flat=True)
    )
    return opponents, home_games, byes


def _swiss_matches_create(
    competition: Competition,
    matchday: Matchday,
    pairing: SwissRound[int],
    by_id: Mapping[int, Entry],
) -> None:
    """The matches of `pairing` (entry ids; `by_id` their entries) on `matchday`, at tables
    1, 2, ... in pairing order, each with its reason ({"code", "params"}); in a pairs
    competition each match's one game at the same table. Every row gets its history row.
    """
    # What `match_with_games_create` does, in bulk: 1,000 entries made 2,000 single-row inserts
    # (match, game and their history rows), 2–3 s a matchday (issue 7).
    matches = bulk_create_with_history(
        [
            Match(
                matchday=matchday,
                home=by_id[pair.home],
                away=by_id[pair.away],
                table=table,
                pairing_reason={"code": pair.reason, "params": dict(pair.params)},
            )
            for table, pair in enumerate(pairing.pairs, start=1)
        ],
        Match,
    )
    if competition.kind == Competition.Kind.PAIRS:
        bulk_create_with_history(
            [
                Game(
                    match=match,
                    table=match.table,
                    team_a_id=match.home.team_id,
                    team_b_id=match.away.team_id,
                )
                for match in matches
            ],
            Game,
        )


def _swiss_bye_create(
    matchday: Matchday, pairing: SwissRound[int], by_id: Mapping[int, Entry]
) -> None:
    """The bye of `pairing` (an entry id or None; `by_id` the entries) on `matchday`, with
    its reason ({"code", "params"})."""
    if pairing.bye is not None:
        Bye.objects.create(
            matchday=matchday,
            entry=by_id[pairing.bye],
            reason={"code": pairing.bye_reason or "", "params": dict(pairing.bye_params)},
        )


@transaction.atomic
def matchday_create(
    *,
    competition_id: int,
    number: int,
    date: datetime.date | None = None,
    time: datetime.time | None = None,
) -> Matchday:
    """Add matchday `number`, empty, for pairings made by hand (`match_create`), on `date`
    from `time` (its start, in the competition's time zone; None: none) if given.

    `number` (required) is the next matchday as the director's form showed it: the same
    form sent twice (a double click) finds it added and adds nothing.

    Raises RuleViolation: `competition_unknown`, `matchday_already_added` (param number),
    `matchday_number_changed` (params number, next), `matchday_time_without_date`.
    """
    _time_check(date, time)
    competition = competition_locked(competition_id)
    if competition.matchdays.filter(number=number).exists():
        raise RuleViolation("matchday_already_added", number=number)
    _next_matchday_number(competition, number)
    return _matchday_create(competition, number, date, time=time)


@transaction.atomic
def matchday_delete(*, matchday_id: int) -> int:
    """Delete the last matchday of a competition while it has no results; returns its number.

    Its empty matches and games and its byes go with it. Only the highest-numbered
    matchday can go, so the numbering never has a hole (matchday 3 of 5 can't be
    deleted; swap or remove its matches instead). A matchday with a result of any kind
    (rounds, totals, a game over, a forfeit, a deduction on one of its matches) stays.

    Raises RuleViolation: `matchday_unknown`, `matchday_not_last` (params number, last),
    `matchday_has_results` (param number).
    """
    competition_id = (
        Matchday.objects.filter(pk=matchday_id).values_list("competition_id", flat=True).first()
    )
    if competition_id is None:
        raise RuleViolation("matchday_unknown", matchday=matchday_id)
    # The competition first, as every schedule write locks it: nobody pairs, adds or
    # deletes a matchday of this competition while we look at which one is last.
    competition = competition_locked(competition_id)
    matchday = matchday_locked(matchday_id)
    last = competition.matchdays.order_by("-number").values_list("number", flat=True).first()
    if matchday.number != last:
        raise RuleViolation("matchday_not_last", number=matchday.number, last=last)
    # Locked so no result can be entered on them while they are checked and deleted.
    matches = list(Match.objects.select_for_update().filter(matchday=matchday))
    if matches_have_results(matches) or Deduction.objects.filter(match__in=matches).exists():
        raise RuleViolation("matchday_has_results", number=matchday.number)
    Game.objects.filter(match__in=matches).delete()
    Match.objects.filter(matchday=matchday).delete()
    Bye.objects.filter(matchday=matchday).delete()
    number = matchday.number
    matchday.delete()
    standings_refresh_on_commit(competition.pk)
    return number
