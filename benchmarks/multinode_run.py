"""Several nodes behind a real load balancer (issue 23): the machinery the multi-node test
(`tests/deploy/test_multinode.py`) and benchmark (`benchmarks.multinode`) share.

A node is one `honcho -f Procfile start <types...>` (the Procfile's commands as they are:
`migrate_locked`, then gunicorn, the Celery workers or beat). honcho starts each process
in a session of its own, so a node is its honcho and those sessions: `Node.kill` SIGKILLs
every process in them at once (a machine lost), `Node.stop` asks honcho to stop them and
kills what is left. HAProxy runs `deploy/haproxy.cfg` as it is, on loopback, its
addresses from the environment. The scorers post rounds through the balancer and resend a
round the balancer answered 502/503/504 (or whose connection broke) exactly as it was, as
the phone's queue does (the same key) and as a director presses "Record" again (the same
round number).
"""

from __future__ import annotations

import asyncio
import contextlib
import csv
import io
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.load_run import Scorer, Tally, score

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
HAPROXY_CFG = ROOT / "deploy" / "haproxy.cfg"
# What the balancer answers when no node took the request (or one died on it), and what a
# phone's queue and a director's second press send again.
RETRIED_STATUSES = frozenset({502, 503, 504})


def venv_path(environ: Mapping[str, str]) -> str:
    """PATH with this interpreter's folder first: the Procfile's `python`, `gunicorn` and
    `celery` are the venv's."""
    return os.pathsep.join([str(BIN), environ.get("PATH", "/usr/bin:/bin")])


# ---------------------------------------------------------------- processes


def _stat(pid: str) -> tuple[int, int] | None:
    """(parent pid, session id) of a process, None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return int(fields[1]), int(fields[3])


def processes_of(sessions: Iterable[int]) -> list[int]:
    """The pids of every process in `sessions` (/proc)."""
    wanted = set(sessions)
    found = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit() and (stat := _stat(entry.name)) and stat[1] in wanted:
            found.append(int(entry.name))
    return found


@dataclass
class Node:
    """One node: `honcho start` of the Procfile's process `types`, logging to `log`."""

    name: str
    types: list[str]
    port: int  # honcho's -p: PORT of its first process (gunicorn's port for a web node)
    env: dict[str, str]
    log: Path
    process: subprocess.Popen[bytes] | None = None
    sessions: set[int] = field(default_factory=set)
    started_at: float = 0.0
    log_offset: int = 0  # where this start's lines begin in `log`

    def start(self) -> None:
        empty = self.log.parent / "empty.env"  # honcho reads .env over the environment
        empty.touch()
        self.log_offset = self.log.stat().st_size if self.log.exists() else 0
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [str(BIN / "honcho"), "-f", str(ROOT / "Procfile"), "-e", str(empty),
                 "start", "-p", str(self.port), *self.types],
                cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        self.started_at = time.perf_counter()
        self.sessions = {self.process.pid}

    def remember(self) -> None:
        """Note the sessions of honcho's descendants (each process type has its own,
        started from one of honcho's multiprocessing children)."""
        if self.process is None:
            return
        children: dict[int, list[tuple[int, int]]] = {}
        for entry in os.scandir("/proc"):
            if entry.name.isdigit() and (stat := _stat(entry.name)):
                children.setdefault(stat[0], []).append((int(entry.name), stat[1]))
        todo = [self.process.pid]
        while todo:
            for pid, session in children.get(todo.pop(), []):
                self.sessions.add(session)
                todo.append(pid)

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def output(self) -> str:
        """This start's log lines."""
        with self.log.open("rb") as f:
            f.seek(self.log_offset)
            return f.read().decode(errors="replace")

    def kill(self) -> None:
        """SIGKILL every process of the node at once: a machine lost, nothing cleaned up."""
        self.remember()
        for pid in processes_of(self.sessions):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        if self.process is not None:
            self.process.wait()

    def terminate(self) -> None:
        """Ask honcho to stop its processes (SIGTERM); `stop` waits for them."""
        self.remember()
        if self.alive():
            assert self.process is not None
            os.killpg(self.process.pid, signal.SIGTERM)

    def stop(self) -> None:
        """`terminate`, and kill whatever is left after 25 s (gunicorn's graceful 20 s)."""
        self.terminate()
        if self.process is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=25)
        deadline = time.monotonic() + 5
        while processes_of(self.sessions) and time.monotonic() < deadline:
            time.sleep(0.1)
        for pid in processes_of(self.sessions):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


