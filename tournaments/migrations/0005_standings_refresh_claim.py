"""Issue 7: one queued standings refresh per competition (`StandingsRefreshClaim`), and
when the standings were last computed (`Competition.standings_computed_at`, filled from
the stored rows' newest stamp)."""

import django.db.models.deletion
from django.db import migrations, models


def computed_at_from_rows(apps, schema_editor):
    Competition = apps.get_model("tournaments", "Competition")
    Standing = apps.get_model("scoring", "Standing")
    newest = Standing.objects.filter(competition=models.OuterRef("pk")).order_by("-computed_at")
    Competition.objects.update(
        standings_computed_at=models.Subquery(newest.values("computed_at")[:1])
    )


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0004_one_place_a_matchday"),
        ("scoring", "0004_game_distinct_players"),
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
        migrations.AddField(
            model_name="competition",
            name="standings_computed_at",
            field=models.DateTimeField(
                blank=True, editable=False, null=True, verbose_name="standings computed at"
            ),
        ),
        migrations.AddField(
            model_name="historicalcompetition",
            name="standings_computed_at",
            field=models.DateTimeField(
                blank=True, editable=False, null=True, verbose_name="standings computed at"
            ),
        ),
        migrations.RunPython(computed_at_from_rows, migrations.RunPython.noop, elidable=True),
    ]
