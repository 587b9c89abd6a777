"""`manage.py ensure_demo_director [--force]`: the demo login `director` / `director`.

Made once: the first run creates a staff user (not a superuser) with the permissions of
the tournaments and scoring apps but the league's own two (`LEAGUE_PERMISSIONS`: directing
every competition, assigning directors), director of every competition there is. A
director, then, not a league admin (README "Who may do what"). Later runs
(`dev.py run` calls it at every start) leave an existing `director` exactly as it is: its
password, its rights and the competitions it directs, so what a league admin took away
stays away (issue 18). Refused when DEBUG is off unless `--force`: it is a demo account
with a known password.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.models import Competition

USERNAME = PASSWORD = "director"

# A league admin's, not a director's: with them the account would direct every
# competition whatever its directors say, and could make itself director again.
LEAGUE_PERMISSIONS = ("direct_every_competition", "assign_directors")


class Command(BaseCommand):
    help = (
        "Create the demo director login (director/director), once: an existing one is "
        "left as it is."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--force", action="store_true", help="run even when DEBUG is off (not for production)"
        )

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG and not options["force"]:
            raise CommandError(
                "DEBUG is off: refusing to create a demo account with a known password "
                "(use --force if you really mean it)."
            )
        user, created = get_user_model().objects.get_or_create(
            username=USERNAME, defaults={"is_staff": True}
        )
        if created:
            user.set_password(PASSWORD)
            user.save()
            user.user_permissions.add(
                *Permission.objects.filter(
                    content_type__app_label__in=("tournaments", "scoring")
                ).exclude(codename__in=LEAGUE_PERMISSIONS)
            )
            # From the competition's side: the directors' history (simple-history) is kept
            # there.
            for competition in Competition.objects.all():
                competition.directors.add(user)
        values = {
            "user": USERNAME,
            "password": PASSWORD,
            "count": user.directed_competitions.count(),
        }
        self.stdout.write(
            (
                _(
                    "Created demo director: user %(user)s, password %(password)s; "
                    "directs %(count)s competitions."
                )
                if created
                else _(
                    "Demo director %(user)s exists already: left as it is (its password, "
                    "its rights; directs %(count)s competitions)."
                )
            )
            % values
        )
