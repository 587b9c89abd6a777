"""The reads behind the player, koppel and club pages (`rankings.profiles`), checked
against the hand-computed seasons of `profile_scenes.transfer` (its docstring lists the
games)."""

from __future__ import annotations

import datetime

import pytest

from rankings.profiles.clubs import Named, club_profile
from rankings.profiles.history import HISTORY_PER_PAGE, Outcome
from rankings.profiles.koppels import koppel_head_to_head, koppel_profile, koppels_matching
from rankings.profiles.players import player_profile
from tests.builders import seasons_rankings_refresh
from tests.factories import PlayerFactory
from tests.rankings.profile_scenes import Transfer, koppel, transfer

pytestmark = pytest.mark.django_db


@pytest.fixture
def scene() -> Transfer:
    return transfer()


def tally_row(tally) -> tuple[int, ...]:
    return (
        tally.games,
        tally.wins,
        tally.draws,
        tally.losses,
        tally.points_for,
        tally.points_against,
        tally.kaps,
        tally.baunies,
    )


def test_a_transferred_player_keeps_the_old_club_for_the_old_season(scene: Transfer) -> None:
    profile = player_profile(player=scene.ann, page_number=None)

    assert [season.season for season in profile.seasons] == ["2026-2027", "2025-2026"]
    new, old = profile.seasons
    assert [(spell.club, spell.games) for spell in new.clubs] == [(scene.toppers, 3)]
    assert [(spell.club, spell.games) for spell in old.clubs] == [(scene.kampoe, 2)]
    # 2026-27: 10–10 D, 20–4 W, 6–20 L; 2025-26: 20–12 W (2 kaps, 1 baunie), 8–20 L.
    assert tally_row(new.tally) == (3, 1, 1, 1, 36, 34, 1, 0)
    assert tally_row(old.tally) == (2, 1, 0, 1, 28, 32, 2, 1)


def test_a_player_lists_the_koppels_played_in_most_games_first(scene: Transfer) -> None:
    profile = player_profile(player=scene.ann, page_number=None)

    assert [(record.koppel, tally_row(record.tally)[:4]) for record in profile.koppels] == [
        (scene.ae, (3, 1, 1, 1)),
        (scene.ab, (2, 1, 0, 1)),
    ]


def test_a_players_history_is_newest_first_from_their_own_side(scene: Transfer) -> None:
    profile = player_profile(player=scene.ann, page_number=None)

    assert [
        (line.date, line.koppel, line.opponent, line.points_for, line.points_against, line.outcome)
        for line in profile.history.lines
    ] == [
        (datetime.date(2026, 10, 16), scene.ae, scene.bf, 6, 20, Outcome.LOSS),
        (datetime.date(2026, 10, 9), scene.ae, scene.cd, 20, 4, Outcome.WIN),
        (datetime.date(2026, 10, 2), scene.ae, scene.bf, 10, 10, Outcome.DRAW),
        (datetime.date(2025, 11, 7), scene.ab, scene.cd, 8, 20, Outcome.LOSS),
        (datetime.date(2025, 10, 3), scene.ab, scene.cd, 20, 12, Outcome.WIN),
    ]
    assert [line.game for line in profile.history.lines] == [
        game.pk for game in reversed(scene.games)
    ]


def test_a_player_without_games_has_empty_lists_and_no_rating() -> None:
    player = PlayerFactory.create()

    profile = player_profile(player=player, page_number=None)

    assert (profile.rating, profile.rating_points, profile.seasons, profile.koppels) == (
        None,
        [],
        [],
        [],
    )
    assert profile.history.lines == []


def test_a_koppels_seasons_and_meetings(scene: Transfer) -> None:
    profile = koppel_profile(koppel=scene.ae, page_number=None)

    assert [(s.season, tally_row(s.tally)[:6]) for s in profile.seasons] == [
        ("2026-2027", (3, 1, 1, 1, 36, 34))
    ]
    assert [
        (m.opponent, m.games, m.wins, m.draws, m.losses, m.points_for, m.points_against)
        for m in profile.meetings
    ] == [(scene.bf, 2, 0, 1, 1, 16, 30), (scene.cd, 1, 1, 0, 0, 20, 4)]
    assert [(e.date, e.games, e.points_for, e.points_against) for e in profile.evenings] == [
        (datetime.date(2026, 10, 2), 1, 10, 10),
        (datetime.date(2026, 10, 9), 1, 20, 4),
        (datetime.date(2026, 10, 16), 1, 6, 20),
    ]


def test_a_head_to_head_with_a_draw_counts_each_side(scene: Transfer) -> None:
    record = koppel_head_to_head(koppel=scene.ae, other=scene.bf, page_number=None)

    assert (record.games, record.wins, record.draws, record.losses) == (2, 0, 1, 1)
    assert (record.points_for, record.points_against) == (16, 30)
    assert [(line.points_for, line.points_against) for line in record.history.lines] == [
        (6, 20),
        (10, 10),
    ]


