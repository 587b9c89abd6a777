"""`troefclub.history` (issue 19): a history row only when a tracked field or many-to-many
set differs from the object's newest history row; creations and deletions always; one
query more a save; rows loaded with `.only()` and saves with `update_fields` compared by
what was saved."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.models import Game
from tests.factories import CompetitionFactory, GameFactory
from tournaments.models import Entry
from troefclub.history import (
    bulk_update_with_history_if_changed,
    history_hold,
    history_release,
)

pytestmark = pytest.mark.django_db


def rows(obj: Any) -> list[str]:
    """The history types of `obj`, oldest first."""
    history = type(obj).history.filter(id=obj.pk).order_by("history_id")
    return list(history.values_list("history_type", flat=True))


def test_a_save_that_changes_nothing_writes_no_row_and_a_change_one() -> None:
    game = GameFactory.create()
    game.save()
    game.save(update_fields=["table", "sitting"])
    assert rows(game) == ["+"]
    game.table = 2
    game.save()
    game.save()
    latest = game.history.latest()
    assert rows(game) == ["+", "~"] and latest.table == 2


@pytest.mark.parametrize(
    "value", ["1", 1.0], ids=["text, as a form would set it", "a float of the same number"]
)
def test_a_value_the_field_reads_as_the_stored_one_is_no_change(value: object) -> None:
    game = GameFactory.create(table=1)
    game.table = value  # type: ignore[assignment]
    game.save()
    assert rows(game) == ["+"]


def test_creation_and_deletion_rows_are_always_written() -> None:
    game = GameFactory.create()
    game_id = game.pk
    game.delete()
    types = Game.history.filter(id=game_id).order_by("history_id").values_list("history_type")
    assert [t for (t,) in types] == ["+", "-"]


def test_a_row_without_history_gets_one_at_its_first_save() -> None:
    """A row written without history (a bulk insert) is recorded once it is saved."""
    game = GameFactory.create()
    game.history.all().delete()
    game.save()
    game.save()
    assert rows(game) == ["~"]


def test_update_fields_compares_only_the_fields_saved() -> None:
    game = GameFactory.create(table=1)
    game.score_a = 7  # set, not saved: the database still holds 0
    game.save(update_fields=["table"])
    assert rows(game) == ["+"]
    game.table = 3
    game.save(update_fields=["table"])
    assert rows(game) == ["+", "~"] and game.history.latest().table == 3


def test_a_row_loaded_with_only_is_compared_without_loading_the_rest() -> None:
    game = GameFactory.create(table=1)
    loaded = Game.objects.only("id", "table").get(pk=game.pk)
    with CaptureQueriesContext(connection) as queries:
        loaded.save(update_fields=["table"])
    # The update and the newest history row: one query more than without history, and
    # none that loads a deferred field.
    assert len(queries) == 2, [query["sql"] for query in queries]
    assert not any('"scoring_game"."score_a"' in query["sql"] for query in queries)
    assert rows(game) == ["+"]
    loaded.table = 4
    loaded.save(update_fields=["table"])
    latest = game.history.latest()
    assert (latest.table, latest.team_a_id) == (4, game.team_a_id)  # the deferred ones too


def test_an_unchanged_save_costs_one_query_more() -> None:
    game = GameFactory.create()
    with CaptureQueriesContext(connection) as queries:
        game.save(update_fields=["table"])
    assert len(queries) == 2  # the update, the newest history row


def test_held_saves_and_many_to_many_changes_are_one_row() -> None:
    competition = CompetitionFactory.create()
    before = len(rows(competition))
    history_hold(competition)
    competition.name = "Renamed"
    competition.save()
    competition.save()
    assert len(rows(competition)) == before
    assert history_release(competition)
    assert len(rows(competition)) == before + 1
    history_hold(competition)
    competition.save()
    assert not history_release(competition)  # nothing changed: no row
    assert not history_release(competition)  # not held


def test_bulk_update_passes_only_the_changed_objects() -> None:
    games = [GameFactory.create(table=n) for n in (1, 2, 3)]
    games[1].table = 9
    changed = bulk_update_with_history_if_changed(games, Game, ["table"])
    assert changed == [games[1]]
    assert [len(rows(game)) for game in games] == [1, 2, 1]
    assert Game.objects.get(pk=games[1].pk).table == 9
    assert bulk_update_with_history_if_changed(games, Game, ["table"]) == []


def test_bulk_update_refuses_a_model_without_history() -> None:
    with pytest.raises(TypeError):
        bulk_update_with_history_if_changed([], Entry, ["club"])
