"""The machinery of the load benchmark (`benchmarks.load`): the child processes, the
scorers that post rounds through the real score sheet or the table link, and the samplers
that watch the queues, the standings and the CPU meanwhile.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


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


# ---------------------------------------------------------------- the scorers


# The doors a scorer enters rounds through: the director's score sheet (htmx form posts,
# logged in) and the table link (the phone's queue: JSON posts to /t/<token>/round/).
DOORS = ("sheet", "table")


@dataclass
class Scorer:
    game_id: int
    sheet_url: str
    cookie: tuple[str, str]  # the session cookie: name, value
    rounds: list[dict[str, str]]
    pauses: list[float] = field(default_factory=list)  # seconds before each round
    start: float = 0.0  # opening the sheet: this many first pauses after the run starts
    door: str = "sheet"  # one of DOORS
    table_url: str = ""  # the koppel's table link, /t/<token>/ (door "table")


def game_ending_at(rounds: int, rng: random.Random) -> list[dict[str, str]]:
    """A game of exactly `rounds` rounds whose last round ends it (the rules engine)."""
    from benchmarks.generate import random_game

    for _ in range(100_000):
        game = random_game(rng)
        if len(game) == rounds:
            return game
    raise RuntimeError(f"no game of {rounds} rounds drawn: ask for fewer")


@dataclass
class Tally:
    gets: list[float] = field(default_factory=list)
    posts: list[float] = field(default_factory=list)
    # Every request's seconds by door (`DOORS`): its page (GET) and its rounds (POST).
    by_door: dict[str, list[float]] = field(default_factory=lambda: {d: [] for d in DOORS})
    posts_by_door: dict[str, list[float]] = field(default_factory=lambda: {d: [] for d in DOORS})
    errors: list[str] = field(default_factory=list)
    peak_queues: dict[str, int] = field(default_factory=dict)  # by queue name
    max_stale: float = 0.0
    sample_errors: int = 0
    last_sample_error: str = ""
    last_answer: float = 0.0


async def _request(client: Any, method: str, url: str, **kwargs: Any) -> Any:
    return await client.request(method, url, **kwargs)


async def score(
    base: str,
    scorer: Scorer,
    tally: Tally,
    gate: asyncio.Semaphore,
    *,
    send: Callable[..., Awaitable[Any]] = _request,
) -> None:
    """One scorer's evening: open its page, then post its rounds one by one, `send`
    (client, method, url, **httpx arguments) -> response making each request (the load
    balancer's benchmark resends with it, `benchmarks.multinode_run`)."""
    import httpx

    # The gate bounds the open connections; a scorer's pauses are spent holding it, as a
    # table keeps its phone's connection while the next deal is played.
    async with gate, httpx.AsyncClient(base_url=base, timeout=60) as client:
        if scorer.door == "sheet":
            client.cookies.set(*scorer.cookie)
        page_url = scorer.sheet_url if scorer.door == "sheet" else scorer.table_url
        if scorer.pauses:
            # Tables sit down over a minute or so, not in the same millisecond.
            await asyncio.sleep(scorer.pauses[0] * scorer.start)
        started = time.perf_counter()
        response = await send(client, "GET", page_url)
        _timed(tally, scorer.door, time.perf_counter() - started, post=False)
        if response.status_code != 200:
            tally.errors.append(f"GET {page_url}: {response.status_code}")
            return
        html = response.text
        for number, rnd in enumerate(scorer.rounds, start=1):
            if scorer.pauses:
                await asyncio.sleep(scorer.pauses[number - 1])
            try:
                url, data, headers = (
                    _sheet_post(base, scorer, html, rnd)
                    if scorer.door == "sheet"
                    else _table_post(base, scorer, html, rnd, client)
                )
            except ValueError as exc:
                tally.errors.append(f"game {scorer.game_id} round {number}: {exc}")
                return
            started = time.perf_counter()
            response = await send(client, "POST", url, data=data, headers=headers)
            _timed(tally, scorer.door, time.perf_counter() - started, post=True)
            tally.last_answer = max(tally.last_answer, time.perf_counter())
            if response.status_code != 200:
                tally.errors.append(
                    f"POST {scorer.door} game {scorer.game_id} round {number}: "
                    f"{response.status_code} {response.text[:200]!r}"
                )
                return
            if scorer.door == "sheet":
                html = response.text
            else:
                answer = response.json()
                if not answer.get("stored"):
                    tally.errors.append(
                        f"POST table game {scorer.game_id} round {number}: not stored {answer}"
                    )
                    return
                html = answer["html"]


def _timed(tally: Tally, door: str, seconds: float, *, post: bool) -> None:
    (tally.posts if post else tally.gets).append(seconds)
    tally.by_door[door].append(seconds)
    if post:
        tally.posts_by_door[door].append(seconds)


def _sheet_post(
    base: str, scorer: Scorer, html: str, rnd: dict[str, str]
) -> tuple[str, dict[str, str], dict[str, str]]:
    """The sheet's `#round-form` as htmx posts it: every input with the value the page
    gave, the chosen result and koppel, the CSRF token; htmx's headers."""
    form = round_form(html)
    data = {**form.fields, "result": rnd["result"], "side": rnd["side"]}
    headers = {
        "HX-Request": "true",
        "HX-Current-URL": base + scorer.sheet_url,
        "HX-Target": "sheet",
        "Referer": base + scorer.sheet_url,
    }
    return str(form.action), data, headers


def table_page_state(html: str) -> tuple[str, int]:
    """The `seen` token and the number of rounds stored that a table page (or the
    partial of a queued round's answer) gives the phone's queue (`data-seen`,
    `data-rounds`: static/js/table.js). Raises ValueError when the page has neither."""
    seen = re.search(r'data-seen="([^"]*)"', html)
    rounds = re.search(r'data-rounds="(\d+)"', html)
    if seen is None or rounds is None:
        raise ValueError("no data-seen / data-rounds on the table page")
    return seen.group(1), int(rounds.group(1))


def table_round_body(html: str, rnd: dict[str, str]) -> dict[str, str]:
    """The body of one queued round as static/js/table_queue.js posts it, built on the
    table page `html`: a fresh idempotency key, the page's `seen` token and next round
    number, the result and koppel, `html=1` (the answer brings the page's partial)."""
    seen, rounds = table_page_state(html)
    return {
        "key": str(uuid.uuid4()),
        "seen": seen,
        "number": str(rounds + 1),
        "result": rnd["result"],
        "side": rnd["side"],
        "html": "1",
    }


def _table_post(
    base: str, scorer: Scorer, html: str, rnd: dict[str, str], client: Any
) -> tuple[str, dict[str, str], dict[str, str]]:
    """A queued round as the phone's queue sends it (static/js/table_queue.js): to
    `<page>round/`, its CSRF token from the cookie in `X-CSRFToken`, answered in JSON."""
    from django.conf import settings

    csrf = client.cookies.get(settings.CSRF_COOKIE_NAME) or ""
    headers = {
        "X-CSRFToken": csrf,
        "Accept": "application/json",
        "Origin": base,  # a browser's fetch sends it with a POST
        "Referer": base + scorer.table_url,
    }
    return scorer.table_url + "round/", table_round_body(html, rnd), headers


def queue_lengths(broker: str, queues: list[str]) -> dict[str, int]:
    """The messages waiting in each of the benchmark's `queues` (its Redis keys carry the
    benchmark's key prefix, `benchmarks.throwaway.KEY_PREFIX`)."""
    import redis

    from benchmarks.throwaway import KEY_PREFIX

    # A sync client (redis-py 6 annotates its answers as the async client's too).
    client: Any = redis.Redis.from_url(broker, socket_timeout=5, socket_connect_timeout=5)
    try:
        return {queue: int(client.llen(KEY_PREFIX + queue)) for queue in queues}
    finally:
        client.close()


def sample_queue(broker: str, queues: list[str], tally: Tally, done: threading.Event) -> None:
    """Sample the length of each of the benchmark's `queues` every 20 ms until `done` (a
    thread: the event loop is busy); keeps the peak of each."""
    import redis

    from benchmarks.throwaway import KEY_PREFIX

    client = redis.Redis.from_url(broker, socket_timeout=5, socket_connect_timeout=5)
    tally.peak_queues = dict.fromkeys(queues, 0)
    try:
        while not done.is_set():
            try:
                with client.pipeline(transaction=False) as pipe:
                    for queue in queues:
                        pipe.llen(KEY_PREFIX + queue)
                    lengths = pipe.execute()
                for queue, length in zip(queues, lengths, strict=True):
                    tally.peak_queues[queue] = max(tally.peak_queues[queue], int(length))
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


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))]


