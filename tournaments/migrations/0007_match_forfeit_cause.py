"""Who forfeited a match, as a field (issue 9, "no strings doing a type's job"): a forfeit
made by a lineup with too few koppels was marked by its reason starting with "lineup:"
(`club_match_lineup_set` lifted only those). Now `Match.forfeit_cause` says so, and the
reason keeps only its words: "lineup: fewer than 3 koppels (home 2)" becomes "fewer than
3 koppels (home 2)", caused by the lineup. Every other forfeit is the director's.

The audit history is left as it was recorded. Reversible: the prefix comes back.

SQLite adds a NOT NULL column by remaking the table: the triggers on tournaments_match go
with the old table, and the rename is refused while other tables' triggers name it
(0004_one_place_a_matchday, scoring 0003_game_places). So there the triggers that name the
table are set aside and put back as they were (`AddFieldKeepingTriggers`).
"""

from django.db import migrations, models

PREFIX = "lineup:"


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


class AddFieldKeepingTriggers(migrations.AddField):
    """`AddField`, keeping the SQLite triggers that name the model's table."""

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        table = to_state.apps.get_model(app_label, self.model_name)._meta.db_table
        _sqlite_triggers_kept(
            schema_editor,
            table,
            lambda: super(AddFieldKeepingTriggers, self).database_forwards(
                app_label, schema_editor, from_state, to_state
            ),
        )

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        table = from_state.apps.get_model(app_label, self.model_name)._meta.db_table
        _sqlite_triggers_kept(
            schema_editor,
            table,
            lambda: super(AddFieldKeepingTriggers, self).database_backwards(
                app_label, schema_editor, from_state, to_state
            ),
        )


def forfeit_cause_from_prefix(apps, schema_editor):
    Match = apps.get_model("tournaments", "Match")
    marked = Match.objects.exclude(forfeit="").filter(forfeit_reason__startswith=PREFIX)
    for match in marked.only("pk", "forfeit_reason"):
        # A reason that was only the prefix keeps it: a forfeit needs its words.
        words = match.forfeit_reason.removeprefix(PREFIX).strip() or match.forfeit_reason
        Match.objects.filter(pk=match.pk).update(forfeit_reason=words, forfeit_cause="lineup")


def forfeit_prefix_from_cause(apps, schema_editor):
    Match = apps.get_model("tournaments", "Match")
    for match in Match.objects.filter(forfeit_cause="lineup").only("pk", "forfeit_reason"):
        reason = match.forfeit_reason
        if not reason.startswith(PREFIX):
            reason = f"{PREFIX} {reason}"[:200]
        Match.objects.filter(pk=match.pk).update(forfeit_reason=reason)


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0006_help_texts'),
    ]

    operations = [
        migrations.AddField(
            model_name='historicalmatch',
            name='forfeit_cause',
            field=models.CharField(choices=[('director', 'the director'), ('lineup', 'the lineup (too few koppels)')], default='director', help_text='Who set the forfeit: the director, or the lineup, which lifts it again once both sides field enough koppels.', max_length=8, verbose_name='forfeited by'),
        ),
        AddFieldKeepingTriggers(
            model_name='match',
            name='forfeit_cause',
            field=models.CharField(choices=[('director', 'the director'), ('lineup', 'the lineup (too few koppels)')], default='director', help_text='Who set the forfeit: the director, or the lineup, which lifts it again once both sides field enough koppels.', max_length=8, verbose_name='forfeited by'),
        ),
        migrations.RunPython(forfeit_cause_from_prefix, forfeit_prefix_from_cause, elidable=True),
    ]
