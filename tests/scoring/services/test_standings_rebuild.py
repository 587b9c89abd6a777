"""standings_rebuild and the standings_refresh task: bounded queries, idempotent, correct."""

from __future__ import annotations

import logging

from redis.exceptions import ConnectionError as RedisConnectionError

from scoring.models import Standing
from scoring.services.games import game_totals_enter
from scoring.services.standings import standings_rebuild
from scoring.tasks import standings_refresh
from tests.builders import finished_game, play, record
from tests.factories import (
    ClubEntryFactory,
    CompetitionFactory,
    GameFactory,
    MatchdayFactory,
    MatchFactory,
    PlayerFactory,
    TeamEntryFactory,
    TeamFactory,
)
from tests.refreshes import queued_refreshes
from tests.seen import game_token_now


def table(competition) -> list[tuple[str, int, int, int, int]]:
    return list(
        Standing.objects.filter(competition=competition)
        .order_by("rank", "entry__team__key")
        .values_list("entry__team__key", "rank", "points", "saldo", "kaps")
    )


def test_rebuild_uses_a_bounded_number_of_queries(db, django_assert_max_num_queries):
    small = CompetitionFactory.create()
    finished_game(competition=small)
    big = CompetitionFactory.create()
    for _ in range(12):
        finished_game(competition=big)
    with django_assert_max_num_queries(12):
        standings_rebuild(competition_id=small.pk)
    with django_assert_max_num_queries(12):
        assert standings_rebuild(competition_id=big.pk) == 24


def test_rebuild_twice_writes_the_same_table(db):
    competition = CompetitionFactory.create()
    finished_game(competition=competition)
    finished_game(competition=competition, winner="b")
    standings_rebuild(competition_id=competition.pk)
    first = table(competition)
    standings_rebuild(competition_id=competition.pk)
    assert table(competition) == first
    assert Standing.objects.filter(competition=competition).count() == 4


def test_only_finished_matches_count(db):
    competition = CompetitionFactory.create()
    done = finished_game(competition=competition)
    open_game = GameFactory.create(competition=competition)
    record(open_game, "baunie", "a")
    standings_rebuild(competition_id=competition.pk)

    played = dict(
        Standing.objects.filter(competition=competition).values_list("entry_id", "played")
    )
    assert played[done.match.home_id] == 1
    assert played[open_game.match.home_id] == 0


def test_fully_tied_entries_share_a_rank(db):
    competition = CompetitionFactory.create(tiebreaks=["points", "saldo"])
    finished_game(competition=competition)
    finished_game(competition=competition)
    standings_rebuild(competition_id=competition.pk)
    assert [row[1] for row in table(competition)] == [1, 1, 3, 3]


def test_competition_tiebreak_order_is_used(db):
    # Same points and saldo; more kaps wins only when the competition says so.
    competition = CompetitionFactory.create(tiebreaks=["points", "kaps"])
    winner_by_kaps = finished_game(competition=competition)  # 20–0
    other = GameFactory.create(competition=competition)
    play(other, ("baunie", "a"), ("kap", "a"))  # 20–0 too, with one kap
    standings_rebuild(competition_id=competition.pk)
    ranks = dict(Standing.objects.filter(competition=competition).values_list("entry_id", "rank"))
    assert ranks[winner_by_kaps.match.home_id] == 1
    assert ranks[other.match.home_id] == 2


