"""`manage.py ratings [--rebuild]`: bring the player ratings up to date, or rebuild them."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rankings.services import ratings_rebuild, ratings_refresh


class Command(BaseCommand):
    help = "Update the player ratings from the finished games (or rebuild them from scratch)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--rebuild",
            action="store_true",
            help="rate every game again from scratch instead of only what changed",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["rebuild"]:
            count = ratings_rebuild()
            message = ngettext(
                "Ratings rebuilt: %(count)d game rated.",
                "Ratings rebuilt: %(count)d games rated.",
                count,
            )
        elif count := ratings_refresh():
            message = ngettext(
                "Ratings updated: %(count)d game rated.",
                "Ratings updated: %(count)d games rated.",
                count,
            )
        else:
            message = _("Ratings are up to date: no game to rate.")
        self.stdout.write(message % {"count": count})
