"""Every command the README shows works as written after `python3 dev.py run`, in a fresh
clone: no DEBUG, no SECRET_KEY or ALLOWED_HOSTS set by hand.

The clone holds the files git would commit (tracked and new, not ignored: no `.env`, no
`db.sqlite3`) and reuses this test run's virtualenv, so dev.py finds it installed and does
not run pip. Its processes get none of the suite's settings (`tests/app_process.py`): even
in CI, where DATABASE_URL points at PostgreSQL, this tests the embedded default.

Run from the README: `python3 dev.py run` (with `--addr`, as the README allows), then the
`.venv/bin/python ...` lines of the sections "Management commands" and "Benchmarks", each
synopsis expanded (`[optional]` parts left out and put in, each `a|b` alternative, the
placeholders FILE and SLUG filled in from `data/`). Not run: `python3 dev.py test` (this
suite itself) and the production blocks, which set PostgreSQL, Redis and HTTPS variables
and have tests of their own.
"""

from __future__ import annotations

import importlib.util
import json
import os
import pty
import re
import shutil
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.app_process import app_env, free_port, run_checked, stop, wait_for_http
from tests.paths import REPO_ROOT as ROOT

# One clone and one `dev.py run` for the whole module: in a parallel run (pytest-xdist,
# `--dist loadgroup`) its tests stay on one worker rather than each worker making its own.
pytestmark = pytest.mark.xdist_group("readme-clone")

SLUG = "club-evening-sample"
SAMPLE = "data/club-evening-sample.json"
SECTIONS = ("Management commands", "Benchmarks")
# The sizes the README runs take minutes on a slow machine. Smaller sizes go through the
# same code (settings, database, every step of the benchmark), which is what can break
# "as written"; how fast it is, is the benchmark's business, not this test's.
BENCHMARK_SIZES = {
    "benchmarks": [
        *("--sizes", "4", "--matchdays", "2", "--repeat", "1", "--budget", "0"),
        *("--swiss-entries", "8", "--swiss-rounds", "2"),
    ],
    "benchmarks.pairing": ["--sizes", "20", "--rounds", "3"],
    "benchmarks.ratings": ["--koppels", "4", "--matchdays", "2", "--repeat", "1"],
    "benchmarks.history_growth": ["--koppels", "4", "--evenings", "2"],
}


def _missing(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI must run the README commands test: {reason}")
    pytest.skip(reason)


# ---------------------------------------------------------------- the README


def readme_lines(section: str) -> list[str]:
    """The command lines of the ```sh blocks of one `## section` (comments dropped)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    bodies = [part for part in re.split(r"^## ", text, flags=re.M) if part.startswith(section)]
    assert len(bodies) == 1, f'README.md has no single "## {section}" section'
    blocks = re.findall(r"^```sh\n(.*?)^```", bodies[0], flags=re.M | re.S)
    lines = [line.split(" #")[0].strip() for block in blocks for line in block.splitlines()]
    return [line for line in lines if line]


def variants(line: str) -> list[list[str]]:
    """The argument lists a synopsis stands for: each `[optional]` part left out and put in
    (a `...` in it dropped), each alternative of an `a|b|c` word."""
    if optional := re.search(r"\[([^][]*)\]", line):
        before, after = line[: optional.start()], line[optional.end() :]
        inside = optional.group(1).replace("...", "")
        return variants(before + after) + variants(before + inside + after)
    words = line.split()
    for position, word in enumerate(words):
        if "|" in word:
            return [
                words[:position] + [choice] + words[position + 1 :] for choice in word.split("|")
            ]
    return [words]


@dataclass(frozen=True)
class Command:
    """One README command, ready to run: its arguments, what to type at its question, and
    the competition file it imports that must be made first (the sample under a new slug)."""

    line: str
    args: tuple[str, ...]
    answer: str | None = None
    new_file: str | None = None

    def __str__(self) -> str:
        return " ".join(self.args)


def commands() -> list[Command]:
    """The README's commands of SECTIONS with their placeholders filled in."""
    found = []
    for section in SECTIONS:
        for line in readme_lines(section):
            assert line.startswith(".venv/bin/python "), (
                f"README {section}: {line!r} is not a `.venv/bin/python ...` command; "
                "teach tests/test_readme_commands.py how to run it"
            )
            for number, args in enumerate(variants(line)):
                found.append(fill_in(line, args, number))
    return found


def fill_in(line: str, args: list[str], number: int) -> Command:
    """`args` with FILE and SLUG replaced by real values (FILE depends on the command)."""
    answer = new_file = None
    if "import_competition" in args:
        if "--replace" in args:  # asks on the terminal: type the slug, as a user would
            file, answer = SAMPLE, SLUG
        elif "--skip-existing" in args:  # the sample is there since dev.py run
            file = SAMPLE
        else:  # a competition that is not there yet
            file = new_file = f"new-{number}.json"
    else:
        file = f"exported-{number}.json"
    args = [{"FILE": file, "SLUG": SLUG}.get(arg, arg) for arg in args]
    if args[1] == "-m" and args[2] in BENCHMARK_SIZES:
        args += BENCHMARK_SIZES[args[2]]
    unknown = [arg for arg in args if re.fullmatch(r"[A-Z_]{2,}", arg)]
    assert not unknown, f"README: {line!r}: teach this test the placeholder {unknown}"
    return Command(line=line, args=tuple(args), answer=answer, new_file=new_file)


COMMANDS = commands()


# ---------------------------------------------------------------- the clone


def copy_of_the_work_tree(destination: Path) -> None:
    """The files git would commit (tracked or new, not ignored), as they are now."""
    if shutil.which("git") is None:
        _missing("git is not installed")
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=False,
    )
    if listed.returncode != 0:
        _missing(f"{ROOT} is not a git work tree: {listed.stderr.decode(errors='replace')}")
    for name in filter(None, listed.stdout.decode().split("\0")):
        source = ROOT / name
        if source.is_file():  # a file deleted but not yet committed is left out
            (destination / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, destination / name)


