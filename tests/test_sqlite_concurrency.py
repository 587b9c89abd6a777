"""The embedded default takes a club evening: phones saving rounds at once on SQLite.

`python3 dev.py run` on SQLite answered "database is locked" (HTTP 500) to 9 of 18
simultaneous saves from three phones. These tests run the real app the way dev.py does (a
SQLite file, Celery eager, `manage.py runserver`, DEBUG off) in a child process and post
rounds through the score sheet form from several threads at once, each with its own
session. Every save must be answered (saved, or refused in words), stored exactly once,
and the standings must be those of the same results imported in one go.
"""

from __future__ import annotations

import http.cookiejar
import json
import shutil
import subprocess
import sys
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.app_process import app_env, free_port, run_checked, stop, wait_for_http
from tests.paths import REPO_ROOT as ROOT

# One migrated SQLite file for the module (`migrated`): in a parallel run (pytest-xdist,
# `--dist loadgroup`) its tests stay on one worker rather than each worker migrating one.
pytestmark = [pytest.mark.xdist_group("sqlite-evening"), pytest.mark.heavy]

SLUG = "club-evening-sample"
DIRECTOR = "director"  # user name and password
# Matchday 4 of the sample, not yet played: koppels that have not met, one game per table.
OPEN_GAMES = [("t01", "t05"), ("t02", "t04"), ("t03", "t08")]
# What each phone enters, in order: its game ends at the sixth round, 20-4 for koppel a.
ROUNDS = [
    ("gewone_winst", "b"),
    ("kap", "a"),
    ("gewone_winst", "b"),
    ("kap", "a"),
    ("kap", "a"),
    ("kap", "a"),
]


def evening(rounds: list[tuple[str, str]]) -> dict[str, Any]:
    """The club-evening sample with a fourth matchday whose games hold `rounds`."""
    data = json.loads((ROOT / "data" / "club-evening-sample.json").read_text(encoding="utf-8"))
    data["matchdays"].append(
        {
            "number": 4,
            "date": None,
            "matches": [
                {
                    "home": home,
                    "away": away,
                    "games": [
                        {
                            "table": table,
                            "team_a": home,
                            "team_b": away,
                            "rounds": [{"result": r, "side": s} for r, s in rounds],
                        }
                    ],
                }
                for table, (home, away) in enumerate(OPEN_GAMES, start=1)
            ],
        }
    )
    return data


def database_env(db: Path) -> dict[str, str]:
    """The embedded default on the SQLite file `db`, with DEBUG off as dev.py runs it."""
    return app_env(
        DATABASE_URL=f"sqlite:///{db}",
        SECRET_KEY="sqlite-concurrency-test-not-secret",
        DEBUG="false",
        ALLOWED_HOSTS="127.0.0.1",
    )


def manage(*args: str, env: dict[str, str]) -> str:
    return run_checked([sys.executable, "manage.py", *args], cwd=ROOT, env=env).stdout


def shell(code: str, env: dict[str, str]) -> Any:
    """Run ORM code in the app's own process (`manage.py shell -c`); the JSON it prints."""
    return json.loads(manage("shell", "--no-imports", "-c", code, env=env))


@pytest.fixture(scope="module")
def migrated(tmp_path_factory: pytest.TempPathFactory, migrated_sqlite: Path) -> Path:
    """An empty, migrated SQLite file to copy (migrating takes longer than the tests; the
    suite's migrated file is copied, and `migrate` finds nothing left to do)."""
    db = tmp_path_factory.mktemp("sqlite") / "migrated.sqlite3"
    shutil.copyfile(migrated_sqlite, db)
    env = database_env(db)
    manage("migrate", "--no-input", env=env)
    manage("collectstatic", "--no-input", env=env)  # as dev.py run does: DEBUG is off
    return db


def evening_database(
    tmp_path: Path, migrated: Path, name: str, rounds: list[tuple[str, str]]
) -> dict[str, str]:
    """A SQLite file holding `evening(rounds)`; the environment that uses it."""
    db = tmp_path / f"{name}.sqlite3"
    shutil.copyfile(migrated, db)
    document = tmp_path / f"{name}.json"
    document.write_text(json.dumps(evening(rounds)), encoding="utf-8")
    env = database_env(db)
    manage("import_competition", str(document), env=env)
    return env


@dataclass
class Server:
    url: str
    env: dict[str, str]
    log: Path
    game_ids: list[int]


@pytest.fixture
def server(tmp_path: Path, migrated: Path) -> Iterator[Server]:
    """`manage.py runserver` (threaded, as dev.py runs it) on the sample's evening."""
    env = evening_database(tmp_path, migrated, "evening", rounds=[])
    game_ids = shell(
        "import json; from django.contrib.auth.models import User; "
        "from scoring.models import Game; from tournaments.models import Competition; "
        f"user = User.objects.create_user({DIRECTOR!r}, password={DIRECTOR!r}); "
        f"Competition.objects.get(slug={SLUG!r}).directors.add(user); "
        "games = Game.objects.filter(match__matchday__number=4).order_by('table'); "
        "print(json.dumps(list(games.values_list('pk', flat=True))))",
        env,
    )
    assert len(game_ids) == len(OPEN_GAMES)
    port = free_port()
    log = tmp_path / "server.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        wait_for_http(f"http://127.0.0.1:{port}/", process, log)
        yield Server(url=f"http://127.0.0.1:{port}", env=env, log=log, game_ids=game_ids)
    finally:
        stop(process)


