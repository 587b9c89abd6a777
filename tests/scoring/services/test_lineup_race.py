"""A lineup change (or a swap) and a round recorded at the table at the same moment (issue
19, item 1): they take turns on the game's row lock, so neither a database error (the
IntegrityError on `scoring_round.link_id`, a deadlock) nor a lost round can happen.
PostgreSQL row locks between two connections; SQLite has one writer at a time.

Each test holds one side in the middle of its transaction, starts the other, waits until
the database says that one is waiting for a lock (no timing), and lets the first go on.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections
from django.test import Client
from django.urls import reverse

from scoring.models import Game
from scoring.rules import RuleViolation
from scoring.services import lineups, rounds
from scoring.services.lineups import club_match_lineup_set
from scoring.services.matches import matchday_entries_swap
from scoring.services.schedule import schedule_round_robin_create
from scoring.services.table import game_links_ensure, table_round_record
from tests.builders import club_competition, koppels_of, pairs_competition
from tests.seen import match_token_now, matchday_token
from tournaments.models import Match, Team

pytestmark = pytest.mark.django_db(transaction=True)


def _postgresql_only() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("row locks between two connections: PostgreSQL only")


def lineup(match: Match, home: list[Team], away: list[Team]) -> Match:
    return club_match_lineup_set(
        match_id=match.pk,
        home_teams=[team.pk for team in home],
        away_teams=[team.pk for team in away],
        seen=match_token_now(match_id=match.pk),
    )


@pytest.fixture
def scene() -> tuple[Match, list[Team], list[Team], Game, str]:
    """A club match with two koppels a side set (four games, links made) and the game of
    home's second koppel against away's first, with koppel A's link token."""
    _postgresql_only()
    competition = club_competition()
    schedule_round_robin_create(competition_id=competition.pk)
    match = Match.objects.get(matchday__competition=competition, matchday__number=1)
    home, away = koppels_of(match.home), koppels_of(match.away)
    lineup(match, home[:2], away[:2])
    games = list(Game.objects.filter(match=match))
    links = game_links_ensure(game_ids=[game.pk for game in games])
    game = next(g for g in games if (g.team_a_id, g.team_b_id) == (home[1].pk, away[0].pk))
    return match, home, away, game, links[game.pk]["a"].token


class Held:
    """A step of one thread's transaction that stops, once, until `release()`: `reached`
    is set when the thread is there."""

    def __init__(self, step: Callable[..., Any]) -> None:
        self.step = step
        self.reached, self.go_on = threading.Event(), threading.Event()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        result = self.step(*args, **kwargs)
        if not self.reached.is_set():
            self.reached.set()
            assert self.go_on.wait(60)
        return result


class Worker(threading.Thread):
    """`call()` in its own connection; its outcome in `outcome` ("done", a RuleViolation
    code, or the error), its database process in `pid`."""

    def __init__(self, call: Callable[[], Any]) -> None:
        super().__init__()
        self.call, self.pid, self.outcome, self.result = call, 0, "", None

    def run(self) -> None:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                self.pid = cursor.fetchone()[0]
            self.result = self.call()
            self.outcome = "done"
        except RuleViolation as exc:
            self.outcome = exc.code
        except BaseException as exc:  # collected and asserted by the test
            self.outcome = repr(exc)
        finally:
            connections.close_all()