def reuse_virtualenv(clone: Path) -> None:
    """Give the clone a `.venv` that is this run's virtualenv, marked installed for dev.py.

    A directory of links to the real one's contents with its own `pyvenv.cfg` and dev.py's
    install marker: dev.py finds `.venv/bin/python` installed for the clone's
    pyproject.toml and runs no pip; nothing of the real virtualenv is changed.
    """
    real = Path(sys.prefix)
    if sys.prefix == sys.base_prefix or not (real / "pyvenv.cfg").exists():
        _missing("the tests do not run in a virtualenv (run them with python3 dev.py test)")
    venv = clone / ".venv"
    venv.mkdir()
    for entry in real.iterdir():
        if entry.name == "pyvenv.cfg":
            shutil.copy2(entry, venv / entry.name)
        elif not entry.name.startswith("."):
            (venv / entry.name).symlink_to(entry)
    spec = importlib.util.spec_from_file_location("clone_dev", clone / "dev.py")
    assert spec is not None and spec.loader is not None
    dev = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dev)  # dev.py's paths are the clone's: ROOT is its folder
    dev.INSTALL_MARKER.write_text(dev.install_hash() + "\n")


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    clone = tmp_path_factory.mktemp("clone") / "troefclub"
    clone.mkdir()
    copy_of_the_work_tree(clone)
    reuse_virtualenv(clone)
    return clone


@dataclass
class Served:
    """What `dev.py run` printed and what its server answered, once it was stopped."""

    output: str
    stylesheet: int
    missing_page: tuple[int, str]
    printed_urls: dict[str, int]  # each address it printed to open, and the answer there
    by_host_name: dict[str, int]  # the answer to a request naming this Host


def get(url: str, host: str | None = None) -> tuple[int, str]:
    request = urllib.request.Request(url, headers={"Host": host} if host else {})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.read().decode(errors="replace")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode(errors="replace")


