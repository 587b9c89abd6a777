"""The read functions of a matchday and a club match, asserted value by value (issue 9):
`matchday_problems`, `match_movement` and `match_sittings` in scoring/selectors.py.

Each case is built minimally and the expected answer is spelled out by hand: which entries,
which matches, which earlier matchdays; for a club match which koppel sits out when, and the
score after every sitting.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pytest
from django.utils import timezone

from scoring.models import Game
from scoring.selectors.matches import MatchMovement, SittingScore, match_movement, match_sittings
from scoring.selectors.results import MatchScore, competition_match_scores, competition_match_sums
from scoring.selectors.schedule import MatchdayProblems, matchday_problems
from scoring.selectors.standings_inputs import (
    Adjustment,
    competition_adjustments,
    competition_ineligible_players,
    competition_standings_inputs,
    match_adjustments,
)
from scoring.services.lineups import club_match_lineup_set
from tests.factories import (
    ClubEntryFactory,
    CompetitionFactory,
    GameFactory,
    MatchdayFactory,
    MatchFactory,
    PlayerFactory,
    TeamEntryFactory,
    TeamFactory,
)
from tests.seen import match_token_now
from tests.triggers import triggers_dropped
from tournaments.models import Bye, Competition, Entry, Match, Matchday, Squad, SquadMember, Team

pytestmark = pytest.mark.django_db


# ================================================================ matchday_problems


@dataclass(frozen=True)
class Season:
    """A pairs competition with koppel entries named "Koppel 1".."Koppel n" and as many
    matchdays as asked; `play`/`rest` store a match or a bye the way a file import would."""

    competition: Competition
    entries: list[Entry]
    matchdays: list[Matchday]

    def play(self, day: int, home: int, away: int, *, table: int | None = 1) -> Match:
        """Entries numbered from 1 (as named), matchdays from 1."""
        match: Match = MatchFactory.create(
            matchday=self.matchdays[day - 1],
            home=self.entries[home - 1],
            away=self.entries[away - 1],
            table=table,
        )
        return match

    def rest(self, day: int, entry: int) -> Bye:
        return Bye.objects.create(matchday=self.matchdays[day - 1], entry=self.entries[entry - 1])


def season(koppels: int, matchdays: int = 1, **options: object) -> Season:
    competition = CompetitionFactory.create(**options)
    entries = [
        TeamEntryFactory.create(
            competition=competition, team=TeamFactory.create(name=f"Koppel {number}")
        )
        for number in range(1, koppels + 1)
    ]
    days = [
        MatchdayFactory.create(competition=competition, number=number)
        for number in range(1, matchdays + 1)
    ]
    return Season(competition, entries, days)


def summary(problems: MatchdayProblems) -> dict[str, list[object]]:
    """Every list of `problems` by name, as plain values: entries by name, matches as
    (home, away) names, rematches and repeat byes with their earlier matchday numbers."""
    return {
        "left_out": [str(entry) for entry in problems.left_out],
        "without_table": [(str(m.home), str(m.away)) for m in problems.without_table],
        "rematches": [
            (str(r.match.home), str(r.match.away), r.earlier) for r in problems.rematches
        ],
        "repeat_byes": [(str(r.bye.entry), r.earlier) for r in problems.repeat_byes],
        "foreign": [str(entry) for entry in problems.foreign],
        "twice": [str(entry) for entry in problems.twice],
    }


NONE: dict[str, list[object]] = {
    "left_out": [],
    "without_table": [],
    "rematches": [],
    "repeat_byes": [],
    "foreign": [],
    "twice": [],
}


def test_a_clean_matchday_reports_no_problem():
    s = season(5, matchdays=2)
    s.play(1, 1, 2, table=1)
    s.play(1, 3, 4, table=2)
    s.rest(1, 5)
    s.play(2, 1, 3, table=1)
    s.play(2, 5, 2, table=2)
    s.rest(2, 4)

    for day in s.matchdays:
        problems = matchday_problems(matchday=day)
        assert summary(problems) == NONE
        assert not problems


def build_left_out(s: Season) -> Matchday:
    s.play(1, 2, 3)
    return s.matchdays[0]


def build_left_out_in_natural_order(s: Season) -> Matchday:
    s.play(1, 1, 2)
    return s.matchdays[0]  # "Koppel 3".."Koppel 11" left out: 3, 4, ..., 9, 10, 11


def build_without_table(s: Season) -> Matchday:
    s.play(1, 1, 2, table=1)
    s.play(1, 3, 4, table=None)
    return s.matchdays[0]


def build_table_from_the_game(s: Season) -> Matchday:
    # A match without a table of its own shows its first game's (files give it there).
    s.play(1, 1, 2, table=1)
    match = s.play(1, 3, 4, table=None)
    GameFactory.create(match=match, table=7)
    return s.matchdays[0]


def build_rematch(s: Season) -> Matchday:
    s.play(1, 1, 2)
    s.play(2, 2, 1)  # the other way round is the same pair
    s.play(2, 3, 4, table=2)
    return s.matchdays[1]


def build_rematch_of_two_earlier(s: Season) -> Matchday:
    s.play(1, 1, 2)
    s.play(1, 3, 4, table=2)
    s.play(2, 1, 3)
    s.play(2, 2, 4, table=2)
    s.play(3, 1, 2)
    s.play(3, 4, 3, table=2)
    s.play(4, 2, 1)
    s.play(4, 4, 3, table=2)
    return s.matchdays[3]


def build_later_meeting_is_no_rematch(s: Season) -> Matchday:
    s.play(1, 1, 2)
    s.play(1, 3, 4, table=2)
    s.play(2, 1, 2)
    s.play(2, 3, 4, table=2)
    return s.matchdays[0]  # matchday 2 repeats matchday 1, not the other way round


def build_repeat_bye(s: Season) -> Matchday:
    s.play(1, 1, 2)
    s.rest(1, 3)
    s.play(2, 1, 4)
    s.play(2, 2, 5, table=2)
    s.rest(2, 3)
    return s.matchdays[1]


def build_repeat_bye_of_two_earlier(s: Season) -> Matchday:
    for day in (1, 2):
        s.play(day, 1, 2)
        s.rest(day, 3)
    s.play(3, 1, 4)
    s.play(3, 2, 5, table=2)
    s.rest(3, 3)
    return s.matchdays[2]


def build_foreign(s: Season) -> Matchday:
    stranger = TeamEntryFactory.create(team=TeamFactory.create(name="Stranger"))
    with triggers_dropped():  # stored before the database refused it (issue 6)
        MatchFactory.create(matchday=s.matchdays[0], home=s.entries[0], away=stranger, table=1)
    s.play(1, 2, 3, table=2)
    return s.matchdays[0]


def build_twice(s: Season) -> Matchday:
    s.play(1, 1, 2)
    with triggers_dropped():
        s.play(1, 3, 1, table=2)
        s.rest(1, 2)
    return s.matchdays[0]


@pytest.mark.parametrize(
    ("koppels", "matchdays", "schedule_format", "build", "expected"),
    [
        pytest.param(3, 1, "manual", build_left_out, {"left_out": ["Koppel 1"]}, id="left-out"),
        pytest.param(
            11,
            1,
            "manual",
            build_left_out_in_natural_order,
            {"left_out": [f"Koppel {n}" for n in range(3, 12)]},
            id="left-out-natural-order",
        ),
        pytest.param(
            4,
            1,
            "manual",
            build_without_table,
            {"without_table": [("Koppel 3", "Koppel 4")]},
            id="without-table",
        ),
        pytest.param(4, 1, "manual", build_table_from_the_game, {}, id="table-of-its-game"),
        pytest.param(
            4,
            2,
            "manual",
            build_rematch,
            {"rematches": [("Koppel 2", "Koppel 1", [1])]},
            id="rematch",
        ),
        pytest.param(
            4,
            2,
            "double_round_robin",
            build_rematch,
            {},
            id="double-round-robin-return-leg",
        ),
        pytest.param(
            4,
            4,
            "double_round_robin",
            build_rematch_of_two_earlier,
            {"rematches": [("Koppel 2", "Koppel 1", [1, 3]), ("Koppel 4", "Koppel 3", [1, 3])]},
            id="double-round-robin-third-meeting",
        ),
        pytest.param(4, 2, "manual", build_later_meeting_is_no_rematch, {}, id="later-meeting"),
        pytest.param(
            5, 2, "manual", build_repeat_bye, {"repeat_byes": [("Koppel 3", [1])]}, id="repeat-bye"
        ),
        pytest.param(
            5, 2, "double_round_robin", build_repeat_bye, {}, id="double-round-robin-second-bye"
        ),
        pytest.param(
            5,
            3,
            "double_round_robin",
            build_repeat_bye_of_two_earlier,
            {"repeat_byes": [("Koppel 3", [1, 2])]},
            id="double-round-robin-third-bye",
        ),
        pytest.param(3, 1, "manual", build_foreign, {"foreign": ["Stranger"]}, id="foreign"),
        pytest.param(3, 1, "manual", build_twice, {"twice": ["Koppel 1", "Koppel 2"]}, id="twice"),
    ],
)
def test_matchday_problems_reports_each_kind_exactly(
    koppels: int,
    matchdays: int,
    schedule_format: str,
    build: Callable[[Season], Matchday],
    expected: dict[str, list[object]],
) -> None:
    s = season(koppels, matchdays, schedule_format=schedule_format)
    matchday = build(s)

    problems = matchday_problems(matchday=matchday)

    assert summary(problems) == NONE | expected
    assert bool(problems) is bool(expected)


def test_a_rematch_holds_the_match_of_the_matchday_and_a_repeat_bye_its_bye():
    s = season(5, matchdays=2)
    s.play(1, 1, 2)
    s.play(1, 3, 4, table=2)
    s.rest(1, 5)
    rematch = s.play(2, 2, 1)
    s.play(2, 3, 4, table=2)
    bye = s.rest(2, 5)

    problems = matchday_problems(matchday=s.matchdays[1])

    assert [(r.match.pk, r.earlier) for r in problems.rematches] == [
        (rematch.pk, [1]),
        (Match.objects.get(matchday=s.matchdays[1], table=2).pk, [1]),
    ]
    assert [(r.bye.pk, r.earlier) for r in problems.repeat_byes] == [(bye.pk, [1])]


def test_matches_without_a_table_come_in_table_then_id_order():
    s = season(6)
    third = s.play(1, 5, 6, table=None)
    first = s.play(1, 1, 2, table=None)
    s.play(1, 3, 4, table=1)

    problems = matchday_problems(matchday=s.matchdays[0])

    assert [m.pk for m in problems.without_table] == [third.pk, first.pk]
    assert [m.table_shown for m in problems.without_table] == [None, None]  # type: ignore[attr-defined]


def test_other_competitions_matchdays_are_not_earlier_meetings():
    s = season(2, matchdays=2)
    other = CompetitionFactory.create()
    other_day = MatchdayFactory.create(competition=other, number=1)
    with triggers_dropped():  # the same koppels' entries, met in another competition
        MatchFactory.create(matchday=other_day, home=s.entries[0], away=s.entries[1], table=1)
    s.play(2, 1, 2)

    assert summary(matchday_problems(matchday=s.matchdays[1])) == NONE


# ================================================================ match_movement


def club_koppels(entry: Entry, count: int) -> list[Team]:
    return [
        TeamFactory.create(
            player_1=PlayerFactory.create(club=entry.club),
            player_2=PlayerFactory.create(club=entry.club),
        )
        for _ in range(count)
    ]


def club_match(**options: object) -> tuple[Match, list[Team], list[Team]]:
    """A club match and `koppels_per_side` koppels of each club (home, away)."""
    competition = CompetitionFactory.create(kind="clubs", **options)
    home = ClubEntryFactory.create(competition=competition)
    away = ClubEntryFactory.create(competition=competition)
    match = MatchFactory.create(
        matchday=MatchdayFactory.create(competition=competition), home=home, away=away
    )
    size = competition.koppels_per_side
    return match, club_koppels(home, size), club_koppels(away, size)


def lineup(
    match: Match,
    home: Sequence[Team | None],
    away: Sequence[Team | None],
    late: dict[int, int] | None = None,
) -> Match:
    club_match_lineup_set(
        match_id=match.pk,
        seen=match_token_now(match_id=match.pk),
        home_teams=[t.pk if t else None for t in home],
        away_teams=[t.pk if t else None for t in away],
        late=late,
    )
    return Match.objects.select_related("matchday__competition").get(pk=match.pk)


def movement_of(match: Match) -> tuple[int, int, int, bool, dict[int, list[int]]] | None:
    movement = match_movement(match=match)
    if movement is None:
        return None
    sits_out = {n: [t.pk for t in teams] for n, teams in movement.sits_out.items()}
    return movement.tables, movement.sittings, movement.planned, movement.capped, sits_out


def test_a_full_lineup_moves_over_all_tables_and_nobody_sits_out():
    match, home, away = club_match(koppels_per_side=3, min_koppels=3, sittings=3)

    assert movement_of(lineup(match, home, away)) == (3, 3, 3, False, {})


def test_the_koppel_facing_an_empty_away_place_sits_out_at_the_table_it_reaches():
    match, home, away = club_match(koppels_per_side=3, min_koppels=2, sittings=3)
    h1, h2, h3 = home
    a1, a2, _ = away

    # Away places [a1, a2, —] move one table on per sitting: table t meets away place
    # (t + s - 2) mod 3 + 1, so the empty place 3 faces table 3, then 2, then 1.
    assert movement_of(lineup(match, home, [a1, a2, None])) == (
        3,
        3,
        3,
        False,
        {1: [h3.pk], 2: [h2.pk], 3: [h1.pk]},
    )


def test_the_away_koppel_facing_an_empty_home_place_sits_out():
    match, home, away = club_match(koppels_per_side=3, min_koppels=2, sittings=2)
    h1, h2, _ = home
    a1, a2, a3 = away

    # Home places [h1, h2, —]: table 3 is empty at home; away place (3 + s - 2) mod 3 + 1
    # comes to it: place 3 in sitting 1, place 1 in sitting 2.
    assert movement_of(lineup(match, [h1, None, h2], away)) == (
        3,
        2,
        2,
        False,
        {1: [a3.pk], 2: [a1.pk]},
    )


def test_fewer_koppels_than_sittings_caps_the_sittings():
    match, home, away = club_match(koppels_per_side=4, min_koppels=2, sittings=4)

    assert movement_of(lineup(match, [home[0], None, home[1], None], [None, *away[:2], None])) == (
        2,
        2,
        4,
        True,
        {},
    )


def test_a_late_koppel_leaves_its_opponent_out_until_it_comes():
    match, home, away = club_match(
        koppels_per_side=3, min_koppels=3, sittings=3, late_koppel_until_sitting=3
    )
    h1, h2, h3 = home
    a1, a2, a3 = away

    # a3 (away place 3) comes in sitting 3: place 3 is at table 3, then 2, then 1.
    assert movement_of(lineup(match, home, away, late={a3.pk: 3})) == (
        3,
        3,
        3,
        False,
        {1: [h3.pk], 2: [h2.pk]},
    )


def test_a_side_fielding_nobody_has_tables_but_no_sittings():
    match, home, _away = club_match(koppels_per_side=3, min_koppels=2, sittings=3)

    assert movement_of(lineup(match, home, [None, None, None])) == (3, 0, 3, False, {})


def test_no_movement_for_a_pairs_match_or_a_club_match_without_lineup():
    assert match_movement(match=GameFactory.create().match) is None
    match, _home, _away = club_match(koppels_per_side=2, min_koppels=2, sittings=2)
    assert match_movement(match=match) is None


def test_a_stored_lineup_the_movement_no_longer_takes_gives_no_movement():
    match, home, away = club_match(koppels_per_side=2, min_koppels=2, sittings=2)
    # A koppel late until sitting 3 of a 2-sitting match (`movement_late_sitting`).
    Match.objects.filter(pk=match.pk).update(
        lineup={
            "home": [home[0].pk, home[1].pk],
            "away": [away[0].pk, away[1].pk],
            "late": {str(away[1].pk): 3},
        }
    )
    assert match_movement(match=Match.objects.get(pk=match.pk)) is None


def test_match_movement_reads_the_koppels_sitting_out_in_one_query(
    django_assert_num_queries: Any,
) -> None:
    match, home, away = club_match(koppels_per_side=3, min_koppels=2, sittings=3)
    full = lineup(match, home, [*away[:2], None])

    with django_assert_num_queries(1):
        movement = match_movement(match=full)
    assert movement is not None
    with django_assert_num_queries(0):
        assert [str(t) for ts in movement.sits_out.values() for t in ts] == [
            str(home[2]),
            str(home[1]),
            str(home[0]),
        ]


# ================================================================ match_sittings


def scored(match: Match, scores: dict[tuple[int, int], tuple[int, int]]) -> list[Game]:
    """Give the match's games the (home, away) game points by (sitting, table) and return
    them as the pages read them: by sitting and table, both koppels joined."""
    for (sitting, table), (home, away) in scores.items():
        Game.objects.filter(match=match, sitting=sitting, table=table).update(
            score_a=home, score_b=away
        )
    return list(
        Game.objects.filter(match=match)
        .select_related("team_a", "team_b")
        .order_by("sitting", "table")
    )


def rows(
    sittings: list[SittingScore],
) -> list[tuple[int, list[int], int, int, int, int, list[int]]]:
    return [
        (
            s.number,
            [g.table or 0 for g in s.games],
            s.home,
            s.away,
            s.running_home,
            s.running_away,
            [t.pk for t in s.sits_out],
        )
        for s in sittings
    ]


def test_match_sittings_adds_up_each_sitting_and_runs_the_score_on():
    match, home, away = club_match(koppels_per_side=2, min_koppels=2, sittings=2)
    h1, h2 = home
    a1, a2 = away
    # Sitting 1: table 1 h1–a1, table 2 h2–a2; sitting 2: table 1 h1–a2, table 2 h2–a1.
    games = scored(
        lineup(match, home, away),
        {(1, 1): (20, 6), (1, 2): (8, 20), (2, 1): (20, 12), (2, 2): (4, 20)},
    )
    assert [(g.sitting, g.table, g.team_a_id, g.team_b_id) for g in games] == [
        (1, 1, h1.pk, a1.pk),
        (1, 2, h2.pk, a2.pk),
        (2, 1, h1.pk, a2.pk),
        (2, 2, h2.pk, a1.pk),
    ]

    sittings, top = match_sittings(games=games)

    assert rows(sittings) == [(1, [1, 2], 28, 26, 28, 26, []), (2, [1, 2], 24, 32, 52, 58, [])]
    # h1 20 + 20, h2 8 + 4; a1 6 + 20, a2 20 + 12.
    assert {side: (k.team.pk, k.points) for side, k in top.items()} == {
        "home": (h1.pk, 40),
        "away": (a2.pk, 32),
    }


def test_match_sittings_reads_a_game_with_the_away_koppel_as_koppel_a():
    match, home, away = club_match(koppels_per_side=2, min_koppels=2, sittings=2)
    h1, h2 = home
    a1, a2 = away
    games = scored(
        lineup(match, home, away),
        {(1, 1): (20, 6), (1, 2): (8, 20), (2, 1): (20, 12), (2, 2): (4, 20)},
    )
    # Sitting 2 table 2 stored the other way round: a1 as koppel A, 20 – 4.
    flipped = games[3]
    Game.objects.filter(pk=flipped.pk).update(
        team_a=a1, team_b=h2, score_a=20, score_b=4, a_is_home=False
    )
    games[3] = Game.objects.select_related("team_a", "team_b").get(pk=flipped.pk)

    sittings, top = match_sittings(games=games)

    assert rows(sittings) == [(1, [1, 2], 28, 26, 28, 26, []), (2, [1, 2], 24, 32, 52, 58, [])]
    assert {side: (k.team.pk, k.points) for side, k in top.items()} == {
        "home": (h1.pk, 40),
        "away": (a2.pk, 32),
    }


def test_match_sittings_shows_who_sits_out_from_the_movement():
    match, home, away = club_match(koppels_per_side=3, min_koppels=2, sittings=3)
    h1, h2, h3 = home
    a1, a2, _ = away
    stored = lineup(match, home, [a1, a2, None])
    # Sitting 1: t1 h1–a1, t2 h2–a2 (h3 out); 2: t1 h1–a2, t3 h3–a1 (h2 out);
    # 3: t2 h2–a1, t3 h3–a2 (h1 out).
    games = scored(
        stored,
        {
            (1, 1): (20, 10),
            (1, 2): (20, 10),
            (2, 1): (6, 20),
            (2, 3): (20, 2),
            (3, 2): (20, 0),
            (3, 3): (0, 20),
        },
    )
    assert [(g.sitting, g.table, g.team_a_id, g.team_b_id) for g in games] == [
        (1, 1, h1.pk, a1.pk),
        (1, 2, h2.pk, a2.pk),
        (2, 1, h1.pk, a2.pk),
        (2, 3, h3.pk, a1.pk),
        (3, 2, h2.pk, a1.pk),
        (3, 3, h3.pk, a2.pk),
    ]

    sittings, top = match_sittings(games=games, movement=match_movement(match=stored))

    assert rows(sittings) == [
        (1, [1, 2], 40, 20, 40, 20, [h3.pk]),
        (2, [1, 3], 26, 22, 66, 42, [h2.pk]),
        (3, [2, 3], 20, 20, 86, 62, [h1.pk]),
    ]
    # h1 20 + 6, h2 20 + 20, h3 20 + 0; a1 10 + 2 + 0, a2 10 + 20 + 20.
    assert {side: (k.team.pk, k.points) for side, k in top.items()} == {
        "home": (h2.pk, 40),
        "away": (a2.pk, 50),
    }


def test_a_sitting_with_only_koppels_sitting_out_is_listed_with_the_score_unchanged():
    match, home, away = club_match(koppels_per_side=2, min_koppels=2, sittings=2)
    games = scored(lineup(match, home, away), {(1, 1): (20, 6), (1, 2): (8, 20)})
    first_sitting = [g for g in games if g.sitting == 1]
    movement = MatchMovement(tables=2, sittings=2, planned=2, sits_out={2: [home[1]]})

    sittings, _top = match_sittings(games=first_sitting, movement=movement)

    assert rows(sittings) == [(1, [1, 2], 28, 26, 28, 26, []), (2, [], 0, 0, 28, 26, [home[1].pk])]


def test_on_equal_points_the_top_koppel_is_the_one_that_played_first():
    match, home, away = club_match(koppels_per_side=2, min_koppels=2, sittings=2)
    games = scored(
        lineup(match, home, away),
        {(1, 1): (10, 10), (1, 2): (10, 10), (2, 1): (10, 10), (2, 2): (10, 10)},
    )

    _sittings, top = match_sittings(games=games)

    assert {side: (k.team.pk, k.points) for side, k in top.items()} == {
        "home": (home[0].pk, 20),
        "away": (away[0].pk, 20),
    }


def test_no_top_koppel_before_a_game_has_points():
    match, home, away = club_match(koppels_per_side=2, min_koppels=2, sittings=2)
    games = scored(lineup(match, home, away), {})

    sittings, top = match_sittings(games=games)

    assert rows(sittings) == [(1, [1, 2], 0, 0, 0, 0, []), (2, [1, 2], 0, 0, 0, 0, [])]
    assert top == {}


def test_no_games_and_no_movement_give_no_sittings():
    assert match_sittings(games=[]) == ([], {})


# ================================================================ match scores and squads


def played(match: Match, games: dict[tuple[int, int], dict[str, object]]) -> None:
    """Store the given columns on the match's games by (sitting, table)."""
    for (sitting, table), columns in games.items():
        Game.objects.filter(match=match, sitting=sitting, table=table).update(**columns)


