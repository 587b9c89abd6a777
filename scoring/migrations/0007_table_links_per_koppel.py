"""One way in per koppel (issue 18), 1 of 3: the koppel of a table link (`GameLink.side`,
filled in by 0008) and the phone's idempotency key on a round (`Round.client_key`).

Three migrations, each its own transaction: PostgreSQL refuses to alter a table that has
rows written in the same transaction (pending constraint triggers).
"""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("scoring", "0006_help_texts"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="gamelink",
            name="gamelink_one_active_per_game",
        ),
        migrations.RemoveConstraint(
            model_name="gamelink",
            name="gamelink_side_valid",
        ),
        migrations.AddField(
            model_name="gamelink",
            name="side",
            field=models.CharField(
                choices=[("a", "koppel A"), ("b", "koppel B")],
                default="",
                blank=True,
                help_text="The koppel this link is for: the phone that opens it is this koppel.",
                max_length=1,
                verbose_name="koppel",
            ),
        ),
        migrations.AddField(
            model_name="historicalround",
            name="client_key",
            field=models.UUIDField(
                blank=True,
                db_index=True,
                help_text=(
                    "The key the table's phone made for this round (a retry or a replay of its "
                    "queue finds the round stored once); empty for a director or an import."
                ),
                null=True,
                verbose_name="sent as",
            ),
        ),
        migrations.AddField(
            model_name="round",
            name="client_key",
            field=models.UUIDField(
                blank=True,
                help_text=(
                    "The key the table's phone made for this round (a retry or a replay of its "
                    "queue finds the round stored once); empty for a director or an import."
                ),
                null=True,
                unique=True,
                verbose_name="sent as",
            ),
        ),
    ]
