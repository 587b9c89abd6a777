"""Writes for competition set-up: schedules, Swiss pairings, manual edits (matches and
byes), club matches, forfeits, deductions, squads, entries and koppels' players. (A game's
confirmation is a game write: `scoring.services.game_confirm`.)

Same shape as `scoring.services`: keyword-only, one transaction, the rows that two
directors could race on locked, refusals as `RuleViolation` codes (worded in
`scoring.messages`), and a standings refresh queued on commit when results can change.
"""

from __future__ import annotations

import datetime
from collections import Counter, defaultdict
from collections.abc import Collection, Mapping, Sequence
from typing import Any, cast

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from simple_history.utils import bulk_create_with_history

from scoring import selectors as scoring_selectors
from scoring.models import Game, Standing
from scoring.rules import (
    Forfeit,
    RuleViolation,
    matchday_places_violations,
    sitting_koppels_violations,
)
from scoring.services import standings_refresh_on_commit, trigger_violations
from scoring.tokens import (
    deductions_token,
    deductions_token_newest,
    match_token,
    matchday_token,
)
from tournaments.models import (
    Bye,
    Competition,
    Deduction,
    Entry,
    Match,
    Matchday,
    Player,
    Squad,
    SquadMember,
    Team,
)
from tournaments.schedules import SwissEntrant, SwissRound, club_movement, round_robin, swiss_pair


def _competition_locked(competition_id: int) -> Competition:
    # One director at a time sets up a competition's schedule: two clicks on "pair the
    # next matchday" must not make two matchdays with the same number.
    competition = Competition.objects.select_for_update().filter(pk=competition_id).first()
    if competition is None:
        raise RuleViolation("competition_unknown", competition=competition_id)
    return competition


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


def _match_create(
    competition: Competition,
    matchday: Matchday,
    home: Entry,
    away: Entry,
    *,
    table: int,
    pairing_reason: dict[str, Any] | None = None,
) -> Match:
    """A match; in a pairs competition also its one game, at the same table.

    The callers check the matchday's places first (`_places_check`); the game is the
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
        ).select_related(*scoring_selectors.ENTRY_JOINS)
    }
    for key, value in given.items():
        named = tuple(names.get(entry_id, entry_id) for entry_id in ids(value))
        given[key] = named if isinstance(value, tuple) else named[0]
    return RuleViolation(violation.code, **{**violation.params, **given})


def _places_check(
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
    players, player_names = scoring_selectors.koppel_entry_players(
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


def _matchday_places(
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


def _entry_ids(competition: Competition) -> set[int]:
    return set(competition.entries.values_list("pk", flat=True))


def _games_have_results(matches: Sequence[Match]) -> bool:
    """Whether a game of these matches has rounds, totals or is over."""
    games = Game.objects.filter(match__in=matches)
    return scoring_selectors.result_holders(games).exists()


def _has_results(matches: Sequence[Match]) -> bool:
    """Whether any of the matches has a result that an edit would throw away (reported
    totals, a forfeit, a game with a result: `scoring.selectors.result_holders`)."""
    rows = Match.objects.filter(pk__in=[match.pk for match in matches])
    return scoring_selectors.result_holders(rows).exists()


@trigger_violations
@transaction.atomic
def schedule_round_robin_create(
    *,
    competition_id: int,
    double: bool | None = None,
    start: datetime.date | None = None,
    days_between: int = 7,
) -> list[Matchday]:
    """The whole season's round robin in one go: matchdays, matches, tables and byes.

    Berger tables over the entries in name order; `double` (default: the competition's
    format) adds the return cycle with home and away swapped. An odd number of entries
    gives one bye per matchday. Pairs competitions get their games too; club matches get
    theirs when the lineups are set. Dates start at `start`, `days_between` days apart.

    Raises RuleViolation: `competition_unknown`, `schedule_exists` (matchdays already
    there: edit them instead), `schedule_too_few_entries`, `schedule_duplicate_entry`.
    """
    competition = _competition_locked(competition_id)
    if competition.matchdays.exists():
        raise RuleViolation("schedule_exists")
    if double is None:
        double = competition.schedule_format == Competition.Format.DOUBLE_ROUND_ROBIN
    entries = scoring_selectors.competition_entries(competition=competition)
    entry_ids = {entry.pk for entry in entries}
    matchdays = []
    for number, pairing in enumerate(round_robin(entries, double=double), start=1):
        _places_check(
            entry_ids,
            matches=[(home.pk, away.pk) for home, away in pairing.pairs],
            byes=[pairing.bye.pk] if pairing.bye is not None else [],
        )
        date = start + datetime.timedelta(days=days_between * (number - 1)) if start else None
        matchday = _matchday_create(competition, number, date)
        for table, (home, away) in enumerate(pairing.pairs, start=1):
            _match_create(competition, matchday, home, away, table=table)
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
    left_out = scoring_selectors.matchday_problems(matchday=matchday).left_out
    return open_games + unplayed + len(left_out)


@trigger_violations
@transaction.atomic
def swiss_matchday_pair(
    *,
    competition_id: int,
    number: int,
    override_reason: str = "",
    date: datetime.date | None = None,
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
    `swiss_no_bye_possible`, and `_places_check`'s codes.
    """
    competition = _competition_locked(competition_id)
    _swiss_number_check(competition, number)
    last = competition.matchdays.order_by("-number").first()
    override_reason = override_reason.strip()
    _previous_matchday_check(last, override_reason)
    entries = scoring_selectors.competition_entries(competition=competition)
    pairing = swiss_pair(_swiss_entrants(competition))
    by_id = {entry.pk: entry for entry in entries}
    _places_check(
        by_id.keys(),
        matches=[(pair.home, pair.away) for pair in pairing.pairs],
        byes=[pairing.bye] if pairing.bye is not None else [],
    )
    matchday = _matchday_create(
        competition, (last.number + 1) if last else 1, date, override_reason=override_reason
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


def _swiss_entrants(competition: Competition) -> list[SwissEntrant[int]]:
    """The entrants of the next Swiss matchday, by entry id: ranked by competition points,
    then saldo (the standings as they are now), each with the opponents met, the byes had
    and the home matches played so far (`_swiss_so_far`). networkx's maximum-weight
    matching pairs them (`tournaments.schedules.swiss_pair`).
    """
    table = scoring_selectors.competition_table(
        competition=competition, tiebreaks=["points", "saldo"]
    )
    opponents, home_games, byes = _swiss_so_far(competition)
    entrants: list[SwissEntrant[int]] = []
    for row in table:
        entry_id = cast(int, row.entry)
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
    # What `_match_create` does, in bulk: 1,000 entries made 2,000 single-row inserts
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
    *, competition_id: int, number: int, date: datetime.date | None = None
) -> Matchday:
    """Add matchday `number`, empty, for pairings made by hand (`match_create`).

    `number` (required) is the next matchday as the director's form showed it: the same
    form sent twice (a double click) finds it added and adds nothing.

    Raises RuleViolation: `competition_unknown`, `matchday_already_added` (param number),
    `matchday_number_changed` (params number, next).
    """
    competition = _competition_locked(competition_id)
    if competition.matchdays.filter(number=number).exists():
        raise RuleViolation("matchday_already_added", number=number)
    _next_matchday_number(competition, number)
    return _matchday_create(competition, number, date)


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
    competition = _competition_locked(competition_id)
    matchday = _matchday_locked(matchday_id)
    last = competition.matchdays.order_by("-number").values_list("number", flat=True).first()
    if matchday.number != last:
        raise RuleViolation("matchday_not_last", number=matchday.number, last=last)
    # Locked so no result can be entered on them while they are checked and deleted.
    matches = list(Match.objects.select_for_update().filter(matchday=matchday))
    if _has_results(matches) or Deduction.objects.filter(match__in=matches).exists():
        raise RuleViolation("matchday_has_results", number=matchday.number)
    Game.objects.filter(match__in=matches).delete()
    Match.objects.filter(matchday=matchday).delete()
    Bye.objects.filter(matchday=matchday).delete()
    number = matchday.number
    matchday.delete()
    standings_refresh_on_commit(competition.pk)
    return number


