"""The API's public reads (issue 21): clubs, players, koppels, competitions, seasons,
matchdays with their fixtures, matches, games with their rounds, and a player's, koppel's
and club's games; their filters, their cursor paging, their 404s and 400s.

The scene is the club evening sample (`data/club-evening-sample.json`: every result kind,
callers and tricks), imported as the importer stores it, plus a fourth matchday with a
bye, a forfeited match and a match known only by its reported totals.
"""

from __future__ import annotations

import datetime
import json
import re
from base64 import b64encode
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from scoring.models import Game
from tests.api.reads_scene import API, SLUG, get, ok, sample_scene
from tests.builders import finished_game, pairs_game, record
from tests.factories import (
    ClubFactory,
    CompetitionFactory,
    GameFactory,
    PlayerFactory,
    TeamFactory,
    UserFactory,
)
from tournaments.models import Club, Competition, Entry, Match, Matchday, Team


@pytest.fixture
def sample(db: None) -> Competition:
    return sample_scene()


# ------------------------------------------------------------------------------ entities


def test_clubs_list_detail_and_name_filter(db: None, client: Client) -> None:
    clubs = [ClubFactory.create(name=name) for name in ("Kampoe", "Toppers", "Kampong")]
    data = ok(client, "clubs/")
    assert [row["key"] for row in data["results"]] == [club.key for club in clubs]
    assert data["results"][0] == {"key": clubs[0].key, "name": "Kampoe"}
    assert [row["name"] for row in ok(client, "clubs/?name=KAMP")["results"]] == [
        "Kampoe",
        "Kampong",
    ]
    assert ok(client, f"clubs/{clubs[1].key}/") == {"key": clubs[1].key, "name": "Toppers"}


def test_players_show_their_club_and_filter_by_club_and_name(db: None, client: Client) -> None:
    club = ClubFactory.create(key="kampoe", name="Kampoe")
    ana = PlayerFactory.create(key="ana", name="Ana Kromo", club=club)
    PlayerFactory.create(key="bob", name="Bob Kromo")
    PlayerFactory.create(key="cor", name="Cor Lie", club=club)
    assert ok(client, "players/ana/") == {
        "key": "ana",
        "name": "Ana Kromo",
        "club": {"key": "kampoe", "name": "Kampoe"},
    }
    assert ok(client, "players/bob/")["club"] is None
    keys = [row["key"] for row in ok(client, "players/?club=kampoe")["results"]]
    assert keys == ["ana", "cor"]
    keys = [row["key"] for row in ok(client, "players/?name=kromo")["results"]]
    assert keys == ["ana", "bob"]
    keys = [row["key"] for row in ok(client, "players/?name=kromo&club=kampoe")["results"]]
    assert keys == [ana.key]


def test_koppels_name_their_players_and_filter_by_player_and_club(db: None, client: Client) -> None:
    club = ClubFactory.create(key="kampoe")
    ana = PlayerFactory.create(key="ana", name="Ana", club=club)
    bob = PlayerFactory.create(key="bob", name="Bob")
    cor = PlayerFactory.create(key="cor", name="Cor")
    TeamFactory.create(key="k1", name="", player_1=ana, player_2=bob)
    TeamFactory.create(key="k2", name="Tops", player_1=bob, player_2=cor)
    assert ok(client, "koppels/k1/") == {
        "key": "k1",
        "name": "Ana & Bob",
        "own_name": "",
        "players": [{"key": "ana", "name": "Ana"}, {"key": "bob", "name": "Bob"}],
    }
    assert ok(client, "koppels/k2/")["name"] == "Tops"
    assert [r["key"] for r in ok(client, "koppels/?player=bob")["results"]] == ["k1", "k2"]
    assert [r["key"] for r in ok(client, "koppels/?player=cor")["results"]] == ["k2"]
    assert [r["key"] for r in ok(client, "koppels/?club=kampoe")["results"]] == ["k1"]


