"""Replacing a function for a test wherever the app's modules hold it.

A function is imported by name into the modules that call it (`from scoring.selectors.standings
import competition_table`), so replacing it in the module that defines it doesn't reach
its callers. `patch_everywhere` replaces every reference the app's modules hold.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import pytest

APPS = ("troefclub.", "tournaments.", "scoring.", "rankings.", "interchange.", "api.")


def patch_everywhere(
    monkeypatch: pytest.MonkeyPatch, original: Callable[..., Any], replacement: Any
) -> int:
    """Set `replacement` in place of `original` in every loaded module of the apps that holds
    it (undone by `monkeypatch` after the test). Returns how many modules held it; a test
    asserts it is not 0 so that a rename can't make it patch nothing."""
    held = 0
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith(APPS):
            continue
        for attribute, value in list(vars(module).items()):
            if value is original:
                monkeypatch.setattr(module, attribute, replacement)
                held += 1
    return held
