"""Refreshes that coalesce (issue 7): a write refreshes the standings only when it can move
them (`_game_refresh_needed`), and however many results arrive, a competition has at most
one refresh running and one queued (`StandingsRefreshClaim`, `standings_refresh_owed`)."""

from __future__ import annotations

import contextlib
import datetime
import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

import pytest
from django.db import connection, connections, transaction
from django.test import TestCase
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rankings.tasks import ratings_refresh, season_rankings_refresh
from scoring.models import STANDING_COLUMNS, Game, Round, Standing
from scoring.selectors import results as results_selectors
from scoring.selectors import standings as standings_selectors
from scoring.services import standings as standings_services
from scoring.services.confirmations import game_confirm
from scoring.services.games import game_close, game_reopen, game_totals_enter, match_totals_enter
from scoring.services.matches import match_forfeit_set
from scoring.services.refresh import STANDINGS
from scoring.services.rounds import (
    RoundRecord,
    game_rounds_load,
    round_correct,
    round_delete,
    round_undo,
)
from scoring.services.standings import standings_rebuild
from scoring.tasks import standings_refresh
from tests.builders import finished_game
from tests.builders import record as record_round
from tests.factories import (
    CompetitionFactory,
    GameFactory,
    MatchdayFactory,
    MatchFactory,
    TeamEntryFactory,
    UserFactory,
)
from tests.refreshes import queued_refreshes
from tests.seen import game_token_now, match_token_now
from tournaments import selectors as tournaments_selectors
from tournaments.models import Bye, Competition, Match, StandingsRefreshClaim
from troefclub.celery import eager_set
from troefclub.refresh import Claim

LONG_AGO = datetime.datetime(2026, 3, 1, 19, 0, tzinfo=datetime.UTC)


def rounds(game: Game, *results: str, side: str = "a") -> None:
    for result in results:
        record_round(game, result=result, side=side)


def stale_since(competition: Competition) -> datetime.datetime | None:
    competition.refresh_from_db(fields=["standings_stale_since"])
    return competition.standings_stale_since


