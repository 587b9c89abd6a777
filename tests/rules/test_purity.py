"""The rules engine is standard library only (scoring/rules/__init__.py, STYLE.md "pure").

Nothing in `scoring/rules/` may import Django, Celery, or any other part of our apps:
only the standard library and `scoring.rules.*` itself.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.imports import imports_of
from tests.paths import REPO_ROOT

RULES_DIR = REPO_ROOT / "scoring" / "rules"
RULES_FILES = sorted(RULES_DIR.glob("*.py"))


def _imported_modules(source: str) -> list[str]:
    """Every absolute module a source file imports, dotted (`from a.b import c` gives a.b.c;
    the walker of tests/imports.py, shared with the layer test); a relative import stays
    inside scoring/rules/ and is left out."""
    return [imported.module for imported in imports_of(source)]


def _allowed(module: str) -> bool:
    top = module.split(".")[0]
    if top == "scoring":
        return module == "scoring.rules" or module.startswith("scoring.rules.")
    return top in sys.stdlib_module_names


def test_rules_package_has_python_files() -> None:
    assert RULES_FILES, f"no .py files found in {RULES_DIR}"


@pytest.mark.parametrize("path", RULES_FILES, ids=lambda path: path.name)
def test_rules_module_imports_only_stdlib_and_scoring_rules(path: Path) -> None:
    # scoring/rules/__init__.py: "Nothing here imports Django, Celery or our apps".
    modules = _imported_modules(path.read_text(encoding="utf-8"))
    forbidden = [module for module in modules if not _allowed(module)]
    assert forbidden == [], f"{path.name} imports non-stdlib modules: {forbidden}"


@pytest.mark.parametrize(
    ("source", "allowed"),
    [
        pytest.param("import dataclasses", True, id="stdlib"),
        pytest.param("from __future__ import annotations", True, id="future"),
        pytest.param("from scoring.rules.types import Side", True, id="scoring-rules"),
        pytest.param("from . import types", True, id="relative"),
        pytest.param("import django", False, id="django"),
        pytest.param("from celery import shared_task", False, id="celery"),
        pytest.param("import scoring.models", False, id="scoring-models"),
        pytest.param("from scoring import models", False, id="from-scoring-import-models"),
        pytest.param(
            "from troefclub.rule_messages import rule_message", False, id="the-rules-words"
        ),
    ],
)
def test_purity_checker_tells_allowed_from_forbidden_imports(source: str, allowed: bool) -> None:
    # Guards the checker above: a test that can't fail proves nothing.
    assert all(_allowed(module) for module in _imported_modules(source)) is allowed


def test_importing_rules_loads_neither_django_nor_celery() -> None:
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    env.pop("PYTHONPATH", None)
    code = (
        "import scoring.rules, sys; "
        "assert 'django' not in sys.modules and 'celery' not in sys.modules, "
        "sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'celery'))"
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
