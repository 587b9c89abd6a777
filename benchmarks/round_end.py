"""A game-ending round, in process (issue 20): the request that records the round which
ends a game at league size, through the director's score sheet and through the table
link, with a broker set as production runs (the refresh tasks it owes are sent to Redis
after the commit, never run in the request).

    DATABASE_URL=postgres://…/NAME CELERY_BROKER_URL=redis://127.0.0.1:6379/N \\
        .venv/bin/python -m benchmarks.round_end [--koppels 1000] [--repeat 10] \\
        [--profile FILE] [--json FILE]

It works in the load benchmark's database (`<NAME>_load_bench`, `benchmarks.load`: made,
marked and imported on the first run of either, refused when someone else's) and on its
broker rules (an empty Redis database, the benchmark's key prefix and queues only; no
worker runs here, so what it queues is deleted at the end). Each repeat takes two new
open games of a matchday of their own (the load benchmark's, made anew), plays each to
its 18th round through `round_record` (untimed), then posts its 19th round (a round that
leaves the game open: what most rounds cost) and its 20th, which ends the game, through
the door: the sheet's `#round-form` as htmx posts it (a director logged in), or the
phone's queued round to `/t/<token>/round/` (its idempotency key, the `seen` token and
`html=1`, as static/js/table_queue.js sends it). Each request goes through Django's test
client (no network: server time, every middleware) and is timed with its queries
counted (`connection.execute_wrapper`), and with the CPU this process spent on it
(`time.process_time`: the request's Python, not PostgreSQL's; on a shared machine the
wall time moves with the other work, the CPU time much less).

Before each timed round the refresh claims are let go (`queued_at` NULL: no task queued,
as when the workers are idle), so the round that ends a game pays the whole enqueue: the
claims and the messages sent to the broker; a round in the middle of a busy evening
often finds a refresh queued already and pays less. They are let go again at the end, so
the load benchmark's next run starts with no claim its workers would never clear.

`--profile FILE` writes a cProfile of the game-ending requests (both doors) to FILE and
prints its top functions by cumulative time to standard error.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_JSON = ROOT / "benchmarks" / "output" / "round_end.json"
DOORS = ("sheet", "table")
# The round numbers timed: the one before the end (the game stays open) and the end.
MID, END = 19, 20


def _say(message: str) -> None:
    print(f"[round_end {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def _claims_released() -> None:
    """No refresh queued: every claim row let go (as after the workers took them)."""
    from rankings.models import RatingsLock, SeasonRankingState
    from tournaments.models import StandingsRefreshClaim

    StandingsRefreshClaim.objects.exclude(queued_at=None).update(queued_at=None)
    RatingsLock.objects.exclude(queued_at=None).update(queued_at=None)
    SeasonRankingState.objects.exclude(queued_at=None).update(queued_at=None)


class Door:
    """One door's client on one game: `post(round)` sends the next round as the page's
    script or form does and returns the response."""

    def __init__(self, kind: str, scorer: Any) -> None:
        from django.conf import settings
        from django.test import Client

        self.kind = kind
        self.scorer = scorer
        self.client = Client(enforce_csrf_checks=True)
        if kind == "sheet":
            self.client.cookies[scorer.cookie[0]] = scorer.cookie[1]
            self.url = scorer.sheet_url
        else:
            from scoring.services.table import game_links_ensure

            link = game_links_ensure(game_ids=[scorer.game_id])[scorer.game_id]["a"]
            self.url = f"/t/{link.token}/"
        self.page = self.client.get(self.url)
        assert self.page.status_code == 200, (self.url, self.page.status_code)
        self.csrf = self.client.cookies[settings.CSRF_COOKIE_NAME].value

    def post(self, rnd: dict[str, str]) -> Any:
        from benchmarks.load_run import round_form, table_round_body

        html = self.page.content.decode()
        if self.kind == "sheet":
            form = round_form(html)
            data = {**form.fields, "result": rnd["result"], "side": rnd["side"]}
            return self.client.post(
                str(form.action),
                data,
                headers={"HX-Request": "true", "HX-Target": "sheet", "X-CSRFToken": self.csrf},
            )
        return self.client.post(
            self.url + "round/",
            table_round_body(html, rnd),
            headers={"X-CSRFToken": self.csrf, "Accept": "application/json"},
        )

    def reload(self) -> None:
        self.page = self.client.get(self.url)


def measure(
    scorers: list[Any], profiler: cProfile.Profile | None, statements: dict[str, list[str]]
) -> dict[str, Any]:
    """Play each scorer's game to round 18, then time rounds 19 and 20 through its door
    (alternating sheet, table). Returns {door: {"mid"/"end": {"ms": [...], "queries": [...]}}}."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from benchmarks.measures import counting
    from scoring.services.rounds import round_record

    out: dict[str, Any] = {
        door: {which: {"ms": [], "cpu_ms": [], "queries": []} for which in ("mid", "end")}
        for door in DOORS
    }
    for index, scorer in enumerate(scorers):
        door = Door(DOORS[index % 2], scorer)
        for number, rnd in enumerate(scorer.rounds[: MID - 1], start=1):
            round_record(
                game_id=scorer.game_id,
                expected_number=number,
                result=rnd["result"],
                side=rnd["side"],
            )
        door.reload()
        for which, number in (("mid", MID), ("end", END)):
            _claims_released()
            profiling = profiler is not None and which == "end"
            with CaptureQueriesContext(connection) as captured, counting() as counter:
                if profiling:
                    assert profiler is not None
                    profiler.enable()
                started, cpu = time.perf_counter(), time.process_time()
                response = door.post(scorer.rounds[number - 1])
                seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
                if profiling:
                    assert profiler is not None
                    profiler.disable()
            if response.status_code != 200:
                raise RuntimeError(
                    f"{door.kind} round {number} of game {scorer.game_id}: "
                    f"{response.status_code} {response.content[:300]!r}"
                )
            if door.kind == "table":
                # The answer's partial is the page the next round is built on.
                answer = json.loads(response.content)
                door.page = type(door.page)(answer["html"].encode())  # an HttpResponse
            else:
                door.page = response
            if which == "end":  # the last game-ending request's statements, by door
                statements[door.kind] = [
                    f"{float(q['time']) * 1000:6.1f} ms  {q['sql']}"
                    for q in captured.captured_queries
                ]
            out[door.kind][which]["ms"].append(seconds * 1000)
            out[door.kind][which]["cpu_ms"].append(cpu * 1000)
            out[door.kind][which]["queries"].append(counter.count)
    return out


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.round_end", description=(__doc__ or "").splitlines()[0]
    )
    parser.add_argument("--koppels", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=10, help="games per door")
    parser.add_argument("--seed", type=int, default=2027)
    parser.add_argument("--profile", type=Path, default=None)
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON)
    parser.add_argument(
        "--eager",
        action="store_true",
        help="run the refresh tasks in the request (Celery eager, the embedded default "
        "without a broker) instead of sending them to the broker: to compare",
    )
    parser.add_argument(
        "--queries",
        type=Path,
        default=None,
        help="write the statements of the last game-ending request of each door to FILE",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = _parse(argv)
    from benchmarks import load
    from benchmarks.throwaway import broker_clear, database_ensure

    load_url, name, broker = load.preflight(os.environ)  # refuses before anything is written
    database_ensure(os.environ["DATABASE_URL"], name)
    os.environ.update(
        {
            "DATABASE_URL": load_url,
            "DJANGO_SETTINGS_MODULE": load.SETTINGS,
            "DEBUG": "false",
            "ALLOWED_HOSTS": "testserver,127.0.0.1,localhost",
        }
    )
    os.environ.setdefault("SECRET_KEY", "round-end-" + os.urandom(16).hex())
    import django

    django.setup()
    from troefclub.celery import eager_set

    eager_set(always=True)  # the setup's own refreshes run inline
    _say(f"preparing {name}: {args.koppels} koppels, {2 * args.repeat} open games")
    _competition_id, scorers = load.prepare(
        koppels=args.koppels, scorers=2 * args.repeat, rounds=END, seed=args.seed
    )
    # From here on, tasks go to the broker (or, with --eager, run in the request).
    eager_set(always=args.eager)
    broker_clear(broker)
    profiler = cProfile.Profile() if args.profile else None
    statements: dict[str, list[str]] = {}
    try:
        figures = measure(scorers, profiler, statements)
    finally:
        _claims_released()
        broker_clear(broker)
    report = {
        "koppels": args.koppels,
        "repeat": args.repeat,
        "eager": args.eager,
        "doors": {
            door: {
                which: {
                    "median_ms": statistics.median(f["ms"]),
                    "min_ms": min(f["ms"]),
                    "max_ms": max(f["ms"]),
                    "cpu_median_ms": statistics.median(f["cpu_ms"]),
                    "queries": max(f["queries"]),
                    "ms": f["ms"],
                }
                for which, f in figures[door].items()
            }
            for door in DOORS
        },
    }
    lines = [
        "| door | round | median | min | max | CPU (median) | queries |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for door in DOORS:
        for which, label in (("mid", f"{MID} (game goes on)"), ("end", f"{END} (ends the game)")):
            f = report["doors"][door][which]
            lines.append(
                f"| {door} | {label} | {f['median_ms']:.1f} ms | {f['min_ms']:.1f} ms "
                f"| {f['max_ms']:.1f} ms | {f['cpu_median_ms']:.1f} ms | {f['queries']} |"
            )
    print("\n".join(lines))
    if profiler is not None:
        profiler.dump_stats(str(args.profile))
        pstats.Stats(str(args.profile), stream=sys.stderr).sort_stats("cumulative").print_stats(40)
    if args.queries is not None:
        args.queries.write_text(
            "".join(f"== {door}\n" + "\n".join(lines) + "\n" for door, lines in statements.items()),
            encoding="utf-8",
        )
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
