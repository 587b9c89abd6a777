"""The ETags of the API's public reads (issue 21): a poll that finds nothing new gets 304,
every change the answer shows (a rename, a new round, a correction, an undo, a bye, a
date…) gives a new ETag and the new answer; and the `updated_at` of clubs, players,
koppels and matchdays, which the stamps of those rows read, moves on every write path to
them (the admin, the importer, the services).
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Callable
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from interchange.importer import competition_import
from rankings.models import Season
from scoring.models import Game, Round
from scoring.services.koppels import team_players_set
from scoring.services.rounds import round_correct, round_delete
from tests.api.reads_scene import API, SLUG, sample_scene
from tests.builders import kaps, record
from tests.factories import CompetitionFactory, PlayerFactory, TeamEntryFactory, UserFactory
from tests.seen import round_seen
from tournaments.models import Bye, Club, Competition, Matchday, Player, Team

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def sample(db: None) -> Competition:
    return sample_scene()


def _open_game() -> Game:
    """Matchday 4's game t04–t05 (open, no rounds yet)."""
    return Game.objects.get(match__matchday__number=4, team_a__key="t04")


def _played_game() -> Game:
    return Game.objects.get(match__matchday__number=1, table=1)


def _rename(model: type[Any], **lookup: Any) -> Callable[[], None]:
    def change() -> None:
        row = model.objects.get(**lookup)
        row.name = row.name + " (renamed)"
        row.save()

    return change


def _club_rename() -> None:
    _rename(Club)()


def _round() -> None:
    record(_open_game(), "gewone_winst", "a")


def _correction() -> None:
    """Round 1 of a played game corrected: its tricks only (same points, same score)."""
    rnd = Round.objects.get(game=_played_game(), number=1)
    assert rnd.tricks is not None
    tricks = (rnd.tricks[0] - 1, rnd.tricks[1]) if rnd.tricks[0] else (1, 7)
    round_correct(
        round_id=rnd.pk,
        result=rnd.result,
        side=rnd.side,
        caller_id=rnd.caller_id,
        tricks=tricks,
        seen=round_seen(rnd.pk),
    )


def _undo() -> None:
    """The last round of a played game deleted (the game is open again)."""
    rnd = _played_game().rounds.order_by("number").last()
    assert rnd is not None
    round_delete(round_id=rnd.pk, seen=round_seen(rnd.pk))


def _date() -> None:
    day = Matchday.objects.get(number=4)
    day.date = datetime.date(2026, 10, 30)
    day.save()


def _bye_removed() -> None:
    Bye.objects.get().delete()


def _entry() -> None:
    TeamEntryFactory.create(competition=Competition.objects.get(slug=SLUG))


def _season_setting() -> None:
    Season.objects.create(name="2026-2027", best_evenings=2)


def _new_season() -> None:
    CompetitionFactory.create(season="2030-2031")


def _finish_open_game() -> None:
    kaps(_open_game(), 4)


def _forfeit() -> None:
    game = _open_game()
    match = game.match
    match.forfeit, match.forfeit_reason = "home", "late"
    match.save()


def _game(path: str) -> Callable[[], str]:
    return lambda: path.format(played=_played_game().pk, open=_open_game().pk)


def _match(path: str) -> Callable[[], str]:
    return lambda: path.format(match=_open_game().match_id)


def _player_1(path: str) -> Callable[[], str]:
    return lambda: path.format(player=Team.objects.get(key="t01").player_1.key)


def _club(path: str) -> Callable[[], str]:
    return lambda: path.format(club=Club.objects.get().key)


# (path, the change whose answer differs): every kind of change each answer shows.
CASES: list[tuple[Callable[[], str] | str, Callable[[], None]]] = [
    ("clubs/", _club_rename),
    (_club("clubs/{club}/"), _club_rename),
    ("players/", _club_rename),
    ("players/", _rename(Player, key="p01")),
    (_player_1("players/{player}/"), _club_rename),
    (_player_1("players/{player}/"), _rename(Player, key="p01")),
    ("koppels/", _rename(Player, key="p01")),
    ("koppels/t01/", _rename(Player, key="p01")),
    ("koppels/t01/", _rename(Team, key="t01")),
    ("competitions/", _rename(Competition, slug=SLUG)),
    ("competitions/", _entry),
    (f"competitions/{SLUG}/", _rename(Competition, slug=SLUG)),
    (f"competitions/{SLUG}/", _entry),
    ("seasons/", _new_season),
    ("seasons/2026-2027/", _season_setting),
    ("seasons/2026-2027/", _rename(Competition, slug=SLUG)),
    (f"competitions/{SLUG}/matchdays/", _date),
    (f"competitions/{SLUG}/matchdays/", _bye_removed),
    (f"competitions/{SLUG}/matchdays/", _rename(Player, key="p01")),
    (f"competitions/{SLUG}/matchdays/4/", _bye_removed),
    (f"competitions/{SLUG}/matchdays/4/", _date),
    (f"competitions/{SLUG}/matchdays/4/matches/", _round),
    (f"competitions/{SLUG}/matchdays/4/matches/", _forfeit),
    (f"competitions/{SLUG}/matchdays/4/matches/", _rename(Team, key="t04")),
    (_match("matches/{match}/"), _round),
    (_match("matches/{match}/"), _forfeit),
    (_match("matches/{match}/"), _rename(Player, key="p07")),
    (_game("games/{open}/"), _round),
    (_game("games/{played}/"), _undo),
    (_game("games/{played}/"), _correction),
    (_game("games/{played}/"), _rename(Player, key="p01")),
    ("koppels/t04/games/", _finish_open_game),
    (_player_1("players/{player}/games/"), _rename(Team, key="t08")),
    (_club("clubs/{club}/games/"), _finish_open_game),
]