@contextmanager
def committed() -> Iterator[None]:
    """Run the on-commit callbacks of the writes inside once they are done, as their commit
    would (the test's own transaction never commits)."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        yield


def settled(competition: Competition) -> None:
    """As after the setup's commit and its refresh: nothing owed, no refresh queued. (The
    setup's own on-commit callbacks stay pending in the test's transaction and never run;
    a later write registers its own.)"""
    Competition.objects.filter(pk=competition.pk).update(standings_stale_since=None)
    StandingsRefreshClaim.objects.filter(pk=competition.pk).update(queued_at=None)


# ---------------------------------------------------------------- which writes refresh

Setup = Callable[[Game], Any]
Write = Callable[[Game, Any], object]


def open_game(game: Game) -> None:
    rounds(game, "kap", "kap")  # 10–0, in play


def last_round(game: Game) -> Round:
    found = game.rounds.order_by("number").last()
    assert found is not None
    return found


def last_round_or_none(game: Game) -> Round | None:
    return game.rounds.order_by("number").last()


def correct(result: str, side: str = "a") -> Write:
    def write(game: Game, _: Any) -> object:
        target = last_round(game)
        return round_correct(round_id=target.pk, result=result, side=side, seen=target.token)

    return write


def delete_last(game: Game, _: Any) -> object:
    target = last_round(game)
    return round_delete(round_id=target.pk, seen=target.token)


def undo_last(game: Game, _: Any) -> object:
    target = last_round(game)
    return round_undo(game_id=game.pk, round_id=target.pk, seen=game_token_now(game_id=game.pk))


def record(*results: str) -> Write:
    return lambda game, _: rounds(game, *results)


def load(*results: str) -> Write:
    records = [RoundRecord(result=result, side="a") for result in results]
    return lambda game, _: game_rounds_load(game_id=game.pk, rounds=records)


def close(game: Game, _: Any) -> object:
    return game_close(game_id=game.pk, seen=game_token_now(game_id=game.pk))


def reopen(game: Game, _: Any) -> object:
    return game_reopen(game_id=game.pk, seen=game_token_now(game_id=game.pk))


def totals(game: Game, _: Any) -> object:
    return game_totals_enter(
        game_id=game.pk, total_a=20, total_b=4, seen=game_token_now(game_id=game.pk)
    )


def confirm(game: Game, user: Any) -> object:
    return game_confirm(game_id=game.pk, user=user, seen=game_token_now(game_id=game.pk))


def nothing(game: Game) -> None:
    pass


def nearly_over(game: Game) -> None:
    rounds(game, "kap", "kap", "kap", "gewone_winst")  # 17–0, in play


def closed_game(game: Game) -> None:
    open_game(game)
    close(game, None)


def totals_game(game: Game) -> None:
    totals(game, None)


def forfeited_open_game(game: Game) -> None:
    open_game(game)
    match_forfeit_set(
        match_id=game.match_id,
        side="away",
        reason="no show",
        seen=match_token_now(match_id=game.match_id),
    )


WRITES: list[tuple[str, Setup, Write, bool]] = [
    # (what, the game before, the write, whether it can move the standings)
    ("a round that doesn't end the game", nothing, record("kap"), False),
    ("rounds that don't end the game", open_game, record("gewone_winst", "gewone_winst"), False),
    ("the round that ends the game", open_game, record("kap", "kap"), True),
    ("a correction inside an open game", open_game, correct("gewone_winst"), False),
    ("a correction that ends the game", nearly_over, correct("kap"), True),
    ("a correction that reopens a finished game", finished_game, correct("kap_partner"), True),
    ("a correction of a closed game", closed_game, correct("gewone_winst"), True),
    ("a delete inside an open game", open_game, delete_last, False),
    ("a delete that reopens a finished game", finished_game, delete_last, True),
    ("an undo inside an open game", open_game, undo_last, False),
    ("an undo of the round that ended the game", finished_game, undo_last, True),
    ("rounds loaded that don't end the game", nothing, load("kap", "gewone_winst"), False),
    ("rounds loaded that end the game", nothing, load("kap", "kap", "kap", "kap"), True),
    ("a director's close", open_game, close, True),
    ("a reopen of a closed game", closed_game, reopen, True),
    ("totals entered", nothing, totals, True),
    ("totals cleared", totals_game, reopen, True),
    ("a confirmation", finished_game, confirm, True),
    ("a round in a forfeited match (its kaps count)", forfeited_open_game, record("kap"), True),
]


@pytest.mark.parametrize(
    ("what", "setup", "write", "moves"), WRITES, ids=[row[0] for row in WRITES]
)
def test_only_writes_that_can_move_the_standings_mark_them_and_queue_a_refresh(
    db, django_capture_on_commit_callbacks, what, setup, write, moves
):
    competition = CompetitionFactory.create(
        close_by_director_allowed=True, confirmation_required=True
    )
    game = GameFactory.create(competition=competition)
    user = UserFactory.create()
    setup(game)
    settled(competition)
    standings_rebuild(competition_id=competition.pk)
    before = list(Standing.objects.filter(competition=competition).values_list())

    with django_capture_on_commit_callbacks() as callbacks:
        write(game, user)

    assert queued_refreshes(callbacks) == ([competition.pk] if moves else []), what
    assert (stale_since(competition) is not None) == moves, what
    if not moves:  # skipping was safe: a rebuild now writes the same table
        standings_rebuild(competition_id=competition.pk)
        assert list(Standing.objects.filter(competition=competition).values_list()) == before


# ---------------------------------------------------------------- skipping is safe (property)

ACTIONS = st.lists(
    st.tuples(
        st.integers(min_value=0, max_value=2),  # which game
        st.sampled_from(["record", "correct", "delete", "undo", "close", "reopen", "totals"]),
        st.sampled_from(["gewone_winst", "kap", "kap_partner", "baunie", "baunie_mislukt"]),
        st.sampled_from(["a", "b"]),
    ),
    min_size=1,
    max_size=12,
)


def _try(action: Callable[[], object]) -> bool:
    """Run one write in a savepoint; False when the rules refused it (nothing written)."""
    from scoring.rules import RuleViolation

    try:
        with transaction.atomic():
            action()
    except RuleViolation:
        return False
    return True


def _write(kind: str, game: Game, result: str, side: str) -> None:
    """One write of `kind` on `game`, as a page opened just now would send it."""
    target = last_round_or_none(game)
    if kind == "record":
        record_round(game, result=result, side=side)
    elif target is None and kind in ("correct", "delete", "undo"):
        return
    elif kind == "correct" and target is not None:
        round_correct(round_id=target.pk, result=result, side=side, seen=target.token)
    elif kind == "delete" and target is not None:
        round_delete(round_id=target.pk, seen=target.token)
    elif kind == "undo" and target is not None:
        round_undo(game_id=game.pk, round_id=target.pk, seen=game_token_now(game_id=game.pk))
    else:
        {"close": close, "reopen": reopen, "totals": totals}[kind](game, None)


def _table(competition: Competition) -> list[tuple[Any, ...]]:
    return [
        (row.entry, *(getattr(row, column) for column in STANDING_COLUMNS))
        for row in standings_selectors.competition_table(competition=competition)
    ]


@pytest.mark.heavy
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(actions=ACTIONS)
def test_a_write_that_queues_no_refresh_never_changes_the_table(
    db, django_capture_on_commit_callbacks, actions
):
    """Random writes on the games of a matchday (one finished game elsewhere, a bye on the
    matchday): whenever a write queues no refresh, the table computed after it equals the
    table before it, so the stored standings, rebuilt or not, stay right."""
    with transaction.atomic():
        competition = CompetitionFactory.create(close_by_director_allowed=True)
        earlier = GameFactory.create(competition=competition)
        finished_game(earlier)
        matchday = MatchdayFactory.create(competition=competition)
        games = [
            GameFactory.create(competition=competition, match__matchday=matchday) for _ in range(3)
        ]
        Bye.objects.create(
            matchday=matchday, entry=TeamEntryFactory.create(competition=competition)
        )
        for index, (number, kind, result, side) in enumerate(actions):
            game = games[number]
            game.refresh_from_db()
            before = _table(competition)
            settled(competition)
            with django_capture_on_commit_callbacks() as callbacks:
                done = _try(partial(_write, kind, game, result, side))
            if done and not queued_refreshes(callbacks):
                assert _table(competition) == before, (index, kind, result, side)
        transaction.set_rollback(True)


# ---------------------------------------------------------------- one queued, one running


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The competitions `standings_refresh` was queued for (the broker, recorded)."""
    calls: list[int] = []
    monkeypatch.setattr(
        standings_refresh, "delay", lambda *, competition_id: calls.append(competition_id)
    )
    monkeypatch.setattr(ratings_refresh, "delay", lambda: None)  # issue 10's, not counted here
    monkeypatch.setattr(season_rankings_refresh, "apply_async", lambda **_: None)  # issue 20's
    return calls


