"""What a poll of the pages that follow the evening costs (issue 18), at 10 and 1,000 koppels.

    DATABASE_URL=postgres://... python -m benchmarks.live_polls [--sizes 10 1000]

Works in a database of its own beside the one DATABASE_URL names, `<NAME>_polls_bench`
(SQLite: a file in the benchmark cache folder), made, marked and migrated here when missing;
never in DATABASE_URL's own (`benchmarks.throwaway`). Celery runs eagerly. Imports the
generated competitions (benchmarks/generate.py, 15 matchdays) when they are missing, then
puts the last matchday back in play (its first game's last round undone) and, for the public
standings and matchday pages, measures with the test client (no network): the full page, a
poll when nothing changed (204) and a poll after a change (a round at that table for the
matchday page, a standings rebuild for the standings page). Prints bytes, queries and the
median server time of each.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "troefclub.settings")
os.environ.setdefault("SECRET_KEY", "live-polls")
os.environ.setdefault("ALLOWED_HOSTS", "testserver")
os.environ.setdefault("DEBUG", "true")  # static files unhashed: no collectstatic needed
# Never the configured database, never a broker (issue 19, benchmarks/throwaway.py): its own
# database beside it, `<NAME>_polls_bench`, made and marked when missing; Celery eager.
from benchmarks.throwaway import database_own  # noqa: E402

DATABASE = database_own(os.environ, "polls")
django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import reverse  # noqa: E402

from benchmarks.board_pages import poll_url  # noqa: E402
from benchmarks.generate import Size, document_path  # noqa: E402
from scoring.models import Game  # noqa: E402
from scoring.services.rounds import round_record, round_undo  # noqa: E402
from scoring.services.standings import standings_rebuild  # noqa: E402
from scoring.tokens import game_token_now  # noqa: E402
from tournaments.models import Competition  # noqa: E402

HTMX = {"HX-Request": "true"}
REPEAT = 7


def _in_play(competition: Competition) -> Game:
    """The last matchday's first game, open again: its last round undone."""
    matchday = competition.matchdays.order_by("-number").first()
    assert matchday is not None
    game = Game.objects.filter(match__matchday=matchday).order_by("match__table").first()
    assert game is not None
    if game.status != Game.Status.OPEN:
        last = game.rounds.order_by("-number").first()
        assert last is not None
        round_undo(game_id=game.pk, round_id=last.pk, seen=game_token_now(game_id=game.pk))
    standings_rebuild(competition_id=competition.pk)
    return game


def _measure(client: Client, url: str, headers: dict[str, str]) -> tuple[int, int, int, float]:
    """(status, bytes, queries, median seconds) of GET `url`, asked `REPEAT` times."""
    seconds, size, queries, status = [], 0, 0, 0
    for _ in range(REPEAT):
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            response = client.get(url, headers=headers)
            seconds.append(time.perf_counter() - started)
        status, size, queries = response.status_code, len(response.content), len(captured)
    return status, size, queries, statistics.median(seconds)


def _changed(client: Client, url: str, change: Callable[[], None]) -> tuple[int, int, int, float]:
    """Like `_measure`, each request after `change()` (so each is a changed poll)."""
    seconds, size, queries, status = [], 0, 0, 0
    for _ in range(REPEAT):
        change()
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            response = client.get(url, headers=HTMX)
            seconds.append(time.perf_counter() - started)
        status, size, queries = response.status_code, len(response.content), len(captured)
    return status, size, queries, statistics.median(seconds)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.live_polls")
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 1000])
    args = parser.parse_args(argv)
    call_command("migrate", verbosity=0)
    rows = []
    for koppels in args.sizes:
        size = Size(koppels=koppels)
        if not Competition.objects.filter(slug=size.slug).exists():
            print(f"importing {size.label} (generated once, cached)", file=sys.stderr)
            call_command("import_competition", str(document_path(size)), verbosity=0)
        competition = Competition.objects.get(slug=size.slug)
        game = _in_play(competition)
        client = Client()
        slug, number = competition.slug, game.match.matchday.number
        standings = reverse("competition_detail", kwargs={"slug": slug})
        matchday = reverse("matchday_detail", kwargs={"slug": slug, "number": number})

        added: list[int] = []

        def a_round(game: Game = game, added: list[int] = added) -> None:
            # A round that scores, then its undo, in turn: each changes the match's points
            # (a redeal changes none, and the page rightly answered 204 to it), and the game
            # never reaches its end however many times this runs.
            if added:
                seen = game_token_now(game_id=game.pk)
                round_undo(game_id=game.pk, round_id=added.pop(), seen=seen)
                return
            count = game.rounds.count()
            rnd = round_record(
                game_id=game.pk, expected_number=count + 1, result="gewone_winst", side="a"
            )
            added.append(rnd.pk)

        def a_rebuild(competition: Competition = competition) -> None:
            standings_rebuild(competition_id=competition.pk)

        for page, url, element, change in (
            ("standings", standings, "standings", a_rebuild),
            ("matchday", matchday, "matches", a_round),
        ):
            full = client.get(url)
            poll = poll_url(full.content.decode(), element)
            rows.append((koppels, page, "full page", *_measure(client, url, {})))
            rows.append((koppels, page, "poll, unchanged", *_measure(client, poll, HTMX)))
            rows.append((koppels, page, "poll, changed", *_changed(client, poll, change)))
    print("| koppels | page | request | status | bytes | queries | median ms |")
    print("| ---: | --- | --- | ---: | ---: | ---: | ---: |")
    for koppels, page, what, status, size_bytes, queries, seconds in rows:
        print(
            f"| {koppels:,} | {page} | {what} | {status} | {size_bytes:,} | {queries} "
            f"| {seconds * 1000:.1f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
