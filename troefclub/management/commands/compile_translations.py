"""`manage.py compile_translations`: compile the `.po` catalogues without GNU gettext."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from troefclub.i18n import catalogues_compile


class Command(BaseCommand):
    help = "Compile locale/*/LC_MESSAGES/django.po into .mo files (Babel; no msgfmt needed)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--force", action="store_true", help="Compile even if up to date.")

    def handle(self, *args: Any, **options: Any) -> None:
        written = catalogues_compile(force=options["force"])
        for path in written:
            self.stdout.write(f"compiled {path}")  # before the catalogue exists: plain English
