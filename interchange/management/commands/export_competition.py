"""`manage.py export_competition SLUG [-o FILE]`: write a troefclub-competition/1 file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from interchange.exporter import competition_export
from tournaments.models import Competition


class Command(BaseCommand):
    help = "Export a competition as troefclub-competition/1 JSON (standard output by default)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("-o", "--output", help="write to this file instead")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            competition = Competition.objects.get(slug=options["slug"])
        except Competition.DoesNotExist:
            raise CommandError(
                _("No competition with slug “%(slug)s”.") % {"slug": options["slug"]}
            ) from None
        text = json.dumps(competition_export(competition=competition), indent=1, ensure_ascii=False)
        if options["output"]:
            try:
                Path(options["output"]).write_text(text + "\n", encoding="utf-8")
            except OSError as exc:
                raise CommandError(
                    _("%(path)s: cannot write (%(error)s)")
                    % {"path": options["output"], "error": exc}
                ) from None
            self.stderr.write(_("Wrote %(path)s") % {"path": options["output"]})
        else:
            self.stdout.write(text)
