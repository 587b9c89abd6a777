"""Pages read the stored standings (issue 9): the standings page, the hall display and the
standings export show the `Standing` rows the last refresh wrote, as they are, and compute
no standings on a request (DESIGN.md: "Pages read those rows and show 'as of'").

Each test changes a stored row by hand, to values no computation would give, and reads the
page with the standings computation recorded: the page must show the hand-made values and
compute nothing.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Game, Standing
from scoring.rules import compute_standings
from scoring.selectors.results import competition_match_outcomes, competition_match_sums
from scoring.selectors.standings import competition_table
from scoring.selectors.standings_inputs import competition_standings_inputs
from scoring.services.standings import standings_rebuild
from tests.builders import finished_game
from tests.factories import GameFactory
from tests.patching import patch_everywhere
from tournaments.models import Competition

pytestmark = pytest.mark.django_db

# What a standings computation reads or runs.
COMPUTATION = (
    competition_table,
    competition_standings_inputs,
    competition_match_outcomes,
    competition_match_sums,
    compute_standings,
)


@pytest.fixture
def computed(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The names of the standings computations called (each still runs)."""
    calls: list[str] = []
    for original in COMPUTATION:

        def recorded(
            *args: Any, _name: str = original.__name__, _original: Any = original, **kwargs: Any
        ) -> Any:
            calls.append(_name)
            return _original(*args, **kwargs)

        assert patch_everywhere(monkeypatch, original, recorded)
    yield calls


@pytest.fixture
def competition() -> Competition:
    """Kampoe beat Toppers 20–0, the standings refreshed; then the stored rows changed by
    hand: Toppers first with 77 points and a saldo of 4321 (4341–20), Kampoe second."""
    game: Game = GameFactory.create(competition__slug="stored", competition__name="Stored")
    for team, name in ((game.team_a, "Kampoe"), (game.team_b, "Toppers")):
        team.name = name
        team.save()
    finished_game(game)
    competition = game.match.matchday.competition
    standings_rebuild(competition_id=competition.pk)  # as the queued refresh would
    stored = Standing.objects.filter(competition=competition)
    stored.filter(entry__team__name="Toppers").update(
        rank=1, points=77, points_for=4341, saldo=4321
    )
    stored.filter(entry__team__name="Kampoe").update(rank=2)
    return competition


def test_the_standings_page_shows_the_stored_rows(
    client: Client, competition: Competition, computed: list[str]
) -> None:
    response = client.get(reverse("competition_detail", kwargs={"slug": competition.slug}))

    assert response.status_code == 200
    shown = [
        (row.record.entry.team.name, row.record.rank, row.record.points, row.record.saldo)
        for row in response.context["table"].rows
    ]
    assert shown == [("Toppers", 1, 77, 4321), ("Kampoe", 2, 2, 20)]
    assert "4321" in response.content.decode()
    assert 'class="None"' not in response.content.decode()  # a cell without a class has none
    assert computed == []


def test_the_hall_display_shows_the_stored_rows(
    client: Client, competition: Competition, computed: list[str]
) -> None:
    url = reverse("hall_display", kwargs={"slug": competition.slug})
    response = client.get(url, {"view": "standings"})

    assert response.status_code == 200
    shown = [(row.entry.team.name, row.points, row.saldo) for row in response.context["standings"]]
    assert shown == [("Toppers", 77, 4321), ("Kampoe", 2, 20)]
    assert "+4321" in response.content.decode()
    assert computed == []


def test_the_standings_export_has_the_stored_rows(
    client: Client, competition: Competition, computed: list[str]
) -> None:
    url = reverse("standings_export", kwargs={"slug": competition.slug, "fmt": "csv"})
    response = client.get(url)

    assert response.status_code == 200
    header, *rows = csv.reader(io.StringIO(response.content.decode("utf-8-sig")))
    shown = [(row[header.index("Koppel")], row[header.index("Points")]) for row in rows]
    assert shown == [("Toppers", "77"), ("Kampoe", "2")]
    assert [row[header.index("Saldo")] for row in rows] == ["4321", "20"]
    assert computed == []
