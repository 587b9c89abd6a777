"""Load test: N directors enter rounds at once through the real score sheet (issue 7).

    DATABASE_URL=postgres://…/NAME CELERY_BROKER_URL=redis://127.0.0.1:6379/N \\
        .venv/bin/python -m benchmarks.load [--koppels 1000] [--scorers 50] [--rounds 20]
        [--workers 5] [--concurrency 2] [--pause 5] [--fresh] [--json FILE]

What runs: gunicorn (troefclub.wsgi, `--workers` sync workers) and one `celery worker`
against Redis, both on a PostgreSQL database `<NAME>_load` next to DATABASE_URL's (made and
migrated when missing, kept between runs) holding the generated competition of `--koppels`
koppels × 15 matchdays (`benchmarks.generate`, imported once; `--fresh` drops the
database first, e.g. after a migration was changed). Each run adds a matchday
with one open game per scorer (the previous run's is deleted first), and a director
account per scorer, logged in server-side (a session made with the test client's
`force_login`: django-axes guards the login form, and the password check is not what is
measured).

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
is not 200, or a round refused: 422), the peak length of the Celery queue (`LLEN celery`
sampled every 20 ms), and how far the stored standings lag: the time from the last
answer until the competition owes no refresh (`standings_stale_since` is NULL) and the
stored standings count every finished game (played, won, drawn, lost, points for and
against of each entry equal one aggregate over the games) — the target; besides, the
most the standings were behind during the run (now − `standings_stale_since`, sampled
every 100 ms) and when the queue was empty again after the last answer. Targets: p95 ≤ 100 ms,
standings ≤ 5 s behind, 0 errors.

Every process started here is stopped on the way out, Ctrl-C included.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
DEFAULT_JSON = ROOT / "benchmarks" / "output" / "load.json"
SCORER_PREFIX = "bench-scorer-"


# ---------------------------------------------------------------- the score sheet's form


class RoundFormParser(HTMLParser):
    """The inputs of the sheet's `<form id="round-form">` as a browser would send them:
    hidden, text and number inputs with their values; radio groups are left for the
    scorer to choose (`radios` lists their names)."""

    def __init__(self) -> None:
        super().__init__()
        self.inside = False
        self.action: str | None = None
        self.fields: dict[str, str] = {}
        self.radios: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag == "form" and values.get("id") == "round-form":
            self.inside = True
            self.action = values.get("hx-post") or values.get("action")
        elif self.inside and tag in ("input", "select", "textarea") and values.get("name"):
            kind = values.get("type", "text")
            if kind == "radio":
                self.radios.add(values["name"])
            elif kind in ("checkbox", "submit", "button"):
                return
            else:
                self.fields[values["name"]] = values.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False


def round_form(html: str) -> RoundFormParser:
    parser = RoundFormParser()
    parser.feed(html)
    if parser.action is None:
        raise ValueError("no round form on the sheet (game over, or not a director?)")
    return parser


# ---------------------------------------------------------------- processes


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Processes:
    """The children started here, each in its own process group, stopped by `stop`."""

    running: list[tuple[str, subprocess.Popen[bytes]]] = field(default_factory=list)

    def start(self, name: str, args: list[str], env: dict[str, str], log: Path) -> None:
        with log.open("wb") as out:
            process = subprocess.Popen(
                args, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        self.running.append((name, process))

    def check(self) -> None:
        for name, process in self.running:
            if process.poll() is not None:
                raise RuntimeError(f"{name} exited with status {process.returncode}")

    def stop(self) -> None:
        for _name, process in reversed(self.running):
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        deadline = time.monotonic() + 15
        for _name, process in reversed(self.running):
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        self.running.clear()


@contextmanager
def started(processes: Processes) -> Iterator[Processes]:
    """Stop every child on the way out, also on Ctrl-C or SIGTERM."""

    def terminate(_signum: int, _frame: Any) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        yield processes
    finally:
        processes.stop()
        signal.signal(signal.SIGTERM, previous)


def wait_until(what: str, ready: Any, processes: Processes, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        processes.check()
        if ready():
            return
        time.sleep(0.2)
    raise RuntimeError(f"{what} did not come up in {seconds:.0f} s")


# ---------------------------------------------------------------- the database


def database_url_for_load(url: str) -> tuple[str, str]:
    """DATABASE_URL with the database `<NAME>_load`; and that name."""
    parts = urlsplit(url)
    name = parts.path.lstrip("/") + "_load"
    return urlunsplit(parts._replace(path="/" + name)), name


def database_ensure(url: str, name: str, *, fresh: bool) -> None:
    """Create the load database when it is missing (connected to `postgres`); with
    `fresh`, drop it first."""
    import psycopg

    parts = urlsplit(url)
    maintenance = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(maintenance, autocommit=True) as conn:
        if fresh:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            return
        conn.execute(f'CREATE DATABASE "{name}"')


@dataclass
class Scorer:
    game_id: int
    sheet_url: str
    cookie: tuple[str, str]  # the session cookie: name, value
    rounds: list[dict[str, str]]
    pauses: list[float] = field(default_factory=list)  # seconds before each round
    start: float = 0.0  # opening the sheet: this many first pauses after the run starts


def game_ending_at(rounds: int, rng: random.Random) -> list[dict[str, str]]:
    """A game of exactly `rounds` rounds whose last round ends it (the rules engine)."""
    from benchmarks.generate import random_game

    for _ in range(100_000):
        game = random_game(rng)
        if len(game) == rounds:
            return game
    raise RuntimeError(f"no game of {rounds} rounds drawn: ask for fewer")


def prepare(*, koppels: int, scorers: int, rounds: int, seed: int) -> tuple[int, list[Scorer]]:
    """Migrate, import the competition once, drop the previous run's matchday, add one
    with an open game and a logged-in director per scorer. Returns the competition id."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client
    from django.urls import reverse

    from benchmarks.generate import Size, document_path
    from scoring.models import Game, Round
    from scoring.services.standings import standings_rebuild
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
        out.append(
            Scorer(
                game_id=game.pk,
                sheet_url=reverse("game_sheet", kwargs={"slug": size.slug, "game_id": game.pk}),
                cookie=(
                    settings.SESSION_COOKIE_NAME,
                    client.cookies[settings.SESSION_COOKIE_NAME].value,
                ),
                rounds=game_ending_at(rounds, rng),
            )
        )
    return competition.pk, out


