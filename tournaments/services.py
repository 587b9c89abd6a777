"""Writes for competition set-up: schedules, Swiss pairings, manual edits, club matches,
forfeits, deductions, squads and confirmation.

Same shape as `scoring.services`: keyword-only, one transaction, the rows that two
directors could race on locked, refusals as `RuleViolation` codes (worded in
`scoring.messages`), and a standings refresh queued on commit when results can change.
"""

from __future__ import annotations

import datetime
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from typing import Any, cast

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from scoring import selectors as scoring_selectors
from scoring.models import Game
from scoring.rules import RuleViolation
from scoring.services import standings_refresh_on_commit
from tournaments.models import (
    Bye,
    Competition,
    Deduction,
    Entry,
    Match,
    Matchday,
    Squad,
    SquadMember,
    Team,
)
from tournaments.schedules import SwissEntrant, club_movement, round_robin, swiss_pair


def _competition_locked(competition_id: int) -> Competition:
    # One director at a time sets up a competition's schedule: two clicks on "pair the
    # next matchday" must not make two matchdays with the same number.
    competition = Competition.objects.select_for_update().filter(pk=competition_id).first()
    if competition is None:
        raise RuleViolation("competition_unknown", competition=competition_id)
    return competition


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
    """A match; in a pairs competition also its one game, at the same table."""
    match = Match.objects.create(
        matchday=matchday, home=home, away=away, table=table, pairing_reason=pairing_reason or {}
    )
    if competition.kind == Competition.Kind.PAIRS:
        assert home.team_id is not None and away.team_id is not None
        Game.objects.create(
            match=match, table=table, team_a_id=home.team_id, team_b_id=away.team_id
        )
    return match


def _games_have_results(matches: Sequence[Match]) -> bool:
    """Whether a game of these matches has rounds, totals or is over."""
    return (
        Game.objects.filter(match__in=matches)
        .filter(Q(rounds__isnull=False) | Q(total_a__isnull=False) | ~Q(status=Game.Status.OPEN))
        .exists()
    )


def _has_results(matches: Sequence[Match]) -> bool:
    """Whether any of the matches has a result that an edit would throw away."""
    reported = any(m.total_home is not None or m.forfeit for m in matches)
    return reported or _games_have_results(matches)


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
    matchdays = []
    for number, pairing in enumerate(round_robin(entries, double=double), start=1):
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


@transaction.atomic
def swiss_matchday_pair(
    *, competition_id: int, override_reason: str = "", date: datetime.date | None = None
) -> Matchday:
    """Pair the next matchday of a Swiss tournament from the standings as they are now.

    Entrants are ranked by competition points, then saldo; networkx's maximum-weight
    matching pairs them (`tournaments.schedules.swiss_pair`): no rematch while avoidable,
    at most one bye per entrant, closest scores. Each match keeps its reason for the
    director's page. Refused while a game of the previous matchday is unfinished, unless
    `override_reason` says why (it is stored on the matchday).

    Raises RuleViolation: `competition_unknown`, `not_swiss`,
    `previous_matchday_unfinished` (params number, open), `swiss_too_few_entrants`,
    `swiss_no_bye_possible`.
    """
    competition = _competition_locked(competition_id)
    if competition.schedule_format != Competition.Format.SWISS:
        raise RuleViolation("not_swiss")
    last = competition.matchdays.order_by("-number").first()
    override_reason = override_reason.strip()
    if last is not None and not override_reason:
        open_count = _open_in_matchday(last)
        if open_count:
            raise RuleViolation("previous_matchday_unfinished", number=last.number, open=open_count)

    entries = scoring_selectors.competition_entries(competition=competition)
    table = scoring_selectors.competition_table(
        competition=competition, tiebreaks=["points", "saldo"]
    )
    opponents: dict[int, list[int]] = defaultdict(list)
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
    pairing = swiss_pair(entrants)

    by_id = {entry.pk: entry for entry in entries}
    matchday = _matchday_create(
        competition, (last.number + 1) if last else 1, date, override_reason=override_reason
    )
    for number, pair in enumerate(pairing.pairs, start=1):
        _match_create(
            competition,
            matchday,
            by_id[pair.home],
            by_id[pair.away],
            table=number,
            pairing_reason={"code": pair.reason, "params": dict(pair.params)},
        )
    if pairing.bye is not None:
        Bye.objects.create(
            matchday=matchday,
            entry=by_id[pairing.bye],
            reason={"code": pairing.bye_reason or "", "params": dict(pairing.bye_params)},
        )
    standings_refresh_on_commit(competition.pk)
    return matchday


