"""Query counts of the club-evening pages (issue 8) on the sample data and at 200 koppels.

    DATABASE_URL=postgres://... python -m benchmarks.evening_queries

Works in a database of its own beside the one DATABASE_URL names, `<NAME>_evening_bench`
(SQLite: a file in the benchmark cache folder), made, marked and migrated here when missing;
never in DATABASE_URL's own (`benchmarks.throwaway`). Celery runs eagerly. Imports
`data/club-evening-sample.json` and a generated 200-koppel competition
(benchmarks/generate.py) when they are missing, then requests each new page once warm and
prints its number of queries at both sizes. The budgets the tests hold them to are in
tests/test_query_budgets.py.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "troefclub.settings")
os.environ.setdefault("SECRET_KEY", "evening-queries")
os.environ.setdefault("ALLOWED_HOSTS", "testserver")
os.environ.setdefault("DEBUG", "true")  # static files unhashed: no collectstatic needed
# Never the configured database, never a broker (issue 19, benchmarks/throwaway.py): its own
# database beside it, `<NAME>_evening_bench`, made and marked when missing; Celery eager.
from benchmarks.throwaway import database_own  # noqa: E402

DATABASE = database_own(os.environ, "evening")
django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import reverse  # noqa: E402

from benchmarks.generate import Size, document_path  # noqa: E402
from scoring.models import Game  # noqa: E402
from scoring.services.table import game_links_ensure  # noqa: E402
from tournaments.models import Competition  # noqa: E402

SAMPLE = settings.BASE_DIR / "data" / "club-evening-sample.json"
LARGE = Size(koppels=200, matchdays=3)


def _pages(competition: Competition) -> dict[str, tuple[str, dict[str, str]]]:
    matchday = competition.matchdays.order_by("number").first()
    assert matchday is not None
    game = Game.objects.filter(match__matchday=matchday).order_by("match__table", "table").first()
    assert game is not None
    token = game_links_ensure(game_ids=[game.pk])[game.pk]["a"].token
    slug, number = competition.slug, matchday.number
    htmx = {"hx-request": "true"}
    return {
        "director_home": (reverse("director_home"), {}),
        "matchday_board": (reverse("matchday_board", args=[slug, number]), {}),
        "matchday_board (poll)": (reverse("matchday_board", args=[slug, number]), htmx),
        "hall_display": (reverse("hall_display", args=[slug]), {}),
        "hall_display (poll)": (reverse("hall_display", args=[slug]), htmx),
        "game_sheet": (reverse("game_sheet", args=[slug, game.pk]), {}),
        "game_link": (reverse("game_link", args=[slug, game.pk]), {}),
        "table_sheet": (reverse("table_sheet", args=[token]), {}),
        "director_queue": (reverse("director_queue", args=[slug]), {}),
        "game_sheet_pdf": (reverse("game_sheet_pdf", args=[slug, game.pk]), {}),
        "matchday_sheets_pdf": (reverse("matchday_sheets_pdf", args=[slug, number]), {}),
        "matchday_pairings_pdf": (reverse("matchday_pairings_pdf", args=[slug, number]), {}),
        "standings_export csv": (reverse("standings_export", args=[slug, "csv"]), {}),
        "standings_export xlsx": (reverse("standings_export", args=[slug, "xlsx"]), {}),
        "results_export csv": (reverse("results_export", args=[slug, "csv"]), {}),
        "results_export xlsx": (reverse("results_export", args=[slug, "xlsx"]), {}),
    }


def _count(client: Client, url: str, extra: dict[str, str]) -> tuple[int, int]:
    client.get(url, headers=extra)  # warm: links made, caches filled
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, headers=extra)
    return response.status_code, len(queries)


def main() -> int:
    call_command("migrate", verbosity=0)
    call_command("import_competition", str(SAMPLE), "--skip-existing", verbosity=0)
    if not Competition.objects.filter(slug=LARGE.slug).exists():
        call_command("import_competition", str(document_path(LARGE)), verbosity=0)
    sample = Competition.objects.get(slug=_sample_slug())
    large = Competition.objects.get(slug=LARGE.slug)
    user, _ = get_user_model().objects.get_or_create(
        username="evening-queries", defaults={"is_staff": True, "is_superuser": True}
    )
    client = Client()
    client.force_login(user)
    rows: list[tuple[str, Any, Any]] = []
    counts: dict[str, list[tuple[int, int]]] = {}
    for competition in (sample, large):
        for name, (url, extra) in _pages(competition).items():
            counts.setdefault(name, []).append(_count(client, url, extra))
    for name, ((status_s, small), (status_l, big)) in counts.items():
        rows.append((name, f"{small} ({status_s})", f"{big} ({status_l})"))
    width = max(len(name) for name, *_ in rows)
    print(f"{'page':<{width}}  sample  200 koppels")
    for name, small_text, big_text in rows:
        print(f"{name:<{width}}  {small_text:<7} {big_text}")
    return 0


def _sample_slug() -> str:
    import json

    return str(json.loads(SAMPLE.read_text(encoding="utf-8"))["competition"]["slug"])


if __name__ == "__main__":
    sys.exit(main())
