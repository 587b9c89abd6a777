"""Big matchdays (issue 7): the public matchday page a page of tables at a time with a find
box, and the director's schedule listing only small matchdays' matches.

The page sizes are made small here (monkeypatch) so a few matches make several pages.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.html import escape

from scoring.selectors.schedule import matchday_matches
from scoring.views import competition_manage, public
from tests.factories import (
    CompetitionFactory,
    MatchdayFactory,
    MatchFactory,
    PlayerFactory,
    TeamEntryFactory,
    TeamFactory,
    league_staff,
)
from tournaments.models import Competition, Match, Matchday
from tournaments.selectors import MATCH_ENTRY_JOINS

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def matchday() -> Matchday:
    """Five matches at tables 1–5; the koppel at table 3 is "Kampoe" of Rita Doe."""
    day = MatchdayFactory.create(number=1)
    for table in range(1, 6):
        home = TeamEntryFactory.create(competition=day.competition)
        if table == 3:
            home = TeamEntryFactory.create(
                competition=day.competition,
                team=TeamFactory.create(
                    name="Kampoe", player_1=PlayerFactory.create(name="Rita Doe")
                ),
            )
        MatchFactory.create(matchday=day, home=home, table=table)
    return day


def page_of(client, matchday: Matchday, query: str = "", **extra) -> str:
    url = reverse(
        "matchday_detail", kwargs={"slug": matchday.competition.slug, "number": matchday.number}
    )
    response = client.get(url + query, **extra)
    assert response.status_code == 200
    return response.content.decode()


def tables_shown(html: str) -> list[str]:
    cells = html.split('table-number">')[1:]
    return [cell.split("<", 1)[0] for cell in cells]


def test_a_matchday_of_one_page_shows_no_pager_and_no_find_box(client, matchday):
    html = page_of(client, matchday)
    assert tables_shown(html) == ["1", "2", "3", "4", "5"]
    assert "matches-pages" not in html and 'id="matches-q"' not in html


def test_a_big_matchday_is_paged_with_the_find_box(client, matchday, monkeypatch):
    monkeypatch.setattr(public, "MATCHES_PER_PAGE", 2)
    first = page_of(client, matchday)
    assert tables_shown(first) == ["1", "2"]
    assert 'id="matches-q"' in first and 'class="matches-pages pager"' in first
    assert "1–2 of 5" in first and 'href="?page=3"' in first
    last = page_of(client, matchday, "?page=3")
    assert tables_shown(last) == ["5"]
    assert "5–5 of 5" in last
    # A page past the end (an old link) shows the last page, not an error.
    assert tables_shown(page_of(client, matchday, "?page=99")) == ["5"]
    # 0 and negative numbers show the first page, as on the director's board (Django's
    # get_page would show the last one).
    for asked in ("?page=0", "?page=-3", "?page=%20-1", "?page=00"):
        assert tables_shown(page_of(client, matchday, asked)) == ["1", "2"], asked


@pytest.mark.parametrize(
    ("query", "tables"),
    [
        ("?q=kampoe", ["3"]),  # a koppel name, any case
        ("?q=rita", ["3"]),  # a player
        ("?q=%20Rita%20Doe%20", ["3"]),  # spaces around
        ("?q=nobody", []),
    ],
)
def test_the_find_box_finds_a_table(client, matchday, query, tables):
    html = page_of(client, matchday, query)
    assert tables_shown(html) == tables
    found = len(tables)
    assert f"{found} table{'s' if found != 1 else ''} found for" in html
    assert "No matches on this matchday." not in html
    assert 'id="matches-q"' in html and "Show all" in html


def test_a_table_number_is_found_first(client, matchday):
    # Then the koppels whose names or keys hold the digits (a licence number).
    assert tables_shown(page_of(client, matchday, "?q=3"))[0] == "3"


def test_a_table_number_comes_first_before_names_with_its_digits(client):
    day = MatchdayFactory.create(number=1)
    named = TeamEntryFactory.create(
        competition=day.competition,
        team=TeamFactory.create(name="Koppel 7", player_1=PlayerFactory.create()),
    )
    MatchFactory.create(matchday=day, home=named, table=2)
    MatchFactory.create(matchday=day, table=7)
    assert [m.table for m in matchday_matches(matchday=day, search="7")] == [7, 2]


def test_the_htmx_partial_keeps_the_page_and_the_search(client, matchday, monkeypatch):
    monkeypatch.setattr(public, "MATCHES_PER_PAGE", 2)
    html = page_of(client, matchday, "?page=2", **HTMX)
    assert html.lstrip().startswith('<div id="matches"') and "<html" not in html
    assert tables_shown(html) == ["3", "4"]
    assert tables_shown(page_of(client, matchday, "?q=kampoe", **HTMX)) == ["3"]


def forfeit_of(table: int) -> dict[str, str]:
    return {"forfeit": "home", "forfeit_reason": "no show"} if table == 1 else {}


def test_the_schedule_lists_small_matchdays_and_links_big_ones(client, monkeypatch):
    competition = CompetitionFactory.create(schedule_format=Competition.Format.MANUAL)
    small = MatchdayFactory.create(competition=competition, number=1)
    big = MatchdayFactory.create(competition=competition, number=2)
    shown = MatchFactory.create(matchday=small, table=1)
    for table in (1, 2, 3):
        MatchFactory.create(matchday=big, table=table, **forfeit_of(table))
    monkeypatch.setattr(competition_manage, "SCHEDULE_MATCHES_LISTED", 2)
    client.force_login(league_staff())
    html = client.get(reverse("competition_manage", kwargs={"slug": competition.slug}))
    text = html.content.decode()
    assert escape(str(shown)) in text
    assert "3 matches: open the matchday to see them" in text
    assert "1 of 3 finished" in text and "0 of 1 finished" in text
    hidden = Match.objects.filter(matchday=big).select_related(*MATCH_ENTRY_JOINS)
    assert not any(escape(str(match)) in text for match in hidden)
