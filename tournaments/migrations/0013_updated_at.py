"""When a club, player, koppel or matchday row last changed (`updated_at`, issue 21): the
API's ETags of the registry's reads are an index lookup on it (`api.stamps`).

None of these rows has a history table; a rename must still change the ETag of every answer
that shows the name. Rows that exist already get the time of the migration.

On SQLite the column is added in place (ADD COLUMN with a constant default, then its
index): Django's own way there rebuilds the table, and a rebuilt `tournaments_matchday`
breaks the triggers that name it (0004's places triggers). PostgreSQL adds it as Django
does (existing rows get the time of the migration).
"""

from django.db import migrations, models
from django.utils import timezone

MODELS = ("club", "player", "team", "matchday")


def _field() -> models.DateTimeField:
    return models.DateTimeField(
        auto_now=True,
        db_index=True,
        help_text="When the row last changed (set on every save).",
        verbose_name="updated at",
    )


def add(apps, schema_editor):
    quote = schema_editor.quote_name
    for name in MODELS:
        model = apps.get_model("tournaments", name)
        if schema_editor.connection.vendor != "sqlite":
            schema_editor.add_field(model, model._meta.get_field("updated_at"))
            continue
        table = model._meta.db_table
        now = timezone.now().strftime("%Y-%m-%d %H:%M:%S.%f")
        index = schema_editor._create_index_name(table, ["updated_at"])
        schema_editor.execute(
            f"ALTER TABLE {quote(table)} ADD COLUMN {quote('updated_at')} datetime NOT NULL "
            f"DEFAULT '{now}'"
        )
        schema_editor.execute(f"CREATE INDEX {quote(index)} ON {quote(table)} ({quote('updated_at')})")


def remove(apps, schema_editor):
    quote = schema_editor.quote_name
    for name in MODELS:
        model = apps.get_model("tournaments", name)
        if schema_editor.connection.vendor != "sqlite":
            schema_editor.remove_field(model, model._meta.get_field("updated_at"))
            continue
        table = model._meta.db_table
        index = schema_editor._create_index_name(table, ["updated_at"])
        schema_editor.execute(f"DROP INDEX {quote(index)}")
        schema_editor.execute(f"ALTER TABLE {quote(table)} DROP COLUMN {quote('updated_at')}")


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0012_places_checked_per_statement"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AddField(model_name=name, name="updated_at", field=_field())
                for name in MODELS
            ],
        ),
        migrations.RunPython(add, remove),
    ]
