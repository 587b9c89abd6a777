"""`manage.py check_results [SLUG ...]`: list every stored result that breaks the rules.

One line per fault, `slug: place: what` (`scoring.selectors.faults.competition_result_problems`
says what is checked). Exit status 1 when anything is found, 0 with "No problems found in
N competitions." otherwise.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from scoring.selectors.faults import competition_result_problems
from tournaments.models import Competition
from troefclub.rule_messages import rule_message


class Command(BaseCommand):
    help = (
        "List stored results that break the rules: an entry twice a matchday or of another "
        "competition, a pairs match without exactly one game, a koppel at two tables in a "
        "sitting, scores that differ from their rounds, stale standings. Exit status 1 when "
        "anything is found."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "slugs", nargs="*", metavar="SLUG", help="competitions to check (default: all)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        slugs: list[str] = options["slugs"]
        competitions = Competition.objects.order_by("slug")
        if slugs:
            competitions = competitions.filter(slug__in=slugs)
            unknown = sorted(set(slugs) - {c.slug for c in competitions})
            if unknown:
                raise CommandError(
                    _("No competition with slug %(slugs)s.")
                    % {"slugs": ", ".join(f"“{slug}”" for slug in unknown)}
                )
        found = 0
        for competition in competitions:
            for problem in competition_result_problems(competition=competition):
                found += 1
                self.stdout.write(
                    f"{competition.slug}: {problem.place}: {rule_message(problem.violation)}"
                )
        count = len(competitions)
        if found:
            raise CommandError(
                _("%(found)s problems found in %(count)s competitions.")
                % {"found": found, "count": count}
            )
        self.stdout.write(_("No problems found in %(count)s competitions.") % {"count": count})
