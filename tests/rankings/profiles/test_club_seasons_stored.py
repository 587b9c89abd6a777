"""The club page's seasons read from the stored season rankings (issue 20) equal what the
page computed from the club's games before: per season its tally, the players and
koppels that played for it then; with several clubs, players who change clubs between
seasons, club evenings of one club, and a competition without a season (tallied from its
games: no season ranking holds it)."""

from __future__ import annotations

from collections import defaultdict

import pytest

from rankings.profiles.clubs import (
    SEASON_NAMES_MAX,
    TALLY_COLUMNS,
    club_games,
    club_history,
    club_profile,
)
from rankings.profiles.history import by_season, side_tally
from rankings.selectors import game_rows
from scoring.rules.seasons import SeasonBy
from tests.builders import seasons_rankings_refresh
from tests.rankings.profile_scenes import SEASONS, club_league
from tournaments.models import Club, Player, Team

pytestmark = pytest.mark.django_db


def reference(club: Club) -> dict[str, tuple[tuple[int, ...], list[str], list[str]]]:
    """Per season what the page computed from every game of the club before issue 20: its
    tally (`side_tally`), its players' and koppels' keys then, by name."""
    rows = [row for row in game_rows(club_games(club)) if club.pk in row.a.clubs + row.b.clubs]
    players: dict[str, set[int]] = defaultdict(set)
    koppels: dict[str, set[int]] = defaultdict(set)
    for row in rows:
        for side in (row.a, row.b):
            if club.pk in side.clubs:
                koppels[row.season].add(side.koppel)
                for player, then in zip(side.players, side.clubs, strict=True):
                    if then == club.pk:
                        players[row.season].add(player)
    result = {}
    for season, season_rows in by_season(rows).items():
        tally = side_tally(season_rows, SeasonBy.CLUB, club.pk)
        people = Player.objects.filter(pk__in=players[season])
        teams = Team.objects.filter(pk__in=koppels[season]).select_related("player_1", "player_2")
        result[season] = (
            tuple(getattr(tally, f) for f in TALLY_COLUMNS),
            [p.key for p in sorted(people, key=lambda p: (p.name.casefold(), p.pk))],
            [t.key for t in sorted(teams, key=lambda t: (str(t).casefold(), t.pk))],
        )
    return result


@pytest.mark.parametrize("seed", [1, 2])
def test_each_clubs_seasons_equal_the_computation_from_its_games(seed: int) -> None:
    clubs = club_league(seed)
    seasons_rankings_refresh()

    for club in clubs:
        profile = club_profile(club=club, page_number=None)
        expected = reference(club)
        shown = {
            item.season: (
                tuple(getattr(item.tally, f) for f in TALLY_COLUMNS),
                [named.key for named in item.players],
                [named.key for named in item.koppels],
            )
            for item in profile.seasons
        }
        assert shown == {
            season: (tally, players[:SEASON_NAMES_MAX], koppels[:SEASON_NAMES_MAX])
            for season, (tally, players, koppels) in expected.items()
        }, club.key
        counts = {item.season: (item.players_count, item.koppels_count) for item in profile.seasons}
        assert counts == {
            season: (len(players), len(koppels))
            for season, (_, players, koppels) in expected.items()
        }
        # Latest season first, games without a season last.
        assert [item.season for item in profile.seasons] == [
            season for season in SEASONS[1::-1] + ("",) if season in expected
        ]
        assert profile.seasons_state.as_of is not None
        assert not profile.seasons_state.stale and not profile.seasons_state.pending


def test_the_club_history_pages_every_game_of_the_club_newest_first() -> None:
    clubs = club_league(3)
    club = clubs[0]
    rows = [row for row in game_rows(club_games(club)) if club.pk in row.a.clubs + row.b.clubs]
    newest_first = [row.game for row in reversed(rows)]
    pages: list[int] = []
    number = 1
    while True:
        history = club_history(club, str(number))
        pages.extend(line.game for line in history.lines)
        if not history.page.has_next():
            break
        number += 1
    assert pages == newest_first
