"""The director's matchday page of a big competition (issue 7): the forms take entries and
matches typed, with one shared list of suggestions, instead of selects of every entry; the
match list comes a page at a time with a find box. A small competition keeps its selects
(tests/scoring/views/test_director_pages.py covers what they do).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from scoring.forms.schedule import ENTRY_SELECT_MAX, entry_lookup, entry_suggestions
from scoring.services.games import game_totals_enter
from scoring.services.schedule import swiss_matchday_pair
from scoring.views import matchday_manage
from tests.factories import CompetitionFactory, TeamEntryFactory
from tests.seen import game_token_now, matchday_token
from tournaments.models import Competition, Entry, Match, Matchday

pytestmark = pytest.mark.django_db

BIG = ENTRY_SELECT_MAX + 1  # odd: one bye


def swiss_of(count: int, **fields: Any) -> Matchday:
    """A Swiss competition of `count` koppels (keys k0, k1, …; the first two named "Twins")
    with matchday 1 paired."""
    competition = CompetitionFactory.create(
        slug=f"open-{count}", schedule_format=Competition.Format.SWISS, **fields
    )
    for number in range(count):
        TeamEntryFactory.create(
            competition=competition,
            team__key=f"k{number}",
            team__name="Twins" if number < 2 else "",
        )
    return swiss_matchday_pair(competition_id=competition.pk, number=1)


@pytest.fixture
def big() -> Matchday:
    return swiss_of(BIG)


def url(matchday: Matchday, query: str = "") -> str:
    kwargs = {"slug": matchday.competition.slug, "number": matchday.number}
    return reverse("matchday_manage", kwargs=kwargs) + query


def text(response: Any) -> str:
    return response.content.decode()


def typed(entry: Entry) -> str:
    """An entry as a director picks it from the suggestions."""
    return f"{entry} ({entry.key})"


def swap(matchday: Matchday, a: str, b: str) -> dict[str, Any]:
    seen = matchday_token(matchday_id=matchday.pk)
    return {"action": "swap", "swap-entry_a": a, "swap-entry_b": b, "swap-seen": seen}


def playing(matchday: Matchday) -> set[frozenset[int]]:
    return {frozenset((m.home_id, m.away_id)) for m in matchday.matches.all()}


# ---------------------------------------------------------------- the widgets


def test_a_big_competition_has_one_shared_list_and_no_selects(director_client, big):
    page = text(director_client.get(url(big)))
    assert page.count("<datalist") == 1
    assert page.count("<option") == BIG
    assert page.count('list="entry-list"') == 5  # swap 2, move 1, add 2
    assert "<select" not in page
    assert "Player" in page  # suggestions read "<player> & <player> (<key>)"


def test_a_small_competition_keeps_its_selects(director_client):
    small = swiss_of(ENTRY_SELECT_MAX)
    page = text(director_client.get(url(small)))
    assert "<datalist" not in page
    assert page.count("<select") == 5


def test_suggestions_name_every_entry_with_its_key(big):
    suggestions = entry_suggestions(big.competition)
    assert len(suggestions) == BIG
    entries = Entry.objects.filter(competition=big.competition).select_related(
        "team__player_1", "team__player_2"
    )
    assert sorted(suggestions) == sorted(typed(entry) for entry in entries)


@pytest.mark.parametrize(
    ("what", "found"),
    [
        ("suggestion", 1),
        ("key", 1),
        ("KEY", 1),
        ("players", 1),
        ("Twins", 2),
        ("twins (k1)", 1),
        ("nobody", 0),
        ("", 0),
    ],
)
def test_entry_lookup_reads_what_a_director_types(big, what, found):
    entry = Entry.objects.select_related("team__player_1", "team__player_2").get(
        competition=big.competition, team__key="k7"
    )
    assert entry.team is not None
    typed_text = {
        "suggestion": typed(entry),
        "key": "k7",
        "KEY": "K7",
        "players": f"{entry.team.player_1.name} & {entry.team.player_2.name}",
    }.get(what, what)
    result = entry_lookup(big.competition, typed_text)
    assert len(result) == found
    if what in ("suggestion", "key", "KEY", "players"):
        assert result == [entry]


# ---------------------------------------------------------------- the actions, typed


def test_swap_two_entries_typed(director_client, big):
    first, second = list(big.matches.order_by("table")[:2])
    response = director_client.post(
        url(big), swap(big, typed(first.home), second.home.key), follow=True
    )
    assert "swapped places" in text(response)
    pairs = playing(big)
    assert frozenset((second.home_id, first.away_id)) in pairs
    assert frozenset((first.home_id, second.away_id)) in pairs


@pytest.mark.parametrize(
    ("a", "message"),
    [
        ("nobody", "There is no koppel “nobody” in this competition."),
        ("Twins", "“Twins” matches 2 koppels: Twins (k0), Twins (k1): pick one from the list."),
        ("", "This field is required."),
    ],
)
def test_a_swap_naming_no_single_koppel_is_refused_in_words(director_client, big, a, message):
    before = playing(big)
    other = big.matches.order_by("table")[0].home.key
    response = director_client.post(url(big), swap(big, a, other))
    assert response.status_code == 422
    assert message in text(response)
    assert f'value="{other}"' in text(response)  # what was typed stays
    assert playing(big) == before


def test_add_a_match_typed_after_removing_one(director_client, big):
    match = big.matches.order_by("table").last()
    assert match is not None
    home, away = match.home, match.away
    director_client.post(url(big), {"action": "delete", "delete-match": match.pk})
    response = director_client.post(
        url(big),
        {"action": "add", "add-home": typed(home), "add-away": away.key.upper()},
        follow=True,
    )
    assert "added at table" in text(response)
    assert Match.objects.filter(matchday=big, home=home, away=away).exists()


def test_adding_an_unknown_koppel_is_refused_in_words(director_client, big):
    count = big.matches.count()
    response = director_client.post(
        url(big), {"action": "add", "add-home": "k0", "add-away": "k999"}
    )
    assert response.status_code == 422
    assert "There is no koppel “k999” in this competition." in text(response)
    assert big.matches.count() == count


@pytest.mark.parametrize("by", ["table", "koppel"])
def test_move_a_match_typed_by_table_or_koppel(director_client, big, by):
    first = big.matches.get(table=1)
    second = big.matches.get(table=2)
    data = {"action": "move", "move-match": "1" if by == "table" else first.away.key}
    response = director_client.post(url(big), {**data, "move-table": "2"})
    assert response.status_code == 302
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.table, second.table) == (2, 1)


def test_a_match_moves_to_a_table_above_99(director_client, big):
    """A 1,000-koppel open has 500 tables."""
    response = director_client.post(
        url(big), {"action": "move", "move-match": "3", "move-table": "250"}
    )
    assert response.status_code == 302
    assert big.matches.filter(table=250).exists()


@pytest.mark.parametrize(
    ("typed_match", "message"),
    [
        ("77", "There is no match at table 77 on this matchday."),
        ("nobody", "There is no koppel “nobody” in this competition."),
        ("bye", "has no match on this matchday."),
    ],
)
def test_moving_a_match_that_is_not_there_is_refused_in_words(
    director_client, big, typed_match, message
):
    if typed_match == "bye":
        typed_match = big.byes.get().entry.key
    tables = sorted(big.matches.values_list("table", flat=True))
    response = director_client.post(
        url(big), {"action": "move", "move-match": typed_match, "move-table": "5"}
    )
    assert response.status_code == 422
    assert message in text(response)
    assert sorted(big.matches.values_list("table", flat=True)) == tables


# ---------------------------------------------------------------- pages and the find box


@pytest.fixture
def per_page_5(monkeypatch):
    monkeypatch.setattr(matchday_manage, "MATCHES_PER_PAGE", 5)


def tables_shown(page: str) -> list[int]:
    return [int(n) for n in re.findall(r'table-number">(\d+)<', page)]


def test_the_match_list_comes_a_page_at_a_time(director_client, big, per_page_5):
    page = text(director_client.get(url(big, "?page=2")))
    assert tables_shown(page) == [6, 7, 8, 9, 10]
    assert "matches-pages" in page
    assert "6–10 of 20" in page
    # The forms post back to the page shown.
    assert 'action="' + url(big, "?page=2") + '"' in page


def test_an_action_on_page_two_comes_back_to_page_two(director_client, big, per_page_5):
    response = director_client.post(
        url(big, "?page=2"), {"action": "move", "move-match": "6", "move-table": "7"}
    )
    assert response.status_code == 302
    assert response["Location"] == url(big, "?page=2")


def test_htmx_answers_with_the_list_and_not_the_suggestions_again(director_client, big):
    response = director_client.get(url(big), HTTP_HX_REQUEST="true")
    assert 'id="matchday"' in text(response)
    assert "<datalist" not in text(response)
    assert 'list="entry-list"' in text(response)


def test_the_find_box_finds_a_koppels_table(director_client, big, per_page_5):
    match = big.matches.get(table=17)
    page = text(director_client.get(url(big, f"?q={match.home.key}")))
    assert 17 in tables_shown(page)
    assert "found for" in page


def test_no_delete_button_when_a_match_on_another_page_has_results(
    director_client, big, per_page_5
):
    last = big.matches.order_by("table").last()
    assert last is not None
    game = last.games.get()
    game_totals_enter(game_id=game.pk, seen=game_token_now(game_id=game.pk), total_a=20, total_b=4)
    page = text(director_client.get(url(big)))
    assert 20 not in tables_shown(page)  # the match with results is on page 4
    assert 'id="matchday-delete-form"' not in page
    assert "This matchday has results" in page
