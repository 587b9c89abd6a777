"""The ranked tables through the API (issue 21): standings, season rankings, ratings.

Each is read through the API and through its page and must give the same numbers in
every column (on the real data too); each pages by the table's version (a refresh between
two pages is a 409 `ranking_changed`, never a row skipped or repeated); each answers 304
while unchanged and a new ETag once refreshed; bad parameters are a 400 naming them.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from interchange.importer import competition_import
from rankings.models import PlayerRating
from rankings.season_refresh import season_rankings_refresh
from rankings.services import ratings_refresh
from scoring.models import Standing
from scoring.services.standings import standings_rebuild
from tests.factories import ClubFactory, PlayerFactory
from tests.paths import SAMPLE, STCB
from tournaments.models import Competition, Deduction, Team

pytestmark = pytest.mark.django_db

STANDING_NUMBERS = [
    "rank", "played", "won", "drawn", "lost", "points", "points_for", "points_against",
    "saldo", "kaps", "baunies", "buchholz", "head_to_head", "byes", "deducted",
]  # fmt: skip
SEASON_NUMBERS = [
    "rank", "games", "wins", "draws", "losses", "points_for", "points_against", "saldo",
    "kaps", "baunies", "failed_baunies", "early_kaps", "won_as_caller", "won_not_caller",
    "best_points",
]  # fmt: skip


@pytest.fixture(autouse=True)
def _throttles() -> None:
    cache.clear()  # the API's throttles count in the default cache


def imported(path: Any) -> Competition:
    competition = competition_import(data=json.loads(path.read_text(encoding="utf-8")))
    assert isinstance(competition, Competition)
    return competition


@pytest.fixture
def stcb() -> Competition:
    return imported(STCB)


@pytest.fixture
def evening() -> Competition:
    return imported(SAMPLE)


def standings_url(competition: Competition, **params: Any) -> str:
    url = reverse("api:competition-standings", kwargs={"slug": competition.slug})
    return url + ("?" + "&".join(f"{k}={v}" for k, v in params.items()) if params else "")


def api_get(client: Client, url: str, **headers: str) -> Any:
    response = client.get(url, headers=headers)
    assert response.status_code == 200, (url, response.status_code, response.content[:300])
    return response.json()


def page_records(client: Client, url: str) -> tuple[list[Any], list[str], Any]:
    """The rows a page's table shows (its records), its columns, and its context."""
    response = client.get(url)
    assert response.status_code == 200
    table = response.context["table"]
    return [row.record for row in table.page.object_list], [c.name for c in table.columns], table


def all_rows(client: Client, url: str) -> list[dict[str, Any]]:
    """Every row of a ranked table through the API, following `next`."""
    rows: list[dict[str, Any]] = []
    while url:
        body = api_get(client, url)
        rows += body["results"]
        url = body["next"]
    return rows


# ----------------------------------------------------------------------- standings


@pytest.mark.parametrize("data", ["stcb", "evening"])
def test_standings_through_the_api_are_the_pages_numbers_in_every_column(
    client: Client, data: str, request: pytest.FixtureRequest
) -> None:
    competition = request.getfixturevalue(data)
    body = api_get(client, standings_url(competition))
    records, columns, _ = page_records(
        client, reverse("competition_detail", kwargs={"slug": competition.slug})
    )
    assert body["columns"] == columns
    assert (
        len(body["results"])
        == len(records)
        == Standing.objects.filter(competition=competition).count()
    )
    for row, record in zip(body["results"], records, strict=True):
        assert row["entry"]["key"] == record.entry.key
        assert row["entry"]["name"] == str(record.entry)
        assert {name: row[name] for name in STANDING_NUMBERS} == {
            name: getattr(record, name) for name in STANDING_NUMBERS
        }
    assert body["as_of"] is not None and body["stale"] is False
    assert body["tiebreaks"] == ["points", "saldo", "points_for", "head_to_head"]


def test_the_stcb_standings_rank_formula_ekta_pintoboys_toppers(
    client: Client, stcb: Competition
) -> None:
    rows = api_get(client, standings_url(stcb))["results"]
    assert [row["entry"]["key"] for row in rows[:4]] == ["formula", "ekta", "pintoboys", "toppers"]
    assert rows[0]["entry"] == {"kind": "club", "key": "formula", "name": "Formula", "players": []}


