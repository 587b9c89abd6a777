"""The optional `playoff` and `division` keys of `troefclub-competition/1` (issue 22): a
stage and a division exported and imported back the same; a file naming what is not there
refused, named."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from interchange.errors import InterchangeError
from interchange.exporter import competition_export
from interchange.importer import competition_import
from scoring.services.playoffs import playoff_advance, playoff_create
from tests.playoff_scenes import leg_won, two_pairs_tied
from tournaments.models import Competition, Division, Playoff

pytestmark = pytest.mark.django_db


@pytest.fixture
def stage() -> Playoff:
    competition, entries = two_pairs_tied(slug="league-2026")
    lots = [
        [entries["Kampoe"].pk, entries["Formula"].pk],
        [entries["Ekta"].pk, entries["Toppers"].pk],
    ]
    playoff = playoff_create(
        competition_id=competition.pk, size=4, legs=2, by=None, lots=lots, lot_reason="drawn"
    )
    for tie in playoff.ties.filter(round=1):
        leg_won(tie, 1, by_home=True)
        leg_won(tie, 2, by_home=False)
    playoff_advance(playoff_id=playoff.pk)
    return playoff


def _without_slug(document: dict[str, Any]) -> dict[str, Any]:
    document = copy.deepcopy(document)
    document["competition"].pop("slug")
    return document


def test_a_stage_round_trips_with_its_seeds_bracket_and_link(stage: Playoff) -> None:
    exported = competition_export(competition=stage.competition)
    assert exported["playoff"]["source"] == "league-2026"
    assert [seed["entry"] for seed in exported["playoff"]["seeds"]] == [
        str(seed.entry.key) for seed in stage.seeds.all()
    ]
    copied = copy.deepcopy(exported)
    copied["competition"]["slug"] = "league-2026-copy"

    imported = competition_import(data=copied)

    again = Playoff.objects.get(competition=imported)
    assert again.source.slug == "league-2026"
    assert _without_slug(competition_export(competition=imported)) == _without_slug(exported)
    final = again.ties.get(round=2)
    assert final.leg_1 is not None and final.leg_2 is not None
    assert final.leg_1.home_id == final.home_id and final.leg_2.home_id == final.away_id


def test_a_division_round_trips() -> None:
    competition, _entries = two_pairs_tied(slug="hoofd-2026", season="2026-2027")
    Division.objects.create(
        league="STCB",
        season="2026-2027",
        name="Hoofdklasse",
        level=1,
        competition=competition,
        promoted=0,
        relegated=2,
    )
    exported = competition_export(competition=competition)
    assert exported["division"] == {
        "league": "STCB",
        "name": "Hoofdklasse",
        "level": 1,
        "promoted": 0,
        "relegated": 2,
    }
    copied = copy.deepcopy(exported)
    copied["competition"].update(slug="hoofd-2030", season="2030-2031")
    imported = competition_import(data=copied)
    assert Division.objects.get(competition=imported).season == "2030-2031"
    assert competition_export(competition=imported)["division"] == exported["division"]


def test_a_stage_whose_source_is_missing_is_refused_and_nothing_written(stage: Playoff) -> None:
    exported = competition_export(competition=stage.competition)
    exported["competition"]["slug"] = "elsewhere"
    exported["playoff"]["source"] = "no-such-league"
    with pytest.raises(InterchangeError) as caught:
        competition_import(data=exported)
    assert caught.value.place == "playoff"
    assert not Competition.objects.filter(slug="elsewhere").exists()


@pytest.mark.parametrize(
    ("change", "place"),
    [
        ({"size": 3}, "playoff"),
        ({"seeds": []}, "playoff"),
        ({"ties": [{"round": 1, "position": 1, "home": "nobody"}]}, "playoff, tie 1"),
    ],
)
def test_a_malformed_playoff_is_refused_where_it_is(
    stage: Playoff, change: dict[str, Any], place: str
) -> None:
    exported = competition_export(competition=stage.competition)
    exported["competition"]["slug"] = "elsewhere"
    exported["playoff"].update(change)
    with pytest.raises(InterchangeError) as caught:
        competition_import(data=exported)
    assert caught.value.place == place


def test_a_competition_that_seeded_play_offs_is_not_replaced(stage: Playoff) -> None:
    exported = competition_export(competition=stage.source)
    exported["competition"]["name"] = "Another name"
    with pytest.raises(InterchangeError) as caught:
        competition_import(data=exported, replace=True)
    assert caught.value.place == "competition"


def test_a_tie_s_deciding_match_comes_back_by_its_place() -> None:
    competition, entries = two_pairs_tied(slug="league-2027", close_by_director_allowed=True)
    playoff = playoff_create(
        competition_id=competition.pk,
        size=2,
        legs=1,
        by=None,
        level_rule=Playoff.LevelRule.DECIDING_GAME,
        lots=[[entries["Kampoe"].pk, entries["Formula"].pk]],
        lot_reason="drawn",
    )
    tie = playoff.ties.get()
    from scoring.models import Game
    from scoring.services.games import game_close
    from scoring.tokens import game_token_now

    game = Game.objects.get(match=tie.leg_1)  # the leg closed level by the director
    game_close(game_id=game.pk, seen=game_token_now(game_id=game.pk))
    assert playoff_advance(playoff_id=playoff.pk) == 1
    exported = competition_export(competition=playoff.competition)
    exported["competition"]["slug"] = "league-2027-copy"

    imported = competition_import(data=exported)

    again = Playoff.objects.get(competition=imported).ties.get()
    assert again.decider is not None and again.decider.matchday.number == 2
