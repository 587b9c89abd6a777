"""Query budgets of every page (issue 7): the same competition built at two sizes must cost
the same number of queries on each page (flat), and no more than the page's budget.

Every URL name of the project's own pages (`tournaments.urls`) needs a row in `BUDGETS`,
or a place in `POST_ONLY` (write endpoints without a page of their own: they answer a
GET with 405): a new page without a budget fails `test_every_page_has_a_budget`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import URLPattern, reverse

from benchmarks.generate import random_game
from scoring import urls as scoring_urls
from scoring.models import Game
from scoring.selectors.results import competition_game_counts, competition_match_scores
from scoring.selectors.schedule import competition_schedule, matchday_problems
from scoring.selectors.standings_inputs import (
    competition_adjustments,
    competition_standings_inputs,
    matches_adjustments,
)
from scoring.services.rounds import RoundRecord, game_rounds_load
from scoring.services.standings import standings_rebuild
from scoring.services.table import game_links_ensure
from scoring.views import matchday_manage
from tests.builders import random_matchday
from tests.factories import CompetitionFactory, koppel_entries, league_staff
from tournaments import urls as tournament_urls
from tournaments.models import Competition, Deduction, Match, Matchday

SMALL, LARGE = 4, 24  # koppels
MATCHDAYS = 3


@dataclass(frozen=True)
class Page:
    """One page: its queries at most, whether a director must be logged in, and how its
    URL's arguments come from the built competition."""

    budget: int
    director: bool
    kwargs: Callable[[Built], dict[str, Any]]


@dataclass(frozen=True)
class Built:
    competition: Competition
    matchday: Matchday
    match: Match
    game: Game


def _slug(b: Built) -> dict[str, Any]:
    return {"slug": b.competition.slug}


def _matchday(b: Built) -> dict[str, Any]:
    return {"slug": b.competition.slug, "number": b.matchday.number}


def _match(b: Built) -> dict[str, Any]:
    return {"slug": b.competition.slug, "match_id": b.match.pk}


def _game(b: Built) -> dict[str, Any]:
    return {"slug": b.competition.slug, "game_id": b.game.pk}


def _table(b: Built) -> dict[str, Any]:
    return {"token": game_links_ensure(game_ids=[b.game.pk])[b.game.pk]["a"].token}


def _stage(b: Built) -> dict[str, Any]:
    """A play-off of two made beside `b` (issue 22): its bracket is the same whatever `b`."""
    from scoring.services.playoffs import playoff_create
    from tests.playoff_scenes import two_pairs_tied

    source, entries = two_pairs_tied(slug=f"stage-of-{b.competition.slug}")
    lots = [[entries["Kampoe"].pk, entries["Formula"].pk]]
    playoff = playoff_create(
        competition_id=source.pk, size=2, legs=1, by=None, lots=lots, lot_reason="drawn"
    )
    return {"slug": playoff.competition.slug}


def _divisions(b: Built) -> dict[str, Any]:
    """A season of its own whose one division is `b`'s competition (issue 22)."""
    from tournaments.models import Division

    season = f"season-{b.competition.slug}"
    Division.objects.create(
        league="STCB", season=season, name="Hoofdklasse", level=1, competition=b.competition
    )
    return {"season": season}


def _round(b: Built) -> dict[str, Any]:
    return {**_game(b), "round_id": b.game.rounds.order_by("number").first().pk}  # type: ignore[union-attr]


