"""`python3 dev.py test [--fast]`: the pytest arguments it builds, without running the suite.

dev.py is a script (standard library only), loaded here from its file as the README runs it.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
import tomllib
from types import ModuleType

import pytest

from tests.paths import REPO_ROOT as ROOT

FAST = (
    "not e2e and not worker and not backup and not slow and not heavy and not settings_env"
    " and not multinode"
)


@pytest.fixture
def dev() -> ModuleType:
    spec = importlib.util.spec_from_file_location("dev_under_test", ROOT / "dev.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def ran(dev: ModuleType, monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The commands `dev.main` runs, recorded instead of run (and no virtualenv set up), on
    a machine of two cores."""
    commands: list[list[str]] = []
    monkeypatch.setattr(dev, "ensure_venv", lambda: None)
    monkeypatch.setattr(dev, "cores", lambda: 2)
    monkeypatch.delenv("TEST_WORKERS", raising=False)

    def call(args: list[str], **_: object) -> int:
        commands.append(list(args))
        return 0

    monkeypatch.setattr(dev, "call", call)
    return commands


def test_fast_deselects_the_slow_markers(dev):
    assert dev.pytest_args(["tests/scoring", "-x"], fast=True) == [
        "-m",
        FAST,
        "tests/scoring",
        "-x",
    ]


def test_without_fast_the_arguments_go_to_pytest_as_given(dev):
    assert dev.pytest_args([], fast=False) == []
    assert dev.pytest_args(["-m", "nl", "-x"], fast=False) == ["-m", "nl", "-x"]


def test_fast_keeps_a_marker_expression_of_its_own(dev):
    # pytest uses only the last -m: a second one would drop the caller's or ours.
    assert dev.pytest_args(["-m", "nl or django_db", "-q"], fast=True) == [
        *("-m", f"(nl or django_db) and {FAST}", "-q")
    ]


def test_main_passes_fast_and_the_rest_to_pytest(dev, ran):
    assert dev.main(["test", "--fast", "tests/scoring", "-x"]) == 0
    assert dev.main(["test", "tests/rules", "--fast"]) == 0
    assert dev.main(["test", "-q"]) == 0  # what CI runs: everything
    pytest_cmd = [dev.venv_exe("python"), "-m", "pytest", "-n", "2"]  # one worker a core
    assert ran == [
        [*pytest_cmd, "-m", FAST, "tests/scoring", "-x"],
        [*pytest_cmd, "-m", FAST, "tests/rules"],
        [*pytest_cmd, "-q"],
    ]


def test_fast_is_not_a_prefix_for_pytest_options(dev, ran):
    # `--f` and the like are pytest's to interpret, not an abbreviation of --fast.
    assert dev.main(["test", "--f"]) == 0
    assert ran[0][3:] == ["-n", "2", "--f"]


def test_the_workers_are_one_a_core_at_most_eight(dev, monkeypatch):
    for cores, expected in [(1, []), (2, ["-n", "2"]), (6, ["-n", "6"]), (64, ["-n", "8"])]:
        monkeypatch.setattr(dev, "cores", lambda cores=cores: cores)
        assert dev.worker_args(["-x"], {}) == expected


def test_test_workers_in_the_environment_sets_their_number(dev, monkeypatch):
    monkeypatch.setattr(dev, "cores", lambda: 2)
    assert dev.worker_args([], {"TEST_WORKERS": "3"}) == ["-n", "3"]
    assert dev.worker_args([], {"TEST_WORKERS": "1"}) == []  # one process: no xdist
    assert dev.worker_args([], {"TEST_WORKERS": "0"}) == []
    with pytest.raises(SystemExit, match="TEST_WORKERS='many'"):
        dev.worker_args([], {"TEST_WORKERS": "many"})


@pytest.mark.parametrize(
    "extra",
    [
        ["-n", "0"],
        ["-n0"],
        ["-n", "auto"],
        ["--numprocesses=3"],
        ["-p", "no:xdist"],
        ["tests/rules", "--pdb"],
        ["--trace"],
    ],
)
def test_the_callers_own_choice_of_processes_wins(dev, ran, extra):
    assert dev.main(["test", *extra]) == 0
    assert ran[0][3:] == extra


def test_every_marker_fast_leaves_out_is_registered():
    # A misspelt marker would deselect nothing (and --strict-markers only checks uses).
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    markers = config["tool"]["pytest"]["ini_options"]["markers"]
    registered = {marker.split(":")[0] for marker in markers}
    assert registered >= set(FAST.replace("not ", "").split(" and "))


# ---------------------------------------------------------------- worker: one a queue


