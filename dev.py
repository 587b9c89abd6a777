#!/usr/bin/env python3
"""Developer commands for troefclub. Standard library only; needs Python 3.11+.

    python3 dev.py run [--addr HOST:PORT]   set up, load the real data, run the dev server
    python3 dev.py test [PYTEST ARGS...]    run the test suite (SQLite unless DATABASE_URL is set)
    python3 dev.py test --fast [ARGS...]    the same without the slow tests (FAST_SKIPS markers)
    python3 dev.py test -n 0 [ARGS...]      in one process (default: one xdist worker a core)
    python3 dev.py check                    ruff format --check, ruff check, mypy, hadolint
    python3 dev.py worker [--queue Q]       a Celery worker a queue (needs CELERY_BROKER_URL)
    python3 dev.py beat                     run celery beat: the stale-standings sweep
    python3 dev.py bench [ARGS...]          the benchmarks of BENCHMARKS.md (python -m benchmarks)
    python3 dev.py lock [--upgrade]         write requirements.lock and requirements-dev.lock anew

Every command first makes sure `.venv` exists and holds the locked versions of every
dependency, each file checked against its hash (`pip install --require-hashes -r
requirements-dev.lock`), then troefclub itself (`pip install --no-deps -e .`); the install is
repeated only when pyproject.toml or the lock has changed since the last one.

`run` serves the app as a club evening needs it, not as a debugging aid: DEBUG stays off (an
error shows a plain error page, the traceback goes to the terminal), the static files are
collected and served by whitenoise, and the settings come from `.env` (kept out of git),
which `run` writes on its first run with a random SECRET_KEY and the local ALLOWED_HOSTS.
With `--addr 0.0.0.0:8000` phones on the same network can connect: this computer's network
addresses are added to ALLOWED_HOSTS for that run and printed, and SITE_URL (the address
the QR codes, table links and e-mails use) is set to the first of them for that run, unless
SITE_URL is set already (environment or `.env`). Competitions that exist
already are left alone (`import_competition --skip-existing`), so results entered in the
demo survive the next `run`.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import os
import re
import secrets
import socket
import subprocess
import sys
import time
import tomllib
import venv
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import ModuleType

if sys.version_info < (3, 11):  # noqa: UP036 - say so plainly on an old Python
    sys.exit(f"troefclub needs Python 3.11 or newer (you ran {sys.version.split()[0]}).")

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
INSTALL_MARKER = VENV / ".troefclub-installed"
# The lock files (`dev.py lock`): every dependency pinned with its files' hashes. The runtime
# one is what the Dockerfile installs; the dev one (runtime + the dev extra) fills `.venv`.
RUNTIME_LOCK = ROOT / "requirements.lock"
DEV_LOCK = ROOT / "requirements-dev.lock"
DATA_FILES = ("data/stcb-2019-08-24.json", "data/club-evening-sample.json")
DEFAULT_ADDR = "127.0.0.1:8000"
DEMO_LOGIN = ("director", "director")
ENV_FILE = ROOT / ".env"
LOCAL_HOSTS = ("localhost", "127.0.0.1", "[::1]")
ALL_INTERFACES = ("0.0.0.0", "::", "[::]")
# The pytest markers `test --fast` leaves out: browser, real Celery worker, pg_dump round
# trips, whole-competition fuzzing and round trips, the README commands run in a clone, the
# settings read in fresh processes, the multi-node runs (pyproject.toml says what each
# means). CI runs all.
FAST_SKIPS = ("e2e", "worker", "backup", "slow", "heavy", "settings_env", "multinode")
# The Celery worker of each queue (troefclub/settings.py, README "Workers and queues"): the
# standings never wait behind a ratings rebuild (issue 19). The ratings need one process: one
# ratings refresh runs at a time, a second process would only wait for its lock.
WORKERS = {
    "standings": ("-Q", "standings", "-n", "standings@%h", "-l", "info"),
    "ratings": ("-Q", "ratings", "-n", "ratings@%h", "--concurrency", "1", "-l", "info"),
}
# `test` spreads the tests over one pytest-xdist worker per core, at most MAX_TEST_WORKERS
# (each worker migrates a test database of its own: more workers than cores only wait).
# TEST_WORKERS=N in the environment sets the number (0 or 1: one process, no xdist); a
# `-n`/`--numprocesses` of the caller's, `-p no:xdist`, `--pdb` or `--trace` wins.
MAX_TEST_WORKERS = 8
TEST_WORKERS_VARIABLE = "TEST_WORKERS"


def say(message: str) -> None:
    """Print a step of the script, set apart from the output of the tools it runs."""
    print(f"\033[1m==> {message}\033[0m", flush=True)


def venv_exe(name: str) -> str:
    """Path of an executable installed in the project's virtual environment."""
    suffix = ".exe" if os.name == "nt" else ""
    return str(BIN / f"{name}{suffix}")