def test_club_match_sums_every_koppel_whichever_side_sits_as_a(db):
    # DESIGN.md: a club match's score is the sum of all its koppels' points.
    competition = CompetitionFactory.create(kind="clubs", tiebreaks=["points", "saldo"])
    home = ClubEntryFactory.create(competition=competition)
    away = ClubEntryFactory.create(competition=competition)
    match = MatchFactory.create(
        matchday=MatchdayFactory.create(competition=competition), home=home, away=away
    )

    def koppel(club):
        return TeamFactory.create(
            player_1=PlayerFactory.create(club=club.club),
            player_2=PlayerFactory.create(club=club.club),
        )

    first = GameFactory.create(match=match, team_a=koppel(home), team_b=koppel(away), table=1)
    second = GameFactory.create(
        match=match, team_a=koppel(away), team_b=koppel(home), table=2, a_is_home=False
    )
    game_totals_enter(
        game_id=first.pk, seen=game_token_now(game_id=first.pk), total_a=20, total_b=12
    )
    game_totals_enter(
        game_id=second.pk, seen=game_token_now(game_id=second.pk), total_a=21, total_b=6
    )  # away koppel won 21–6
    standings_rebuild(competition_id=competition.pk)

    rows = {row.entry_id: row for row in Standing.objects.filter(competition=competition)}
    assert (rows[home.pk].points_for, rows[home.pk].points_against) == (26, 33)
    assert (rows[away.pk].rank, rows[away.pk].points, rows[away.pk].saldo) == (1, 2, 7)


def test_reported_match_totals_count(db):
    competition = CompetitionFactory.create(kind="clubs")
    home = ClubEntryFactory.create(competition=competition)
    away = ClubEntryFactory.create(competition=competition)
    MatchFactory.create(
        matchday=MatchdayFactory.create(competition=competition),
        home=home,
        away=away,
        total_home=81,
        total_away=74,
    )
    standings_rebuild(competition_id=competition.pk)
    row = Standing.objects.get(entry=home)
    assert (row.rank, row.points, row.saldo, row.won) == (1, 2, 7, 1)


def test_entries_without_matches_still_have_a_row(db):
    competition = CompetitionFactory.create()
    TeamEntryFactory.create_batch(3, competition=competition)
    assert standings_rebuild(competition_id=competition.pk) == 3
    assert set(Standing.objects.values_list("rank", flat=True)) == {1}


def test_task_for_a_deleted_competition_does_nothing(db):
    assert standings_refresh.apply(kwargs={"competition_id": 999999}).get() == 0


def test_task_run_from_the_commit_callback_writes_the_standings(
    game, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks() as callbacks:
        for _ in range(4):
            record(game, result="kap", side="a")
    competition_id = game.match.matchday.competition_id
    assert queued_refreshes(callbacks) == [competition_id]
    # Run what the callback would have queued, in-process (no global eager mode in tests).
    standings_refresh.apply(kwargs={"competition_id": competition_id})
    assert Standing.objects.get(entry=game.match.home).points == 2


def test_a_broker_that_is_down_loses_no_result(
    game, django_capture_on_commit_callbacks, monkeypatch, caplog
):
    # DESIGN.md: if the broker is down the result is still saved; standings catch up later.
    def broker_down(*args, **kwargs):
        raise RedisConnectionError("Error 111 connecting to 127.0.0.1:6379.")

    monkeypatch.setattr(standings_refresh, "delay", broker_down)
    with (
        caplog.at_level(logging.ERROR, logger="scoring.services"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        for _ in range(4):  # the fourth kap ends the game: a write that moves the standings
            record(game, result="kap", side="a")
    assert game.rounds.count() == 4
    assert "standings_refresh not queued" in caplog.text


def test_as_of_is_the_last_rebuild_even_when_no_row_changed(db):
    """The rebuild rewrites only rows that changed (issue 7), so the page's "as of" comes
    from `Competition.standings_computed_at`, stamped by every rebuild."""
    from scoring.selectors.standings import (
        competition_standings_as_of,
        competition_standings_summary,
    )

    competition = CompetitionFactory.create()
    finished_game(competition=competition)
    standings_rebuild(competition_id=competition.pk)
    first = competition_standings_as_of(competition=competition)
    row_stamps = sorted(Standing.objects.values_list("computed_at", flat=True))
    standings_rebuild(competition_id=competition.pk)
    second = competition_standings_as_of(competition=competition)
    assert first is not None and second is not None and second > first
    assert sorted(Standing.objects.values_list("computed_at", flat=True)) == row_stamps
    assert competition_standings_summary(competition=competition).as_of == second