# Budgets: the queries each page makes now (sessions and the director's permissions
# included), with little room; they don't grow with the competition. The standings and
# matchday pages read the version of what they show and whether a matchday is in play
# (issue 18: they poll while it is). The matchday page pages its matches' ids before it
# joins the page's (issue 20), and its highlights read the koppels and clubs they name.
BUDGETS: dict[str, Page] = {
    "competition_list": Page(2, False, lambda b: {}),
    # The standings page lists the withdrawn entries (issue 22): one query.
    # One more (issue 22): its play-offs, or on a stage its bracket (`stage_links`).
    "competition_detail": Page(15, False, _slug),
    "matchday_detail": Page(12, False, _matchday),
    "matchday_print": Page(7, False, _matchday),
    "match_detail": Page(7, False, _match),
    "game_detail": Page(5, False, _game),
    "competition_manage": Page(20, True, _slug),
    # Entries not expected on the matchday (withdrawn, absent: issue 22) are not "left out".
    "matchday_manage": Page(23, True, _matchday),
    "match_manage": Page(11, True, _match),
    # The sheet's table switch (previous / next / every table of the matchday) is one query.
    "game_sheet": Page(12, True, _game),
    # Where a director lands after logging in: competitions and tonight's matchday.
    "director_home": Page(6, True, lambda b: {}),
    "round_edit": Page(12, True, _round),
    "round_delete": Page(12, True, _round),
    "game_history": Page(13, True, _game),
    "match_history": Page(12, True, _match),
    # The director's live board of a matchday and the hall display (public); each reads its
    # poll's stamp and the matchday's table index (three queries) to show one page.
    "matchday_board": Page(13, True, _matchday),
    "hall_display": Page(11, False, _slug),
    # Scoring at the table: the table's phone page (no account), the director's link page
    # and queue.
    "table_sheet": Page(8, False, _table),
    # The table page as an app: its manifest (the link and the game) and the service
    # worker (no query at all).
    "table_manifest": Page(5, False, _table),
    "service_worker": Page(0, False, lambda b: {}),
    # Two links, one per koppel, and which koppel entered the rounds.
    "game_link": Page(12, True, _game),
    "director_queue": Page(9, True, _slug),
    # Paper and downloads: the score sheets (directors: QR codes of the table links; two of
    # the queries are the links' savepoint), the pairing sheet, standings and results.
    "game_sheet_pdf": Page(11, True, _game),
    "matchday_sheets_pdf": Page(11, True, _matchday),
    "matchday_pairings_pdf": Page(3, False, _matchday),
    "standings_export": Page(3, False, lambda b: {**_slug(b), "fmt": "xlsx"}),
    "results_export": Page(5, False, lambda b: {**_slug(b), "fmt": "csv"}),
    # Issue 22: the director's withdrawals and the check-in of an evening.
    "withdrawals_manage": Page(12, True, _slug),
    "checkin_manage": Page(12, True, _matchday),
    # Issue 22: the director's seeding page reads the table as the standings compute it,
    # the bracket its stage, seeds, ties and counted legs, the divisions page each
    # division's final order.
    "playoff_manage": Page(14, True, _slug),
    "playoff_bracket": Page(7, False, _stage),
    "playoff_bracket_pdf": Page(7, False, _stage),
    "season_divisions": Page(9, False, _divisions),
}
# Write endpoints (require_POST): their pages are the ones above.
POST_ONLY = {
    "game_seats",
    "match_totals",
    "round_undo",
    "game_totals",
    "game_close",
    "game_reopen",
    "game_confirm",
    # The table phone's queue of rounds (JSON; tests/scoring/views/test_table_queue.py).
    "table_round_send",
    # The score sheet's queue of rounds (JSON; tests/scoring/views/test_sheet_queue.py).
    "sheet_round_send",
}


def random_rounds(rng: random.Random) -> list[RoundRecord]:
    """A valid game to 20 through the engine, without callers or tricks."""
    return [RoundRecord(result=r["result"], side=r["side"]) for r in random_game(rng)]


def build(koppels: int) -> Built:
    """A pairs competition of `koppels` + 1 entries (one bye a matchday) over three played
    matchdays, one match forfeited, one deduction, one game left open; standings stored."""
    rng = random.Random(koppels)
    competition = CompetitionFactory.create(slug=f"budget-{koppels}", confirmation_required=True)
    entries = koppel_entries(competition, koppels + 1)
    for number in range(1, MATCHDAYS + 1):
        matchday = Matchday.objects.create(competition=competition, number=number)
        for table, game in random_matchday(matchday, entries, rng).items():
            if number == MATCHDAYS and table == 1:
                continue  # left open
            game_rounds_load(game_id=game.pk, rounds=random_rounds(rng))
    first = Match.objects.filter(matchday__competition=competition).order_by("pk")[0]
    Match.objects.filter(pk=first.pk).update(forfeit="away", forfeit_reason="no show")
    Deduction.objects.create(
        competition=competition, entry=entries[0], points=1, reason="late", match=first
    )
    standings_rebuild(competition_id=competition.pk)
    matchday = competition.matchdays.get(number=2)
    match = matchday.matches.order_by("table")[0]
    return Built(competition, matchday, match, match.games.get())


def page_names() -> set[str]:
    patterns = [*tournament_urls.urlpatterns, *scoring_urls.urlpatterns]
    return {p.name for p in patterns if isinstance(p, URLPattern) and p.name}


def test_every_page_has_a_budget() -> None:
    missing = page_names() - set(BUDGETS) - POST_ONLY
    assert not missing, f"pages without a query budget in tests/test_query_budgets.py: {missing}"
    assert not (set(BUDGETS) | POST_ONLY) - page_names(), "budget rows for pages that are gone"


@pytest.fixture(scope="module")
def built_sizes(module_atomic: None, django_db_blocker: Any) -> tuple[Built, Built]:
    """Built once for the module (`module_atomic`): no test changes them for the next."""
    with django_db_blocker.unblock():
        return build(SMALL), build(LARGE)


@pytest.fixture
def sizes(db: None, built_sizes: tuple[Built, Built]) -> tuple[Built, Built]:
    return built_sizes


def queries(client: Client, url: str) -> int:
    client.get(url)  # warm: the session, caches of the first request
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return len(captured.captured_queries)