@transaction.atomic
def matchday_create(*, competition_id: int, date: datetime.date | None = None) -> Matchday:
    """Add the next matchday, empty, for pairings made by hand (`match_create`).

    Raises RuleViolation: `competition_unknown`.
    """
    competition = _competition_locked(competition_id)
    last = competition.matchdays.order_by("-number").values_list("number", flat=True).first()
    return _matchday_create(competition, (last or 0) + 1, date)


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


@transaction.atomic
def match_create(
    *, matchday_id: int, home_id: int, away_id: int, table: int | None = None
) -> Match:
    """Add a match by hand; nobody plays twice on one matchday, a bye included.

    `table` defaults to the first free table. Raises RuleViolation: `matchday_unknown`,
    `entry_unknown`, `match_same_entry`, `entry_already_playing` (param entry),
    `table_taken` (param table).
    """
    matchday = _matchday_locked(matchday_id)
    competition = matchday.competition
    home, away = _entry_of(competition, home_id), _entry_of(competition, away_id)
    if home.pk == away.pk:
        raise RuleViolation("match_same_entry")
    busy = _busy_entries(matchday)
    for entry in (home, away):
        if entry.pk in busy:
            raise RuleViolation("entry_already_playing", entry=str(entry))
    taken = set(matchday.matches.exclude(table=None).values_list("table", flat=True))
    if table is None:
        table = next(n for n in range(1, len(taken) + 2) if n not in taken)
    elif table in taken:
        raise RuleViolation("table_taken", table=table)
    match = _match_create(competition, matchday, home, away, table=table)
    standings_refresh_on_commit(competition.pk)
    return match


def _busy_entries(matchday: Matchday) -> set[int]:
    busy = set(Bye.objects.filter(matchday=matchday).values_list("entry_id", flat=True))
    for home_id, away_id in matchday.matches.values_list("home_id", "away_id"):
        busy |= {home_id, away_id}
    return busy


@transaction.atomic
def match_delete(*, match_id: int) -> None:
    """Remove a match (and its empty games) that has no result yet.

    Raises RuleViolation: `match_unknown`, `match_has_results`.
    """
    match = Match.objects.select_for_update().filter(pk=match_id).first()
    if match is None:
        raise RuleViolation("match_unknown", match=match_id)
    if _has_results([match]):
        raise RuleViolation("match_has_results")
    Game.objects.filter(match=match).delete()
    competition_id = match.matchday.competition_id
    match.delete()
    standings_refresh_on_commit(competition_id)


@transaction.atomic
def matchday_entries_swap(*, matchday_id: int, entry_a_id: int, entry_b_id: int) -> None:
    """Swap two entries' places on a matchday: between two matches, or with the bye.

    Only matches without results can change; pairs games follow their match's koppels.
    Raises RuleViolation: `matchday_unknown`, `entry_unknown`, `entry_not_scheduled`
    (param entry), `swap_same_match`, `match_has_results`.
    """
    matchday = _matchday_locked(matchday_id)
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
    if other is not None:
        # Free the table first: (matchday, table) is unique.
        Match.objects.filter(pk=other.pk).update(table=None)
    Match.objects.filter(pk=match.pk).update(table=table)
    if other is not None:
        Match.objects.filter(pk=other.pk).update(table=old)
    if match.matchday.competition.kind == Competition.Kind.PAIRS:
        Game.objects.filter(match=match).update(table=table)
        if other is not None and old is not None:
            Game.objects.filter(match=other).update(table=old)
    match.refresh_from_db()
    return match


