"""Empty values sort last in both directions, in every sortable table (issue 19, item 6).

PostgreSQL puts NULL first when sorting descending, SQLite first when ascending, and
django-tables2's own list sort put None first ascending: a reader sorting the standings by
head-to-head, or the rating list by club, saw the empty cells ("—") on top one way or the
other. `troefclub.tables.BodyTable` sorts with empties last (`troefclub.ordering`). Run on
both engines (DATABASE_URL=postgres://… for PostgreSQL).

`test_every_nullable_sortable_column_is_covered` finds the columns that can be empty from
the models and rows, so a new one can't be left out of `CASES`.
"""

from __future__ import annotations

import datetime
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.core.exceptions import FieldDoesNotExist
from django.db.models import Model
from django.test import RequestFactory
from django.utils import timezone

from rankings import selectors
from rankings.models import PlayerRating, SeasonRankingLine, SeasonRankingList
from rankings.season_refresh import TALLY_FIELDS
from rankings.tables import RatingTable, SeasonTable
from scoring.models import Standing
from scoring.rules.seasons import SeasonBy
from scoring.selectors.standings import competition_standings
from scoring.tables import StandingTable
from tests.factories import ClubFactory, CompetitionFactory, PlayerFactory, TeamEntryFactory
from troefclub.ordering import blank_last, sorted_empties_last
from troefclub.tables import BodyTable, table_configure

# The columns whose values come from a computed alias that is never empty (the standings'
# entry: the koppel's name, else its players' names, else the club's name).
NEVER_EMPTY = {("StandingTable", "entry")}


def _standings() -> BodyTable:
    competition = CompetitionFactory.create(tiebreaks=["points", "head_to_head"])
    now = timezone.now()
    for rank, (name, head_to_head) in enumerate(
        [("Alpha", 3), ("Bravo", None), ("Charlie", 1), ("Delta", None)], start=1
    ):
        entry = TeamEntryFactory.create(competition=competition, team__name=name)
        Standing.objects.create(
            competition=competition, entry=entry, rank=rank, head_to_head=head_to_head,
            computed_at=now,
        )  # fmt: skip
    return StandingTable(
        competition_standings(competition=competition), tiebreaks=["points", "head_to_head"]
    )


def _ratings() -> BodyTable:
    for ordinal, (name, club) in enumerate(
        [("Anna", "Beta"), ("Bert", None), ("Cor", "Alpha"), ("Dirk", None)]
    ):
        player = PlayerFactory.create(
            name=name, club=ClubFactory.create(name=club) if club else None
        )
        PlayerRating.objects.create(player=player, mu=25, sigma=1, ordinal=10 - ordinal, games=5)
    return RatingTable(selectors.rating_list(min_games=3).ratings)


def _season() -> BodyTable:
    """A stored season ranking (issue 20) of four players, two without a best-N average."""
    ranking = SeasonRankingList.objects.create(
        season="2026-2027", by=SeasonBy.PLAYER, games=8, evenings=4, best_evenings=6
    )
    counts = dict.fromkeys(TALLY_FIELDS, 0)
    for position, (name, best) in enumerate(
        [("Anna", 30), ("Bert", None), ("Cor", 12), ("Dirk", None)], start=1
    ):
        SeasonRankingLine.objects.create(
            ranking=ranking,
            position=position,
            rank=position,
            entry=position,
            key=name.lower(),
            name=name,
            sort_name=name.casefold(),
            best_points=best,
            **counts,
        )
    lines = SeasonRankingLine.objects.filter(ranking=ranking).order_by("position")
    return SeasonTable(lines, by=SeasonBy.PLAYER, best_evenings=6)


def _standing_entry(record: Standing) -> str:
    return str(record.entry)


def _rating_player(record: PlayerRating) -> str:
    return record.player.name


def _season_name(record: SeasonRankingLine) -> str:
    return record.name


@dataclass(frozen=True)
class Case:
    table: Callable[[], BodyTable]
    column: str
    name_of: Callable[[Any], str]
    ascending: list[str]  # the rows with a value, ascending; the empty ones follow
    empty: set[str]


CASES = {
    ("StandingTable", "head_to_head"): Case(
        _standings, "head_to_head", _standing_entry, ["Charlie", "Alpha"], {"Bravo", "Delta"}
    ),
    ("RatingTable", "club"): Case(
        _ratings, "club", _rating_player, ["Cor", "Anna"], {"Bert", "Dirk"}
    ),
    ("SeasonTable", "best"): Case(_season, "best", _season_name, ["Cor", "Anna"], {"Bert", "Dirk"}),
}


