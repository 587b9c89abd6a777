"""Issue 22: an entry withdrawn from a matchday on, and reinstated (`entry_withdraw`,
`entry_reinstate`), table-driven over the competition's two withdrawal settings."""

from __future__ import annotations

import datetime

import pytest
from django.db.models import Q

from scoring.models import Game
from scoring.rules import RuleViolation
from scoring.selectors.schedule import matchday_problems
from scoring.selectors.standings import competition_table
from scoring.services.schedule import schedule_round_robin_create, swiss_matchday_pair
from scoring.services.withdrawals import entry_reinstate, entry_withdraw
from tests.builders import finished_game, pairs_competition, record
from tests.refreshes import queued_refreshes
from tournaments.models import Competition, Entry, Match, Matchday, Withdrawal

pytestmark = pytest.mark.django_db


def _league(**settings: str) -> tuple[Competition, Entry]:
    """A 4-koppel round robin (3 matchdays, 2 matches each) whose matchday 1 is played
    (every home koppel wins 20–0), and the entry that withdraws (Kampoe, the first)."""
    competition = pairs_competition(4, schedule_format="round_robin", **settings)
    schedule_round_robin_create(competition_id=competition.pk)
    for match in Match.objects.filter(matchday__number=1, matchday__competition=competition):
        finished_game(match.games.get())
    return competition, competition.entries.get(team__name="Kampoe")


def _mine(entry: Entry) -> list[Match]:
    mine = Match.objects.filter(Q(home=entry) | Q(away=entry))
    return list(mine.select_related("matchday", "home", "away").order_by("pk"))


def _row(competition: Competition, entry: Entry) -> tuple[int, int, int]:
    row = next(r for r in competition_table(competition=competition) if r.entry == entry.pk)
    return row.rank, row.played, row.points


@pytest.mark.parametrize("fixtures", ["walkover", "remove"])
@pytest.mark.parametrize(
    ("played", "applied"), [("keep", "keep"), ("annul", "annul"), ("half", "annul")]
)
def test_a_withdrawal_applies_the_competition_settings(fixtures, played, applied):
    competition, kampoe = _league(withdrawal_fixtures=fixtures, withdrawal_played=played)
    first = next(m for m in _mine(kampoe) if m.matchday.number == 1)
    withdrawal = entry_withdraw(entry_id=kampoe.pk, from_matchday=2, reason="moved away")
    assert (withdrawal.fixtures, withdrawal.played) == (fixtures, applied)
    first.refresh_from_db()
    assert first.forfeit == ""  # the played match is never turned into a forfeit
    later = [m for m in _mine(kampoe) if m.matchday.number >= 2]
    if fixtures == "walkover":
        assert len(later) == 2
        for match in later:
            assert match.forfeit == ("home" if match.home_id == kampoe.pk else "away")
            assert (match.forfeit_cause, match.forfeit_reason) == (
                Match.ForfeitCause.WITHDRAWAL,
                "moved away",
            )
        assert withdrawal.removed == []
    else:
        assert later == []
        assert [item["matchday"] for item in withdrawal.removed] == [2, 3]
        assert not matchday_problems(matchday=Matchday.objects.get(number=2)).left_out
    opponent = first.away if first.home_id == kampoe.pk else first.home
    rank, kampoe_played, _points = _row(competition, kampoe)
    assert rank == 4  # a withdrawn entry ranks after every entry still in
    counted = 0 if applied == "annul" else 1
    # Kept: its two walk-over losses count too; annulled: nothing of it counts.
    walkovers = 2 if fixtures == "walkover" and applied == "keep" else 0
    assert kampoe_played == counted + walkovers
    assert _row(competition, opponent)[1] == counted  # it met Kampoe on matchday 1 only


def test_half_keeps_the_results_of_an_entry_that_played_half():
    competition, kampoe = _league()
    for match in Match.objects.filter(matchday__number=2, matchday__competition=competition):
        finished_game(match.games.get())
    assert entry_withdraw(entry_id=kampoe.pk, from_matchday=3, reason="x").played == "keep"


def test_a_match_in_play_is_not_touched():
    competition, kampoe = _league()
    in_play = next(m for m in _mine(kampoe) if m.matchday.number == 2)
    record(in_play.games.get(), "kap", "a")
    entry_withdraw(entry_id=kampoe.pk, from_matchday=2, reason="x")
    in_play.refresh_from_db()
    assert in_play.forfeit == ""
    assert in_play.games.get().rounds.count() == 1