def _matchday_locked(matchday_id: int) -> Matchday:
    matchday = (
        Matchday.objects.select_for_update()
        .select_related("competition")
        .filter(pk=matchday_id)
        .first()
    )
    if matchday is None:
        raise RuleViolation("matchday_unknown", matchday=matchday_id)
    return matchday


def _entry_of(competition: Competition, entry_id: int) -> Entry:
    entry = Entry.objects.filter(competition=competition, pk=entry_id).first()
    if entry is None:
        raise RuleViolation("entry_unknown", entry=entry_id)
    return entry


@trigger_violations
@transaction.atomic
def match_create(
    *, matchday_id: int, home_id: int, away_id: int, table: int | None = None
) -> Match:
    """Add a match by hand; nobody plays twice on one matchday, a bye included.

    `table` defaults to the first free table. The same match asked for twice (a double
    click) is made once: the second time is refused with `match_already_added`.

    Raises RuleViolation: `matchday_unknown`, `entry_unknown`, `match_same_entry`,
    `match_already_added` (param match), `entry_twice_on_matchday` (params entry, first,
    second: `_places_check`), `table_taken` (param table).
    """
    matchday = _matchday_locked(matchday_id)
    competition = matchday.competition
    home, away = _entry_of(competition, home_id), _entry_of(competition, away_id)
    if home.pk == away.pk:
        raise RuleViolation("match_same_entry")
    if matchday.matches.filter(home=home, away=away).exists():
        raise RuleViolation("match_already_added", match=f"{home} – {away}")
    _places_check(
        _entry_ids(competition), stored=_matchday_places(matchday), matches=[(home.pk, away.pk)]
    )
    taken = set(matchday.matches.exclude(table=None).values_list("table", flat=True))
    if table is None:
        table = next(n for n in range(1, len(taken) + 2) if n not in taken)
    elif table in taken:
        raise RuleViolation("table_taken", table=table)
    match = _match_create(competition, matchday, home, away, table=table)
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
    if _has_results([match]) or match.deductions.exists():
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

    Raises RuleViolation: `matchday_unknown`, `entry_unknown`, and `_places_check`'s codes
    (`entry_twice_on_matchday` (params entry, first, second), ...).
    """
    matchday = _matchday_locked(matchday_id)
    competition = matchday.competition
    entry = _entry_of(competition, entry_id)
    _places_check(_entry_ids(competition), stored=_matchday_places(matchday), byes=[entry.pk])
    bye = Bye.objects.create(matchday=matchday, entry=entry)
    standings_refresh_on_commit(competition.pk)
    return bye


@transaction.atomic
def bye_delete(*, bye_id: int) -> None:
    """Take a bye off its matchday (to give it to another entry), until the matchday is
    played: from then on the bye counts in the standings and stays
    (`scoring.selectors.result_holders`). A bye deleted already is left so.

    Raises RuleViolation: `bye_counts` (param number).
    """
    matchday_id = Bye.objects.filter(pk=bye_id).values_list("matchday_id", flat=True).first()
    if matchday_id is None:
        return
    # The matchday first, as `match_create` and `bye_add` lock it: its places hold still.
    matchday = _matchday_locked(matchday_id)
    bye = Bye.objects.select_for_update().filter(pk=bye_id).first()
    if bye is None:
        return
    if scoring_selectors.holds_result(bye):
        raise RuleViolation("bye_counts", number=matchday.number)
    bye.delete()
    standings_refresh_on_commit(matchday.competition_id)


@trigger_violations
@transaction.atomic
def matchday_entries_swap(*, matchday_id: int, entry_a_id: int, entry_b_id: int, seen: str) -> None:
    """Swap two entries' places on a matchday: between two matches, or with the bye.

    Only matches without results can change; pairs games follow their match's koppels.
    `seen` (required) is the `matchday_token` of the page the swap was asked on: a swap
    sent twice would swap back, and one made on pairings changed meanwhile would move
    the wrong entries, so both are refused (`matchday_changed_meanwhile`).

    Raises RuleViolation: `matchday_unknown`, `matchday_changed_meanwhile`,
    `entry_unknown`, `entry_not_scheduled` (param entry), `swap_same_match`,
    `match_has_results`, and `_places_check`'s codes for a matchday stored with an entry
    twice (the swap would leave it so).
    """
    matchday = _matchday_locked(matchday_id)
    if seen != matchday_token(matchday_id=matchday.pk):
        raise RuleViolation("matchday_changed_meanwhile")
    competition = matchday.competition
    entry_a, entry_b = _entry_of(competition, entry_a_id), _entry_of(competition, entry_b_id)
    places = {entry.pk: _place_of(matchday, entry) for entry in (entry_a, entry_b)}
    place_a, place_b = places[entry_a.pk], places[entry_b.pk]
    if isinstance(place_a, Match) and isinstance(place_b, Match) and place_a.pk == place_b.pk:
        raise RuleViolation("swap_same_match")
    matches = [place for place in (place_a, place_b) if isinstance(place, Match)]
    if _has_results(matches):
        raise RuleViolation("match_has_results")
    new_pairs: dict[int, dict[str, Entry]] = {}
    byes: list[tuple[Bye, Entry]] = []
    for place, old, new in ((place_a, entry_a, entry_b), (place_b, entry_b, entry_a)):
        if isinstance(place, Bye):
            byes.append((place, new))
        else:
            sides = new_pairs.setdefault(place.pk, {"home": place.home, "away": place.away})
            sides["home" if place.home_id == old.pk else "away"] = new
    kept = _matchday_places(
        matchday,
        without_matches=[match.pk for match in matches],
        without_byes=[bye.pk for bye, _new in byes],
    )
    _places_check(
        _entry_ids(competition),
        stored=kept,
        matches=[(sides["home"].pk, sides["away"].pk) for sides in new_pairs.values()],
        byes=[new.pk for _bye, new in byes],
    )
    # An entry is in one place a matchday at every moment (unique constraints and the
    # database's triggers), so two places can't trade entries one row at a time: the
    # matches go first (they have no results, so they are made anew), then the bye
    # changes hands, then the matches come back with their new entries.
    Game.objects.filter(match__in=matches).delete()
    Match.objects.filter(pk__in=[match.pk for match in matches]).delete()
    for bye, new in byes:
        bye.entry = new
        bye.reason = {"code": "manual", "params": {}}
        bye.save(update_fields=["entry", "reason"])
    for match in matches:
        sides = new_pairs[match.pk]
        _match_create(
            competition,
            matchday,
            sides["home"],
            sides["away"],
            table=match.table or 1,
            pairing_reason={"code": "manual", "params": {}},
        )
    standings_refresh_on_commit(competition.pk)


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


@trigger_violations
@transaction.atomic
def club_match_lineup_set(
    *,
    match_id: int,
    home_teams: Sequence[int | None],
    away_teams: Sequence[int | None],
    late: Mapping[int, int] | None = None,
    seen: str,
) -> Match:
    """Set the koppels of a club match, store the lineup and create its games by the movement.

    `home_teams` / `away_teams` hold one koppel id (or None for an empty place) per place,
    `koppels_per_side` places a side; `late` maps a koppel id to the first sitting it plays
    (at most `late_koppel_until_sitting`). The games follow the movement (`_lineup_games`);
    a side with fewer than `min_koppels` koppels forfeits the match until a lineup fields
    enough (`_lineup_forfeit`). When the competition requires squads, every player must be
    on their club's squad for the season. The lineup is kept on the match (`Match.lineup`,
    as `_lineup_stored` shapes it).

    `seen` (required) is the `match_token` of the director's page: a lineup, forfeit or
    games changed meanwhile are not overwritten (`match_changed_meanwhile`); a stale form
    asking for the lineup stored already (sent twice) changes nothing.

    Raises RuleViolation: `match_unknown`, `not_a_club_match`, `match_changed_meanwhile`,
    `match_has_results`, `lineup_wrong_size` (params side, size), `lineup_empty` (no koppel
    on either side: set a forfeit instead), `koppel_not_of_club` (params koppel, club),
    `koppel_not_on_squad` (params koppel, players, club), `koppel_twice`,
    `late_not_allowed`, `late_too_late` (params koppel, sitting, until), the movement's
    `movement_late_sitting` / `movement_too_few_koppels` (a late sitting beyond the match's
    sittings, a side with nobody at the first sitting), and `koppel_twice_in_sitting`
    (params koppel, sitting: at a table of another match of the matchday, `_sittings_check`).
    """
    match = _club_match_locked(match_id)
    competition = match.matchday.competition
    late = dict(late or {})
    if _lineup_sent_twice(match, seen, home_teams, away_teams, late):
        return match
    _lineup_unplayed(match)
    teams = _lineup_koppels(match, home_teams, away_teams)
    if competition.squads_required:
        _lineup_on_squads(competition, match, home_teams, away_teams, teams)
    _lineup_late_check(competition, late, teams)
    games = _lineup_games(competition, home_teams, away_teams, late)
    _sittings_check(match, [(sitting, home, away) for sitting, _table, home, away in games])
    _lineup_games_replace(match, games)
    match.lineup = _lineup_stored(home_teams, away_teams, late, competition.koppels_per_side)
    _lineup_forfeit(match, home_teams, away_teams)
    match.save(update_fields=["forfeit", "forfeit_reason", "forfeit_cause", "lineup"])
    standings_refresh_on_commit(competition.pk)
    return match


def _club_match_locked(match_id: int) -> Match:
    """The match `match_id` of a club competition, locked, with its matchday's competition
    and both entries' clubs joined.

    Raises RuleViolation: `match_unknown`, `not_a_club_match`.
    """
    match = (
        Match.objects.select_for_update(of=("self",))
        .select_related("matchday__competition", "home__club", "away__club")
        .filter(pk=match_id)
        .first()
    )
    if match is None:
        raise RuleViolation("match_unknown", match=match_id)
    if match.matchday.competition.kind != Competition.Kind.CLUBS:
        raise RuleViolation("not_a_club_match")
    return match


def _lineup_sent_twice(
    match: Match,
    seen: str,
    home_teams: Sequence[int | None],
    away_teams: Sequence[int | None],
    late: Mapping[int, int],
) -> bool:
    """Whether the lineup asked for is a stale form sent again: `seen` (the `match_token`
    of the director's page) is not the locked `match`'s token, and the match's lineup is
    already the one asked for. False when `seen` is current.

    Raises RuleViolation: `match_changed_meanwhile` (stale, asking for another lineup).
    """
    if seen == match_token(match, match.games.values_list("pk", flat=True)):
        return False
    size = match.matchday.competition.koppels_per_side
    if match.lineup == _lineup_stored(home_teams, away_teams, late, size):
        return True
    raise RuleViolation("match_changed_meanwhile")


def _lineup_unplayed(match: Match) -> None:
    """Refuse a new lineup for a match with reported totals or a game with a result: a
    forfeit may be lifted by a better lineup, but played games are never thrown away.

    Raises RuleViolation: `match_has_results`.
    """
    if match.total_home is not None or _games_have_results([match]):
        raise RuleViolation("match_has_results")


def _lineup_koppels(
    match: Match, home_teams: Sequence[int | None], away_teams: Sequence[int | None]
) -> dict[int, Team]:
    """The koppels of the lineup by id (their players joined), checked: no koppel twice,
    `koppels_per_side` places a side, both players of each koppel of the side's club, and
    a koppel on at least one side.

    Raises RuleViolation: `koppel_twice`, `lineup_wrong_size` (params side: "home" or
    "away", size), `koppel_not_of_club` (params koppel, club), `lineup_empty`.
    """
    size = match.matchday.competition.koppels_per_side
    chosen = [t for t in (*home_teams, *away_teams) if t is not None]
    if len(chosen) != len(set(chosen)):
        raise RuleViolation("koppel_twice")
    teams = {
        team.pk: team
        for team in Team.objects.select_related("player_1", "player_2").filter(pk__in=chosen)
    }
    for side, lineup, entry in (("home", home_teams, match.home), ("away", away_teams, match.away)):
        if len(lineup) != size:
            raise RuleViolation("lineup_wrong_size", side=side, size=size)
        for team_id in lineup:
            if team_id is None:
                continue
            team = teams.get(team_id)
            club_id = entry.club_id
            if team is None or {team.player_1.club_id, team.player_2.club_id} != {club_id}:
                raise RuleViolation(
                    "koppel_not_of_club", koppel=str(team or team_id), club=str(entry)
                )
    if not chosen:
        # Both sides empty is the form's default ("— nobody —" everywhere), not a decision:
        # saved, it would forfeit both clubs. A double forfeit is set as a forfeit.
        raise RuleViolation("lineup_empty")
    return teams


def _lineup_late_check(
    competition: Competition, late: Mapping[int, int], teams: Mapping[int, Team]
) -> None:
    """Check `late` (koppel id: the first sitting it plays) against the competition's
    `late_koppel_until_sitting` and the lineup's koppels `teams` (by id).

    Raises RuleViolation: `late_not_allowed` (the competition has no late koppels),
    `late_too_late` (params koppel, sitting, until: a sitting outside 1..until, or a
    koppel not in the lineup).
    """
    until = competition.late_koppel_until_sitting
    for team_id, sitting in late.items():
        if until is None:
            raise RuleViolation("late_not_allowed")
        if not 1 <= sitting <= until or team_id not in teams:
            raise RuleViolation(
                "late_too_late",
                koppel=str(teams.get(team_id, team_id)),
                sitting=sitting,
                until=until,
            )


def _lineup_games(
    competition: Competition,
    home_teams: Sequence[int | None],
    away_teams: Sequence[int | None],
    late: Mapping[int, int],
) -> list[tuple[int, int, int, int]]:
    """The games of a lineup by the movement (`tournaments.schedules.club_movement`), as
    (sitting, table, home koppel id, away koppel id).

    Each side's koppels move to the front places and the movement runs over as many tables
    as the bigger side fields: every sitting the away koppels move one table on, so each
    home koppel meets different away koppels. With fewer koppels a side than the
    competition's sittings, the match has only that many sittings (one more would bring a
    home koppel back to an away koppel it met). A koppel facing an empty place (the smaller
    side, or a koppel not yet arrived) sits out that sitting and scores nothing. A side
    that fields nobody forfeits (`_lineup_forfeit`): no games.

    Raises RuleViolation: `movement_late_sitting`, `movement_too_few_koppels`.
    """
    home_fielded = [t for t in home_teams if t is not None]
    away_fielded = [t for t in away_teams if t is not None]
    if not (home_fielded and away_fielded):
        return []
    tables = max(len(home_fielded), len(away_fielded))
    sittings = club_movement(
        home_fielded + [None] * (tables - len(home_fielded)),
        away_fielded + [None] * (tables - len(away_fielded)),
        sittings=min(competition.sittings, tables),
        late=late,
    )
    return [
        (number, place.table, place.home, place.away)
        for number, sitting_tables in enumerate(sittings, start=1)
        for place in sitting_tables
        if place.home is not None and place.away is not None
    ]


def _lineup_games_replace(match: Match, games: Sequence[tuple[int, int, int, int]]) -> None:
    """Replace the match's games (none has a result: `_lineup_unplayed`) with `games`
    (sitting, table, home koppel id, away koppel id), the home koppel as koppel A. One
    insert a game, each with its history row."""
    Game.objects.filter(match=match).delete()
    for sitting, table, home, away in games:
        Game.objects.create(
            match=match,
            sitting=sitting,
            table=table,
            team_a_id=home,
            team_b_id=away,
            a_is_home=True,
        )


def _lineup_forfeit(
    match: Match, home_teams: Sequence[int | None], away_teams: Sequence[int | None]
) -> None:
    """Set (unsaved) the forfeit the lineup makes on `match`.

    A side with fewer than `min_koppels` koppels forfeits the match (DESIGN.md club
    competitions; issue 3), both sides short: both forfeit. It is a forfeit caused by the
    lineup (`Match.ForfeitCause.LINEUP`, the reason from `_short_reason`), lifted again by
    a lineup that fields enough koppels. A forfeit the director set stays as it is, reason
    included, whatever the lineup (a short lineup used to overwrite it, and a full one then
    lifted it: the director's walk-over was lost).
    """
    if match.forfeit and match.forfeit_cause == Match.ForfeitCause.DIRECTOR:
        return  # the director decided the match; a lineup neither replaces nor lifts that
    competition = match.matchday.competition
    short = [
        side
        for side, lineup in ((Forfeit.HOME, home_teams), (Forfeit.AWAY, away_teams))
        if sum(t is not None for t in lineup) < competition.min_koppels
    ]
    if short:
        match.forfeit = Forfeit.BOTH if len(short) == 2 else short[0]
        match.forfeit_reason = _short_reason(competition, home_teams, away_teams, short)
        match.forfeit_cause = Match.ForfeitCause.LINEUP
    elif match.forfeit and match.forfeit_cause == Match.ForfeitCause.LINEUP:
        match.forfeit, match.forfeit_reason = "", ""
        match.forfeit_cause = Match.ForfeitCause.DIRECTOR


def _lineup_stored(
    home_teams: Sequence[int | None],
    away_teams: Sequence[int | None],
    late: Mapping[int, int],
    size: int,
) -> dict[str, Any]:
    """The lineup as `Match.lineup` keeps it: {"home": [...], "away": [...], "late":
    {"<team id>": sitting}}, each side's `size` places as played (its koppels to the front
    places, then None)."""
    home = [t for t in home_teams if t is not None]
    away = [t for t in away_teams if t is not None]
    return {
        "home": home + [None] * (size - len(home)),
        "away": away + [None] * (size - len(away)),
        "late": {str(team_id): sitting for team_id, sitting in sorted(late.items())},
    }


def _sittings_check(match: Match, games: Sequence[tuple[int, int, int]]) -> None:
    """The one check of a koppel's tables (`scoring.rules.sitting_koppels_check`) over the
    games of `match`'s matchday once `games` (sitting, koppel A id, koppel B id) replace
    the match's own. The other matches' games are stored and stay: a fault among them alone
    doesn't stop this write.

    Raises RuleViolation: `koppel_twice_in_sitting` (params koppel, named, and sitting),
    `game_same_koppel`.
    """
    others = list(
        Game.objects.filter(match__matchday_id=match.matchday_id)
        .exclude(match=match)
        .order_by("pk")
        .values_list("sitting", "team_a_id", "team_b_id")
    )
    for violation in sitting_koppels_violations([*others, *games]):
        if violation.params["index"] >= len(others):
            koppel = violation.params.get("koppel")
            if koppel is None:
                raise violation
            team = Team.objects.select_related("player_1", "player_2").filter(pk=koppel).first()
            raise violation.at(koppel=str(team or koppel))


def _lineup_on_squads(
    competition: Competition,
    match: Match,
    home_teams: Sequence[int | None],
    away_teams: Sequence[int | None],
    teams: Mapping[int, Team],
) -> None:
    """Refuse a koppel with a player not on their club's squad for the competition's season."""
    on_squad = set(
        SquadMember.objects.filter(
            season=competition.season,
            squad__club_id__in=[match.home.club_id, match.away.club_id],
        ).values_list("squad__club_id", "player_id")
    )
    for lineup, entry in ((home_teams, match.home), (away_teams, match.away)):
        for team_id in lineup:
            if team_id is None:
                continue
            team = teams[team_id]
            missing = [
                player.name
                for player in (team.player_1, team.player_2)
                if (entry.club_id, player.pk) not in on_squad
            ]
            if missing:
                raise RuleViolation(
                    "koppel_not_on_squad",
                    koppel=str(team),
                    players=", ".join(missing),
                    club=str(entry),
                )


def _short_reason(
    competition: Competition,
    home_teams: Sequence[int | None],
    away_teams: Sequence[int | None],
    short: Sequence[Forfeit],
) -> str:
    """Why the `short` sides (`Forfeit.HOME`, `Forfeit.AWAY`) forfeit: "fewer than 3
    koppels (home 2)"."""
    counts = {
        Forfeit.HOME: sum(t is not None for t in home_teams),
        Forfeit.AWAY: sum(t is not None for t in away_teams),
    }
    details = ", ".join(f"{side} {counts[side]}" for side in short)
    return f"fewer than {competition.min_koppels} koppels ({details})"


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


