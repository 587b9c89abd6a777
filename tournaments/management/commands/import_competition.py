"""`manage.py import_competition FILE [--replace]`: read a troefclub-competition/1 file.

All or nothing: a file that breaks a rule exits with status 1, names the place and the rule,
and saves nothing. The format, with the competition-format keys (byes, forfeits, deductions,
club matches, squads), is in docs/interchange.md.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.interchange import InterchangeError, competition_counts, competition_import


class Command(BaseCommand):
    help = "Import a competition from a troefclub-competition/1 JSON file (all or nothing)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the JSON file; - reads standard input")
        parser.add_argument(
            "--replace",
            action="store_true",
            help="replace the competition with the same slug (its results are deleted)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        name = options["file"]
        try:
            text = sys.stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"{name}: cannot read the file ({exc})") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise CommandError(
                f"{name}: not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
            ) from None
        try:
            competition = competition_import(data=data, replace=options["replace"])
        except InterchangeError as exc:
            raise CommandError(f"{name}: {exc}\nNothing was imported.") from None
        counts = competition_counts(competition=competition)
        extra = ""
        if counts["byes"] or counts["deductions"]:
            extra = "; {byes} byes, {deductions} deductions".format(**counts)
        self.stdout.write(
            self.style.SUCCESS(f"Imported {competition.slug}")
            + ": {matchdays} matchdays, {matches} matches, {games} games, {rounds} rounds; "
            "{standings} standings rows".format(**counts)
            + extra
            + "."
        )
