"""Fixtures of the API's tests."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from scoring.models import Game
from tests.factories import CompetitionFactory, GameFactory


@pytest.fixture(autouse=True)
def _throttles_emptied() -> None:
    # The API's throttles count in the default cache: each test starts uncounted.
    cache.clear()


@pytest.fixture
def game(db: None) -> Game:
    """A game under the standard rules (target 20), four players seated."""
    return GameFactory.create(competition=CompetitionFactory.create())
