"""Withdrawals and check-ins (issue 22): the competition's two withdrawal settings, the
`Withdrawal` and `CheckIn` models, a withdrawal's walk-over as a forfeit cause.

The two settings are NOT NULL with their defaults for the competitions stored. As in 0014,
Django's AddField would rebuild the competition table on SQLite, and renaming the rebuilt
table breaks on the triggers that read it (scoring/0003_game_places): the columns are
added with a plain ALTER TABLE ... ADD COLUMN (SQLite keeps its DEFAULT, which Django never
relies on; PostgreSQL drops it again, as Django's own AddField does). The new forfeit
cause is a choice only (eight letters, the column's width): no change to the database.
"""


import django.db.models.deletion
import simple_history.models
from django.conf import settings
from django.db import migrations, models

FIXTURES = models.CharField(
    choices=[
        ("walkover", "walk-overs won by the opponents"),
        ("remove", "removed from the schedule"),
    ],
    default="walkover",
    help_text="What happens to the matches a withdrawn entry has not played yet, from its withdrawal on: walk-overs won by its opponents (the forfeit score), or removed from the schedule. A played match is never changed.",
    max_length=8,
    verbose_name="withdrawal: its pending matches",
)
PLAYED = models.CharField(
    choices=[
        ("keep", "results stand"),
        ("annul", "all its matches annulled"),
        ("half", "annulled if it played fewer than half of its matches, else they stand"),
    ],
    default="half",
    help_text="Whether the results of a withdrawn entry stand or all its matches count for neither side (standings and tie-breaks alike). “Half”: annulled when it played fewer than half of its scheduled matches (FIDE/KNSB rule; a Swiss schedule keeps them).",
    max_length=5,
    verbose_name="withdrawal: its played matches",
)
TABLES = ("tournaments_competition", "tournaments_historicalcompetition")
COLUMNS = (("withdrawal_fixtures", 8, "walkover"), ("withdrawal_played", 5, "half"))


def settings_add(apps, schema_editor):
    for table in TABLES:
        name = schema_editor.quote_name(table)
        for column, width, default in COLUMNS:
            quoted = schema_editor.quote_name(column)
            value = schema_editor.quote_value(default)
            schema_editor.execute(
                f"ALTER TABLE {name} ADD COLUMN {quoted} varchar({width}) DEFAULT {value} NOT NULL"
            )
            if schema_editor.connection.vendor != "sqlite":
                schema_editor.execute(f"ALTER TABLE {name} ALTER COLUMN {quoted} DROP DEFAULT")