@transaction.atomic
def match_forfeit_set(*, match_id: int, side: str, reason: str, seen: str) -> Match:
    """Record (or with `side=""` lift) a forfeit: the side loses the match whatever was played.

    The forfeit is the director's (`Match.ForfeitCause.DIRECTOR`): a lineup can't lift it.
    The one a lineup made stays the lineup's while the form sends it back unchanged.

    `seen` (required) is the `match_token` of the director's page (an import passes the
    match's token as it is): a forfeit, lineup or totals changed meanwhile are not
    overwritten; a stale form asking for the forfeit stored already (sent twice) changes
    nothing.

    Raises RuleViolation: `match_unknown`, `forfeit_side_invalid`, `forfeit_reason_missing`,
    `match_changed_meanwhile`.
    """
    match = Match.objects.select_for_update().select_related("matchday").filter(pk=match_id).first()
    if match is None:
        raise RuleViolation("match_unknown", match=match_id)
    reason = forfeit_check(side, reason)
    if seen != match_token(match, match.games.values_list("pk", flat=True)):
        if (match.forfeit, match.forfeit_reason) == (side, reason if side else ""):
            return match
        raise RuleViolation("match_changed_meanwhile")
    if (match.forfeit, match.forfeit_reason) != (side, reason if side else ""):
        match.forfeit_cause = Match.ForfeitCause.DIRECTOR
    match.forfeit, match.forfeit_reason = side, reason if side else ""
    match.save(update_fields=["forfeit", "forfeit_reason", "forfeit_cause"])
    standings_refresh_on_commit(match.matchday.competition_id)
    return match


