"""The request that ends a game (issue 20): the round that finishes it, posted through the
director's score sheet and through the table link (the phone's queued round), costs the
same queries in a small and a bigger competition, within a budget. The refreshes it owes
are claimed and queued after the commit (counted here, the broker replaced by a
recorder), never run in the request.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from benchmarks.generate import random_game
from benchmarks.load_run import round_form, table_round_body
from rankings.models import RatingsLock, SeasonRankingState
from rankings.services import LOCK_PK
from scoring.models import Game
from scoring.services.rounds import RoundRecord, game_rounds_load
from scoring.services.table import game_links_ensure
from tests.factories import UserFactory
from tests.test_query_budgets import build
from tournaments.models import StandingsRefreshClaim
from troefclub import refresh

pytestmark = pytest.mark.django_db

SIZES = (4, 24)  # koppels
# The game-ending round's queries now on PostgreSQL (SQLite: one less, no FOR KEY SHARE
# of the competition), after-commit claims included. Before issue 20: the sheet 31, the
# table link 40 (its game locked and its rounds read again in a savepoint, its token read
# back, its rounds counted, and both doors read the game whole again for the answer).
BUDGETS = {"sheet": 28, "table": 30}


def _ending_game(koppels: int) -> tuple[Any, Game, dict[str, str]]:
    """A competition of `koppels` (`tests.test_query_budgets.build`) and its open game,
    played to the round before its last; returns them and that last round."""
    built = build(koppels)
    game = Game.objects.get(match__matchday__competition=built.competition, status="open")
    rounds = random_game(random.Random(koppels))
    game_rounds_load(
        game_id=game.pk,
        rounds=[RoundRecord(result=r["result"], side=r["side"]) for r in rounds[:-1]],
    )
    return built, game, rounds[-1]


def _no_refresh_queued(built: Any) -> None:
    """Every claim the round will ask for there and let go (`troefclub.refresh`): no
    refresh queued, as after the workers took the last ones; the round then claims and
    queues each, the most it can cost."""
    competition = built.competition
    StandingsRefreshClaim.objects.update_or_create(
        competition=competition, defaults={"queued_at": None}
    )
    RatingsLock.objects.update_or_create(pk=LOCK_PK, defaults={"queued_at": None})
    SeasonRankingState.objects.update_or_create(
        season=competition.season, defaults={"queued_at": None}
    )


def _post_sheet(client: Client, built: Any, game: Game, last: dict[str, str]) -> Any:
    director = UserFactory.create()
    built.competition.directors.add(director)
    client.force_login(director)
    url = reverse("game_sheet", kwargs={"slug": built.competition.slug, "game_id": game.pk})
    form = round_form(client.get(url).content.decode())
    data = {**form.fields, "result": last["result"], "side": last["side"]}

    def post() -> Any:
        return client.post(str(form.action), data, headers={"HX-Request": "true"})

    return post


def _post_table(client: Client, built: Any, game: Game, last: dict[str, str]) -> Any:
    url = reverse(
        "table_sheet", kwargs={"token": game_links_ensure(game_ids=[game.pk])[game.pk]["a"].token}
    )
    body = table_round_body(client.get(url).content.decode(), last)

    def post() -> Any:
        return client.post(url + "round/", body, headers={"Accept": "application/json"})

    return post


def _ending_round_queries(
    door: str, koppels: int, client: Client, monkeypatch: pytest.MonkeyPatch, capture: Any
) -> tuple[int, list[str]]:
    """The queries of the request that ends a game of a competition of `koppels`, its
    after-commit claims included, and the refreshes it queued (by queue name)."""
    built, game, last = _ending_game(koppels)
    post = (_post_sheet if door == "sheet" else _post_table)(client, built, game, last)
    _no_refresh_queued(built)
    sent: list[str] = []
    for queue in refresh._queues.values():
        monkeypatch.setattr(queue, "send", lambda key, name=queue.name: sent.append(name))
    with CaptureQueriesContext(connection) as captured, capture(execute=True):
        response = post()
    assert response.status_code == 200, response.content[:500]
    if door == "table":
        assert json.loads(response.content)["stored"] is True
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return len(captured.captured_queries), sent


@pytest.mark.parametrize("door", ["sheet", "table"])
def test_the_request_that_ends_a_game_is_flat_and_in_budget(
    door: str, client: Client, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks
) -> None:
    counts, queued = [], []
    for koppels in SIZES:
        count, sent = _ending_round_queries(
            door, koppels, client, monkeypatch, django_capture_on_commit_callbacks
        )
        counts.append(count)
        queued.append(sent)
    small, large = counts
    assert small == large, f"{door}: {small} queries at {SIZES[0]} koppels, {large} at {SIZES[1]}"
    print(f"{door}: {counts} queries")  # noqa: T201 - the note reads them
    assert large <= BUDGETS[door], f"{door}: {large} queries, budget {BUDGETS[door]}"
    # Queued after the commit, once each: the standings and what follows them.
    assert queued == [["standings", "ratings", "season_rankings"]] * 2