@pytest.mark.parametrize("name", sorted(BUDGETS))
def test_page_queries_are_flat_and_in_budget(
    name: str, sizes: tuple[Built, Built], client: Client
) -> None:
    page = BUDGETS[name]
    if page.director:
        client.force_login(league_staff())
    counts = [queries(client, reverse(name, kwargs=page.kwargs(built))) for built in sizes]
    assert counts[0] == counts[1], f"{name}: {counts[0]} queries at {SMALL}, {counts[1]} at {LARGE}"
    assert counts[1] <= page.budget, f"{name}: {counts[1]} queries, budget {page.budget}"


@pytest.mark.parametrize("query", ["", "?sort=-saldo&page=2", "?sort=entry", "?q=Player"])
def test_standings_page_variants_are_flat(
    query: str, sizes: tuple[Built, Built], client: Client
) -> None:
    counts = [
        queries(client, reverse("competition_detail", kwargs=_slug(built)) + query)
        for built in sizes
    ]
    assert counts[0] == counts[1] <= BUDGETS["competition_detail"].budget


def test_adjustments_agree_with_the_standings_inputs(sizes: tuple[Built, Built]) -> None:
    """The page lists adjustments without recomputing the standings: the same list."""
    for built in sizes:
        competition = built.competition
        inputs = competition_standings_inputs(competition=competition)
        assert competition_adjustments(competition=competition) == inputs.adjustments
        ids = list(
            Match.objects.filter(matchday__competition=competition).values_list("pk", flat=True)
        )
        by_match = matches_adjustments(competition=competition, match_ids=ids)
        assert [a for rows in by_match.values() for a in rows] == [
            a for a in inputs.adjustments if a.match_id is not None
        ]
        counts = competition_game_counts(competition=competition)
        assert (counts.open_games, counts.awaiting) == (inputs.open_games, inputs.awaiting)


def test_matchday_scores_are_the_competition_scores_of_its_matches(
    sizes: tuple[Built, Built],
) -> None:
    built = sizes[1]
    everything = competition_match_scores(competition=built.competition)
    own = competition_match_scores(competition=built.competition, matchday=built.matchday)
    assert own == {pk: everything[pk] for pk in built.matchday.matches.values_list("pk", flat=True)}
    one = competition_match_scores(competition=built.competition, match_ids=[built.match.pk])
    assert one == {built.match.pk: everything[built.match.pk]}


@pytest.mark.parametrize("query", ["?page=2", "?q=Player", "?q=1", "?q=nobody&page=3"])
def test_matchday_page_variants_are_flat(
    query: str, sizes: tuple[Built, Built], client: Client
) -> None:
    counts = [
        queries(client, reverse("matchday_detail", kwargs=_matchday(built)) + query)
        for built in sizes
    ]
    assert counts[0] == counts[1] <= BUDGETS["matchday_detail"].budget


@pytest.mark.parametrize("typed", [False, True], ids=["selects", "typed"])
@pytest.mark.parametrize("query", ["", "?page=2", "?q=Player", "?q=1"])
def test_director_matchday_page_variants_are_flat(
    query: str, typed: bool, sizes: tuple[Built, Built], client: Client, monkeypatch: Any
) -> None:
    """The director's matchday page a few matches a page, with its forms' selects (a club
    evening) or, past `ENTRY_SELECT_MAX`, typed entries and one shared list of them."""
    monkeypatch.setattr(matchday_manage, "MATCHES_PER_PAGE", 3)
    if typed:
        monkeypatch.setattr(matchday_manage, "ENTRY_SELECT_MAX", 0)
    client.force_login(league_staff())
    counts = [
        queries(client, reverse("matchday_manage", kwargs=_matchday(built)) + query)
        for built in sizes
    ]
    assert counts[0] == counts[1] <= BUDGETS["matchday_manage"].budget


def test_schedule_counts_agree_with_the_match_scores(sizes: tuple[Built, Built]) -> None:
    """The schedule counts finished matches in SQL: what the scores say match by match."""
    for built in sizes:
        scores = competition_match_scores(competition=built.competition)
        for summary in competition_schedule(competition=built.competition):
            ids = summary.matchday.matches.values_list("pk", flat=True)
            assert summary.matches == len(ids)
            assert summary.finished == sum(scores[pk].finished for pk in ids)


def test_matchday_problems_match_a_full_read_of_the_season(sizes: tuple[Built, Built]) -> None:
    """The rematch check reads only the earlier matches of today's pairs: the same
    rematches as pairing every match of the season."""
    for built in sizes:
        for matchday in built.competition.matchdays.all():
            met: dict[frozenset[int], set[int]] = {}
            for match in Match.objects.filter(
                matchday__competition=built.competition, matchday__number__lt=matchday.number
            ).select_related("matchday"):
                met.setdefault(frozenset((match.home_id, match.away_id)), set()).add(
                    match.matchday.number
                )
            expected = {
                match.pk: sorted(met[pair])
                for match in matchday.matches.all()
                if (pair := frozenset((match.home_id, match.away_id))) in met
            }
            problems = matchday_problems(matchday=matchday)
            assert {r.match.pk: r.earlier for r in problems.rematches} == expected