def test_the_same_withdrawal_twice_writes_once(django_capture_on_commit_callbacks):
    competition, kampoe = _league()
    with django_capture_on_commit_callbacks() as first:
        entry_withdraw(entry_id=kampoe.pk, from_matchday=2, reason="moved away")
    match_rows = Match.history.count()
    with django_capture_on_commit_callbacks() as again:
        entry_withdraw(entry_id=kampoe.pk, from_matchday=2, reason=" moved away ")
    assert queued_refreshes(first) == [competition.pk]
    assert queued_refreshes(again) == []
    assert Withdrawal.history.count() == 1  # one event
    assert Match.history.count() == match_rows
    # Each walk-over's own history row names the event it came from.
    reasons = Match.history.filter(forfeit_cause=Match.ForfeitCause.WITHDRAWAL)
    assert list(reasons.values_list("history_change_reason", flat=True)) == ["withdrawal"] * 2


def test_a_second_withdrawal_from_another_matchday_is_refused():
    _competition, kampoe = _league()
    entry_withdraw(entry_id=kampoe.pk, from_matchday=2, reason="x")
    with pytest.raises(RuleViolation) as caught:
        entry_withdraw(entry_id=kampoe.pk, from_matchday=3, reason="x")
    assert caught.value.code == "entry_already_withdrawn"


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"reason": " ", "from_matchday": 2}, "withdrawal_reason_required"),
        ({"reason": "x" * 201, "from_matchday": 2}, "withdrawal_reason_too_long"),
        ({"reason": "x"}, "withdrawal_from_missing"),
        ({"reason": "x", "from_matchday": 0}, "withdrawal_matchday_invalid"),
    ],
)
def test_bad_input_is_refused_and_nothing_written(kwargs, code):
    _competition, kampoe = _league()
    with pytest.raises(RuleViolation) as caught:
        entry_withdraw(entry_id=kampoe.pk, **kwargs)
    assert caught.value.code == code
    assert not Withdrawal.objects.exists()


def test_a_date_finds_the_first_matchday_on_or_after_it():
    competition, kampoe = _league()
    Matchday.objects.filter(competition=competition).update(date=None)
    Matchday.objects.filter(competition=competition, number=3).update(
        date=datetime.date(2026, 11, 5)
    )
    withdrawal = entry_withdraw(
        entry_id=kampoe.pk, from_date=datetime.date(2026, 11, 1), reason="x"
    )
    assert withdrawal.from_matchday == 3


@pytest.mark.parametrize("fixtures", ["walkover", "remove"])
def test_a_reinstatement_puts_everything_back(fixtures, django_capture_on_commit_callbacks):
    competition, kampoe = _league(withdrawal_fixtures=fixtures)
    before = [(m.matchday.number, m.home_id, m.away_id, m.forfeit) for m in _mine(kampoe)]
    entry_withdraw(entry_id=kampoe.pk, from_matchday=2, reason="x")
    with django_capture_on_commit_callbacks() as callbacks:
        entry_reinstate(entry_id=kampoe.pk)
    assert queued_refreshes(callbacks) == [competition.pk]
    after = [(m.matchday.number, m.home_id, m.away_id, m.forfeit) for m in _mine(kampoe)]
    assert sorted(after) == sorted(before)
    assert all(m.games.count() == 1 for m in _mine(kampoe))
    assert [row.history_type for row in Withdrawal.history.order_by("history_id")] == ["+", "-"]
    # Not withdrawn any more: reinstating again writes nothing.
    with django_capture_on_commit_callbacks() as again:
        entry_reinstate(entry_id=kampoe.pk)
    assert queued_refreshes(again) == []


def test_reinstating_after_a_later_matchday_is_refused():
    competition = pairs_competition(4, schedule_format="swiss")
    kampoe = competition.entries.get(team__name="Kampoe")
    entry_withdraw(entry_id=kampoe.pk, from_matchday=1, reason="ill")
    swiss_matchday_pair(competition_id=competition.pk, number=1)
    with pytest.raises(RuleViolation) as caught:
        entry_reinstate(entry_id=kampoe.pk)
    assert caught.value.params == {"entry": str(kampoe), "number": 1}
    assert caught.value.code == "reinstate_after_later_matchday"
    assert Withdrawal.objects.filter(entry=kampoe).exists()


