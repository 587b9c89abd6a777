"""Void and replay (issue 22): `match_void`, `game_void` and `match_replay_schedule`, table
driven, on SQLite and PostgreSQL: what they store, what they refuse, that a void asked for
again writes nothing, one history row each, and the standings refresh they queue."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from scoring.models import Game
from scoring.rules import RuleViolation
from scoring.services.games import match_totals_enter
from scoring.services.lineups import club_match_lineup_set
from scoring.services.matches import match_delete, match_forfeit_set
from scoring.services.schedule import schedule_round_robin_create
from scoring.services.voids import game_void, match_replay_schedule, match_void
from tests.builders import (
    club_competition,
    finished_game,
    koppels_of,
    pairs_game,
    pairs_matchday,
    record,
)
from tests.factories import MatchdayFactory, UserFactory
from tests.refreshes import queued_refreshes
from tests.seen import match_token_now
from tournaments.models import Match

pytestmark = pytest.mark.django_db


@pytest.fixture
def played() -> Game:
    """Matchday 1 of a four-koppel pairs competition: Kampoe – Toppers played, 20–0."""
    _, matchday, entries = pairs_matchday(4)
    return finished_game(pairs_game(matchday, entries[0], entries[1], table=1))


def test_a_void_stamps_when_why_and_who_and_keeps_the_match(played):
    director = UserFactory.create()

    match_void(match_id=played.match_id, reason="  hall closed  ", by=director)

    match = Match.objects.get(pk=played.match_id)
    assert match.voided_at is not None and match.void_reason == "hall closed"
    assert match.voided_by == director
    assert Game.objects.get(pk=played.pk).score_a == 20  # the result stays, for the record


@pytest.mark.parametrize(
    ("reason", "code"),
    [("", "void_why_missing"), ("   ", "void_why_missing"), ("x" * 201, "void_reason_too_long")],
)
@pytest.mark.parametrize("void", [match_void, game_void])
def test_a_void_without_a_usable_reason_is_refused(played, void, reason, code):
    key = "match_id" if void is match_void else "game_id"
    target = played.match_id if void is match_void else played.pk
    with pytest.raises(RuleViolation) as caught:
        void(**{key: target, "reason": reason})
    assert caught.value.code == code
    assert not Match.objects.filter(voided_at__isnull=False).exists()
    assert not Game.objects.filter(voided_at__isnull=False).exists()


@pytest.mark.parametrize(
    ("void", "key", "unknown"),
    [(match_void, "match_id", "match_unknown"), (game_void, "game_id", "game_unknown")],
)
def test_voiding_what_does_not_exist_is_refused(db, void, key, unknown):
    with pytest.raises(RuleViolation) as caught:
        void(**{key: 999_999, "reason": "gone"})
    assert caught.value.code == unknown


@pytest.mark.parametrize("void", [match_void, game_void])
def test_the_same_void_twice_writes_nothing_the_second_time(
    played, void, django_capture_on_commit_callbacks
):
    target: Any = Match.objects.get(pk=played.match_id) if void is match_void else played
    key = "match_id" if void is match_void else "game_id"
    void(**{key: target.pk, "reason": "hall closed"})
    rows = target.history.count()

    with django_capture_on_commit_callbacks() as callbacks:
        void(**{key: target.pk, "reason": "hall closed"})

    assert target.history.count() == rows
    assert queued_refreshes(callbacks) == []
    with pytest.raises(RuleViolation) as caught:
        void(**{key: target.pk, "reason": "another reason"})
    assert caught.value.code in ("match_already_void", "game_already_void")


@pytest.mark.parametrize("void", [match_void, game_void])
def test_a_void_writes_one_history_row_and_queues_one_refresh(
    played, void, django_capture_on_commit_callbacks
):
    target: Any = Match.objects.get(pk=played.match_id) if void is match_void else played
    key = "match_id" if void is match_void else "game_id"
    rows = target.history.count()

    with django_capture_on_commit_callbacks() as callbacks:
        void(**{key: target.pk, "reason": "hall closed"})

    assert target.history.count() == rows + 1
    newest = target.history.first()
    assert newest.history_type == "~" and newest.void_reason == "hall closed"
    competition_id = Match.objects.get(pk=played.match_id).matchday.competition_id
    assert queued_refreshes(callbacks) == [competition_id]


def test_a_game_of_a_voided_match_cannot_be_voided_on_its_own(played):
    match_void(match_id=played.match_id, reason="hall closed")
    with pytest.raises(RuleViolation) as caught:
        game_void(game_id=played.pk, reason="again")
    assert caught.value.code == "game_match_void"


def test_a_replay_on_a_new_date_is_a_new_match_on_a_new_last_matchday(played):
    match_void(match_id=played.match_id, reason="hall closed")

    replay = match_replay_schedule(match_id=played.match_id, date=datetime.date(2026, 11, 6))

    original = Match.objects.get(pk=played.match_id)
    assert original.replayed_by == replay and replay.replay_of == original
    assert (replay.home_id, replay.away_id) == (original.home_id, original.away_id)
    assert (replay.matchday.number, replay.matchday.date) == (2, datetime.date(2026, 11, 6))
    assert replay.voided_at is None and replay.games.count() == 1  # a pairs match's game
    # Sent twice (a double click): the replay made, nothing more.
    again = match_replay_schedule(match_id=played.match_id, date=datetime.date(2026, 11, 6))
    assert again == replay and Match.objects.count() == 2


def test_a_replay_on_a_chosen_matchday(played, django_capture_on_commit_callbacks):
    match_void(match_id=played.match_id, reason="hall closed")
    later = MatchdayFactory.create(competition=played.match.matchday.competition, number=2)

    with django_capture_on_commit_callbacks() as callbacks:
        replay = match_replay_schedule(match_id=played.match_id, matchday_id=later.pk, table=3)

    assert (replay.matchday, replay.table) == (later, 3)
    assert queued_refreshes(callbacks) == [later.competition_id]


@pytest.mark.parametrize(
    ("voided", "where", "code"),
    [
        (False, "date", "replay_match_not_void"),
        (True, "both", "replay_needs_matchday_or_date"),
        (True, "neither", "replay_needs_matchday_or_date"),
        (True, "same", "replay_same_matchday"),
        (True, "busy", "entry_twice_on_matchday"),
        (True, "early", "replay_date_too_early"),
    ],
)
def test_a_replay_is_refused(played, voided, where, code):
    if voided:
        match_void(match_id=played.match_id, reason="hall closed")
    match = Match.objects.select_related("matchday").get(pk=played.match_id)
    later = MatchdayFactory.create(
        competition=match.matchday.competition, number=2, date=datetime.date(2026, 11, 6)
    )
    if where == "busy":  # Kampoe plays on matchday 2 already
        third = match.matchday.competition.entries.order_by("pk")[2]
        Match.objects.create(matchday=later, home=match.home, away=third, table=1)
    choices: dict[str, dict[str, Any]] = {
        "date": {"date": datetime.date(2026, 11, 6)},
        "both": {"date": datetime.date(2026, 11, 6), "matchday_id": later.pk},
        "neither": {},
        "same": {"matchday_id": match.matchday_id},
        "busy": {"matchday_id": later.pk},
        "early": {"date": datetime.date(2026, 11, 5)},  # before matchday 2's evening
    }
    chosen = choices[where]
    with pytest.raises(RuleViolation) as caught:
        match_replay_schedule(match_id=played.match_id, **chosen)
    assert caught.value.code == code
    assert Match.objects.get(pk=played.match_id).replayed_by is None


def test_a_match_is_replayed_once_and_a_voided_replay_is_replayed_in_turn(played):
    match_void(match_id=played.match_id, reason="hall closed")
    first = match_replay_schedule(match_id=played.match_id, date=datetime.date(2026, 11, 6))
    with pytest.raises(RuleViolation) as caught:
        match_replay_schedule(match_id=played.match_id, date=datetime.date(2026, 11, 13))
    assert caught.value.code == "match_replayed_already"

    match_void(match_id=first.pk, reason="wrong koppel came")
    second = match_replay_schedule(match_id=first.pk, date=datetime.date(2026, 11, 13))

    assert second.replay_of == first and first.replay_of.pk == played.match_id
    assert list(Match.objects.counting().values_list("pk", flat=True)) == [second.pk]


@pytest.mark.parametrize("void", [match_void, game_void])
def test_a_voided_game_takes_no_more_rounds(void):
    _, matchday, entries = pairs_matchday(2)
    game = pairs_game(matchday, entries[0], entries[1], table=1)
    target = game.match_id if void is match_void else game.pk
    void(**{"match_id" if void is match_void else "game_id": target, "reason": "hall closed"})
    with pytest.raises(RuleViolation) as caught:
        record(game)
    assert caught.value.code == "game_voided"
    assert not game.rounds.exists()


def test_a_replay_deleted_before_it_is_played_leaves_its_match_voided_and_replayable(played):
    match_void(match_id=played.match_id, reason="hall closed")
    replay = match_replay_schedule(match_id=played.match_id, date=datetime.date(2026, 11, 6))

    match_delete(match_id=replay.pk)

    original = Match.objects.get(pk=played.match_id)
    assert original.replayed_by is None and original.void_reason == "hall closed"
    again = match_replay_schedule(match_id=played.match_id, date=datetime.date(2026, 11, 13))
    assert Match.objects.get(pk=played.match_id).replayed_by == again


def _forfeit(match: Match) -> None:
    match_forfeit_set(
        match_id=match.pk, side="home", reason="no show", seen=match_token_now(match_id=match.pk)
    )


def _totals(match: Match) -> None:
    match_totals_enter(
        match_id=match.pk, total_home=20, total_away=5, seen=match_token_now(match_id=match.pk)
    )


def _lineup(match: Match) -> None:
    club_match_lineup_set(
        match_id=match.pk,
        seen=match_token_now(match_id=match.pk),
        home_teams=[team.pk for team in koppels_of(match.home)[:2]],
        away_teams=[team.pk for team in koppels_of(match.away)[:2]],
    )


def _club_match() -> Match:
    competition = club_competition(2)
    schedule_round_robin_create(competition_id=competition.pk)
    return Match.objects.filter(matchday__competition=competition).order_by("pk")[0]


@pytest.mark.parametrize(
    ("scene", "write"),
    [("pairs", _forfeit), ("pairs", _totals), ("clubs", _lineup)],
    ids=["forfeit", "totals", "lineup"],
)
def test_a_voided_match_takes_no_more_forfeits_totals_or_lineups(scene, write):
    """A voided match counts nowhere (RULES.md has no rule: issue 22): what is written to it
    would vanish from every table, so the write is refused and nothing changes."""
    if scene == "pairs":
        _, matchday, entries = pairs_matchday(4)
        match = Match.objects.get(pk=pairs_game(matchday, entries[0], entries[1], table=1).match_id)
    else:
        match = _club_match()
    match_void(match_id=match.pk, reason="hall closed")
    before = Match.objects.filter(pk=match.pk).values().get()
    games = Game.objects.filter(match=match).count()

    with pytest.raises(RuleViolation) as caught:
        write(Match.objects.get(pk=match.pk))

    assert caught.value.code == "match_voided"
    assert Match.objects.filter(pk=match.pk).values().get() == before
    assert Game.objects.filter(match=match).count() == games
