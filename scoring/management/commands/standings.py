"""`manage.py standings SLUG --format table|csv|json [--refresh]`: the stored standings."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.selectors.standings import competition_standings, competition_standings_as_of
from scoring.services.standings import standings_rebuild
from tournaments.models import Competition

# DESIGN.md's standings columns, exactly: the JSON's keys are a published format. Each is a
# `Standing` field (entry: its key); Buchholz, head-to-head, byes and deductions are not in
# it, and a new tie-break's column joins it only if DESIGN.md says so.
COLUMNS = (
    "rank", "entry", "played", "won", "drawn", "lost", "points", "points_for",
    "points_against", "saldo", "kaps", "baunies",
)  # fmt: skip


class Command(BaseCommand):
    help = "Print a competition's stored standings (DESIGN.md columns)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--format", choices=("table", "csv", "json"), default="table")
        parser.add_argument(
            "--refresh", action="store_true", help="rebuild the standings before printing"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            competition = Competition.objects.get(slug=options["slug"])
        except Competition.DoesNotExist:
            raise CommandError(
                _("No competition with slug “%(slug)s”.") % {"slug": options["slug"]}
            ) from None
        if options["refresh"]:
            standings_rebuild(competition_id=competition.pk)
            competition.refresh_from_db(fields=["standings_stale_since", "standings_computed_at"])
        standings = list(competition_standings(competition=competition))
        if competition.standings_stale_since is not None:
            # stderr: a script reading the csv/json on stdout still gets clean data.
            self.stderr.write(self._stale_note(competition))
        rows = [
            [getattr(row, column) for column in COLUMNS if column != "entry"] for row in standings
        ]
        keyed = [
            dict(zip(COLUMNS, [row[0], standing.entry.key, *row[1:]], strict=True))
            for row, standing in zip(rows, standings, strict=True)
        ]
        fmt = options["format"]
        if fmt == "json":
            self.stdout.write(json.dumps(keyed, indent=1, ensure_ascii=False))
        elif fmt == "csv":
            buffer = io.StringIO()
            writer = csv.DictWriter(buffer, fieldnames=COLUMNS, lineterminator="\n")
            writer.writeheader()
            writer.writerows(keyed)
            self.stdout.write(buffer.getvalue(), ending="")
        else:
            self.stdout.write(self._table(competition, standings, keyed))

    def _stale_note(self, competition: Competition) -> str:
        as_of = competition_standings_as_of(competition=competition)
        if as_of is None:
            when = "never computed yet"
        else:
            when = f"last computed at {timezone.localtime(as_of):%Y-%m-%d %H:%M:%S %Z}".rstrip()
        return (
            f"Standings are being updated ({when}): results saved since then are not in this "
            "table yet. Run with --refresh to rebuild them now."
        )

    def _table(self, competition: Competition, standings: list[Any], keyed: list[dict]) -> str:
        header = [column.replace("_", " ") for column in COLUMNS]
        body = [
            [
                str(value) if column != "entry" else str(standing.entry)
                for column, value in row.items()
            ]
            for row, standing in zip(keyed, standings, strict=True)
        ]
        widths = [max(len(line[i]) for line in [header, *body]) for i in range(len(COLUMNS))]
        entry_column = COLUMNS.index("entry")

        def line(cells: list[str]) -> str:
            return "  ".join(
                cell.ljust(width) if i == entry_column else cell.rjust(width)
                for i, (cell, width) in enumerate(zip(cells, widths, strict=True))
            ).rstrip()

        as_of = competition_standings_as_of(competition=competition)
        lines = [line(header), *(line(cells) for cells in body)]
        if as_of is None:
            lines.append("(no standings computed yet: run with --refresh)")
        else:
            lines.append(f"as of {timezone.localtime(as_of):%Y-%m-%d %H:%M:%S %Z}".rstrip())
        return "\n".join(lines)
