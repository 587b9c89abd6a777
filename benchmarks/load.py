"""Load test: N directors enter rounds at once through the real score sheet (issue 7).

    DATABASE_URL=postgres://…/NAME CELERY_BROKER_URL=redis://127.0.0.1:6379/N \\
        .venv/bin/python -m benchmarks.load [--koppels 1000] [--scorers 50] [--rounds 20]
        [--workers 5] [--concurrency 2] [--pause 5] [--fresh] [--json FILE]
        [--ratings-rebuild [--rebuild-after 20]] [--one-pool]

What runs: gunicorn (troefclub.wsgi, `--workers` sync workers) and the README's Celery
workers, one a queue (`bench-standings` with `--concurrency` processes, `bench-ratings`
with one; `--one-pool`: one worker of `--concurrency` processes for both, the layout before
issue 19), against Redis, all on a PostgreSQL database `<NAME>_load_bench` next to
DATABASE_URL's (made, marked as the benchmark's and migrated when missing, kept between
runs) holding the generated competition of `--koppels` koppels × 15 matchdays
(`benchmarks.generate`, imported once; `--fresh` drops the database first, e.g. after a
migration was changed). Each run adds a matchday
with one open game per scorer (the previous run's is deleted first), and a director
account per scorer, logged in server-side (a session made with the test client's
`force_login`: django-axes guards the login form, and the password check is not what is
measured).

Never production (issue 19, `benchmarks.throwaway`): the database DATABASE_URL names is
never opened, and a `<NAME>_load_bench` the benchmark didn't make is refused; the broker
database (CELERY_BROKER_URL) must hold no key but the benchmark's own, whose names all
start with `troefclub-bench:` and whose queues are `bench-…` (`benchmarks.load_settings`),
and only those keys are ever deleted. A refusal exits with status 2 before anything is
written.

Each scorer is an asyncio task with its own httpx client and cookies: it opens its sheet
(GET) and enters `--rounds` rounds, each a POST of the sheet's round form as htmx sends it
(every input of `#round-form` with the values the page gave, the chosen result and koppel,
the CSRF token; header `HX-Request`), reading the next round number from the answer.
Before each round a scorer waits `--pause` seconds on average (0.5× to 1.5×, seeded), and
the tables open their sheets spread over the first two pauses: a table enters a deal every
minute or so, so 5 s is ten times a real hall's pace; `--pause 0` posts flat out, all at
once, which measures what the machine saturates at rather than what a club evening sees. The
rounds are drawn (seeded) through the rules engine so that each game ends exactly at its
last round: every scorer's last round queues a refresh that matters.

Measured: latency of every request (p50, p95, max; the POSTs apart), errors (a status that
is not 200, or a round refused: 422), the peak length of each Celery queue (sampled every
20 ms), and how far the stored standings lag: the time from the last
answer until the competition owes no refresh (`standings_stale_since` is NULL) and the
stored standings count every finished game (played, won, drawn, lost, points for and
against of each entry equal one aggregate over the games) — the target; besides, the
most the standings were behind during the run (now − `standings_stale_since`, sampled
every 100 ms), when the queues were empty again after the last answer, and the ratings
tasks the workers ran (their number, the longest). Targets: p95 ≤ 100 ms,
standings ≤ 5 s behind, 0 errors. `--ratings-rebuild` adds a correction that re-rates
nearly the whole season mid-run and measures another competition's standings delay
meanwhile (`benchmarks.load_rebuild`).

Every process started here is stopped on the way out, Ctrl-C included.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from benchmarks import load_rebuild
from benchmarks.load_run import (
    DOORS,
    CpuWatch,
    Processes,
    Scorer,
    Tally,
    answers,
    free_port,
    game_ending_at,
    percentile,
    queue_lengths,
    run_scorers,
    sample_queue,
    sample_staleness,
    say,
    started,
    wait_until,
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
BIN = Path(sys.executable).parent
DEFAULT_JSON = ROOT / "benchmarks" / "output" / "load.json"
SCORER_PREFIX = "bench-scorer-"
SETTINGS = "benchmarks.load_settings"


# ---------------------------------------------------------------- never production


def preflight(environ: Mapping[str, str]) -> tuple[str, str, str]:
    """Before anything is written: the URL and name of the benchmark's own database and
    its broker URL, from DATABASE_URL and CELERY_BROKER_URL in `environ`. Refuses (exit
    status 2, `benchmarks.throwaway`) without PostgreSQL or Redis, a broker database
    holding keys the benchmark didn't make, or a `<NAME>_load_bench` it didn't make."""
    url, broker = environ.get("DATABASE_URL", ""), environ.get("CELERY_BROKER_URL", "")
    if not is_postgresql(url):
        refuse(
            "set DATABASE_URL to a PostgreSQL database URL: the benchmark works in a database "
            "of its own beside it, <NAME>_load_bench"
        )
    if not broker:
        refuse(
            "set CELERY_BROKER_URL to a Redis database for the benchmark alone (empty, never "
            "the production broker's), e.g. redis://127.0.0.1:6379/9"
        )
    broker_check(broker)
    load_url, name = database_beside(url, "load")
    database_check(url, name)
    return load_url, name, broker


def worker_commands(*, one_pool: bool, concurrency: int, tag: str) -> list[tuple[str, list[str]]]:
    """The benchmark's Celery workers, (name, arguments) each: the README's layout, one
    worker a queue (`bench-standings` with `concurrency` processes, `bench-ratings` with
    one), or with `one_pool` one worker of `concurrency` processes for both queues (the
    layout before issue 19, for comparison). Each consumes only the benchmark's queues
    (`benchmarks.load_settings`), never production's."""
    from benchmarks.load_settings import BENCH_QUEUES

    celery = [str(BIN / "celery"), "-A", "troefclub", "worker", "-l", "info"]
    standings, ratings = BENCH_QUEUES["standings"], BENCH_QUEUES["ratings"]
    pools = (
        [("celery worker", f"{standings},{ratings}", concurrency)]
        if one_pool
        else [("standings worker", standings, concurrency), ("ratings worker", ratings, 1)]
    )
    return [
        (
            name,
            [
                *celery,
                "-Q",
                queues,
                "--concurrency",
                str(processes),
                "-n",
                f"bench-{name.split()[0]}-{tag}@%h",
            ],
        )  # fmt: skip
        for name, queues, processes in pools
    ]


