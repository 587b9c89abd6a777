"""Two scorers saving a round of the same game at the same moment (PostgreSQL row locks)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from scoring.rules import RuleViolation
from scoring.services.rounds import round_record
from tests.factories import GameFactory


@pytest.mark.django_db(transaction=True)
def test_two_phones_saving_round_one_at_once_save_it_once():
    # Both sheets show round 1; the row lock puts the two saves one after the other and the
    # second finds round 1 taken (its form's number is checked under the lock): one round,
    # one refusal in words, no duplicate number and no database error.
    if connection.vendor != "postgresql":
        pytest.skip("row locks are what is tested; SQLite locks the whole file")
    game = GameFactory.create()
    start = threading.Barrier(2)
    refused: list[str] = []
    errors: list[BaseException] = []

    def scorer(side: str) -> None:
        try:
            start.wait()
            round_record(game_id=game.pk, expected_number=1, result="gewone_winst", side=side)
        except RuleViolation as exc:
            refused.append(exc.code)
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
    assert refused == ["sheet_changed"]
    assert list(game.rounds.values_list("number", flat=True)) == [1]
    game.refresh_from_db()
    assert sorted((game.score_a, game.score_b)) == [0, 2]