def say(message: str) -> None:
    print(f"[load {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def answers(url: str) -> bool:
    """Whether `url` answers 200 (a GET, 5 s at most)."""
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError):
        return False


# ---------------------------------------------------------------- CPU


def machine_jiffies() -> tuple[int, int]:
    """(busy, total) clock ticks of all cores since boot (/proc/stat's `cpu` line; idle
    and iowait are not busy)."""
    with open("/proc/stat", encoding="ascii") as stat:
        values = [int(v) for v in stat.readline().split()[1:]]
    idle = values[3] + (values[4] if len(values) > 4 else 0)
    return sum(values) - idle, sum(values)


def _process_stats() -> Iterator[tuple[int, int, float, str]]:
    """(pid, session id, CPU seconds used, command line) of every process readable."""
    tick = os.sysconf("SC_CLK_TCK")
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", encoding="ascii", errors="replace") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{entry.name}/cmdline", "rb") as f:
                command = f.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue  # gone meanwhile
        # After the command: state ppid pgrp session … utime (11th) stime (12th).
        yield int(entry.name), int(fields[3]), (int(fields[11]) + int(fields[12])) / tick, command


def role_processes(sessions: dict[str, int], database: str) -> dict[int, tuple[str, float]]:
    """The processes of each role and the CPU seconds each used so far, by pid: the
    processes of each child's session (`sessions`: role → the child's pid, a session
    leader) and the PostgreSQL backends of `database` ("postgres backends")."""
    by_session = {pid: role for role, pid in sessions.items()}
    found = {}
    for pid, session, seconds, command in _process_stats():
        if session in by_session:
            found[pid] = (by_session[session], seconds)
        elif command.startswith("postgres: ") and f" {database} " in command:
            found[pid] = ("postgres backends", seconds)
    return found


