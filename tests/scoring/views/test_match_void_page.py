"""The director's match page voids a match or a game and schedules the replay (issue 22),
through the services; the public pages show "voided" with the reason and the replay link;
another user may not."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.urls import reverse

from scoring.models import Game
from tests.builders import finished_game, pairs_game, pairs_matchday
from tests.factories import UserFactory
from tests.pages import without_bdi
from tournaments.models import Match

pytestmark = pytest.mark.django_db


@pytest.fixture
def played() -> Game:
    _, matchday, entries = pairs_matchday(4)
    return finished_game(pairs_game(matchday, entries[0], entries[1], table=1))


def manage(match_id: int) -> str:
    slug = Match.objects.get(pk=match_id).matchday.competition.slug
    return reverse("match_manage", kwargs={"slug": slug, "match_id": match_id})


def public(match_id: int) -> str:
    slug = Match.objects.get(pk=match_id).matchday.competition.slug
    return reverse("match_detail", kwargs={"slug": slug, "match_id": match_id})


def text(response: Any) -> str:
    return without_bdi(response.content.decode())


def test_the_director_voids_the_match_and_schedules_its_replay(director_client, client, played):
    response = director_client.post(
        manage(played.match_id),
        {"action": "void", "void-reason": "hall closed at 23:00"},
        follow=True,
    )
    assert "Match voided" in text(response)
    match = Match.objects.get(pk=played.match_id)
    assert match.void_reason == "hall closed at 23:00" and match.voided_by is not None
    assert 'id="replay-form"' in text(response)

    response = director_client.post(
        manage(played.match_id),
        {"action": "replay", "replay-matchday": "", "replay-date": "2026-11-06"},
        follow=True,
    )
    assert "Replay scheduled on matchday 2" in text(response)
    match.refresh_from_db()
    assert match.replayed_by is not None
    assert match.replayed_by.matchday.date == datetime.date(2026, 11, 6)

    page = text(client.get(public(played.match_id)))
    assert "hall closed at 23:00" in page and 'id="replayed-by-link"' in page
    assert 'id="replay-of"' in text(client.get(public(match.replayed_by.pk)))


@pytest.mark.parametrize(
    ("data", "error"),
    [
        ({"action": "void", "void-reason": ""}, "This field is required."),
        ({"action": "void_game", "void_game-game": "", "void_game-reason": "x"}, "required"),
    ],
)
def test_a_void_without_reason_or_game_is_refused_on_the_page(director_client, played, data, error):
    response = director_client.post(manage(played.match_id), data)
    assert response.status_code == 422 and error in text(response)
    assert not Match.objects.filter(voided_at__isnull=False).exists()


def test_a_replay_before_the_void_is_not_offered_and_is_refused(director_client, played):
    page = text(director_client.get(manage(played.match_id)))
    assert 'id="replay-form"' not in page and 'id="void-form"' in page
    response = director_client.post(
        manage(played.match_id), {"action": "replay", "replay-date": "2026-11-06"}
    )
    assert response.status_code == 422
    assert "Only a voided match can be replayed" in text(response)


def test_the_director_voids_one_game(director_client, played):
    response = director_client.post(
        manage(played.match_id),
        {"action": "void_game", "void_game-game": played.pk, "void_game-reason": "wrong koppel"},
        follow=True,
    )
    assert "Game voided" in text(response) and "voided" in text(response)
    assert Game.objects.get(pk=played.pk).void_reason == "wrong koppel"


def test_someone_who_does_not_direct_the_competition_cannot_void(client, played):
    client.force_login(UserFactory.create())
    response = client.post(manage(played.match_id), {"action": "void", "void-reason": "x"})
    assert response.status_code in (302, 403, 404)
    assert Match.objects.get(pk=played.match_id).voided_at is None


def test_the_match_history_says_who_voided_why_and_that_a_replay_was_scheduled(
    director_client, played
):
    history = reverse(
        "match_history",
        kwargs={"slug": played.match.matchday.competition.slug, "match_id": played.match_id},
    )
    match = Match.objects.get(pk=played.match_id)
    rows = match.history.count()
    director_client.post(manage(played.match_id), {"action": "void", "void-reason": "hall closed"})
    director_client.post(manage(played.match_id), {"action": "void", "void-reason": "hall closed"})
    director_client.post(manage(played.match_id), {"action": "replay", "replay-date": "2026-11-06"})
    director_client.post(manage(played.match_id), {"action": "replay", "replay-date": "2026-11-06"})

    assert match.history.count() == rows + 2  # the void, the replay's link: once each
    page = text(director_client.get(history))
    assert "Voided. Reason: hall closed" in page and "Replay scheduled" in page