def deduction_check(points: int, reason: str) -> str:
    """The reason a deduction of `points` is stored with (stripped). Shared by
    `deduction_add` and the bulk importer.

    Raises RuleViolation: `deduction_points_invalid` (not 1–1000), `deduction_reason_missing`.
    """
    if not 1 <= points <= 1000:
        raise RuleViolation("deduction_points_invalid", points=points)
    reason = reason.strip()
    if not reason:
        raise RuleViolation("deduction_reason_missing")
    return reason


@transaction.atomic
def deduction_add(
    *,
    competition_id: int,
    entry_id: int,
    points: int,
    reason: str,
    match_id: int | None = None,
    seen: str,
) -> Deduction:
    """Take competition points from an entry, with the reason shown under the standings.

    `seen` (required) is the `deductions_token` of the list the director saw (the admin
    and an import pass the token as it is). When the list changed since: a deduction
    added since with the same entry, points, reason and match is this form sent twice
    (`deduction_already_added`, nothing added again); anything else is
    `deductions_changed_meanwhile`.

    Raises RuleViolation: `competition_unknown`, `entry_unknown`, `deduction_points_invalid`,
    `deduction_reason_missing`, `deduction_already_added` (params points, entry),
    `deductions_changed_meanwhile`.
    """
    competition = _competition_locked(competition_id)
    entry = _entry_of(competition, entry_id)
    reason = deduction_check(points, reason)
    if seen != deductions_token(competition_id=competition.pk):
        newest = deductions_token_newest(seen)
        same_match = Q(match__isnull=True) if match_id is None else Q(match_id=match_id)
        twice = newest is not None and (
            competition.deductions.filter(same_match, pk__gt=newest, entry=entry, points=points)
            .filter(reason=reason)
            .exists()
        )
        if twice:
            raise RuleViolation("deduction_already_added", points=points, entry=str(entry))
        raise RuleViolation("deductions_changed_meanwhile")
    deduction = Deduction.objects.create(
        competition=competition, entry=entry, points=points, reason=reason, match_id=match_id
    )
    standings_refresh_on_commit(competition.pk)
    return deduction


