"""Reads of entries and koppels: their names, natural order and joins, and which entries
are on the schedule.

No result is read here (`scoring.selectors` reads those); the standings, the services and the
pages of every app name entries through these.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from django.db import connections
from django.db.models import Q, QuerySet

from tournaments.models import (
    Bye,
    CheckIn,
    Club,
    Competition,
    Entry,
    Match,
    Player,
    Team,
    Withdrawal,
)
from troefclub.text import koppel_names

TEAM_JOINS = ("player_1", "player_2")

ENTRY_JOINS = ("team__player_1", "team__player_2", "club")  # what `str(entry)` reads
# What `str(match)` reads: its home and away entries, as ENTRY_JOINS.
MATCH_ENTRY_JOINS = tuple(f"{side}__{join}" for side in ("home", "away") for join in ENTRY_JOINS)


def natural_key(text: str) -> tuple[tuple[int, int | str], ...]:
    """Sort key that puts "Koppel 2" before "Koppel 10": digit runs compare as numbers."""
    return tuple(
        (0, int(part)) if part.isdigit() else (1, part.casefold())
        for part in re.split(r"(\d+)", text)
        if part
    )


def entries_on_schedule(rows: QuerySet[Entry]) -> QuerySet[Entry]:
    """The entries of `rows` that have a match or a bye: their competition, koppel and club
    stay as they are (the database refuses it too, `entry_scheduled_fixed`)."""
    scheduled = (
        Q(pk__in=Match.objects.values("home_id"))
        | Q(pk__in=Match.objects.values("away_id"))
        | Q(pk__in=Bye.objects.values("entry_id"))
    )
    return rows.filter(scheduled)


def competition_entries(*, competition: Competition) -> list[Entry]:
    """The entries of a competition in natural name order (the order inside a full tie,
    and round 1's seeding of a Swiss tournament)."""
    entries = list(competition.entries.select_related("team__player_1", "team__player_2", "club"))
    return sorted(entries, key=lambda entry: (natural_key(str(entry)), entry.pk))


def competition_entry_ids(*, competition: Competition) -> list[int]:
    """The ids of a competition's entries in `competition_entries`' order (natural name
    order, then id), from one query of names: no model instances, for the standings.

    The name is `str(entry)` spelled out (`Entry.__str__`, `Team.__str__`): a koppel's own
    name, else "player 1 & player 2"; a club's name.
    """
    names = entry_sort_names("e.competition_id = %s", [competition.pk])
    return [pk for _key, pk in sorted((natural_key(name), pk) for pk, name in names.items())]


def entry_sort_names(where: str, params: list[int]) -> dict[int, str]:
    """`str(entry)` by id for the entries `e` that `where` picks, from one query of names
    (an ORM query of the same joins took twice as long to build as to run, issue 7)."""
    entries, teams = Entry._meta.db_table, Team._meta.db_table
    players = Player._meta.db_table
    clubs = Club._meta.db_table
    sql = (
        "SELECT e.id, e.team_id, t.name, p1.name, p2.name, c.name"
        f" FROM {entries} e LEFT JOIN {teams} t ON t.id = e.team_id"
        f" LEFT JOIN {players} p1 ON p1.id = t.player_1_id"
        f" LEFT JOIN {players} p2 ON p2.id = t.player_2_id"
        f" LEFT JOIN {clubs} c ON c.id = e.club_id WHERE {where}"
    )
    with connections[Entry.objects.db].cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    return {
        pk: (team_name or f"{first} & {second}") if team_id is not None else str(club)
        for pk, team_id, team_name, first, second, club in rows
    }


def koppel_players_q(text: str, *, lookup: str = "fold__exact", team: str = "") -> Q | None:
    """A filter of koppels (`team`: the path to the koppel, e.g. "entry__team__"; empty for
    `Team` rows): those whose two players' names match the two names of `text` as people
    write a koppel ("A & B", as it is shown; "A en B", "A and B": `troefclub.text.
    koppel_names`), in either order. `lookup` says how a name matches: "fold__exact" the
    whole name, "fold__contains" part of it, both any case and accents (`Fold`). None when
    `text` names no two players."""
    names = koppel_names(text)
    if names is None:
        return None
    first, second = names
    one, two = f"{team}player_1__name__{lookup}", f"{team}player_2__name__{lookup}"
    return Q(**{one: first, two: second}) | Q(**{one: second, two: first})


def entry_named(words: str, *, entry: str = "entry") -> Q:
    """The rows whose entry (the relation `entry`, e.g. "entry", "home", "away") has a
    koppel name or key, a player's or the club's name containing `words`, or whose koppel's
    players `words` names as the koppel is shown ("A & B", each name in part), any case and
    accents (`troefclub.text.Fold`): how every page's find box matches names (standings,
    matchday). `words` is stripped; empty matches every row."""
    words = words.strip()
    if not words:
        return Q()
    found = (
        Q(**{f"{entry}__team__name__fold__contains": words})
        | Q(**{f"{entry}__team__key__fold__contains": words})
        | Q(**{f"{entry}__team__player_1__name__fold__contains": words})
        | Q(**{f"{entry}__team__player_2__name__fold__contains": words})
        | Q(**{f"{entry}__club__name__fold__contains": words})
    )
    by_players = koppel_players_q(words, lookup="fold__contains", team=f"{entry}__team__")
    return found if by_players is None else found | by_players


def koppel_entry_players(ids: Iterable[int]) -> tuple[dict[int, tuple[int, int]], dict[int, str]]:
    """For the koppel entries among `ids`: entry id -> its two player ids, and player id ->
    name (the words of `matchday_places_violations`' `players`)."""
    entries = Entry.objects.filter(pk__in=set(ids), team__isnull=False).select_related(
        "team__player_1", "team__player_2"
    )
    players: dict[int, tuple[int, int]] = {}
    player_names: dict[int, str] = {}
    for entry in entries:
        assert entry.team is not None
        team = entry.team
        players[entry.pk] = (team.player_1_id, team.player_2_id)
        player_names[team.player_1_id] = str(team.player_1)
        player_names[team.player_2_id] = str(team.player_2)
    return players, player_names


def competition_withdrawals(*, competition: Competition) -> dict[int, Withdrawal]:
    """The competition's withdrawals by entry id (issue 22), one query."""
    rows = Withdrawal.objects.filter(entry__competition=competition)
    return {withdrawal.entry_id: withdrawal for withdrawal in rows}


def entries_withdrawn(*, competition: Competition, number: int) -> set[int]:
    """Ids of the entries withdrawn by matchday `number` (withdrawn from it or earlier):
    nobody pairs them that day and they are not missing from it."""
    return set(
        Withdrawal.objects.filter(
            entry__competition=competition, from_matchday__lte=number
        ).values_list("entry_id", flat=True)
    )


def entries_checked_in(*, competition: Competition, number: int) -> set[int] | None:
    """Ids of the entries marked present for matchday `number`, or None while nobody is
    (no check-in taken that evening: every entry is expected)."""
    present = set(
        CheckIn.objects.filter(
            entry__competition=competition, number=number, present=True
        ).values_list("entry_id", flat=True)
    )
    return present or None


def entries_not_expected(*, competition: Competition, number: int) -> set[int]:
    """Ids of the entries not expected on matchday `number`: withdrawn by then, or absent
    once the evening's check-in is taken (`entries_checked_in`). They are paired by nobody
    and not listed as left out."""
    away = entries_withdrawn(competition=competition, number=number)
    present = entries_checked_in(competition=competition, number=number)
    if present is not None:
        everyone = competition.entries.values_list("pk", flat=True)
        away |= {pk for pk in everyone if pk not in present}
    return away


def withdrawal_removed_opponents(*, competition: Competition, number: int) -> set[int]:
    """Ids of the entries whose match on matchday `number` a withdrawal removed
    (`Withdrawal.removed`): they have no opponent that day, through nobody's fault."""
    found: set[int] = set()
    for withdrawal in Withdrawal.objects.filter(
        entry__competition=competition, from_matchday__lte=number
    ).exclude(removed=[]):
        for item in withdrawal.removed:
            if item.get("matchday") == number and not item.get("bye"):
                found |= {item.get("home"), item.get("away")} - {withdrawal.entry_id, None}
    return found
