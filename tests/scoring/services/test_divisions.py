"""Divisions with promotion and relegation (issue 22): the moves from the final standings,
and next season made from them in one go."""

from __future__ import annotations

import pytest

from scoring.rules import RuleViolation
from scoring.selectors.divisions import season_division_moves
from scoring.services.divisions import season_divisions_roll
from tests.builders import pairs_competition
from tests.playoff_scenes import played, two_pairs_tied
from tournaments.models import Competition, Division, Entry

pytestmark = pytest.mark.django_db


def _ranked(koppels: int, slug: str) -> tuple[Competition, list[Entry]]:
    """A pairs competition whose entries finish in order of entry (each beat all below)."""
    competition = pairs_competition(koppels, slug=slug)
    entries = list(competition.entries.order_by("pk"))
    played(
        competition,
        [(entries[i], entries[j]) for i in range(koppels) for j in range(i + 1, koppels)],
    )
    return competition, entries


def _league() -> tuple[Division, Division, list[Entry], list[Entry]]:
    top, top_entries = _ranked(3, "hoofdklasse-2026-2027")
    low, low_entries = _ranked(3, "eerste-klasse-2026-2027")
    first = Division.objects.create(
        league="STCB", season="2026-2027", name="Hoofdklasse", level=1, competition=top
    )
    second = Division.objects.create(
        league="STCB", season="2026-2027", name="Eerste klasse", level=2, competition=low
    )
    return first, second, top_entries, low_entries


def _teams(competition: Competition) -> set[int]:
    return set(competition.entries.values_list("team_id", flat=True))


def test_the_moves_are_the_best_up_and_the_worst_down() -> None:
    _first, _second, top, low = _league()
    moves = {move.division.level: move for move in season_division_moves(season="2026-2027")}
    assert moves[1].up == [] and moves[1].down == [top[2]] and moves[1].staying == top[:2]
    assert moves[2].up == [low[0]] and moves[2].down == [] and moves[2].staying == low[1:]


def test_the_roll_makes_next_season_from_the_moves() -> None:
    first, _second, top, low = _league()
    made = season_divisions_roll(season="2026-2027", next_season="2027-2028", by=None)

    assert [(d.level, d.season, d.competition.slug) for d in made] == [
        (1, "2027-2028", "hoofdklasse-2027-2028"),
        (2, "2027-2028", "eerste-klasse-2027-2028"),
    ]
    assert _teams(made[0].competition) == {top[0].team_id, top[1].team_id, low[0].team_id}
    assert _teams(made[1].competition) == {top[2].team_id, low[1].team_id, low[2].team_id}
    assert made[0].competition.target_score == first.competition.target_score


def test_the_roll_refuses_a_season_made_already_and_writes_nothing() -> None:
    _league()
    season_divisions_roll(season="2026-2027", next_season="2027-2028", by=None)
    competitions = Competition.objects.count()
    with pytest.raises(RuleViolation) as caught:
        season_divisions_roll(season="2026-2027", next_season="2027-2028", by=None)
    assert caught.value.code == "division_season_exists"
    assert Competition.objects.count() == competitions


def test_a_tie_on_everything_across_the_line_is_refused_until_decided() -> None:
    competition, _entries = two_pairs_tied(slug="tied-2026-2027")
    Division.objects.create(
        league="STCB", season="2026-2027", name="Top", level=1, competition=competition
    )
    low, _low_entries = _ranked(2, "low-2026-2027")
    Division.objects.create(
        league="STCB", season="2026-2027", name="Low", level=2, competition=low, promoted=1
    )
    # Top relegates one: Toppers and Ekta share rank 3, the last place.
    with pytest.raises(RuleViolation) as caught:
        season_divisions_roll(season="2026-2027", next_season="2027-2028", by=None)
    assert caught.value.code == "division_boundary_tied"
    assert not Division.objects.filter(season="2027-2028").exists()


@pytest.mark.parametrize("next_season", ["2026-2027", " "])
def test_the_next_season_must_be_another(next_season: str) -> None:
    _league()
    with pytest.raises(RuleViolation) as caught:
        season_divisions_roll(season="2026-2027", next_season=next_season, by=None)
    assert caught.value.code == "division_same_season"