def flip(match: Match, *, sitting: int, table: int) -> None:
    """Store that game the other way round: the away koppel as koppel A, its values swapped."""
    game = Game.objects.get(match=match, sitting=sitting, table=table)
    Game.objects.filter(pk=game.pk).update(
        team_a_id=game.team_b_id,
        team_b_id=game.team_a_id,
        a_is_home=False,
        **{f"{name}_a": getattr(game, f"{name}_b") for name in ("score", "kaps", "baunies")},
        **{f"{name}_b": getattr(game, f"{name}_a") for name in ("score", "kaps", "baunies")},
    )


def test_match_scores_sum_each_side_by_name_whichever_koppel_is_a():
    match, home, away = club_match(
        koppels_per_side=2, min_koppels=2, sittings=2, confirmation_required=True
    )
    lineup(match, home, away)
    over = {"status": Game.Status.FINISHED}
    played(
        match,
        {
            (1, 1): {"score_a": 20, "score_b": 6, "kaps_a": 2, "baunies_b": 1, **over},
            (1, 2): {"score_a": 8, "score_b": 20, "kaps_b": 1, **over},
            (2, 1): {"score_a": 20, "score_b": 12, "baunies_a": 2, **over},
            (2, 2): {"score_a": 4, "score_b": 2},  # still open
        },
    )
    flip(match, sitting=2, table=1)
    played(match, {(1, 1): {"confirmed_at": timezone.now()}})
    competition = match.matchday.competition

    score = competition_match_scores(competition=competition)[match.pk]

    # Home 20 + 8 + 20 + 4, away 6 + 20 + 12 + 2; two finished games not yet confirmed.
    assert score == MatchScore(
        home_id=match.home_id,
        away_id=match.away_id,
        home=52,
        away=40,
        games=4,
        open_games=1,
        home_kaps=2,
        away_kaps=1,
        home_baunies=2,
        away_baunies=1,
        awaiting=2,
    )
    assert (score.finished, score.not_started) == (False, False)
    assert competition_match_sums(competition=competition) == {match.pk: score}


