"""Void of a game (issue 22): when, why and by whom it was voided.

SQLite adds the constraint by remaking scoring_game: its triggers and those naming it are
set aside meanwhile (`TriggersKept`).
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from troefclub.migration_ops import TriggersKept


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0011_game_places_checked_per_statement'),
        ('tournaments', '0016_match_void_replay'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        TriggersKept(
            "scoring_game",
            [
            migrations.AddField(
                model_name='game',
                name='void_reason',
                field=models.CharField(blank=True, help_text='Given when voiding, e.g. “wrong koppel at the table”.', max_length=200, verbose_name='why it was voided'),
            ),
            migrations.AddField(
                model_name='game',
                name='voided_at',
                field=models.DateTimeField(blank=True, help_text="When the director voided the game: it stays on the match's page but counts nowhere, the match's total included. Empty: it counts.", null=True, verbose_name='voided at'),
            ),
            migrations.AddField(
                model_name='game',
                name='voided_by',
                field=models.ForeignKey(blank=True, help_text='The director who voided it; empty for an import.', null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='voided by'),
            ),
            migrations.AddField(
                model_name='historicalgame',
                name='void_reason',
                field=models.CharField(blank=True, help_text='Given when voiding, e.g. “wrong koppel at the table”.', max_length=200, verbose_name='why it was voided'),
            ),
            migrations.AddField(
                model_name='historicalgame',
                name='voided_at',
                field=models.DateTimeField(blank=True, help_text="When the director voided the game: it stays on the match's page but counts nowhere, the match's total included. Empty: it counts.", null=True, verbose_name='voided at'),
            ),
            migrations.AddField(
                model_name='historicalgame',
                name='voided_by',
                field=models.ForeignKey(blank=True, db_constraint=False, help_text='The director who voided it; empty for an import.', null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='voided by'),
            ),
            migrations.AddConstraint(
                model_name='game',
                constraint=models.CheckConstraint(condition=models.Q(models.Q(('void_reason', ''), ('voided_at__isnull', True)), models.Q(('voided_at__isnull', False), models.Q(('void_reason', ''), _negated=True)), _connector='OR'), name='game_void_has_reason', violation_error_message='Voiding a game needs a reason.'),
            ),
            ],
        ),
    ]