class NoRedirect(urllib.request.HTTPRedirectHandler):
    """A saved round answers 302 (post/redirect/get): that answer is what is checked."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


@dataclass
class Phone:
    """One scorer's browser: its own session cookie, posting the score sheet form."""

    base: str
    cookies: http.cookiejar.CookieJar = field(default_factory=http.cookiejar.CookieJar)
    answers: list[int | str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.cookies), NoRedirect()
        )

    def request(self, path: str, form: dict[str, str] | None = None) -> int:
        """GET, or POST `form` with the CSRF token; the HTTP status."""
        data = None
        if form is not None:
            token = next(c.value for c in self.cookies if c.name == "csrftoken")
            data = urllib.parse.urlencode({**form, "csrfmiddlewaretoken": token}).encode()
        try:
            with self.opener.open(urllib.request.Request(self.base + path, data), timeout=60) as r:
                return int(r.status)
        except urllib.error.HTTPError as exc:  # a 302 too: it is not followed
            return exc.code

    def log_in(self) -> None:
        self.request("/accounts/login/")
        status = self.request(
            "/accounts/login/", {"username": DIRECTOR, "password": DIRECTOR, "next": "/"}
        )
        assert status == 302, f"the director's login answered {status}"

    def save(self, game_id: int, number: int, result: str, side: str) -> None:
        """Post one round of the score sheet; note the answer (or the dropped connection)."""
        form = {"number": str(number), "result": result, "side": side}
        try:
            self.answers.append(self.request(f"/c/{SLUG}/game/{game_id}/sheet/", form))
        except OSError as exc:
            self.answers.append(f"{type(exc).__name__}: {exc}")

    def score(self, game_id: int, start: threading.Barrier) -> None:
        """Enter ROUNDS on one game, each with the round number the form was made for."""
        start.wait()
        for number, (result, side) in enumerate(ROUNDS, start=1):
            self.save(game_id, number, result, side)
            if self.answers[-1] != 302:  # a scorer stops and looks at the page
                return


def run_together(targets: list[tuple[Any, tuple[Any, ...]]]) -> None:
    threads = [threading.Thread(target=target, args=args) for target, args in targets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert not any(thread.is_alive() for thread in threads), "a phone got no answer in 300 s"


def stored_rounds(server: Server) -> list[list[Any]]:
    """[score_a, score_b, status, [[number, result, side], ...]] of each open game."""
    return shell(
        "import json; from scoring.models import Game; print(json.dumps(["
        "[g.score_a, g.score_b, g.status, list(g.rounds.order_by('number')"
        ".values_list('number', 'result', 'side'))] for g in "
        "Game.objects.filter(match__matchday__number=4).order_by('table')]))",
        server.env,
    )


def test_three_phones_scoring_their_games_at_once_lose_nothing_and_double_nothing(
    server, migrated, tmp_path
):
    phones = [Phone(server.url) for _ in server.game_ids]
    for phone in phones:
        phone.log_in()
    start = threading.Barrier(len(phones))

    run_together(
        [(phone.score, (game, start)) for phone, game in zip(phones, server.game_ids, strict=True)]
    )

    # Every save answered as saved (302 back to the sheet): no 500, no refusal.
    answers = [phone.answers for phone in phones]
    assert answers == [[302] * len(ROUNDS)] * len(phones), server.log.read_text()[-3000:]
    # Each round stored once, in the order entered, and every game finished 20-4.
    expected_rounds = [[n, r, s] for n, (r, s) in enumerate(ROUNDS, start=1)]
    assert stored_rounds(server) == [[20, 4, "finished", expected_rounds]] * len(OPEN_GAMES)
    # The standings the eager refreshes left are those of the same evening imported at once.
    imported = evening_database(tmp_path, migrated, "imported", rounds=ROUNDS)
    live = manage("standings", SLUG, "--format", "json", env=server.env)
    assert json.loads(live) == json.loads(
        manage("standings", SLUG, "--format", "json", env=imported)
    )


# Six different first rounds, one per tab, with what each gives (koppel a, koppel b).
TABS = {
    ("kap", "a"): [5, 0],
    ("kap", "b"): [0, 5],
    ("gewone_winst", "a"): [2, 0],
    ("gewone_winst", "b"): [0, 2],
    ("baunie", "a"): [15, 0],
    ("baunie", "b"): [0, 15],
}


def test_eighteen_saves_at_one_moment_store_each_game_one_round(server):
    # Three phones, each sending a first round of its game from six tabs at the same moment,
    # each tab another round: one is stored per game, the other five are refused in words
    # (the sheet changed meanwhile), none is lost without an answer or stored twice.
    phones = [Phone(server.url) for _ in server.game_ids]
    for phone in phones:
        phone.log_in()
    start = threading.Barrier(len(TABS) * len(phones))

    def tab(phone: Phone, game_id: int, result: str, side: str) -> None:
        start.wait()
        phone.save(game_id, 1, result, side)

    run_together(
        [
            (tab, (phone, game, result, side))
            for phone, game in zip(phones, server.game_ids, strict=True)
            for result, side in TABS
        ]
    )

    answers = [sorted(phone.answers, key=str) for phone in phones]
    assert answers == [[302] + [422] * 5] * len(phones), server.log.read_text()[-3000:]
    for score_a, score_b, status, rounds in stored_rounds(server):
        [[number, result, side]] = rounds
        assert (number, status) == (1, "open")
        assert [score_a, score_b] == TABS[result, side]