@dataclass
class Balancer:
    """HAProxy running deploy/haproxy.cfg on 127.0.0.1:`port` over the web nodes."""

    port: int
    web: dict[str, int]  # server name in the config (web_a, web_b) → the node's port
    folder: Path
    maxconn: int = 3  # a node's gunicorn workers × threads (WEB_MAXCONN)
    process: subprocess.Popen[bytes] | None = None

    @property
    def socket(self) -> Path:
        return self.folder / "haproxy.sock"

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def env(self) -> dict[str, str]:
        return {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HAPROXY_BIND": f"127.0.0.1:{self.port}",
            "HAPROXY_STATS_SOCKET": str(self.socket),
            "WEB_MAXCONN": str(self.maxconn),
            **{name.upper(): f"127.0.0.1:{port}" for name, port in self.web.items()},
        }

    def start(self) -> None:
        with (self.folder / "haproxy.log").open("ab") as out:
            self.process = subprocess.Popen(
                ["haproxy", "-f", str(HAPROXY_CFG), "-db"],
                env=self.env(), stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip

    def servers(self) -> dict[str, str]:
        """Each web server's state as the balancer sees it ("UP", "DOWN", "UP 1/2", ...),
        from `show stat` on the admin socket; {} when it can't be asked."""
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
                sock.settimeout(2)
                sock.connect(str(self.socket))
                sock.sendall(b"show stat\n")
                data = b""
                while chunk := sock.recv(65536):
                    data += chunk
        except OSError:
            return {}
        rows = csv.DictReader(io.StringIO(data.decode().lstrip("# ")))
        return {
            row["svname"]: row["status"]
            for row in rows
            if row.get("pxname") == "web" and row.get("svname") not in ("FRONTEND", "BACKEND")
        }

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


def status(url: str, timeout: float = 5) -> int | None:
    """The status a GET of `url` answers (None: no answer)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)
    except OSError:
        return None


@dataclass
class Layout:
    """The nodes of a run and the balancer in front of the web nodes; `stop` ends every
    process of them (call it in a `finally`)."""

    nodes: dict[str, Node]
    balancer: Balancer

    @classmethod
    def make(
        cls, env: dict[str, str], folder: Path, ports: Iterable[int], *, worker_2: bool = True
    ) -> Layout:
        """Web nodes A and B, worker node 1 (standings and ratings), worker node 2
        (standings; left out with `worker_2` False), a beat node; the balancer."""
        free = iter(ports)
        web_a, web_b, balancer = next(free), next(free), next(free)
        plan = [
            ("web A", ["web"], web_a),
            ("web B", ["web"], web_b),
            ("worker 1", ["standings", "ratings"], next(free)),
            *([("worker 2", ["standings"], next(free))] if worker_2 else []),
            ("beat", ["beat"], next(free)),
        ]
        nodes = {
            name: Node(name, types, port, env, folder / f"{name.replace(' ', '-')}.log")
            for name, types, port in plan
        }
        workers = int(env.get("WEB_CONCURRENCY", "3")) * int(env.get("WEB_THREADS", "1"))
        return cls(
            nodes, Balancer(balancer, {"web_a": web_a, "web_b": web_b}, folder, maxconn=workers)
        )

    def start(self) -> None:
        self.balancer.start()
        for node in self.nodes.values():
            node.start()

    def check(self) -> None:
        """Fail when a node or the balancer exited on its own."""
        for node in self.nodes.values():
            if node.process is not None and node.process.poll() is not None:
                raise RuntimeError(
                    f"node {node.name} exited ({node.process.returncode}):\n{node.output()[-3000:]}"
                )
        if self.balancer.process is not None and self.balancer.process.poll() is not None:
            raise RuntimeError(
                "haproxy exited: " + (self.balancer.folder / "haproxy.log").read_text()
            )

    def node_ready(self, node: Node) -> bool:
        """A web node answers /healthz and the balancer sees it up; a worker said
        "ready."; beat started."""
        if "web" in node.types:
            server = "web_a" if node.name.endswith("A") else "web_b"
            return (
                status(f"http://127.0.0.1:{node.port}/healthz", timeout=2) == 200
                and self.balancer.servers().get(server) == "UP"
            )
        text = node.output()
        if "beat" in node.types:
            return "beat: Starting" in text
        return text.count(" ready.") >= len(node.types)

    def wait_ready(self, seconds: float = 120) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.check()
            if all(self.node_ready(node) for node in self.nodes.values()):
                for node in self.nodes.values():
                    node.remember()
                return
            time.sleep(0.25)
        waiting = [node.name for node in self.nodes.values() if not self.node_ready(node)]
        logs = "\n".join(f"--- {n}\n{self.nodes[n].output()[-3000:]}" for n in waiting)
        raise RuntimeError(f"not up within {seconds:.0f} s: {', '.join(waiting)}\n{logs}")

    def stop(self) -> None:
        for node in self.nodes.values():
            try:
                node.terminate()  # all at once: then each is waited for
            except Exception as exc:  # noqa: BLE001 - stop the others whatever happens
                print(f"stopping {node.name}: {exc}", file=sys.stderr)
        for node in self.nodes.values():
            try:
                node.stop()
            except Exception as exc:  # noqa: BLE001 - stop the others whatever happens
                print(f"stopping {node.name}: {exc}", file=sys.stderr)
        self.balancer.stop()


# ---------------------------------------------------------------- kills


@dataclass
class Outage:
    """A kill of some nodes and their restart: when, and when each served again (seconds
    from the kill: a web node answering the readiness check and seen UP by the balancer,
    a worker ready)."""

    names: list[str]
    killed_at: float = 0.0
    restarted_at: float = 0.0
    served_after: dict[str, float] = field(default_factory=dict)


def outage_run(
    layout: Layout,
    outage: Outage,
    *,
    kill_after: float,
    restart_after: float,
    ready_path: str,
    done: threading.Event,
) -> None:
    """Kill `outage.names` `kill_after` seconds after the start, start them again
    `restart_after` seconds later, then wait until each serves again (a thread; `done`
    ends it, with no node started after it was set)."""
    if done.wait(kill_after):
        return
    nodes = [layout.nodes[name] for name in outage.names]
    outage.killed_at = time.perf_counter()
    for node in nodes:
        node.kill()
    if done.wait(restart_after):
        return
    outage.restarted_at = time.perf_counter()
    for node in nodes:
        node.start()
    waiting = {node.name: node for node in nodes}
    while waiting and not done.is_set():
        for name, node in list(waiting.items()):
            up = layout.node_ready(node)
            if up and "web" in node.types:
                up = status(f"http://127.0.0.1:{node.port}{ready_path}", timeout=2) == 200
            if up:
                node.remember()
                outage.served_after[name] = time.perf_counter() - outage.killed_at
                del waiting[name]
        time.sleep(0.1)


# ---------------------------------------------------------------- scorers and readers


@dataclass
class NodesTally(Tally):
    """`Tally` with what a run through the balancer adds: the requests sent again (by
    reason), the readers' GETs and their failures."""

    resent: dict[str, int] = field(default_factory=dict)
    reads: list[float] = field(default_factory=list)
    read_failures: dict[str, int] = field(default_factory=dict)
    max_connections: int = 0


def _resent(tally: NodesTally, reason: str) -> None:
    tally.resent[reason] = tally.resent.get(reason, 0) + 1


async def _send(
    client: Any, tally: NodesTally, method: str, url: str, *, pause: float, **kwargs: Any
) -> Any:
    """One request, sent again as it was while the balancer answers 502/503/504 or the
    connection breaks (at most 200 times, `pause` seconds apart); the last answer."""
    import httpx

    for _ in range(200):
        try:
            response = await client.request(method, url, **kwargs)
        except httpx.TransportError as exc:
            _resent(tally, type(exc).__name__)
        else:
            if response.status_code not in RETRIED_STATUSES:
                return response
            _resent(tally, str(response.status_code))
        await asyncio.sleep(pause)
    raise RuntimeError(f"{method} {url}: no answer after 200 tries")


async def score_resending(
    base: str, scorer: Scorer, tally: NodesTally, gate: asyncio.Semaphore, resend_pause: float
) -> None:
    """`benchmarks.load_run.score` through the balancer, resending as a phone does: each
    round is built once (its key, its number) and sent again unchanged until answered."""

    async def resending(client: Any, method: str, url: str, **kwargs: Any) -> Any:
        return await _send(client, tally, method, url, pause=resend_pause, **kwargs)

    await score(base, scorer, tally, gate, send=resending)


async def read_polling(
    base: str, urls: list[str], tally: NodesTally, every: float, rng: random.Random,
    stop: asyncio.Event,
) -> None:  # fmt: skip
    """A reader: GET one of the public `urls` after another, about `every` seconds apart,
    until `stop`. A reader doesn't resend: its next poll comes anyway."""
    import httpx

    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        await asyncio.sleep(rng.uniform(0, every))
        index = rng.randrange(len(urls))
        while not stop.is_set():
            url = urls[index % len(urls)]
            index += 1
            started = time.perf_counter()
            try:
                response = await client.get(url)
            except httpx.TransportError as exc:
                reason = type(exc).__name__
            else:
                tally.reads.append(time.perf_counter() - started)
                reason = "" if response.status_code == 200 else str(response.status_code)
            if reason:
                tally.read_failures[reason] = tally.read_failures.get(reason, 0) + 1
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), rng.uniform(0.5, 1.5) * every)


