"""The ratings kept up to date (issue 10): a refresh after any series of writes stores the
same numbers, exactly, as a rebuild from scratch; writes that can move the ratings queue
one `ratings_refresh` task after their commit, coalesced by the claim
(`RatingsLock.queued_at`); a real Celery worker on real Redis runs it.
"""

from __future__ import annotations

import datetime
import json
import logging
import os
import random
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any
from unittest import mock

import pytest
from django.db import connection, connections, transaction
from django.utils import timezone

from interchange.importer import competition_import
from rankings.models import PlayerRating, RatedGame, RatingChange, RatingsLock
from rankings.services import RATINGS, ratings_rebuild, ratings_refresh, ratings_refresh_queued
from rankings.tasks import ratings_refresh as ratings_refresh_task
from scoring.models import Game, Round
from scoring.services.games import game_totals_enter
from scoring.tasks import standings_refresh
from tests.builders import finished_game, kaps, pairs_game
from tests.factories import CompetitionFactory, GameFactory, MatchdayFactory, TeamEntryFactory
from tests.scoring.test_worker import ROOT, _database_url
from tests.seen import game_token_now
from tests.services import redis_broker
from tournaments.models import Matchday, Team
from troefclub.celery import app as celery_app
from troefclub.refresh import RefreshOnCommit

LONG_AGO = datetime.datetime(2026, 3, 1, 19, 0, tzinfo=datetime.UTC)
SAMPLE = ROOT / "data" / "club-evening-sample.json"

# Totals a director may enter for a game of a competition whose games can be closed: a win
# of either koppel, or a draw.
TOTALS = [(20, 12), (12, 20), (20, 0), (7, 20), (10, 10), (5, 5)]


def snapshot() -> dict[str, list[tuple[Any, ...]]]:
    """Every stored rating value (no row ids: a rebuild makes new rows)."""
    return {
        "games": list(RatedGame.objects.values_list("position", "game_id", "signature")),
        "changes": list(
            RatingChange.objects.order_by("rated_game__position", "player_id").values_list(
                "rated_game__position", "player_id", "mu", "sigma"
            )
        ),
        "players": list(
            PlayerRating.objects.order_by("player_id").values_list(
                "player_id", "mu", "sigma", "ordinal", "games"
            )
        ),
    }


def rebuilt() -> dict[str, list[tuple[Any, ...]]]:
    """What `ratings_rebuild` stores now; rolled back, so the refreshed rows stay."""
    with transaction.atomic():
        ratings_rebuild()
        found = snapshot()
        transaction.set_rollback(True)
    return found


# ---------------------------------------------------------------- rebuild == incremental


