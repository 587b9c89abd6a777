"""The reader cache's owed bumps (troefclub.models.ReaderCacheBumpOwed, issue 23)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('troefclub', '0001_fold'),
    ]

    operations = [
        migrations.CreateModel(
            name='ReaderCacheBumpOwed',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('scope', models.CharField(max_length=100, unique=True, verbose_name='scope')),
                ('owed_at', models.DateTimeField(verbose_name='owed since')),
            ],
            options={
                'verbose_name': 'reader cache bump owed',
                'verbose_name_plural': 'reader cache bumps owed',
                'ordering': ['owed_at'],
            },
        ),
    ]