def test_competitions_filter_by_season_and_kind_and_count_entries(
    sample: Competition, client: Client
) -> None:
    CompetitionFactory.create(slug="league", season="2025-2026", kind=Competition.Kind.CLUBS)
    data = ok(client, f"competitions/{SLUG}/")
    assert data["name"] == "Club evening (sample)"
    assert data["entries"] == 8
    assert data["kind"] == "pairs"
    assert data["tiebreaks"] == ["points", "saldo", "points_for", "head_to_head"]
    assert "directors" not in data
    assert [r["slug"] for r in ok(client, "competitions/?season=2025-2026")["results"]] == [
        "league"
    ]
    assert [r["slug"] for r in ok(client, "competitions/?kind=pairs")["results"]] == [SLUG]


def test_seasons_list_and_detail(sample: Competition, client: Client) -> None:
    CompetitionFactory.create(slug="old", name="Old", season="2025-2026")
    CompetitionFactory.create(slug="other", name="Another", season="2026-2027")
    assert ok(client, "seasons/") == [
        {"name": "2026-2027", "competitions": 2},
        {"name": "2025-2026", "competitions": 1},
    ]
    data = ok(client, "seasons/2026-2027/")
    assert data["best_evenings"] is None
    assert [c["slug"] for c in data["competitions"]] == ["other", SLUG]
    assert get(client, "seasons/1999-2000/").status_code == 404


# ------------------------------------------------------------------------------ play


def test_matchdays_list_their_matches_and_byes(sample: Competition, client: Client) -> None:
    data = ok(client, f"competitions/{SLUG}/matchdays/")
    assert [(row["number"], row["matches"]) for row in data["results"]] == [
        (1, 4),
        (2, 4),
        (3, 4),
        (4, 3),
    ]
    fourth = ok(client, f"competitions/{SLUG}/matchdays/4/")
    assert fourth["date"] == "2026-10-23"
    assert fourth["byes"] == [{"kind": "koppel", "key": "t01", "name": fourth["byes"][0]["name"]}]
    assert fourth["byes"][0]["name"] == str(Team.objects.get(key="t01"))


def test_fixtures_show_forfeits_reported_totals_and_scores(
    sample: Competition, client: Client
) -> None:
    rows = ok(client, f"competitions/{SLUG}/matchdays/4/matches/")["results"]
    forfeit, reported, unplayed = rows
    assert (forfeit["home"]["key"], forfeit["away"]["key"], forfeit["table"]) == ("t02", "t07", 1)
    assert forfeit["forfeit"] == "away"
    assert forfeit["forfeit_reason"] == "did not come"
    assert forfeit["state"] == "finished"
    assert forfeit["score"] == {
        "home": sample.forfeit_score_for,
        "away": sample.forfeit_score_against,
    }
    assert reported["reported"] is True
    assert reported["score"] == {"home": 31, "away": 25}
    assert reported["game_count"] == 0
    assert (unplayed["state"], unplayed["score"], unplayed["table"]) == ("not_started", None, 3)
    played = ok(client, f"competitions/{SLUG}/matchdays/1/matches/")["results"]
    for row in played:
        match = Match.objects.get(pk=row["id"])
        game = match.games.get()
        assert row["state"] == "finished"
        assert row["score"] == {"home": game.score_a, "away": game.score_b}
    only = ok(client, f"competitions/{SLUG}/matchdays/1/matches/?table=2")["results"]
    assert [row["table"] for row in only] == [2]
    theirs = ok(client, f"competitions/{SLUG}/matchdays/1/matches/?entry=t08")["results"]
    assert [(row["home"]["key"], row["away"]["key"]) for row in theirs] == [("t01", "t08")]


def test_match_detail_lists_its_games(sample: Competition, client: Client) -> None:
    match = Match.objects.filter(matchday__competition=sample, matchday__number=2).first()
    assert match is not None
    data = ok(client, f"matches/{match.pk}/")
    game = match.games.get()
    assert [row["id"] for row in data["games"]] == [game.pk]
    assert data["games"][0]["score"] == {"a": game.score_a, "b": game.score_b}
    assert data["games"][0]["koppel_a"]["key"] == game.team_a.key
    assert data["competition"] == SLUG and data["matchday"] == 2