@pytest.fixture
def together(dev: ModuleType, monkeypatch: pytest.MonkeyPatch) -> list[list[list[str]]]:
    """The commands `dev.main` runs side by side (`call_together`), recorded instead."""
    runs: list[list[list[str]]] = []

    def call_together(commands: list[list[str]]) -> int:
        runs.append([list(command) for command in commands])
        return 0

    monkeypatch.setattr(dev, "call_together", call_together)
    monkeypatch.setenv("CELERY_BROKER_URL", "redis://127.0.0.1:6379/0")
    return runs


def test_worker_runs_the_readmes_worker_of_each_queue_side_by_side(dev, ran, together):
    assert dev.main(["worker"]) == 0

    assert ran == []
    assert together == [dev.worker_commands(["standings", "ratings"])]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for command in together[0]:
        assert command[0] == dev.venv_exe("celery")
        assert "`" + " ".join(["celery", *command[1:]]) + "`" in readme


def test_worker_with_a_queue_runs_that_queues_worker_alone(dev, ran, together):
    assert dev.main(["worker", "--queue", "ratings"]) == 0

    assert together == []
    assert ran == dev.worker_commands(["ratings"])
    assert ran[0][4:6] == ["-Q", "ratings"]


def test_worker_without_a_broker_starts_nothing(dev, ran, together, monkeypatch):
    monkeypatch.delenv("CELERY_BROKER_URL")

    assert dev.main(["worker"]) == 2
    assert ran == together == []


# ---------------------------------------------------------------- run: the public address


@pytest.fixture
def served(dev: ModuleType, monkeypatch: pytest.MonkeyPatch, tmp_path) -> list[dict[str, str]]:
    """The environment `dev.py run` starts the server with, recorded instead of run (no
    migrations, no import), with `.env` in `tmp_path` and 192.168.1.20 as this computer's
    network address."""
    started: list[dict[str, str]] = []
    monkeypatch.setattr(dev, "ENV_FILE", tmp_path / ".env")
    monkeypatch.setattr(dev, "network_addresses", lambda: ["192.168.1.20", "10.0.0.7"])
    monkeypatch.setattr(dev, "manage", lambda *args, env: None)
    monkeypatch.delenv("SITE_URL", raising=False)

    def call(args: list[str], *, env: dict[str, str] | None = None) -> int:
        assert args[-2:][0] == "runserver"
        started.append(dict(env or {}))
        return 0

    monkeypatch.setattr(dev, "call", call)
    return started


@pytest.mark.parametrize(
    ("addr", "site_url"),
    [
        ("0.0.0.0:8000", "http://192.168.1.20:8000"),  # the phones' address, routed first
        ("[::]:8123", "http://192.168.1.20:8123"),
        ("192.168.1.20:9000", "http://192.168.1.20:9000"),
        ("127.0.0.1:8000", None),  # this computer only: the pages warn instead
        ("localhost:8000", None),
        ("8000", None),
    ],
)
def test_run_on_every_interface_sets_the_site_url_to_the_network_address(
    dev, served, capsys, addr, site_url
):
    assert dev.cmd_run(addr) == 0
    [env] = served
    assert env.get("SITE_URL") == site_url
    said = capsys.readouterr().out
    if site_url:
        assert f"QR codes, table links and e-mails point at {site_url} (for this run)" in said
    else:
        assert "QR codes and table links point at this computer only" in said
    written = dev.ENV_FILE.read_text() if dev.ENV_FILE.exists() else ""
    assert "SITE_URL" not in written  # for that run, never written down


@pytest.mark.parametrize("where", ["environment", ".env"])
def test_run_keeps_a_site_url_the_user_set(dev, served, monkeypatch, capsys, where):
    if where == "environment":
        monkeypatch.setenv("SITE_URL", "https://troef.example")
    else:
        dev.ENV_FILE.write_text("SITE_URL=https://troef.example\n", encoding="utf-8")
    assert dev.cmd_run("0.0.0.0:8000") == 0
    [env] = served
    assert env.get("SITE_URL", "https://troef.example") == "https://troef.example"
    if where == ".env":
        assert "SITE_URL" not in env  # the settings read it from the file themselves
    assert "point at https://troef.example (SITE_URL)" in capsys.readouterr().out


def test_the_network_address_that_routes_out_comes_first(dev, monkeypatch):
    class Probe:
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def connect(self, address):
            pass

        def getsockname(self):
            return ("192.168.1.20", 5000)

    monkeypatch.setattr(dev.socket, "socket", lambda *args: Probe())
    found = [(0, 0, 0, "", (a, 0)) for a in ("10.0.0.7", "127.0.1.1", "192.168.1.20", "172.17.0.1")]
    monkeypatch.setattr(dev.socket, "getaddrinfo", lambda *args: found)
    assert dev.network_addresses() == ["192.168.1.20", "10.0.0.7", "172.17.0.1"]


