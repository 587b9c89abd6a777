"""The standings: the computed table of a competition (`competition_table`), the stored rows the
pages read (`competition_standings`), their summary and "as of", and which competitions
owe a refresh.
"""

from __future__ import annotations

import logging
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from operator import itemgetter
from typing import Any, cast

from django.db import connections
from django.db.models import CharField, Max, Model, OuterRef, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce, Concat, Lower, NullIf
from django.utils import timezone

from scoring.models import Standing
from scoring.rules import MatchOutcome, StandingRow, compute_standings
from scoring.rules.standings import ByeOutcome, OutcomeRow
from scoring.selectors.results import competition_match_outcomes
from scoring.selectors.standings_inputs import (
    competition_ineligible_players_apply,
    competition_standings_inputs,
    played_byes,
)
from tournaments.models import Competition, Deduction, Entry, Withdrawal, WithdrawalPlayed
from tournaments.selectors import (
    competition_withdrawals,
    entry_named,
    entry_sort_names,
    natural_key,
)

logger = logging.getLogger(__name__)


def competitions_standings_stale(*, stale_for: timedelta) -> list[int]:
    """Ids of the competitions whose standings have owed a refresh for longer than
    `stale_for` (`Competition.standings_stale_since`), oldest first.

    The periodic sweep (`scoring.tasks.standings_refresh_stale`) refreshes these; a
    younger mark belongs to a refresh that is most likely queued or running right now.
    """
    cutoff = timezone.now() - stale_for
    return list(
        Competition.objects.filter(standings_stale_since__lt=cutoff)
        .order_by("standings_stale_since", "pk")
        .values_list("pk", flat=True)
    )


def _rows(model: type[Model], where: str, params: list[Any], columns: str = "id") -> list[Any]:
    """`columns` of the rows of `model`'s table that `where` picks, as plain tuples: for the
    rebuild's small reads, whose ORM form took longer to build than to run (issue 7)."""
    with connections[model._default_manager.db].cursor() as cursor:
        cursor.execute(f"SELECT {columns} FROM {model._meta.db_table} WHERE {where}", params)
        return cursor.fetchall()


def _natural_order(rows: list[StandingRow], competition: Competition) -> list[StandingRow]:
    """`rows` (ranked, entries tied on every key in any order) with each tie in natural
    name order, then id: the order `compute_standings` keeps given `competition_entry_ids`.

    Only the tied entries' names are read and keyed (one query, none without a tie): sorting
    all 1,000 names by `natural_key` took a fifth of a rebuild (issue 7)."""
    # A rank is one more than the number of rows above it: a tie of rank r starts at r - 1.
    ties = [
        range(rank - 1, rank - 1 + size)
        for rank, size in Counter(row.rank for row in rows).items()
        if size > 1
    ]
    if not ties:
        return rows
    tied = cast(list[int], [rows[index].entry for tie in ties for index in tie])
    if len(tied) <= 500:
        names = entry_sort_names(f"e.id IN ({', '.join(['%s'] * len(tied))})", tied)
    else:  # most of the table (no match played yet): all names, in fewer parameters
        names = entry_sort_names("e.competition_id = %s", [competition.pk])
    ordered = list(rows)
    for tie in ties:
        ordered[tie.start : tie.stop] = sorted(
            rows[tie.start : tie.stop],
            key=lambda row: (natural_key(names[cast(int, row.entry)]), row.entry),
        )
    return ordered


def competition_table(
    *, competition: Competition, tiebreaks: Sequence[str] | None = None
) -> list[StandingRow]:
    """The ranked table as it stands now, computed from the results (not the stored rows).

    `tiebreaks` defaults to the competition's own; Swiss pairing ranks on points and saldo.

    A match, bye or deduction of an entry of another competition (stored before the
    database refused it, issue 6) is left out and logged, not an error: one bad row must
    not stop the whole table. `manage.py check_results` and the matchday page list it.
    """
    # Entries in no given order: the ties are put in name order afterwards (`_natural_order`).
    entries: list[int] = [pk for (pk,) in _rows(Entry, "competition_id = %s", [competition.pk])]
    found: Sequence[MatchOutcome | OutcomeRow]
    deductions_found: dict[int, int]
    if competition_ineligible_players_apply(competition):
        # The ineligible-players rule reads every game's players: the slower path, for club
        # competitions (a few dozen entries at most).
        inputs = competition_standings_inputs(competition=competition)
        found, byes_found, deductions_found = inputs.outcomes, inputs.byes, inputs.deductions
    else:
        found = competition_match_outcomes(competition=competition)
        byes_found = played_byes(competition)
        deductions_found = defaultdict(int)
        # A voided deduction counts no more (`_add_deductions`).
        where = "competition_id = %s AND voided_at IS NULL"
        for entry_id, points in _rows(Deduction, where, [competition.pk], "entry_id, points"):
            deductions_found[entry_id] += points
    ours = set(entries)
    withdrawn = competition_withdrawals(competition=competition)
    if withdrawn:
        found, byes_found = _annulled_left_out(withdrawn, found, byes_found)
    outcomes: Sequence[MatchOutcome | OutcomeRow] = found
    if not (
        ours.issuperset(map(itemgetter(0), found)) and ours.issuperset(map(itemgetter(1), found))
    ):
        outcomes = [row for row in found if row[0] in ours and row[1] in ours]
    byes = [bye for bye in byes_found if bye.entry in ours]
    deductions = {entry: points for entry, points in deductions_found.items() if entry in ours}
    if len(outcomes) + len(byes) + len(deductions) < (
        len(found) + len(byes_found) + len(deductions_found)
    ):
        logger.warning(
            "standings of %s leave out results of entries of another competition "
            "(manage.py check_results %s lists them)",
            competition.slug,
            competition.slug,
        )
    rows = compute_standings(
        entries,
        outcomes,
        scheme=competition.points_scheme,
        tiebreaks=competition.tiebreaks if tiebreaks is None else tiebreaks,
        byes=byes,
        deductions=deductions,
    )
    rows = _natural_order(rows, competition)
    return _withdrawn_last(rows, set(withdrawn)) if withdrawn else rows