def test_stale_standings_say_so_as_the_page_does(client: Client, evening: Competition) -> None:
    Competition.objects.filter(pk=evening.pk).update(standings_stale_since=timezone.now())
    body = api_get(client, standings_url(evening))
    assert body["stale"] is True and body["stale_since"] is not None
    page = client.get(reverse("competition_detail", kwargs={"slug": evening.slug}))
    assert b"standings-stale" in page.content


def test_deductions_and_walk_overs_come_as_data(client: Client, evening: Competition) -> None:
    entry = evening.entries.select_related("team").first()
    assert entry is not None
    Deduction.objects.create(competition=evening, entry=entry, points=2, reason="late")
    standings_rebuild(competition_id=evening.pk)
    body = api_get(client, standings_url(evening))
    assert body["adjustments"] == [
        {
            "kind": "deduction",
            "entry": body["adjustments"][0]["entry"],
            "points": 2,
            "reason": "late",
            "match": None,
        }
    ]
    assert body["adjustments"][0]["entry"]["key"] == entry.team.key  # type: ignore[union-attr]
    assert "deducted" in body["columns"]


def test_the_standings_search_and_sort_are_the_pages(client: Client, evening: Competition) -> None:
    slug = evening.slug
    for query in ("q=a", "sort=-saldo", "sort=entry", "sort=head_to_head"):
        records, _, _ = page_records(
            client, reverse("competition_detail", kwargs={"slug": slug}) + "?" + query
        )
        api_query = query.replace("sort=", "ordering=")
        rows = api_get(client, standings_url(evening) + "?" + api_query)["results"]
        assert [row["entry"]["key"] for row in rows] == [r.entry.key for r in records], query


def test_standings_pages_neither_skip_nor_repeat(client: Client, evening: Competition) -> None:
    rows = all_rows(client, standings_url(evening, page_size=2))
    whole = api_get(client, standings_url(evening))["results"]
    assert len(whole) > 2
    assert rows == whole


def test_a_next_page_after_a_refresh_is_a_409_with_the_new_first_page(
    client: Client, evening: Competition
) -> None:
    first = api_get(client, standings_url(evening, page_size=2))
    standings_rebuild(competition_id=evening.pk)  # a new "as of", the same or other rows
    response = client.get(first["next"], headers={"accept-language": "nl"})
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "ranking_changed"
    assert body["message"].startswith("De tabel is bijgewerkt")
    assert body["first"].endswith(standings_url(evening, page_size=2))
    again = api_get(client, body["first"])
    assert again["version"] == body["current"]["version"] != first["version"]
    assert again["results"] == api_get(client, standings_url(evening))["results"][:2]


def test_a_cursor_not_made_here_is_a_400(client: Client, evening: Competition) -> None:
    first = api_get(client, standings_url(evening, page_size=2))
    signed = first["next"].split("cursor=")[1].split("&")[0]
    for cursor in ("nonsense", signed[:-3] + "abc", "0"):
        response = client.get(standings_url(evening, page_size=2, cursor=cursor))
        assert response.status_code == 400
        assert response.json()["code"] == "invalid_cursor"
        assert list(response.json()["fields"]) == ["cursor"]


@pytest.mark.parametrize(
    "query, field",
    [
        ("page_size=0", "page_size"),
        ("page_size=", "page_size"),
        ("ordering=", "ordering"),
        ("cursor=", "cursor"),
        ("page_size=201", "page_size"),
        ("ordering=colour", "ordering"),
        ("q=" + "x" * 101, "q"),
    ],
)
def test_bad_parameters_are_a_400_naming_them(
    client: Client, evening: Competition, query: str, field: str
) -> None:
    response = client.get(standings_url(evening) + "?" + query)
    assert response.status_code == 400
    body = response.json()
    assert field in body["fields"]


def test_an_unknown_competition_is_a_404(client: Client, db: None) -> None:
    url = reverse("api:competition-standings", kwargs={"slug": "nope"})
    assert client.get(url).status_code == 404


