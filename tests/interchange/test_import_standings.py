"""An import rebuilds the standings once, in its own transaction, and queues no refresh
(issue 9 point 6: no double rebuild on import)."""

from __future__ import annotations

from unittest import mock

import pytest

from interchange import importer
from interchange.importer import competition_import
from rankings import tasks as rankings_tasks
from rankings.models import SeasonRankingState
from rankings.season_refresh import SEASON_RANKINGS
from rankings.services import RATINGS
from scoring.models import Standing
from scoring.selectors import standings as standings_selectors
from tests.interchange.documents import STCB, load
from tests.rankings.test_season_stored import assert_stored_is_computed
from tournaments.models import Competition
from troefclub.analyze import AnalyzeOnCommit
from troefclub.refresh import RefreshOnCommit

pytestmark = pytest.mark.django_db

# DESIGN.md "Real data": after the four league matches of 24 August 2019 the table ranks
# Formula, Ekta, Pintoboys, Toppers, then the losers.
WINNERS = ["formula", "ekta", "pintoboys", "toppers"]


def import_counting(django_capture_on_commit_callbacks, *, name=None, **options):
    """Import the STCB file (with the competition's `name` when given) and commit; returns
    the competition, how often the importer rebuilt the standings, how often the engine
    computed a table, and the callbacks queued for the commit (run)."""
    data = load(STCB)
    if name is not None:
        data["competition"]["name"] = name
    with (
        mock.patch.object(
            importer, "standings_rebuild", wraps=importer.standings_rebuild
        ) as rebuild,
        mock.patch.object(
            standings_selectors, "compute_standings", wraps=standings_selectors.compute_standings
        ) as compute,
        django_capture_on_commit_callbacks(execute=True) as callbacks,
    ):
        competition = competition_import(data=data, **options)
    # An import queues the ratings refresh (issue 10), its season's rankings' (issue 20) and
    # an ANALYZE (issue 20), not a standings refresh.
    followers = (RATINGS, SEASON_RANKINGS)
    standings = [
        c
        for c in callbacks
        if not (isinstance(c, RefreshOnCommit) and c.queue in followers)
        and not isinstance(c, AnalyzeOnCommit)
    ]
    assert len(standings) == len(callbacks) - 3
    return competition, rebuild.call_count, compute.call_count, standings


def test_an_import_rebuilds_the_standings_once_and_queues_no_refresh(
    django_capture_on_commit_callbacks,
):
    competition, rebuilds, computed, callbacks = import_counting(django_capture_on_commit_callbacks)

    assert (rebuilds, computed, callbacks) == (1, 1, [])
    competition.refresh_from_db()
    assert competition.standings_stale_since is None
    assert competition.standings_computed_at is not None
    table = Standing.objects.filter(competition=competition).order_by("rank", "pk")
    assert [row.entry.key for row in table][:4] == WINNERS
    assert len(table) == competition.entries.count()


def test_a_replacing_import_rebuilds_once_too(django_capture_on_commit_callbacks):
    competition_import(data=load(STCB))

    # Another name: the same file again would leave the competition as it is (issue 19).
    competition, rebuilds, computed, callbacks = import_counting(
        django_capture_on_commit_callbacks, name="STCB, renamed", replace=True
    )

    assert (rebuilds, computed, callbacks) == (1, 1, [])
    assert Competition.objects.filter(slug=competition.slug).count() == 1
    table = Standing.objects.filter(competition=competition).order_by("rank", "pk")
    assert [row.entry.key for row in table][:4] == WINNERS


def test_an_import_leaves_its_seasons_rankings_fresh(django_capture_on_commit_callbacks):
    """Issue 20: the import's commit queues the refresh of the season's stored rankings,
    which (run here as a worker would run it, with or without a broker) leaves them fresh."""
    task = rankings_tasks.season_rankings_refresh
    worker = mock.patch.object(
        task, "apply_async", side_effect=lambda **sent: task(**sent["kwargs"])
    )
    with worker as sent:
        competition, *_ = import_counting(django_capture_on_commit_callbacks)
    assert [call.kwargs["kwargs"] for call in sent.call_args_list] == [
        {"season": competition.season}
    ]

    state = SeasonRankingState.objects.get(season=competition.season)
    assert state.computed_at is not None and state.stale_since is None
    assert_stored_is_computed(competition.season)
