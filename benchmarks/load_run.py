"""The machinery of the load benchmark (`benchmarks.load`): the child processes, the
scorers that post rounds through the real score sheet, and the samplers that watch the
queues and the standings meanwhile.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
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


@dataclass
class Tally:
    gets: list[float] = field(default_factory=list)
    posts: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    peak_queues: dict[str, int] = field(default_factory=dict)  # by queue name
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


def queue_lengths(broker: str, queues: list[str]) -> dict[str, int]:
    """The messages waiting in each of the benchmark's `queues` (its Redis keys carry the
    benchmark's key prefix, `benchmarks.throwaway.KEY_PREFIX`)."""
    import redis

    from benchmarks.throwaway import KEY_PREFIX

    client = redis.Redis.from_url(broker, socket_timeout=5, socket_connect_timeout=5)
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