@pytest.mark.parametrize(
    ("scores", "kind", "outcome"),
    [
        # Away 66–44 up: its ineligible player turns the win into a forfeit (7–1 here).
        pytest.param([(20, 6), (8, 20), (4, 20), (12, 20)], "forfeit", (7, 1, "away"), id="won"),
        # Away 42–68 down: it lost anyway and loses 3 competition points instead.
        pytest.param(
            [(20, 6), (8, 20), (20, 4), (20, 12)], "deduction", (68, 42, None), id="lost-anyway"
        ),
    ],
)
def test_an_ineligible_away_player_forfeits_or_costs_points_whichever_koppel_is_a(
    scores: list[tuple[int, int]], kind: str, outcome: tuple[int, int, str | None]
) -> None:
    match, home, away = club_match(
        koppels_per_side=2,
        min_koppels=2,
        sittings=2,
        ineligible_deduction=3,
        forfeit_score_for=7,
        forfeit_score_against=1,
    )
    lineup(match, home, away)
    competition = match.matchday.competition
    outsider = away[1].player_2  # plays at (1, 2) and, stored away first, at (2, 1)
    for entry, teams in ((match.home, home), (match.away, away)):
        assert entry.club is not None
        squad = Squad.objects.create(club=entry.club, season=competition.season)
        for player in {p for team in teams for p in (team.player_1, team.player_2)} - {outsider}:
            SquadMember.objects.create(squad=squad, player=player, season=squad.season)
    Competition.objects.filter(pk=competition.pk).update(squads_required=True)
    competition.refresh_from_db()
    places = [(1, 1), (1, 2), (2, 1), (2, 2)]
    played(
        match,
        {
            place: {"score_a": home_points, "score_b": away_points, "status": Game.Status.FINISHED}
            for place, (home_points, away_points) in zip(places, scores, strict=True)
        },
    )
    flip(match, sitting=2, table=1)

    assert competition_ineligible_players(competition=competition) == {
        match.pk: {"away": [outsider.name]}
    }
    reason = f"Ineligible: {outsider.name} not on the squad"
    points = 3 if kind == "deduction" else 0
    adjustment = Adjustment(match.away_id, kind, points, reason, match.pk)
    assert match_adjustments(match=match) == [adjustment]
    assert competition_adjustments(competition=competition) == [adjustment]
    inputs = competition_standings_inputs(competition=competition)
    assert inputs.adjustments == [adjustment]
    assert inputs.deductions == ({match.away_id: 3} if kind == "deduction" else {})
    assert [(o.home_points, o.away_points, o.forfeit) for o in inputs.outcomes] == [outcome]
