"""A lineup's forfeit is stored as data and worded in the reader's language on every page
that shows it (the automatic walk-over reason was English on Dutch pages; issue 19's
tester found it, fixed in issue 20's session)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from scoring.forfeit_words import forfeit_reason_stored, forfeit_reason_text
from tests.scoring.services.test_club_match_lineup_set import club_match, lineup_set
from tests.seen import match_token_now
from tournaments.models import Match

STORED_AND_SHOWN = [
    # stored, Dutch, English
    ("fewer than 5 koppels (away 4)", "minder dan 5 koppels (uit 4)", None),
    ("fewer than 3 koppels (home 2)", "minder dan 3 koppels (thuis 2)", None),
    ("fewer than 3 koppels (home 2, away 1)", "minder dan 3 koppels (thuis 2, uit 1)", None),
    # A director's own words are shown as typed, whatever they look like.
    ("te laat", "te laat", "te laat"),
    ("fewer than 3 koppels", "fewer than 3 koppels", "fewer than 3 koppels"),
    ("fewer than 3 koppels (home 2) said the captain", None, None),
]


@pytest.mark.parametrize(("stored", "dutch", "english"), STORED_AND_SHOWN)
def test_a_lineups_reason_is_worded_in_the_active_language(stored, dutch, english):
    with translation.override("nl"):
        assert forfeit_reason_text(stored) == (stored if dutch is None else dutch)
    with translation.override("en"):
        assert forfeit_reason_text(stored) == (stored if english is None else english)


@pytest.mark.parametrize(
    ("fielded", "stored"),
    [
        ({"away": 4}, "fewer than 5 koppels (away 4)"),
        ({"away": 1, "home": 2}, "fewer than 5 koppels (home 2, away 1)"),
    ],
)
def test_the_stored_form_is_the_one_the_pages_word(fielded, stored):
    assert forfeit_reason_stored(5, fielded) == stored
    with translation.override("nl"):
        assert forfeit_reason_text(stored).startswith("minder dan 5 koppels")


@pytest.mark.django_db
def test_the_match_page_and_its_history_say_it_in_dutch(director_client, refreshed):
    match, home, away = club_match()
    with refreshed():
        lineup_set(match.pk, [home[0], None, home[1]], [None, None, away[2]])
    slug = match.matchday.competition.slug
    for name in ("match_detail", "match_history"):
        page = director_client.get(
            reverse(name, kwargs={"slug": slug, "match_id": match.pk}), HTTP_ACCEPT_LANGUAGE="nl"
        )
        assert page.status_code == 200, name
        text = page.content.decode()
        assert "minder dan 3 koppels (thuis 2, uit 1)" in text, name
        assert "fewer than" not in text, name
    board = director_client.get(
        reverse("matchday_board", kwargs={"slug": slug, "number": match.matchday.number}),
        HTTP_ACCEPT_LANGUAGE="nl",
    )
    assert "minder dan 3 koppels (thuis 2, uit 1)" in board.content.decode()


@pytest.mark.django_db
def test_the_directors_form_shows_it_in_dutch_and_saving_it_as_shown_changes_nothing(
    director_client, refreshed
):
    match, home, away = club_match()
    with refreshed():
        lineup_set(match.pk, [home[0], None, home[1]], [None, None, away[2]])
    url = reverse(
        "match_manage", kwargs={"slug": match.matchday.competition.slug, "match_id": match.pk}
    )
    page = director_client.get(url, HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert 'value="minder dan 3 koppels (thuis 2, uit 1)"' in page
    posted = {
        "action": "forfeit",
        "forfeit-side": "both",
        "forfeit-reason": "minder dan 3 koppels (thuis 2, uit 1)",
        "forfeit-seen": match_token_now(match_id=match.pk),
    }
    director_client.post(url, posted, HTTP_ACCEPT_LANGUAGE="nl")
    match.refresh_from_db()
    assert (match.forfeit_reason, match.forfeit_cause) == (
        "fewer than 3 koppels (home 2, away 1)",
        Match.ForfeitCause.LINEUP,
    )