# ---------------------------------------------------------------- the venv: the lock, hashed


def test_dev_py_needs_the_standard_library_only():
    # It runs before anything is installed (a fresh clone with Python 3.11 only).
    tree = ast.parse((ROOT / "dev.py").read_text(encoding="utf-8"))
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    } | {
        node.module.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and not node.level
    }
    assert imported - {"__future__"} <= sys.stdlib_module_names


def test_the_venv_gets_the_dev_lock_with_hashes_then_troefclub_alone(dev):
    assert dev.install_commands("py") == [
        [
            "py",
            "-m",
            "pip",
            "install",
            "--quiet",
            "--require-hashes",
            "-r",
            "requirements-dev.lock",
        ],
        ["py", "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", "-e", "."],
    ]


@pytest.fixture
def venv_here(dev, monkeypatch, tmp_path) -> list[list[str]]:
    """dev.py's venv is this test's Python, its marker and lock in `tmp_path`; the pip
    commands `ensure_venv` runs are recorded instead of run."""
    installed: list[list[str]] = []
    lock = tmp_path / "requirements-dev.lock"
    lock.write_text("django==5.2.0 \\\n    --hash=sha256:" + "0" * 64 + "\n")
    monkeypatch.setattr(dev, "DEV_LOCK", lock)
    monkeypatch.setattr(dev, "INSTALL_MARKER", tmp_path / ".troefclub-installed")
    monkeypatch.setattr(dev, "venv_exe", lambda name: sys.executable)
    monkeypatch.setattr(dev, "must", lambda args, **_: installed.append(list(args)))
    return installed


def test_ensure_venv_installs_once_and_again_when_the_lock_changes(dev, venv_here):
    dev.ensure_venv()
    assert venv_here == dev.install_commands(sys.executable)
    assert dev.INSTALL_MARKER.read_text().strip() == dev.install_hash()

    dev.ensure_venv()  # nothing changed: no pip
    assert len(venv_here) == 2

    dev.DEV_LOCK.write_text(dev.DEV_LOCK.read_text().replace("5.2.0", "5.2.1"))
    dev.ensure_venv()  # `dev.py lock` wrote a new version: installed again
    assert venv_here[2:] == dev.install_commands(sys.executable)


def test_the_install_marker_covers_pyproject_and_the_lock(dev, monkeypatch, tmp_path):
    before = dev.install_hash()
    lock = tmp_path / "requirements-dev.lock"
    lock.write_text("something else\n")
    monkeypatch.setattr(dev, "DEV_LOCK", lock)
    new_lock = dev.install_hash()
    assert new_lock != before
    monkeypatch.setattr(dev, "ROOT", tmp_path)
    (tmp_path / "pyproject.toml").write_text("[project]\n")
    assert dev.install_hash() not in (before, new_lock)


def test_lock_compiles_both_files_universal_with_hashes_and_the_build_backend(dev, monkeypatch):
    ran: list[tuple[list[str], str]] = []

    class Done:
        returncode = 0

    def run(args, *, cwd, input, text, check):
        ran.append((list(args), input))
        return Done()

    monkeypatch.setattr(dev, "ensure_venv", lambda: None)
    monkeypatch.setattr(dev, "venv_exe", lambda name: sys.executable)  # "uv" is there
    monkeypatch.setattr(dev.subprocess, "run", run)
    assert dev.main(["lock"]) == 0

    (runtime, stdin), (with_dev, _) = ran
    for args in (runtime, with_dev):
        assert args[1:3] == ["pip", "compile"]
        assert {"--universal", "--generate-hashes"} <= set(args)
        assert args[args.index("--python-version") + 1] == "3.11"
        assert "pyproject.toml" in args and "-" in args  # the build backend from stdin
    assert runtime[-2:] == ["-o", "requirements.lock"] and "--extra" not in runtime
    assert with_dev[-2:] == ["-o", "requirements-dev.lock"]
    assert with_dev[with_dev.index("--extra") + 1] == "dev"
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert stdin.split() == config["build-system"]["requires"]
    assert "--upgrade" not in runtime + with_dev  # the versions locked already stay

    ran.clear()
    assert dev.main(["lock", "--upgrade"]) == 0
    assert all("--upgrade" in args for args, _ in ran)


def test_a_requirement_missing_from_the_lock_is_named(dev, monkeypatch, tmp_path):
    assert dev.unlocked_requirements() == []  # the committed lock has them all
    lock = tmp_path / "requirements-dev.lock"
    lock.write_text(dev.DEV_LOCK.read_text().replace("\nopenskill==", "\nsomething-else=="))
    monkeypatch.setattr(dev, "DEV_LOCK", lock)
    assert dev.unlocked_requirements() == ["openskill"]