def dev_py_run(clone: Path, log: Path, host: str = "127.0.0.1") -> Served:
    """`python3 dev.py run --addr HOST:PORT` until it serves `/`, then stopped."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "dev.py", "run", "--addr", f"{host}:{port}"],
            cwd=clone,
            env=app_env(),
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        # Generous: the first run migrates a new database and collects the static files.
        wait_for_http(base + "/", process, log, seconds=600)
        _status, home = get(base + "/")
        stylesheet = re.search(r'href="(/static/[^"]+\.css)"', home)
        assert stylesheet, home[:2000]
        runs_at = re.search(r"troefclub runs at (.*)", log.read_text(errors="replace"))
        assert runs_at, log.read_text(errors="replace")
        urls = re.findall(r"http://\S+/", runs_at.group(1))
        served = Served(
            output="",
            stylesheet=get(base + stylesheet.group(1))[0],
            missing_page=get(base + "/no-such-page/"),
            printed_urls={url: get(url)[0] for url in urls},
            by_host_name={
                name: get(base + "/", host=f"{name}:{port}")[0]
                for name in (socket.gethostname(), "elsewhere.example")
            },
        )
    finally:
        stop(process)
    served.output = log.read_text(errors="replace")
    return served


@pytest.fixture(scope="module")
def first_run(clone: Path) -> Iterator[Served]:
    yield dev_py_run(clone, clone.parent / "first-run.log")


def manage(clone: Path, *args: str) -> str:
    return run_checked([".venv/bin/python", "manage.py", *args], cwd=clone, env=app_env()).stdout


# ---------------------------------------------------------------- the tests


@pytest.mark.slow
def test_dev_py_run_serves_a_fresh_clone_without_debug(first_run, clone):
    assert "troefclub runs at http://127.0.0.1:" in first_run.output
    assert list(first_run.printed_urls.values()) == [200]
    # Only the local names: the computer's own name is for --addr 0.0.0.0 (a phone).
    assert list(first_run.by_host_name.values()) == [400, 400]
    assert "Installing troefclub" not in first_run.output  # the reused virtualenv is enough
    assert first_run.stylesheet == 200  # collected and served by whitenoise
    status, page = first_run.missing_page
    assert status == 404
    assert "DEBUG = True" not in page and "Traceback" not in page
    env_file = clone / ".env"
    assert (env_file.stat().st_mode & 0o777) == 0o600
    settings = dict(line.split("=", 1) for line in env_file.read_text().splitlines() if "=" in line)
    assert len(settings["SECRET_KEY"]) >= 50
    assert settings["ALLOWED_HOSTS"] == "localhost,127.0.0.1,[::1]"
    assert "DEBUG" not in settings


@pytest.mark.slow
@pytest.mark.parametrize("command", COMMANDS, ids=str)
def test_readme_command_works_as_written_after_dev_py_run(first_run, clone, command):
    args = list(command.args)
    if command.new_file:
        data = json.loads((clone / SAMPLE).read_text(encoding="utf-8"))
        data["competition"]["slug"] = Path(command.new_file).stem
        (clone / command.new_file).write_text(json.dumps(data), encoding="utf-8")
    if command.answer is None:
        done = run_checked(args, cwd=clone, env=app_env())
        output = done.stdout + done.stderr
    else:
        output = run_on_a_terminal(args, cwd=clone, answer=command.answer)
        assert "Type the slug to confirm" in output
        assert "Wrote a backup of" in output and any((clone / "backups").iterdir())
    if "--skip-existing" in args:
        assert f"Skipped {SLUG}" in output
    if "-o" in args:
        assert (clone / args[args.index("-o") + 1]).stat().st_size > 0


def run_on_a_terminal(args: list[str], *, cwd: Path, answer: str) -> str:
    """Run a command whose standard input is a terminal, typing `answer` at its question."""
    terminal, command_side = pty.openpty()
    try:
        process = subprocess.Popen(
            args,
            cwd=cwd,
            env=app_env(),
            stdin=command_side,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        os.write(terminal, answer.encode() + b"\n")
        stdout, stderr = process.communicate(timeout=300)
    finally:
        os.close(terminal)
        os.close(command_side)
    assert process.returncode == 0, f"{' '.join(args)}: {process.returncode}\n{stdout}{stderr}"
    return stdout + stderr


def test_every_readme_section_has_its_commands_here():
    # A section renamed or emptied would make the test above pass without running anything.
    assert {command.line.split()[1] for command in COMMANDS} >= {"manage.py", "-m"}
    assert any("import_competition" in command.args for command in COMMANDS)
    modules = [arg for command in COMMANDS for arg in command.args if arg.startswith("benchmarks")]
    assert sorted(modules) == [
        "benchmarks",
        "benchmarks.history_growth",
        "benchmarks.pairing",
        "benchmarks.ratings",
    ]


@pytest.mark.slow
def test_a_second_dev_py_run_keeps_what_was_entered_since(first_run, clone):
    manage(
        clone,
        "shell",
        "--no-imports",
        "-c",
        "from tournaments.models import Competition; "
        f"Competition.objects.filter(slug={SLUG!r}).update(name='Changed in the demo')",
    )

    # This time for phones on the network, as the README shows: every interface.
    second = dev_py_run(clone, clone.parent / "second-run.log", host="0.0.0.0")

    assert f"Skipped {SLUG}" in second.output
    assert str(clone / ".env") not in second.output  # kept as the first run wrote it
    assert "Changed in the demo" in manage(clone, "export_competition", SLUG)
    # Every address it told to open answers, and so does its own name; no other name does.
    assert set(second.printed_urls.values()) == {200}
    assert list(second.by_host_name.values()) == [200, 400]
    assert "Anyone on this network can log in as director" in second.output