def test_unchanged_standings_are_a_304_and_a_refresh_gives_a_new_etag(
    client: Client, evening: Competition
) -> None:
    url = standings_url(evening)
    response = client.get(url)
    etag = response["ETag"]
    assert response["Last-Modified"]
    unchanged = client.get(url, headers={"if-none-match": etag})
    assert unchanged.status_code == 304 and unchanged.content == b""
    standings_rebuild(competition_id=evening.pk)
    refreshed = client.get(url, headers={"if-none-match": etag})
    assert refreshed.status_code == 200 and refreshed["ETag"] != etag
    Competition.objects.filter(pk=evening.pk).update(standings_stale_since=timezone.now())
    behind = client.get(url, headers={"if-none-match": refreshed["ETag"]})
    assert behind.status_code == 200 and behind.json()["stale"] is True


@pytest.mark.parametrize("table", ["standings", "season", "ratings"])
def test_a_renamed_koppel_changes_the_tables_etag(
    client: Client, evening: Competition, table: str
) -> None:
    """The stored rows name entries by id: a rename shows a new name with no refresh, so
    the stamp holds the newest change of any name (`api.stamps.names_version`)."""
    url = {
        "standings": standings_url(evening),
        "season": season_url(evening.season),
        "ratings": reverse("api:rating-list"),
    }[table]
    before = client.get(url)
    assert before.status_code == 200
    team = Team.objects.filter(entries__competition=evening).first()
    assert team is not None
    team.name = "Hernoemd koppel"
    team.save()
    after = client.get(url, headers={"if-none-match": before["ETag"]})
    assert after.status_code == 200 and after["ETag"] != before["ETag"]


# ----------------------------------------------------------------------- season rankings


def season_url(season: str, **params: Any) -> str:
    url = reverse("api:season-ranking", kwargs={"season": season})
    return url + ("?" + "&".join(f"{k}={v}" for k, v in params.items()) if params else "")


def season_page(season: str, query: str = "") -> str:
    return reverse("season_rankings", kwargs={"season": season}) + (f"?{query}" if query else "")


def assert_season_same(client: Client, season: str, query: str) -> dict[str, Any]:
    body = api_get(client, season_url(season) + (f"?{query}" if query else ""))
    records, _, table = page_records(client, season_page(season, query.replace("ordering", "sort")))
    assert len(body["results"]) == len(records), query
    for line, record in zip(body["results"], records, strict=True):
        assert (line["key"], line["name"]) == (record.key, record.name)
        assert {name: line[name] for name in SEASON_NUMBERS} == {
            name: getattr(record, name) for name in SEASON_NUMBERS
        }, query
        if table.best_evenings:
            assert f"{line['best_average']:.1f}" == table.cell("best", record).replace(",", ".")
    return body


@pytest.mark.parametrize(
    "query",
    [
        "",
        "by=koppel",
        "by=club",
        "kind=pairs",
        "by=koppel&club=troefclub-zuidoost",
        "ordering=-saldo",
    ],
)
def test_the_season_ranking_through_the_api_is_the_pages(
    client: Client, evening: Competition, stcb: Competition, query: str
) -> None:
    season_rankings_refresh(season=evening.season)
    body = assert_season_same(client, evening.season, query)
    assert body["results"], "the sample evening ranks its players"
    assert body["as_of"] is not None and body["stale"] is False
    assert "troefclub-zuidoost" in [club["key"] for club in body["clubs"]]


@pytest.mark.parametrize(
    "query", ["by=club", "by=player", "by=koppel&kind=clubs", "by=club&kind=clubs"]
)
def test_the_stcb_season_through_the_api_is_the_pages(
    client: Client, stcb: Competition, query: str
) -> None:
    season_rankings_refresh(season=stcb.season)
    assert_season_same(client, stcb.season, query)


def test_season_pages_follow_the_version(client: Client, evening: Competition) -> None:
    season_rankings_refresh(season=evening.season)
    whole = api_get(client, season_url(evening.season))["results"]
    assert len(whole) > 3
    assert all_rows(client, season_url(evening.season, page_size=3)) == whole
    first = api_get(client, season_url(evening.season, page_size=3))
    season_rankings_refresh(season=evening.season)
    response = client.get(first["next"])
    assert response.status_code == 409 and response.json()["code"] == "ranking_changed"


