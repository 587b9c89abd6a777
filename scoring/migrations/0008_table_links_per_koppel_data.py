"""One way in per koppel (issue 18), 2 of 3: a table link per koppel instead of one link for
both with the entering koppel on it.

Existing links keep their tokens (printed sheets still work): each becomes the link of the
koppel that entered with it (koppel A when nobody did yet), and the other koppel of every
game with an active link gets a link of its own.
"""

import secrets

from django.db import migrations


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
        ("scoring", "0007_table_links_per_koppel"),
    ]

    operations = [
        migrations.RunPython(links_per_koppel, links_per_game),
    ]
