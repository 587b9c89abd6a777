"""Issue 19, item 2: history only for a change, through every door.

A write that changes nothing writes nothing: no history row (of any model, the
competition's directors included), no standings refresh, no admin log entry. The same
write with a change writes exactly one history row of the row it changed. Each door is a
row of `DOORS`: the services a page calls, those pages, the admin's change pages and the
importer; a rule change that re-scores no game (`competition_games_rescore`) and the
competition's directors have tests of their own below.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.apps import apps
from django.contrib.admin.models import LogEntry
from django.core.management import call_command
from django.db.models import Model
from django.test import Client
from django.urls import reverse
from simple_history.models import HistoricalChanges

from interchange.exporter import competition_export
from scoring.models import Game, Round
from scoring.services.checkins import checkin_record
from scoring.services.games import (
    competition_games_rescore,
    game_seats_set,
    game_seats_token,
    game_totals_enter,
    match_totals_enter,
)
from scoring.services.matches import match_forfeit_set
from scoring.services.rounds import round_correct
from scoring.services.schedule import schedule_round_robin_create
from tests.admin_pages import admin_url, posted_back, save_as_shown
from tests.builders import club_competition, finished_game, pairs_game, play
from tests.factories import (
    CompetitionFactory,
    GameFactory,
    MatchdayFactory,
    MatchFactory,
    TeamEntryFactory,
    UserFactory,
)
from tests.interchange.documents import document
from tests.pages import game_url, match_totals_url
from tests.seen import game_token_now, match_token_now, round_seen
from tournaments.models import CheckIn, Competition, Match

pytestmark = pytest.mark.django_db

# No-op writes per door: enough to show that none of them writes (the issue measured 50).
NO_OPS = 3


def history_rows() -> dict[str, int]:
    """How many history rows each history model holds (simple-history's, m2m ones too)."""
    return {
        model.__name__: model._default_manager.count()
        for model in apps.get_models()
        if issubclass(model, HistoricalChanges)
    }


def own_rows(subject: Model) -> int:
    """The history rows of `subject` itself."""
    return int(type(subject).history.filter(id=subject.pk).count())  # type: ignore[attr-defined]


@dataclass(frozen=True)
class Door:
    """A way in: `no_op` writes what is stored already; `change` (None: the door has no
    change of one row, an import replaces the competition) changes `subject` once."""

    subject: Model
    no_op: Callable[[], object]
    change: Callable[[], object] | None


@dataclass(frozen=True)
class Clients:
    director: Client  # league staff, on the directors' pages
    admin: Client  # a superuser, in the admin


def _posted(response: Any) -> None:
    assert response.status_code in (200, 302), response.status_code
    if response.status_code == 200 and response.context and "adminform" in response.context:
        raise AssertionError(response.context["adminform"].form.errors)


# ---------------------------------------------------------------- the doors


def _game_with_rounds() -> tuple[Game, Round]:
    game = GameFactory.create()
    play(game, ("kap", "a"), ("gewone_winst", "b"))
    return game, game.rounds.get(number=2)


def round_correct_service(clients: Clients) -> Door:
    _game, rnd = _game_with_rounds()

    def correct(result: str) -> None:
        round_correct(round_id=rnd.pk, result=result, side="b", seen=round_seen(rnd.pk))

    return Door(rnd, lambda: correct("gewone_winst"), lambda: correct("kap"))


def round_correct_page(clients: Clients) -> Door:
    game, rnd = _game_with_rounds()
    url = game_url("round_edit", game, round_id=rnd.pk)

    def correct(result: str) -> None:
        data = {"result": result, "side": "b", "caller": "", "seen": round_seen(rnd.pk)}
        _posted(clients.director.post(url, data))

    return Door(rnd, lambda: correct("gewone_winst"), lambda: correct("kap"))


def _match_with_totals() -> Match:
    match = MatchFactory.create()
    seen = match_token_now(match_id=match.pk)
    return match_totals_enter(match_id=match.pk, total_home=20, total_away=4, seen=seen)


def match_totals_service(clients: Clients) -> Door:
    match = _match_with_totals()

    def enter(away: int) -> None:
        seen = match_token_now(match_id=match.pk)
        match_totals_enter(match_id=match.pk, total_home=20, total_away=away, seen=seen)

    return Door(match, lambda: enter(4), lambda: enter(6))


def match_totals_page(clients: Clients) -> Door:
    match = _match_with_totals()

    def enter(away: int) -> None:
        data = {"total_home": 20, "total_away": away, "seen": match_token_now(match_id=match.pk)}
        _posted(clients.director.post(match_totals_url(match), data))

    return Door(match, lambda: enter(4), lambda: enter(6))


def _forfeited_club_match() -> Match:
    competition = club_competition()
    schedule_round_robin_create(competition_id=competition.pk)
    match = Match.objects.get(matchday__competition=competition, matchday__number=1)
    seen = match_token_now(match_id=match.pk)
    return match_forfeit_set(match_id=match.pk, side="home", reason="No show", seen=seen)


def forfeit_service(clients: Clients) -> Door:
    match = _forfeited_club_match()

    def forfeit(reason: str) -> None:
        seen = match_token_now(match_id=match.pk)
        match_forfeit_set(match_id=match.pk, side="home", reason=reason, seen=seen)

    return Door(match, lambda: forfeit("No show"), lambda: forfeit("Late"))


def forfeit_page(clients: Clients) -> Door:
    match = _forfeited_club_match()
    slug = match.matchday.competition.slug
    url = reverse("match_manage", kwargs={"slug": slug, "match_id": match.pk})

    def forfeit(reason: str) -> None:
        data = {
            "action": "forfeit",
            "forfeit-side": "home",
            "forfeit-reason": reason,
            "forfeit-seen": match_token_now(match_id=match.pk),
        }
        _posted(clients.director.post(url, data))

    return Door(match, lambda: forfeit("No show"), lambda: forfeit("Late"))


def game_totals_service(clients: Clients) -> Door:
    game = GameFactory.create()

    def enter(b: int) -> None:
        seen = game_token_now(game_id=game.pk)
        game_totals_enter(game_id=game.pk, total_a=20, total_b=b, seen=seen)

    enter(4)
    return Door(game, lambda: enter(4), lambda: enter(6))


def game_seats_service(clients: Clients) -> Door:
    game = GameFactory.create()
    seats = [game.seat_1_id, game.seat_2_id, game.seat_3_id, game.seat_4_id]

    def seat(first_caller: int) -> None:
        seen = game_seats_token(Game.objects.get(pk=game.pk), [])
        game_seats_set(game_id=game.pk, seats=seats, first_caller=first_caller, seen=seen)

    seat(1)
    return Door(game, lambda: seat(1), lambda: seat(2))


def admin_competition_page(clients: Clients) -> Door:
    competition = CompetitionFactory.create()
    competition.directors.add(UserFactory.create(), UserFactory.create())
    TeamEntryFactory.create(competition=competition)  # the entries inline posts back too

    def save(**changes: Any) -> None:
        _posted(save_as_shown(clients.admin, competition, **changes))

    return Door(competition, save, lambda: save(name="Renamed"))


def admin_game_page(clients: Clients) -> Door:
    game = GameFactory.create()

    def save(**changes: Any) -> None:
        _posted(save_as_shown(clients.admin, game, **changes))

    swapped = {"seat_1": game.seat_3_id, "seat_3": game.seat_1_id}
    return Door(game, save, lambda: save(**swapped))


def admin_match_page(clients: Clients) -> Door:
    match = MatchFactory.create()

    def save(**changes: Any) -> None:
        _posted(save_as_shown(clients.admin, match, **changes))

    return Door(match, save, lambda: save(home=match.away_id, away=match.home_id))


def _checked_in() -> CheckIn:
    """An entry marked present on matchday 1's evening (issue 22)."""
    entry = TeamEntryFactory.create()
    return checkin_record(entry_id=entry.pk, number=1, present=True)


def checkin_service(clients: Clients) -> Door:
    checkin = _checked_in()

    def mark(present: bool) -> None:
        checkin_record(entry_id=checkin.entry_id, number=1, present=present)

    return Door(checkin, lambda: mark(True), lambda: mark(False))


def checkin_page(clients: Clients) -> Door:
    checkin = _checked_in()
    slug = checkin.entry.competition.slug
    url = reverse("checkin_manage", kwargs={"slug": slug, "number": 1})

    def mark(present: str) -> None:
        response = clients.director.post(url, {"entry": checkin.entry_id, "present": present})
        assert response.status_code == 302

    return Door(checkin, lambda: mark("1"), lambda: mark("0"))


def _imported(tmp: Path) -> tuple[Competition, Path]:
    path = tmp / "competition.json"
    path.write_text(json.dumps(document()), encoding="utf-8")
    call_command("import_competition", str(path))
    competition = Competition.objects.get(slug=document()["competition"]["slug"])
    return competition, path


def importer_replace_same_file(clients: Clients, tmp: Path) -> Door:
    competition, path = _imported(tmp)
    backups = str(tmp / "backups")

    def again() -> None:
        call_command("import_competition", str(path), "--replace", "--yes", "--backup-dir", backups)

    return Door(competition, again, None)


def importer_replace_own_export(clients: Clients, tmp: Path) -> Door:
    competition, _path = _imported(tmp)
    exported = tmp / "exported.json"
    exported.write_text(json.dumps(competition_export(competition=competition)), encoding="utf-8")
    backups = str(tmp / "backups")

    def again() -> None:
        call_command(
            "import_competition", str(exported), "--replace", "--yes", "--backup-dir", backups
        )

    return Door(competition, again, None)


def importer_skip_existing(clients: Clients, tmp: Path) -> Door:
    competition, path = _imported(tmp)
    return Door(
        competition,
        lambda: call_command("import_competition", str(path), "--skip-existing"),
        None,
    )


DOORS: dict[str, Callable[..., Door]] = {
    "round_correct": round_correct_service,
    "round_edit page": round_correct_page,
    "match_totals_enter": match_totals_service,
    "match_totals page": match_totals_page,
    "match_forfeit_set": forfeit_service,
    "forfeit page": forfeit_page,
    "game_totals_enter": game_totals_service,
    "game_seats_set": game_seats_service,
    "admin competition": admin_competition_page,
    "admin game": admin_game_page,
    "admin match": admin_match_page,
    "checkin_record": checkin_service,
    "check-in page": checkin_page,
    "import --replace, same file": importer_replace_same_file,
    "import --replace, its own export": importer_replace_own_export,
    "import --skip-existing": importer_skip_existing,
}


def door_of(name: str, clients: Clients, tmp: Path) -> Door:
    build = DOORS[name]
    return build(clients, tmp) if name.startswith("import") else build(clients)


@pytest.fixture
def clients(director_client: Client, admin_client: Client) -> Clients:
    return Clients(director=director_client, admin=admin_client)


@pytest.mark.parametrize("name", DOORS)
def test_a_write_that_changes_nothing_writes_nothing(
    name: str, clients: Clients, tmp_path: Path, django_capture_on_commit_callbacks: Any
) -> None:
    door = door_of(name, clients, tmp_path)
    rows, logged = history_rows(), LogEntry.objects.count()
    with django_capture_on_commit_callbacks() as queued:
        for _ in range(NO_OPS):
            door.no_op()
    assert history_rows() == rows
    assert not queued, "a no-op write queued work (a standings or ratings refresh)"
    assert LogEntry.objects.count() == logged


@pytest.mark.parametrize("name", [name for name in DOORS if not name.startswith("import")])
def test_a_write_that_changes_a_row_writes_one_history_row_of_it(
    name: str, clients: Clients, tmp_path: Path
) -> None:
    door = door_of(name, clients, tmp_path)
    assert door.change is not None
    before = own_rows(door.subject)
    door.change()
    assert own_rows(door.subject) == before + 1
    door.change()  # the same change again: stored already
    assert own_rows(door.subject) == before + 1


# ---------------------------------------------------------------- a rule change


def _played_competition(games: int) -> Competition:
    """A pairs competition with `games` games played out (4 kaps each, no redeals)."""
    competition = CompetitionFactory.create()
    matchday = MatchdayFactory.create(competition=competition)
    for table in range(1, games + 1):
        home, away = (TeamEntryFactory.create(competition=competition) for _ in range(2))
        finished_game(pairs_game(matchday, home, away, table=table))
    return competition


def test_a_rule_change_that_rescores_no_game_writes_only_the_competitions_row(
    admin_client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    competition = _played_competition(games=4)
    rows = history_rows()
    page = admin_client.get(admin_url(Competition, "change", competition.pk))
    data = posted_back(page)
    data.pop("redeal_allowed", None)  # unticked: no game has a redeal
    with django_capture_on_commit_callbacks() as queued:
        _posted(admin_client.post(admin_url(Competition, "change", competition.pk), data))
    assert not queued  # the standings can't move: no refresh
    assert not Competition.objects.get(pk=competition.pk).redeal_allowed
    after = history_rows()
    changed = {name: after[name] - rows[name] for name in rows if after[name] != rows[name]}
    assert changed == {"HistoricalCompetition": 1}  # not a row for each game


def test_rescoring_under_the_same_rules_writes_nothing(
    django_capture_on_commit_callbacks: Any,
) -> None:
    competition = _played_competition(games=3)
    rows = history_rows()
    with django_capture_on_commit_callbacks() as queued:
        assert competition_games_rescore(competition_id=competition.pk) == 0
    assert history_rows() == rows
    assert not queued


# ---------------------------------------------------------------- the directors


def directors_of(record: Any) -> set[int]:
    return {row.user_id for row in record.directors.all()}


def test_the_directors_are_kept_only_when_they_change() -> None:
    competition, without = CompetitionFactory.create(), CompetitionFactory.create()
    first, second, third = (UserFactory.create() for _ in range(3))
    competition.directors.add(first, second)
    rows, before = history_rows(), own_rows(competition)
    # Django signals each of these (an add of one there already, a remove of one that
    # isn't, a clear of none), or the save; none changes a set.
    competition.directors.set([first, second])
    competition.directors.set([second, first])
    competition.directors.add(first)
    competition.directors.remove(third)
    competition.save()
    without.directors.clear()
    assert history_rows() == rows

    competition.directors.add(third)
    assert own_rows(competition) == before + 1
    assert directors_of(competition.history.latest()) == {first.pk, second.pk, third.pk}


def test_a_director_swapped_in_the_admin_is_one_history_row(admin_client: Client) -> None:
    competition = CompetitionFactory.create()
    first, second, third = (UserFactory.create() for _ in range(3))
    competition.directors.add(first, second)
    before = own_rows(competition)
    page = admin_client.get(admin_url(Competition, "change", competition.pk))
    data = posted_back(page, directors=[str(first.pk), str(third.pk)])
    _posted(admin_client.post(admin_url(Competition, "change", competition.pk), data))
    assert own_rows(competition) == before + 1
    assert directors_of(competition.history.latest()) == {first.pk, third.pk}


# ---------------------------------------------------------------- the admin's revert


def test_a_version_restored_in_the_admin_is_saved_and_is_one_history_row(
    admin_client: Client,
) -> None:
    """simple-history's revert page posts an old version's form as it shows it: nothing
    changed on the form, but the game changes back, with one history row."""
    game = GameFactory.create(table=1)
    first = game.history.get().history_id
    _posted(save_as_shown(admin_client, game, table=2))
    url = admin_url(Game, "simple_history", game.pk, first)
    page = admin_client.get(url)
    assert page.status_code == 200
    before = own_rows(game)
    shown = SimpleNamespace(
        context={"adminform": page.context["adminform"], "inline_admin_formsets": []}
    )
    _posted(admin_client.post(url, posted_back(shown)))
    game.refresh_from_db()
    assert game.table == 1
    assert own_rows(game) == before + 1
    assert game.history.latest().table == 1


def _said(response: Any) -> list[str]:
    return [str(message) for message in response.context["messages"]]


def test_the_pages_say_nothing_changed_when_nothing_was_written(director_client: Client) -> None:
    """A correction saved as it was, or a forfeit saved again, is not "corrected" or
    "recorded": nothing was written, and the page says so (issue 19's tester)."""
    game, rnd = _game_with_rounds()
    data = {"result": "gewone_winst", "side": "b", "caller": "", "seen": round_seen(rnd.pk)}
    page = director_client.post(
        game_url("round_edit", game, round_id=rnd.pk), data, follow=True, HTTP_ACCEPT_LANGUAGE="nl"
    )
    assert _said(page) == ["Niets gewijzigd: ronde 2 is zoals hij was."]

    match = _forfeited_club_match()
    url = reverse(
        "match_manage", kwargs={"slug": match.matchday.competition.slug, "match_id": match.pk}
    )
    again = {
        "action": "forfeit",
        "forfeit-side": "home",
        "forfeit-reason": "No show",
        "forfeit-seen": match_token_now(match_id=match.pk),
    }
    page = director_client.post(url, again, follow=True, HTTP_ACCEPT_LANGUAGE="nl")
    assert _said(page) == ["Niets gewijzigd: de walk-over is zoals die was."]


def test_an_entry_saved_as_shown_in_the_admin_logs_nothing(admin_client: Client) -> None:
    """The entry's admin saves through services of its own (`save_model`): saved as shown
    it wrote nothing, and now logs nothing either ("No fields changed" was logged)."""
    entry = TeamEntryFactory.create()
    rows, logged = history_rows(), LogEntry.objects.count()
    _posted(save_as_shown(admin_client, entry))
    assert (history_rows(), LogEntry.objects.count()) == (rows, logged)
