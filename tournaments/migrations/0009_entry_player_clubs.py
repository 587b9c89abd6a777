"""A koppel's entry keeps the club each player played for in the competition (issue 10:
"a transfer between seasons never moves old games to the new club"). Existing entries get
their players' clubs of today, the best that is known.

SQLite remakes tournaments_entry to add the constraint, and refuses the rename while other
tables' triggers name it (0004_one_place_a_matchday, scoring 0003_game_places): the
triggers naming the table are set aside and put back as they were, as in 0007.
"""

import django.db.models.deletion
from django.db import migrations, models


def _sqlite_triggers_kept(schema_editor, table, change):
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


class KeepingTriggers:
    """Mixin for a model operation: keep the SQLite triggers that name the model's table."""

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        table = to_state.apps.get_model(app_label, self.model_name)._meta.db_table
        _sqlite_triggers_kept(
            schema_editor,
            table,
            lambda: super(KeepingTriggers, self).database_forwards(
                app_label, schema_editor, from_state, to_state
            ),
        )

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        table = from_state.apps.get_model(app_label, self.model_name)._meta.db_table
        _sqlite_triggers_kept(
            schema_editor,
            table,
            lambda: super(KeepingTriggers, self).database_backwards(
                app_label, schema_editor, from_state, to_state
            ),
        )


class AddFieldKeepingTriggers(KeepingTriggers, migrations.AddField):
    pass


class AddConstraintKeepingTriggers(KeepingTriggers, migrations.AddConstraint):
    pass


def entries_player_clubs(apps, schema_editor):
    Entry = apps.get_model("tournaments", "Entry")
    entries = list(
        Entry.objects.filter(team__isnull=False).select_related("team__player_1", "team__player_2")
    )
    for entry in entries:
        entry.player_1_club_id = entry.team.player_1.club_id
        entry.player_2_club_id = entry.team.player_2.club_id
    Entry.objects.bulk_update(entries, ["player_1_club", "player_2_club"], batch_size=1000)


def _club_field(number):
    return models.ForeignKey(
        blank=True,
        help_text=(
            f"The club the koppel's player {number} played for in this competition; filled "
            "in when the koppel is entered. Empty: no club."
        ),
        null=True,
        on_delete=django.db.models.deletion.PROTECT,
        related_name="+",
        to="tournaments.club",
        verbose_name=f"club of player {number}",
    )


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0008_competition_tiebreaks_default"),
    ]

    operations = [
        AddFieldKeepingTriggers(model_name="entry", name="player_1_club", field=_club_field(1)),
        AddFieldKeepingTriggers(model_name="entry", name="player_2_club", field=_club_field(2)),
        migrations.RunPython(entries_player_clubs, migrations.RunPython.noop),
        AddConstraintKeepingTriggers(
            model_name="entry",
            constraint=models.CheckConstraint(
                condition=models.Q(("team__isnull", False))
                | models.Q(("player_1_club__isnull", True), ("player_2_club__isnull", True)),
                name="entry_player_clubs_only_for_koppels",
                violation_error_message=(
                    "Only a koppel's entry keeps its players' clubs; a club's entry is the club."
                ),
            ),
        ),
    ]
