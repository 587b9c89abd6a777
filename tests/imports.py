"""Reading what a source file imports, for the tests that hold the layers (the rules engine's
purity, the schedules' purity, the one direction between apps): one walker for all of them.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from tests.paths import REPO_ROOT


@dataclass(frozen=True, slots=True)
class Imported:
    """One module a file imports: `module` dotted (`from a.b import c` gives a.b.c, which
    may be a module or a name in a.b: `from_import` says it came so), at `line` of the
    file."""

    module: str
    line: int
    from_import: bool = False


def imports_of(source: str, *, package: str = "") -> list[Imported]:
    """Every module `source` imports, anywhere in it (a function's own import too), in the
    order written. `package` (dotted) resolves relative imports (`from . import x`); without
    it they are left out. `from a import b` gives both a.b and, as written, nothing of a
    alone: the name may be a module, and importing it loads `a` anyway."""
    found: list[Imported] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.extend(Imported(alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                if not package:
                    continue
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                assert node.module is not None
                module = node.module
            found.extend(
                Imported(f"{module}.{alias.name}", node.lineno, from_import=True)
                for alias in node.names
            )
    return sorted(found, key=lambda imported: imported.line)


def module_of(path: Path) -> str:
    """The dotted module of a file of the repository (`scoring/services/rounds.py` gives
    scoring.services.rounds; a package's `__init__.py` gives the package)."""
    parts = list(path.resolve().relative_to(REPO_ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)