VOID_REASON_MAX = Deduction._meta.get_field("void_reason").max_length


def void_reason_check(reason: str) -> str:
    """The reason a deduction is voided with (stripped). Shared by `deduction_void` and the
    bulk importer.

    Raises RuleViolation: `void_reason_required`, `void_reason_too_long` (param limit).
    """
    reason = reason.strip()
    if not reason:
        raise RuleViolation("void_reason_required")
    if len(reason) > cast(int, VOID_REASON_MAX):
        raise RuleViolation("void_reason_too_long", limit=VOID_REASON_MAX)
    return reason


@transaction.atomic
def deduction_void(
    *, deduction_id: int, reason: str, voided_at: datetime.datetime | None = None
) -> Deduction:
    """Withdraw a deduction without deleting it: it is stamped void with `reason`.

    A voided deduction no longer counts in the standings; the row and its history stay,
    so the audit trail shows what was deducted, when it was voided, by whom and why
    (issue 6: "void with a reason, never hard delete"). `voided_at` defaults to now; an
    import passes the time its file says the deduction was voided.

    No `seen` token: a deduction's entry, points and reason never change, voiding is its
    only change and happens once, so "voided meanwhile" (`deduction_already_void`) is the
    whole of what a stale page could have missed about it.

    Raises RuleViolation: `deduction_unknown`, `void_reason_required` (empty after
    stripping), `void_reason_too_long` (param limit), `deduction_already_void` (params
    voided_at, void_reason).
    """
    reason = void_reason_check(reason)
    # Two directors voiding the same deduction at once: the second must see the first's
    # void and be told, not stamp its own reason over it.
    deduction = Deduction.objects.select_for_update().filter(pk=deduction_id).first()
    if deduction is None:
        raise RuleViolation("deduction_unknown")
    if deduction.voided_at is not None:
        raise RuleViolation(
            "deduction_already_void",
            voided_at=timezone.localtime(deduction.voided_at).strftime("%Y-%m-%d %H:%M"),
            void_reason=deduction.void_reason,
        )
    deduction.voided_at = voided_at or timezone.now()
    deduction.void_reason = reason
    deduction.save(update_fields=["voided_at", "void_reason"])
    standings_refresh_on_commit(deduction.competition_id)
    return deduction


