"""Several nodes behind a load balancer at league size, a web node and a worker killed
mid-run (issue 23).

    DATABASE_URL=postgres://…/NAME CELERY_BROKER_URL=redis://127.0.0.1:6379/N \\
        .venv/bin/python -m benchmarks.multinode [--koppels 1000] [--scorers 50]
        [--rounds 20] [--pause 5] [--readers 200] [--read-every 3] [--no-reader-cache]
        [--pool N] [--sweep 10] [--kill-after 20] [--restart-after 5]
        [--web-concurrency 3] [--port-base 0] [--json FILE] [--fresh]

What runs, each node a `honcho start` of the Procfile as it is (`benchmarks.multinode_run`):
web nodes A and B (gunicorn, `--web-concurrency` workers each) behind HAProxy running
deploy/haproxy.cfg on loopback, worker node 1 (the standings and the ratings worker),
worker node 2 (a standings worker), a beat node, all on the PostgreSQL database
`<NAME>_multinode_bench` beside DATABASE_URL's (made, marked, migrated and kept between
runs, as `benchmarks.load` does; the generated competition of `--koppels` koppels imported
once) and on CELERY_BROKER_URL's Redis database, which also holds the cache (CACHE_URL);
every key there starts with `troefclub-bench:` (`benchmarks.multinode_settings`), a
database holding any other key is refused, and only those keys are deleted, before and
after the run (issue 19's rules, `benchmarks.throwaway`).

The load: `--scorers` directors and table phones (every other one) enter `--rounds`
rounds each through the balancer (`benchmarks.load`'s scorers, a round about every
`--pause` seconds), resending what the balancer answered 502/503/504 or whose connection
broke, unchanged (the phone's key, the sheet's round number); `--readers` readers poll the
public pages players refresh (standings, the matchday, the season rankings, the ratings,
the hall display) about every `--read-every` seconds. `--kill-after` seconds in, web node
A and worker node 1 are killed (SIGKILL, every process of the node) and started again
`--restart-after` seconds later.

Reported: p50/p95/max of the scorers' POSTs and GETs and of the readers' GETs, errors
(a scorer's round refused or unanswered; a reader's non-200), the requests resent, rounds
lost or doubled (each game's stored rounds against its scorer's), the standings lag (from
the last answer until the standings are fresh: `standings_stale_since` NULL and the stored
standings equal the aggregate over the games; the most behind during the run), the most
connections to the database (pg_stat_activity, every 200 ms), and the time from the kill
until each killed node serves again (a web node: /readyz answers 200 and HAProxy has it
UP; a worker: ready). `--no-reader-cache` sets READER_CACHE_SECONDS=0; `--pool N` sets
DATABASE_POOL_SIZE=N. Every process started is stopped on the way out, Ctrl-C included.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from benchmarks.load import prepare, standings_caught_up
from benchmarks.load_run import (
    Processes,
    percentile,
    sample_staleness,
    say,
    started,
)
from benchmarks.multinode_run import (
    Layout,
    NodesTally,
    Outage,
    outage_run,
    rounds_as_meant,
    run_load,
    sample_connections,
    status,
    venv_path,
)
from benchmarks.throwaway import (
    broker_check,
    broker_clear,
    database_beside,
    database_check,
    database_ensure,
    is_postgresql,
    refuse,
)

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_JSON = ROOT / "benchmarks" / "output" / "multinode.json"
SETTINGS = "benchmarks.multinode_settings"


def preflight() -> tuple[str, str, str]:
    """Before anything is written: the URL and name of the benchmark's database
    (`<NAME>_multinode_bench`) and the broker's URL. Refuses (exit status 2) without
    PostgreSQL or Redis, a broker database holding keys the benchmark didn't make, or a
    `<NAME>_multinode_bench` it didn't make (`benchmarks.throwaway`)."""
    url, broker = os.environ.get("DATABASE_URL", ""), os.environ.get("CELERY_BROKER_URL", "")
    if not is_postgresql(url):
        refuse("set DATABASE_URL to a PostgreSQL database URL (the benchmark works beside it)")
    if not broker:
        refuse("set CELERY_BROKER_URL to a Redis database for the benchmark alone")
    broker_check(broker)
    own, name = database_beside(url, "multinode")
    database_check(url, name)
    return own, name, broker


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.multinode", description=(__doc__ or "").splitlines()[0]
    )
    parser.add_argument("--koppels", type=int, default=1000)
    parser.add_argument("--scorers", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--pause", type=float, default=5.0, help="mean seconds between rounds")
    parser.add_argument("--readers", type=int, default=200)
    parser.add_argument("--read-every", type=float, default=3.0, help="mean seconds per poll")
    parser.add_argument(
        "--no-reader-cache", action="store_true", help="READER_CACHE_SECONDS=0 on the nodes"
    )
    parser.add_argument(
        "--pool", type=int, default=0, help="DATABASE_POOL_SIZE on the nodes (0: unset)"
    )
    parser.add_argument("--sweep", type=int, default=10, help="STANDINGS_SWEEP_SECONDS")
    parser.add_argument("--kill-after", type=float, default=20.0)
    parser.add_argument("--restart-after", type=float, default=5.0)
    parser.add_argument("--web-concurrency", type=int, default=3, help="gunicorn workers a node")
    parser.add_argument(
        "--port-base", type=int, default=0, help="first of 6 ports on 127.0.0.1 (0: free ones)"
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--lag-timeout", type=float, default=300)
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON)
    parser.add_argument("--fresh", action="store_true", help="drop the database first")
    return parser.parse_args(argv)


def _ports(base: int) -> Any:
    from benchmarks.load_run import free_port

    return iter(range(base, base + 6)) if base else iter(free_port, None)


def node_env(
    args: argparse.Namespace, database_url: str, broker: str, logs: Path
) -> dict[str, str]:
    """The nodes' environment: the benchmark's database, broker and cache, production's
    settings otherwise, and the options' READER_CACHE_SECONDS and DATABASE_POOL_SIZE."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": broker,
        "CACHE_URL": broker,
        "DJANGO_SETTINGS_MODULE": SETTINGS,
        "DEBUG": "false",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "HOST": "127.0.0.1",
        "WEB_CONCURRENCY": str(args.web_concurrency),
        "STANDINGS_SWEEP_SECONDS": str(args.sweep),
        "TRUSTED_PROXY_COUNT": "1",
        "BEAT_HEARTBEAT_FILE": str(logs / "beat.heartbeat"),
        "PATH": venv_path(os.environ),
        "PYTHONPATH": str(ROOT),
        "PYTHONUNBUFFERED": "1",
    }
    env.pop("DATABASE_POOL_SIZE", None)
    env.pop("READER_CACHE_SECONDS", None)
    if args.pool:
        env["DATABASE_POOL_SIZE"] = str(args.pool)
    if args.no_reader_cache:
        env["READER_CACHE_SECONDS"] = "0"
    return env


def reader_urls(competition_id: int) -> list[str]:
    """The public pages players refresh on an evening: the standings, tonight's matchday,
    the season rankings, the ratings, the hall display."""
    from django.urls import reverse

    from tournaments.models import Competition

    competition = Competition.objects.get(pk=competition_id)
    tonight = competition.matchdays.order_by("-number").first()
    urls = [
        reverse("competition_detail", kwargs={"slug": competition.slug}),
        reverse("rating_list"),
        reverse("hall_display", kwargs={"slug": competition.slug}),
    ]
    if tonight is not None:
        urls.append(
            reverse("matchday_detail", kwargs={"slug": competition.slug, "number": tonight.number})
        )
    if competition.season:
        urls.append(reverse("season_rankings", kwargs={"season": competition.season}))
    return urls


def main(argv: list[str] | None = None) -> int:
    args = _parse(argv)
    url, name, broker = preflight()  # refuses before anything is written
    database_ensure(os.environ["DATABASE_URL"], name, fresh=args.fresh)
    os.environ.setdefault("SECRET_KEY", "multinode-" + os.urandom(16).hex())
    logs = Path(tempfile.mkdtemp(prefix="troefclub-multinode-"))
    env = node_env(args, url, broker, logs)
    os.environ.update({k: env[k] for k in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE", "DEBUG",
                                           "ALLOWED_HOSTS", "CACHE_URL")})  # fmt: skip
    import logging

    import django

    django.setup()
    for quiet in ("httpx", "axes", "celery"):
        logging.getLogger(quiet).setLevel(logging.WARNING)
    from troefclub.celery import eager_set

    eager_set(always=True)  # the setup's own refreshes run here
    say(f"preparing {name}: {args.koppels} koppels, {args.scorers} open games")
    competition_id, scorers = prepare(
        koppels=args.koppels, scorers=args.scorers, rounds=args.rounds, seed=args.seed
    )
    from benchmarks.load import doors_assign

    doors_assign(scorers, "both")
    eager_set(always=False)
    pacing = random.Random(args.seed + 1)
    for scorer in scorers:
        scorer.pauses = [args.pause * pacing.uniform(0.5, 1.5) for _ in scorer.rounds]
        scorer.start = pacing.uniform(0, 2)
    urls = reader_urls(competition_id)
    broker_clear(broker)

    layout = Layout.make(env, logs, _ports(args.port_base))
    tally = NodesTally()
    outage = Outage(["web A", "worker 1"])
    done = threading.Event()
    lag: float | None = None
    ready_at_end: int | None = None
    samplers: list[threading.Thread] = []
    started_at = finished_at = 0.0
    say(f"nodes {', '.join(layout.nodes)} and haproxy on {layout.balancer.base}; logs in {logs}")
    try:
        with started(Processes()):
            try:
                layout.start()
                layout.wait_ready(seconds=300)
                base = layout.balancer.base
                ready_path = "/readyz"
                for _ in range(4 * args.web_concurrency):  # warm every worker (imports)
                    status(base + urls[0], timeout=60)
                samplers += [
                    threading.Thread(target=sample_staleness, args=(competition_id, tally, done)),
                    threading.Thread(target=sample_connections, args=(url, name, tally, done)),
                    threading.Thread(
                        target=outage_run,
                        args=(layout, outage),
                        kwargs={
                            "kill_after": args.kill_after,
                            "restart_after": args.restart_after,
                            "ready_path": ready_path,
                            "done": done,
                        },
                    ),
                ]
                for sampler in samplers:
                    sampler.daemon = True
                    sampler.start()
                say(
                    f"{args.scorers} scorers × {args.rounds} rounds, {args.readers} readers; "
                    f"kill web A and worker 1 at {args.kill_after:g} s"
                )
                started_at = time.perf_counter()
                asyncio.run(
                    run_load(
                        base, scorers, tally, readers=args.readers, reader_urls=urls,
                        read_every=args.read_every, seed=args.seed,
                    )
                )  # fmt: skip
                finished_at = tally.last_answer or time.perf_counter()
                say("waiting for the standings to catch up")
                deadline = time.perf_counter() + args.lag_timeout
                while time.perf_counter() < deadline:
                    layout.check()
                    if standings_caught_up(competition_id):
                        lag = time.perf_counter() - finished_at
                        break
                    time.sleep(0.05)
                samplers[2].join(timeout=120)
                deadline = time.perf_counter() + 60
                while status(base + ready_path) != 200 and time.perf_counter() < deadline:
                    time.sleep(0.5)
                ready_at_end = status(base + ready_path)
            finally:
                done.set()
                for sampler in samplers:
                    sampler.join(timeout=30)
                layout.stop()
    finally:
        broker_clear(broker)
    report = _report(args, tally, outage, lag, started_at, finished_at, scorers, ready_at_end)
    print(markdown(report))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    say(f"wrote {args.json}")
    return 0 if report["met"] else 1


def _ms(values: list[float]) -> dict[str, float]:
    return {
        "count": len(values),
        "p50_ms": percentile(values, 50) * 1000,
        "p95_ms": percentile(values, 95) * 1000,
        "max_ms": max(values, default=0) * 1000,
    }


def _report(
    args: argparse.Namespace,
    tally: NodesTally,
    outage: Outage,
    lag: float | None,
    started_at: float,
    finished_at: float,
    scorers: list[Any],
    ready_at_end: int | None,
) -> dict[str, Any]:
    wrong = rounds_as_meant(scorers)
    report = {
        "koppels": args.koppels,
        "scorers": args.scorers,
        "rounds_each": args.rounds,
        "pause_s": args.pause,
        "readers": args.readers,
        "read_every_s": args.read_every,
        "reader_cache": not args.no_reader_cache,
        "pool": args.pool or None,
        "sweep_s": args.sweep,
        "web_concurrency": args.web_concurrency,
        "seconds": finished_at - started_at,
        "scorer_posts": _ms(tally.posts),
        "scorer_gets": _ms(tally.gets),
        "reader_gets": _ms(tally.reads),
        "errors": len(tally.errors),
        "error_samples": tally.errors[:10],
        "resent": tally.resent,
        "reader_failures": tally.read_failures,
        "games_wrong": len(wrong),
        "games_wrong_samples": dict(list(wrong.items())[:10]),
        "standings_lag_s": lag,
        "max_stale_during_run_s": tally.max_stale,
        "max_db_connections": tally.max_connections,
        "killed": outage.names,
        "kill_at_s": outage.killed_at - started_at if outage.killed_at else None,
        "restart_after_s": args.restart_after,
        "kill_to_service_s": outage.served_after,
        "ready_at_end": ready_at_end,
        "cores": os.cpu_count(),
    }
    report["met"] = bool(
        not tally.errors
        and not wrong
        and lag is not None
        and lag <= args.sweep
        and ready_at_end == 200
        and len(outage.served_after) == len(outage.names)
    )
    return report


def markdown(r: dict[str, Any]) -> str:
    """The report as a markdown table (BENCHMARKS.md "Several nodes")."""

    def kind(label: str, d: dict[str, float]) -> str:
        return (
            f"| {label} | {d['count']} | {d['p50_ms']:.0f} ms | {d['p95_ms']:.0f} ms "
            f"| {d['max_ms']:.0f} ms |"
        )

    def seconds(value: float | None) -> str:
        return "never (timed out)" if value is None else f"{value:.1f} s"

    served = ", ".join(f"{n} {s:.1f} s" for n, s in r["kill_to_service_s"].items()) or "never"
    resent = ", ".join(f"{k} × {v}" for k, v in sorted(r["resent"].items())) or "none"
    failures = ", ".join(f"{k} × {v}" for k, v in sorted(r["reader_failures"].items())) or "none"
    return "\n".join(
        [
            f"{r['scorers']} scorers × {r['rounds_each']} rounds (about {r['pause_s']:g} s "
            f"apart), {r['readers']} readers (about {r['read_every_s']:g} s), "
            f"{r['koppels']:,} koppels; reader cache {'on' if r['reader_cache'] else 'off'}, "
            f"DATABASE_POOL_SIZE {r['pool'] or 'unset'}, {r['web_concurrency']} gunicorn "
            f"workers a web node, sweep {r['sweep_s']} s, {r['cores']} cores",
            "",
            "| requests | count | p50 | p95 | max |",
            "| --- | ---: | ---: | ---: | ---: |",
            kind("scorers' POSTs (rounds)", r["scorer_posts"]),
            kind("scorers' GETs (sheet, table page)", r["scorer_gets"]),
            kind("readers' GETs (public pages)", r["reader_gets"]),
            "",
            f"- errors: {r['errors']} {r['error_samples'][:3] if r['errors'] else ''}; "
            f"games with rounds lost or doubled: {r['games_wrong']}; resent by the scorers: "
            f"{resent}; readers' failed polls: {failures}",
            f"- standings fresh {seconds(r['standings_lag_s'])} after the last answer; most "
            f"behind during the run {seconds(r['max_stale_during_run_s'])}",
            f"- most connections to the database: {r['max_db_connections']}",
            f"- {' and '.join(r['killed'])} killed at {seconds(r['kill_at_s'])}, started "
            f"again {r['restart_after_s']:g} s later; from the kill to full service: {served}",
            f"- readiness through the balancer at the end: {r['ready_at_end']}; target met: "
            f"{'yes' if r['met'] else 'no'}",
        ]
    )


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
