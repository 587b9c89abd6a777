"""Play-offs and deciding matches (issue 22): seeding from the standings' own ranks,
ties on everything, advancement over one and two legs."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import pytest

from scoring.rules import RuleViolation
from scoring.selectors.playoffs import competition_final_order
from scoring.selectors.standings import competition_table
from scoring.services.playoffs import deciding_match_create, playoff_advance, playoff_create
from scoring.tasks import standings_refresh
from tests.playoff_scenes import leg_won, played, three_way_tie, two_pairs_tied
from tournaments.models import Match, Playoff

pytestmark = pytest.mark.django_db


def _seed_names(playoff: Playoff) -> list[str]:
    return [str(seed.entry) for seed in playoff.seeds.select_related("entry__team")]


def test_seeding_follows_the_standings_ranks_with_a_three_way_tie_drawn_by_lot() -> None:
    competition, entries = three_way_tie()
    table = competition_table(competition=competition)
    assert [row.rank for row in table] == [1, 2, 2, 2, 5]
    drawn = [entries[name].pk for name in ("Formula", "Kampoe", "Toppers")]

    playoff = playoff_create(
        competition_id=competition.pk, size=4, legs=1, by=None, lots=[drawn], lot_reason="Lot"
    )

    assert _seed_names(playoff) == ["Pintoboys", "Formula", "Kampoe", "Toppers"]
    seeds = list(playoff.seeds.all())
    assert [seed.source_rank for seed in seeds] == [1, 2, 2, 2]
    assert [seed.decided_by for seed in seeds] == ["saldo", "lot", "lot", "points"]
    assert playoff.lot_reason == "Lot"
    first = [(str(tie.home), str(tie.away)) for tie in playoff.ties.filter(round=1)]
    assert first == [("Pintoboys", "Toppers"), ("Formula", "Kampoe")]


def test_seeding_refuses_a_tie_on_everything_no_lot_or_deciding_match_ordered() -> None:
    competition, _entries = three_way_tie()
    with pytest.raises(RuleViolation) as caught:
        playoff_create(competition_id=competition.pk, size=4, legs=1, by=None)
    assert caught.value.code == "playoff_seeding_tied"
    assert caught.value.params["rank"] == 2
    assert not Playoff.objects.exists()


def test_a_tie_below_the_cut_needs_no_decision() -> None:
    competition, entries = two_pairs_tied()
    lots = [[entries["Formula"].pk, entries["Kampoe"].pk]]  # Toppers and Ekta stay tied
    playoff = playoff_create(
        competition_id=competition.pk, size=2, legs=1, by=None, lots=lots, lot_reason="drawn"
    )
    assert _seed_names(playoff) == ["Formula", "Kampoe"]


@pytest.mark.parametrize(
    ("size", "legs", "code"),
    [
        (3, 1, "playoff_size_invalid"),
        (4, 3, "playoff_legs_invalid"),
        (8, 1, "playoff_too_few_entries"),
    ],
)
def test_a_stage_that_cannot_be_is_refused(size: int, legs: int, code: str) -> None:
    competition, _entries = three_way_tie()
    with pytest.raises(RuleViolation) as caught:
        playoff_create(competition_id=competition.pk, size=size, legs=legs, by=None)
    assert caught.value.code == code


def test_the_same_play_offs_asked_twice_are_made_once_and_others_refused() -> None:
    competition, entries = two_pairs_tied()
    lots = [[entries["Formula"].pk, entries["Kampoe"].pk]]
    first = playoff_create(
        competition_id=competition.pk, size=2, legs=1, by=None, lots=lots, lot_reason="drawn"
    )

    again = playoff_create(
        competition_id=competition.pk, size=2, legs=1, by=None, lots=lots, lot_reason="drawn"
    )
    with pytest.raises(RuleViolation) as caught:
        playoff_create(
            competition_id=competition.pk, size=2, legs=2, by=None, lots=lots, lot_reason="x"
        )

    assert again.pk == first.pk
    assert caught.value.code == "playoff_exists"
    assert Playoff.objects.filter(source=competition).count() == 1


def test_a_lot_needs_its_reason() -> None:
    competition, entries = three_way_tie()
    drawn = [entries[name].pk for name in ("Formula", "Kampoe", "Toppers")]
    with pytest.raises(RuleViolation) as caught:
        playoff_create(competition_id=competition.pk, size=4, legs=1, by=None, lots=[drawn])
    assert caught.value.code == "playoff_lot_reason_required"


def test_a_deciding_match_orders_two_entries_tied_on_everything() -> None:
    competition, entries = two_pairs_tied()
    kampoe, formula = entries["Kampoe"], entries["Formula"]
    deciding = deciding_match_create(
        competition_id=competition.pk, entry_ids=[kampoe.pk, formula.pk], by=None
    )
    tie = deciding.ties.get()
    assert tie.leg_1 is not None and tie.leg_2 is None
    leg_won(tie, 1, by_home=tie.home.team_id == formula.team_id)  # type: ignore[union-attr]
    assert playoff_advance(playoff_id=deciding.pk) == 1
    assert playoff_advance(playoff_id=deciding.pk) == 0  # nothing more: nothing written

    order = competition_final_order(competition=competition)
    assert [place.entry_id for place in order.places[:2]] == [formula.pk, kampoe.pk]
    assert order.places[0].decided_by == "deciding_match"
    assert order.unresolved == [
        (entries["Toppers"].pk, entries["Ekta"].pk)
    ] or order.unresolved == [(entries["Ekta"].pk, entries["Toppers"].pk)]


@pytest.mark.parametrize(
    ("first", "second", "code"),
    [
        ("Kampoe", "Toppers", "deciding_match_not_tied"),
        ("Kampoe", "Kampoe", "deciding_match_two_entries"),
    ],
)
def test_a_deciding_match_between_entries_not_tied_is_refused(
    first: str, second: str, code: str
) -> None:
    competition, entries = two_pairs_tied()
    with pytest.raises(RuleViolation) as caught:
        deciding_match_create(
            competition_id=competition.pk,
            entry_ids=[entries[first].pk, entries[second].pk],
            by=None,
        )
    assert caught.value.code == code


def test_a_single_match_knock_out_moves_winners_on_to_the_final() -> None:
    competition, entries = two_pairs_tied()
    lots = [
        [entries["Kampoe"].pk, entries["Formula"].pk],
        [entries["Ekta"].pk, entries["Toppers"].pk],
    ]
    playoff = playoff_create(
        competition_id=competition.pk, size=4, legs=1, by=None, lots=lots, lot_reason="drawn"
    )
    semi_1, semi_2 = playoff.ties.filter(round=1)
    final = playoff.ties.get(round=2)
    assert final.home is None and final.leg_1 is None
    leg_won(semi_1, 1, by_home=False)  # Toppers (seed 4) beat Kampoe (seed 1)
    leg_won(semi_2, 1, by_home=True)  # Formula (seed 2) beat Ekta

    assert playoff_advance(playoff_id=playoff.pk) == 2

    final.refresh_from_db()
    assert (str(final.home), str(final.away)) == ("Formula", "Toppers")  # the better seed at home
    assert final.leg_1 is not None and final.leg_1.matchday.number == 2
    leg_won(final, 1, by_home=True)
    assert playoff_advance(playoff_id=playoff.pk) == 1
    final.refresh_from_db()
    assert str(final.winner) == "Formula"


def test_home_and_away_level_on_aggregate_goes_to_the_higher_seed() -> None:
    competition, entries = two_pairs_tied()
    playoff = playoff_create(
        competition_id=competition.pk,
        size=2,
        legs=2,
        by=None,
        lots=[[entries["Formula"].pk, entries["Kampoe"].pk]],
        lot_reason="drawn",
    )
    tie = playoff.ties.get()
    assert tie.leg_2 is not None and tie.leg_2.home_id == tie.away_id
    leg_won(tie, 1, by_home=True)
    assert playoff_advance(playoff_id=playoff.pk) == 0  # leg 2 still to come
    leg_won(tie, 2, by_home=True)  # 20–0 each way: level
    assert playoff_advance(playoff_id=playoff.pk) == 1
    tie.refresh_from_db()
    assert str(tie.winner) == "Formula"


def test_a_result_moves_the_winner_on_through_the_standings_refresh(
    refreshed: Callable[[], AbstractContextManager[Any]],
) -> None:
    """The last round of the leg, recorded as any result, queues the stage's standings
    refresh on commit; the refresh moves the winner on (no save() side effect)."""
    competition, entries = two_pairs_tied()
    playoff = playoff_create(
        competition_id=competition.pk,
        size=2,
        legs=1,
        by=None,
        lots=[[entries["Formula"].pk, entries["Kampoe"].pk]],
        lot_reason="drawn",
    )
    tie = playoff.ties.get()
    with refreshed():
        leg_won(tie, 1, by_home=False)
    tie.refresh_from_db()
    assert str(tie.winner) == "Kampoe"
    assert standings_refresh(competition_id=playoff.competition_id) == 0  # again: no change
    assert Match.objects.filter(matchday__competition=playoff.competition).count() == 1


def test_seeding_refuses_standings_that_are_not_final() -> None:
    competition, entries = two_pairs_tied()
    from tests.builders import pairs_game
    from tournaments.models import Matchday

    matchday = Matchday.objects.create(competition=competition, number=9)
    pairs_game(matchday, entries["Kampoe"], entries["Formula"], table=1)
    with pytest.raises(RuleViolation) as caught:
        playoff_create(competition_id=competition.pk, size=2, legs=1, by=None)
    assert caught.value.code == "playoff_source_unfinished"


def test_seeding_counts_a_voided_match_as_no_match_still_to_play() -> None:
    competition, entries = two_pairs_tied()
    from scoring.services.voids import match_void

    played(competition, [(entries["Toppers"], entries["Ekta"])])
    match_void(match_id=Match.objects.order_by("pk").last().pk, reason="hall closed")  # type: ignore[union-attr]
    lots = [[entries["Formula"].pk, entries["Kampoe"].pk]]

    playoff = playoff_create(
        competition_id=competition.pk, size=2, legs=1, by=None, lots=lots, lot_reason="drawn"
    )

    assert _seed_names(playoff) == ["Formula", "Kampoe"]


@pytest.mark.parametrize(
    ("tiebreaks", "seeds"),
    [
        (["points", "points_for", "saldo"], ["Kampoe", "Formula"]),
        (["points", "saldo", "points_for"], ["Formula", "Kampoe"]),
    ],
)
def test_seeding_is_the_stored_standings_order_under_the_competitions_tie_breaks(
    tiebreaks: list[str], seeds: list[str]
) -> None:
    """Kampoe beat Toppers 22–18 (more points for), Formula beat Ekta 20–0 (more saldo):
    the competition's own tie-break order decides, as on its standings page (sendou.ink
    #2645)."""
    import datetime

    from scoring.selectors.standings import competition_standings
    from scoring.services.standings import standings_rebuild
    from tests.builders import finished_game, pairs_competition, pairs_game, play
    from tournaments.models import Matchday

    competition = pairs_competition(4, tiebreaks=tiebreaks)
    entries = {str(e.team.name): e for e in competition.entries.select_related("team")}  # type: ignore[union-attr]
    matchday = Matchday.objects.create(
        competition=competition, number=1, date=datetime.date(2026, 10, 2)
    )
    close = pairs_game(matchday, entries["Kampoe"], entries["Toppers"], table=1)
    play(close, *[("gewone_winst", "b")] * 9, *[("kap", "a")] * 3, ("gewone_winst", "a"))
    play(close, ("kap", "a"))  # 22–18
    finished_game(pairs_game(matchday, entries["Formula"], entries["Ekta"], table=2))
    standings_rebuild(competition_id=competition.pk)
    stored = [str(row.entry) for row in competition_standings(competition=competition)]

    playoff = playoff_create(competition_id=competition.pk, size=2, legs=1, by=None)

    assert _seed_names(playoff) == seeds == stored[:2]
    assert playoff.seeds.first().decided_by == tiebreaks[1]  # type: ignore[union-attr]


def test_a_level_tie_under_deciding_game_gets_a_deciding_match() -> None:
    competition, entries = two_pairs_tied()
    playoff = playoff_create(
        competition_id=competition.pk,
        size=2,
        legs=2,
        by=None,
        level_rule=Playoff.LevelRule.DECIDING_GAME,
        lots=[[entries["Formula"].pk, entries["Kampoe"].pk]],
        lot_reason="drawn",
    )
    tie = playoff.ties.get()
    leg_won(tie, 1, by_home=True)
    leg_won(tie, 2, by_home=True)  # 20–20 over the two legs

    assert playoff_advance(playoff_id=playoff.pk) == 1
    tie.refresh_from_db()
    assert tie.winner is None and tie.decider is not None
    assert tie.decider.matchday.number == 3 and tie.decider.home_id == tie.home_id
    assert playoff_advance(playoff_id=playoff.pk) == 0  # made once

    from scoring.models import Game
    from tests.builders import finished_game

    finished_game(Game.objects.get(match=tie.decider), winner="b")
    assert playoff_advance(playoff_id=playoff.pk) == 1
    tie.refresh_from_db()
    assert str(tie.winner) == "Kampoe"