@dataclass
class CpuWatch:
    """The CPU a run used: the machine's busy share over the run and its busiest second,
    and the seconds each role used (`role_processes`, and this process: the load
    generator with its samplers and probe), from `begin` to `end`. The processes are
    read every second: a backend that ends meanwhile (connections live `CONN_MAX_AGE`)
    keeps what it used until its last reading."""

    sessions: dict[str, int]
    database: str
    busy_seconds: list[float] = field(default_factory=list)  # each second's busy share
    _start: tuple[int, int] = (0, 0)
    _first: dict[int, tuple[str, float]] = field(default_factory=dict)
    _last: dict[int, tuple[str, float]] = field(default_factory=dict)
    _own: float = 0.0
    _began: float = 0.0
    result: dict[str, Any] = field(default_factory=dict)

    def _own_seconds(self) -> float:
        times = os.times()
        return times.user + times.system

    def begin(self) -> None:
        self._start = machine_jiffies()
        self._first = role_processes(self.sessions, self.database)
        self._last = dict(self._first)
        self._own = self._own_seconds()
        self._began = time.perf_counter()

    def sample(self, done: threading.Event) -> None:
        """Every second until `done`: the machine's busy share of that second, and each
        role's processes (a thread)."""
        last = machine_jiffies()
        while not done.wait(1.0):
            now = machine_jiffies()
            if now[1] > last[1]:
                self.busy_seconds.append((now[0] - last[0]) / (now[1] - last[1]))
            last = now
            self._last.update(role_processes(self.sessions, self.database))

    def end(self) -> dict[str, Any]:
        busy, total = machine_jiffies()
        self._last.update(role_processes(self.sessions, self.database))
        wall = time.perf_counter() - self._began
        cores = os.cpu_count() or 1
        used = dict.fromkeys([*self.sessions, "postgres backends"], 0.0)
        for pid, (role, seconds) in self._last.items():
            used[role] += seconds - self._first.get(pid, (role, 0.0))[1]
        used["load generator"] = self._own_seconds() - self._own
        ours = sum(used.values())
        self.result = {
            "wall_s": wall,
            "cores": cores,
            "machine_busy": (busy - self._start[0]) / max(1, total - self._start[1]),
            "machine_busiest_second": max(self.busy_seconds, default=None),
            "seconds_at_90pct_busy": sum(1 for share in self.busy_seconds if share >= 0.9),
            "role_cpu_s": used,
            # A role's share of the machine (all cores) over the run.
            "role_share": {role: seconds / (wall * cores) for role, seconds in used.items()},
            "benchmark_share": ours / (wall * cores),
        }
        return self.result
