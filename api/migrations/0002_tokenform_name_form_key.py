"""A token's name is a NameField (stored without bidi controls, as a player's name), and
a token keeps the one-time key of the form that made it (`form_key`: that form sent again
makes no second token). No rows to clean: the api app is new in this issue (0001)."""

from django.db import migrations, models

import troefclub.fields


class Migration(migrations.Migration):

    dependencies = [
        ('api', '0001_initial'),
    ]

    operations = [
        migrations.AddField(
            model_name='apitoken',
            name='form_key',
            field=models.UUIDField(blank=True, editable=False, null=True, unique=True, verbose_name='made by form'),
        ),
        migrations.AlterField(
            model_name='apitoken',
            name='name',
            field=troefclub.fields.NameField(help_text='What the token is for, e.g. “federation website”.', max_length=100, verbose_name='name'),
        ),
    ]