def _squad_open(squad: Squad, today: datetime.date | None) -> None:
    today = today or timezone.localdate()
    if squad.locked_on is not None and today >= squad.locked_on:
        raise RuleViolation("squad_locked", squad=str(squad), locked_on=squad.locked_on.isoformat())


@transaction.atomic
def squad_member_add(
    *, squad_id: int, player_id: int, today: datetime.date | None = None
) -> SquadMember:
    """Put a player on a club's squad for the season, before the lock date.

    A player is on one club's squad per season: moving to another club waits for the next
    season. Raises RuleViolation: `squad_unknown`, `squad_locked`, `player_on_other_squad`.
    """
    squad = Squad.objects.select_for_update().select_related("club").filter(pk=squad_id).first()
    if squad is None:
        raise RuleViolation("squad_unknown")
    _squad_open(squad, today)
    other = (
        SquadMember.objects.filter(season=squad.season, player_id=player_id)
        .select_related("squad__club", "player")
        .first()
    )
    if other is not None:
        if other.squad_id == squad.pk:
            return other
        raise RuleViolation(
            "player_on_other_squad",
            player=str(other.player),
            club=str(other.squad.club),
            season=squad.season,
        )
    return SquadMember.objects.create(squad=squad, player_id=player_id, season=squad.season)


