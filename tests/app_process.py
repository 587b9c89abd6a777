"""Helpers for tests that run troefclub in child processes the way a user does.

The embedded default (SQLite, Celery eager, settings from `.env`) is what these tests are
about, so the children get an environment without the variables that CI or a developer
set for the test suite (`DATABASE_URL`, `CELERY_BROKER_URL`, `CI`, ...).

(Not named test_*: it holds no tests.)
"""

from __future__ import annotations

import os
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Mapping
from pathlib import Path

# Settings read from the environment (troefclub/settings.py) and the suite's own switches:
# none of them may leak from the test run into the app under test.
SUITE_VARIABLES = (
    "DATABASE_URL",
    "CELERY_BROKER_URL",
    "SECRET_KEY",
    "DEBUG",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "CI",
    "DJANGO_SETTINGS_MODULE",
    "VIRTUAL_ENV",
)


def app_env(**overrides: str) -> dict[str, str]:
    """This process's environment without the suite's settings, plus `overrides`."""
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in SUITE_VARIABLES and not name.startswith("PYTEST")
    }
    env["PYTHONUNBUFFERED"] = "1"
    env["LANGUAGE_CODE"] = "en"  # the tests read the commands' and pages' English texts
    env.update(overrides)
    return env


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_http(
    url: str, process: subprocess.Popen[bytes], log: Path, seconds: float = 120
) -> None:
    """Wait until `url` answers 200; fail with the server's log when it dies or never does.

    A liveness wait, not a timing assertion: `seconds` is far above what the server needs.
    """
    deadline = time.monotonic() + seconds
    last = "no answer"
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(
                f"the server exited with status {process.returncode}:\n{log.read_text()}"
            )
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                if response.status == 200:
                    return
                last = f"HTTP {response.status}"
        except urllib.error.HTTPError as exc:
            last = f"HTTP {exc.code}"
        except OSError as exc:
            last = str(exc)
        time.sleep(0.25)
    raise AssertionError(f"{url} gave no 200 within {seconds} s ({last}):\n{log.read_text()}")


def stop(process: subprocess.Popen[bytes]) -> None:
    """Stop a server started by a test (its own process group: runserver's children too)."""
    if process.poll() is None:
        os.killpg(process.pid, 15)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, 9)
            process.wait(timeout=30)


def run_checked(
    args: list[str], *, cwd: Path, env: Mapping[str, str], timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    """Run a command to the end; fail with its output when its exit status is not 0."""
    done = subprocess.run(
        args, cwd=cwd, env=dict(env), capture_output=True, text=True, timeout=timeout, check=False
    )
    assert done.returncode == 0, (
        f"{' '.join(args)} exited with {done.returncode}\n"
        f"--- stdout\n{done.stdout}\n--- stderr\n{done.stderr}"
    )
    return done
