"""Fixtures of the admin tests of scoring. `game` here is the game among a row of every
model in the admin (`tests.admin_scenes.admin_scene`), not the bare game of
tests/scoring/conftest.py: the admin's pages need a row of each model to open."""

from __future__ import annotations

import pytest

from scoring.models import Game
from tests.admin_scenes import admin_scene


@pytest.fixture
def game() -> Game:
    """The game of `admin_scene`, among a row of every model in the admin."""
    return admin_scene()