def _page_rounds(html: str) -> list[tuple[int, int, int, str]]:
    """(number, points A, points B, running "a–b") of each round row of a game page."""
    rows = []
    for number, body in re.findall(
        r'<tr id="round-(\d+)" class="round-row">(.*?)</tr>', html, re.S
    ):
        points_a = re.search(r'class="[^"]*points-a">(\d*)</td>', body)
        points_b = re.search(r'class="[^"]*points-b">(\d*)</td>', body)
        running = re.search(r'class="[^"]*running">([^<]*)</td>', body)
        assert points_a and points_b and running
        rows.append(
            (
                int(number),
                int(points_a.group(1) or 0),
                int(points_b.group(1) or 0),
                running.group(1).strip(),
            )
        )
    return rows


def test_a_game_reads_the_same_through_the_api_and_its_page(
    sample: Competition, client: Client
) -> None:
    """Every game of the sample: the same rounds, points, running totals and score."""
    games = Game.objects.filter(match__matchday__competition=sample, match__matchday__number__lte=3)
    assert games.count() == 12
    for game in games:
        data = ok(client, f"games/{game.pk}/")
        page = client.get(reverse("game_detail", kwargs={"slug": SLUG, "game_id": game.pk}))
        html = page.content.decode()
        from_page = _page_rounds(html)
        from_api = [
            (
                row["number"],
                row["points"]["a"],
                row["points"]["b"],
                f"{row['running']['a']}–{row['running']['b']}",
            )
            for row in data["rounds"]
        ]
        assert from_api == from_page and from_api, game.pk
        score = re.search(
            r'class="score-a">(\d+)</span><span class="score-sep">–</span>'
            r'<span class="score-b">(\d+)</span>',
            html,
        )
        assert score is not None
        assert data["score"] == {"a": int(score.group(1)), "b": int(score.group(2))}
        assert from_api[-1][3] == f"{data['score']['a']}–{data['score']['b']}"


def test_a_game_names_seats_callers_tricks_and_no_private_fields(
    sample: Competition, client: Client
) -> None:
    game = Game.objects.get(match__matchday__competition=sample, match__matchday__number=1, table=1)
    data = ok(client, f"games/{game.pk}/")
    assert [seat["key"] for seat in data["seats"]] == ["p01", "p15", "p02", "p16"]
    first = data["rounds"][0]
    assert first["result"] == "gewone_winst" and first["side"] == "b"
    assert first["caller"]["key"] == "p16"
    assert first["tricks"] == {"a": 4, "b": 7}
    assert data["state"] == "finished" and data["status"] == "finished"
    assert data["winner"] in ("a", "b")
    text = json.dumps(data)
    for private in ("token", "recorded_by", "client_key", "link", "confirmed_by", "comment"):
        assert private not in text


def test_game_states_follow_the_public_badge(db: None, client: Client) -> None:
    game = finished_game(competition=CompetitionFactory.create(confirmation_required=True))
    assert ok(client, f"games/{game.pk}/")["state"] == "awaiting_confirmation"
    Game.objects.filter(pk=game.pk).update(confirmed_at=datetime.datetime.now(datetime.UTC))
    assert ok(client, f"games/{game.pk}/")["state"] == "confirmed"
    fresh = finished_game(competition=CompetitionFactory.create())
    assert ok(client, f"games/{fresh.pk}/")["state"] == "finished"
    open_game = Game.objects.get(pk=finished_game(competition=fresh.competition).pk)
    Game.objects.filter(pk=open_game.pk).update(status=Game.Status.OPEN)
    assert ok(client, f"games/{open_game.pk}/")["state"] == "in_play"


def test_a_redeal_names_no_side(db: None, client: Client) -> None:
    other = GameFactory.create(seat_1=None, seat_2=None, seat_3=None, seat_4=None)
    assert ok(client, f"games/{other.pk}/")["state"] == "not_started"
    record(other, "redeal", "a")
    data = ok(client, f"games/{other.pk}/")
    assert data["rounds"][0]["side"] is None
    assert data["state"] == "in_play"
    assert data["seats"] is None


