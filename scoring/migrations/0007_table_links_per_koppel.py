"""One way in per koppel (issue 18): a table link per koppel (`GameLink.side`) instead of one
link for both with the entering koppel on it, and the phone's idempotency key on a round
(`Round.client_key`).

Existing links keep their tokens (printed sheets still work): each becomes the link of the
koppel that entered with it (koppel A when nobody did yet), and the other koppel of every
game with an active link gets a link of its own.
"""

import secrets

from django.db import migrations, models


def links_per_koppel(apps, schema_editor):
    GameLink = apps.get_model("scoring", "GameLink")
    for link in GameLink.objects.all().only("pk", "entering_side"):
        GameLink.objects.filter(pk=link.pk).update(side=link.entering_side or "a")
    active = GameLink.objects.filter(revoked_at__isnull=True)
    GameLink.objects.bulk_create(
        [
            GameLink(game_id=link.game_id, side="b" if link.side == "a" else "a",
                     token=secrets.token_urlsafe(24))
            for link in active.only("game_id", "side")
        ]
    )


def links_per_game(apps, schema_editor):
    """Back: one active link a game again (the one a koppel entered with, else A's)."""
    GameLink = apps.get_model("scoring", "GameLink")
    Round = apps.get_model("scoring", "Round")
    entered = set(Round.objects.exclude(link=None).values_list("link_id", flat=True))
    for link in GameLink.objects.all():
        GameLink.objects.filter(pk=link.pk).update(
            entering_side=link.side if link.pk in entered else ""
        )
    active: dict[int, list] = {}
    for link in GameLink.objects.filter(revoked_at__isnull=True).order_by("side"):
        active.setdefault(link.game_id, []).append(link)
    for links in active.values():
        keep = next((link for link in links if link.pk in entered), links[0])
        GameLink.objects.filter(pk__in=[link.pk for link in links if link != keep]).delete()


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
        migrations.RunPython(links_per_koppel, links_per_game),
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
