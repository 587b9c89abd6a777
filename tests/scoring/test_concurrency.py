"""Two scorers saving a round of the same game at the same moment (PostgreSQL row locks)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from scoring.services import round_record
from tests.factories import GameFactory


@pytest.mark.django_db(transaction=True)
def test_simultaneous_rounds_are_numbered_one_after_the_other():
    if connection.vendor != "postgresql":
        pytest.skip("row locks are what is tested; SQLite locks the whole file")
    game = GameFactory.create()
    start = threading.Barrier(2)
    errors: list[BaseException] = []

    def scorer(side: str) -> None:
        try:
            start.wait()
            round_record(game_id=game.pk, result="gewone_winst", side=side)
        except BaseException as exc:  # collected and asserted below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=scorer, args=(side,)) for side in "ab"]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    assert errors == []
    assert sorted(game.rounds.values_list("number", flat=True)) == [1, 2]
    game.refresh_from_db()
    assert (game.score_a, game.score_b) == (2, 2)