def waiting_for_a_lock(worker: Worker) -> bool:
    """Wait until `worker` waits for a row lock (True) or has finished (False)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if not worker.is_alive():
            return False
        if worker.pid:
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [worker.pid]
                )
                row = cursor.fetchone()
            if row is not None and row[0] == "Lock":
                return True
        time.sleep(0.02)
    raise AssertionError("the worker neither waited nor finished")


def in_turn(first: Worker, second: Worker, held: Any) -> None:
    """Run `first` until it holds its locks (`held.reached`), then `second` until it waits
    for them; let `first` go on, and wait for both to finish."""
    first.start()
    assert held.reached.wait(60)
    second.start()
    assert waiting_for_a_lock(second)
    held.go_on.set()
    first.join(60)
    second.join(60)


def test_a_lineup_change_waits_for_a_tables_first_round_and_is_refused_cleanly(scene, monkeypatch):
    """The table's first round is in flight (stored, not committed) when the director
    saves a lineup without the game's home koppel: the lineup waits for the round's
    commit, then sees it and is refused; the round and every game stay."""
    match, home, away, game, token = scene
    held = Held(rounds.game_state_store)
    monkeypatch.setattr(rounds, "game_state_store", held)
    games = sorted(Game.objects.filter(match=match).values_list("pk", flat=True))
    table = Worker(
        lambda: table_round_record(token=token, expected_number=1, result="gewone_winst", side="a")
    )
    director = Worker(lambda: lineup(match, [home[0], home[2]], away[:2]))

    in_turn(table, director, held)

    assert (table.outcome, director.outcome) == ("done", "match_has_results")
    assert list(game.rounds.values_list("number", "link__token")) == [(1, token)]
    assert sorted(Game.objects.filter(match=match).values_list("pk", flat=True)) == games


def test_a_round_sent_while_a_lineup_removes_its_game_finds_the_link_gone(scene, monkeypatch):
    """The lineup change is in flight (the game deleted, not committed) when the table
    sends a round through the game's link: the round waits, then finds the link gone and
    the page says so (the friendly 404), never a 500."""
    match, home, away, game, token = scene
    held = Held(lineups.standings_refresh_on_commit)
    monkeypatch.setattr(lineups, "standings_refresh_on_commit", held)
    director = Worker(lambda: lineup(match, [home[0], home[2]], away[:2]))
    url = reverse("table_sheet", kwargs={"token": token})
    table = Worker(
        lambda: Client().post(url, {"action": "round", "number": 1, "quick": "a"}).status_code
    )

    in_turn(director, table, held)

    assert (director.outcome, table.outcome, table.result) == ("done", "done", 404)
    assert not Game.objects.filter(pk=game.pk).exists()
    assert Game.objects.filter(match=match).count() == 4


def test_a_round_sent_while_a_lineup_keeps_its_game_is_stored(scene, monkeypatch):
    """The lineup change in flight keeps the game (its koppels still meet): the round
    waits for it, then is stored through the same link."""
    match, home, away, game, token = scene
    held = Held(lineups.standings_refresh_on_commit)
    monkeypatch.setattr(lineups, "standings_refresh_on_commit", held)
    director = Worker(lambda: lineup(match, home[:2], [away[0], away[2]]))
    table = Worker(
        lambda: table_round_record(token=token, expected_number=1, result="kap", side="a")
    )

    in_turn(director, table, held)

    assert (director.outcome, table.outcome) == ("done", "done")
    assert list(game.rounds.values_list("number", "link__token")) == [(1, token)]


def test_a_swap_waits_for_a_tables_first_round_and_is_refused_cleanly(monkeypatch):
    """The same race on a pairs matchday: the first round of a match's game is in flight
    when the director swaps one of its entries away; the swap waits for it, then is
    refused, and the game and its round stay."""
    _postgresql_only()
    competition = pairs_competition(4, schedule_format="round_robin")
    schedule_round_robin_create(competition_id=competition.pk)
    matchday = competition.matchdays.get(number=1)
    one, two = matchday.matches.order_by("table")
    game = one.games.get()
    token = game_links_ensure(game_ids=[game.pk])[game.pk]["a"].token
    seen = matchday_token(matchday_id=matchday.pk)
    held = Held(rounds.game_state_store)
    monkeypatch.setattr(rounds, "game_state_store", held)
    table = Worker(
        lambda: table_round_record(token=token, expected_number=1, result="gewone_winst", side="a")
    )
    director = Worker(
        lambda: matchday_entries_swap(
            matchday_id=matchday.pk, entry_a_id=one.home_id, entry_b_id=two.home_id, seen=seen
        )
    )

    in_turn(table, director, held)

    assert (table.outcome, director.outcome) == ("done", "match_has_results")
    assert list(game.rounds.values_list("number", "link__token")) == [(1, token)]
    assert Match.objects.get(pk=one.pk).home_id == one.home_id