def test_the_games_of_a_player_koppel_and_club_are_the_counted_ones(
    sample: Competition, client: Client
) -> None:
    koppel = Team.objects.get(key="t01")
    games = {
        g.pk
        for g in Game.objects.filter(match__matchday__competition=sample).filter(team_a=koppel)
        | Game.objects.filter(match__matchday__competition=sample).filter(team_b=koppel)
    }
    assert {row["id"] for row in ok(client, "koppels/t01/games/")["results"]} == games
    player = koppel.player_1
    assert {row["id"] for row in ok(client, f"players/{player.key}/games/")["results"]} == games
    club = Club.objects.get()
    rows = ok(client, f"clubs/{club.key}/games/")["results"]
    assert {row["id"] for row in rows} == set(
        Game.objects.filter(match__matchday__competition=sample, status="finished").values_list(
            "pk", flat=True
        )
    )
    assert rows[0]["competition"] == SLUG and rows[0]["date"] == "2026-10-02"
    # An open game counts nowhere yet (as on the pages).
    open_game = Game.objects.get(match__matchday__number=4)
    assert open_game.pk not in {r["id"] for r in ok(client, "koppels/t04/games/")["results"]}


# ------------------------------------------------------------------------------ paging


def test_rows_saved_between_two_pages_are_neither_skipped_nor_repeated(
    db: None, client: Client
) -> None:
    for _ in range(5):
        ClubFactory.create()
    first = ok(client, "clubs/?page_size=2")
    seen = [row["key"] for row in first["results"]]
    # New clubs arrive, and one already sent is renamed, while the client pages on.
    for _ in range(3):
        ClubFactory.create()
    Club.objects.filter(key=seen[0]).update(name="Renamed")
    following = first["next"]
    while following:
        page = client.get(following).json()
        seen += [row["key"] for row in page["results"]]
        following = page["next"]
    expected = list(Club.objects.order_by("id").values_list("key", flat=True))
    assert seen == expected
    assert len(seen) == len(set(seen)) == 8


def test_a_koppels_games_page_on_without_skip_or_repeat(db: None, client: Client) -> None:
    koppel = TeamFactory.create()
    competition = CompetitionFactory.create()

    def play_one() -> None:
        entry = Entry.objects.get_or_create(competition=competition, team=koppel)[0]
        other = Entry.objects.create(competition=competition, team=TeamFactory.create())
        day = Matchday.objects.create(competition=competition, number=Matchday.objects.count() + 1)
        finished_game(pairs_game(day, entry, other, table=1))

    for _ in range(3):
        play_one()
    first = ok(client, f"koppels/{koppel.key}/games/?page_size=2")
    seen = [row["id"] for row in first["results"]]
    play_one()
    play_one()
    following = first["next"]
    while following:
        page = client.get(following).json()
        seen += [row["id"] for row in page["results"]]
        following = page["next"]
    assert seen == sorted(seen) and len(seen) == len(set(seen)) == 5


# ------------------------------------------------------------------------------ refusals


def _cursor(text: str) -> str:
    return b64encode(text.encode()).decode()


@pytest.mark.parametrize(
    "path",
    [
        "clubs/nobody/",
        "clubs/" + "x" * 300 + "/",
        "players/a%20b/",
        "koppels/%E2%80%AE/",
        "koppels/nobody/games/",
        "players/nobody/games/",
        "clubs/nobody/games/",
        "competitions/nothing/",
        "competitions/nothing/matchdays/",
        f"competitions/{SLUG}/matchdays/99/",
        f"competitions/{SLUG}/matchdays/99999999999999999999999/",
        f"competitions/{SLUG}/matchdays/0/matches/",
        f"competitions/{SLUG}/matchdays/x/",
        "matches/0/",
        "matches/9223372036854775808/",
        "games/99999999999999999999999999/",
        "games/-1/",
        "games/1e3/",
        "seasons/" + "9" * 30 + "/",
    ],
)
def test_unknown_things_answer_404_in_the_api_shape(
    sample: Competition, client: Client, path: str
) -> None:
    response = get(client, path)
    assert response.status_code == 404, response.content[:200]
    assert set(response.data_json) == {"code", "message"}
    assert response.data_json["code"] == "not_found"


