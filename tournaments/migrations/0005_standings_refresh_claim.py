"""Issue 7: one queued standings refresh per competition (`StandingsRefreshClaim`)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0004_one_place_a_matchday"),
    ]

    operations = [
        migrations.CreateModel(
            name="StandingsRefreshClaim",
            fields=[
                (
                    "competition",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="+",
                        serialize=False,
                        to="tournaments.competition",
                        verbose_name="competition",
                    ),
                ),
                (
                    "queued_at",
                    models.DateTimeField(blank=True, null=True, verbose_name="refresh queued at"),
                ),
            ],
            options={
                "verbose_name": "queued standings refresh",
                "verbose_name_plural": "queued standings refreshes",
            },
        ),
    ]