# ---------------------------------------------------------------- the database


def prepare(*, koppels: int, scorers: int, rounds: int, seed: int) -> tuple[int, list[Scorer]]:
    """Migrate, import the competition once, drop the previous run's matchday, add one
    with an open game and a logged-in director per scorer. Returns the competition id."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client
    from django.urls import reverse

    from benchmarks.generate import Size, document_path
    from rankings.services import ratings_refresh
    from scoring.models import Game, Round
    from scoring.services.standings import standings_rebuild
    from scoring.services.table import game_links_ensure
    from tournaments.models import Competition, Match, Matchday

    call_command("migrate", interactive=False, verbosity=0)
    if not (Path(settings.STATIC_ROOT) / "staticfiles.json").exists():
        call_command("collectstatic", interactive=False, verbosity=0)
    size = Size(koppels)
    competition = Competition.objects.filter(slug=size.slug).first()
    if competition is None:
        say(f"importing {size.slug} (once; kept in the load database)")
        call_command("import_competition", str(document_path(size)), verbosity=0)
        competition = Competition.objects.get(slug=size.slug)
    old = Matchday.objects.filter(competition=competition, number__gt=size.matchdays)
    Round.objects.filter(game__match__matchday__in=old).delete()
    Game.objects.filter(match__matchday__in=old).delete()
    Match.objects.filter(matchday__in=old).delete()
    old.delete()
    standings_rebuild(competition_id=competition.pk)
    ratings_refresh()  # up to date before the run: its tasks are the run's own work

    entries = list(competition.entries.select_related("team").order_by("pk"))
    if len(entries) < 2 * scorers:
        raise SystemExit(f"{koppels} koppels seat at most {len(entries) // 2} scorers")
    matchday = Matchday.objects.create(competition=competition, number=size.matchdays + 1)
    User = get_user_model()
    rng = random.Random(seed)
    out = []
    for n in range(scorers):
        home, away = entries[2 * n], entries[2 * n + 1]
        assert home.team is not None and away.team is not None
        match = Match.objects.create(matchday=matchday, home=home, away=away)
        game = Game.objects.create(match=match, team_a=home.team, team_b=away.team)
        user, _ = User.objects.get_or_create(username=f"{SCORER_PREFIX}{n}")
        competition.directors.add(user)
        client = Client()  # one each: a login on the same client would end the last session
        client.force_login(user)
        # Koppel A's table link: its phone enters the rounds when the scorer uses that door.
        link = game_links_ensure(game_ids=[game.pk])[game.pk]["a"]
        out.append(
            Scorer(
                game_id=game.pk,
                sheet_url=reverse("game_sheet", kwargs={"slug": size.slug, "game_id": game.pk}),
                cookie=(
                    settings.SESSION_COOKIE_NAME,
                    client.cookies[settings.SESSION_COOKIE_NAME].value,
                ),
                rounds=game_ending_at(rounds, rng),
                table_url=reverse("table_sheet", kwargs={"token": link.token}),
            )
        )
    return competition.pk, out


def doors_assign(scorers: list[Scorer], door: str) -> None:
    """Each scorer's door: `door` ("sheet" or "table") for all, or with "both" every
    other scorer through the table link (the first through the sheet)."""
    for index, scorer in enumerate(scorers):
        scorer.door = DOORS[index % 2] if door == "both" else door


def standings_caught_up(competition_id: int) -> bool:
    """The competition owes no refresh, and its stored standings count every finished game
    (`benchmarks.measures.standings_agree`: the aggregate over the games)."""
    from benchmarks.measures import standings_agree
    from tournaments.models import Competition

    stale = Competition.objects.filter(pk=competition_id).values_list(
        "standings_stale_since", flat=True
    )[0]
    return stale is None and standings_agree(competition_id)


# ---------------------------------------------------------------- the run


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.load", description=(__doc__ or "").splitlines()[0]
    )
    parser.add_argument("--koppels", type=int, default=1000)
    parser.add_argument("--scorers", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2 * (os.cpu_count() or 1) + 1)
    parser.add_argument(
        "--concurrency",
        type=int,
        default=os.cpu_count() or 1,
        help="processes of the standings worker (of the one worker with --one-pool)",
    )
    parser.add_argument(
        "--one-pool",
        action="store_true",
        help="one Celery worker for both queues (the layout before issue 19), to compare",
    )
    parser.add_argument(
        "--door",
        choices=("sheet", "table", "both"),
        default="both",
        help="how the scorers enter rounds: the director's score sheet, the table link (the "
        "phone's queued posts to /t/<token>/round/), or both, every other scorer (default)",
    )
    parser.add_argument(
        "--port", type=int, default=0, help="gunicorn's port on 127.0.0.1 (0: a free one)"
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--pause",
        type=float,
        default=5.0,
        help="mean seconds a scorer waits before each round (drawn between 0.5× and 1.5×; "
        "a real table takes a minute or more a deal); 0: flat out, the saturation run",
    )
    parser.add_argument(
        "--ratings-rebuild",
        action="store_true",
        help="correct an early game mid-run (the ratings re-rate nearly every game) and "
        "measure another competition's standings delay meanwhile",
    )
    parser.add_argument(
        "--rebuild-after",
        type=float,
        default=20.0,
        help="seconds after the scorers start that the correction is made (default 20)",
    )
    parser.add_argument("--lag-timeout", type=float, default=600)
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON)
    parser.add_argument(
        "--fresh", action="store_true", help="drop the load database first (made anew)"
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = _parse(argv)
    load_url, name, broker = preflight(os.environ)  # refuses before anything is written
    database_ensure(os.environ["DATABASE_URL"], name, fresh=args.fresh)
    env = {
        **os.environ,
        "DATABASE_URL": load_url,
        "DJANGO_SETTINGS_MODULE": SETTINGS,
        "DEBUG": "false",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "PYTHONUNBUFFERED": "1",
    }
    env.setdefault("SECRET_KEY", "load-" + os.urandom(16).hex())
    os.environ.update(
        {k: env[k] for k in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE", "DEBUG", "ALLOWED_HOSTS",
                             "SECRET_KEY")}
    )  # fmt: skip
    import logging

    import django

    django.setup()
    logging.getLogger("httpx").setLevel(logging.WARNING)  # not a line per request
    logging.getLogger("axes").setLevel(logging.WARNING)  # nor four per scorer's login

    from benchmarks.load_settings import BENCH_QUEUES
    from troefclub.celery import eager_set

    queues = sorted(BENCH_QUEUES.values())
    eager_set(always=True)  # this process's own refreshes (setup) run inline
    say(f"preparing {name}: {args.koppels} koppels, {args.scorers} open games")
    competition_id, scorers = prepare(
        koppels=args.koppels, scorers=args.scorers, rounds=args.rounds, seed=args.seed
    )
    doors_assign(scorers, args.door)
    probe_id = load_rebuild.probe_prepare() if args.ratings_rebuild else None
    # From here on this process's writes (the correction, the probe) queue their tasks on
    # the benchmark's broker, as any write does.
    eager_set(always=False)
    pacing = random.Random(args.seed + 1)
    for scorer in scorers:
        scorer.pauses = [args.pause * pacing.uniform(0.5, 1.5) for _ in scorer.rounds]
        scorer.start = pacing.uniform(0, 2)
    game_ids = [s.game_id for s in scorers]
    broker_clear(broker)  # what a run cut short left: the benchmark's own keys only

    port = args.port or free_port()
    base = f"http://127.0.0.1:{port}"
    logs = Path(tempfile.mkdtemp(prefix="troefclub-load-"))
    workers = worker_commands(one_pool=args.one_pool, concurrency=args.concurrency, tag=str(port))
    rebuild = load_rebuild.Rebuild()
    try:
        with started(Processes()) as processes:
            for worker, command in workers:
                processes.start(worker, command, env, logs / f"{worker.split()[0]}.log")
            processes.start(
                "gunicorn",
                [str(BIN / "gunicorn"), "troefclub.wsgi", "--bind", f"127.0.0.1:{port}",
                 "--workers", str(args.workers), "--log-level", "warning"],
                env, logs / "gunicorn.log",
            )  # fmt: skip
            say(f"gunicorn ({args.workers} workers) on {base}, {_layout(args)}; logs in {logs}")
            for worker, _command in workers:
                log = logs / f"{worker.split()[0]}.log"
                wait_until(worker, lambda log=log: b" ready." in log.read_bytes(), processes)
            wait_until("gunicorn", lambda: answers(base), processes)
            # One warm-up request per worker process, so the figures don't time imports.
            for _ in range(args.workers * 2):
                answers(base + scorers[0].sheet_url.rsplit("sheet/", 1)[0])

            say(f"{args.scorers} scorers × {args.rounds} rounds ({args.door})")
            cpu = CpuWatch(
                sessions={role: process.pid for role, process in processes.running},
                database=name,
            )
            cpu.begin()
            started_at = time.perf_counter()
            tally = Tally()
            done = threading.Event()
            scored = threading.Event()  # the CPU is sampled while the scorers post
            # The probe writes once a second until the rebuild is done and the scorers'
            # standings caught up; after that its writes would keep the ratings queue
            # (each queues a season rankings refresh too, issue 20) from ever draining.
            probing = threading.Event()
            samplers = [
                threading.Thread(target=sample_queue, args=(broker, queues, tally, done)),
                threading.Thread(target=sample_staleness, args=(competition_id, tally, done)),
                threading.Thread(target=cpu.sample, args=(scored,)),
            ]
            if probe_id is not None:
                samplers += [
                    threading.Thread(
                        target=load_rebuild.rebuild_run,
                        args=(competition_id, args.rebuild_after, rebuild, done),
                    ),
                    threading.Thread(
                        target=load_rebuild.probe_run, args=(probe_id, rebuild, probing)
                    ),
                ]
            for sampler in samplers:
                sampler.daemon = True
                sampler.start()
            lag = drained = None
            try:
                try:
                    asyncio.run(run_scorers(base, scorers, args.scorers, tally))
                finally:
                    scored.set()
                    cpu.end()
                finished_at = tally.last_answer or time.perf_counter()
                say("waiting for the standings to catch up and the queues to drain")
                deadline = time.perf_counter() + args.lag_timeout
                while time.perf_counter() < deadline and (
                    lag is None or drained is None or _rebuilding(rebuild, probe_id)
                ):
                    processes.check()
                    if lag is None and standings_caught_up(competition_id):
                        lag = time.perf_counter() - finished_at
                    if lag is not None and not _rebuilding(rebuild, probe_id):
                        probing.set()
                    if drained is None and not any(queue_lengths(broker, queues).values()):
                        drained = time.perf_counter() - finished_at
                    time.sleep(0.05)
            finally:
                done.set()  # sampled until the standings caught up and the queues drained
                probing.set()
                for sampler in samplers:
                    sampler.join()
    finally:
        # Whatever a run cut short left queued must not be worked off by the next run's
        # workers; only the benchmark's own keys go.
        broker_clear(broker)
    report = _report(args, tally, lag, drained, started_at, finished_at, game_ids)
    report["ratings_tasks"] = _ratings_tasks(logs)
    report["cpu"] = cpu.result
    text = _markdown(report) + "\n\n" + _cpu_markdown(cpu.result)
    if probe_id is not None:
        report["ratings_rebuild"] = load_rebuild.report(rebuild)
        text += "\n" + load_rebuild.markdown(report["ratings_rebuild"], _layout(args))
    print(text)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    say(f"wrote {args.json}")
    return 0 if report["met"] else 1


def _rebuilding(rebuild: load_rebuild.Rebuild, probe_id: int | None) -> bool:
    """Whether the run must go on for the rebuild: asked for, and not done (or not made)."""
    return probe_id is not None and not rebuild.error and rebuild.done_at is None


def _layout(args: argparse.Namespace) -> str:
    if args.one_pool:
        return f"one worker of {args.concurrency} processes for both queues"
    return f"standings worker of {args.concurrency}, ratings worker of 1"


def _ratings_tasks(logs: Path) -> dict[str, Any]:
    """The ratings tasks the workers ran (their logs): how many, the longest and the games
    it rated."""
    done = [
        (float(seconds), int(games))
        for log in logs.glob("*.log")
        for seconds, games in re.findall(
            r"rankings\.tasks\.ratings_refresh\[[^]]+\] succeeded in ([\d.]+)s: (\d+)",
            log.read_text(errors="replace"),
        )
    ]
    longest = max(done, default=(None, None))
    return {"count": len(done), "longest_s": longest[0], "longest_games": longest[1]}


def _report(
    args: argparse.Namespace,
    tally: Tally,
    lag: float | None,
    drained: float | None,
    started_at: float,
    finished_at: float,
    game_ids: list[int],
) -> dict[str, Any]:
    from scoring.models import Game

    finished = Game.objects.filter(pk__in=game_ids, status=Game.Status.FINISHED).count()
    every = tally.gets + tally.posts
    errors = list(tally.errors)
    if finished != len(game_ids) and not errors:
        errors.append(f"only {finished} of {len(game_ids)} games finished")
    report = {
        "koppels": args.koppels,
        "scorers": args.scorers,
        "rounds_each": args.rounds,
        "pause_s": args.pause,
        "gunicorn_workers": args.workers,
        "celery_concurrency": args.concurrency,
        "one_pool": args.one_pool,
        "requests": len(every),
        "seconds": finished_at - started_at,
        "p50_ms": percentile(every, 50) * 1000,
        "p95_ms": percentile(every, 95) * 1000,
        "max_ms": max(every, default=0) * 1000,
        "post_p50_ms": percentile(tally.posts, 50) * 1000,
        "post_p95_ms": percentile(tally.posts, 95) * 1000,
        "post_mean_ms": (statistics.mean(tally.posts) if tally.posts else 0) * 1000,
        "door": args.door,
        # Each door's requests (its page, its rounds) and its rounds alone.
        "doors": {
            door: {
                "requests": len(tally.by_door[door]),
                "p50_ms": percentile(tally.by_door[door], 50) * 1000,
                "p95_ms": percentile(tally.by_door[door], 95) * 1000,
                "max_ms": max(tally.by_door[door], default=0) * 1000,
                "post_p50_ms": percentile(tally.posts_by_door[door], 50) * 1000,
                "post_p95_ms": percentile(tally.posts_by_door[door], 95) * 1000,
                "post_max_ms": max(tally.posts_by_door[door], default=0) * 1000,
            }
            for door in DOORS
            if tally.by_door[door]
        },
        "errors": len(errors),
        "error_samples": errors[:10],
        "games_finished": finished,
        "layout": _layout(args),
        "peak_queues": tally.peak_queues,
        "queue_sample_errors": tally.sample_errors,
        "standings_lag_s": lag,
        "queue_drained_s": drained,
        "max_stale_during_run_s": tally.max_stale,
        "cores": os.cpu_count(),
    }
    report["met"] = bool(report["p95_ms"] <= 100 and not errors and lag is not None and lag <= 5)
    return report


def _markdown(r: dict[str, Any]) -> str:
    def seconds(value: float | None) -> str:
        return "never (timed out)" if value is None else f"{value:.1f} s"

    peaks = " / ".join(f"{queue} {peak}" for queue, peak in sorted(r["peak_queues"].items()))
    pace = f"about {r['pause_s']:g} s between rounds" if r["pause_s"] else "flat out"
    doors = " + ".join(DOOR_NAMES[door] for door in r["doors"])

    lines = [
        "| scorers × rounds | door | requests | p50 | p95 | max | errors | peak queues "
        "| standings behind after the last round | most behind during the run "
        "| queue drained | target met |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
        f"| {r['scorers']} × {r['rounds_each']} ({r['koppels']:,} koppels, "
        f"{r['gunicorn_workers']} gunicorn workers, {pace}) "
        f"| {doors} | {r['requests']} "
        f"| {r['p50_ms']:.0f} ms | {r['p95_ms']:.0f} ms | {r['max_ms']:.0f} ms "
        f"| {r['errors']} | {peaks} | {seconds(r['standings_lag_s'])} "
        f"| {seconds(r['max_stale_during_run_s'])} | {seconds(r['queue_drained_s'])} "
        f"| {'yes' if r['met'] else '**no**'} |",
    ]
    if len(r["doors"]) > 1 or r["door"] == "table":
        for door, d in r["doors"].items():
            lines.append(
                f"| ↳ {DOOR_NAMES[door]} | {DOOR_NAMES[door]} | {d['requests']} "
                f"| {d['p50_ms']:.0f} ms | {d['p95_ms']:.0f} ms | {d['max_ms']:.0f} ms "
                f"| | | | | | rounds alone: p50 {d['post_p50_ms']:.0f} ms, "
                f"p95 {d['post_p95_ms']:.0f} ms, max {d['post_max_ms']:.0f} ms |"
            )
    return "\n".join(lines)


DOOR_NAMES = {"sheet": "director's sheet", "table": "table link"}


def _cpu_markdown(cpu: dict[str, Any]) -> str:
    """The CPU line of the report: the machine's busy share while the scorers posted, its
    busiest second, and each role's share of all cores."""
    if not cpu:
        return ""
    roles = ", ".join(
        f"{role} {share:.0%}"
        for role, share in sorted(cpu["role_share"].items(), key=lambda x: -x[1])
    )
    busiest = cpu["machine_busiest_second"]
    return (
        f"CPU while the scorers posted ({cpu['wall_s']:.0f} s, {cpu['cores']} cores): machine "
        f"{cpu['machine_busy']:.0%} busy (busiest second "
        f"{'—' if busiest is None else f'{busiest:.0%}'}, {cpu['seconds_at_90pct_busy']} s at "
        f"≥ 90 %), the benchmark's processes {cpu['benchmark_share']:.0%} of it all: {roles}"
    )


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
