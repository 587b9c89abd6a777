"""`python3 dev.py test [--fast]`: the pytest arguments it builds, without running the suite.

dev.py is a script (standard library only), loaded here from its file as the README runs it.
"""

from __future__ import annotations

import importlib.util
import tomllib
from types import ModuleType

import pytest

from tests.paths import REPO_ROOT as ROOT

FAST = "not e2e and not worker and not backup and not slow and not heavy"


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