def _totals(game: Game, rng: random.Random) -> None:
    total_a, total_b = rng.choice(TOTALS)
    game_totals_enter(
        game_id=game.pk, total_a=total_a, total_b=total_b, seen=game_token_now(game_id=game.pk)
    )


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_refreshing_after_every_write_gives_exactly_the_rebuilt_ratings(db, seed):
    rng = random.Random(seed)
    league = CompetitionFactory.create(close_by_director_allowed=True)
    entries = [TeamEntryFactory.create(competition=league) for _ in range(8)]
    days = [
        MatchdayFactory.create(
            competition=league, number=n, date=datetime.date(2026, 9, 7 * n) if n > 1 else None
        )
        for n in range(1, 5)
    ]
    games: list[Game] = []
    for day in days:
        order = entries[:]
        rng.shuffle(order)
        games += [
            pairs_game(day, order[i], order[i + 1], table=i // 2 + 1, seated=False)
            for i in range(0, 8, 2)
        ]
    open_games, over_games = games[:], []
    replayed, steps = [], []

    for _ in range(30):
        step = rng.choice(["finish"] * 4 + ["correct", "move", "delete", "koppel"])
        if step == "finish" and open_games:
            game = open_games.pop(rng.randrange(len(open_games)))
            _totals(game, rng)
            over_games.append(game)
        elif step == "correct" and over_games:
            _totals(rng.choice(over_games), rng)  # new totals for a game over long ago
        elif step == "move":
            day = rng.choice(days)
            Matchday.objects.filter(pk=day.pk).update(  # as the admin does: no service
                date=rng.choice([None, datetime.date(2026, 8, rng.randrange(1, 29))])
            )
        elif step == "delete" and over_games:
            game = over_games.pop(rng.randrange(len(over_games)))
            Game.objects.filter(pk=game.pk).delete()
        elif step == "koppel":
            team = rng.choice(entries).team
            other = rng.choice(entries).team
            assert team is not None and other is not None
            if team != other and other.player_2_id not in (team.player_1_id, team.player_2_id):
                Team.objects.filter(pk=team.pk).update(player_2_id=other.player_2_id)
        else:
            continue
        steps.append(step)
        replayed.append(ratings_refresh())
        assert snapshot() == rebuilt(), (seed, steps)

    final = snapshot()
    assert final["changes"], "nothing was rated"
    # The incremental path was taken: some refreshes replayed less than every game.
    assert any(0 < count < len(final["games"]) for count in replayed), replayed
    assert ratings_refresh() == 0
    ratings_rebuild()
    assert snapshot() == final


def test_a_refresh_replays_only_from_the_first_game_that_changed(db):
    league = CompetitionFactory.create()
    day = MatchdayFactory.create(competition=league, date=datetime.date(2026, 10, 2))
    later = MatchdayFactory.create(competition=league, date=datetime.date(2026, 10, 9))
    e1, e2, e3, e4 = (TeamEntryFactory.create(competition=league) for _ in range(4))
    finished_game(pairs_game(day, e1, e2, table=1))
    finished_game(pairs_game(day, e3, e4, table=2))
    finished_game(pairs_game(later, e1, e3, table=1))
    assert ratings_refresh() == 3
    first_ids = list(RatedGame.objects.values_list("pk", flat=True))

    Matchday.objects.filter(pk=later.pk).update(date=datetime.date(2026, 10, 10))

    assert ratings_refresh() == 1  # its signature changed, the two before it did not
    assert list(RatedGame.objects.values_list("pk", flat=True))[:2] == first_ids[:2]


def test_deleting_the_last_rated_game_takes_it_out_of_its_players_ratings(db):
    first, last = GameFactory.create(), GameFactory.create()
    finished_game(first)
    finished_game(last, winner="b")
    assert ratings_refresh() == 2

    Round.objects.filter(game=last).delete()
    Game.objects.filter(pk=last.pk).delete()  # its rated game and changes go with it

    assert ratings_refresh() == 0  # nothing to rate again, but four ratings gone
    assert snapshot() == rebuilt()
    assert PlayerRating.objects.count() == 4


# ---------------------------------------------------------------- queued after the commit


@pytest.fixture
def delays(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The `ratings_refresh` tasks queued (the broker, recorded); standings ones dropped."""
    calls: list[int] = []
    monkeypatch.setattr(ratings_refresh_task, "delay", lambda: calls.append(1))
    monkeypatch.setattr(standings_refresh, "delay", lambda **kwargs: None)
    return calls


@pytest.fixture
def commit(django_capture_on_commit_callbacks: Any) -> Callable[[], Any]:
    """`with commit(): <writes>`: their on-commit callbacks run as their commit would."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def ratings_callback(callback: object) -> bool:
    """Whether an on-commit callback is the ratings refresh's (`troefclub.refresh`)."""
    return isinstance(callback, RefreshOnCommit) and callback.queue is RATINGS


def settled() -> None:
    """As after a refresh: the lock row there, no refresh queued."""
    RatingsLock.objects.update_or_create(pk=1, defaults={"queued_at": None})


def test_a_round_that_ends_a_game_queues_one_ratings_refresh(db, delays, commit):
    game = GameFactory.create()
    kaps(game, 3)
    settled()

    with commit() as callbacks:
        kaps(game, 1)  # 20–0: over

    assert delays == [1]
    assert sum(ratings_callback(c) for c in callbacks) == 1
    assert RatingsLock.objects.get(pk=1).queued_at is not None


def test_a_round_inside_an_open_game_queues_none(db, delays, commit):
    game = GameFactory.create()
    settled()

    with commit() as callbacks:
        kaps(game, 3)

    assert delays == []
    assert not any(ratings_callback(c) for c in callbacks)


def test_the_claim_coalesces_until_the_task_starts(db, delays, commit):
    games = [GameFactory.create() for _ in range(3)]
    settled()

    with commit():
        finished_game(games[0])
    with commit():
        finished_game(games[1])  # the first refresh hasn't started: it will see this one
    assert delays == [1]

    assert ratings_refresh_queued() == 2  # the task: releases the claim, rates both
    assert RatingsLock.objects.get(pk=1).queued_at is None
    with commit():
        finished_game(games[2])
    assert delays == [1, 1]


def test_a_transaction_of_many_results_claims_once(db, delays, commit):
    games = [GameFactory.create() for _ in range(4)]
    settled()

    with commit(), transaction.atomic():
        for game in games:
            finished_game(game)

    assert delays == [1]


def test_the_first_refresh_ever_makes_the_lock_row_claimed(db, delays, commit):
    game = GameFactory.create()
    kaps(game, 3)
    assert not RatingsLock.objects.exists()

    with commit():
        kaps(game, 1)

    assert delays == [1]
    assert RatingsLock.objects.get(pk=1).queued_at is not None


def test_a_claim_older_than_the_sweep_interval_is_taken_over(db, delays, commit, settings):
    settings.STANDINGS_SWEEP_SECONDS = 30
    game = GameFactory.create()
    RatingsLock.objects.create(pk=1, queued_at=LONG_AGO)  # a task lost with its worker

    with commit():
        finished_game(game)

    assert delays == [1]
    renewed = RatingsLock.objects.get(pk=1).queued_at
    assert renewed is not None and renewed > LONG_AGO


def test_a_broker_that_is_down_keeps_the_result_and_releases_the_claim(
    db, monkeypatch, commit, caplog
):
    game = GameFactory.create()
    settled()

    def broker_down() -> None:
        raise ConnectionError("broker down")

    monkeypatch.setattr(ratings_refresh_task, "delay", broker_down)
    monkeypatch.setattr(standings_refresh, "delay", lambda **kwargs: None)
    with caplog.at_level(logging.ERROR, logger="rankings.services"), commit():
        finished_game(game)

    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    assert "ratings_refresh not queued" in caplog.text
    assert RatingsLock.objects.get(pk=1).queued_at is None  # the next write tries again


def test_an_import_queues_one_ratings_refresh(db, delays, commit):
    settled()

    with commit():
        competition_import(data=json.loads(SAMPLE.read_text(encoding="utf-8")))

    assert delays == [1]
    assert ratings_refresh_queued() > 0


def test_the_task_releases_the_claim_and_refreshes(db):
    finished_game(GameFactory.create())
    RatingsLock.objects.create(pk=1, queued_at=timezone.now())

    assert ratings_refresh_task.apply().get() == 1

    assert RatingsLock.objects.get(pk=1).queued_at is None
    assert RatingsLock.objects.get(pk=1).refreshed_at is not None
    assert ratings_refresh_task.apply().get() == 0  # idempotent


def test_beat_runs_the_ratings_refresh_every_sweep_interval(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["ratings-refresh"]
    assert entry["task"] == ratings_refresh_task.name == "rankings.tasks.ratings_refresh"
    assert entry["schedule"] == datetime.timedelta(seconds=settings.STANDINGS_SWEEP_SECONDS)
    assert entry["options"]["expires"] == settings.STANDINGS_SWEEP_SECONDS


@pytest.mark.django_db(transaction=True)
def test_a_write_committing_during_a_refresh_queues_one_without_waiting():
    if connection.vendor != "postgresql":
        pytest.skip("SKIP LOCKED is PostgreSQL's (SQLite has one writer at a time)")
    RatingsLock.objects.create(pk=1)
    locked, release = threading.Event(), threading.Event()

    def refresh_running() -> None:  # another connection holds the row, as a refresh does
        try:
            with transaction.atomic():
                RatingsLock.objects.select_for_update().get(pk=1)
                locked.set()
                release.wait(30)
        finally:
            connections.close_all()

    holder = threading.Thread(target=refresh_running)
    holder.start()
    try:
        assert locked.wait(30)
        with mock.patch.object(ratings_refresh_task, "delay") as delay:
            started = time.monotonic()
            RATINGS.enqueue(RATINGS.fixed_key)
            waited = time.monotonic() - started
        # The running refresh may have read the games before this write: one more is
        # queued, unclaimed (the row is locked), and nothing waited for the lock.
        assert delay.call_count == 1
        assert waited < 5
    finally:
        release.set()
        holder.join(30)
    assert RatingsLock.objects.get(pk=1).queued_at is None


# ---------------------------------------------------------------- a real worker


@pytest.fixture
def worker_process(tmp_path) -> Iterator[tuple[subprocess.Popen[bytes], Any]]:
    """`celery -A troefclub worker` on the test database and CELERY_BROKER_URL (as
    tests/scoring/test_worker.py starts its first one); fails under CI=true without them."""
    broker = redis_broker()
    database_url = _database_url()
    celery_app.control.purge()  # tasks left by an earlier run
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": broker,
        "SECRET_KEY": os.environ.get("SECRET_KEY", "worker-test-not-secret"),
        "DEBUG": "false",
    }
    log_path = tmp_path / "worker.log"
    log = log_path.open("w")
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "troefclub", "worker", "--pool=solo",
         "--loglevel=info", "--without-gossip", "--without-mingle", "--without-heartbeat"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        yield worker, log_path
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()
        log.close()


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_rates_the_games_a_commit_finished(worker_process):
    worker, log_path = worker_process
    competition = CompetitionFactory.create()
    games = [GameFactory.create(competition=competition) for _ in range(2)]
    with transaction.atomic():  # two games over in one transaction: one ratings refresh
        for game in games:
            finished_game(game)

    deadline = time.monotonic() + 90
    while RatedGame.objects.count() < 2:
        assert worker.poll() is None, log_path.read_text()
        if time.monotonic() > deadline:
            pytest.fail("no ratings from the worker:\n" + log_path.read_text())
        time.sleep(0.5)

    made_by_worker = snapshot()
    assert len(made_by_worker["players"]) == 8
    assert {row[4] for row in made_by_worker["players"]} == {1}
    assert RatingsLock.objects.get(pk=1).queued_at is None  # the task released its claim
    ratings_rebuild()
    assert snapshot() == made_by_worker
    log_text = log_path.read_text()
    received = re.findall(r"Task rankings\.tasks\.ratings_refresh\[[-0-9a-f]+\] received", log_text)
    assert len(received) == 1, log_text
