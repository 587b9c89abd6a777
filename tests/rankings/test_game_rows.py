"""`rankings.selectors.game_rows` and `games_counted` on small hand-built scenes: the clubs
each player played for at the time (pairs: the entry's kept clubs; clubs: the side's club),
the round counts from rounds with known callers, which games count, their order, and three
queries whatever the number of games."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from rankings.selectors import GameRow, GameSideRow, game_rows
from scoring.models import Game
from scoring.selectors.counted import games_counted
from scoring.services.games import game_close
from tests.builders import club_competition, finished_game, kaps, koppels_of, pairs_game, record
from tests.factories import (
    ClubFactory,
    CompetitionFactory,
    MatchdayFactory,
    PlayerFactory,
    TeamEntryFactory,
    TeamFactory,
)
from tests.seen import game_token_now
from tournaments.models import Club, Competition, Entry, Match, Player

pytestmark = pytest.mark.django_db


def rows() -> list[GameRow]:
    return game_rows(games_counted())


def row_of(game: Game) -> GameRow:
    (found,) = [row for row in rows() if row.game == game.pk]
    return found


def koppel_entry(
    competition: Competition,
    clubs_now: tuple[Club | None, Club | None],
    kept: tuple[Club | None, Club | None],
) -> Entry:
    """A koppel of two new players whose clubs of today are `clubs_now`, entered in
    `competition` with `kept` as their clubs there (set apart on purpose: the rows must
    read the entry, not the players)."""
    team = TeamFactory.create(
        player_1=PlayerFactory.create(club=clubs_now[0]),
        player_2=PlayerFactory.create(club=clubs_now[1]),
    )
    return TeamEntryFactory.create(
        competition=competition, team=team, player_1_club=kept[0], player_2_club=kept[1]
    )


def seats(game: Game) -> dict[int, Player]:
    """The four players of a seated game by seat (1 and 3 koppel A)."""
    return {1: game.seat_1, 2: game.seat_2, 3: game.seat_3, 4: game.seat_4}  # type: ignore[dict-item]


# The hand-played game: (caller's seat, result, side). Seats 1 and 3 are koppel A. The
# caller keeps calling while their koppel wins, else the next seat calls (RULES.md "Who
# calls next"). Points: gewone winst 2, kap 5, baunie 15, failed baunie and early kap 2
# to the other koppel.
CALLED_ROUNDS = [
    (1, "gewone_winst", "a"),  # A 2–0, won by A as caller
    (1, "baunie_mislukt", "a"),  # A 2–2: A's failed baunie, won by B (A called)
    (2, "kap_te_vroeg", "b"),  # A 4–2: B's early kap, won by A (B called)
    (3, "kap", "a"),  # A 9–2, won by A as caller
    (3, "baunie", "b"),  # A 9–17: B's baunie, won by B (A called)
    (4, "gewone_winst", "b"),  # A 9–19, won by B as caller
    (4, "baunie_mislukt", "b"),  # A 11–19: B's failed baunie, won by A (B called)
    (1, "kap", "a"),  # A 16–19, won by A as caller
    (1, "kap", "a"),  # A 21–19: over, won by A as caller
]


@pytest.fixture
def evening() -> dict[str, Any]:
    """A pairs evening of two koppels whose kept clubs differ from their clubs of today,
    with the game of `CALLED_ROUNDS` played."""
    x, y, z = (ClubFactory.create(name=name) for name in ("X", "Y", "Z"))
    competition = CompetitionFactory.create()
    matchday = MatchdayFactory.create(competition=competition, number=1)
    home = koppel_entry(competition, clubs_now=(y, y), kept=(x, None))
    away = koppel_entry(competition, clubs_now=(z, None), kept=(z, x))
    game = pairs_game(matchday, home, away, table=1)
    by_seat = seats(game)
    for seat, result, side in CALLED_ROUNDS:
        record(game, result, side, caller_id=by_seat[seat].pk)
    return {"game": game, "home": home, "away": away, "x": x, "y": y, "z": z}


def test_a_pairs_game_gives_each_player_the_club_the_entry_kept(evening):
    row = row_of(evening["game"])
    home, away, x, z = evening["home"], evening["away"], evening["x"], evening["z"]

    assert (row.a.koppel, row.a.players, row.a.clubs) == (
        home.team_id,
        (home.team.player_1_id, home.team.player_2_id),
        (x.pk, None),
    )
    assert (row.b.koppel, row.b.players, row.b.clubs) == (
        away.team_id,
        (away.team.player_1_id, away.team.player_2_id),
        (z.pk, x.pk),
    )


def test_the_round_counts_of_a_hand_played_game_are_exact(evening):
    row = row_of(evening["game"])

    assert row.a == GameSideRow(
        koppel=row.a.koppel, players=row.a.players, clubs=row.a.clubs,
        points=21, kaps=3, baunies=0, failed_baunies=1, early_kaps=0,
        won_as_caller=4, won_not_caller=2,
    )  # fmt: skip
    assert row.b == GameSideRow(
        koppel=row.b.koppel, players=row.b.players, clubs=row.b.clubs,
        points=19, kaps=0, baunies=1, failed_baunies=1, early_kaps=1,
        won_as_caller=1, won_not_caller=2,
    )  # fmt: skip


def test_rounds_without_a_caller_count_as_neither_caller_nor_not_caller():
    game = finished_game(winner="b")  # four kaps for B, no caller written down

    row = row_of(game)

    assert (row.b.points, row.b.kaps, row.b.won_as_caller, row.b.won_not_caller) == (20, 4, 0, 0)
    assert (row.a.points, row.a.kaps, row.a.won_as_caller, row.a.won_not_caller) == (0, 0, 0, 0)


def test_the_row_says_where_the_game_was_played(evening):
    game = evening["game"]
    row = row_of(game)
    competition = game.match.matchday.competition

    assert (
        row.date, row.competition, row.slug, row.name, row.season, row.kind,
        row.matchday, row.match, row.sitting, row.table,
    ) == (
        datetime.date(2026, 10, 2), competition.pk, competition.slug, competition.name,
        "2026-2027", "pairs", 1, game.match_id, 1, 1,
    )  # fmt: skip


def test_a_club_game_gives_both_players_the_club_their_side_played_for():
    competition = club_competition(2)
    kampoe, toppers = competition.entries.order_by("pk")
    matchday = MatchdayFactory.create(competition=competition, number=1)
    match = Match.objects.create(matchday=matchday, home=kampoe, away=toppers, table=1)
    # Koppel A is the away side's: the side, not the seat, says the club.
    game = Game.objects.create(
        match=match,
        team_a=koppels_of(toppers)[0],
        team_b=koppels_of(kampoe)[0],
        a_is_home=False,
    )
    kaps(game, 4, side="a")

    row = row_of(game)

    assert row.kind == "clubs"
    assert row.a.clubs == (toppers.club_id, toppers.club_id)
    assert row.b.clubs == (kampoe.club_id, kampoe.club_id)
    assert (row.a.points, row.b.points) == (20, 0)


def test_only_games_over_count_and_confirmed_ones_where_confirmation_is_required():
    over = finished_game()
    competition = over.match.matchday.competition
    still_open = pairs_game(
        MatchdayFactory.create(competition=competition, number=over.match.matchday.number + 1),
        *competition.entries.order_by("pk"),
        table=1,
    )
    kaps(still_open, 2)  # 10–0: not over
    confirming = CompetitionFactory.create(confirmation_required=True)
    unconfirmed = finished_game(competition=confirming)
    confirmed = finished_game(competition=confirming)
    Game.objects.filter(pk=confirmed.pk).update(confirmed_at=datetime.datetime.now(datetime.UTC))
    closing = CompetitionFactory.create(close_by_director_allowed=True)
    closed = finished_game(competition=closing)
    early = pairs_game(
        MatchdayFactory.create(competition=closing, number=closed.match.matchday.number + 1),
        *closing.entries.order_by("pk"),
        table=1,
    )
    kaps(early, 1)
    game_close(game_id=early.pk, seen=game_token_now(game_id=early.pk))
    assert Game.objects.get(pk=early.pk).status == Game.Status.CLOSED

    counted = {row.game for row in rows()}

    assert over.pk in counted and confirmed.pk in counted and closed.pk in counted
    assert early.pk in counted  # closed by the director before the target: it counts
    assert still_open.pk not in counted
    assert unconfirmed.pk not in counted


def test_games_come_in_game_order_an_undated_matchday_after_its_dated_one():
    first = CompetitionFactory.create()
    second = CompetitionFactory.create()
    entries = [TeamEntryFactory.create(competition=first) for _ in range(4)]
    others = [TeamEntryFactory.create(competition=second) for _ in range(2)]
    day_one = MatchdayFactory.create(competition=first, number=1, date=datetime.date(2026, 10, 9))
    undated = MatchdayFactory.create(competition=first, number=2, date=None)
    earlier = MatchdayFactory.create(competition=second, number=1, date=datetime.date(2026, 10, 2))
    table_2 = pairs_game(day_one, entries[0], entries[1], table=2)
    table_1 = pairs_game(day_one, entries[2], entries[3], table=1)
    no_date = pairs_game(undated, entries[0], entries[2], table=1)
    week_before = pairs_game(earlier, others[0], others[1], table=1)
    for game in (table_2, table_1, no_date, week_before):
        kaps(game, 4)

    # Matchday 2 has no date: it is taken at matchday 1's (tests/rankings/test_game_order.py)
    # and after it; the date shown stays its own (none).
    assert [row.game for row in rows()] == [week_before.pk, table_1.pk, table_2.pk, no_date.pk]
    assert [row.date for row in rows()] == [
        datetime.date(2026, 10, 2),
        datetime.date(2026, 10, 9),
        datetime.date(2026, 10, 9),
        None,
    ]


def test_no_games_give_no_rows_in_one_query(django_assert_num_queries):
    with django_assert_num_queries(1):
        assert rows() == []


@pytest.mark.parametrize("games", [2, 6], ids=["N", "3N"])
def test_rows_take_three_queries_whatever_the_number_of_games(games, django_assert_num_queries):
    club = ClubFactory.create()
    for _ in range(games):
        game = finished_game()
        Entry.objects.filter(competition=game.match.matchday.competition).update(player_1_club=club)

    with django_assert_num_queries(3):
        found = rows()

    assert len(found) == games
    assert all(row.a.clubs[0] == club.pk and row.b.clubs[0] == club.pk for row in found)
