"""Withdrawals in the interchange file (issue 22): the competition's settings and each
withdrawal (its date, reason, what it applied and removed) round-trip through an export
and an import; a file without them imports with the defaults; a bad one is refused at
its place."""

from __future__ import annotations

import datetime

import pytest

from interchange.errors import InterchangeError
from interchange.exporter import competition_export
from interchange.importer import competition_import
from scoring.selectors.standings import competition_table
from scoring.services.schedule import schedule_round_robin_create
from scoring.services.withdrawals import entry_reinstate, entry_withdraw
from tests.builders import finished_game, pairs_competition
from tournaments.models import Competition, Match, Withdrawal

pytestmark = pytest.mark.django_db


def _withdrawn(fixtures: str) -> Competition:
    competition = pairs_competition(
        4,
        slug="league",
        schedule_format="round_robin",
        withdrawal_fixtures=fixtures,
        withdrawal_played="keep",
    )
    schedule_round_robin_create(competition_id=competition.pk, start=datetime.date(2026, 10, 1))
    for match in Match.objects.filter(matchday__number=1, matchday__competition=competition):
        finished_game(match.games.get())
    kampoe = competition.entries.get(team__name="Kampoe")
    entry_withdraw(entry_id=kampoe.pk, from_date=datetime.date(2026, 10, 5), reason="moved away")
    return competition


@pytest.mark.parametrize("fixtures", ["walkover", "remove"])
def test_a_withdrawal_round_trips(fixtures):
    competition = _withdrawn(fixtures)
    data = competition_export(competition=competition)
    assert data["competition"]["withdrawal"] == (
        {"played": "keep"} if fixtures == "walkover" else {"fixtures": "remove", "played": "keep"}
    )
    (row,) = data["withdrawals"]
    assert (row["from_matchday"], row["date"], row["reason"]) == (2, "2026-10-05", "moved away")
    assert len(row.get("removed", [])) == (2 if fixtures == "remove" else 0)
    table = [(r.rank, r.played, r.points) for r in competition_table(competition=competition)]

    data["competition"]["slug"] = "copy"
    copy = competition_import(data=data)

    assert competition_export(competition=copy) == data
    assert [(r.rank, r.played, r.points) for r in competition_table(competition=copy)] == table
    # What it removed comes back on reinstatement in the copy too.
    entry_reinstate(entry_id=copy.entries.get(team__name="Kampoe").pk)
    assert Match.objects.filter(matchday__competition=copy).count() == 6
    assert not Withdrawal.objects.filter(entry__competition=copy).exists()


def test_a_file_without_withdrawals_gets_the_defaults():
    data = competition_export(competition=pairs_competition(2, slug="plain"))
    assert "withdrawal" not in data["competition"] and "withdrawals" not in data
    data["competition"]["slug"] = "plain-copy"
    copy = competition_import(data=data)
    assert (copy.withdrawal_fixtures, copy.withdrawal_played) == ("walkover", "half")


@pytest.mark.parametrize(
    ("withdrawal", "words"),
    [
        ({"entry": "nobody", "from_matchday": 1, "reason": "x"}, "is not in “entries”"),
        ({"entry": None, "from_matchday": 1, "reason": "x"}, "“entry” must be"),
        ({"from_matchday": 0, "reason": "x"}, "must be at least 1"),
        ({"from_matchday": 1, "reason": " "}, "Say why the entry withdraws."),
        ({"from_matchday": 1, "reason": "x", "played": "half"}, "must be one of"),
    ],
)
def test_a_bad_withdrawal_is_refused_at_its_place(withdrawal, words):
    competition = pairs_competition(2, slug="bad")
    data = competition_export(competition=competition)
    data["competition"]["slug"] = "bad-copy"
    data["withdrawals"] = [{"entry": data["entries"][0], **withdrawal}]
    with pytest.raises(InterchangeError) as caught:
        competition_import(data=data)
    assert "withdrawals[1]" in str(caught.value) and words in str(caught.value)
    assert not Competition.objects.filter(slug="bad-copy").exists()
