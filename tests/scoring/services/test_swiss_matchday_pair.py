"""`swiss_matchday_pair` step by step: the refusals and what a pairing stores (issue 9 split
the service into steps; these pin what no other test did). More in
test_schedule_services.py and schedules/test_swiss_service_writes.py."""

from __future__ import annotations

import pytest

from scoring.models import Game
from scoring.rules import RuleViolation
from scoring.services.schedule import swiss_matchday_pair
from tests.builders import club_competition, pairs_competition
from tournaments.models import Competition

pytestmark = pytest.mark.django_db


def test_an_unknown_competition_is_refused():
    gone = pairs_competition(2, schedule_format="swiss").pk + 1000
    with pytest.raises(RuleViolation) as caught:
        swiss_matchday_pair(competition_id=gone, number=1)
    assert (caught.value.code, caught.value.params) == (
        "competition_unknown",
        {"competition": gone},
    )


def test_a_form_for_a_later_matchday_is_refused_with_the_next_number():
    competition = pairs_competition(4, schedule_format="swiss")
    with pytest.raises(RuleViolation) as caught:
        swiss_matchday_pair(competition_id=competition.pk, number=2)
    assert (caught.value.code, caught.value.params) == (
        "matchday_number_changed",
        {"number": 2, "next": 1},
    )
    assert not competition.matchdays.exists()


def test_a_blank_override_reason_is_no_reason():
    competition = pairs_competition(4, schedule_format="swiss")
    swiss_matchday_pair(competition_id=competition.pk, number=1)
    with pytest.raises(RuleViolation) as caught:
        swiss_matchday_pair(competition_id=competition.pk, number=2, override_reason="  \n ")
    assert caught.value.code == "previous_matchday_unfinished"


def test_a_club_tournament_is_paired_without_games_and_the_bye_keeps_its_reason():
    competition = club_competition(3, schedule_format=Competition.Format.SWISS)
    matchday = swiss_matchday_pair(competition_id=competition.pk, number=1)
    match = matchday.matches.get()
    assert (match.table, match.pairing_reason["code"]) == (1, "same_score_group")
    assert not Game.objects.filter(match__matchday=matchday).exists()  # the lineup makes them
    bye = matchday.byes.get()
    assert {bye.entry_id, match.home_id, match.away_id} == set(
        competition.entries.values_list("pk", flat=True)
    )
    assert bye.reason == {
        "code": "bye_lowest_without_bye",
        "params": {"points": 0, "byes": 0, "passed_over": 0},
    }
