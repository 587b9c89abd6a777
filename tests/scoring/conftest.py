"""Fixtures for service and task tests: games with four seated players."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from scoring.models import Game
from tests.factories import CompetitionFactory, GameFactory


@pytest.fixture
def make_game(db: None) -> Callable[..., Game]:
    """`make_game(**rule_options)`: a fresh game of a new competition with those options."""

    def make(**competition_options: Any) -> Game:
        competition = CompetitionFactory.create(**competition_options)
        return GameFactory.create(competition=competition)

    return make


@pytest.fixture
def game(make_game: Callable[..., Game]) -> Game:
    """A game under the standard rules (target 20, kap by partner 2, redeal allowed)."""
    return make_game()
