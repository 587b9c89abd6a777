"""Keys and slugs refuse invisible characters (issue 19,
`troefclub.validators.validate_key_visible`: validators only, the tables do not change), and
names stored before `NameField` dropped bidi controls lose theirs (`troefclub.bidi`)."""

from django.db import migrations, models

import troefclub.validators


def names_without_bidi_controls(apps, schema_editor):
    """Names typed before NameField dropped bidi controls: stored as every new one is
    (`troefclub.bidi.name_text` as it was written then)."""
    import re
    import unicodedata

    controls = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
    for model_name in ("Club", "Player", "Team", "Competition"):
        model = apps.get_model("tournaments", model_name)
        for row in model.objects.only("pk", "name"):
            clean = unicodedata.normalize("NFC", controls.sub("", row.name))
            if clean != row.name:
                model.objects.filter(pk=row.pk).update(name=clean)


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0009_entry_player_clubs'),
    ]

    operations = [
        migrations.AlterField(
            model_name='club',
            name='key',
            field=models.SlugField(help_text="A short code that never changes, e.g. the federation's club code: import files find the club by it. Letters, digits, - and _.", max_length=64, unique=True, validators=[troefclub.validators.validate_key_start, troefclub.validators.validate_key_visible], verbose_name='key'),
        ),
        migrations.AlterField(
            model_name='competition',
            name='slug',
            field=models.SlugField(help_text="The competition's short name in its web address and in import files. Fixed once it has matchdays: printed sheets link to it.", max_length=80, unique=True, validators=[troefclub.validators.validate_key_start, troefclub.validators.validate_key_visible], verbose_name='slug'),
        ),
        migrations.AlterField(
            model_name='historicalcompetition',
            name='slug',
            field=models.SlugField(help_text="The competition's short name in its web address and in import files. Fixed once it has matchdays: printed sheets link to it.", max_length=80, validators=[troefclub.validators.validate_key_start, troefclub.validators.validate_key_visible], verbose_name='slug'),
        ),
        migrations.AlterField(
            model_name='player',
            name='key',
            field=models.SlugField(help_text='A short code that never changes, e.g. the licence number: import files find the player by it. Letters, digits, - and _.', max_length=64, unique=True, validators=[troefclub.validators.validate_key_start, troefclub.validators.validate_key_visible], verbose_name='key'),
        ),
        migrations.AlterField(
            model_name='team',
            name='key',
            field=models.SlugField(help_text="A short code that never changes: import files and the director's pages find the koppel by it. Letters, digits, - and _.", max_length=64, unique=True, validators=[troefclub.validators.validate_key_start, troefclub.validators.validate_key_visible], verbose_name='key'),
        ),
        migrations.RunPython(names_without_bidi_controls, migrations.RunPython.noop),
    ]