def call(args: Sequence[str], *, env: dict[str, str] | None = None) -> int:
    """Run a command from the project root and return its exit code."""
    return subprocess.call(list(args), cwd=ROOT, env=env)


def must(args: Sequence[str], *, env: dict[str, str] | None = None) -> None:
    """Run a command; stop this script with the command's exit code if it fails."""
    code = call(args, env=env)
    if code != 0:
        sys.exit(code)


def install_hash() -> str:
    """Fingerprint of what the venv holds: pyproject.toml and the dev lock. A change of
    either means the venv must be installed again."""
    digest = hashlib.sha256()
    for path in (ROOT / "pyproject.toml", DEV_LOCK):
        digest.update(path.read_bytes() if path.exists() else b"")
        digest.update(b"\0")
    return digest.hexdigest()


def unlocked_requirements() -> list[str]:
    """The names of pyproject.toml's requirements (the runtime ones, the dev extra's and the
    build backend's) that the dev lock lacks: pyproject.toml changed since `dev.py lock`."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    wanted = [
        *config["project"]["dependencies"],
        *config["project"].get("optional-dependencies", {}).get("dev", []),
        *config["build-system"]["requires"],
    ]
    text = DEV_LOCK.read_text(encoding="utf-8") if DEV_LOCK.exists() else ""
    locked = set(re.findall(r"^([a-z0-9][a-z0-9._-]*)==", text, flags=re.M))

    def canonical(name: str) -> str:  # PEP 503, as uv writes the names
        return re.sub(r"[-_.]+", "-", name).lower()

    names = [re.split(r"[^A-Za-z0-9._-]", requirement, maxsplit=1)[0] for requirement in wanted]
    return [name for name in names if canonical(name) not in {canonical(n) for n in locked}]


def install_commands(python: str) -> list[list[str]]:
    """The pip commands that fill the venv: every dependency at its locked version, each
    file checked against its hash, then troefclub itself, editable, with nothing more (its
    build backend, setuptools, is in the lock, so no unhashed download builds it)."""
    pip = [python, "-m", "pip", "install", "--quiet"]
    return [
        [*pip, "--require-hashes", "-r", DEV_LOCK.name],
        [*pip, "--no-deps", "--no-build-isolation", "-e", "."],
    ]


def ensure_venv() -> None:
    """Create `.venv` if missing and install into it when pyproject.toml or the lock changed."""
    python = Path(venv_exe("python"))
    if not python.exists():
        say(f"Creating the virtual environment in {VENV}")
        venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
        INSTALL_MARKER.unlink(missing_ok=True)
    wanted = install_hash()
    if INSTALL_MARKER.exists() and INSTALL_MARKER.read_text().strip() == wanted:
        return
    if missing := unlocked_requirements():
        say(f"Not in {DEV_LOCK.name}: {', '.join(missing)}. Run: python3 dev.py lock")
    say(f"Installing the locked dependencies ({DEV_LOCK.name}, hashes checked) and troefclub")
    for args in install_commands(str(python)):
        must(args)
    INSTALL_MARKER.write_text(wanted + "\n")


def build_requirements() -> list[str]:
    """pyproject.toml's `[build-system] requires`: the lock holds them too, so the editable
    install builds with hashed files only (`--no-build-isolation`)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return list(config["build-system"]["requires"])


