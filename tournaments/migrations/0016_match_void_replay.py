"""Void and replay of a match (issue 22): when, why and by whom it was voided, and the match
that replays it; a replayed match must be void, and has one replay.

SQLite adds the constraints and the unique `replayed_by` by remaking tournaments_match:
its triggers and those naming it are set aside meanwhile (`TriggersKept`).
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from troefclub.migration_ops import TriggersKept


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0015_withdrawal_checkin'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        TriggersKept(
            "tournaments_match",
            [
            migrations.AddField(
                model_name='historicalmatch',
                name='replayed_by',
                field=models.ForeignKey(blank=True, db_constraint=False, help_text='The match that replays this voided one, on a later matchday.', null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='tournaments.match', verbose_name='replayed by'),
            ),
            migrations.AddField(
                model_name='historicalmatch',
                name='void_reason',
                field=models.CharField(blank=True, help_text='Given when voiding, e.g. “hall closed at 23:00, replayed”.', max_length=200, verbose_name='why it was voided'),
            ),
            migrations.AddField(
                model_name='historicalmatch',
                name='voided_at',
                field=models.DateTimeField(blank=True, help_text='When the director voided the match: it stays on the schedule but counts nowhere. Empty: it counts.', null=True, verbose_name='voided at'),
            ),
            migrations.AddField(
                model_name='historicalmatch',
                name='voided_by',
                field=models.ForeignKey(blank=True, db_constraint=False, help_text='The director who voided it; empty for an import.', null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='voided by'),
            ),
            migrations.AddField(
                model_name='match',
                name='replayed_by',
                field=models.OneToOneField(blank=True, help_text='The match that replays this voided one, on a later matchday.', null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='replay_of', to='tournaments.match', verbose_name='replayed by'),
            ),
            migrations.AddField(
                model_name='match',
                name='void_reason',
                field=models.CharField(blank=True, help_text='Given when voiding, e.g. “hall closed at 23:00, replayed”.', max_length=200, verbose_name='why it was voided'),
            ),
            migrations.AddField(
                model_name='match',
                name='voided_at',
                field=models.DateTimeField(blank=True, help_text='When the director voided the match: it stays on the schedule but counts nowhere. Empty: it counts.', null=True, verbose_name='voided at'),
            ),
            migrations.AddField(
                model_name='match',
                name='voided_by',
                field=models.ForeignKey(blank=True, help_text='The director who voided it; empty for an import.', null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='voided by'),
            ),
            migrations.AddConstraint(
                model_name='match',
                constraint=models.CheckConstraint(condition=models.Q(models.Q(('void_reason', ''), ('voided_at__isnull', True)), models.Q(('voided_at__isnull', False), models.Q(('void_reason', ''), _negated=True)), _connector='OR'), name='match_void_has_reason', violation_error_message='Voiding a match needs a reason.'),
            ),
            migrations.AddConstraint(
                model_name='match',
                constraint=models.CheckConstraint(condition=models.Q(('replayed_by__isnull', True), ('voided_at__isnull', False), _connector='OR'), name='match_replayed_is_void', violation_error_message='A match that is replayed must be voided: only the replay counts.'),
            ),
            migrations.AddConstraint(
                model_name='match',
                constraint=models.CheckConstraint(condition=models.Q(('replayed_by__isnull', True), models.Q(('replayed_by', models.F('pk')), _negated=True), _connector='OR'), name='match_replay_not_itself', violation_error_message='A match cannot be its own replay.'),
            ),
            ],
        ),
    ]