def test_a_burst_of_results_queues_one_refresh(db, queued):
    competition = CompetitionFactory.create()
    games = [GameFactory.create(competition=competition) for _ in range(6)]
    settled(competition)

    for game in games:  # six commits, each ending a game
        with committed():
            finished_game(game)

    assert queued == [competition.pk]
    claim = StandingsRefreshClaim.objects.get(pk=competition.pk)
    assert claim.queued_at is not None


def test_a_running_refresh_then_writes_lead_to_exactly_one_more(db, queued):
    competition = CompetitionFactory.create()
    first, *later = [GameFactory.create(competition=competition) for _ in range(4)]
    settled(competition)
    with committed():
        finished_game(first)
    assert queued == [competition.pk]

    # The worker takes the queued task: it releases the claim and rebuilds.
    assert standings_refresh.apply(kwargs={"competition_id": competition.pk}).get() == 8
    assert StandingsRefreshClaim.objects.get(pk=competition.pk).queued_at is None
    assert stale_since(competition) is None

    for game in later:  # results after it started: one more refresh, not three
        with committed():
            finished_game(game)
    assert queued == [competition.pk, competition.pk]
    assert standings_refresh.apply(kwargs={"competition_id": competition.pk}).get() == 8
    points = Standing.objects.filter(competition=competition).values_list("points", flat=True)
    assert sorted(points) == [0, 0, 0, 0, 2, 2, 2, 2]


def test_a_refresh_that_finds_the_standings_fresh_only_releases_its_claim(db, queued):
    game = GameFactory.create()
    competition = game.match.matchday.competition
    finished_game(game)
    standings_rebuild(competition_id=competition.pk)  # e.g. the sweep got there first
    StandingsRefreshClaim.objects.create(competition=competition, queued_at=timezone.now())
    stamps = set(Standing.objects.values_list("computed_at", flat=True))

    with CaptureQueriesContext(connection) as captured:
        assert standings_refresh.apply(kwargs={"competition_id": competition.pk}).get() == 0

    # The competition locked, the claim released (plus the savepoint around them).
    assert len([q for q in captured if "SAVEPOINT" not in q["sql"]]) == 2
    assert StandingsRefreshClaim.objects.get(pk=competition.pk).queued_at is None
    assert set(Standing.objects.values_list("computed_at", flat=True)) == stamps


