"""What a tester found at 1,000 koppels (issue 7), each a test on small data: a pairs
file gives the table only on the game, so the matchday pages show and find the game's
table; the director's problems box summarises long lists; the standings' find box shows
only where there is more than one page, and an empty search says so plainly."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from interchange.importer import competition_import
from scoring.selectors.schedule import matchday_matches, matchday_problems
from scoring.views import public
from tests.factories import MatchdayFactory, TeamEntryFactory, league_staff
from tests.paths import SAMPLE
from tournaments.models import Competition, Matchday

pytestmark = pytest.mark.django_db


@pytest.fixture
def sample() -> Competition:
    return competition_import(data=json.loads(SAMPLE.read_text(encoding="utf-8")))


def test_a_pairs_match_shows_and_finds_its_games_table(sample: Competition, client) -> None:
    matchday = sample.matchdays.get(number=1)
    assert not matchday.matches.filter(table__isnull=False).exists()  # the file's shape
    shown = [m.table_shown for m in matchday_matches(matchday=matchday)]  # type: ignore[attr-defined]
    assert shown == sorted(shown) and None not in shown and shown[0] == 1

    url = reverse("matchday_detail", kwargs={"slug": sample.slug, "number": 1})
    page = client.get(url).content.decode()
    assert 'table-number">1<' in page and 'table-number">—<' not in page
    found = list(matchday_matches(matchday=matchday, search=str(shown[1])))
    assert found[0].table_shown == shown[1]  # type: ignore[attr-defined]
    printed = client.get(reverse("matchday_print", kwargs={"slug": sample.slug, "number": 1}))
    assert 'print-table-number">—<' not in printed.content.decode()
    assert not matchday_problems(matchday=matchday).without_table


def test_the_problems_box_summarises_a_long_list(client) -> None:
    matchday: Matchday = MatchdayFactory.create(number=1)
    for _ in range(14):
        TeamEntryFactory.create(competition=matchday.competition)
    client.force_login(league_staff())
    url = reverse(
        "matchday_manage", kwargs={"slug": matchday.competition.slug, "number": matchday.number}
    )
    page = client.get(url).content.decode()
    assert page.count("neither plays nor has a bye on this matchday.") == 10
    assert "… and 4 more entries that neither play nor have a bye." in page


def test_standings_find_box_only_where_there_are_pages(sample: Competition, client, monkeypatch):
    url = reverse("competition_detail", kwargs={"slug": sample.slug})
    assert 'class="standings-search' not in client.get(url).content.decode()
    monkeypatch.setattr(public, "STANDINGS_PER_PAGE", 3)
    assert 'class="standings-search' in client.get(url).content.decode()


def test_an_empty_search_says_nothing_matched(sample: Competition, client) -> None:
    url = reverse("competition_detail", kwargs={"slug": sample.slug})
    page = client.get(url, {"q": "zzzzzz"}).content.decode()
    assert "No koppel or player matches this search." in page
    assert "No standings yet." not in page
    assert 'class="standings-search' in page  # to clear or change the search