def _annulled_left_out(
    withdrawn: dict[int, Withdrawal],
    found: Sequence[MatchOutcome | OutcomeRow],
    byes: Sequence[ByeOutcome],
) -> tuple[list[MatchOutcome | OutcomeRow], list[ByeOutcome]]:
    """`found` and `byes` without every match and bye of an entry whose withdrawal annulled
    them (`Withdrawal.played` "annul", issue 22): they count for neither side, in points
    and in every tie-break (buchholz and head-to-head read the same outcomes)."""
    annulled = {pk for pk, w in withdrawn.items() if w.played == WithdrawalPlayed.ANNUL}
    if not annulled:
        return list(found), list(byes)
    return (
        [row for row in found if row[0] not in annulled and row[1] not in annulled],
        [bye for bye in byes if bye.entry not in annulled],
    )


def _withdrawn_last(rows: list[StandingRow], withdrawn: set[int]) -> list[StandingRow]:
    """`rows` (ranked) with the withdrawn entries after every entry still in, each group in
    its order; ranks renumbered so that a tie stays shared (1, 2, 2, 4)."""
    staying = [row for row in rows if row.entry not in withdrawn]
    gone = [row for row in rows if row.entry in withdrawn]
    ordered = staying + gone
    previous: StandingRow | None = None
    old_rank = 0
    for position, row in enumerate(ordered, start=1):
        tied = (
            previous is not None
            and row.rank == old_rank
            and (row.entry in withdrawn) == (previous.entry in withdrawn)
        )
        old_rank = row.rank
        row.rank = previous.rank if tied and previous is not None else position
        previous = row
    return ordered


# The order of the stored standings inside a shared rank (and the last keys of every
# other sort of the standings page, so tied rows keep their places between reloads).
STANDINGS_ORDER = ("rank", "entry__team__key", "entry__club__name", "entry_id")


def competition_standings(*, competition: Competition, search: str = "") -> QuerySet[Standing]:
    """The stored standings rows, best first, with their entries' names joined.

    `search` keeps the rows whose koppel name or key, player or club name contains it
    (any case, `entry_named`): a player looking for their own row in a big table.
    `entry_sort` (an alias, not selected) is the entry's name as shown, lower case: the
    koppel's name, else "<player> & <player>", else the club's name; the standings table
    sorts its Entry column by it in SQL (pages are cut in the database).
    """
    rows = Standing.objects.filter(competition=competition)
    if search.strip():
        rows = rows.filter(entry_named(search))
    shown = Coalesce(
        NullIf("entry__team__name", Value("")),
        "entry__club__name",  # null for a koppel's entry: a club's has no team
        Concat(
            "entry__team__player_1__name",
            Value(" & "),
            "entry__team__player_2__name",
            output_field=CharField(),
        ),
        output_field=CharField(),
    )
    # The matchday a withdrawn entry left from (issue 22): the page marks it; None for the rest.
    withdrawn = Withdrawal.objects.filter(entry=OuterRef("entry")).values("from_matchday")
    return (
        rows.alias(entry_sort=Lower(shown))
        .annotate(withdrawn_from=Subquery(withdrawn[:1]))
        .select_related("entry__team__player_1", "entry__team__player_2", "entry__club")
        .order_by(*STANDINGS_ORDER)
    )


def competition_withdrawal_lines(*, competition: Competition) -> list[Withdrawal]:
    """The competition's withdrawals for the standings page, with their entries' names, in
    matchday order (one query)."""
    return list(
        Withdrawal.objects.filter(entry__competition=competition)
        .select_related("entry__team__player_1", "entry__team__player_2", "entry__club")
        .order_by("from_matchday", "pk")
    )


@dataclass(frozen=True, slots=True)
class StandingsSummary:
    """What the standings page says beside the stored rows: when they were computed (None:
    never), and whether any entry had a bye that counted or a deduction (their columns)."""

    as_of: datetime | None
    byes: bool
    deducted: bool


def competition_standings_summary(*, competition: Competition) -> StandingsSummary:
    """`StandingsSummary` of the stored standings, in one aggregate query."""
    as_of, byes, deducted = (
        Competition.objects.filter(pk=competition.pk)
        .annotate(byes=Max("standings__byes"), deducted=Max("standings__deducted"))
        .values_list("standings_computed_at", "byes", "deducted")
        .get()
    )
    return StandingsSummary(as_of=as_of, byes=bool(byes), deducted=bool(deducted))


def competition_standings_as_of(*, competition: Competition) -> datetime | None:
    """When the standings were last computed (`Competition.standings_computed_at`: the
    last rebuild, whether or not it changed a row); None when never."""
    stamp: datetime | None = (
        Competition.objects.filter(pk=competition.pk)
        .values_list("standings_computed_at", flat=True)
        .get()
    )
    return stamp