def test_swiss_never_pairs_a_withdrawn_entry_again():
    competition = pairs_competition(5, schedule_format="swiss")
    kampoe = competition.entries.get(team__name="Kampoe")
    first = swiss_matchday_pair(competition_id=competition.pk, number=1)
    for game in Game.objects.filter(match__matchday=first):
        finished_game(game)
    entry_withdraw(entry_id=kampoe.pk, from_matchday=2, reason="ill")
    second = swiss_matchday_pair(competition_id=competition.pk, number=2)
    places = {e for m in second.matches.all() for e in (m.home_id, m.away_id)}
    assert kampoe.pk not in places
    assert len(places) == 4 and not second.byes.exists()
    assert not matchday_problems(matchday=second).left_out


def test_a_match_or_bye_added_by_hand_refuses_a_withdrawn_entry():
    from scoring.services.matches import bye_add, match_create

    competition = pairs_competition(4)  # a manual schedule
    kampoe, toppers = (competition.entries.get(team__name=name) for name in ("Kampoe", "Toppers"))
    entry_withdraw(entry_id=kampoe.pk, from_matchday=2, reason="moved away")
    before = Matchday.objects.create(competition=competition, number=1)
    after = Matchday.objects.create(competition=competition, number=2)
    for write in (
        lambda: match_create(matchday_id=after.pk, home_id=toppers.pk, away_id=kampoe.pk),
        lambda: bye_add(matchday_id=after.pk, entry_id=kampoe.pk),
    ):
        with pytest.raises(RuleViolation) as caught:
            write()
        assert (caught.value.code, caught.value.params["number"]) == ("entry_withdrawn", 2)
    assert not after.matches.exists() and not after.byes.exists()
    assert match_create(matchday_id=before.pk, home_id=toppers.pk, away_id=kampoe.pk)


def test_a_round_robin_made_after_a_withdrawal_leaves_the_entry_out():
    competition = pairs_competition(5, schedule_format="round_robin")
    kampoe = competition.entries.get(team__name="Kampoe")
    entry_withdraw(entry_id=kampoe.pk, from_matchday=1, reason="never came")
    matchdays = schedule_round_robin_create(competition_id=competition.pk)
    assert len(matchdays) == 3  # four koppels
    assert not _mine(kampoe)


def test_both_sides_withdrawn_forfeit_both_and_one_reinstated_gives_the_other_back():
    competition, kampoe = _league()
    both = next(m for m in _mine(kampoe) if m.matchday.number == 3)
    other = both.away if both.home_id == kampoe.pk else both.home
    entry_withdraw(entry_id=kampoe.pk, from_matchday=2, reason="x")
    entry_withdraw(entry_id=other.pk, from_matchday=2, reason="y")
    both.refresh_from_db()
    assert both.forfeit == "both"
    entry_reinstate(entry_id=kampoe.pk)
    both.refresh_from_db()
    assert both.forfeit == ("home" if both.home_id == other.pk else "away")


@pytest.mark.parametrize("played", ["keep", "annul"])
def test_tiebreaks_follow_the_withdrawal(played):
    """Buchholz and head-to-head read the same outcomes as the points: an annulled entry
    is nobody's opponent any more; a kept one still is."""
    competition, kampoe = _league(withdrawal_played=played)
    first = next(m for m in _mine(kampoe) if m.matchday.number == 1)
    opponent_id = first.away_id if first.home_id == kampoe.pk else first.home_id
    entry_withdraw(entry_id=kampoe.pk, from_matchday=2, reason="x")
    rows = {
        row.entry: row
        for row in competition_table(
            competition=competition, tiebreaks=["points", "buchholz", "head_to_head"]
        )
    }
    kampoe_points = rows[kampoe.pk].points
    if played == "annul":
        assert kampoe.pk not in rows[opponent_id].opponents
        assert rows[opponent_id].buchholz == 0 and rows[kampoe.pk].opponents == []
    else:
        assert kampoe.pk in rows[opponent_id].opponents
        assert rows[opponent_id].buchholz == kampoe_points


def test_reinstating_after_a_matchday_was_played_is_refused():
    competition, kampoe = _league()
    entry_withdraw(entry_id=kampoe.pk, from_matchday=2, reason="x")
    others = Match.objects.filter(matchday__competition=competition, matchday__number=2).exclude(
        forfeit_cause=Match.ForfeitCause.WITHDRAWAL
    )
    finished_game(others.get().games.get())
    with pytest.raises(RuleViolation) as caught:
        entry_reinstate(entry_id=kampoe.pk)
    assert (caught.value.code, caught.value.params["number"]) == (
        "reinstate_after_played_matchday",
        2,
    )
