"""Help texts on the fields directors and league admins edit in the admin (issue 8: every
field explained). Only help texts change: no table is altered."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import troefclub.fields
import troefclub.validators
from troefclub.migration_ops import AlterFieldText


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0005_standings_refresh_claim'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        AlterFieldText(
            model_name='bye',
            name='entry',
            field=models.ForeignKey(help_text="The koppel or club without an opponent; it scores what the competition's bye settings say.", on_delete=django.db.models.deletion.PROTECT, related_name='byes', to='tournaments.entry', verbose_name='entry'),
        ),
        AlterFieldText(
            model_name='bye',
            name='matchday',
            field=models.ForeignKey(help_text='The matchday the entry has no opponent.', on_delete=django.db.models.deletion.PROTECT, related_name='byes', to='tournaments.matchday', verbose_name='matchday'),
        ),
        AlterFieldText(
            model_name='bye',
            name='reason',
            field=models.JSONField(blank=True, default=dict, help_text='Filled by the schedule (why this entry got the bye); leave it empty ({}) for a bye given by hand.', verbose_name='reason'),
        ),
        AlterFieldText(
            model_name='club',
            name='key',
            field=models.SlugField(help_text="A short code that never changes, e.g. the federation's club code: import files find the club by it. Letters, digits, - and _.", max_length=64, unique=True, validators=[troefclub.validators.validate_key_start], verbose_name='key'),
        ),
        AlterFieldText(
            model_name='club',
            name='name',
            field=troefclub.fields.NameField(help_text="The club's name as players know it.", max_length=120, verbose_name='name'),
        ),
        AlterFieldText(
            model_name='competition',
            name='bye_result',
            field=models.CharField(choices=[('win', 'a win'), ('draw', 'a draw'), ('loss', 'a loss (no points)')], default='win', help_text='The result an entry without an opponent on a matchday gets in the standings.', max_length=4, verbose_name='a bye counts as'),
        ),
        AlterFieldText(
            model_name='competition',
            name='bye_score_against',
            field=models.PositiveSmallIntegerField(default=0, help_text='Game points counted against the entry with the bye (for its saldo).', verbose_name='bye: game points against'),
        ),
        AlterFieldText(
            model_name='competition',
            name='bye_score_for',
            field=models.PositiveSmallIntegerField(default=20, help_text='Game points the entry with the bye scores. Follows the target score unless you change it.', verbose_name='bye: game points for'),
        ),
        AlterFieldText(
            model_name='competition',
            name='callers_required',
            field=models.BooleanField(default=False, help_text='On: every round names its caller and the seats must be set; a caller out of turn is refused.', verbose_name='callers recorded'),
        ),
        AlterFieldText(
            model_name='competition',
            name='close_by_director_allowed',
            field=models.BooleanField(default=False, help_text='On: the director may end a game before the target (e.g. at closing time).', verbose_name='director may close a game (time limit)'),
        ),
        AlterFieldText(
            model_name='competition',
            name='confirmation_required',
            field=models.BooleanField(default=False, help_text='On: a game entered at the table counts in the standings only after the other koppel (or the director) confirms it.', verbose_name='results count only once confirmed'),
        ),
        AlterFieldText(
            model_name='competition',
            name='directors',
            field=models.ManyToManyField(blank=True, help_text='The users who pair matchdays and enter and correct results of this competition.', related_name='directed_competitions', to=settings.AUTH_USER_MODEL, verbose_name='directors'),
        ),
        AlterFieldText(
            model_name='competition',
            name='early_kap_penalty',
            field=models.PositiveSmallIntegerField(default=2, help_text='Game points to the other koppel when a player says kap too early.', verbose_name='early-kap penalty'),
        ),
        AlterFieldText(
            model_name='competition',
            name='forfeit_score_against',
            field=models.PositiveSmallIntegerField(default=0, help_text='Game points the forfeiting side gets for the match (usually 0).', verbose_name='forfeit: game points to the side that forfeits'),
        ),
        AlterFieldText(
            model_name='competition',
            name='forfeit_score_for',
            field=models.PositiveSmallIntegerField(default=0, help_text='Game points the side that did not forfeit gets for the match.', verbose_name='forfeit: game points to the winner'),
        ),
        AlterFieldText(
            model_name='competition',
            name='ineligible_deduction',
            field=models.PositiveSmallIntegerField(default=3, help_text='A side that fields a player not on its squad loses the match by forfeit; if it lost the match anyway, it loses these competition points instead.', verbose_name='points deducted for an ineligible player in a lost match'),
        ),
        AlterFieldText(
            model_name='competition',
            name='kap_partner_allowed',
            field=models.BooleanField(default=True, help_text="On: when the partner of the 7th trick's winner says kap, the koppel gets 2 game points. Off: that result is refused.", verbose_name='kap by partner allowed (2 points)'),
        ),
        AlterFieldText(
            model_name='competition',
            name='kind',
            field=models.CharField(choices=[('pairs', 'Pairs competition'), ('clubs', 'Club competition')], default='pairs', help_text='Pairs: koppels are the entries (club evenings, open tournaments). Club: clubs are, each fielding several koppels in a match (leagues).', max_length=5, verbose_name='kind'),
        ),
        AlterFieldText(
            model_name='competition',
            name='koppels_per_side',
            field=models.PositiveSmallIntegerField(default=6, help_text='How many koppels each club fields in a match: 1 to 6.', verbose_name='koppels a side (club matches)'),
        ),
        AlterFieldText(
            model_name='competition',
            name='late_koppel_until_sitting',
            field=models.PositiveSmallIntegerField(blank=True, help_text='The last sitting a koppel that arrives late may still join in. Empty: a koppel must play from the first sitting.', null=True, verbose_name='a missing koppel may join up to sitting'),
        ),
        AlterFieldText(
            model_name='competition',
            name='min_koppels',
            field=models.PositiveSmallIntegerField(default=5, help_text='Koppels: a club match with fewer koppels on a side is forfeited by that side.', verbose_name='fewest koppels a club may field'),
        ),
        AlterFieldText(
            model_name='competition',
            name='name',
            field=troefclub.fields.NameField(help_text='As shown to players, e.g. “Club evening”.', max_length=160, verbose_name='name'),
        ),
        AlterFieldText(
            model_name='competition',
            name='points_draw',
            field=models.PositiveSmallIntegerField(default=1, help_text='Competition points for a drawn match.', verbose_name='points for a draw'),
        ),
        AlterFieldText(
            model_name='competition',
            name='points_loss',
            field=models.PositiveSmallIntegerField(default=0, help_text='Competition points for a lost match.', verbose_name='points for a loss'),
        ),
        AlterFieldText(
            model_name='competition',
            name='points_win',
            field=models.PositiveSmallIntegerField(default=2, help_text="Competition points for a won match (the standings' “Pts”).", verbose_name='points for a win'),
        ),
        AlterFieldText(
            model_name='competition',
            name='redeal_allowed',
            field=models.BooleanField(default=True, help_text='On: a caller without king, queen or jack may ask for a new deal (a round worth nothing). Off: that result is refused.', verbose_name='no-picture redeal allowed'),
        ),
        AlterFieldText(
            model_name='competition',
            name='schedule_format',
            field=models.CharField(choices=[('manual', 'Manual pairings'), ('round_robin', 'Round robin'), ('double_round_robin', 'Double round robin (home and away)'), ('swiss', 'Swiss system')], default='manual', help_text='How the matchdays are paired: by the director, a round robin made at once, or Swiss (each matchday paired on the standings).', max_length=20, verbose_name='schedule'),
        ),
        AlterFieldText(
            model_name='competition',
            name='season',
            field=models.CharField(blank=True, help_text='E.g. 2026-2027; season rankings and squads go by it. May stay empty.', max_length=20, verbose_name='season'),
        ),
        AlterFieldText(
            model_name='competition',
            name='sittings',
            field=models.PositiveSmallIntegerField(default=4, help_text='Rounds of play in a club match: in each, every home koppel plays one away koppel. At most the koppels a side.', verbose_name='sittings (club matches)'),
        ),
        AlterFieldText(
            model_name='competition',
            name='slug',
            field=models.SlugField(help_text="The competition's short name in its web address and in import files. Fixed once it has matchdays: printed sheets link to it.", max_length=80, unique=True, validators=[troefclub.validators.validate_key_start], verbose_name='slug'),
        ),
        AlterFieldText(
            model_name='competition',
            name='squads_required',
            field=models.BooleanField(default=False, help_text='On: a club may field only players on its squad for the season (Squads).', verbose_name="koppels only from the club's squad (moederlijst)"),
        ),
        AlterFieldText(
            model_name='competition',
            name='standings_computed_at',
            field=models.DateTimeField(blank=True, editable=False, help_text='When the standings were last rebuilt: the “as of” of the standings page.', null=True, verbose_name='standings computed at'),
        ),
        AlterFieldText(
            model_name='competition',
            name='standings_stale_since',
            field=models.DateTimeField(blank=True, editable=False, help_text='Set while the standings are catching up with a saved result.', null=True, verbose_name='standings owe a refresh since'),
        ),
        AlterFieldText(
            model_name='competition',
            name='stinkende_baunie_bonus',
            field=models.PositiveSmallIntegerField(default=0, help_text='Extra game points when the koppel that did not call makes a baunie. 0: no bonus.', verbose_name='stinkende baunie bonus'),
        ),
        AlterFieldText(
            model_name='competition',
            name='stinkende_kap_bonus',
            field=models.PositiveSmallIntegerField(default=0, help_text='Extra game points when the koppel that did not call makes a kap. 0: no bonus.', verbose_name='stinkende kap bonus'),
        ),
        AlterFieldText(
            model_name='competition',
            name='target_score',
            field=models.PositiveSmallIntegerField(blank=True, default=20, help_text='Game points: a game ends when a koppel reaches this score (usually 20). Empty: no target.', null=True, verbose_name='target score'),
        ),
        AlterFieldText(
            model_name='competition',
            name='tiebreaks',
            field=models.JSONField(blank=True, default=list, help_text='How entries level on competition points are ranked, in order (a list of tie-break keys; the admin offers them by name).', verbose_name='tie-breaks'),
        ),
        AlterFieldText(
            model_name='competition',
            name='trump_open_card',
            field=models.PositiveSmallIntegerField(blank=True, choices=[(9, '9th card'), (13, '13th card')], help_text='Which open card shows trumps. For information only: it does not change the scoring.', null=True, verbose_name='trump from an open card'),
        ),
        AlterFieldText(
            model_name='deduction',
            name='competition',
            field=models.ForeignKey(help_text='The competition whose standings lose the points.', on_delete=django.db.models.deletion.PROTECT, related_name='deductions', to='tournaments.competition', verbose_name='competition'),
        ),
        AlterFieldText(
            model_name='deduction',
            name='created_at',
            field=models.DateTimeField(auto_now_add=True, help_text='When the deduction was added.', verbose_name='created at'),
        ),
        AlterFieldText(
            model_name='deduction',
            name='entry',
            field=models.ForeignKey(help_text='The koppel or club that loses the points.', on_delete=django.db.models.deletion.PROTECT, related_name='deductions', to='tournaments.entry', verbose_name='entry'),
        ),
        AlterFieldText(
            model_name='deduction',
            name='match',
            field=models.ForeignKey(blank=True, help_text='The match it is about, if any (one the entry played).', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='deductions', to='tournaments.match', verbose_name='match'),
        ),
        AlterFieldText(
            model_name='deduction',
            name='points',
            field=models.PositiveSmallIntegerField(help_text="Competition points taken off the entry's total (at least 1).", verbose_name='points deducted'),
        ),
        AlterFieldText(
            model_name='deduction',
            name='reason',
            field=models.CharField(help_text='Shown under the standings, e.g. “ineligible player”.', max_length=200, verbose_name='reason'),
        ),
        AlterFieldText(
            model_name='deduction',
            name='void_reason',
            field=models.CharField(blank=True, help_text='Given when voiding, e.g. “appeal upheld”.', max_length=200, verbose_name='why it was voided'),
        ),
        AlterFieldText(
            model_name='deduction',
            name='voided_at',
            field=models.DateTimeField(blank=True, help_text='When it was voided; from then on it no longer counts. Empty: it counts.', null=True, verbose_name='voided at'),
        ),
        AlterFieldText(
            model_name='entry',
            name='club',
            field=models.ForeignKey(blank=True, help_text='In a club competition: the club taking part (leave the koppel empty).', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='entries', to='tournaments.club', verbose_name='club'),
        ),
        AlterFieldText(
            model_name='entry',
            name='competition',
            field=models.ForeignKey(help_text='The competition the koppel or club takes part in.', on_delete=django.db.models.deletion.PROTECT, related_name='entries', to='tournaments.competition', verbose_name='competition'),
        ),
        AlterFieldText(
            model_name='entry',
            name='team',
            field=models.ForeignKey(blank=True, help_text='In a pairs competition: the koppel taking part (leave the club empty).', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='entries', to='tournaments.team', verbose_name='koppel'),
        ),
        AlterFieldText(
            model_name='historicalbye',
            name='entry',
            field=models.ForeignKey(blank=True, db_constraint=False, help_text="The koppel or club without an opponent; it scores what the competition's bye settings say.", null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='tournaments.entry', verbose_name='entry'),
        ),
        AlterFieldText(
            model_name='historicalbye',
            name='matchday',
            field=models.ForeignKey(blank=True, db_constraint=False, help_text='The matchday the entry has no opponent.', null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='tournaments.matchday', verbose_name='matchday'),
        ),
        AlterFieldText(
            model_name='historicalbye',
            name='reason',
            field=models.JSONField(blank=True, default=dict, help_text='Filled by the schedule (why this entry got the bye); leave it empty ({}) for a bye given by hand.', verbose_name='reason'),
        ),
        AlterFieldText(
            model_name='historicalcompetition',
            name='bye_result',
            field=models.CharField(choices=[('win', 'a win'), ('draw', 'a draw'), ('loss', 'a loss (no points)')], default='win', help_text='The result an entry without an opponent on a matchday gets in the standings.', max_length=4, verbose_name='a bye counts as'),
        ),
        AlterFieldText(
            model_name='historicalcompetition',
            name='bye_score_against',
            field=models.PositiveSmallIntegerField(default=0, help_text='Game points counted against the entry with the bye (for its saldo).', verbose_name='bye: game points against'),
        ),
        AlterFieldText(
            model_name='historicalcompetition',
            name='bye_score_for',
            field=models.PositiveSmallIntegerField(default=20, help_text='Game points the entry with the bye scores. Follows the target score unless you change it.', verbose_name='bye: game points for'),
        ),
        AlterFieldText(
            model_name='historicalcompetition',
            name='callers_required',
            field=models.BooleanField(default=False, help_text='On: every round names its caller and the seats must be set; a caller out of turn is refused.', verbose_name='callers recorded'),
        ),
        AlterFieldText(
            model_name='historicalcompetition',
            name='close_by_director_allowed',
            field=models.BooleanField(default=False, help_text='On: the director may end a game before the target (e.g. at closing time).', verbose_name='director may close a game (time limit)'),
        ),
        AlterFieldText(
            model_name='historicalcompetition',
            name='confirmation_required',
            field=models.BooleanField(default=False, help_text='On: a game entered at the table counts in the standings only after the other koppel (or the director) confirms it.', verbose_name='results count only once confirmed'),
        ),
        AlterFieldText(
            model_name='historicalcompetition',
            name='early_kap_penalty',
            field=models.PositiveSmallIntegerField(default=2, help_text='Game points to the other koppel when a player says kap too early.', verbose_name='early-kap penalty'),
        ),
        AlterFieldText(
            model_name='historicalcompetition',
            name='forfeit_score_against',
            field=models.PositiveSmallIntegerField(default=0, help_text='Game points the forfeiting side gets for the match (usually 0).', verbose_name='forfeit: game points to the side that forfeits'),
        ),
        AlterFieldText(
            model_name='historicalcompetition',
            name='forfeit_score_for',
            field=models.PositiveSmallIntegerField(default=0, help_text='Game points the side that did not forfeit gets for the match.', verbose_name='forfeit: game points to the winner'),
        ),
        AlterFieldText(
            model_name='historicalcompetition',
            name='ineligible_deduction',
            field=models.PositiveSmallIntegerField(default=3, help_text='A side that fields a player not on its squad loses the match by forfeit; if it lost the match anyway, it loses these competition points instead.', verbose_name='points deducted for an ineligible player in a lost match'),
        ),
        AlterFieldText(
            model_name='historicalcompetition',
            name='kap_partner_allowed',
            field=models.BooleanField(default=True, help_text="On: when the partner of the 7th trick's winner says kap, the koppel gets 2 game points. Off: that result is refused.", verbose_name='kap by partner allowed (2 points)'),
        ),
        AlterFieldText(
            model_name='historicalcompetition',
            name='kind',
            field=models.CharField(choices=[('pairs', 'Pairs competition'), ('clubs', 'Club competition')], default='pairs', help_text='Pairs: koppels are the entries (club evenings, open tournaments). Club: clubs are, each fielding several koppels in a match (leagues).', max_length=5, verbose_name='kind'),
        ),
        AlterFieldText(
            model_name='historicalcompetition',
            name='koppels_per_side',
            field=models.PositiveSmallIntegerField(default=6, help_text='How many koppels each club fields in a match: 1 to 6.', verbose_name='koppels a side (club matches)'),
        ),
        AlterFieldText(
            model_name='historicalcompetition',
            name='late_koppel_until_sitting',
            field=models.PositiveSmallIntegerField(blank=True, help_text='The last sitting a koppel that arrives late may still join in. Empty: a koppel must play from the first sitting.', null=True, verbose_name='a missing koppel may join up to sitting'),
        ),
        AlterFieldText(
            model_name='historicalcompetition',
            name='min_koppels',
            field=models.PositiveSmallIntegerField(default=5, help_text='Koppels: a club match with fewer koppels on a side is forfeited by that side.', verbose_name='fewest koppels a club may field'),
        ),
        AlterFieldText(
            model_name='historicalcompetition',
            name='name',
            field=troefclub.fields.NameField(help_text='As shown to players, e.g. “Club evening”.', max_length=160, verbose_name='name'),
        ),
        AlterFieldText(
            model_name='historicalcompetition',
            name='points_draw',
            field=models.PositiveSmallIntegerField(default=1, help_text='Competition points for a drawn match.', verbose_name='points for a draw'),
        ),
        AlterFieldText(
            model_name='historicalcompetition',
            name='points_loss',
            field=models.PositiveSmallIntegerField(default=0, help_text='Competition points for a lost match.', verbose_name='points for a loss'),
        ),
        AlterFieldText(
            model_name='historicalcompetition',
            name='points_win',
            field=models.PositiveSmallIntegerField(default=2, help_text="Competition points for a won match (the standings' “Pts”).", verbose_name='points for a win'),
        ),
        AlterFieldText(
            model_name='historicalcompetition',
            name='redeal_allowed',
            field=models.BooleanField(default=True, help_text='On: a caller without king, queen or jack may ask for a new deal (a round worth nothing). Off: that result is refused.', verbose_name='no-picture redeal allowed'),
        ),
        AlterFieldText(
            model_name='historicalcompetition',
            name='schedule_format',
            field=models.CharField(choices=[('manual', 'Manual pairings'), ('round_robin', 'Round robin'), ('double_round_robin', 'Double round robin (home and away)'), ('swiss', 'Swiss system')], default='manual', help_text='How the matchdays are paired: by the director, a round robin made at once, or Swiss (each matchday paired on the standings).', max_length=20, verbose_name='schedule'),
        ),
        AlterFieldText(
            model_name='historicalcompetition',
            name='season',
            field=models.CharField(blank=True, help_text='E.g. 2026-2027; season rankings and squads go by it. May stay empty.', max_length=20, verbose_name='season'),
        ),
        AlterFieldText(
            model_name='historicalcompetition',
            name='sittings',
            field=models.PositiveSmallIntegerField(default=4, help_text='Rounds of play in a club match: in each, every home koppel plays one away koppel. At most the koppels a side.', verbose_name='sittings (club matches)'),
        ),
        AlterFieldText(
            model_name='historicalcompetition',
            name='slug',
            field=models.SlugField(help_text="The competition's short name in its web address and in import files. Fixed once it has matchdays: printed sheets link to it.", max_length=80, validators=[troefclub.validators.validate_key_start], verbose_name='slug'),
        ),
        AlterFieldText(
            model_name='historicalcompetition',
            name='squads_required',
            field=models.BooleanField(default=False, help_text='On: a club may field only players on its squad for the season (Squads).', verbose_name="koppels only from the club's squad (moederlijst)"),
        ),
        AlterFieldText(
            model_name='historicalcompetition',
            name='standings_computed_at',
            field=models.DateTimeField(blank=True, editable=False, help_text='When the standings were last rebuilt: the “as of” of the standings page.', null=True, verbose_name='standings computed at'),
        ),
        AlterFieldText(
            model_name='historicalcompetition',
            name='standings_stale_since',
            field=models.DateTimeField(blank=True, editable=False, help_text='Set while the standings are catching up with a saved result.', null=True, verbose_name='standings owe a refresh since'),
        ),
        AlterFieldText(
            model_name='historicalcompetition',
            name='stinkende_baunie_bonus',
            field=models.PositiveSmallIntegerField(default=0, help_text='Extra game points when the koppel that did not call makes a baunie. 0: no bonus.', verbose_name='stinkende baunie bonus'),
        ),
        AlterFieldText(
            model_name='historicalcompetition',
            name='stinkende_kap_bonus',
            field=models.PositiveSmallIntegerField(default=0, help_text='Extra game points when the koppel that did not call makes a kap. 0: no bonus.', verbose_name='stinkende kap bonus'),
        ),
        AlterFieldText(
            model_name='historicalcompetition',
            name='target_score',
            field=models.PositiveSmallIntegerField(blank=True, default=20, help_text='Game points: a game ends when a koppel reaches this score (usually 20). Empty: no target.', null=True, verbose_name='target score'),
        ),
        AlterFieldText(
            model_name='historicalcompetition',
            name='tiebreaks',
            field=models.JSONField(blank=True, default=list, help_text='How entries level on competition points are ranked, in order (a list of tie-break keys; the admin offers them by name).', verbose_name='tie-breaks'),
        ),
        AlterFieldText(
            model_name='historicalcompetition',
            name='trump_open_card',
            field=models.PositiveSmallIntegerField(blank=True, choices=[(9, '9th card'), (13, '13th card')], help_text='Which open card shows trumps. For information only: it does not change the scoring.', null=True, verbose_name='trump from an open card'),
        ),
        AlterFieldText(
            model_name='historicaldeduction',
            name='competition',
            field=models.ForeignKey(blank=True, db_constraint=False, help_text='The competition whose standings lose the points.', null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='tournaments.competition', verbose_name='competition'),
        ),
        AlterFieldText(
            model_name='historicaldeduction',
            name='created_at',
            field=models.DateTimeField(blank=True, editable=False, help_text='When the deduction was added.', verbose_name='created at'),
        ),
        AlterFieldText(
            model_name='historicaldeduction',
            name='entry',
            field=models.ForeignKey(blank=True, db_constraint=False, help_text='The koppel or club that loses the points.', null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='tournaments.entry', verbose_name='entry'),
        ),
        AlterFieldText(
            model_name='historicaldeduction',
            name='match',
            field=models.ForeignKey(blank=True, db_constraint=False, help_text='The match it is about, if any (one the entry played).', null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='tournaments.match', verbose_name='match'),
        ),
        AlterFieldText(
            model_name='historicaldeduction',
            name='points',
            field=models.PositiveSmallIntegerField(help_text="Competition points taken off the entry's total (at least 1).", verbose_name='points deducted'),
        ),
        AlterFieldText(
            model_name='historicaldeduction',
            name='reason',
            field=models.CharField(help_text='Shown under the standings, e.g. “ineligible player”.', max_length=200, verbose_name='reason'),
        ),
        AlterFieldText(
            model_name='historicaldeduction',
            name='void_reason',
            field=models.CharField(blank=True, help_text='Given when voiding, e.g. “appeal upheld”.', max_length=200, verbose_name='why it was voided'),
        ),
        AlterFieldText(
            model_name='historicaldeduction',
            name='voided_at',
            field=models.DateTimeField(blank=True, help_text='When it was voided; from then on it no longer counts. Empty: it counts.', null=True, verbose_name='voided at'),
        ),
        AlterFieldText(
            model_name='historicalmatch',
            name='away',
            field=models.ForeignKey(blank=True, db_constraint=False, help_text='The visiting entry.', null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='tournaments.entry', verbose_name='away'),
        ),
        AlterFieldText(
            model_name='historicalmatch',
            name='forfeit',
            field=models.CharField(blank=True, choices=[('', '—'), ('home', 'home side forfeits'), ('away', 'away side forfeits'), ('both', 'both sides forfeit')], default='', help_text="The side that gave up or did not come: it loses, and the game points are the competition's forfeit score.", max_length=4, verbose_name='forfeit'),
        ),
        AlterFieldText(
            model_name='historicalmatch',
            name='forfeit_reason',
            field=models.CharField(blank=True, help_text='Why the match was forfeited, shown with the result.', max_length=200, verbose_name='forfeit reason'),
        ),
        AlterFieldText(
            model_name='historicalmatch',
            name='home',
            field=models.ForeignKey(blank=True, db_constraint=False, help_text='The entry playing at home (named first).', null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='tournaments.entry', verbose_name='home'),
        ),
        AlterFieldText(
            model_name='historicalmatch',
            name='lineup',
            field=models.JSONField(blank=True, default=dict, help_text="A club match's koppels per side, as the director set them on the match page.", verbose_name='lineup'),
        ),
        AlterFieldText(
            model_name='historicalmatch',
            name='matchday',
            field=models.ForeignKey(blank=True, db_constraint=False, help_text='The matchday (speelronde) the match is played on.', null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='tournaments.matchday', verbose_name='matchday'),
        ),
        AlterFieldText(
            model_name='historicalmatch',
            name='pairing_reason',
            field=models.JSONField(blank=True, default=dict, help_text='Why the schedule (e.g. the Swiss pairing) made this match; empty for a match paired by hand.', verbose_name='pairing reason'),
        ),
        AlterFieldText(
            model_name='historicalmatch',
            name='table',
            field=models.PositiveSmallIntegerField(blank=True, help_text='The table number the match is played at that evening.', null=True, verbose_name='table'),
        ),
        AlterFieldText(
            model_name='historicalmatch',
            name='total_away',
            field=models.PositiveIntegerField(blank=True, help_text='Game points of the away side, with the home total, or empty.', null=True, verbose_name='reported total away'),
        ),
        AlterFieldText(
            model_name='historicalmatch',
            name='total_home',
            field=models.PositiveIntegerField(blank=True, help_text='Game points of the home side when only the totals are known (a paper sheet, a newspaper report); empty when the games are entered.', null=True, verbose_name='reported total home'),
        ),
        AlterFieldText(
            model_name='match',
            name='away',
            field=models.ForeignKey(help_text='The visiting entry.', on_delete=django.db.models.deletion.PROTECT, related_name='away_matches', to='tournaments.entry', verbose_name='away'),
        ),
        AlterFieldText(
            model_name='match',
            name='forfeit',
            field=models.CharField(blank=True, choices=[('', '—'), ('home', 'home side forfeits'), ('away', 'away side forfeits'), ('both', 'both sides forfeit')], default='', help_text="The side that gave up or did not come: it loses, and the game points are the competition's forfeit score.", max_length=4, verbose_name='forfeit'),
        ),
        AlterFieldText(
            model_name='match',
            name='forfeit_reason',
            field=models.CharField(blank=True, help_text='Why the match was forfeited, shown with the result.', max_length=200, verbose_name='forfeit reason'),
        ),
        AlterFieldText(
            model_name='match',
            name='home',
            field=models.ForeignKey(help_text='The entry playing at home (named first).', on_delete=django.db.models.deletion.PROTECT, related_name='home_matches', to='tournaments.entry', verbose_name='home'),
        ),
        AlterFieldText(
            model_name='match',
            name='lineup',
            field=models.JSONField(blank=True, default=dict, help_text="A club match's koppels per side, as the director set them on the match page.", verbose_name='lineup'),
        ),
        AlterFieldText(
            model_name='match',
            name='matchday',
            field=models.ForeignKey(help_text='The matchday (speelronde) the match is played on.', on_delete=django.db.models.deletion.PROTECT, related_name='matches', to='tournaments.matchday', verbose_name='matchday'),
        ),
        AlterFieldText(
            model_name='match',
            name='pairing_reason',
            field=models.JSONField(blank=True, default=dict, help_text='Why the schedule (e.g. the Swiss pairing) made this match; empty for a match paired by hand.', verbose_name='pairing reason'),
        ),
        AlterFieldText(
            model_name='match',
            name='table',
            field=models.PositiveSmallIntegerField(blank=True, help_text='The table number the match is played at that evening.', null=True, verbose_name='table'),
        ),
        AlterFieldText(
            model_name='match',
            name='total_away',
            field=models.PositiveIntegerField(blank=True, help_text='Game points of the away side, with the home total, or empty.', null=True, verbose_name='reported total away'),
        ),
        AlterFieldText(
            model_name='match',
            name='total_home',
            field=models.PositiveIntegerField(blank=True, help_text='Game points of the home side when only the totals are known (a paper sheet, a newspaper report); empty when the games are entered.', null=True, verbose_name='reported total home'),
        ),
        AlterFieldText(
            model_name='matchday',
            name='competition',
            field=models.ForeignKey(help_text='The competition this matchday belongs to.', on_delete=django.db.models.deletion.PROTECT, related_name='matchdays', to='tournaments.competition', verbose_name='competition'),
        ),
        AlterFieldText(
            model_name='matchday',
            name='date',
            field=models.DateField(blank=True, help_text='The evening it is played; may stay empty.', null=True, verbose_name='date'),
        ),
        AlterFieldText(
            model_name='matchday',
            name='number',
            field=models.PositiveSmallIntegerField(help_text='1 for the first matchday (speelronde) of the competition, 2 next, and so on.', verbose_name='number'),
        ),
        AlterFieldText(
            model_name='matchday',
            name='override_reason',
            field=models.TextField(blank=True, help_text="Swiss: the director's reason to pair it early, shown on the matchday's page. Usually empty.", verbose_name='why it was paired before the previous matchday finished'),
        ),
        AlterFieldText(
            model_name='player',
            name='club',
            field=models.ForeignKey(blank=True, help_text='The club the player plays for now; empty for a player without a club.', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='players', to='tournaments.club', verbose_name='club'),
        ),
        AlterFieldText(
            model_name='player',
            name='key',
            field=models.SlugField(help_text='A short code that never changes, e.g. the licence number: import files find the player by it. Letters, digits, - and _.', max_length=64, unique=True, validators=[troefclub.validators.validate_key_start], verbose_name='key'),
        ),
        AlterFieldText(
            model_name='player',
            name='name',
            field=troefclub.fields.NameField(help_text='The name shown on score sheets and standings.', max_length=120, verbose_name='name'),
        ),
        AlterFieldText(
            model_name='squad',
            name='club',
            field=models.ForeignKey(help_text='The club whose squad list (moederlijst) this is.', on_delete=django.db.models.deletion.PROTECT, related_name='squads', to='tournaments.club', verbose_name='club'),
        ),
        AlterFieldText(
            model_name='squad',
            name='locked_on',
            field=models.DateField(blank=True, help_text='From this date on no player is added or removed. Empty: never locked.', null=True, verbose_name='locked on'),
        ),
        AlterFieldText(
            model_name='squad',
            name='season',
            field=models.CharField(help_text='As the competitions write it, e.g. 2026-2027: one squad a club a season.', max_length=20, verbose_name='season'),
        ),
        AlterFieldText(
            model_name='squadmember',
            name='player',
            field=models.ForeignKey(help_text="A player may be on one club's squad a season.", on_delete=django.db.models.deletion.PROTECT, related_name='squad_places', to='tournaments.player', verbose_name='player'),
        ),
        AlterFieldText(
            model_name='squadmember',
            name='season',
            field=models.CharField(help_text="The squad's season, copied from the squad.", max_length=20, verbose_name='season'),
        ),
        AlterFieldText(
            model_name='squadmember',
            name='squad',
            field=models.ForeignKey(help_text="The club's squad for a season.", on_delete=django.db.models.deletion.PROTECT, related_name='members', to='tournaments.squad', verbose_name='squad'),
        ),
        AlterFieldText(
            model_name='team',
            name='key',
            field=models.SlugField(help_text="A short code that never changes: import files and the director's pages find the koppel by it. Letters, digits, - and _.", max_length=64, unique=True, validators=[troefclub.validators.validate_key_start], verbose_name='key'),
        ),
        AlterFieldText(
            model_name='team',
            name='name',
            field=troefclub.fields.NameField(blank=True, help_text="Optional; empty: the koppel is shown as its two players' names.", max_length=120, verbose_name='name'),
        ),
        AlterFieldText(
            model_name='team',
            name='player_1',
            field=models.ForeignKey(help_text='One of the two partners; they sit opposite each other.', on_delete=django.db.models.deletion.PROTECT, related_name='+', to='tournaments.player', verbose_name='player 1'),
        ),
        AlterFieldText(
            model_name='team',
            name='player_2',
            field=models.ForeignKey(help_text='The other partner (a different player).', on_delete=django.db.models.deletion.PROTECT, related_name='+', to='tournaments.player', verbose_name='player 2'),
        ),
    ]
