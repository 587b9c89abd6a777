"""The director's pages of issue 22: withdraw an entry (reason and confirmation) and
reinstate it; the check-in of an evening with present/absent buttons, a late koppel's bye
and its pairing with the next late one; strangers kept out."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.services.schedule import schedule_round_robin_create, swiss_matchday_pair
from scoring.services.standings import standings_rebuild
from scoring.services.withdrawals import entry_withdraw
from tests.builders import pairs_competition
from tournaments.models import CheckIn, Competition, Match, Withdrawal

pytestmark = pytest.mark.django_db


@pytest.fixture
def league() -> Competition:
    competition = pairs_competition(4, slug="league", schedule_format="round_robin")
    schedule_round_robin_create(competition_id=competition.pk)
    return competition


def _url(competition: Competition) -> str:
    return reverse("withdrawals_manage", kwargs={"slug": competition.slug})


def _withdraw(client, competition, **changes):
    kampoe = competition.entries.get(team__name="Kampoe")
    data = {
        "action": "withdraw",
        "withdraw-entry": kampoe.pk,
        "withdraw-from_matchday": 2,
        "withdraw-reason": "moved away",
        "withdraw-confirm": "on",
        **changes,
    }
    return client.post(_url(competition), data)


def test_a_director_withdraws_an_entry_and_reinstates_it(director_client, league):
    page = director_client.get(_url(league)).content.decode()
    assert "walk-overs won by the opponents" in page and 'id="withdraw-form"' in page
    assert 'name="withdraw-from_matchday" value="1"' in page  # nothing played yet
    assert _withdraw(director_client, league).status_code == 302
    withdrawal = Withdrawal.objects.get()
    assert (withdrawal.from_matchday, withdrawal.reason) == (2, "moved away")
    assert Match.objects.filter(forfeit_cause=Match.ForfeitCause.WITHDRAWAL).count() == 2
    page = director_client.get(_url(league)).content.decode()
    assert "moved away" in page and "Reinstate" in page
    response = director_client.post(
        _url(league), {"action": "reinstate", "entry": withdrawal.entry_id}
    )
    assert response.status_code == 302
    assert not Withdrawal.objects.exists()
    assert not Match.objects.exclude(forfeit="").exists()


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"withdraw-confirm": ""}, "This field is required."),
        ({"withdraw-reason": ""}, "Say why the entry withdraws."),
        ({"withdraw-from_matchday": ""}, "Give the matchday the withdrawal starts from"),
    ],
)
def test_a_withdrawal_without_what_it_needs_is_refused_on_the_page(
    director_client, league, changes, words
):
    response = _withdraw(director_client, league, **changes)
    assert response.status_code == 422
    assert words in response.content.decode()
    assert not Withdrawal.objects.exists()


@pytest.mark.parametrize("entry", ["²", "abc", "99999999999999999999999", ""])
def test_a_reinstatement_of_a_forged_entry_is_refused_on_the_page(director_client, league, entry):
    response = director_client.post(_url(league), {"action": "reinstate", "entry": entry})
    assert response.status_code == 422
    assert "entry" in response.content.decode().lower()


def test_a_withdrawal_sent_again_is_made_once_and_another_refused_with_its_reason(
    director_client, league
):
    assert _withdraw(director_client, league).status_code == 302
    assert _withdraw(director_client, league).status_code == 302  # a second tab: same
    response = _withdraw(director_client, league, **{"withdraw-from_matchday": 3})
    assert response.status_code == 422
    assert "withdrawn already (from matchday 2)" in response.content.decode()
    assert Withdrawal.objects.get().from_matchday == 2


def test_a_refused_reinstatement_says_why(director_client):
    competition = pairs_competition(4, slug="swiss", schedule_format="swiss")
    _withdraw(director_client, competition, **{"withdraw-from_matchday": 1})
    swiss_matchday_pair(competition_id=competition.pk, number=1)
    entry = Withdrawal.objects.get().entry_id
    response = director_client.post(_url(competition), {"action": "reinstate", "entry": entry})
    assert response.status_code == 422
    assert "matchday 1 was added after it withdrew" in response.content.decode()


def test_strangers_see_neither_page(client, league):
    for url in (_url(league), reverse("checkin_manage", args=[league.slug, 1])):
        assert client.get(url).status_code in (302, 403)


def test_an_evening_pairs_only_those_present_and_places_late_koppels(director_client):
    competition = pairs_competition(6, slug="evening", schedule_format="swiss")
    entries = list(competition.entries.order_by("pk"))
    url = reverse("checkin_manage", args=[competition.slug, 1])
    for entry in entries[:4]:
        response = director_client.post(url, {"entry": entry.pk, "present": "1"})
        assert response.status_code == 302
    assert "4 present" in director_client.get(url).content.decode()
    matchday = swiss_matchday_pair(competition_id=competition.pk, number=1)
    paired = {e for m in matchday.matches.all() for e in (m.home_id, m.away_id)}
    assert paired == {entry.pk for entry in entries[:4]}  # two absent: not paired
    # A late koppel gets the bye; the next late one meets it.
    director_client.post(url, {"entry": entries[4].pk, "present": "1"}, HTTP_HX_REQUEST="true")
    assert matchday.byes.get().entry_id == entries[4].pk
    director_client.post(url, {"entry": entries[5].pk, "present": "1"})
    assert not matchday.byes.exists()
    late = matchday.matches.get(pairing_reason__code="late")
    assert {late.home_id, late.away_id} == {entries[4].pk, entries[5].pk}
    assert late.games.count() == 1
    assert CheckIn.objects.filter(present=True).count() == 6


@pytest.mark.parametrize(
    ("played", "words"),
    [("annul", "All its matches are annulled"), ("keep", "Its results stand.")],
)
def test_the_public_standings_mark_the_withdrawn_entry(client, played, words):
    competition = pairs_competition(
        4, slug="public", schedule_format="round_robin", withdrawal_played=played
    )
    schedule_round_robin_create(competition_id=competition.pk)
    kampoe = competition.entries.get(team__name="Kampoe")
    entry_withdraw(entry_id=kampoe.pk, from_matchday=1, reason="moved away")
    standings_rebuild(competition_id=competition.pk)
    page = client.get(reverse("competition_detail", args=[competition.slug])).content.decode()
    assert page.count('class="badge text-bg-secondary standing-withdrawn"') == 1
    assert "moved away" in page and words in page


def test_the_matchday_page_shows_annulled_matches(client):
    competition = pairs_competition(
        4, slug="annulled", schedule_format="round_robin", withdrawal_played="annul"
    )
    schedule_round_robin_create(competition_id=competition.pk)
    kampoe = competition.entries.get(team__name="Kampoe")
    entry_withdraw(entry_id=kampoe.pk, from_matchday=1, reason="moved away")
    page = client.get(reverse("matchday_detail", args=[competition.slug, 1])).content.decode()
    assert page.count('class="badge text-bg-secondary match-annulled"') == 1  # 1 of 2 matches
