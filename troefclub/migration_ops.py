"""A migration operation for the tables our SQLite triggers name.

SQLite changes a table (a constraint, a unique column) by building a new one and renaming
it over the old: the rename is refused while a trigger names the table (tournaments 0004,
scoring 0003 and 0011), and the table's own triggers go with the old one. `TriggersKept`
runs its operations with those triggers set aside and puts them back as they were
(tournaments 0007's `AddFieldKeepingTriggers`, for any list of operations). Elsewhere it
just runs them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.db import migrations


def sqlite_triggers_kept(schema_editor: Any, table: str, change: Callable[[], None]) -> None:
    """Run `change` with the SQLite triggers whose SQL names `table` dropped, then put them
    back as they were; elsewhere just run `change`."""
    if schema_editor.connection.vendor != "sqlite":
        change()
        return
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND sql LIKE %s",
            [f"%{table}%"],
        )
        triggers = cursor.fetchall()
    for name, _sql in triggers:
        schema_editor.execute(f'DROP TRIGGER "{name}"')
    change()
    for _name, sql in triggers:
        schema_editor.execute(sql)


class TriggersKept(migrations.operations.base.Operation):
    """`operations`, run with the SQLite triggers that name `table` set aside."""

    reduces_to_sql = False

    def __init__(self, table: str, operations: Sequence[Any]) -> None:
        self.table = table
        self.operations = list(operations)

    def deconstruct(self) -> tuple[str, list[Any], dict[str, Any]]:
        return (self.__class__.__qualname__, [self.table, self.operations], {})

    def state_forwards(self, app_label: str, state: Any) -> None:
        for operation in self.operations:
            operation.state_forwards(app_label, state)

    def database_forwards(
        self, app_label: str, schema_editor: Any, from_state: Any, to_state: Any
    ) -> None:
        def run() -> None:
            state = from_state
            for operation in self.operations:
                after = state.clone()
                operation.state_forwards(app_label, after)
                operation.database_forwards(app_label, schema_editor, state, after)
                state = after

        sqlite_triggers_kept(schema_editor, self.table, run)

    def database_backwards(
        self, app_label: str, schema_editor: Any, from_state: Any, to_state: Any
    ) -> None:
        def run() -> None:
            # The states between the operations, from the state before them (`to_state`).
            states = [to_state]
            for operation in self.operations:
                after = states[-1].clone()
                operation.state_forwards(app_label, after)
                states.append(after)
            for index in reversed(range(len(self.operations))):
                self.operations[index].database_backwards(
                    app_label, schema_editor, states[index + 1], states[index]
                )

        sqlite_triggers_kept(schema_editor, self.table, run)

    def describe(self) -> str:
        return f"{len(self.operations)} operations on {self.table}, its SQLite triggers kept"