@transaction.atomic
def club_match_lineup_set(
    *,
    match_id: int,
    home_teams: Sequence[int | None],
    away_teams: Sequence[int | None],
    late: Mapping[int, int] | None = None,
) -> Match:
    """Set the koppels of a club match, store the lineup and create its games by the movement.

    `home_teams` / `away_teams` hold one koppel id (or None for an empty place) per place,
    `koppels_per_side` places a side; `late` maps a koppel id to the first sitting it plays
    (at most `late_koppel_until_sitting`). Each side's koppels move to the front places and
    the movement runs over as many tables as the bigger side fields: every sitting the away
    koppels move one table on, so each home koppel meets different away koppels. With fewer
    koppels a side than the competition's sittings, the match has only that many sittings
    (one more would bring a home koppel back to an away koppel it met). A koppel facing an
    empty place (the smaller side, or a koppel not yet arrived) sits out that sitting and
    scores nothing. A side with fewer than `min_koppels` koppels forfeits the match
    (DESIGN.md club competitions; issue 3). When the competition requires squads, every
    player must be on their club's squad for the season.

    The lineup is kept on the match (`Match.lineup`): {"home": [...], "away": [...],
    "late": {"<team id>": sitting}}, the places as played (front first).

    Raises RuleViolation: `match_unknown`, `not_a_club_match`, `match_has_results`,
    `lineup_wrong_size` (params side, size), `koppel_not_of_club` (params koppel, club),
    `koppel_not_on_squad` (params koppel, players, club), `koppel_twice`,
    `late_not_allowed`, `late_too_late` (params koppel, sitting, until), and the movement's
    `movement_late_sitting` / `movement_too_few_koppels` (a late sitting beyond the match's
    sittings, a side with nobody at the first sitting).
    """
    match = (
        Match.objects.select_for_update(of=("self",))
        .select_related("matchday__competition", "home__club", "away__club")
        .filter(pk=match_id)
        .first()
    )
    if match is None:
        raise RuleViolation("match_unknown", match=match_id)
    competition = match.matchday.competition
    if competition.kind != Competition.Kind.CLUBS:
        raise RuleViolation("not_a_club_match")
    # A forfeit may be lifted by a better lineup, but played games are never thrown away.
    if match.total_home is not None or _games_have_results([match]):
        raise RuleViolation("match_has_results")
    size = competition.koppels_per_side
    late = dict(late or {})
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
    if competition.squads_required:
        _lineup_on_squads(competition, match, home_teams, away_teams, teams)
    until = competition.late_koppel_until_sitting
    for team_id, sitting in late.items():
        if until is None:
            raise RuleViolation("late_not_allowed")
        if not 1 <= sitting <= until or team_id not in chosen:
            raise RuleViolation(
                "late_too_late",
                koppel=str(teams.get(team_id, team_id)),
                sitting=sitting,
                until=until,
            )

    Game.objects.filter(match=match).delete()
    home_fielded = [t for t in home_teams if t is not None]
    away_fielded = [t for t in away_teams if t is not None]
    tables = max(len(home_fielded), len(away_fielded))
    home_places = home_fielded + [None] * (tables - len(home_fielded))
    away_places = away_fielded + [None] * (tables - len(away_fielded))
    if home_fielded and away_fielded:
        sittings = club_movement(
            home_places,
            away_places,
            sittings=min(competition.sittings, tables),
            late=late,
        )
    else:
        sittings = []  # a side that fields nobody forfeits (below); nothing to play
    for number, sitting_tables in enumerate(sittings, start=1):
        for place in sitting_tables:
            if place.home is None or place.away is None:
                continue  # an empty place: the koppel facing it sits out this sitting
            Game.objects.create(
                match=match,
                sitting=number,
                table=place.table,
                team_a_id=place.home,
                team_b_id=place.away,
                a_is_home=True,
            )
    match.lineup = {
        "home": home_fielded + [None] * (size - len(home_fielded)),
        "away": away_fielded + [None] * (size - len(away_fielded)),
        "late": {str(team_id): sitting for team_id, sitting in sorted(late.items())},
    }
    short = [
        side
        for side, fielded in (("home", home_fielded), ("away", away_fielded))
        if len(fielded) < competition.min_koppels
    ]
    if short:
        match.forfeit = "both" if len(short) == 2 else short[0]
        match.forfeit_reason = _short_reason(competition, home_teams, away_teams, short)
    elif match.forfeit and match.forfeit_reason.startswith("lineup:"):
        match.forfeit, match.forfeit_reason = "", ""
    match.save(update_fields=["forfeit", "forfeit_reason", "lineup"])
    standings_refresh_on_commit(competition.pk)
    return match


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
    short: list[str],
) -> str:
    counts = {
        "home": sum(t is not None for t in home_teams),
        "away": sum(t is not None for t in away_teams),
    }
    details = ", ".join(f"{side} {counts[side]}" for side in short)
    # "lineup:" marks a forfeit the lineup made, so a corrected lineup can lift it again.
    return f"lineup: fewer than {competition.min_koppels} koppels ({details})"


