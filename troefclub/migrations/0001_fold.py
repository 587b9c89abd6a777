"""`troefclub_fold(text)` on PostgreSQL: the database side of `troefclub.text.Fold`
(issue 18: every search finds "Gérard Éluard" typed "gerard eluard").

`unaccent` (a contrib extension that ships with PostgreSQL, "trusted" since 13: a database
owner may create it) takes the accents off and `lower` the case, as
`troefclub.text.fold_letters` does in Python. STABLE, as `unaccent` is: so PostgreSQL
inlines the body into each query instead of calling a function per row (a third of the
time at 2,000 players). SQLite gets `fold_letters` itself on each connection
(`troefclub.text.sqlite_fold_register`): nothing to do here.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations

CREATE = (
    "CREATE EXTENSION IF NOT EXISTS unaccent",
    """
CREATE OR REPLACE FUNCTION troefclub_fold(value text) RETURNS text
    LANGUAGE sql STABLE STRICT PARALLEL SAFE
    AS $$ SELECT lower(unaccent('unaccent'::regdictionary, value)) $$
""",
)

DROP = "DROP FUNCTION IF EXISTS troefclub_fold(text);"


def fold_create(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        for statement in CREATE:
            schema_editor.execute(statement)


def fold_drop(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    initial = True

    dependencies: list[tuple[str, str]] = []

    operations = [migrations.RunPython(fold_create, fold_drop, elidable=False)]