@pytest.mark.parametrize(
    "path",
    [
        f"clubs/?cursor={_cursor('p=abc')}",
        f"clubs/?cursor={_cursor('p=99999999999999999999')}",
        f"clubs/?cursor={_cursor('p=%00')}",
        "clubs/?cursor=not-a-cursor",
    ],
)
def test_a_cursor_no_list_gave_is_a_400_naming_it(
    sample: Competition, client: Client, path: str
) -> None:
    response = get(client, path)
    assert response.status_code == 400, response.content[:200]
    assert response.data_json["code"] == "invalid_cursor"
    assert list(response.data_json["fields"]) == ["cursor"]


@pytest.mark.parametrize(
    "path, field",
    [
        ("competitions/?kind=neither", "kind"),
        ("players/?club=" + "x" * 81, "club"),
        (f"competitions/{SLUG}/matchdays/1/matches/?table=abc", "table"),
        (f"competitions/{SLUG}/matchdays/1/matches/?table=99999999999999999999", "table"),
        (f"competitions/{SLUG}/matchdays/1/matches/?table=0", "table"),
    ],
)
def test_bad_filter_values_answer_400_naming_the_filter(
    sample: Competition, client: Client, path: str, field: str
) -> None:
    response = get(client, path)
    assert response.status_code == 400, response.content[:200]
    assert set(response.data_json) == {"code", "message", "fields"}
    assert field in response.data_json["fields"]


@pytest.mark.parametrize(
    "path",
    [
        "clubs/%00/",
        "competitions/%00/matchdays/",
        "games/%00/",
        "seasons/%00/",
        "clubs/?cursor=%00",
        "competitions/?season=%00",
        "players/?name=%00",
        "koppels/?player=%00",
    ],
)
def test_a_nul_is_refused_before_any_query(
    sample: Competition, client: Client, path: str, django_assert_num_queries: Any
) -> None:
    """The site's NUL guard (`troefclub.nul`) answers 400 before the API is reached."""
    with django_assert_num_queries(0):
        response = client.get(API + path)
    assert response.status_code == 400


def test_a_refusal_is_in_the_readers_language(sample: Competition, client: Client) -> None:
    english = get(client, "competitions/?kind=neither", **{"Accept-Language": "en"})
    dutch = get(client, "competitions/?kind=neither", **{"Accept-Language": "nl"})
    assert english.data_json["code"] == dutch.data_json["code"]
    assert english.data_json["message"] != dutch.data_json["message"]


def test_reads_need_no_login_and_ignore_a_session(sample: Competition, client: Client) -> None:
    anonymous = ok(client, f"competitions/{SLUG}/")
    client.force_login(UserFactory.create())
    assert ok(client, f"competitions/{SLUG}/") == anonymous


# ------------------------------------------------------------------------------ schema

READ_PATHS = {
    "/api/v1/clubs/",
    "/api/v1/clubs/{key}/",
    "/api/v1/clubs/{key}/games/",
    "/api/v1/players/",
    "/api/v1/players/{key}/",
    "/api/v1/players/{key}/games/",
    "/api/v1/koppels/",
    "/api/v1/koppels/{key}/",
    "/api/v1/koppels/{key}/games/",
    "/api/v1/competitions/",
    "/api/v1/competitions/{slug}/",
    "/api/v1/competitions/{slug}/matchdays/",
    "/api/v1/competitions/{slug}/matchdays/{number}/",
    "/api/v1/competitions/{slug}/matchdays/{number}/matches/",
    "/api/v1/matches/{match_id}/",
    "/api/v1/games/{game_id}/",
    "/api/v1/seasons/",
    "/api/v1/seasons/{season}/",
}


def test_the_schema_validates_without_warnings_and_has_every_read(db: None, tmp_path: Path) -> None:
    target = tmp_path / "schema.json"
    call_command("spectacular", "--validate", "--fail-on-warn", "--format", "openapi-json",
                 "--file", str(target))  # fmt: skip
    schema = json.loads(target.read_text(encoding="utf-8"))
    assert set(schema["paths"]) >= READ_PATHS
    for path in READ_PATHS:
        responses = schema["paths"][path]["get"]["responses"]
        assert {"200", "304"} <= set(responses), path