def _case_id(case: tuple[Any, Callable[[], None]]) -> str:
    path, change = case
    where = path if isinstance(path, str) else path.__closure__[0].cell_contents
    return f"{where}:{getattr(change, '__name__', 'change')}"


@pytest.mark.parametrize("case", CASES, ids=[_case_id(case) for case in CASES])
def test_a_change_the_answer_shows_gives_a_new_etag_and_nothing_new_gives_304(
    sample: Competition, client: Client, case: tuple[Any, Callable[[], None]]
) -> None:
    path_of, change = case
    path = API + (path_of if isinstance(path_of, str) else path_of())
    first = client.get(path)
    assert first.status_code == 200, first.content[:200]
    etag = first["ETag"]
    assert first["Cache-Control"] == "no-cache"
    with CaptureQueriesContext(connection) as stamp_only:
        again = client.get(path, headers={"If-None-Match": etag})
    assert again.status_code == 304 and not again.content
    assert again["ETag"] == etag
    assert len(stamp_only.captured_queries) == 1, "the stamp is one query"
    change()
    after = client.get(path, headers={"If-None-Match": etag})
    assert after.status_code == 200, "a changed answer under the old ETag"
    assert after["ETag"] != etag
    assert after.json() != first.json(), "the ETag moved: the answer should have too"
    assert client.get(path, headers={"If-None-Match": after["ETag"]}).status_code == 304


def test_an_etag_is_per_language_and_per_query(sample: Competition, client: Client) -> None:
    path = API + f"competitions/{SLUG}/matchdays/4/matches/"
    english = client.get(path, headers={"Accept-Language": "en"})["ETag"]
    dutch = client.get(path, headers={"Accept-Language": "nl"})["ETag"]
    filtered = client.get(path + "?table=1", headers={"Accept-Language": "en"})["ETag"]
    assert len({english, dutch, filtered}) == 3


def test_a_game_says_when_it_last_changed(sample: Competition, client: Client) -> None:
    game = _open_game()
    record(game, "gewone_winst", "a")
    last = Round.history.filter(game_id=game.pk).latest("history_id").history_date
    response = client.get(API + f"games/{game.pk}/")
    assert response["Last-Modified"]
    modified = parsedate_to_datetime(response["Last-Modified"])
    assert modified >= last.replace(microsecond=0)


# ------------------------------------------------------------------------------ updated_at


def _updated(model: type[Any], pk: int) -> datetime.datetime:
    return model.objects.values_list("updated_at", flat=True).get(pk=pk)


def _admin_client(client: Client) -> Client:
    client.force_login(UserFactory.create(is_staff=True, is_superuser=True))
    return client


def test_the_admin_moves_updated_at_of_clubs_players_and_koppels(
    sample: Competition, client: Client
) -> None:
    admin = _admin_client(client)
    club = Club.objects.get()
    before = _updated(Club, club.pk)
    response = admin.post(
        reverse("admin:tournaments_club_change", args=[club.pk]),
        {"key": club.key, "name": "Renamed club"},
    )
    assert response.status_code == 302, response.content[:500]
    assert _updated(Club, club.pk) > before

    player = Player.objects.get(key="p01")
    before = _updated(Player, player.pk)
    response = admin.post(
        reverse("admin:tournaments_player_change", args=[player.pk]),
        {"key": player.key, "name": "Renamed player", "club": player.club_id or ""},
    )
    assert response.status_code == 302, response.content[:500]
    assert _updated(Player, player.pk) > before

    koppel = Team.objects.get(key="t01")
    before = _updated(Team, koppel.pk)
    response = admin.post(
        reverse("admin:tournaments_team_change", args=[koppel.pk]),
        {
            "key": koppel.key,
            "name": "Renamed koppel",
            "player_1": koppel.player_1_id,
            "player_2": koppel.player_2_id,
        },
    )
    assert response.status_code == 302, response.content[:500]
    assert _updated(Team, koppel.pk) > before


def test_a_koppels_new_players_move_its_updated_at(db: None) -> None:
    koppel = Team.objects.create(
        key="k", player_1=PlayerFactory.create(), player_2=PlayerFactory.create()
    )
    before = _updated(Team, koppel.pk)
    team_players_set(
        team_id=koppel.pk, player_1_id=PlayerFactory.create().pk, player_2_id=koppel.player_2_id
    )
    assert _updated(Team, koppel.pk) > before


def test_the_importer_stamps_what_it_creates(db: None) -> None:
    started = datetime.datetime.now(datetime.UTC)
    competition = competition_import(
        data=json.loads((ROOT / "data" / "club-evening-sample.json").read_text(encoding="utf-8"))
    )
    for model in (Club, Player, Team):
        stamps = set(model.objects.values_list("updated_at", flat=True))
        assert stamps and min(stamps) >= started - datetime.timedelta(seconds=1), model
    days = competition.matchdays.values_list("updated_at", flat=True)
    assert min(days) >= started - datetime.timedelta(seconds=1)


# A QuerySet.update() or bulk_update() of these rows would not move `updated_at` (no save):
# none may exist outside migrations and tests, unless it sets `updated_at` itself.
UNSTAMPED_WRITE = re.compile(
    r"\b(Club|Player|Team|Matchday)\.objects\b[^\n]*\.(update|bulk_update)\((?![^\n]*updated_at)"
)


def test_no_write_path_bypasses_updated_at() -> None:
    found = []
    for folder in ("api", "interchange", "rankings", "scoring", "tournaments", "troefclub"):
        for path in (ROOT / folder).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if UNSTAMPED_WRITE.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, found
