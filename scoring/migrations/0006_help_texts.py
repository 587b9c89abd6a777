"""Help texts on the fields of games, rounds and standings (issue 8: every field explained).

Only help texts change, which alters no table. Should SQLite rebuild scoring_game anyway,
0003's triggers naming it would forbid that: they are dropped around this migration and
made again (as 0004 and 0005).
"""

import importlib

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from troefclub.migration_ops import AlterFieldText

_0003 = importlib.import_module("scoring.migrations.0003_game_places")


def _sqlite(statements: list[str]):
    def apply(apps, schema_editor):
        if schema_editor.connection.vendor == "sqlite":
            for sql in statements:
                schema_editor.execute(sql)

    return apply


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0005_table_links'),
        ('tournaments', '0006_help_texts'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(_sqlite(_0003.SQLITE_REVERSE), _sqlite(_0003.SQLITE)),
        AlterFieldText(
            model_name='game',
            name='a_is_home',
            field=models.BooleanField(default=True, help_text='Worked out from the koppels and the match, never typed in.', verbose_name='koppel A plays for the home side'),
        ),
        AlterFieldText(
            model_name='game',
            name='baunies_a',
            field=models.PositiveSmallIntegerField(default=0, help_text='Baunies koppel A made.', verbose_name='baunies A'),
        ),
        AlterFieldText(
            model_name='game',
            name='baunies_b',
            field=models.PositiveSmallIntegerField(default=0, help_text='Baunies koppel B made.', verbose_name='baunies B'),
        ),
        AlterFieldText(
            model_name='game',
            name='confirmed_at',
            field=models.DateTimeField(blank=True, help_text='When the result was confirmed; empty: not confirmed yet.', null=True, verbose_name='confirmed at'),
        ),
        AlterFieldText(
            model_name='game',
            name='confirmed_by',
            field=models.ForeignKey(blank=True, help_text='The director who confirmed it; empty when a koppel did at the table.', null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='confirmed by'),
        ),
        AlterFieldText(
            model_name='game',
            name='kaps_a',
            field=models.PositiveSmallIntegerField(default=0, help_text='Rounds koppel A won with a kap or a kap by partner.', verbose_name='kaps A'),
        ),
        AlterFieldText(
            model_name='game',
            name='kaps_b',
            field=models.PositiveSmallIntegerField(default=0, help_text='Rounds koppel B won with a kap or a kap by partner.', verbose_name='kaps B'),
        ),
        AlterFieldText(
            model_name='game',
            name='match',
            field=models.ForeignKey(help_text='The match this game counts for (a pairs match has exactly one game).', on_delete=django.db.models.deletion.PROTECT, related_name='games', to='tournaments.match', verbose_name='match'),
        ),
        AlterFieldText(
            model_name='game',
            name='score_a',
            field=models.PositiveSmallIntegerField(default=0, help_text="Koppel A's game points, added up from the rounds.", verbose_name='score A'),
        ),
        AlterFieldText(
            model_name='game',
            name='score_b',
            field=models.PositiveSmallIntegerField(default=0, help_text="Koppel B's game points, added up from the rounds.", verbose_name='score B'),
        ),
        AlterFieldText(
            model_name='game',
            name='seat_1',
            field=models.ForeignKey(blank=True, help_text='The player in seat 1 (koppel A); seats go clockwise. All four seats or none.', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='tournaments.player', verbose_name='seat 1'),
        ),
        AlterFieldText(
            model_name='game',
            name='seat_2',
            field=models.ForeignKey(blank=True, help_text='The player in seat 2 (koppel B).', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='tournaments.player', verbose_name='seat 2'),
        ),
        AlterFieldText(
            model_name='game',
            name='seat_3',
            field=models.ForeignKey(blank=True, help_text='The player in seat 3 (koppel A, opposite seat 1).', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='tournaments.player', verbose_name='seat 3'),
        ),
        AlterFieldText(
            model_name='game',
            name='seat_4',
            field=models.ForeignKey(blank=True, help_text='The player in seat 4 (koppel B, opposite seat 2).', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='tournaments.player', verbose_name='seat 4'),
        ),
        AlterFieldText(
            model_name='game',
            name='sitting',
            field=models.PositiveSmallIntegerField(default=1, help_text='Club matches: the sitting (1, 2, …) of the match; 1 in a pairs match.', verbose_name='sitting'),
        ),
        AlterFieldText(
            model_name='game',
            name='status',
            field=models.CharField(choices=[('open', 'In play'), ('finished', 'Finished'), ('closed', 'Closed by the director')], default='open', help_text='In play until the game ends: a koppel reaches the target, the last round is played, or the director closes it.', max_length=8, verbose_name='status'),
        ),
        AlterFieldText(
            model_name='game',
            name='table',
            field=models.PositiveSmallIntegerField(default=1, help_text='The table number the game is played at.', verbose_name='table'),
        ),
        AlterFieldText(
            model_name='game',
            name='team_a',
            field=models.ForeignKey(help_text='One koppel at the table; it sits in seats 1 and 3.', on_delete=django.db.models.deletion.PROTECT, related_name='+', to='tournaments.team', verbose_name='koppel A'),
        ),
        AlterFieldText(
            model_name='game',
            name='team_b',
            field=models.ForeignKey(help_text='The other koppel; it sits in seats 2 and 4.', on_delete=django.db.models.deletion.PROTECT, related_name='+', to='tournaments.team', verbose_name='koppel B'),
        ),
        AlterFieldText(
            model_name='game',
            name='total_a',
            field=models.PositiveSmallIntegerField(blank=True, help_text="Koppel A's game points when only the final score is known (no rounds); empty otherwise.", null=True, verbose_name='entered total A'),
        ),
        AlterFieldText(
            model_name='game',
            name='total_b',
            field=models.PositiveSmallIntegerField(blank=True, help_text="Koppel B's game points, with koppel A's total, or empty.", null=True, verbose_name='entered total B'),
        ),
        AlterFieldText(
            model_name='historicalgame',
            name='a_is_home',
            field=models.BooleanField(default=True, help_text='Worked out from the koppels and the match, never typed in.', verbose_name='koppel A plays for the home side'),
        ),
        AlterFieldText(
            model_name='historicalgame',
            name='baunies_a',
            field=models.PositiveSmallIntegerField(default=0, help_text='Baunies koppel A made.', verbose_name='baunies A'),
        ),
        AlterFieldText(
            model_name='historicalgame',
            name='baunies_b',
            field=models.PositiveSmallIntegerField(default=0, help_text='Baunies koppel B made.', verbose_name='baunies B'),
        ),
        AlterFieldText(
            model_name='historicalgame',
            name='confirmed_at',
            field=models.DateTimeField(blank=True, help_text='When the result was confirmed; empty: not confirmed yet.', null=True, verbose_name='confirmed at'),
        ),
        AlterFieldText(
            model_name='historicalgame',
            name='confirmed_by',
            field=models.ForeignKey(blank=True, db_constraint=False, help_text='The director who confirmed it; empty when a koppel did at the table.', null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='confirmed by'),
        ),
        AlterFieldText(
            model_name='historicalgame',
            name='kaps_a',
            field=models.PositiveSmallIntegerField(default=0, help_text='Rounds koppel A won with a kap or a kap by partner.', verbose_name='kaps A'),
        ),
        AlterFieldText(
            model_name='historicalgame',
            name='kaps_b',
            field=models.PositiveSmallIntegerField(default=0, help_text='Rounds koppel B won with a kap or a kap by partner.', verbose_name='kaps B'),
        ),
        AlterFieldText(
            model_name='historicalgame',
            name='match',
            field=models.ForeignKey(blank=True, db_constraint=False, help_text='The match this game counts for (a pairs match has exactly one game).', null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='tournaments.match', verbose_name='match'),
        ),
        AlterFieldText(
            model_name='historicalgame',
            name='score_a',
            field=models.PositiveSmallIntegerField(default=0, help_text="Koppel A's game points, added up from the rounds.", verbose_name='score A'),
        ),
        AlterFieldText(
            model_name='historicalgame',
            name='score_b',
            field=models.PositiveSmallIntegerField(default=0, help_text="Koppel B's game points, added up from the rounds.", verbose_name='score B'),
        ),
        AlterFieldText(
            model_name='historicalgame',
            name='seat_1',
            field=models.ForeignKey(blank=True, db_constraint=False, help_text='The player in seat 1 (koppel A); seats go clockwise. All four seats or none.', null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='tournaments.player', verbose_name='seat 1'),
        ),
        AlterFieldText(
            model_name='historicalgame',
            name='seat_2',
            field=models.ForeignKey(blank=True, db_constraint=False, help_text='The player in seat 2 (koppel B).', null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='tournaments.player', verbose_name='seat 2'),
        ),
        AlterFieldText(
            model_name='historicalgame',
            name='seat_3',
            field=models.ForeignKey(blank=True, db_constraint=False, help_text='The player in seat 3 (koppel A, opposite seat 1).', null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='tournaments.player', verbose_name='seat 3'),
        ),
        AlterFieldText(
            model_name='historicalgame',
            name='seat_4',
            field=models.ForeignKey(blank=True, db_constraint=False, help_text='The player in seat 4 (koppel B, opposite seat 2).', null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='tournaments.player', verbose_name='seat 4'),
        ),
        AlterFieldText(
            model_name='historicalgame',
            name='sitting',
            field=models.PositiveSmallIntegerField(default=1, help_text='Club matches: the sitting (1, 2, …) of the match; 1 in a pairs match.', verbose_name='sitting'),
        ),
        AlterFieldText(
            model_name='historicalgame',
            name='status',
            field=models.CharField(choices=[('open', 'In play'), ('finished', 'Finished'), ('closed', 'Closed by the director')], default='open', help_text='In play until the game ends: a koppel reaches the target, the last round is played, or the director closes it.', max_length=8, verbose_name='status'),
        ),
        AlterFieldText(
            model_name='historicalgame',
            name='table',
            field=models.PositiveSmallIntegerField(default=1, help_text='The table number the game is played at.', verbose_name='table'),
        ),
        AlterFieldText(
            model_name='historicalgame',
            name='team_a',
            field=models.ForeignKey(blank=True, db_constraint=False, help_text='One koppel at the table; it sits in seats 1 and 3.', null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='tournaments.team', verbose_name='koppel A'),
        ),
        AlterFieldText(
            model_name='historicalgame',
            name='team_b',
            field=models.ForeignKey(blank=True, db_constraint=False, help_text='The other koppel; it sits in seats 2 and 4.', null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='tournaments.team', verbose_name='koppel B'),
        ),
        AlterFieldText(
            model_name='historicalgame',
            name='total_a',
            field=models.PositiveSmallIntegerField(blank=True, help_text="Koppel A's game points when only the final score is known (no rounds); empty otherwise.", null=True, verbose_name='entered total A'),
        ),
        AlterFieldText(
            model_name='historicalgame',
            name='total_b',
            field=models.PositiveSmallIntegerField(blank=True, help_text="Koppel B's game points, with koppel A's total, or empty.", null=True, verbose_name='entered total B'),
        ),
        AlterFieldText(
            model_name='historicalround',
            name='caller',
            field=models.ForeignKey(blank=True, db_constraint=False, help_text='The player who called trumps, when callers are recorded.', null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='tournaments.player', verbose_name='caller'),
        ),
        AlterFieldText(
            model_name='historicalround',
            name='game',
            field=models.ForeignKey(blank=True, db_constraint=False, help_text='The game this deal was played in.', null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='scoring.game', verbose_name='game'),
        ),
        AlterFieldText(
            model_name='historicalround',
            name='number',
            field=models.PositiveSmallIntegerField(help_text='1 for the first deal of the game, then 2, 3, … (redeals too).', verbose_name='round'),
        ),
        AlterFieldText(
            model_name='historicalround',
            name='points_a',
            field=models.PositiveSmallIntegerField(default=0, help_text='Game points koppel A got for the deal.', verbose_name='points A'),
        ),
        AlterFieldText(
            model_name='historicalround',
            name='points_b',
            field=models.PositiveSmallIntegerField(default=0, help_text='Game points koppel B got for the deal.', verbose_name='points B'),
        ),
        AlterFieldText(
            model_name='historicalround',
            name='recorded_at',
            field=models.DateTimeField(blank=True, editable=False, help_text='When the round was entered.', verbose_name='recorded at'),
        ),
        AlterFieldText(
            model_name='historicalround',
            name='recorded_by',
            field=models.ForeignKey(blank=True, db_constraint=False, help_text='The director who entered it; empty for a table link or an import.', null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='recorded by'),
        ),
        AlterFieldText(
            model_name='historicalround',
            name='result',
            field=models.CharField(choices=[('gewone_winst', 'gewone winst'), ('kap', 'kap'), ('kap_partner', 'kap by partner'), ('baunie', 'baunie'), ('baunie_mislukt', 'failed baunie'), ('kap_te_vroeg', 'early kap'), ('redeal', 'redeal (no picture)')], help_text='What happened in the deal (gewone winst, kap, baunie, …).', max_length=14, verbose_name='result'),
        ),
        AlterFieldText(
            model_name='historicalround',
            name='side',
            field=models.CharField(choices=[('a', 'koppel A'), ('b', 'koppel B')], help_text='The koppel the result is about (for a mislukte baunie or te vroeg gekapt, the one that failed: the other koppel scores).', max_length=1, verbose_name='side'),
        ),
        AlterFieldText(
            model_name='historicalround',
            name='tricks_a',
            field=models.PositiveSmallIntegerField(blank=True, help_text='Tricks koppel A took (0 to 13), when counted.', null=True, verbose_name='tricks A'),
        ),
        AlterFieldText(
            model_name='historicalround',
            name='tricks_b',
            field=models.PositiveSmallIntegerField(blank=True, help_text='Tricks koppel B took (0 to 13), when counted.', null=True, verbose_name='tricks B'),
        ),
        AlterFieldText(
            model_name='round',
            name='caller',
            field=models.ForeignKey(blank=True, help_text='The player who called trumps, when callers are recorded.', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='tournaments.player', verbose_name='caller'),
        ),
        AlterFieldText(
            model_name='round',
            name='game',
            field=models.ForeignKey(help_text='The game this deal was played in.', on_delete=django.db.models.deletion.PROTECT, related_name='rounds', to='scoring.game', verbose_name='game'),
        ),
        AlterFieldText(
            model_name='round',
            name='number',
            field=models.PositiveSmallIntegerField(help_text='1 for the first deal of the game, then 2, 3, … (redeals too).', verbose_name='round'),
        ),
        AlterFieldText(
            model_name='round',
            name='points_a',
            field=models.PositiveSmallIntegerField(default=0, help_text='Game points koppel A got for the deal.', verbose_name='points A'),
        ),
        AlterFieldText(
            model_name='round',
            name='points_b',
            field=models.PositiveSmallIntegerField(default=0, help_text='Game points koppel B got for the deal.', verbose_name='points B'),
        ),
        AlterFieldText(
            model_name='round',
            name='recorded_at',
            field=models.DateTimeField(auto_now_add=True, help_text='When the round was entered.', verbose_name='recorded at'),
        ),
        AlterFieldText(
            model_name='round',
            name='recorded_by',
            field=models.ForeignKey(blank=True, help_text='The director who entered it; empty for a table link or an import.', null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='recorded by'),
        ),
        AlterFieldText(
            model_name='round',
            name='result',
            field=models.CharField(choices=[('gewone_winst', 'gewone winst'), ('kap', 'kap'), ('kap_partner', 'kap by partner'), ('baunie', 'baunie'), ('baunie_mislukt', 'failed baunie'), ('kap_te_vroeg', 'early kap'), ('redeal', 'redeal (no picture)')], help_text='What happened in the deal (gewone winst, kap, baunie, …).', max_length=14, verbose_name='result'),
        ),
        AlterFieldText(
            model_name='round',
            name='side',
            field=models.CharField(choices=[('a', 'koppel A'), ('b', 'koppel B')], help_text='The koppel the result is about (for a mislukte baunie or te vroeg gekapt, the one that failed: the other koppel scores).', max_length=1, verbose_name='side'),
        ),
        AlterFieldText(
            model_name='round',
            name='tricks_a',
            field=models.PositiveSmallIntegerField(blank=True, help_text='Tricks koppel A took (0 to 13), when counted.', null=True, verbose_name='tricks A'),
        ),
        AlterFieldText(
            model_name='round',
            name='tricks_b',
            field=models.PositiveSmallIntegerField(blank=True, help_text='Tricks koppel B took (0 to 13), when counted.', null=True, verbose_name='tricks B'),
        ),
        AlterFieldText(
            model_name='standing',
            name='baunies',
            field=models.PositiveIntegerField(default=0, help_text='Baunies made.', verbose_name='baunies'),
        ),
        AlterFieldText(
            model_name='standing',
            name='buchholz',
            field=models.IntegerField(default=0, help_text="The competition points of the entry's opponents, added up.", verbose_name='buchholz'),
        ),
        AlterFieldText(
            model_name='standing',
            name='byes',
            field=models.PositiveSmallIntegerField(default=0, help_text='Matchdays without an opponent (counted in points).', verbose_name='byes'),
        ),
        AlterFieldText(
            model_name='standing',
            name='competition',
            field=models.ForeignKey(help_text='The competition this row of the table belongs to.', on_delete=django.db.models.deletion.CASCADE, related_name='standings', to='tournaments.competition', verbose_name='competition'),
        ),
        AlterFieldText(
            model_name='standing',
            name='computed_at',
            field=models.DateTimeField(help_text='When this row last changed.', verbose_name='computed at'),
        ),
        AlterFieldText(
            model_name='standing',
            name='deducted',
            field=models.PositiveIntegerField(default=0, help_text='Competition points taken off by deductions (already out of points).', verbose_name='points deducted'),
        ),
        AlterFieldText(
            model_name='standing',
            name='drawn',
            field=models.PositiveSmallIntegerField(default=0, help_text='Matches drawn.', verbose_name='drawn'),
        ),
        AlterFieldText(
            model_name='standing',
            name='entry',
            field=models.ForeignKey(help_text='The koppel or club of this row.', on_delete=django.db.models.deletion.CASCADE, related_name='standings', to='tournaments.entry', verbose_name='entry'),
        ),
        AlterFieldText(
            model_name='standing',
            name='head_to_head',
            field=models.IntegerField(blank=True, help_text='Competition points among the tied entries, when that decided the rank.', null=True, verbose_name='head-to-head'),
        ),
        AlterFieldText(
            model_name='standing',
            name='kaps',
            field=models.PositiveIntegerField(default=0, help_text='Rounds won with a kap or a kap by partner.', verbose_name='kaps'),
        ),
        AlterFieldText(
            model_name='standing',
            name='lost',
            field=models.PositiveSmallIntegerField(default=0, help_text='Matches lost.', verbose_name='lost'),
        ),
        AlterFieldText(
            model_name='standing',
            name='played',
            field=models.PositiveSmallIntegerField(default=0, help_text='Matches played, byes included.', verbose_name='played'),
        ),
        AlterFieldText(
            model_name='standing',
            name='points',
            field=models.IntegerField(default=0, help_text='Competition points (win, draw, loss), deductions taken off.', verbose_name='points'),
        ),
        AlterFieldText(
            model_name='standing',
            name='points_against',
            field=models.PositiveIntegerField(default=0, help_text='Game points the opponents scored.', verbose_name='points against'),
        ),
        AlterFieldText(
            model_name='standing',
            name='points_for',
            field=models.PositiveIntegerField(default=0, help_text='Game points scored, over all matches.', verbose_name='points for'),
        ),
        AlterFieldText(
            model_name='standing',
            name='rank',
            field=models.PositiveSmallIntegerField(help_text='Place in the table; entries level on every tie-break share it.', verbose_name='rank'),
        ),
        AlterFieldText(
            model_name='standing',
            name='saldo',
            field=models.IntegerField(default=0, help_text='Game points for minus game points against.', verbose_name='saldo'),
        ),
        AlterFieldText(
            model_name='standing',
            name='won',
            field=models.PositiveSmallIntegerField(default=0, help_text='Matches won.', verbose_name='won'),
        ),
        migrations.RunPython(_sqlite(_0003.SQLITE), _sqlite(_0003.SQLITE_REVERSE)),
    ]