def standings_caught_up(competition_id: int) -> bool:
    """The competition owes no refresh, and its stored standings count every finished game
    (`benchmarks.measures.standings_agree`: the aggregate over the games)."""
    from benchmarks.measures import standings_agree
    from tournaments.models import Competition

    stale = Competition.objects.filter(pk=competition_id).values_list(
        "standings_stale_since", flat=True
    )[0]
    return stale is None and standings_agree(competition_id)


# ---------------------------------------------------------------- the scorers


@dataclass
class Tally:
    gets: list[float] = field(default_factory=list)
    posts: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    peak_queue: int = 0
    max_stale: float = 0.0
    sample_errors: int = 0
    last_sample_error: str = ""
    last_answer: float = 0.0


async def score(base: str, scorer: Scorer, tally: Tally, gate: asyncio.Semaphore) -> None:
    import httpx

    # The gate bounds the open connections; a scorer's pauses are spent holding it, as a
    # table keeps its phone's connection while the next deal is played.
    async with gate, httpx.AsyncClient(base_url=base, timeout=60) as client:
        client.cookies.set(*scorer.cookie)
        if scorer.pauses:
            # Tables sit down over a minute or so, not in the same millisecond.
            await asyncio.sleep(scorer.pauses[0] * scorer.start)
        started = time.perf_counter()
        response = await client.get(scorer.sheet_url)
        tally.gets.append(time.perf_counter() - started)
        if response.status_code != 200:
            tally.errors.append(f"GET {scorer.sheet_url}: {response.status_code}")
            return
        html = response.text
        for number, rnd in enumerate(scorer.rounds, start=1):
            if scorer.pauses:
                await asyncio.sleep(scorer.pauses[number - 1])
            try:
                form = round_form(html)
            except ValueError as exc:
                tally.errors.append(f"game {scorer.game_id} round {number}: {exc}")
                return
            data = dict(form.fields)
            data["result"], data["side"] = rnd["result"], rnd["side"]
            headers = {
                "HX-Request": "true",
                "HX-Current-URL": base + scorer.sheet_url,
                "HX-Target": "sheet",
                "Referer": base + scorer.sheet_url,
            }
            started = time.perf_counter()
            response = await client.post(str(form.action), data=data, headers=headers)
            tally.posts.append(time.perf_counter() - started)
            tally.last_answer = max(tally.last_answer, time.perf_counter())
            if response.status_code != 200:
                tally.errors.append(
                    f"POST game {scorer.game_id} round {number}: {response.status_code}"
                )
                return
            html = response.text