def test_a_refresh_for_a_deleted_competition_does_nothing(db):
    assert standings_refresh.apply(kwargs={"competition_id": 999_999}).get() == 0


def test_a_broker_that_is_down_releases_the_claim_and_the_next_result_tries_again(
    db, monkeypatch, caplog
):
    competition = CompetitionFactory.create()
    first, second = (GameFactory.create(competition=competition) for _ in range(2))
    settled(competition)

    def broker_down(**kwargs: int) -> None:
        raise ConnectionError("broker down")

    monkeypatch.setattr(standings_refresh, "delay", broker_down)
    with (
        caplog.at_level(logging.ERROR, logger="scoring.services"),
        committed(),
    ):
        finished_game(first)
    assert f"standings_refresh not queued for competition {competition.pk}" in caplog.text
    assert StandingsRefreshClaim.objects.get(pk=competition.pk).queued_at is None
    assert stale_since(competition) is not None  # the sweep catches up meanwhile

    calls: list[int] = []
    monkeypatch.setattr(standings_refresh, "delay", lambda **kwargs: calls.append(1))
    with committed():
        finished_game(second)
    assert calls == [1]


def test_a_claim_older_than_the_sweep_interval_is_taken_over(db, queued, settings):
    settings.STANDINGS_SWEEP_SECONDS = 30
    competition = CompetitionFactory.create()
    game = GameFactory.create(competition=competition)
    settled(competition)
    # A task queued long ago and lost with its worker: its claim would block every refresh.
    StandingsRefreshClaim.objects.create(competition=competition, queued_at=LONG_AGO)

    with committed():
        finished_game(game)

    assert queued == [competition.pk]
    renewed = StandingsRefreshClaim.objects.get(pk=competition.pk).queued_at
    assert renewed is not None and renewed > LONG_AGO


# ---------------------------------------------------------------- one transaction, one refresh
#
# Real commits (`transaction=True`): Django's own on-commit machinery, savepoints included,
# not a capture of the callbacks.


@pytest.mark.django_db(transaction=True)
def test_a_transaction_of_many_results_queues_one_refresh_with_one_claim(queued):
    competition = CompetitionFactory.create()
    games = [GameFactory.create(competition=competition) for _ in range(10)]
    StandingsRefreshClaim.objects.create(competition=competition)  # refreshed before

    with CaptureQueriesContext(connection) as captured, transaction.atomic():
        for game in games:
            totals(game, None)  # each ends its game: each owes a refresh
        in_transaction = len(captured)

    assert queued == [competition.pk]
    after_commit = [
        q["sql"]
        for q in captured.captured_queries[in_transaction:]
        if "rankings_" not in q["sql"]  # the ratings' own claim (issue 10)
    ]
    # The claim, once: not one claim per write (the other nine would find it taken).
    assert [sql for sql in after_commit if sql != "COMMIT"] == [after_commit[-1]]
    assert "standingsrefreshclaim" in after_commit[-1]
    assert stale_since(competition) is not None  # the task (recorded here) would clear it


@pytest.mark.django_db(transaction=True)
def test_one_transaction_queues_one_refresh_for_each_competition_it_wrote(queued):
    first, second = CompetitionFactory.create(), CompetitionFactory.create()
    games = [GameFactory.create(competition=c) for c in (first, second, first, second)]

    with transaction.atomic():
        for game in games:
            totals(game, None)

    assert sorted(queued) == sorted([first.pk, second.pk])


@pytest.mark.django_db(transaction=True)
def test_a_refresh_rolled_back_with_its_savepoint_is_owed_by_the_next_write(queued):
    """The transaction's first write to the competition is in a savepoint that is rolled
    back, with its mark and its on-commit callback; a later write in the same transaction
    must mark and queue again (a per-transaction "queued already" flag would skip it)."""
    competition = CompetitionFactory.create()
    undone, kept = (GameFactory.create(competition=competition) for _ in range(2))

    with transaction.atomic():
        with contextlib.suppress(RuntimeError), transaction.atomic():
            totals(undone, None)
            assert stale_since(competition) is not None
            raise RuntimeError("the rest of this part failed")
        assert stale_since(competition) is None  # the mark went with the savepoint
        totals(kept, None)

    assert queued == [competition.pk]
    assert stale_since(competition) is not None
    undone.refresh_from_db()
    kept.refresh_from_db()
    assert (undone.total_a, kept.total_a) == (None, 20)


