"""Issue 20: the player, koppel and club pages stay flat as the database and the club grow.

The player page read its rounds through a subquery on the games, which PostgreSQL
answered by hash-joining every round of the database (187 ms at 1,000 koppels against
46 ms at 10); the club page listed every player of a 2,000-player club several times
(349 KB). Timings are the harness's (BENCHMARKS.md); these tests hold the shapes.
"""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from rankings.profiles import clubs
from tests.builders import seasons_rankings_refresh
from tests.rankings.profile_scenes import koppel_with_games

pytestmark = pytest.mark.django_db


def _queries_of(client: Client, address: str) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(address).status_code == 200
    return [query["sql"] for query in queries.captured_queries]


@pytest.mark.parametrize("name", ["player_detail", "koppel_detail"])
def test_a_page_reads_the_rounds_and_entries_of_its_own_games_by_id(
    client: Client, name: str
) -> None:
    busy = koppel_with_games(4)
    key = busy.player_1.key if name == "player_detail" else busy.key

    sql = _queries_of(client, reverse(name, kwargs={"key": key}))

    (rounds,) = [q for q in sql if 'FROM "scoring_round"' in q]
    assert "SELECT" not in rounds.split("WHERE", 1)[1]  # no subquery over the games
    (entries,) = [q for q in sql if 'FROM "tournaments_entry"' in q]
    assert '"tournaments_entry"."team_id" IN (' in entries  # only the games' koppels


def test_the_player_page_finds_its_games_by_koppel_id(client: Client) -> None:
    busy = koppel_with_games(4)

    sql = _queries_of(client, reverse("player_detail", kwargs={"key": busy.player_1.key}))

    (games,) = [q for q in sql if q.startswith('SELECT "scoring_game"."id" AS "pk"')]
    where = games.split("WHERE", 1)[1]
    assert '"scoring_game"."team_a_id" IN (' in where
    assert "player_1_id" not in where  # not a condition on the koppels' players


def test_the_club_page_pages_its_players_now(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(clubs, "PLAYERS_PER_PAGE", 4)
    koppel_with_games(4)  # busy-club: the busy koppel's 2 players and 4 opponents' first
    address = reverse("club_detail", kwargs={"key": "busy-club"})

    first = _players_now(client.get(address).content.decode())
    second = _players_now(client.get(address, {"players": "2"}).content.decode())

    assert len(first[0]) == 4 and len(second[0]) == 2
    assert not set(first[0]) & set(second[0])
    assert "?players=2" in first[1]
    assert "5–6 of 6" in second[1]


def _players_now(html: str) -> tuple[list[str], str]:
    section = html.split('id="players-title"')[1].split("</section>")[0]
    return re.findall(r'href="/player/([^/]+)/"', section), section


def test_a_club_season_names_some_players_and_koppels_and_counts_the_rest(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(clubs, "SEASON_NAMES_MAX", 2)
    koppel_with_games(4, seasons=1)  # one season: 6 players and 5 koppels of busy-club
    seasons_rankings_refresh()  # as the worker would: the club's seasons are stored

    html = client.get(reverse("club_detail", kwargs={"key": "busy-club"})).content.decode()

    (season,) = re.findall(r"<details.*?</details>", html, re.DOTALL)
    assert "6 players" in season
    assert len(re.findall(r'href="/player/', season)) == 2
    assert len(re.findall(r'href="/koppel/', season)) == 2
    assert "and 4 more" in season and "and 3 more" in season
