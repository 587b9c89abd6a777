"""What the reader cache saves (issue 23, troefclub/reader_cache.py): an anonymous GET of the
standings, matchday and hall display pages rendered (READER_CACHE_SECONDS=0) against the
same GET answered from Redis, at 200 koppels by default.

    DATABASE_URL=postgres://... CACHE_URL=redis://127.0.0.1:6379/N \\
        python -m benchmarks.reader_cache [--sizes 200] [--repeat 15]

Works in a database of its own beside DATABASE_URL's, `<NAME>_reader_bench`
(`benchmarks.throwaway`), importing the generated competition (benchmarks/generate.py)
when missing; Celery eager. CACHE_URL is required (the reader cache is only on with a
shared cache) and its keys are prefixed `troefclub-bench` here, so nothing the site stores
is read or overwritten. Measures with the test client (no network, no gunicorn): the
median server time of each request, its queries, and the ratio rendered / from the cache.
The "after a write" row is the first GET after a bump: a render plus storing it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "troefclub.settings")
os.environ.setdefault("SECRET_KEY", "reader-cache")
os.environ.setdefault("ALLOWED_HOSTS", "testserver")
os.environ.setdefault("DEBUG", "true")  # static files unhashed: no collectstatic needed
from benchmarks.throwaway import database_own  # noqa: E402

if not os.environ.get("CACHE_URL"):
    print("CACHE_URL=redis://... is needed: the reader cache is on only with it", file=sys.stderr)
    sys.exit(2)
DATABASE = database_own(os.environ, "reader")
django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import reverse  # noqa: E402

from benchmarks.generate import Size, document_path  # noqa: E402
from tournaments.models import Competition  # noqa: E402
from troefclub.reader_cache import competition_scope, reader_cache_bump  # noqa: E402

settings.CACHES["default"]["KEY_PREFIX"] = "troefclub-bench"  # before the cache's first use
HTMX = {"HX-Request": "true"}


def _median(client: Client, url: str, headers: dict[str, str], repeat: int) -> tuple[float, int]:
    """(median seconds, queries of the last) of GET `url`, asked `repeat` times."""
    seconds, queries = [], 0
    for _ in range(repeat):
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            response = client.get(url, headers=headers)
            seconds.append(time.perf_counter() - started)
        assert response.status_code == 200, (url, response.status_code)
        queries = len(captured)
    return statistics.median(seconds), queries


def _after_bump(client: Client, url: str, competition: Competition, repeat: int) -> float:
    """Median seconds of the first GET after a bump of the competition (render + store)."""
    seconds = []
    for _ in range(repeat):
        reader_cache_bump(competition_scope(competition.pk))
        started = time.perf_counter()
        client.get(url)
        seconds.append(time.perf_counter() - started)
    return statistics.median(seconds)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.reader_cache")
    parser.add_argument("--sizes", type=int, nargs="+", default=[200])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args(argv)
    call_command("migrate", verbosity=0)
    rows: list[tuple[int, str, float, int, float, int, float]] = []
    after: list[tuple[int, float]] = []
    for koppels in args.sizes:
        size = Size(koppels=koppels)
        if not Competition.objects.filter(slug=size.slug).exists():
            print(f"importing {size.label} (generated once, cached)", file=sys.stderr)
            call_command("import_competition", str(document_path(size)), verbosity=0)
        competition = Competition.objects.get(slug=size.slug)
        last = competition.matchdays.order_by("-number").first()
        assert last is not None
        slug = competition.slug
        pages = [
            ("standings", reverse("competition_detail", kwargs={"slug": slug}), {}),
            ("standings, htmx", reverse("competition_detail", kwargs={"slug": slug}), HTMX),
            (
                "matchday",
                reverse("matchday_detail", kwargs={"slug": slug, "number": last.number}),
                {},
            ),
            ("hall display", reverse("hall_display", kwargs={"slug": slug}), {}),
        ]
        client = Client()
        for name, url, headers in pages:
            settings.READER_CACHE_SECONDS = 0
            client.get(url, headers=headers)  # warm: templates, connections
            rendered, rendered_queries = _median(client, url, headers, args.repeat)
            settings.READER_CACHE_SECONDS = 300
            client.get(url, headers=headers)  # stored
            cached, cached_queries = _median(client, url, headers, args.repeat)
            rows.append(
                (
                    koppels,
                    name,
                    rendered,
                    rendered_queries,
                    cached,
                    cached_queries,
                    rendered / cached,
                )
            )
        settings.READER_CACHE_SECONDS = 300
        after.append((koppels, _after_bump(client, pages[0][1], competition, 7)))
    print("| koppels | page | rendered ms | queries | cached ms | queries | ratio |")
    print("| ---: | --- | ---: | ---: | ---: | ---: | ---: |")
    for koppels, name, rendered, rq, cached, cq, ratio in rows:
        print(
            f"| {koppels:,} | {name} | {rendered * 1000:.1f} | {rq} | {cached * 1000:.2f} | {cq} "
            f"| {ratio:.0f}× |"
        )
    for koppels, seconds in after:
        print(
            f"| {koppels:,} | standings, first GET after a bump (render + store) "
            f"| {seconds * 1000:.1f} | | | | |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