@pytest.mark.django_db(transaction=True)
def test_a_write_rolled_back_with_its_savepoint_queues_nothing(queued):
    competition = CompetitionFactory.create()
    game = GameFactory.create(competition=competition)
    elsewhere = GameFactory.create()

    with transaction.atomic():
        with contextlib.suppress(RuntimeError), transaction.atomic():
            totals(game, None)
            raise RuntimeError("the rest of this part failed")
        totals(elsewhere, None)

    assert queued == [elsewhere.match.matchday.competition_id]
    assert stale_since(competition) is None


@pytest.mark.django_db(transaction=True)
def test_after_a_transaction_rolled_back_the_next_one_queues_its_refresh(queued):
    competition = CompetitionFactory.create()
    undone, kept = (GameFactory.create(competition=competition) for _ in range(2))

    with contextlib.suppress(RuntimeError), transaction.atomic():
        totals(undone, None)
        raise RuntimeError("the transaction failed")
    assert queued == []
    totals(kept, None)  # its own transaction (the service's atomic)

    assert queued == [competition.pk]
    assert stale_since(competition) is not None


@pytest.fixture
def eager() -> Iterator[None]:
    """Celery as in the embedded default (no broker): a queued task runs at once."""
    saved, _ = eager_set(always=True)
    try:
        yield
    finally:
        eager_set(always=saved)


def test_the_embedded_default_shows_fresh_standings_right_after_the_ending_round(db, eager):
    game = GameFactory.create()
    competition = game.match.matchday.competition
    settled(competition)
    with committed():
        rounds(game, "kap", "kap", "kap")
    assert not Standing.objects.filter(competition=competition).exists()  # nothing owed yet

    with committed():
        rounds(game, "kap")

    assert stale_since(competition) is None
    assert StandingsRefreshClaim.objects.get(pk=competition.pk).queued_at is None
    points = dict(Standing.objects.filter(competition=competition).values_list("entry", "points"))
    assert points == {game.match.home_id: 2, game.match.away_id: 0}


# ---------------------------------------------------------------- PostgreSQL: no waiting


def _postgresql_only() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("row locks between two connections: PostgreSQL only")


@pytest.fixture
def paused_refresh(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[threading.Event, ...]]:
    """`competition_table` pauses a refresh with its competition locked: (has_read, go_on)."""
    has_read, go_on = threading.Event(), threading.Event()
    computed = standings_selectors.competition_table

    def table_then_wait(**kwargs: Any) -> Any:
        rows = computed(**kwargs)
        has_read.set()
        go_on.wait(60)
        return rows

    monkeypatch.setattr(standings_services, "competition_table", table_then_wait)
    yield has_read, go_on
    go_on.set()


def _in_thread(target: Callable[[], object], errors: list[BaseException]) -> threading.Thread:
    def run() -> None:
        try:
            target()
        except BaseException as exc:  # collected and asserted by the test
            errors.append(exc)
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


@pytest.mark.django_db(transaction=True)
def test_claiming_never_waits_for_a_running_refresh(paused_refresh, queued):
    """A writer claims after its commit; a refresh holding the competition (and its claim)
    must not hold the writer's request up: the claim is skipped (the running refresh has
    seen every write committed before it took the lock)."""
    _postgresql_only()
    has_read, go_on = paused_refresh
    game = GameFactory.create()
    competition = game.match.matchday.competition
    finished_game(game)  # queued (recorded), claim set
    assert queued == [competition.pk]
    errors: list[BaseException] = []
    refresh = _in_thread(
        lambda: standings_refresh.apply(kwargs={"competition_id": competition.pk}).get(), errors
    )
    assert has_read.wait(60)

    claimed = STANDINGS.claim(competition.pk, timezone.now())  # returns at once

    go_on.set()
    refresh.join(60)
    assert errors == []
    assert claimed is not Claim.TAKEN
    assert StandingsRefreshClaim.objects.get(pk=competition.pk).queued_at is None