async def run_load(
    base: str,
    scorers: list[Scorer],
    tally: NodesTally,
    *,
    readers: int = 0,
    reader_urls: list[str] | None = None,
    read_every: float = 3.0,
    resend_pause: float = 0.5,
    seed: int = 1,
) -> None:
    """The scorers to their last round, and `readers` readers polling meanwhile."""
    stop = asyncio.Event()
    rng = random.Random(seed)
    reading = [
        asyncio.create_task(
            read_polling(
                base, reader_urls or [], tally, read_every, random.Random(rng.random()), stop
            )
        )
        for _ in range(readers if reader_urls else 0)
    ]
    gate = asyncio.Semaphore(max(1, len(scorers)))
    try:
        await asyncio.gather(
            *(score_resending(base, s, tally, gate, resend_pause) for s in scorers)
        )
    finally:
        stop.set()
        await asyncio.gather(*reading, return_exceptions=True)


def sample_connections(
    database_url: str, name: str, tally: NodesTally, done: threading.Event
) -> None:
    """Every 200 ms until `done`: the connections to database `name` (pg_stat_activity),
    not this sampler's own; keeps the most (a thread)."""
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        while not done.is_set():
            row = conn.execute(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE datname = %s AND pid <> pg_backend_pid()",
                [name],
            ).fetchone()
            tally.max_connections = max(tally.max_connections, int(row[0]) if row else 0)
            done.wait(0.2)


