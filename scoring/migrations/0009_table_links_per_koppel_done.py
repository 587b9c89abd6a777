"""One way in per koppel (issue 18), 3 of 3: every link has its koppel (0008); the entering
koppel is no longer stored on a link (it follows from the links the rounds came through),
and each koppel has at most one active link.
"""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("scoring", "0008_table_links_per_koppel_data"),
    ]

    operations = [
        migrations.RemoveField(
            model_name="gamelink",
            name="entering_side",
        ),
        migrations.AlterField(
            model_name="gamelink",
            name="side",
            field=models.CharField(
                choices=[("a", "koppel A"), ("b", "koppel B")],
                help_text="The koppel this link is for: the phone that opens it is this koppel.",
                max_length=1,
                verbose_name="koppel",
            ),
        ),
        migrations.AddConstraint(
            model_name="gamelink",
            constraint=models.UniqueConstraint(
                condition=models.Q(("revoked_at__isnull", True)),
                fields=("game", "side"),
                name="gamelink_one_active_per_koppel",
                violation_error_message=(
                    "This koppel has a link to this game already; revoke it first."
                ),
            ),
        ),
        migrations.AddConstraint(
            model_name="gamelink",
            constraint=models.CheckConstraint(
                condition=models.Q(("side__in", ["a", "b"])), name="gamelink_side_valid"
            ),
        ),
    ]