@transaction.atomic
def match_forfeit_set(*, match_id: int, side: str, reason: str) -> Match:
    """Record (or with `side=""` lift) a forfeit: the side loses the match whatever was played.

    Raises RuleViolation: `match_unknown`, `forfeit_side_invalid`, `forfeit_reason_missing`.
    """
    match = Match.objects.select_for_update().select_related("matchday").filter(pk=match_id).first()
    if match is None:
        raise RuleViolation("match_unknown", match=match_id)
    if side not in ("", "home", "away", "both"):
        raise RuleViolation("forfeit_side_invalid", side=side)
    reason = reason.strip()
    if side and not reason:
        raise RuleViolation("forfeit_reason_missing")
    match.forfeit, match.forfeit_reason = side, reason if side else ""
    match.save(update_fields=["forfeit", "forfeit_reason"])
    standings_refresh_on_commit(match.matchday.competition_id)
    return match


@transaction.atomic
def deduction_add(
    *, competition_id: int, entry_id: int, points: int, reason: str, match_id: int | None = None
) -> Deduction:
    """Take competition points from an entry, with the reason shown under the standings.

    Raises RuleViolation: `competition_unknown`, `entry_unknown`, `deduction_points_invalid`,
    `deduction_reason_missing`.
    """
    competition = _competition_locked(competition_id)
    entry = _entry_of(competition, entry_id)
    if not 1 <= points <= 1000:
        raise RuleViolation("deduction_points_invalid", points=points)
    reason = reason.strip()
    if not reason:
        raise RuleViolation("deduction_reason_missing")
    deduction = Deduction.objects.create(
        competition=competition, entry=entry, points=points, reason=reason, match_id=match_id
    )
    standings_refresh_on_commit(competition.pk)
    return deduction


@transaction.atomic
def deduction_delete(*, deduction_id: int) -> None:
    """Withdraw a deduction. Raises RuleViolation: `deduction_unknown`."""
    deduction = Deduction.objects.select_for_update().filter(pk=deduction_id).first()
    if deduction is None:
        raise RuleViolation("deduction_unknown")
    competition_id = deduction.competition_id
    deduction.delete()
    standings_refresh_on_commit(competition_id)


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


@transaction.atomic
def game_confirm(*, game_id: int, user: Any) -> Game:
    """Confirm a finished game's result (the opponents or the director agree with it).

    Raises RuleViolation: `game_unknown`, `game_not_over`.
    """
    game = (
        Game.objects.select_for_update(of=("self",))
        .select_related("match__matchday")
        .filter(pk=game_id)
        .first()
    )
    if game is None:
        raise RuleViolation("game_unknown", game=game_id)
    if game.status == Game.Status.OPEN:
        raise RuleViolation("game_not_over")
    game.confirmed_at = timezone.now()
    game.confirmed_by = user if getattr(user, "is_authenticated", False) else None
    game.save(update_fields=["confirmed_at", "confirmed_by"])
    standings_refresh_on_commit(game.match.matchday.competition_id)
    return game
