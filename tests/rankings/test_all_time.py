"""History across seasons (issue 22, `rankings.alltime`): the all-time tables add up each
season's own standings, deductions counted exactly once (sportsmanagement #1715), shown
on the player, koppel and club pages; the archive lists every season's competitions.
"""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from rankings.alltime import (
    club_all_time,
    koppel_all_time,
    player_all_time,
    seasons_archive,
)
from scoring.models import Standing
from scoring.services.standings import standings_rebuild
from tests.builders import finished_game, pairs_game
from tests.factories import CompetitionFactory, MatchdayFactory, TeamEntryFactory, TeamFactory
from tournaments.models import Club, Competition, Deduction, Division, Entry

pytestmark = pytest.mark.django_db

# (season, competition slug, koppel's results on its matchdays, points deducted)
SEASONS = [
    ("2024-2025", "avond-2024", ["a", "b"], 2),
    ("2025-2026", "avond-2025", ["a", "a"], 0),
    ("2025-2026", "beker-2025", ["b"], 1),
]


@pytest.fixture
def history(db):
    koppel = TeamFactory.create(key="kampoe")
    for season, slug, results, deducted in SEASONS:
        competition = CompetitionFactory.create(slug=slug, name=slug.title(), season=season)
        ours = TeamEntryFactory.create(competition=competition, team=koppel)
        for number, winner in enumerate(results, start=1):
            day = MatchdayFactory.create(
                competition=competition, number=number, date=datetime.date(2020 + number, 1, 1)
            )
            theirs = TeamEntryFactory.create(competition=competition)
            finished_game(pairs_game(day, ours, theirs, table=1), winner=winner)
        if deducted:
            Deduction.objects.create(
                competition=competition, entry=ours, points=deducted, reason="late"
            )
        standings_rebuild(competition_id=competition.pk)
    return koppel


def test_each_season_line_is_its_own_tables_rows_added_up(history):
    table = koppel_all_time(koppel=history)
    assert [line.season for line in table.seasons] == ["2025-2026", "2024-2025"]
    for line in table.seasons:
        rows = Standing.objects.filter(entry__team=history, competition__season=line.season)
        assert line.competitions == rows.count()
        for column in ("played", "won", "lost", "points", "deducted", "points_for", "saldo"):
            assert getattr(line, column) == sum(getattr(row, column) for row in rows), column


def test_deductions_count_once(history):
    table = koppel_all_time(koppel=history)
    # 2 wins a match, 0 a loss: 2024-2025 won 1 (2 points) less 2; 2025-2026 won 2 (4) less 1.
    assert [(line.points, line.deducted) for line in table.seasons] == [(3, 1), (0, 2)]
    assert (table.total.points, table.total.deducted, table.total.won) == (3, 3, 3)
    assert table.total.competitions == 3


def test_a_players_table_is_their_koppels_entries(history):
    other = TeamFactory.create(player_1=history.player_1)  # no standings: adds nothing
    assert other.pk
    assert player_all_time(player=history.player_1).total == koppel_all_time(koppel=history).total


def test_a_clubs_table_is_its_club_entries(history):
    club = Club.objects.create(key="toppers", name="Toppers")
    competition = CompetitionFactory.create(kind="clubs", season="2025-2026")
    entry = Entry.objects.create(competition=competition, club=club)
    Deduction.objects.create(competition=competition, entry=entry, points=1, reason="late")
    standings_rebuild(competition_id=competition.pk)
    table = club_all_time(club=club)
    assert (table.total.points, table.total.deducted, table.total.competitions) == (-1, 1, 1)


def test_the_profile_pages_show_the_all_time_table(history, client):
    pages = [
        reverse("koppel_detail", kwargs={"key": history.key}),
        reverse("player_detail", kwargs={"key": history.player_1.key}),
    ]
    for url in pages:
        page = client.get(url).content.decode()
        assert "All-time table" in page
        assert "all-time-total" in page


def test_the_archive_lists_every_season_with_its_competitions(history, client):
    archive = seasons_archive()
    assert [(item.season, [c.slug for c in item.competitions]) for item in archive] == [
        ("2025-2026", ["avond-2025", "beker-2025"]),
        ("2024-2025", ["avond-2024"]),
    ]
    page = client.get(reverse("seasons_archive"))
    assert page.status_code == 200
    assert reverse("competition_detail", kwargs={"slug": "avond-2024"}) in page.content.decode()


def test_the_archive_links_the_divisions_of_a_season_that_has_them(history, client):
    """Issue 22: a season grouped in divisions shows its promotion and relegation page from
    the archive; a season without divisions has no such link."""
    Division.objects.create(
        league="STCB",
        season="2025-2026",
        name="Hoofdklasse",
        level=1,
        competition=Competition.objects.get(slug="beker-2025"),
    )

    assert [item.has_divisions for item in seasons_archive()] == [True, False]
    page = client.get(reverse("seasons_archive")).content.decode()
    assert reverse("season_divisions", kwargs={"season": "2025-2026"}) in page
    assert reverse("season_divisions", kwargs={"season": "2024-2025"}) not in page
