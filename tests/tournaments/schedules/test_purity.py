"""The schedules are pure like the rules engine (DESIGN.md "Rules engine first"): standard
library, `scoring.rules` and themselves only, plus networkx in swiss.py (the issue: "use
an established matching algorithm (networkx's maximum-weight matching)")."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.imports import imports_of
from tests.paths import REPO_ROOT

SCHEDULES = sorted((REPO_ROOT / "tournaments" / "schedules").glob("*.py"))


def _imports(path: Path) -> set[str]:
    """The modules a schedule module imports (`from a import b` counts as a; the walker of
    tests/imports.py gives a.b, which may be a name in a)."""
    return {
        imported.module.rpartition(".")[0] if imported.from_import else imported.module
        for imported in imports_of(path.read_text(encoding="utf-8"))
    }


def _allowed(module: str, path: Path) -> bool:
    top = module.split(".")[0]
    if module == "networkx":
        return path.name == "swiss.py"
    return (
        top in sys.stdlib_module_names
        or module == "scoring.rules"
        or module.startswith("tournaments.schedules")
    )


def test_there_are_schedule_modules() -> None:
    assert {path.name for path in SCHEDULES} >= {"round_robin.py", "swiss.py", "movement.py"}


@pytest.mark.parametrize("path", SCHEDULES, ids=lambda path: path.name)
def test_schedule_module_imports_only_stdlib_rules_and_networkx(path: Path) -> None:
    forbidden = sorted(module for module in _imports(path) if not _allowed(module, path))
    assert forbidden == []


def test_importing_schedules_loads_no_django() -> None:
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    code = (
        "import tournaments.schedules, sys; "
        "assert not [m for m in sys.modules if m.split('.')[0] in ('django', 'celery')]"
    )
    completed = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
