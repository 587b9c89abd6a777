"""`python -m benchmarks` (or `python3 dev.py bench`): issue 7's measures and their floors.

    .venv/bin/python -m benchmarks [--sizes 10 200 1000] [--repeat 5] [--budget 120]
        [--only import,rebuild,round,pages,api,seasons,swiss] [--json FILE] [--keep-db]

Runs in a throwaway database made for the run and dropped after it: `<NAME>_bench` next
to DATABASE_URL's database on PostgreSQL (the real figures), a file in the temp directory
on SQLite; never in DATABASE_URL's own. A `<NAME>_bench` that no benchmark made (it lacks
the mark of `benchmarks.throwaway`) is refused, exit status 2; Celery runs eagerly (no
broker: nothing reaches a worker). Prints one markdown table (BENCHMARKS.md explains every
row) and writes the figures as JSON to benchmarks/output/latest.json. Progress goes to
standard error.

The benchmarks that start processes run apart, each with its own command (BENCHMARKS.md
"Running them"): `python -m benchmarks.load` (gunicorn and Celery workers under 50
scorers), `python -m benchmarks.round_end`, and `python -m benchmarks.multinode` (the
Procfile's nodes behind HAProxy, a web node and a worker killed mid-run; issue 23).

DEBUG is off unless set (pages render as in production); a SECRET_KEY is made up for the
run when none is set (nothing is signed that outlives it).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

DEFAULT_JSON = Path(__file__).resolve().parent / "output" / "latest.json"


def _parse(argv: list[str]) -> argparse.Namespace:
    from benchmarks.harness import MEASURES

    parser = argparse.ArgumentParser(
        prog="python -m benchmarks", description=(__doc__ or "").splitlines()[0]
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 200, 1000])
    parser.add_argument("--matchdays", type=int, default=15)
    parser.add_argument("--repeat", type=int, default=5, help="runs per measure (default 5)")
    parser.add_argument(
        "--budget",
        type=float,
        default=120.0,
        help="seconds the import (and its floor) may spend on repeats before stopping "
        "early, after one run at least (default 120; 0: one run; a big number: --repeat runs)",
    )
    parser.add_argument(
        "--only",
        default=",".join(MEASURES),
        help=f"comma-separated measures (default all: {','.join(MEASURES)})",
    )
    parser.add_argument("--swiss-entries", type=int, default=1000)
    parser.add_argument("--swiss-rounds", type=int, default=7)
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON, help="where the JSON goes")
    parser.add_argument(
        "--keep-db", action="store_true", help="leave the throwaway database behind"
    )
    args = parser.parse_args(argv)
    args.only = [m.strip() for m in args.only.split(",") if m.strip()]
    unknown = sorted(set(args.only) - set(MEASURES))
    if unknown:
        parser.error(f"unknown measure(s) {', '.join(unknown)}: choose from {', '.join(MEASURES)}")
    return args


def main(argv: list[str] | None = None) -> int:
    from benchmarks.throwaway import broker_dropped

    broker_dropped(os.environ)  # eager: no task reaches a worker (production's or any)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "troefclub.settings")
    os.environ.setdefault("DEBUG", "false")
    if os.environ["DEBUG"].lower() not in ("1", "true", "yes", "on"):
        os.environ.setdefault("SECRET_KEY", "benchmarks-" + os.urandom(16).hex())
    import logging

    import django

    from troefclub.i18n import catalogues_compile

    # Pages render in Dutch as the players read them: without the compiled catalogue every
    # lookup falls through to English and the figures time a page nobody opens (issue 20).
    catalogues_compile()
    django.setup()
    # One line per eager refresh would bury the progress lines.
    logging.getLogger("celery").setLevel(logging.WARNING)
    args = _parse(sys.argv[1:] if argv is None else argv)

    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    from benchmarks.harness import bench, say, table_markdown
    from benchmarks.throwaway import database_beside, database_check, database_mark, database_url_of

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]  # the test client's host
    if not settings.DEBUG and not (Path(settings.STATIC_ROOT) / "staticfiles.json").exists():
        say("collecting the static files (the pages link them through the manifest)")
        call_command("collectstatic", interactive=False, verbosity=0)

    test = connection.settings_dict.setdefault("TEST", {})
    if connection.vendor == "sqlite":
        test["NAME"] = str(Path(tempfile.gettempdir()) / "troefclub-bench.sqlite3")
    else:
        url = database_url_of(connection.settings_dict)
        _url, test["NAME"] = database_beside(url, "")
        database_check(url, test["NAME"])  # Django would drop any database of that name
    say(f"making the throwaway database {test['NAME']}")
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    if connection.vendor != "sqlite":
        database_mark(url, test["NAME"])
    try:
        report = bench(
            sizes=args.sizes,
            matchdays=args.matchdays,
            repeat=args.repeat,
            only=args.only,
            budget=args.budget,
            swiss_entries=args.swiss_entries,
            swiss_rounds=args.swiss_rounds,
        )
    finally:
        if not args.keep_db:
            say(f"dropping {test['NAME']}")
            connection.creation.destroy_test_db(old_name, verbosity=0)
    print(table_markdown(report))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    say(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