def rounds_as_meant(scorers: list[Scorer]) -> dict[int, str]:
    """Each scorer's game whose stored rounds are not exactly the ones it meant (number,
    result, koppel, in order): game id → what differs. {} when none was lost or doubled."""
    from scoring.models import Round

    wrong = {}
    for scorer in scorers:
        stored = list(
            Round.objects.filter(game_id=scorer.game_id)
            .order_by("number")
            .values_list("number", "result", "side")
        )
        meant = [(n, r["result"], r["side"]) for n, r in enumerate(scorer.rounds, start=1)]
        if stored != meant:
            wrong[scorer.game_id] = f"{len(stored)} stored, {len(meant)} meant"
    return wrong


def scorers_make(
    competition: Any, matchday: Any, entries: list[Any], *, count: int, rounds: int, seed: int
) -> list[Scorer]:
    """`count` open games on `matchday` (entries paired in order), each with a director
    logged in (a session made with the test client's `force_login`) and koppel A's table
    link, and the `rounds` rounds (drawn with `seed`, the last one ending the game) its
    scorer will enter; every other scorer through the table link (`doors_assign`)."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.urls import reverse

    from benchmarks.load import doors_assign
    from benchmarks.load_run import game_ending_at
    from scoring.models import Game
    from scoring.services.table import game_links_ensure
    from tournaments.models import Match

    user_model = get_user_model()
    rng = random.Random(seed)
    out = []
    for n in range(count):
        home, away = entries[2 * n], entries[2 * n + 1]
        match = Match.objects.create(matchday=matchday, home=home, away=away)
        game = Game.objects.create(match=match, team_a=home.team, team_b=away.team)
        user, _ = user_model.objects.get_or_create(username=f"multinode-scorer-{n}")
        competition.directors.add(user)
        client = Client()
        client.force_login(user)
        link = game_links_ensure(game_ids=[game.pk])[game.pk]["a"]
        out.append(
            Scorer(
                game_id=game.pk,
                sheet_url=reverse(
                    "game_sheet", kwargs={"slug": competition.slug, "game_id": game.pk}
                ),
                cookie=(
                    settings.SESSION_COOKIE_NAME,
                    client.cookies[settings.SESSION_COOKIE_NAME].value,
                ),
                rounds=game_ending_at(rounds, rng),
                table_url=reverse("table_sheet", kwargs={"token": link.token}),
            )
        )
    doors_assign(out, "both")
    return out
