"""Stale standings (issue 6): every write that can move the standings marks them stale in
its transaction, a rebuild clears the mark it saw, the sweep rebuilds what stays stale,
and the page and `manage.py standings` say when the table is behind."""

from __future__ import annotations

import datetime
import threading
import time
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection, connections, transaction
from django.urls import reverse
from django.utils import timezone

from scoring.models import Game, Standing
from scoring.selectors import standings as standings_selectors
from scoring.services import refresh as refresh_services
from scoring.services import standings as standings_services
from scoring.services.standings import standings_rebuild
from scoring.tasks import standings_refresh, standings_refresh_stale
from tests.builders import kaps
from tests.factories import CompetitionFactory, GameFactory
from tests.refreshes import queued_refreshes
from tournaments.models import Competition

LONG_AGO = datetime.datetime(2026, 3, 1, 19, 0, tzinfo=datetime.UTC)


def stale_since(competition: Competition) -> datetime.datetime | None:
    competition.refresh_from_db(fields=["standings_stale_since"])
    return competition.standings_stale_since


def mark(competition: Competition, when: datetime.datetime | None) -> None:
    Competition.objects.filter(pk=competition.pk).update(standings_stale_since=when)


# ---------------------------------------------------------------- the mark


def test_a_saved_round_marks_the_standings_stale_and_queues_one_refresh(
    db, django_capture_on_commit_callbacks
):
    game = GameFactory.create()
    competition = game.match.matchday.competition
    before = timezone.now()
    with django_capture_on_commit_callbacks() as callbacks:
        kaps(game, 4)  # the fourth ends the game (issue 7: rounds of an open game mark nothing)
    stamp = stale_since(competition)
    assert stamp is not None
    assert before <= stamp <= timezone.now()
    # The mark is in the transaction, the refresh after it.
    assert queued_refreshes(callbacks) == [competition.pk]


def test_a_write_that_rolls_back_leaves_no_mark(db):
    game = GameFactory.create()
    with pytest.raises(RuntimeError), transaction.atomic():
        kaps(game, 1)
        raise RuntimeError("the rest of the transaction failed")
    assert stale_since(game.match.matchday.competition) is None


def test_a_later_write_keeps_the_oldest_mark(db, django_capture_on_commit_callbacks):
    game = GameFactory.create()
    competition = game.match.matchday.competition
    mark(competition, LONG_AGO)  # an earlier write whose refresh was lost
    with django_capture_on_commit_callbacks() as callbacks:
        kaps(game, 4)
    assert stale_since(competition) == LONG_AGO
    assert queued_refreshes(callbacks) == [competition.pk]


def test_the_refresh_after_the_write_clears_the_mark(
    db, django_capture_on_commit_callbacks, monkeypatch
):
    game = GameFactory.create()
    competition = game.match.matchday.competition
    # Run the queued refresh here, as a worker (or eager mode) would.
    monkeypatch.setattr(
        standings_refresh, "delay", lambda **kwargs: standings_refresh.apply(kwargs=kwargs)
    )
    with django_capture_on_commit_callbacks(execute=True):
        kaps(game, 4)
    assert stale_since(competition) is None
    assert Standing.objects.get(competition=competition, entry=game.match.home).points == 2


def test_a_lost_refresh_leaves_the_mark(db, django_capture_on_commit_callbacks, monkeypatch):
    game = GameFactory.create()

    def broker_down(**kwargs: int) -> None:
        raise ConnectionError("broker down")

    monkeypatch.setattr(standings_refresh, "delay", broker_down)
    with django_capture_on_commit_callbacks(execute=True):
        kaps(game, 4)
    assert stale_since(game.match.matchday.competition) is not None


# ---------------------------------------------------------------- compare-and-clear


def test_a_rebuild_clears_the_mark_it_saw(db):
    game = GameFactory.create()
    kaps(game, 4)
    competition = game.match.matchday.competition
    assert stale_since(competition) is not None
    standings_rebuild(competition_id=competition.pk)
    assert stale_since(competition) is None


def test_a_rebuild_without_a_mark_sets_none(db):
    competition = CompetitionFactory.create()
    standings_rebuild(competition_id=competition.pk)
    assert stale_since(competition) is None


