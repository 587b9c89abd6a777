"""Two identical keyed requests at once write once (issue 21).

On PostgreSQL the two requests run in two threads, each with its own connection: the
second waits on the first's Idempotency-Key row (the unique constraint) or, for a round,
on the game's row lock, then answers what the first wrote. SQLite locks the whole file, so
there the same two requests run one after the other: the same assertions hold.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections
from django.test import Client

from api.models import IdempotencyRecord
from scoring.models import Game, Round
from tests.api.writes_helpers import bearer, director_token, post
from tests.factories import CompetitionFactory, GameFactory
from tests.seen import game_token_now

pytestmark = pytest.mark.django_db(transaction=True)


def twice_at_once(send: Callable[[], Any]) -> list[Any]:
    """`send()` twice, at the same moment on PostgreSQL (two threads), else in turn."""
    if connection.vendor != "postgresql":
        return [send(), send()]
    start = threading.Barrier(2)
    answers: list[Any] = []
    errors: list[BaseException] = []

    def sender() -> None:
        try:
            start.wait()
            answers.append(send())
        except BaseException as exc:  # collected and asserted below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=sender) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    return answers


def test_two_identical_keyed_totals_at_once_write_once():
    game = GameFactory.create()
    token = bearer(director_token(game.match.matchday.competition))
    key = uuid.uuid4()
    body = {"total_a": 20, "total_b": 4, "version": game_token_now(game_id=game.pk)}
    history = Game.history.filter(id=game.pk).count()

    answers = twice_at_once(
        lambda: post(Client(), f"games/{game.pk}/totals/", body, auth=token, key=key)
    )

    assert sorted(answer.status_code for answer in answers) == [200, 200]
    assert answers[0].json() == answers[1].json()
    replayed = [answer.get("Idempotent-Replayed") for answer in answers]
    assert sorted(replayed, key=str) == [None, "true"]  # one wrote, the other was told
    assert Game.history.filter(id=game.pk).count() == history + 1
    assert IdempotencyRecord.objects.filter(key=str(key)).count() == 1


def test_two_identical_keyed_rounds_at_once_store_one_round():
    game = GameFactory.create(competition=CompetitionFactory.create())
    token = bearer(director_token(game.match.matchday.competition))
    key = uuid.uuid4()
    body = {"number": 1, "result": "gewone_winst", "side": "a"}
    body["version"] = game_token_now(game_id=game.pk)

    answers = twice_at_once(
        lambda: post(Client(), f"games/{game.pk}/rounds/record/", body, auth=token, key=key)
    )

    assert sorted(answer.status_code for answer in answers) == [200, 201]
    assert sorted(answer.json()["already"] for answer in answers) == [False, True]
    assert Round.objects.filter(game=game).count() == 1
    assert Round.history.filter(game_id=game.pk).count() == 1