def sample_queue(broker: str, tally: Tally, done: threading.Event) -> None:
    """Sample `LLEN celery` every 20 ms until `done` (a thread: the event loop is busy)."""
    import redis

    client = redis.Redis.from_url(broker, socket_timeout=5, socket_connect_timeout=5)
    try:
        while not done.is_set():
            try:
                tally.peak_queue = max(tally.peak_queue, int(client.llen("celery")))
            except redis.RedisError as exc:
                tally.sample_errors += 1
                tally.last_sample_error = str(exc)
            done.wait(0.02)
    finally:
        client.close()


def sample_staleness(competition_id: int, tally: Tally, done: threading.Event) -> None:
    """Every 100 ms until `done`: how long the competition has owed a refresh (now −
    `standings_stale_since`, the oldest write its standings don't show yet); the most."""
    from django.db import connection
    from django.utils import timezone

    from tournaments.models import Competition

    try:
        while not done.is_set():
            since = (
                Competition.objects.filter(pk=competition_id)
                .values_list("standings_stale_since", flat=True)
                .first()
            )
            if since is not None:
                age = (timezone.now() - since).total_seconds()
                tally.max_stale = max(tally.max_stale, age)
            done.wait(0.1)
    finally:
        connection.close()  # this thread's own connection


async def run_scorers(base: str, scorers: list[Scorer], limit: int, tally: Tally) -> Tally:
    gate = asyncio.Semaphore(limit)
    await asyncio.gather(*(score(base, s, tally, gate) for s in scorers))
    return tally


# ---------------------------------------------------------------- report


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))]


