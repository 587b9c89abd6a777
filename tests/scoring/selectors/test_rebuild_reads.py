"""The rebuild's fast reads (issue 7) count what the slower path counts: the finished
matches' outcomes from one statement (`competition_match_outcomes`), the played byes in
SQL, and the ties put in name order afterwards (`competition_table`)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, cast

import pytest
from django.db.models import Exists, OuterRef
from django.utils import timezone

from scoring.models import STANDING_COLUMNS, Game
from scoring.rules import StandingRow, compute_standings
from scoring.selectors.results import competition_match_outcomes, matchday_results
from scoring.selectors.standings import competition_table
from scoring.selectors.standings_inputs import competition_standings_inputs, played_byes
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
from tournaments.models import Bye, Competition, Entry, Match, Player, Team
from tournaments.selectors import competition_entry_ids

OPEN, FINISHED, CLOSED = Game.Status.OPEN, Game.Status.FINISHED, Game.Status.CLOSED

# (what, the match's own columns, its games: (status, confirmed, a_is_home, scores a, b,
# kaps a, b, baunies a, b))
MATCHES: list[
    tuple[str, dict[str, Any], list[tuple[str, bool, bool, int, int, int, int, int, int]]]
] = [
    ("no games", {}, []),
    ("an open game", {}, [(OPEN, False, True, 12, 3, 1, 0, 0, 0)]),
    ("a finished game", {}, [(FINISHED, False, True, 21, 8, 2, 1, 1, 0)]),
    ("a confirmed game", {}, [(FINISHED, True, True, 9, 21, 0, 2, 0, 1)]),
    ("a closed game, away first", {}, [(CLOSED, True, False, 21, 5, 3, 0, 0, 2)]),
    ("a draw", {}, [(FINISHED, True, True, 21, 21, 1, 1, 0, 0)]),
    (
        "two games over",
        {},
        [(FINISHED, True, True, 21, 10, 1, 0, 0, 0), (CLOSED, False, False, 4, 21, 0, 3, 1, 0)],
    ),
    (
        "one game over, one open",
        {},
        [(FINISHED, True, True, 21, 10, 1, 0, 0, 0), (OPEN, False, True, 3, 0, 0, 0, 0, 0)],
    ),
    ("home forfeits, no games", {"forfeit": "home", "forfeit_reason": "no show"}, []),
    (
        "away forfeits an open game",
        {"forfeit": "away", "forfeit_reason": "no show"},
        [(OPEN, False, True, 7, 2, 1, 0, 0, 1)],
    ),
    (
        "both forfeit a game over",
        {"forfeit": "both", "forfeit_reason": "no show"},
        [(FINISHED, False, False, 21, 3, 2, 0, 1, 0)],
    ),
    ("reported totals", {"total_home": 81, "total_away": 74}, []),
    (
        "reported totals over a game",
        {"total_home": 60, "total_away": 66},
        [(FINISHED, False, True, 21, 2, 3, 0, 1, 0)],
    ),
    (
        "a forfeit over reported totals",
        {"forfeit": "home", "forfeit_reason": "late", "total_home": 50, "total_away": 20},
        [(FINISHED, True, True, 21, 12, 1, 1, 0, 0)],
    ),
]


def _rows(table: list[StandingRow]) -> list[tuple[Any, ...]]:
    # Every column in table order; the opponents as a multiset (the outcomes come in no
    # given order, and so does each row's list of opponents).
    return [
        (row.entry, *(getattr(row, c) for c in STANDING_COLUMNS), sorted(map(str, row.opponents)))
        for row in table
    ]


def _competition(confirmation_required: bool) -> Competition:
    # A club competition (without squads): its matches may have several games.
    competition = CompetitionFactory.create(
        kind=Competition.Kind.CLUBS,
        confirmation_required=confirmation_required,
        forfeit_score_for=42,
        forfeit_score_against=3,
    )
    matchday = MatchdayFactory.create(competition=competition)
    for _what, columns, games in MATCHES:
        home = ClubEntryFactory.create(competition=competition)
        away = ClubEntryFactory.create(competition=competition)
        match = MatchFactory.create(matchday=matchday, home=home, away=away)
        for table, (status, confirmed, a_is_home, *values) in enumerate(games, start=1):
            home_koppel, away_koppel = _koppel(home), _koppel(away)
            game = GameFactory.create(
                match=match,
                table=table,
                a_is_home=a_is_home,
                team_a=home_koppel if a_is_home else away_koppel,
                team_b=away_koppel if a_is_home else home_koppel,
            )
            Game.objects.filter(pk=game.pk).update(
                status=status,
                confirmed_at=timezone.now() if confirmed else None,
                **dict(
                    zip(
                        ("score_a", "score_b", "kaps_a", "kaps_b", "baunies_a", "baunies_b"),
                        values,
                        strict=True,
                    )
                ),
            )
        if columns:
            Match.objects.filter(pk=match.pk).update(**columns)
    return competition


def _koppel(entry: Entry) -> Team:
    return TeamFactory.create(
        player_1=PlayerFactory.create(club=entry.club),
        player_2=PlayerFactory.create(club=entry.club),
    )


@pytest.mark.parametrize("confirmation_required", [False, True])
def test_the_outcomes_are_the_inputs_outcomes(db, confirmation_required):
    competition = _competition(confirmation_required)

    found = competition_match_outcomes(competition=competition)

    inputs = competition_standings_inputs(competition=competition)
    assert sorted(found, key=repr) == sorted((tuple(o) for o in inputs.outcomes), key=repr)
    # Every case above that can count, counts.
    assert len(found) == (9 if confirmation_required else 11)


@pytest.mark.parametrize("confirmation_required", [False, True])
def test_the_table_is_the_one_the_inputs_give(db, confirmation_required):
    competition = _competition(confirmation_required)
    matchday = competition.matchdays.get()
    Bye.objects.create(matchday=matchday, entry=ClubEntryFactory.create(competition=competition))

    inputs = competition_standings_inputs(competition=competition)
    expected = compute_standings(
        competition_entry_ids(competition=competition),
        inputs.outcomes,
        scheme=competition.points_scheme,
        tiebreaks=competition.tiebreaks,
        byes=inputs.byes,
        deductions=inputs.deductions,
    )

    assert _rows(competition_table(competition=competition)) == _rows(expected)


def test_the_played_byes_are_those_of_played_matchdays(db):
    competition = CompetitionFactory.create()
    byes = []
    cases: list[tuple[dict[str, Any], str | None]] = [
        ({}, None),  # no game
        ({}, OPEN),
        ({}, FINISHED),
        ({}, CLOSED),
        ({"forfeit": "away", "forfeit_reason": "no show"}, None),
        ({"total_home": 30, "total_away": 12}, None),
    ]
    for columns, status in cases:
        matchday = MatchdayFactory.create(competition=competition)
        match = MatchFactory.create(matchday=matchday, **columns)
        if status is not None:
            game = GameFactory.create(match=match)
            Game.objects.filter(pk=game.pk).update(status=status)
        byes.append(
            Bye.objects.create(
                matchday=matchday, entry=TeamEntryFactory.create(competition=competition)
            )
        )
    MatchdayFactory.create(competition=competition)  # a matchday without matches

    found = sorted(cast(int, bye.entry) for bye in played_byes(competition))

    played = Bye.objects.filter(matchday__competition=competition).filter(
        Exists(matchday_results(matchday=OuterRef("matchday")))
    )
    assert found == sorted(played.values_list("entry_id", flat=True))
    assert found == sorted(bye.entry_id for bye in byes[2:])


def test_ties_at_1000_entries_keep_the_natural_name_order(db):
    """1,000 koppels, most tied on every key: the table's ties are in natural name order
    (as `competition_entry_ids` gives the engine), whatever order the entries were made."""
    competition = CompetitionFactory.create()
    rng = random.Random(7)
    names = [f"Koppel {n}" for n in range(1, 995)] + [
        "koppel 7",
        "Koppel 07",
        "",  # named after its players
        "Álvaro & Co",
        "Koppel 10b",
        "Koppel 10 ",
    ]
    rng.shuffle(names)
    players = Player.objects.bulk_create(
        Player(key=f"tie-p{n}", name=f"Speler {rng.randrange(100)}") for n in range(2 * len(names))
    )
    teams = Team.objects.bulk_create(
        Team(key=f"tie-{n}", name=name, player_1=players[2 * n], player_2=players[2 * n + 1])
        for n, name in enumerate(names)
    )
    entries = Entry.objects.bulk_create(Entry(competition=competition, team=t) for t in teams)
    matchday = MatchdayFactory.create(competition=competition)
    order = entries[:]
    rng.shuffle(order)
    # A few results among the first hundred: some win, some draw, most stay tied at 0.
    for n in range(0, 100, 2):
        match = Match.objects.create(matchday=matchday, home=order[n], away=order[n + 1])
        game = GameFactory.create(match=match)
        Game.objects.filter(pk=game.pk).update(
            status=FINISHED, score_a=21, score_b=21 if n % 4 else 10
        )

    table = competition_table(competition=competition)

    inputs = competition_standings_inputs(competition=competition)
    expected = compute_standings(
        competition_entry_ids(competition=competition),
        inputs.outcomes,
        scheme=competition.points_scheme,
        tiebreaks=competition.tiebreaks,
        byes=inputs.byes,
    )
    assert [row.entry for row in table] == [row.entry for row in expected]
    assert _rows(table) == _rows(expected)
    assert sorted(Counter(row.rank for row in table).values()) == [25, 25, 50, 900]
