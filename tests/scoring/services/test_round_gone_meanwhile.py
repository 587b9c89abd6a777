"""A round deleted between the read that finds its game and the game's lock (issue 9, point
8): the write looks the round up again under the lock and refuses with `round_unknown`, a
message on the page rather than a 500.

The deletion is made inside the write's own transaction (just before the lock), so the
refusal rolls it back too: these tests check the refusal, not what is stored after it."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Game, Round
from scoring.rules import RuleViolation
from scoring.services import rounds
from tests.builders import record
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def gone_at_lock(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Make the next game lock delete round `round_id` first, as another screen would have
    between the write's first read and its lock."""

    def arm(round_id: int) -> None:
        lock = rounds.game_locked

        def deleted_first(game_id: int) -> Game:
            Round.objects.filter(pk=round_id).delete()
            return lock(game_id)

        monkeypatch.setattr(rounds, "game_locked", deleted_first)

    return arm


def test_a_correction_of_a_round_deleted_meanwhile_is_round_unknown(gone_at_lock: Any) -> None:
    game = GameFactory.create()
    record(game)
    second = record(game, side="b")
    gone_at_lock(second.pk)
    with pytest.raises(RuleViolation) as caught:
        rounds.round_correct(round_id=second.pk, result="kap", side="a", seen=second.token)
    assert (caught.value.code, caught.value.params) == ("round_unknown", {"round_id": second.pk})


def test_a_delete_of_a_round_deleted_meanwhile_is_round_unknown(gone_at_lock: Any) -> None:
    game = GameFactory.create()
    record(game)
    second = record(game, side="b")
    gone_at_lock(second.pk)
    with pytest.raises(RuleViolation) as caught:
        rounds.round_delete(round_id=second.pk, seen=second.token)
    assert (caught.value.code, caught.value.params) == ("round_unknown", {"round_id": second.pk})


@pytest.mark.parametrize(
    ("name", "data", "status", "says"),
    [
        pytest.param(
            "round_edit",
            {"result": "kap", "side": "a"},
            422,
            "That round does not exist (any more).",
            id="correct",
        ),
        pytest.param("round_delete", {}, 200, "That round is no longer on the sheet", id="delete"),
    ],
)
def test_the_sheet_says_the_round_is_gone_rather_than_failing(
    director_client: Client,
    gone_at_lock: Any,
    name: str,
    data: dict[str, str],
    status: int,
    says: str,
) -> None:
    game = GameFactory.create()
    record(game)
    last = record(game, side="b")
    slug = game.match.matchday.competition.slug
    gone_at_lock(last.pk)
    response = director_client.post(
        reverse(name, kwargs={"slug": slug, "game_id": game.pk, "round_id": last.pk}),
        {**data, "seen": last.token},
        follow=True,
    )
    assert response.status_code == status
    assert says in response.content.decode()
