"""The apps import one way (DESIGN.md "Apps import one way"; README "The house").

Every module of the project belongs to one layer, named by the longest dotted prefix that
matches it in LAYERS; a module may import its own layer and the layers before it, never a
later one. The order, first to last:

- the rules engine (`scoring.rules`): standard library only (tests/rules/test_purity.py);
- the core (`troefclub`): settings, access, page, table and admin helpers, the refresh
  queue, the words of the rules;
- `tournaments`: the registry and the calendar (clubs, players, koppels, competitions,
  entries, matchdays, matches, squads, deductions);
- `scoring`: play and its pages (games, rounds, table links, standings, score sheets,
  schedules, boards, exports);
- `rankings`: players, koppels and clubs over seasons (rankings, ratings, their pages);
- `interchange`: the competition file, in and out;
- the project's wiring (`troefclub.urls`, which includes every app's URLs).

A test failure names the file, the line and the import that runs against the order.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.imports import REPO_ROOT, imports_of, module_of

LAYERS: tuple[tuple[str, ...], ...] = (
    ("scoring.rules",),
    ("troefclub",),
    ("tournaments",),
    ("scoring",),
    ("rankings",),
    ("interchange",),
    ("api",),
    ("troefclub.urls",),
)
OURS = ("troefclub", "tournaments", "scoring", "rankings", "interchange", "api")


def layer_of(module: str) -> int | None:
    """The position in LAYERS of `module`'s layer (longest matching prefix), None for a
    module that is not ours (Django, the standard library, …)."""
    best: tuple[int, int] | None = None
    for position, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            matches = module == prefix or module.startswith(prefix + ".")
            if matches and (best is None or len(prefix) > best[0]):
                best = (len(prefix), position)
    return None if best is None else best[1]


def wrong_imports(path: Path, source: str) -> list[str]:
    """The imports of `source` (the file at `path`) that run against LAYERS, as
    "file:line imports module (layer) from layer"."""
    here = module_of(path)
    mine = layer_of(here)
    assert mine is not None, f"{here} belongs to no layer"
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found = []
    for imported in imports_of(source, package=package):
        theirs = layer_of(imported.module)
        if theirs is not None and theirs > mine:
            found.append(
                f"{path.relative_to(REPO_ROOT)}:{imported.line} imports {imported.module}"
                f" ({'/'.join(LAYERS[theirs])}), a later layer than {'/'.join(LAYERS[mine])}"
            )
    return found


SOURCES = sorted(path for app in OURS for path in (REPO_ROOT / app).rglob("*.py"))


def test_every_app_has_sources() -> None:
    assert {path.relative_to(REPO_ROOT).parts[0] for path in SOURCES} == set(OURS)


def test_no_module_imports_a_later_layer() -> None:
    wrong = [line for path in SOURCES for line in wrong_imports(path, path.read_text("utf-8"))]
    assert wrong == [], "imports against the order of the layers:\n" + "\n".join(wrong)


@pytest.mark.parametrize(
    ("file", "source", "wrong"),
    [
        pytest.param(
            "tournaments/models/clubs.py",
            "from scoring.models import Game",
            True,
            id="tournaments-to-scoring",
        ),
        pytest.param(
            "scoring/services/rounds.py",
            "from rankings.services import ratings_refresh",
            True,
            id="scoring-to-rankings",
        ),
        pytest.param(
            "scoring/services/rounds.py",
            "def f():\n    import rankings.models\n",
            True,
            id="inside-a-function",
        ),
        pytest.param(
            "troefclub/pages.py", "from tournaments import models", True, id="core-to-app"
        ),
        pytest.param(
            "scoring/rules/game.py",
            "from troefclub.rule_messages import rule_message",
            True,
            id="engine-to-core",
        ),
        pytest.param(
            "scoring/views/sheet.py",
            "from tournaments.models import Match",
            False,
            id="scoring-to-tournaments",
        ),
        pytest.param(
            "tournaments/models/clubs.py",
            "from scoring.rules import RuleSet",
            False,
            id="to-the-engine",
        ),
        pytest.param("troefclub/urls.py", "from django.urls import include", False, id="not-ours"),
        pytest.param("troefclub/urls.py", "import rankings.urls", False, id="the-wiring"),
    ],
)
def test_the_walker_finds_a_planted_wrong_import(file: str, source: str, wrong: bool) -> None:
    # Guards the test above: a layer test that can't fail proves nothing.
    found = wrong_imports(REPO_ROOT / file, source)
    assert bool(found) is wrong, found
    if wrong:
        assert found[0].startswith(f"{file}:"), found