def test_the_head_to_head_seen_from_the_other_koppel_mirrors(scene: Transfer) -> None:
    record = koppel_head_to_head(koppel=scene.bf, other=scene.ae, page_number=None)

    assert (record.games, record.wins, record.draws, record.losses) == (2, 1, 1, 0)
    assert (record.points_for, record.points_against) == (30, 16)


def test_koppels_that_never_met_have_an_empty_record(scene: Transfer) -> None:
    record = koppel_head_to_head(koppel=scene.ab, other=scene.bf, page_number=None)

    assert (record.games, record.wins, record.draws, record.losses) == (0, 0, 0, 0)
    assert record.history.lines == []


def named(people: list[Named]) -> list[str]:
    return [person.key for person in people]


def test_a_club_season_counts_only_who_played_for_it_then(scene: Transfer) -> None:
    seasons_rankings_refresh()  # a club's seasons are the stored season rankings' (issue 20)
    kampoe = club_profile(club=scene.kampoe, page_number=None)
    toppers = club_profile(club=scene.toppers, page_number=None)

    assert list(kampoe.players) == [scene.bob, scene.fay]  # Ann plays for Toppers now
    assert list(toppers.players) == [scene.ann, scene.cor, scene.dan, scene.eve]
    assert [s.season for s in kampoe.seasons] == ["2026-2027", "2025-2026"]
    seasons = {s.season: s for s in kampoe.seasons}
    assert named(seasons["2025-2026"].players) == [scene.ann.key, scene.bob.key]
    assert seasons["2025-2026"].players_count == 2
    assert named(seasons["2025-2026"].koppels) == [scene.ab.key]
    assert tally_row(seasons["2025-2026"].tally)[:6] == (2, 1, 0, 1, 28, 32)
    assert named(seasons["2026-2027"].players) == [scene.bob.key, scene.fay.key]
    assert tally_row(seasons["2026-2027"].tally)[:6] == (2, 1, 1, 0, 30, 16)
    seasons = {s.season: s for s in toppers.seasons}
    assert named(seasons["2025-2026"].players) == [scene.cor.key, scene.dan.key]
    assert named(seasons["2026-2027"].players) == [
        scene.ann.key,
        scene.cor.key,
        scene.dan.key,
        scene.eve.key,
    ]
    # AE–BF 10–10, AE–CD 20–4 (Toppers on both sides: a win and a loss), BF–AE 20–6.
    assert tally_row(seasons["2026-2027"].tally)[:6] == (4, 1, 1, 2, 40, 54)


def test_a_game_between_two_koppels_of_the_club_has_no_outcome_on_its_page(
    scene: Transfer,
) -> None:
    toppers = club_profile(club=scene.toppers, page_number=None)

    outcomes = {line.game: line.outcome for line in toppers.history.lines}
    assert outcomes[scene.games[3].pk] is None
    assert outcomes[scene.games[2].pk] is Outcome.DRAW


def test_a_clubs_competitions_say_how_it_took_part(scene: Transfer) -> None:
    toppers = club_profile(club=scene.toppers, page_number=None)

    assert [(c.competition, c.as_club, c.koppels) for c in toppers.competitions] == [
        (scene.second, False, 2),
        (scene.first, False, 1),
    ]


@pytest.mark.parametrize(
    ("number", "shown"),
    [(None, 1), ("1", 1), ("2", 2), ("3", 2), ("0", 1), ("-4", 1), ("x", 1), ("", 1),
     ("2.5", 1), ("9" * 30, 2)],
)  # fmt: skip
def test_a_history_page_number_that_isnt_one_falls_back(number: str | None, shown: int) -> None:
    from tests.rankings.profile_scenes import koppel_with_games

    busy = koppel_with_games(HISTORY_PER_PAGE + 5)

    profile = koppel_profile(koppel=busy, page_number=number)

    assert profile.history.page.number == shown
    assert len(profile.history.lines) == (HISTORY_PER_PAGE if shown == 1 else 5)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("bf", ["bf"]),
        ("BF", ["bf"]),
        ("Cordan", ["cd"]),
        ("Fay & Bob", ["bf"]),
        ("bob & fay", ["bf"]),
        ("Fay en Bob", ["bf"]),  # Dutch
        ("bob AND fay", ["bf"]),
        ("o", ["ab", "bf", "cd"]),  # Bob, Cordan: names containing it
        ("nobody", []),
        ("   ", []),
        ("ae", []),  # the koppel itself
    ],
)
def test_the_opponent_box_finds_koppels_by_key_or_name(
    scene: Transfer, text: str, found: list[str]
) -> None:
    teams = koppels_matching(text=text, exclude=scene.ae)

    assert sorted(team.key for team in teams) == sorted(found)


def test_an_exact_key_wins_over_names_containing_it(scene: Transfer) -> None:
    koppel("bo", scene.cor, scene.fay)

    assert [t.key for t in koppels_matching(text="bo", exclude=scene.ae)] == ["bo"]