def lock_commands(uv: str, *, upgrade: bool = False) -> list[list[str]]:
    """The `uv pip compile` of each lock file: universal (one file for Linux, macOS and
    Windows, markers where they differ) for every Python from 3.11, with every file's hash.
    The build requirements come on standard input (`-`). uv keeps a version the file locks
    already while pyproject.toml admits it; `upgrade` takes the newest admitted instead."""
    compile_ = [
        *(uv, "pip", "compile", "--quiet", "--universal", "--python-version", "3.11"),
        *("--generate-hashes", "--custom-compile-command", "python3 dev.py lock"),
        *(["--upgrade"] if upgrade else []),
    ]
    return [
        [*compile_, "pyproject.toml", "-", "-o", RUNTIME_LOCK.name],
        [*compile_, "pyproject.toml", "--extra", "dev", "-", "-o", DEV_LOCK.name],
    ]


def cmd_lock(*, upgrade: bool = False) -> int:
    """Write requirements.lock (the runtime dependencies, for the Dockerfile) and
    requirements-dev.lock (with the dev extra, for dev.py and CI) from pyproject.toml (see
    `lock_commands`), then install the new dev lock into `.venv`."""
    uv = venv_exe("uv")
    if not Path(uv).exists():  # a venv from before uv was a dev dependency
        must([venv_exe("python"), "-m", "pip", "install", "--quiet", "uv"])
    stdin = "".join(f"{requirement}\n" for requirement in build_requirements())
    for args in lock_commands(uv, upgrade=upgrade):
        say(f"uv pip compile ... -o {args[-1]}")
        code = subprocess.run(args, cwd=ROOT, input=stdin, text=True, check=False).returncode
        if code != 0:
            return code
    ensure_venv()  # the lock changed: the venv gets what it now says
    return 0


def manage(*args: str, env: dict[str, str]) -> None:
    """Run `manage.py` with the venv's Python; stop on failure."""
    must([venv_exe("python"), "manage.py", *args], env=env)