def settings_drop(apps, schema_editor):
    for table in TABLES:
        name = schema_editor.quote_name(table)
        for column, _width, _default in COLUMNS:
            schema_editor.execute(
                f"ALTER TABLE {name} DROP COLUMN {schema_editor.quote_name(column)}"
            )


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0014_competition_time_zone_matchday_time"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunPython(settings_add, settings_drop)],
            state_operations=[
                migrations.AddField(
                    model_name="competition", name="withdrawal_fixtures", field=FIXTURES
                ),
                migrations.AddField(
                    model_name="competition", name="withdrawal_played", field=PLAYED
                ),
                migrations.AddField(
                    model_name="historicalcompetition",
                    name="withdrawal_fixtures",
                    field=FIXTURES.clone(),
                ),
                migrations.AddField(
                    model_name="historicalcompetition",
                    name="withdrawal_played",
                    field=PLAYED.clone(),
                ),
            ],
        ),
        migrations.AlterField(
            model_name="historicalmatch",
            name="forfeit_cause",
            field=models.CharField(
                choices=[
                    ("director", "the director"),
                    ("lineup", "the lineup (too few koppels)"),
                    ("withdrew", "a withdrawal (walk-over)"),
                ],
                default="director",
                help_text="Who set the forfeit: the director, or the lineup, which lifts it again once both sides field enough koppels.",
                max_length=8,
                verbose_name="forfeited by",
            ),
        ),
        migrations.AlterField(
            model_name="match",
            name="forfeit_cause",
            field=models.CharField(
                choices=[
                    ("director", "the director"),
                    ("lineup", "the lineup (too few koppels)"),
                    ("withdrew", "a withdrawal (walk-over)"),
                ],
                default="director",
                help_text="Who set the forfeit: the director, or the lineup, which lifts it again once both sides field enough koppels.",
                max_length=8,
                verbose_name="forfeited by",
            ),
        ),
        migrations.CreateModel(
            name="CheckIn",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "number",
                    models.PositiveSmallIntegerField(
                        help_text="The number of the matchday (the evening).",
                        verbose_name="matchday",
                    ),
                ),
                ("present", models.BooleanField(default=True, verbose_name="present")),
                ("at", models.DateTimeField(auto_now=True, verbose_name="checked at")),
                (
                    "by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="checked by",
                    ),
                ),
                (
                    "entry",
                    models.ForeignKey(
                        help_text="The koppel or club checked in.",
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="checkins",
                        to="tournaments.entry",
                        verbose_name="entry",
                    ),
                ),
            ],
            options={
                "verbose_name": "check-in",
                "verbose_name_plural": "check-ins",
                "ordering": ["number", "entry"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("entry", "number"),
                        name="checkin_once_per_matchday",
                        violation_error_message="This entry is checked in for this matchday already.",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("number__gte", 1)),
                        name="checkin_number_positive",
                        violation_error_message="Matchday numbers start at 1.",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="HistoricalCheckIn",
            fields=[
                (
                    "id",
                    models.BigIntegerField(
                        auto_created=True, blank=True, db_index=True, verbose_name="ID"
                    ),
                ),
                (
                    "number",
                    models.PositiveSmallIntegerField(
                        help_text="The number of the matchday (the evening).",
                        verbose_name="matchday",
                    ),
                ),
                ("present", models.BooleanField(default=True, verbose_name="present")),
                ("at", models.DateTimeField(blank=True, editable=False, verbose_name="checked at")),
                ("history_id", models.AutoField(primary_key=True, serialize=False)),
                ("history_date", models.DateTimeField(db_index=True)),
                ("history_change_reason", models.CharField(max_length=100, null=True)),
                (
                    "history_type",
                    models.CharField(
                        choices=[("+", "Created"), ("~", "Changed"), ("-", "Deleted")], max_length=1
                    ),
                ),
                (
                    "by",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="checked by",
                    ),
                ),
                (
                    "entry",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        help_text="The koppel or club checked in.",
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="tournaments.entry",
                        verbose_name="entry",
                    ),
                ),
                (
                    "history_user",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "verbose_name": "historical check-in",
                "verbose_name_plural": "historical check-ins",
                "ordering": ("-history_date", "-history_id"),
                "get_latest_by": ("history_date", "history_id"),
                "indexes": [
                    models.Index(fields=["id", "history_id"], name="tournaments_id_ee13bf_idx")
                ],
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name="HistoricalWithdrawal",
            fields=[
                (
                    "id",
                    models.BigIntegerField(
                        auto_created=True, blank=True, db_index=True, verbose_name="ID"
                    ),
                ),
                (
                    "from_matchday",
                    models.PositiveSmallIntegerField(
                        help_text="The first matchday (number) the entry no longer plays.",
                        verbose_name="from matchday",
                    ),
                ),
                (
                    "from_date",
                    models.DateField(
                        blank=True,
                        help_text="The date the withdrawal took effect, when it was given by date.",
                        null=True,
                        verbose_name="from date",
                    ),
                ),
                (
                    "reason",
                    models.CharField(
                        help_text="Why the entry withdrew; shown on the standings.",
                        max_length=200,
                        verbose_name="reason",
                    ),
                ),
                (
                    "fixtures",
                    models.CharField(
                        choices=[
                            ("walkover", "walk-overs won by the opponents"),
                            ("remove", "removed from the schedule"),
                        ],
                        help_text="What was done to its matches not played yet (the competition's setting).",
                        max_length=8,
                        verbose_name="its pending matches",
                    ),
                ),
                (
                    "played",
                    models.CharField(
                        choices=[("keep", "results stand"), ("annul", "all its matches annulled")],
                        help_text="Whether its results stand or all its matches are annulled.",
                        max_length=5,
                        verbose_name="its played matches",
                    ),
                ),
                (
                    "removed",
                    models.JSONField(
                        blank=True,
                        default=list,
                        help_text="The matches and byes the withdrawal removed (put back on reinstatement).",
                        verbose_name="removed from the schedule",
                    ),
                ),
                (
                    "matchdays_then",
                    models.PositiveSmallIntegerField(
                        default=0,
                        help_text="How many matchdays the competition had when the entry withdrew.",
                        verbose_name="matchdays when withdrawn",
                    ),
                ),
                (
                    "created_at",
                    models.DateTimeField(blank=True, editable=False, verbose_name="recorded at"),
                ),
                ("history_id", models.AutoField(primary_key=True, serialize=False)),
                ("history_date", models.DateTimeField(db_index=True)),
                ("history_change_reason", models.CharField(max_length=100, null=True)),
                (
                    "history_type",
                    models.CharField(
                        choices=[("+", "Created"), ("~", "Changed"), ("-", "Deleted")], max_length=1
                    ),
                ),
                (
                    "created_by",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="recorded by",
                    ),
                ),
                (
                    "entry",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        help_text="The koppel or club that withdrew.",
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="tournaments.entry",
                        verbose_name="entry",
                    ),
                ),
                (
                    "history_user",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "verbose_name": "historical withdrawal",
                "verbose_name_plural": "historical withdrawals",
                "ordering": ("-history_date", "-history_id"),
                "get_latest_by": ("history_date", "history_id"),
                "indexes": [
                    models.Index(fields=["id", "history_id"], name="tournaments_id_70830f_idx")
                ],
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name="Withdrawal",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "from_matchday",
                    models.PositiveSmallIntegerField(
                        help_text="The first matchday (number) the entry no longer plays.",
                        verbose_name="from matchday",
                    ),
                ),
                (
                    "from_date",
                    models.DateField(
                        blank=True,
                        help_text="The date the withdrawal took effect, when it was given by date.",
                        null=True,
                        verbose_name="from date",
                    ),
                ),
                (
                    "reason",
                    models.CharField(
                        help_text="Why the entry withdrew; shown on the standings.",
                        max_length=200,
                        verbose_name="reason",
                    ),
                ),
                (
                    "fixtures",
                    models.CharField(
                        choices=[
                            ("walkover", "walk-overs won by the opponents"),
                            ("remove", "removed from the schedule"),
                        ],
                        help_text="What was done to its matches not played yet (the competition's setting).",
                        max_length=8,
                        verbose_name="its pending matches",
                    ),
                ),
                (
                    "played",
                    models.CharField(
                        choices=[("keep", "results stand"), ("annul", "all its matches annulled")],
                        help_text="Whether its results stand or all its matches are annulled.",
                        max_length=5,
                        verbose_name="its played matches",
                    ),
                ),
                (
                    "removed",
                    models.JSONField(
                        blank=True,
                        default=list,
                        help_text="The matches and byes the withdrawal removed (put back on reinstatement).",
                        verbose_name="removed from the schedule",
                    ),
                ),
                (
                    "matchdays_then",
                    models.PositiveSmallIntegerField(
                        default=0,
                        help_text="How many matchdays the competition had when the entry withdrew.",
                        verbose_name="matchdays when withdrawn",
                    ),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="recorded at")),
                (
                    "created_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="recorded by",
                    ),
                ),
                (
                    "entry",
                    models.OneToOneField(
                        help_text="The koppel or club that withdrew.",
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="withdrawal",
                        to="tournaments.entry",
                        verbose_name="entry",
                    ),
                ),
            ],
            options={
                "verbose_name": "withdrawal",
                "verbose_name_plural": "withdrawals",
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("from_matchday__gte", 1)),
                        name="withdrawal_from_matchday_positive",
                        violation_error_message="Matchday numbers start at 1.",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("reason", ""), _negated=True),
                        name="withdrawal_has_reason",
                        violation_error_message="A withdrawal needs a reason.",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("fixtures__in", ["walkover", "remove"]),
                            ("played__in", ["keep", "annul"]),
                        ),
                        name="withdrawal_choices_valid",
                        violation_error_message="Choose one of the listed withdrawal settings.",
                    ),
                ],
            },
        ),
    ]
