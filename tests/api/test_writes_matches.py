"""The API's writes of a match and of the schedule (issue 21): reported totals, a forfeit,
pairing the next Swiss matchday."""

from __future__ import annotations

import uuid

import pytest

from scoring.services.schedule import swiss_matchday_pair
from tests.api.writes_helpers import bearer, director_token, link_of, post, table
from tests.builders import pairs_competition
from tests.factories import CompetitionFactory, MatchdayFactory, MatchFactory
from tests.refreshes import queued_refreshes
from tests.seen import match_token_now
from tournaments.models import Match, Matchday

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(db: None) -> Match:
    """A pairs match without games (known only as reported)."""
    competition = CompetitionFactory.create()
    return MatchFactory.create(matchday=MatchdayFactory.create(competition=competition))


def test_match_totals_are_entered_and_the_same_again_write_nothing(
    client, match, django_capture_on_commit_callbacks
):
    token = director_token(match.matchday.competition)
    body = {"total_home": 20, "total_away": 12, "version": match_token_now(match_id=match.pk)}
    with django_capture_on_commit_callbacks() as callbacks:
        response = post(client, f"matches/{match.pk}/totals/", body, auth=bearer(token))
    assert response.status_code == 200
    assert response.json()["total_home"] == 20 and response.json()["total_away"] == 12
    assert response.json()["version"] == match_token_now(match_id=match.pk)
    assert queued_refreshes(callbacks) == [match.matchday.competition_id]
    history = Match.history.filter(id=match.pk).count()
    with django_capture_on_commit_callbacks() as callbacks:
        again = post(client, f"matches/{match.pk}/totals/", body, auth=bearer(token))
    assert again.status_code == 200
    assert Match.history.filter(id=match.pk).count() == history
    assert queued_refreshes(callbacks) == []


def test_match_totals_on_a_stale_version_are_409_with_the_match_now(client, match):
    token = director_token(match.matchday.competition)
    old = match_token_now(match_id=match.pk)
    post(
        client,
        f"matches/{match.pk}/forfeit/",
        {"forfeit": "home", "reason": "no show", "version": old},
        auth=bearer(token),
    )
    body = {"total_home": 20, "total_away": 12, "version": old}
    response = post(client, f"matches/{match.pk}/totals/", body, auth=bearer(token))
    assert response.status_code == 409
    assert response.json()["code"] == "match_changed_meanwhile"
    assert response.json()["current"]["forfeit"] == "home"
    assert response.json()["current"]["version"] == match_token_now(match_id=match.pk)


def test_a_match_with_games_takes_no_totals(client, game):
    match = game.match
    token = director_token(match.matchday.competition)
    body = {"total_home": 20, "total_away": 12, "version": match_token_now(match_id=match.pk)}
    response = post(client, f"matches/{match.pk}/totals/", body, auth=bearer(token))
    assert response.status_code == 422 and response.json()["code"] == "match_has_games"


def test_a_forfeit_is_recorded_then_lifted(client, match):
    token = director_token(match.matchday.competition)
    body = {"forfeit": "away", "reason": "no show", "version": match_token_now(match_id=match.pk)}
    recorded = post(client, f"matches/{match.pk}/forfeit/", body, auth=bearer(token))
    assert recorded.status_code == 200
    assert recorded.json()["forfeit"] == "away" and recorded.json()["forfeit_reason"] == "no show"
    lifted = post(
        client,
        f"matches/{match.pk}/forfeit/",
        {"forfeit": "", "version": recorded.json()["version"]},
        auth=bearer(token),
    )
    assert lifted.status_code == 200 and lifted.json()["forfeit"] == ""


def test_a_forfeit_reason_the_form_refuses_is_refused(client, match):
    token = director_token(match.matchday.competition)
    body = {"forfeit": "away", "reason": "a\nb", "version": match_token_now(match_id=match.pk)}
    response = post(client, f"matches/{match.pk}/forfeit/", body, auth=bearer(token))
    assert response.status_code == 400 and response.json()["place"] == {"field": "reason"}
    match.refresh_from_db()
    assert match.forfeit == ""


def test_a_table_link_may_not_touch_a_match(client, game):
    body = {"forfeit": "away", "reason": "x", "version": match_token_now(match_id=game.match_id)}
    response = post(client, f"matches/{game.match_id}/forfeit/", body, auth=table(link_of(game)))
    assert response.status_code == 403


def test_a_swiss_matchday_is_paired_and_the_next_number_is_its_version(client):
    competition = pairs_competition(4, schedule_format="swiss")
    token = director_token(competition)
    key = uuid.uuid4()
    path = f"competitions/{competition.slug}/matchdays/pair/"
    response = post(client, path, {"number": 1}, auth=bearer(token), key=key)
    assert response.status_code == 200
    answer = response.json()
    assert answer["matchday"] == 1 and answer["next_number"] == 2
    assert len(answer["matches"]) == 2 and answer["byes"] == []
    again = post(client, path, {"number": 1}, auth=bearer(token), key=key)
    assert again.json() == answer and Matchday.objects.count() == 1
    # Another key, the same (stale) number: matchday 1 is paired already.
    stale = post(client, path, {"number": 1}, auth=bearer(token))
    assert stale.status_code == 409 and stale.json()["code"] == "matchday_already_paired"
    assert stale.json()["current"]["next_number"] == 2


def test_pairing_waits_for_the_previous_matchday_unless_told_why(client):
    competition = pairs_competition(4, schedule_format="swiss")
    swiss_matchday_pair(competition_id=competition.pk, number=1)
    token = director_token(competition)
    path = f"competitions/{competition.slug}/matchdays/pair/"
    refused = post(client, path, {"number": 2}, auth=bearer(token), language="nl")
    assert refused.status_code == 422
    assert refused.json()["code"] == "previous_matchday_unfinished"
    assert Matchday.objects.count() == 1
    paired = post(
        client, path, {"number": 2, "override_reason": "two tables left early"}, auth=bearer(token)
    )
    assert paired.status_code == 200 and paired.json()["matchday"] == 2


def test_pairing_a_round_robin_is_refused(client, game):
    competition = game.match.matchday.competition
    token = director_token(competition)
    path = f"competitions/{competition.slug}/matchdays/pair/"
    response = post(client, path, {"number": 2}, auth=bearer(token))
    assert response.status_code == 422 and response.json()["code"] == "not_swiss"


def test_pairing_an_unknown_competition_is_404(client, game):
    token = director_token(game.match.matchday.competition)
    response = post(client, "competitions/nope/matchdays/pair/", {"number": 1}, auth=bearer(token))
    assert response.status_code == 404
