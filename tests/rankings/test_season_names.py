"""A rename shows on the season rankings page (the stored lines keep names for sorting and
searching: `rankings.season_names`), with the reader cache off and on."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from rankings.models import SeasonRankingLine, SeasonRankingState
from rankings.season_names import season_names_changed
from rankings.season_refresh import season_rankings_refresh
from rankings.tasks import season_rankings_refresh as season_rankings_task
from scoring.rules.seasons import SeasonBy
from tests.rankings.profile_scenes import SEASONS, club_league
from tests.rankings.test_season_stored import _built
from tournaments.models import Club, Player, Team

pytestmark = pytest.mark.django_db


@pytest.fixture(params=["cache off", "cache on"])
def reader_cache(request: Any, settings: Any) -> Any:
    if request.param == "cache on":  # as tests/troefclub/test_reader_cache.py turns it on
        settings.CACHE_URL = "redis://reader-cache-test"  # never dialled: locmem
        settings.READER_CACHE_SECONDS = 300
    cache.clear()
    yield
    cache.clear()


def _renamed(obj: Player | Team | Club, season: str, captured: Any, **fields: str) -> None:
    """Save `obj` with `fields` as the admin does, then run the refresh it queued as the
    worker would (its on-commit callbacks run)."""
    with mock.patch.object(season_rankings_task, "apply_async") as sent, captured(execute=True):
        for name, value in fields.items():
            setattr(obj, name, value)
        obj.save()
    seasons = [call.kwargs["kwargs"]["season"] for call in sent.call_args_list]
    assert season in seasons
    for queued in seasons:
        assert SeasonRankingState.objects.get(season=queued).stale_since is not None
        with captured(execute=True):
            season_rankings_task(season=queued)


def _club_season() -> str:
    """The second season of `club_league` (the last has no name), every season's rankings stored."""
    club_league(4, clubs=3)
    for season in SEASONS:
        season_rankings_refresh(season=season)
    return SEASONS[1]


def _entry(season: str, by: SeasonBy) -> int:
    lines = SeasonRankingLine.objects.filter(ranking__season=season, ranking__by=by.value)
    return lines.values_list("entry", flat=True)[0]


def test_a_renamed_player_shows_by_its_new_name(
    client: Client, reader_cache: Any, django_capture_on_commit_callbacks: Any
) -> None:
    season = _built(2)
    player = Player.objects.get(pk=_entry(season, SeasonBy.PLAYER))
    old = player.name
    url = reverse("season_rankings", kwargs={"season": season})
    assert old in client.get(url).content.decode()  # cached, when the cache is on

    _renamed(player, season, django_capture_on_commit_callbacks, name="Hernoemd Nieuw")

    for query in ("", "?by=koppel", "?sort=name"):
        page = client.get(url + query).content.decode()
        assert "Hernoemd Nieuw" in page and old not in page, query


@pytest.mark.parametrize("model,by", [(Team, SeasonBy.KOPPEL), (Club, SeasonBy.CLUB)])
def test_a_renamed_koppel_or_club_shows_by_its_new_name(
    client: Client,
    reader_cache: Any,
    django_capture_on_commit_callbacks: Any,
    model: type[Team] | type[Club],
    by: SeasonBy,
) -> None:
    season = _built(2) if model is Team else _club_season()
    obj = model.objects.get(pk=_entry(season, by))
    url = reverse("season_rankings", kwargs={"season": season}) + f"?by={by.value}"
    old = escape(str(obj))  # a koppel's name has an &
    assert old in client.get(url).content.decode()

    _renamed(obj, season, django_capture_on_commit_callbacks, name="Hernoemd Nieuw")

    page = client.get(url).content.decode()
    assert "Hernoemd Nieuw" in page and old not in page


def test_a_save_that_renames_nothing_marks_nothing(django_assert_num_queries: Any) -> None:
    season = _club_season()
    club = Club.objects.get(pk=_entry(season, SeasonBy.CLUB))
    with django_assert_num_queries(1):
        assert season_names_changed(instance=club) == set()
    assert SeasonRankingState.objects.get(season=season).stale_since is None
