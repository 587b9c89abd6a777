"""Scoring at the table (issue 8): table links, disputes, the first caller and who confirmed.

SQLite adds a column or constraint to scoring_game by rebuilding it, which 0003's triggers
naming the table forbid: they are dropped around this migration and made again (as 0004).
"""

import importlib

import django.db.models.deletion
import simple_history.models
from django.conf import settings
from django.db import migrations, models

_0003 = importlib.import_module("scoring.migrations.0003_game_places")


def _sqlite(statements: list[str]):
    def apply(apps, schema_editor):
        if schema_editor.connection.vendor == "sqlite":
            for sql in statements:
                schema_editor.execute(sql)

    return apply


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0004_game_distinct_players'),
        ('tournaments', '0005_standings_refresh_claim'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(_sqlite(_0003.SQLITE_REVERSE), _sqlite(_0003.SQLITE)),
        migrations.CreateModel(
            name='GameDispute',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('side', models.CharField(choices=[('a', 'koppel A'), ('b', 'koppel B')], max_length=1, verbose_name='disputed by')),
                ('comment', models.TextField(max_length=500, verbose_name='comment')),
                ('raised_at', models.DateTimeField(auto_now_add=True, verbose_name='raised at')),
                ('resolved_at', models.DateTimeField(blank=True, null=True, verbose_name='resolved at')),
                ('resolution', models.CharField(blank=True, choices=[('accepted', 'Accepted as entered'), ('corrected', 'Corrected by the director'), ('rejected', 'Rejected: entered again at the table')], max_length=10, verbose_name='resolution')),
            ],
            options={
                'verbose_name': 'dispute',
                'verbose_name_plural': 'disputes',
                'ordering': ['raised_at'],
            },
        ),
        migrations.CreateModel(
            name='GameLink',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('token', models.CharField(max_length=64, unique=True, verbose_name='token')),
                ('entering_side', models.CharField(blank=True, choices=[('a', 'koppel A'), ('b', 'koppel B')], max_length=1, verbose_name='entering koppel')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created at')),
                ('revoked_at', models.DateTimeField(blank=True, null=True, verbose_name='revoked at')),
            ],
            options={
                'verbose_name': 'table link',
                'verbose_name_plural': 'table links',
            },
        ),
        migrations.CreateModel(
            name='HistoricalGameDispute',
            fields=[
                ('id', models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name='ID')),
                ('side', models.CharField(choices=[('a', 'koppel A'), ('b', 'koppel B')], max_length=1, verbose_name='disputed by')),
                ('comment', models.TextField(max_length=500, verbose_name='comment')),
                ('raised_at', models.DateTimeField(blank=True, editable=False, verbose_name='raised at')),
                ('resolved_at', models.DateTimeField(blank=True, null=True, verbose_name='resolved at')),
                ('resolution', models.CharField(blank=True, choices=[('accepted', 'Accepted as entered'), ('corrected', 'Corrected by the director'), ('rejected', 'Rejected: entered again at the table')], max_length=10, verbose_name='resolution')),
                ('history_id', models.AutoField(primary_key=True, serialize=False)),
                ('history_date', models.DateTimeField(db_index=True)),
                ('history_change_reason', models.CharField(max_length=100, null=True)),
                ('history_type', models.CharField(choices=[('+', 'Created'), ('~', 'Changed'), ('-', 'Deleted')], max_length=1)),
            ],
            options={
                'verbose_name': 'historical dispute',
                'verbose_name_plural': 'historical disputes',
                'ordering': ('-history_date', '-history_id'),
                'get_latest_by': ('history_date', 'history_id'),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.AddField(
            model_name='game',
            name='confirmed_side',
            field=models.CharField(blank=True, choices=[('a', 'koppel A'), ('b', 'koppel B')], help_text='The koppel that confirmed the result at the table (its own link).', max_length=1, verbose_name='confirmed by koppel'),
        ),
        migrations.AddField(
            model_name='game',
            name='first_caller',
            field=models.PositiveSmallIntegerField(blank=True, help_text='The seat (1-4) that calls the first round, found by dealing until a jack; the rotation follows from it.', null=True, verbose_name="first caller's seat"),
        ),
        migrations.AddField(
            model_name='historicalgame',
            name='confirmed_side',
            field=models.CharField(blank=True, choices=[('a', 'koppel A'), ('b', 'koppel B')], help_text='The koppel that confirmed the result at the table (its own link).', max_length=1, verbose_name='confirmed by koppel'),
        ),
        migrations.AddField(
            model_name='historicalgame',
            name='first_caller',
            field=models.PositiveSmallIntegerField(blank=True, help_text='The seat (1-4) that calls the first round, found by dealing until a jack; the rotation follows from it.', null=True, verbose_name="first caller's seat"),
        ),
        migrations.AddConstraint(
            model_name='game',
            constraint=models.CheckConstraint(condition=models.Q(('first_caller__isnull', True), models.Q(('first_caller__gte', 1), ('first_caller__lte', 4)), _connector='OR'), name='game_first_caller_seat', violation_error_message='The first caller sits in seat 1, 2, 3 or 4.'),
        ),
        migrations.AddConstraint(
            model_name='game',
            constraint=models.CheckConstraint(condition=models.Q(('confirmed_side__in', ['', 'a', 'b'])), name='game_confirmed_side_valid'),
        ),
        migrations.AddField(
            model_name='gamedispute',
            name='game',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='disputes', to='scoring.game', verbose_name='game'),
        ),
        migrations.AddField(
            model_name='gamedispute',
            name='resolved_by',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='resolved by'),
        ),
        migrations.AddField(
            model_name='gamelink',
            name='game',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='links', to='scoring.game', verbose_name='game'),
        ),
        migrations.AddField(
            model_name='historicalround',
            name='link',
            field=models.ForeignKey(blank=True, db_constraint=False, help_text="The table's link this round was entered with; empty when a director did.", null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='scoring.gamelink', verbose_name='entered through link'),
        ),
        migrations.AddField(
            model_name='round',
            name='link',
            field=models.ForeignKey(blank=True, help_text="The table's link this round was entered with; empty when a director did.", null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='rounds', to='scoring.gamelink', verbose_name='entered through link'),
        ),
        migrations.AddField(
            model_name='historicalgamedispute',
            name='game',
            field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='scoring.game', verbose_name='game'),
        ),
        migrations.AddField(
            model_name='historicalgamedispute',
            name='history_user',
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(
            model_name='historicalgamedispute',
            name='resolved_by',
            field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='resolved by'),
        ),
        migrations.AddConstraint(
            model_name='gamedispute',
            constraint=models.UniqueConstraint(condition=models.Q(('resolved_at__isnull', True)), fields=('game',), name='gamedispute_one_open_per_game', violation_error_message='This game has an open dispute already.'),
        ),
        migrations.AddConstraint(
            model_name='gamedispute',
            constraint=models.CheckConstraint(condition=models.Q(('side__in', ['a', 'b'])), name='gamedispute_side'),
        ),
        migrations.AddConstraint(
            model_name='gamedispute',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('resolution', ''), ('resolved_at__isnull', True)), models.Q(('resolution__in', ['accepted', 'corrected', 'rejected']), ('resolved_at__isnull', False)), _connector='OR'), name='gamedispute_resolved_with_resolution'),
        ),
        migrations.AddConstraint(
            model_name='gamelink',
            constraint=models.UniqueConstraint(condition=models.Q(('revoked_at__isnull', True)), fields=('game',), name='gamelink_one_active_per_game', violation_error_message='This game has a link already; revoke it first.'),
        ),
        migrations.AddConstraint(
            model_name='gamelink',
            constraint=models.CheckConstraint(condition=models.Q(('entering_side__in', ['', 'a', 'b'])), name='gamelink_side_valid'),
        ),
        migrations.RunPython(_sqlite(_0003.SQLITE), _sqlite(_0003.SQLITE_REVERSE)),
    ]
