#!/usr/bin/env python3
"""Developer commands for troefclub. Standard library only; needs Python 3.11+.

    python3 dev.py run [--addr HOST:PORT]   set up, load the real data, run the dev server
    python3 dev.py test [PYTEST ARGS...]    run the test suite (SQLite unless DATABASE_URL is set)
    python3 dev.py check                    ruff format --check, ruff check, mypy, hadolint
    python3 dev.py worker                   run a Celery worker (needs CELERY_BROKER_URL)

Every command first makes sure `.venv` exists and holds `pip install -e ".[dev]"`; the
install is repeated only when pyproject.toml has changed since the last one.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import venv
from collections.abc import Sequence
from pathlib import Path

if sys.version_info < (3, 11):  # noqa: UP036 - say so plainly on an old Python
    sys.exit(f"troefclub needs Python 3.11 or newer (you ran {sys.version.split()[0]}).")

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
INSTALL_MARKER = VENV / ".troefclub-installed"
DATA_FILES = ("data/stcb-2019-08-24.json", "data/club-evening-sample.json")
DEFAULT_ADDR = "127.0.0.1:8000"
DEMO_LOGIN = ("director", "director")


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


def pyproject_hash() -> str:
    """Fingerprint of the dependency list: a change means the venv must be reinstalled."""
    return hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()


def ensure_venv() -> None:
    """Create `.venv` if missing and install the project into it when pyproject.toml changed."""
    python = Path(venv_exe("python"))
    if not python.exists():
        say(f"Creating the virtual environment in {VENV}")
        venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
        INSTALL_MARKER.unlink(missing_ok=True)
    wanted = pyproject_hash()
    if INSTALL_MARKER.exists() and INSTALL_MARKER.read_text().strip() == wanted:
        return
    say('Installing troefclub and its dev tools (pip install -e ".[dev]")')
    must([str(python), "-m", "pip", "install", "--quiet", "--upgrade", "pip"])
    must([str(python), "-m", "pip", "install", "--quiet", "-e", ".[dev]"])
    INSTALL_MARKER.write_text(wanted + "\n")


def manage(*args: str, env: dict[str, str]) -> None:
    """Run `manage.py` with the venv's Python; stop on failure."""
    must([venv_exe("python"), "manage.py", *args], env=env)


def cmd_run(addr: str) -> int:
    """Migrate, import both data files, ensure the demo director, then run the dev server."""
    env = dict(os.environ)
    env.setdefault("DEBUG", "true")  # development only: never set DEBUG in production
    say("Migrating the database")
    manage("migrate", "--no-input", env=env)
    for path in DATA_FILES:
        say(f"Importing {path}")
        manage("import_competition", path, "--replace", env=env)
    say("Ensuring the demo director account")
    manage("ensure_demo_director", env=env)
    user, password = DEMO_LOGIN
    print()
    say(f"troefclub runs at http://{addr}/  (demo director login: {user} / {password})")
    print()
    return call([venv_exe("python"), "manage.py", "runserver", addr], env=env)


def cmd_test(pytest_args: Sequence[str]) -> int:
    """Run pytest with the given extra arguments and return its exit code."""
    return call([venv_exe("python"), "-m", "pytest", *pytest_args])


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


def cmd_worker() -> int:
    """Run a Celery worker for the PostgreSQL + Redis setup."""
    if not os.environ.get("CELERY_BROKER_URL"):
        say("CELERY_BROKER_URL is not set: without a broker tasks run eagerly, no worker needed")
        return 2
    return call([venv_exe("celery"), "-A", "troefclub", "worker", "-l", "info"])


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="dev.py", description="troefclub developer commands (see README.md)"
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    run = commands.add_parser("run", help="set up, load the real data and run the dev server")
    run.add_argument("--addr", default=DEFAULT_ADDR, help=f"HOST:PORT (default {DEFAULT_ADDR})")
    commands.add_parser("test", help="run the tests; extra arguments go to pytest")
    commands.add_parser("check", help="ruff format --check, ruff check, mypy, hadolint")
    commands.add_parser("worker", help="run a Celery worker (needs CELERY_BROKER_URL)")

    args, extra = parser.parse_known_args(argv)
    if extra and args.command != "test":
        parser.error(f"unrecognized arguments: {' '.join(extra)}")

    ensure_venv()
    if args.command == "run":
        return cmd_run(args.addr)
    if args.command == "test":
        return cmd_test(extra)
    if args.command == "check":
        return cmd_check()
    return cmd_worker()


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        sys.exit(130)
