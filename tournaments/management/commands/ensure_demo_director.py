"""`manage.py ensure_demo_director [--force]`: the demo login `director` / `director`.

A staff user (not a superuser) with every permission of the tournaments and scoring apps,
made a director of every competition. Idempotent: an existing `director` keeps its password.
Refused when DEBUG is off unless `--force`: it is a demo account with a known password.
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


class Command(BaseCommand):
    help = "Create the demo director login (director/director) and let it direct everything."

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
        elif not user.is_staff:
            user.is_staff = True
            user.save(update_fields=["is_staff"])
        user.user_permissions.add(
            *Permission.objects.filter(content_type__app_label__in=("tournaments", "scoring"))
        )
        # From the competition's side: the directors' history (simple-history) is kept there.
        for competition in Competition.objects.exclude(directors=user):
            competition.directors.add(user)
        values = {
            "user": USERNAME,
            "password": PASSWORD if created else _("(unchanged)"),
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
                    "Updated demo director: user %(user)s, password %(password)s; "
                    "directs %(count)s competitions."
                )
            )
            % values
        )
