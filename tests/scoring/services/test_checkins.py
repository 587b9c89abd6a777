"""Issue 22: `checkin_record`, who is present on an evening: a mark sent twice writes
nothing, a withdrawn entry can't be marked present, a Swiss pairing uses only the entries
present, a late koppel gets the late bye."""

from __future__ import annotations

import pytest

from scoring.rules import RuleViolation
from scoring.services.checkins import checkin_record
from scoring.services.schedule import swiss_matchday_pair
from scoring.services.withdrawals import entry_withdraw
from tests.builders import pairs_competition
from tests.refreshes import queued_refreshes
from tournaments.models import CheckIn

pytestmark = pytest.mark.django_db


def test_a_mark_sent_twice_writes_once():
    entry = pairs_competition(2).entries.earliest("pk")
    checkin_record(entry_id=entry.pk, number=1, present=True)
    checkin_record(entry_id=entry.pk, number=1, present=True)
    assert CheckIn.history.count() == 1
    checkin_record(entry_id=entry.pk, number=1, present=False)
    assert CheckIn.history.count() == 2
    assert CheckIn.objects.get().present is False


@pytest.mark.parametrize(
    ("number", "withdraw", "code"),
    [(0, False, "checkin_matchday_invalid"), (1, True, "entry_withdrawn")],
)
def test_refusals(number, withdraw, code):
    entry = pairs_competition(2).entries.earliest("pk")
    if withdraw:
        entry_withdraw(entry_id=entry.pk, from_matchday=1, reason="ill")
    with pytest.raises(RuleViolation) as caught:
        checkin_record(entry_id=entry.pk, number=number, present=True)
    assert caught.value.code == code
    assert not CheckIn.objects.exists()


def test_a_late_koppel_gets_the_late_bye(django_capture_on_commit_callbacks):
    competition = pairs_competition(5, schedule_format="swiss")
    entries = list(competition.entries.order_by("pk"))
    for entry in entries[:4]:
        checkin_record(entry_id=entry.pk, number=1, present=True)
    matchday = swiss_matchday_pair(competition_id=competition.pk, number=1)
    assert not matchday.byes.exists()  # four present: no bye, the fifth is not paired
    with django_capture_on_commit_callbacks() as callbacks:
        checkin_record(entry_id=entries[4].pk, number=1, present=True)
    bye = matchday.byes.get()
    assert (bye.entry_id, bye.reason["code"]) == (entries[4].pk, "late")
    assert queued_refreshes(callbacks) == [competition.pk]