@pytest.mark.django_db(transaction=True)
def test_results_saved_while_a_refresh_runs_queue_exactly_one_more(paused_refresh, queued):
    _postgresql_only()
    has_read, go_on = paused_refresh
    competition = CompetitionFactory.create()
    first, *later = [GameFactory.create(competition=competition) for _ in range(3)]
    finished_game(first)
    assert queued == [competition.pk]
    errors: list[BaseException] = []
    refresh = _in_thread(
        lambda: standings_refresh.apply(kwargs={"competition_id": competition.pk}).get(), errors
    )
    assert has_read.wait(60)

    # Two scorers end their games while the refresh runs (their marks wait for it): their
    # commits come after its commit, which released the claim.
    writers = [_in_thread(partial(finished_game, game), errors) for game in later]
    go_on.set()
    refresh.join(60)
    for writer in writers:
        writer.join(60)

    assert errors == []
    assert queued == [competition.pk, competition.pk]  # exactly one more
    assert stale_since(competition) is not None
    assert standings_refresh.apply(kwargs={"competition_id": competition.pk}).get() == 6
    assert stale_since(competition) is None
    points = Standing.objects.filter(competition=competition).values_list("points", flat=True)
    assert sorted(points) == [0, 0, 0, 2, 2, 2]


# ---------------------------------------------------------------- the rebuild's reads


def test_the_match_sums_equal_the_match_scores(db):
    competition = CompetitionFactory.create(confirmation_required=True)
    played = GameFactory.create(competition=competition)
    finished_game(played)
    away_first = MatchFactory.create(matchday__competition=competition)
    swapped = GameFactory.create(
        match=away_first,
        team_a=away_first.away.team,
        team_b=away_first.home.team,
        a_is_home=False,
    )
    rounds(swapped, "kap", "gewone_winst")
    rounds(swapped, "baunie", side="b")  # 15–7 to the home side, over
    confirmed = GameFactory.create(competition=competition)
    finished_game(confirmed)
    game_confirm(game_id=confirmed.pk, user=None, seen=game_token_now(game_id=confirmed.pk))
    forfeited = GameFactory.create(competition=competition)
    forfeited_open_game(forfeited)
    reported = MatchFactory.create(matchday__competition=competition)
    match_totals_enter(
        match_id=reported.pk,
        total_home=81,
        total_away=74,
        seen=match_token_now(match_id=reported.pk),
    )
    MatchFactory.create(matchday__competition=competition)  # no games yet
    GameFactory.create(competition=competition)  # a game not started

    sums = results_selectors.competition_match_sums(competition=competition)

    assert sums == results_selectors.competition_match_scores(competition=competition)
    assert len(sums) == Match.objects.filter(matchday__competition=competition).count()


def test_the_entry_order_is_the_entries_order(db):
    competition = CompetitionFactory.create()
    for name in ("Koppel 10", "Koppel 2", "", "koppel 1", "Álvaro & Co"):
        TeamEntryFactory.create(competition=competition, team__name=name)

    ids = tournaments_selectors.competition_entry_ids(competition=competition)

    assert ids == [
        entry.pk for entry in tournaments_selectors.competition_entries(competition=competition)
    ]


def test_a_rebuild_rewrites_only_the_rows_that_changed(db):
    competition = CompetitionFactory.create()
    done, later = (GameFactory.create(competition=competition) for _ in range(2))
    finished_game(done)
    standings_rebuild(competition_id=competition.pk)
    first = dict(Standing.objects.values_list("entry_id", "computed_at"))
    finished_game(later)

    standings_rebuild(competition_id=competition.pk)

    second = dict(Standing.objects.values_list("entry_id", "computed_at"))
    # The entries of the finished game moved (points, rank); the other two kept their row.
    moved = {later.match.home_id, later.match.away_id, done.match.away_id}
    assert {entry for entry in second if second[entry] != first[entry]} == moved
    assert standings_selectors.competition_standings_as_of(competition=competition) == max(
        second.values()
    )


def test_a_rebuild_deletes_the_rows_of_entries_gone(db):
    competition = CompetitionFactory.create()
    game = GameFactory.create(competition=competition)
    standings_rebuild(competition_id=competition.pk)
    stranger = TeamEntryFactory.create()  # an entry of another competition
    Standing.objects.create(competition=competition, entry=stranger, rank=3, computed_at=LONG_AGO)

    assert standings_rebuild(competition_id=competition.pk) == 2

    assert set(Standing.objects.values_list("entry_id", flat=True)) == {
        game.match.home_id,
        game.match.away_id,
    }