def test_a_mark_set_during_the_rebuild_stays(db, monkeypatch):
    game = GameFactory.create()
    kaps(game, 4)
    competition = game.match.matchday.competition
    newer = timezone.now() + datetime.timedelta(seconds=1)
    computed = standings_selectors.competition_table

    def table_then_a_write(**kwargs):
        rows = computed(**kwargs)
        mark(competition, newer)  # a write this rebuild has not seen marks the standings
        return rows

    monkeypatch.setattr(standings_services, "competition_table", table_then_a_write)
    standings_rebuild(competition_id=competition.pk)
    assert stale_since(competition) == newer


@pytest.mark.django_db(transaction=True)
def test_a_result_saved_while_a_rebuild_runs_is_not_cleared_unseen(monkeypatch):
    """The rebuild reads the results, a writer saves one more, the rebuild writes and clears:
    the writer must either wait for the rebuild (and mark after it) or be seen by it."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks between two connections: PostgreSQL only")
    # No broker: only the mark can say that a refresh is owed.
    monkeypatch.setattr(refresh_services.STANDINGS, "enqueue", lambda competition_id: None)
    game = GameFactory.create()
    competition = game.match.matchday.competition
    kaps(game, 3)
    # Owed by an earlier result (issue 7: rounds that leave a game open mark nothing).
    mark(competition, timezone.now())

    has_read, go_on = threading.Event(), threading.Event()
    computed = standings_selectors.competition_table

    def table_then_wait(**kwargs):
        rows = computed(**kwargs)
        has_read.set()
        go_on.wait(60)
        return rows

    monkeypatch.setattr(standings_services, "competition_table", table_then_wait)
    writer_pid: list[int] = []

    def rebuild() -> None:
        try:
            standings_rebuild(competition_id=competition.pk)
        finally:
            connections.close_all()

    def write() -> None:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                writer_pid.append(cursor.fetchone()[0])
            kaps(game, 1)  # the fourth kap: the game is over
        finally:
            connections.close_all()

    rebuilder = threading.Thread(target=rebuild)
    rebuilder.start()
    assert has_read.wait(60)
    writer = threading.Thread(target=write)
    writer.start()

    def writer_done_or_waiting() -> bool:
        if not writer.is_alive():
            return True
        if not writer_pid:
            return False
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [writer_pid[0]]
            )
            row = cursor.fetchone()
        return row is not None and row[0] == "Lock"

    deadline = time.monotonic() + 60
    while not writer_done_or_waiting() and time.monotonic() < deadline:
        time.sleep(0.05)
    go_on.set()
    rebuilder.join(60)
    writer.join(60)

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    points = dict(Standing.objects.filter(competition=competition).values_list("entry", "points"))
    assert points[game.match.home_id] == 0  # the rebuild did not see the fourth kap...
    assert stale_since(competition) is not None  # ...so the standings still owe a refresh


# ---------------------------------------------------------------- the sweep


def test_the_sweep_selects_competitions_stale_longer_than_the_interval(db):
    now = timezone.now()
    fresh = CompetitionFactory.create()
    just_written = CompetitionFactory.create()
    mark(just_written, now - datetime.timedelta(seconds=5))
    lost = CompetitionFactory.create()
    mark(lost, now - datetime.timedelta(seconds=31))
    older = CompetitionFactory.create()
    mark(older, LONG_AGO)

    stale = standings_selectors.competitions_standings_stale(
        stale_for=datetime.timedelta(seconds=30)
    )

    assert stale == [older.pk, lost.pk]
    assert fresh.pk not in stale and just_written.pk not in stale


def test_the_sweep_rebuilds_what_is_stale_and_leaves_the_rest(db, settings):
    settings.STANDINGS_SWEEP_SECONDS = 30
    lost = GameFactory.create()
    kaps(lost, 4)
    lost_competition = lost.match.matchday.competition
    mark(lost_competition, LONG_AGO)
    young = GameFactory.create()
    kaps(young, 4)  # marked just now: its queued refresh is most likely on its way

    assert standings_refresh_stale.apply().get() == 1

    assert stale_since(lost_competition) is None
    assert Standing.objects.get(competition=lost_competition, entry=lost.match.home).points == 2
    assert stale_since(young.match.matchday.competition) is not None
    assert not Standing.objects.filter(competition=young.match.matchday.competition).exists()
    # Idempotent: nothing is stale any more, so the next sweep does nothing.
    assert standings_refresh_stale.apply().get() == 0


def test_one_failing_competition_does_not_stop_the_sweep(db, monkeypatch, caplog):
    broken, fine = CompetitionFactory.create(), CompetitionFactory.create()
    mark(broken, LONG_AGO)
    mark(fine, LONG_AGO + datetime.timedelta(seconds=1))
    rebuild = standings_services.standings_rebuild

    def rebuild_or_fail(*, competition_id: int) -> int:
        if competition_id == broken.pk:
            raise RuntimeError("broken data")
        return rebuild(competition_id=competition_id)

    monkeypatch.setattr(standings_services, "standings_rebuild", rebuild_or_fail)

    assert standings_refresh_stale.apply().get() == 1

    assert stale_since(fine) is None
    assert stale_since(broken) == LONG_AGO  # still owed: the next sweep tries again
    assert f"stale standings of competition {broken.pk} not rebuilt" in caplog.text


def test_beat_runs_the_sweep_every_interval(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["standings-refresh-stale"]
    assert entry["task"] == standings_refresh_stale.name
    assert entry["schedule"] == datetime.timedelta(seconds=settings.STANDINGS_SWEEP_SECONDS)
    assert entry["options"]["expires"] == settings.STANDINGS_SWEEP_SECONDS  # no pile-up


def test_refresh_tasks_survive_a_killed_worker():
    for task in (standings_refresh, standings_refresh_stale):
        assert task.acks_late and task.reject_on_worker_lost


# ---------------------------------------------------------------- the page and the command


def page(client, competition: Competition) -> str:
    response = client.get(reverse("competition_detail", kwargs={"slug": competition.slug}))
    assert response.status_code == 200
    return response.content.decode()


def test_the_page_says_when_the_standings_are_behind(db, client):
    game = GameFactory.create()
    competition = game.match.matchday.competition
    standings_rebuild(competition_id=competition.pk)
    computed_at = standings_selectors.competition_standings_as_of(competition=competition)
    assert computed_at is not None
    assert "standings-stale" not in page(client, competition)

    kaps(game, 4)  # its refresh has not run (yet)

    html = page(client, competition)
    assert "standings-stale" in html
    hhmm = timezone.localtime(computed_at).strftime("%H:%M")
    assert f"Standings are being updated — last computed at {hhmm}" in html
    assert "results saved since then are not in this table yet" in html


@pytest.mark.parametrize("eager", [True, False])
def test_the_embedded_default_catches_up_on_the_page_where_no_beat_runs(
    db, client, settings, eager
):
    """Celery eager (dev.py run): a refresh that failed inline leaves the mark and there is
    no beat; the standings page does the sweep's job once the mark is older than the sweep
    interval. With a broker the page only reads: the beat sweep does it."""
    settings.CELERY_TASK_ALWAYS_EAGER = eager
    game = GameFactory.create()
    competition = game.match.matchday.competition
    kaps(game, 4)  # 20–0, and its refresh never ran
    mark(competition, timezone.now() - datetime.timedelta(seconds=5))
    assert "standings-stale" in page(client, competition)  # younger than the interval

    mark(competition, LONG_AGO)
    html = page(client, competition)

    if eager:
        assert "standings-stale" not in html
        assert stale_since(competition) is None
        assert Standing.objects.get(competition=competition, rank=1).points_for == 20
    else:
        assert "standings-stale" in html
        assert stale_since(competition) == LONG_AGO
        assert not Standing.objects.filter(competition=competition).exists()


def test_the_page_says_when_standings_were_never_computed(db, client):
    game = GameFactory.create()
    kaps(game, 4)
    html = page(client, game.match.matchday.competition)
    assert "Standings are being computed; results saved so far are not in this table yet." in html


def run_standings(*args: str) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("standings", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_the_command_says_on_stderr_when_the_standings_are_behind(db):
    game = GameFactory.create()
    competition = game.match.matchday.competition
    standings_rebuild(competition_id=competition.pk)
    assert run_standings(competition.slug)[1] == ""

    kaps(game, 4)

    out, err = run_standings(competition.slug, "--format", "json")
    assert out.startswith("[")  # stdout stays clean data
    assert "Standings are being updated (last computed at" in err
    assert "--refresh" in err
    out, err = run_standings(competition.slug, "--refresh")
    assert err == ""
    assert stale_since(competition) is None


def test_a_task_lost_with_its_worker_comes_back_in_minutes_not_an_hour(settings):
    # Redis redelivers an unacknowledged task after the visibility timeout (kombu: 3,600 s).
    assert settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] == 300
    assert settings.CELERY_WORKER_PREFETCH_MULTIPLIER == 1