def say(message: str) -> None:
    print(f"[load {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.load", description=(__doc__ or "").splitlines()[0]
    )
    parser.add_argument("--koppels", type=int, default=1000)
    parser.add_argument("--scorers", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2 * (os.cpu_count() or 1) + 1)
    parser.add_argument("--concurrency", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--pause",
        type=float,
        default=5.0,
        help="mean seconds a scorer waits before each round (drawn between 0.5× and 1.5×; "
        "a real table takes a minute or more a deal); 0: flat out, the saturation run",
    )
    parser.add_argument("--lag-timeout", type=float, default=600)
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON)
    parser.add_argument(
        "--fresh", action="store_true", help="drop the load database first (made anew)"
    )
    args = parser.parse_args(argv)

    url, broker = os.environ.get("DATABASE_URL", ""), os.environ.get("CELERY_BROKER_URL", "")
    if not url.startswith(("postgres://", "postgresql://")) or not broker.startswith("redis"):
        raise SystemExit("set DATABASE_URL (PostgreSQL) and CELERY_BROKER_URL (Redis)")
    load_url, name = database_url_for_load(url)
    database_ensure(url, name, fresh=args.fresh)
    env = {
        **os.environ,
        "DATABASE_URL": load_url,
        "DEBUG": "false",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "PYTHONUNBUFFERED": "1",
    }
    env.setdefault("SECRET_KEY", "load-" + os.urandom(16).hex())
    os.environ.update({k: env[k] for k in ("DATABASE_URL", "DEBUG", "ALLOWED_HOSTS", "SECRET_KEY")})
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "troefclub.settings")
    import logging

    import django

    django.setup()
    import redis

    logging.getLogger("httpx").setLevel(logging.WARNING)  # not a line per request

    from troefclub.celery import app

    app.conf.task_always_eager = True  # this process's own refreshes (setup) run inline
    say(f"preparing {name}: {args.koppels} koppels, {args.scorers} open games")
    competition_id, scorers = prepare(
        koppels=args.koppels, scorers=args.scorers, rounds=args.rounds, seed=args.seed
    )
    pacing = random.Random(args.seed + 1)
    for scorer in scorers:
        scorer.pauses = [args.pause * pacing.uniform(0.5, 1.5) for _ in scorer.rounds]
        scorer.start = pacing.uniform(0, 2)
    game_ids = [s.game_id for s in scorers]
    redis.Redis.from_url(broker).delete("celery", "unacked", "unacked_index")  # a clean start

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    logs = Path(tempfile.mkdtemp(prefix="troefclub-load-"))
    with started(Processes()) as processes:
        processes.start(
            "celery worker",
            [str(BIN / "celery"), "-A", "troefclub", "worker", "-l", "info",
             "--concurrency", str(args.concurrency), "-n", f"bench-load-{port}@%h"],
            env, logs / "worker.log",
        )  # fmt: skip
        processes.start(
            "gunicorn",
            [str(BIN / "gunicorn"), "troefclub.wsgi", "--bind", f"127.0.0.1:{port}",
             "--workers", str(args.workers), "--log-level", "warning"],
            env, logs / "gunicorn.log",
        )  # fmt: skip
        say(f"gunicorn ({args.workers} workers) on {base}, celery worker; logs in {logs}")
        wait_until("celery worker", lambda: b" ready." in (logs / "worker.log").read_bytes(),
                   processes)  # fmt: skip
        wait_until("gunicorn", lambda: _answers(base), processes)
        # One warm-up request per worker process, so the figures don't time imports.
        for _ in range(args.workers * 2):
            _answers(base + scorers[0].sheet_url.rsplit("sheet/", 1)[0])

        say(f"{args.scorers} scorers × {args.rounds} rounds")
        started_at = time.perf_counter()
        tally = Tally()
        done = threading.Event()
        samplers = [
            threading.Thread(target=sample_queue, args=(broker, tally, done), daemon=True),
            threading.Thread(
                target=sample_staleness, args=(competition_id, tally, done), daemon=True
            ),
        ]
        for sampler in samplers:
            sampler.start()
        queue = redis.Redis.from_url(broker)
        lag = drained = None
        try:
            asyncio.run(run_scorers(base, scorers, args.scorers, tally))
            finished_at = tally.last_answer or time.perf_counter()
            say("waiting for the standings to catch up and the queue to drain")
            deadline = time.perf_counter() + args.lag_timeout
            while time.perf_counter() < deadline and (lag is None or drained is None):
                processes.check()
                if lag is None and standings_caught_up(competition_id):
                    lag = time.perf_counter() - finished_at
                if drained is None and not queue.llen("celery"):
                    drained = time.perf_counter() - finished_at
                time.sleep(0.05)
        finally:
            done.set()  # sampled until the standings caught up and the queue drained
            for sampler in samplers:
                sampler.join()
    # Whatever a cut-short run left queued must not be worked off by the next run's worker.
    queue.delete("celery", "unacked", "unacked_index")
    report = _report(args, tally, lag, drained, started_at, finished_at, game_ids)
    print(_markdown(report))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    say(f"wrote {args.json}")
    return 0 if report["met"] else 1


def _answers(url: str) -> bool:
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError):
        return False


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
        "requests": len(every),
        "seconds": finished_at - started_at,
        "p50_ms": percentile(every, 50) * 1000,
        "p95_ms": percentile(every, 95) * 1000,
        "max_ms": max(every, default=0) * 1000,
        "post_p50_ms": percentile(tally.posts, 50) * 1000,
        "post_p95_ms": percentile(tally.posts, 95) * 1000,
        "post_mean_ms": (statistics.mean(tally.posts) if tally.posts else 0) * 1000,
        "errors": len(errors),
        "error_samples": errors[:10],
        "games_finished": finished,
        "peak_queue": tally.peak_queue,
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

    pace = f"about {r['pause_s']:g} s between rounds" if r["pause_s"] else "flat out"

    return "\n".join(
        [
            "| scorers × rounds | requests | p50 | p95 | max | errors | peak queue "
            "| standings behind after the last round | most behind during the run "
            "| queue drained | target met |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
            f"| {r['scorers']} × {r['rounds_each']} ({r['koppels']:,} koppels, "
            f"{r['gunicorn_workers']} gunicorn workers, "
            f"{pace}) "
            f"| {r['requests']} "
            f"| {r['p50_ms']:.0f} ms | {r['p95_ms']:.0f} ms | {r['max_ms']:.0f} ms "
            f"| {r['errors']} | {r['peak_queue']} | {seconds(r['standings_lag_s'])} "
            f"| {seconds(r['max_stale_during_run_s'])} | {seconds(r['queue_drained_s'])} "
            f"| {'yes' if r['met'] else '**no**'} |",
        ]
    )


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