def _sorted(table: BodyTable, sort: str) -> list[Any]:
    table_configure(RequestFactory().get("/", {"sort": sort}), table, per_page=50)
    return [record for record, _cells in table.body]


@pytest.mark.django_db
@pytest.mark.parametrize("descending", [False, True], ids=["ascending", "descending"])
@pytest.mark.parametrize("where", list(CASES), ids=lambda where: ".".join(where))
def test_empty_values_sort_last_both_ways(where: tuple[str, str], descending: bool) -> None:
    case = CASES[where]
    records = _sorted(case.table(), f"-{case.column}" if descending else case.column)
    names = [case.name_of(record) for record in records]
    filled = len(case.ascending)
    assert names[:filled] == (case.ascending[::-1] if descending else case.ascending)
    assert set(names[filled:]) == case.empty


@pytest.mark.django_db
def test_the_rank_order_is_kept_without_a_sort() -> None:
    records = _sorted(_standings(), "")
    assert [record.rank for record in records] == [1, 2, 3, 4]


@pytest.mark.django_db
def test_empty_rows_keep_the_rank_order_among_themselves() -> None:
    for descending in (False, True):
        records = _sorted(_standings(), "-head_to_head" if descending else "head_to_head")
        assert [str(record.entry) for record in records][2:] == ["Bravo", "Delta"]


def test_python_sort_puts_none_and_blank_last_both_ways() -> None:
    rows = [("b", 2), ("", 9), ("a", 1), (None, 8), ("c", 3)]
    for descending, expected in ((False, ["a", "b", "c"]), (True, ["c", "b", "a"])):
        ordered = sorted_empties_last(rows, [(lambda row: row[0], descending)])
        assert [row[0] for row in ordered] == [*expected, "", None]  # empties in their order


@pytest.mark.django_db
def test_a_koppel_without_a_name_is_listed_after_the_named_ones() -> None:
    from tournaments.models import Team

    for name in ("", "Zeta", "Alpha"):
        TeamEntryFactory.create(team__name=name)
    for descending, expected in ((False, ["Alpha", "Zeta", ""]), (True, ["Zeta", "Alpha", ""])):
        ordered = Team.objects.order_by(blank_last("name", descending=descending))
        assert [team.name for team in ordered] == expected


# ---------------------------------------------------------------- the list is complete


def _nullable(model: type[Model], path: str) -> bool | None:
    """Whether the field at `path` ("player__club__name") can be NULL, a nullable relation
    on the way included; None when `path` is no model field (an alias)."""
    nullable = False
    for part in path.split("__"):
        try:
            field = model._meta.get_field(part)
        except FieldDoesNotExist:
            return None
        nullable |= bool(getattr(field, "null", False))
        if field.is_relation:
            model = typing.cast(type[Model], field.related_model)
    return nullable


def _nullable_columns() -> set[tuple[str, str]]:
    tables: list[tuple[BodyTable, Callable[[str], bool | None]]] = [
        (StandingTable(Standing.objects.none(), tiebreaks=["head_to_head", "buchholz"],
                       show_byes=True, show_deducted=True), lambda p: _nullable(Standing, p)),
        (RatingTable(PlayerRating.objects.none()), lambda p: _nullable(PlayerRating, p)),
        (SeasonTable(SeasonRankingLine.objects.none(), by=SeasonBy.PLAYER, best_evenings=6),
         lambda p: _nullable(SeasonRankingLine, p)),
    ]  # fmt: skip
    found: set[tuple[str, str]] = set()
    for table, may_be_empty in tables:
        for column in table.columns:
            if not column.orderable:
                continue
            where = (type(table).__name__, column.name)
            answers = [may_be_empty(accessor.bare) for accessor in column.order_by]
            if None in answers and where not in NEVER_EMPTY:
                raise AssertionError(f"{where}: sorts by {column.order_by}, which is no field")
            if any(answers):
                found.add(where)
    return found


@pytest.mark.django_db
def test_every_nullable_sortable_column_is_covered() -> None:
    assert _nullable_columns() == set(CASES)


def test_a_date_sorts_too() -> None:
    rows = [datetime.date(2026, 1, 2), None, datetime.date(2026, 1, 1)]
    ordered = sorted_empties_last(rows, [(lambda day: day, True)])
    assert ordered == [datetime.date(2026, 1, 2), datetime.date(2026, 1, 1), None]
