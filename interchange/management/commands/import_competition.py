"""`manage.py import_competition FILE [--replace [--yes] [--backup-dir DIR] | --skip-existing]`.

Reads a troefclub-competition/1 file. All or nothing: a file that breaks a rule exits with
status 1, names the place and the rule, and saves nothing. The format, with the
competition-format keys (byes, forfeits, deductions, club matches, squads), is in
docs/interchange.md.

A competition whose slug exists already is refused, unless:

- `--skip-existing`: it is left as it is and the command succeeds (what `dev.py run` does,
  so a second run keeps the results entered meanwhile);
- `--replace`: it is replaced, after the user typed its slug on a terminal to confirm
  (without a terminal, `--yes` confirms instead), and after an export of it
  (`export_competition`'s format) was written to `backups/<slug>-<timestamp>.json` under the
  project root or to `--backup-dir`. When the backup can't be written nothing changes. A
  file that holds what the competition holds already is left as it is
  (`competition_import`): nothing written, no history.

A long import says how far it is on standard error, a line at most every few seconds
("matchday 3/15, 1,500/7,500 games checked", "writing 90,856 rounds"); a small file prints
only its result.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import IO, Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from interchange.errors import InterchangeError
from interchange.exporter import competition_export
from interchange.importer import competition_counts, competition_import
from interchange.values import document_parse
from scoring.models import Game
from tournaments.models import Competition, Match


def _stdin_bytes() -> bytes:
    """Standard input as bytes, so that `document_parse` decodes it like a file."""
    buffer = getattr(sys.stdin, "buffer", None)  # a text stream without bytes (tests)
    if buffer is not None:
        return bytes(buffer.read())
    return sys.stdin.read().encode("utf-8", errors="surrogatepass")


def _document_slug(data: Any) -> str | None:
    """The competition slug a parsed document names, if it has that shape (the import
    itself reports every shape that is wrong)."""
    competition = data.get("competition") if isinstance(data, dict) else None
    slug = competition.get("slug") if isinstance(competition, dict) else None
    return slug if isinstance(slug, str) else None


def _results_held(competition: Competition) -> str:
    """What replacing `competition` would delete, in words: "12 played games, 184 rounds"."""
    games = Game.objects.filter(match__matchday__competition=competition)
    played = games.filter(Q(rounds__isnull=False) | Q(total_a__isnull=False)).distinct().count()
    rounds = competition_counts(competition=competition)["rounds"]
    matches = Match.objects.filter(matchday__competition=competition)
    reported = matches.filter(Q(total_home__isnull=False) | ~Q(forfeit="")).count()
    held = _("%(played)s played games, %(rounds)s rounds") % {"played": played, "rounds": rounds}
    if reported:
        held += _(", %(reported)s match results reported as totals or forfeits") % {
            "reported": reported
        }
    return held


def _backup_write(competition: Competition, directory: Path) -> Path:
    """Write `competition` as a troefclub-competition/1 file (as export_competition does)
    to a new file `<slug>-<timestamp>.json` in `directory`; its path.

    Never overwrites a file; the text is on disk (fsync) before this returns, since the
    competition is deleted next. Raises OSError; a half-written file is removed.
    """
    text = json.dumps(competition_export(competition=competition), indent=1, ensure_ascii=False)
    directory.mkdir(parents=True, exist_ok=True)
    stamp = timezone.localtime().strftime("%Y%m%d-%H%M%S")
    for attempt in range(1, 100):
        path = directory / f"{competition.slug}-{stamp}{'' if attempt == 1 else f'-{attempt}'}.json"
        try:
            out = path.open("x", encoding="utf-8")
        except FileExistsError:
            continue
        try:
            with out:
                out.write(text + "\n")
                out.flush()
                os.fsync(out.fileno())
        except OSError:
            path.unlink(missing_ok=True)
            raise
        return path
    raise FileExistsError(f"{directory}: 99 backups of {competition.slug} in one second")


class Command(BaseCommand):
    help = "Import a competition from a troefclub-competition/1 JSON file (all or nothing)."
    # call_command(..., stdin=...) stands in for the terminal that answers the question.
    stealth_options = ("stdin",)

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the JSON file; - reads standard input")
        existing = parser.add_mutually_exclusive_group()
        existing.add_argument(
            "--replace",
            action="store_true",
            help="replace the competition with the same slug: its results are deleted, after "
            "you type its slug to confirm and an export of it is written to a backup file",
        )
        existing.add_argument(
            "--skip-existing",
            action="store_true",
            help="leave a competition with the same slug as it is (and succeed)",
        )
        parser.add_argument(
            "--yes",
            action="store_true",
            help="with --replace: replace without asking (the backup is still written)",
        )
        parser.add_argument(
            "--backup-dir",
            type=Path,
            help="with --replace: where the backup goes (default: backups/ in the project)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        name = options["file"]
        try:
            raw = _stdin_bytes() if name == "-" else Path(name).read_bytes()
        except OSError as exc:
            raise CommandError(
                _("%(name)s: cannot read the file (%(error)s)") % {"name": name, "error": exc}
            ) from None
        try:
            data = document_parse(raw=raw)
            slug = _document_slug(data)
            old = Competition.objects.filter(slug=slug).first() if slug else None
            if old is not None and options["skip_existing"]:
                self.stdout.write(
                    _("Skipped %(slug)s: a competition with this slug exists already.")
                    % {"slug": slug}
                )
                return
            if old is not None and options["replace"]:
                self._confirm(old, options, file_on_stdin=name == "-")
                competition = self._replace(old, data, options)
            else:
                competition = competition_import(
                    data=data, replace=options["replace"], progress=self._progress
                )
        except InterchangeError as exc:
            raise CommandError(
                _("%(name)s: %(error)s\nNothing was imported.") % {"name": name, "error": exc}
            ) from None
        if old is not None and competition.pk == old.pk:
            # A replacement holding what the competition holds: left as it is (issue 19).
            self.stdout.write(
                _("Left %(slug)s as it is: the file holds what the competition holds.")
                % {"slug": competition.slug}
            )
            return
        counts = competition_counts(competition=competition)
        extra = ""
        if counts["byes"] or counts["deductions"]:
            extra = _("; %(byes)s byes, %(deductions)s deductions") % counts
        self.stdout.write(
            self.style.SUCCESS(_("Imported %(slug)s") % {"slug": competition.slug})
            + _(
                ": %(matchdays)s matchdays, %(matches)s matches, %(games)s games, "
                "%(rounds)s rounds; %(standings)s standings rows"
            )
            % counts
            + extra
            + "."
        )

    def _progress(self, message: str) -> None:
        """How far a long import is, on standard error (standard output keeps the result)."""
        self.stderr.write(message)

    def _confirm(self, old: Competition, options: dict[str, Any], *, file_on_stdin: bool) -> None:
        """Ask on the terminal to type the slug; without one, only --yes confirms.

        Raises CommandError (nothing changed) when the answer is not the slug, or when there
        is no terminal to ask and --yes was not given.
        """
        if options["yes"]:
            return
        held = _results_held(old)
        stdin: IO[str] = options.get("stdin") or sys.stdin
        values = {"slug": old.slug, "name": old.name, "held": held}
        if file_on_stdin or not (hasattr(stdin, "isatty") and stdin.isatty()):
            raise CommandError(
                _(
                    "Competition %(slug)s exists (%(held)s). Replacing it deletes them: run "
                    "this on a terminal to confirm, or add --yes. Nothing was imported."
                )
                % values
            )
        self.stdout.write(
            _(
                "Replace competition %(slug)s (%(name)s) with %(held)s? Its results are "
                "deleted (a backup is written first).\nType the slug to confirm: "
            )
            % values,
            ending="",
        )
        self.stdout.flush()
        if stdin.readline().strip() != old.slug:
            raise CommandError(_("Not confirmed: %(slug)s was left as it is.") % values)

    def _replace(self, old: Competition, data: Any, options: dict[str, Any]) -> Competition:
        """Back `old` up to a file, then import `data` in its place, in one transaction.

        Raises CommandError when the backup can't be written (nothing changed then), and
        InterchangeError from the import (nothing changed; the backup stays).
        """
        directory = options["backup_dir"] or Path(settings.BASE_DIR) / "backups"
        with transaction.atomic():
            # Lock the rows the result writes lock first (the competition for deductions, a
            # match for its totals and forfeit, a game for its rounds), in the services'
            # order: nothing can be saved between the backup and the delete, so the backup
            # holds every result that is deleted.
            for rows in (
                Competition.objects.filter(pk=old.pk),
                Match.objects.filter(matchday__competition=old),
                Game.objects.filter(match__matchday__competition=old),
            ):
                list(rows.select_for_update(of=("self",)).values_list("pk", flat=True))
            try:
                path = _backup_write(old, directory)
            except OSError as exc:
                raise CommandError(
                    _(
                        "Cannot write the backup of %(slug)s to %(directory)s (%(error)s). "
                        "Nothing was imported."
                    )
                    % {"slug": old.slug, "directory": directory, "error": exc}
                ) from None
            self.stdout.write(
                _("Wrote a backup of %(slug)s to %(path)s") % {"slug": old.slug, "path": path}
            )
            return competition_import(data=data, replace=True, progress=self._progress)