@pytest.mark.parametrize("query, field", [("by=team", "by"), ("by=", "by"), ("kind=cups", "kind")])
def test_a_season_parameter_the_page_does_not_know_is_a_400(
    client: Client, evening: Competition, query: str, field: str
) -> None:
    season_rankings_refresh(season=evening.season)
    response = client.get(season_url(evening.season) + "?" + query)
    assert response.status_code == 400
    assert field in response.json()["fields"]


def test_a_club_that_did_not_play_in_the_season_is_a_404(
    client: Client, evening: Competition
) -> None:
    season_rankings_refresh(season=evening.season)
    response = client.get(season_url(evening.season, club="nowhere"))
    assert response.status_code == 404
    assert "nowhere" in response.json()["message"]


def test_an_unknown_season_is_a_404_and_stores_nothing(
    client: Client, evening: Competition
) -> None:
    from rankings.models import SeasonRankingState

    assert client.get(season_url("1999")).status_code == 404
    assert not SeasonRankingState.objects.filter(season="1999").exists()


def test_the_season_etag_moves_with_its_refresh(client: Client, evening: Competition) -> None:
    season_rankings_refresh(season=evening.season)
    url = season_url(evening.season, by="koppel")
    etag = client.get(url)["ETag"]
    assert client.get(url, headers={"if-none-match": etag}).status_code == 304
    season_rankings_refresh(season=evening.season)
    assert client.get(url, headers={"if-none-match": etag}).status_code == 200


# ----------------------------------------------------------------------- ratings


def ratings_url(**params: Any) -> str:
    url = reverse("api:rating-list")
    return url + ("?" + "&".join(f"{k}={v}" for k, v in params.items()) if params else "")


@pytest.fixture
def rated(evening: Competition) -> None:
    ratings_refresh()
    assert PlayerRating.objects.exists()


@pytest.mark.parametrize("query", ["", "sort=games", "sort=-club", "club=troefclub-zuidoost"])
def test_the_ratings_through_the_api_are_the_pages(
    client: Client, rated: None, query: str, settings: Any
) -> None:
    settings.RATING_MIN_GAMES = 1
    body = api_get(client, ratings_url() + "?" + query.replace("sort", "ordering"))
    records, _, _ = page_records(client, reverse("rating_list") + "?" + query)
    assert len(body["results"]) == len(records) > 0
    for line, record in zip(body["results"], records, strict=True):
        assert line["player"]["key"] == record.player.key
        assert (line["rank"], line["rating"], line["mu"], line["sigma"], line["games"]) == (
            record.rank,
            record.ordinal,
            record.mu,
            record.sigma,
            record.games,
        )
        club = record.player.club
        assert line["club"] == (None if club is None else {"key": club.key, "name": club.name})
    assert body["min_games"] == 1


def test_ratings_page_by_version_and_answer_304(client: Client, rated: None, settings: Any) -> None:
    settings.RATING_MIN_GAMES = 1
    whole = api_get(client, ratings_url())["results"]
    assert all_rows(client, ratings_url(page_size=2)) == whole
    response = client.get(ratings_url())
    assert client.get(ratings_url(), headers={"if-none-match": response["ETag"]}).status_code == 304


def test_a_higher_threshold_leaves_players_out_and_a_lower_one_is_the_sites(
    client: Client, rated: None, settings: Any
) -> None:
    settings.RATING_MIN_GAMES = 1
    everyone = api_get(client, ratings_url())
    fewer = api_get(client, ratings_url(min_games=10_000))
    assert fewer["results"] == [] and fewer["below"] == len(everyone["results"])
    settings.RATING_MIN_GAMES = 2
    assert api_get(client, ratings_url(min_games=1))["min_games"] == 2


def test_ratings_of_a_club_no_listed_player_plays_for_is_a_404(client: Client, rated: None) -> None:
    ClubFactory.create(key="empty")
    PlayerFactory.create()
    response = client.get(ratings_url(club="empty"))
    assert response.status_code == 404 and "empty" in response.json()["message"]


def test_the_season_search_finds_lines_and_keeps_their_ranks(
    client: Client, evening: Competition
) -> None:
    season_rankings_refresh(season=evening.season)
    whole = api_get(client, season_url(evening.season))["results"]
    wanted = whole[-1]
    word = wanted["name"].split()[-1].upper()
    found = api_get(client, season_url(evening.season, q=word))["results"]
    assert wanted in found
    assert all(word.casefold() in (line["name"] + line["key"]).casefold() for line in found)
