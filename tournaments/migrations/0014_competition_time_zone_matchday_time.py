"""A competition's time zone and a matchday's start time (issue 21: the calendar feeds).

`Competition.time_zone` is NOT NULL with the site's zone (`settings.TIME_ZONE`) for the
competitions already stored. Django's AddField would rebuild the competition table on
SQLite, and renaming the rebuilt table breaks on the triggers that read it
(scoring/0003_game_places, as tournaments/0008 says): so the column is added with a plain
ALTER TABLE ... ADD COLUMN (SQLite keeps its DEFAULT, which Django never relies on;
PostgreSQL drops it again, as Django's own AddField does). `Matchday.time` is nullable:
a plain AddField, no rebuild.
"""

from django.conf import settings
from django.db import migrations, models

import tournaments.models.competitions
import troefclub.validators

TIME_ZONE = models.CharField(
    default=tournaments.models.competitions.time_zone_default,
    help_text="Where the matchdays are played, as an IANA name (e.g. America/Paramaribo, Europe/Amsterdam): their start times are in it (the calendar feeds).",
    max_length=64,
    validators=[troefclub.validators.validate_time_zone],
    verbose_name="time zone",
)
TABLES = ("tournaments_competition", "tournaments_historicalcompetition")


def time_zone_add(apps, schema_editor):
    zone = schema_editor.quote_value(str(settings.TIME_ZONE))
    for table in TABLES:
        name = schema_editor.quote_name(table)
        column = schema_editor.quote_name("time_zone")
        schema_editor.execute(
            f"ALTER TABLE {name} ADD COLUMN {column} varchar(64) DEFAULT {zone} NOT NULL"
        )
        if schema_editor.connection.vendor != "sqlite":
            schema_editor.execute(f"ALTER TABLE {name} ALTER COLUMN {column} DROP DEFAULT")


def time_zone_drop(apps, schema_editor):
    for table in TABLES:
        name = schema_editor.quote_name(table)
        schema_editor.execute(
            f"ALTER TABLE {name} DROP COLUMN {schema_editor.quote_name('time_zone')}"
        )


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0013_updated_at"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunPython(time_zone_add, time_zone_drop)],
            state_operations=[
                migrations.AddField(model_name="competition", name="time_zone", field=TIME_ZONE),
                migrations.AddField(
                    model_name="historicalcompetition", name="time_zone", field=TIME_ZONE.clone()
                ),
            ],
        ),
        migrations.AddField(
            model_name="matchday",
            name="time",
            field=models.TimeField(
                blank=True,
                help_text="When play starts, in the competition's time zone; may stay empty (the calendar then shows the whole day).",
                null=True,
                verbose_name="start time",
            ),
        ),
    ]