@transaction.atomic
def squad_member_remove(
    *, squad_id: int, player_id: int, today: datetime.date | None = None
) -> None:
    """Take a player off a squad, before the lock date.

    Raises RuleViolation: `squad_unknown`, `squad_locked`.
    """
    squad = Squad.objects.select_for_update().filter(pk=squad_id).first()
    if squad is None:
        raise RuleViolation("squad_unknown")
    _squad_open(squad, today)
    SquadMember.objects.filter(squad=squad, player_id=player_id).delete()


# ------------------------------------------------------------------ entries and koppels
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
    `entry_koppel_in_club_competition` (param competition: `entry_kind_check`);
    IntegrityError from the database's checks (neither or both of koppel and club, the
    koppel or club entered already), which the admin words
    (`scoring.messages.integrity_message`) and its forms check first.
    """
    competition = _competition_locked(competition_id)
    entry_kind_check(competition, team_id=team_id, club_id=club_id)
    entry = Entry(competition=competition, team_id=team_id, club_id=club_id)
    _player_clubs_fill(entry)
    entry.save()
    standings_refresh_on_commit(competition.pk)
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
    codes; IntegrityError as `entry_add`.
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
            standings_refresh_on_commit(competition)
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
    competition = _competition_locked(competition_id)
    list(Matchday.objects.select_for_update().filter(competition=competition).values("pk"))
    entry = (
        Entry.objects.select_for_update(of=("self",))
        .select_related(*scoring_selectors.ENTRY_JOINS)
        .filter(pk=entry_id)
        .first()
    )
    if entry is None:
        return
    if scoring_selectors.entries_on_schedule(Entry.objects.filter(pk=entry.pk)).exists():
        raise RuleViolation("entry_on_schedule", entry=str(entry))
    if entry.deductions.exists():
        raise RuleViolation("entry_has_deductions", entry=str(entry))
    Standing.objects.filter(entry=entry).delete()
    entry.delete()
    standings_refresh_on_commit(competition.pk)


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


@trigger_violations
@transaction.atomic
def team_players_set(*, team_id: int, player_1_id: int, player_2_id: int) -> Team:
    """Give a koppel other players (or swap player 1 and 2), as long as it has no game.

    A koppel that has a game (open or over, in any competition) keeps its players: changing
    them would move its games, and the clubs its entries kept (by player 1 and player 2), to
    other players. The new partners make a new koppel instead. A koppel without games takes
    the new players, and its entries keep the new players' clubs of now (`entry_add`).

    A transfer (`Player.club` changed) is not this: it stays allowed any time and only
    reaches entries made afterwards.

    Raises RuleViolation `koppel_has_games` (params koppel, count: its games);
    Team.DoesNotExist for an unknown `team_id`.
    """
    # Locked so two admins can't both change the players; what the games hold is read
    # after the lock.
    team = Team.objects.select_for_update().get(pk=team_id)
    if (team.player_1_id, team.player_2_id) == (player_1_id, player_2_id):
        return team
    played = Game.objects.filter(Q(team_a=team) | Q(team_b=team)).count()
    if played:
        raise RuleViolation("koppel_has_games", koppel=str(team), count=played)
    team.player_1_id, team.player_2_id = player_1_id, player_2_id
    team.save(update_fields=["player_1", "player_2"])
    clubs = dict(
        Player.objects.filter(pk__in=(player_1_id, player_2_id)).values_list("pk", "club_id")
    )
    Entry.objects.filter(team=team).update(
        player_1_club_id=clubs.get(player_1_id), player_2_club_id=clubs.get(player_2_id)
    )
    return team
