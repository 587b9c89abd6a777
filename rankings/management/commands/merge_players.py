"""`manage.py merge_players KEEP DROP`: merge player DROP into KEEP (issue 22,
`rankings.merge.player_merge`), the admin action's service."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from rankings.merge import PlayerMergeRefused, player_merge
from tournaments.models import Player


class Command(BaseCommand):
    help = "Merge the player keyed DROP into the player keyed KEEP (the same person twice)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("keep", help="key of the player who stays")
        parser.add_argument("drop", help="key of the player merged into it")

    def handle(self, *args: Any, **options: Any) -> None:
        found = dict(
            Player.objects.filter(key__in=[options["keep"], options["drop"]]).values_list(
                "key", "pk"
            )
        )
        for key in (options["keep"], options["drop"]):
            if key not in found:
                raise CommandError(_("No player has the key “%(key)s”.") % {"key": key})
        try:
            moved = player_merge(keep_id=found[options["keep"]], drop_id=found[options["drop"]])
        except PlayerMergeRefused as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(
            _("%(drop)s is merged into %(keep)s: %(seats)d seats, %(koppels)d koppels moved.")
            % {
                "drop": options["drop"],
                "keep": options["keep"],
                "seats": moved.seats,
                "koppels": moved.koppels + moved.koppels_merged,
            }
        )
