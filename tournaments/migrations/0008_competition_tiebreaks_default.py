"""A new competition's tie-breaks are docs/interchange.md's ("points, saldo, points_for,
head_to_head": `tournaments.models.tiebreaks_default`), not an empty list (issue 9, "one
source of defaults"). Stored competitions keep theirs.

A field's default lives in Python only, so the database is left as it is: on SQLite an
AlterField would rebuild the competition table, and renaming the rebuilt table breaks on
the triggers that read it (scoring/0003_game_places)."""

from django.db import migrations, models

import tournaments.models

TIEBREAKS = models.JSONField(
    blank=True,
    default=tournaments.models.tiebreaks_default,
    help_text="How entries level on competition points are ranked, in order (a list of tie-break keys; the admin offers them by name).",
    verbose_name="tie-breaks",
)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0007_match_forfeit_cause"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="competition", name="tiebreaks", field=TIEBREAKS
                ),
                migrations.AlterField(
                    model_name="historicalcompetition", name="tiebreaks", field=TIEBREAKS.clone()
                ),
            ],
        ),
    ]