def _envfile() -> ModuleType:
    """troefclub/envfile.py, loaded by its path: importing the `troefclub` package would
    need Django and Celery, which are not installed where dev.py runs."""
    spec = importlib.util.spec_from_file_location(
        "troefclub_envfile", ROOT / "troefclub" / "envfile.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def read_env_file(path: Path) -> dict[str, str]:
    """The KEY=VALUE lines of `.env`, read as the settings read them (troefclub/envfile.py);
    a line that is not KEY=VALUE stops this script naming it."""
    envfile = _envfile()
    try:
        values: dict[str, str] = envfile.read_env_file(path)
    except envfile.EnvFileError as exc:
        sys.exit(str(exc))
    return values


def ensure_env_file() -> dict[str, str]:
    """Add what the settings need to `.env` when neither it nor the environment has it.

    A random SECRET_KEY (kept, so sessions survive a restart) and the local ALLOWED_HOSTS;
    lines already in the file are never changed. Returns the file's values.
    """
    values = read_env_file(ENV_FILE)
    missing = {
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": ",".join(LOCAL_HOSTS),
    }
    lines = [f"{k}={v}" for k, v in missing.items() if k not in values and k not in os.environ]
    if lines:
        say(f"Writing {', '.join(line.split('=')[0] for line in lines)} to {ENV_FILE}")
        header = [] if ENV_FILE.exists() else [
            "# Settings of this checkout for troefclub/settings.py, written by `dev.py run`.",
            "# KEY=VALUE lines; a variable set in the environment wins. Keep this file private",
            "# (it holds the SECRET_KEY) and out of git (.gitignore).",
        ]  # fmt: skip
        if ENV_FILE.exists() and not ENV_FILE.read_text(encoding="utf-8").endswith("\n"):
            header = [""]  # end the file's last line first
        # Created readable by its owner only: it holds the key that signs the sessions.
        fd = os.open(ENV_FILE, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        with os.fdopen(fd, "a", encoding="utf-8") as out:
            out.write("\n".join([*header, *lines]) + "\n")
        values = read_env_file(ENV_FILE)
    return values


def network_addresses() -> list[str]:
    """This computer's IPv4 addresses on the local network (what a phone would type): the
    one of the interface that routes out first (the likeliest to reach the phones), then
    the others sorted."""
    routed = ""
    found = set()
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            # Sends nothing: connecting a UDP socket only picks the interface that routes out.
            probe.connect(("192.0.2.1", 9))
            routed = probe.getsockname()[0]
    except OSError:
        pass
    try:
        for *_, sockaddr in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.add(str(sockaddr[0]))
    except OSError:
        pass
    ordered = [routed, *sorted(found - {routed})] if routed else sorted(found)
    return [address for address in ordered if not address.startswith(("127.", "0."))]


def public_site_url(addr: str) -> str:
    """The SITE_URL for `runserver addr` (issue 18: the QR codes must reach the phones):
    `http://<this computer's network address>:<port>` when serving on every interface,
    `http://<host>:<port>` when serving on one address that isn't this computer's loopback,
    "" otherwise (loopback only, or no network address found)."""
    host, _, port = addr.rpartition(":")
    if not host:
        return ""  # a bare port: runserver listens on 127.0.0.1
    if host in ALL_INTERFACES:
        addresses = network_addresses()
        return f"http://{addresses[0]}:{port}" if addresses else ""
    if host in LOCAL_HOSTS or host.startswith("127."):
        return ""
    return f"http://{host}:{port}"


def served_hosts(addr: str, allowed: str) -> tuple[str, list[str], list[str]]:
    """For `runserver addr`: (the ALLOWED_HOSTS to use, the URLs to open, extra host names).

    `allowed` is the configured ALLOWED_HOSTS. Serving on every interface adds this
    computer's network addresses and name; serving on one named address adds that one.
    """
    host, _, port = addr.rpartition(":")
    if not host:  # runserver accepts a bare port
        host, port = "127.0.0.1", addr
    hosts = [h.strip() for h in allowed.split(",") if h.strip()]
    if host in ALL_INTERFACES:
        extra = [*network_addresses(), socket.gethostname(), f"{socket.gethostname()}.local"]
        urls = [f"http://127.0.0.1:{port}/"] + [f"http://{a}:{port}/" for a in extra[:-2]]
    else:
        extra = [host]
        urls = [f"http://{host}:{port}/"]
    added = [h for h in extra if h not in hosts and "*" not in hosts]
    return ",".join(hosts + added), urls, added


def cmd_run(addr: str) -> int:
    """Migrate, collect the static files, import the data files that are not in the
    database yet, ensure the demo director, then run the server with DEBUG off."""
    env = dict(os.environ)
    file_values = ensure_env_file()
    allowed, urls, added = served_hosts(
        addr, env.get("ALLOWED_HOSTS", file_values.get("ALLOWED_HOSTS", ""))
    )
    env["ALLOWED_HOSTS"] = allowed
    # The address every QR code, table link and e-mail starts with: the user's own SITE_URL
    # (environment or .env) wins; else this computer's network address, for this run only.
    site = env.get("SITE_URL", file_values.get("SITE_URL", "")).strip()
    site_ours = not site
    if site_ours:
        site = public_site_url(addr)
        if site:
            env["SITE_URL"] = site
    say("Compiling the translations (Dutch first)")
    manage("compile_translations", env=env)
    say("Migrating the database")
    manage("migrate", "--no-input", env=env)
    say("Collecting the static files (served by whitenoise)")
    manage("collectstatic", "--no-input", "--verbosity", "0", env=env)
    for path in DATA_FILES:
        say(f"Importing {path} (left alone if it is there already)")
        manage("import_competition", path, "--skip-existing", env=env)
    say("Ensuring the demo director account")
    # --force: DEBUG is off, and this account with its known password is the demo's point.
    manage("ensure_demo_director", "--force", env=env)
    user, password = DEMO_LOGIN
    print()
    say(f"troefclub runs at {'  '.join(urls)}  (demo director login: {user} / {password})")
    if added:
        say(f"Accepting the host names {', '.join(added)} for this run")
    if site:
        source = "for this run" if site_ours else "SITE_URL"
        say(f"QR codes, table links and e-mails point at {site} ({source})")
    else:
        say(
            "QR codes and table links point at this computer only: phones can't open them. "
            "Start with --addr 0.0.0.0:8000 (or set SITE_URL) to score from phones."
        )
    if (addr.rpartition(":")[0] or "127.0.0.1") not in LOCAL_HOSTS:
        say(
            f"Anyone on this network can log in as {user} / {password} unless you change "
            f"its password: .venv/bin/python manage.py changepassword {user}"
        )
    print()
    return call([venv_exe("python"), "manage.py", "runserver", addr], env=env)


def pytest_args(extra: Sequence[str], *, fast: bool) -> list[str]:
    """The arguments for `python -m pytest`: `extra` as given, and with `fast` a `-m` that
    deselects the FAST_SKIPS markers. A `-m EXPR` of the caller's is kept, joined with
    `and` (pytest would use only the last `-m`, dropping either the caller's or ours)."""
    args = list(extra)
    if not fast:
        return args
    skip = " and ".join(f"not {marker}" for marker in FAST_SKIPS)
    if "-m" in args[:-1]:
        at = args.index("-m") + 1
        args[at] = f"({args[at]}) and {skip}"
        return args
    return ["-m", skip, *args]


def cores() -> int:
    """The CPU cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def worker_args(extra: Sequence[str], environ: Mapping[str, str]) -> list[str]:
    """`-n N` for pytest-xdist: N from TEST_WORKERS, else one worker a core (at most
    MAX_TEST_WORKERS); none when that is 1 or less, or when `extra` chooses itself (a `-n`,
    `--numprocesses`, `-p no:xdist`) or debugs (`--pdb`, `--trace`: one process)."""
    for at, arg in enumerate(extra):
        if arg in ("-n", "--numprocesses", "--pdb", "--trace") or arg.startswith(
            ("-n=", "--numprocesses=", "-pno:xdist")
        ):
            return []
        if re.fullmatch(r"-n(\d+|auto|logical)", arg):
            return []
        if arg == "-p" and extra[at + 1 : at + 2] == ["no:xdist"]:
            return []
    wanted = environ.get(TEST_WORKERS_VARIABLE, "").strip()
    if wanted:
        if not wanted.isdigit():
            sys.exit(f"{TEST_WORKERS_VARIABLE}={wanted!r} is not a number of workers (0: none)")
        workers = int(wanted)
    else:
        workers = min(cores(), MAX_TEST_WORKERS)
    return ["-n", str(workers)] if workers > 1 else []


def cmd_test(extra: Sequence[str], *, fast: bool = False) -> int:
    """Run pytest with the given extra arguments (less the slow tests if `fast`), on
    `worker_args` xdist workers, and return its exit code."""
    args = [*worker_args(extra, os.environ), *pytest_args(extra, fast=fast)]
    # Bytecode caches (__pycache__, gitignored) are kept even if PYTHONDONTWRITEBYTECODE is
    # set: pytest keeps its rewritten test modules there, and without them every worker
    # and every `manage.py` the tests start compiles all the code again (seconds each).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return call([venv_exe("python"), "-m", "pytest", *args], env=env)


def cmd_bench(bench_args: Sequence[str]) -> int:
    """Run `python -m benchmarks` (BENCHMARKS.md) with the given arguments."""
    return call([venv_exe("python"), "-m", "benchmarks", *bench_args])


def cmd_check() -> int:
    """Run the formatter check, the linter, the type checker and hadolint; fail if any fails."""
    checks = [
        [venv_exe("ruff"), "format", "--check", "."],
        [venv_exe("ruff"), "check", "."],
        [venv_exe("mypy"), "."],
        [venv_exe("hadolint"), "Dockerfile"],
    ]
    failed = []
    for args in checks:
        say(" ".join([Path(args[0]).name, *args[1:]]))
        if call(args) != 0:
            failed.append(Path(args[0]).name + " " + args[1])
    if failed:
        say("Failed: " + ", ".join(failed))
        return 1
    say("All checks passed")
    return 0


def worker_commands(queues: Sequence[str]) -> list[list[str]]:
    """The Celery worker of each queue, as the README runs them ("Workers and queues")."""
    return [[venv_exe("celery"), "-A", "troefclub", "worker", *WORKERS[queue]] for queue in queues]


def call_together(commands: Sequence[Sequence[str]]) -> int:
    """Run `commands` side by side until one of them exits (or Ctrl-C), then stop the
    others (SIGTERM: a Celery worker's warm shutdown, its running task finished). Returns
    the first exit code that is not 0, else 0."""
    processes = [subprocess.Popen(list(args), cwd=ROOT) for args in commands]
    try:
        while all(process.poll() is None for process in processes):
            time.sleep(0.5)
    finally:
        for process in processes:
            if process.poll() is None:
                process.terminate()
        codes = [process.wait() for process in processes]
    return next((code for code in codes if code), 0)


def cmd_worker(queues: Sequence[str]) -> int:
    """Run the Celery workers of `queues` for the PostgreSQL + Redis setup: one worker a
    queue (README "Workers and queues"), side by side when there are two."""
    if not os.environ.get("CELERY_BROKER_URL"):
        say("CELERY_BROKER_URL is not set: without a broker tasks run eagerly, no worker needed")
        return 2
    commands = worker_commands(queues)
    for args in commands:
        say(" ".join(["celery", *args[1:]]))
    if len(commands) == 1:
        return call(commands[0])
    return call_together(commands)


def cmd_beat() -> int:
    """Run celery beat, which queues the stale-standings sweep (README "Standings")."""
    if not os.environ.get("CELERY_BROKER_URL"):
        say("CELERY_BROKER_URL is not set: without a broker refreshes run inline, no beat needed")
        return 2
    return call([venv_exe("celery"), "-A", "troefclub", "beat", "-l", "info"])


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="dev.py", description="troefclub developer commands (see README.md)"
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    run = commands.add_parser("run", help="set up, load the real data and run the dev server")
    run.add_argument("--addr", default=DEFAULT_ADDR, help=f"HOST:PORT (default {DEFAULT_ADDR})")
    test = commands.add_parser(
        "test", allow_abbrev=False, help="run the tests; extra arguments go to pytest"
    )
    test.add_argument(
        "--fast",
        action="store_true",
        help=f"leave out the slow tests (markers {', '.join(FAST_SKIPS)}); CI runs them all",
    )
    commands.add_parser(
        "bench", add_help=False, help="run the benchmarks; arguments go to python -m benchmarks"
    )
    commands.add_parser("check", help="ruff format --check, ruff check, mypy, hadolint")
    worker = commands.add_parser(
        "worker", help="run the Celery workers, one a queue (needs CELERY_BROKER_URL)"
    )
    worker.add_argument(
        "--queue",
        action="append",
        choices=tuple(WORKERS),
        help="only this queue's worker (repeatable; default: every queue's, side by side)",
    )
    commands.add_parser("beat", help="run celery beat, the stale-standings sweep")
    lock = commands.add_parser(
        "lock", help="write requirements.lock and requirements-dev.lock anew (uv, with hashes)"
    )
    lock.add_argument(
        "--upgrade",
        action="store_true",
        help="the newest versions pyproject.toml admits (default: keep the locked ones)",
    )

    args, extra = parser.parse_known_args(argv)
    if extra and args.command not in ("test", "bench"):
        parser.error(f"unrecognized arguments: {' '.join(extra)}")

    ensure_venv()
    if args.command == "run":
        return cmd_run(args.addr)
    if args.command == "test":
        return cmd_test(extra, fast=args.fast)
    if args.command == "bench":
        return cmd_bench(extra)
    if args.command == "check":
        return cmd_check()
    if args.command == "beat":
        return cmd_beat()
    if args.command == "lock":
        return cmd_lock(upgrade=args.upgrade)
    return cmd_worker(args.queue or tuple(WORKERS))


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        sys.exit(130)
