"""Stored season rankings (issue 20): the refresh stores what the computation from the games
gives (`rankings.seasons.season_ranking`, today's page), the page reads them paginated
with "as of", a write that moves standings marks the season stale and queues one refresh
of it, and the page's queries don't grow with the season."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any
from unittest import mock

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from rankings.models import Season, SeasonRankingLine, SeasonRankingList, SeasonRankingState
from rankings.season_refresh import KINDS, TALLY_FIELDS, season_rankings_refresh
from rankings.seasons import season_data, season_ranking
from rankings.tasks import season_rankings_refresh as season_rankings_task
from scoring.models import Game
from scoring.rules.seasons import SeasonBy
from scoring.services.rounds import game_rounds_load
from tests.builders import random_matchday
from tests.factories import CompetitionFactory, koppel_entries
from tests.rankings.profile_scenes import club_league
from tests.rankings.test_season_queries import SEASON, grow
from tests.rankings.test_season_rankings import build_scene
from tests.test_query_budgets import random_rounds
from tournaments.models import Matchday

pytestmark = pytest.mark.django_db

COLUMNS = ("rank", "entry", "key", "name", *TALLY_FIELDS)


def assert_stored_is_computed(season: str) -> int:
    """Every ranking of `season` the page can choose (by, kind, each club and none): the
    stored lines, in order, are the computed rows, with the same header. Returns how many
    lines were compared."""
    clubs = season_data(season).clubs
    compared = 0
    for by in SeasonBy:
        for kind in KINDS:
            for club in [None, *clubs]:
                computed = season_ranking(
                    season=season, by=by, kind=kind, club_key=club.key if club else ""
                )
                stored = SeasonRankingList.objects.get(season=season, by=by, kind=kind, club=club)
                assert (stored.games, stored.evenings, stored.best_evenings) == (
                    computed.games,
                    computed.evenings,
                    computed.best_evenings,
                ), (by, kind, club)
                lines = [
                    (
                        *(getattr(line, name) for name in COLUMNS),
                        Fraction(line.best_points, stored.best_evenings)
                        if line.best_points is not None and stored.best_evenings
                        else None,
                    )
                    for line in stored.lines.order_by("position")
                ]
                rows = [
                    (*(getattr(row, name) for name in COLUMNS), row.best) for row in computed.rows
                ]
                assert lines == rows, (by, kind, club)
                compared += len(rows)
    return compared


@pytest.mark.parametrize("best", [None, 2, 3])
def test_the_stored_rankings_are_the_computed_ones_on_generated_data(best: int | None) -> None:
    grow(5)  # clubs, koppels of two clubs, both kinds
    build_scene()  # a transfer, an open game, shared players, another season
    if best:
        Season.objects.create(name=SEASON, best_evenings=best)

    assert season_rankings_refresh(season=SEASON) > 0
    assert assert_stored_is_computed(SEASON) > 100
    assert season_rankings_refresh(season="2025-2026") > 0
    assert_stored_is_computed("2025-2026")


@pytest.mark.parametrize("seed", [1, 2])
def test_the_stored_rankings_are_the_computed_ones_with_many_clubs(seed: int) -> None:
    # 12 clubs whose players move between seasons (some without a club), plus club
    # matches and pairs koppels of two clubs: every club's choices from its own games.
    grow(3)  # rates its players: before the league, whose players play in several koppels
    club_league(seed, clubs=12)

    for season in ("2025-2026", "2026-2027"):
        assert season_rankings_refresh(season=season) > 0
        assert SeasonRankingList.objects.filter(season=season, club__isnull=False).count() >= 8 * 9
        assert assert_stored_is_computed(season) > 100


def test_a_refresh_that_finds_nothing_changed_writes_nothing() -> None:
    grow(3)
    season_rankings_refresh(season=SEASON)
    lines = set(SeasonRankingLine.objects.values_list("pk", flat=True))

    with CaptureQueriesContext(connection) as captured:
        assert season_rankings_refresh(season=SEASON) == 0
    writes = [
        q["sql"]
        for q in captured.captured_queries
        if q["sql"].startswith(("INSERT", "DELETE"))
        or (q["sql"].startswith("UPDATE") and "rankingline" in q["sql"])
    ]
    assert writes == []
    assert set(SeasonRankingLine.objects.values_list("pk", flat=True)) == lines


def test_a_game_more_rewrites_only_the_lines_it_moved_and_agrees_again() -> None:
    grow(4)
    season_rankings_refresh(season=SEASON)
    grow(1)
    written = season_rankings_refresh(season=SEASON)

    assert 0 < written < SeasonRankingLine.objects.count()
    assert_stored_is_computed(SEASON)


def _open_game_of(koppels: int, season: str) -> Game:
    """A pairs competition of `season` with one matchday of `koppels` + 1 entries, its
    games open."""
    competition = CompetitionFactory.create(season=season)
    entries = koppel_entries(competition, koppels + 1)
    matchday = Matchday.objects.create(competition=competition, number=1)
    games = random_matchday(matchday, entries, random.Random(koppels))
    return next(iter(games.values()))


# The season's refresh is queued to run SEASON_RANKINGS_DELAY_SECONDS later (10 s): the
# results of those seconds are in it (it reads the whole season, 1-2 s at 1,000 koppels).
LATER = {"kwargs": {"season": SEASON}, "countdown": 10}


def test_a_game_over_marks_the_season_stale_and_queues_one_refresh_of_it(
    django_capture_on_commit_callbacks: Any,
) -> None:
    first, second, third = (_open_game_of(2, SEASON) for _ in range(3))
    season_rankings_refresh(season=SEASON)
    with mock.patch.object(season_rankings_task, "apply_async") as sent:
        with django_capture_on_commit_callbacks(execute=True):
            game_rounds_load(game_id=first.pk, rounds=random_rounds(random.Random(1)))
            game_rounds_load(game_id=second.pk, rounds=random_rounds(random.Random(2)))
        assert SeasonRankingState.objects.get(season=SEASON).stale_since is not None
        # One task for the season, whatever the number of its competitions written.
        assert [call.kwargs for call in sent.call_args_list] == [LATER]
        with django_capture_on_commit_callbacks(execute=True):  # before the task starts
            game_rounds_load(game_id=third.pk, rounds=random_rounds(random.Random(3)))
        assert sent.call_count == 1, "a result while the refresh waits is in that refresh"

    season_rankings_task(season=SEASON)  # what the worker does

    state = SeasonRankingState.objects.get(season=SEASON)
    assert state.stale_since is None and state.queued_at is None
    assert_stored_is_computed(SEASON)


def test_the_page_reads_the_stored_ranking_as_of_its_refresh_and_says_when_behind(
    client: Client,
) -> None:
    game = _open_game_of(2, SEASON)
    season_rankings_refresh(season=SEASON)
    url = reverse("season_rankings", kwargs={"season": SEASON})
    assert b"season-stale" not in client.get(url).content

    game_rounds_load(game_id=game.pk, rounds=random_rounds(random.Random(3)))  # not refreshed

    page = client.get(url).content.decode()
    assert "season-stale" in page and "As of" in page
    assert "No games counted for this choice." in page  # the stored (older) ranking
    season_rankings_refresh(season=SEASON)
    page = client.get(url).content.decode()
    assert "season-stale" not in page and "No games counted" not in page


def test_a_season_setting_saved_in_the_admin_queues_its_refresh(
    client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    client.force_login(_superuser())
    with (
        mock.patch.object(season_rankings_task, "apply_async") as sent,
        django_capture_on_commit_callbacks(execute=True),
    ):
        response = client.post(
            reverse("admin:rankings_season_add"), {"name": SEASON, "best_evenings": 3}
        )
    assert response.status_code == 302
    assert [call.kwargs for call in sent.call_args_list] == [LATER]


def _superuser() -> Any:
    from django.contrib.auth.models import User

    return User.objects.create_superuser("root", "root@example.com", "pw")


def _built(koppels: int) -> str:
    """A season of its own: one competition of `koppels` + 1 koppels over three played
    matchdays, its rankings stored. Returns the season."""
    season = f"20{koppels:02d}-size"
    competition = CompetitionFactory.create(season=season)
    entries = koppel_entries(competition, koppels + 1)
    rng = random.Random(koppels)
    for number in (1, 2, 3):
        matchday = Matchday.objects.create(competition=competition, number=number)
        for game in random_matchday(matchday, entries, rng).values():
            game_rounds_load(game_id=game.pk, rounds=random_rounds(rng))
    season_rankings_refresh(season=season)
    return season


VARIANTS = ["", "?by=koppel", "?by=club", "?sort=-saldo&page=2", "?sort=name", "?kind=pairs"]


@pytest.mark.parametrize("query", VARIANTS)
def test_the_page_makes_as_many_queries_at_2_koppels_as_at_20(client: Client, query: str) -> None:
    counts = []
    for season in (_built(2), _built(20)):
        url = reverse("season_rankings", kwargs={"season": season}) + query
        client.get(url)  # warm
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        counts.append(len(captured.captured_queries))
    assert counts[0] == counts[1] <= 7
