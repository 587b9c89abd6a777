"""The importer's bulk writer (issue 7, `interchange.load`) against the per-game
services it replaces.

The reference is the importer as it was: every result written through the services
(`match_totals_enter`, `game_totals_enter`, `game_rounds_load`, `game_close`,
`game_confirm`, `match_forfeit_set`, `deduction_add`, `deduction_void`). Both import the
same documents; the rows, their audit history and the history pages must be the same, and
so must the error of every bad document.
"""

from __future__ import annotations

import copy
import datetime
import json
from collections.abc import Iterator
from io import StringIO
from typing import Any
from unittest import mock

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from interchange import importer as interchange_importer
from interchange import load as interchange_load
from interchange.errors import InterchangeError, _join, _violation
from interchange.importer import competition_import
from scoring.models import Game, Round
from scoring.rules import RuleViolation
from scoring.selectors.history import HistoryLine, game_history
from scoring.selectors.history_match import match_history
from scoring.services.confirmations import game_confirm
from scoring.services.games import game_close, game_totals_enter, match_totals_enter
from scoring.services.matches import match_forfeit_set
from scoring.services.rounds import RoundRecord, game_rounds_load
from scoring.tokens import game_token, game_token_now, match_token, match_token_now
from tests.interchange.documents import document, row_counts
from tests.paths import DATA
from tournaments.models import Bye, Competition, Deduction, Match
from tournaments.services.deductions import deduction_add, deduction_void
from tournaments.tokens import deductions_token

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------- the services' importer


def services_results_load(
    *, doc: Any, competition: Competition, teams: Any, players: Any, entries: Any, **_: Any
) -> None:
    """The results written one service call at a time, as `competition_import` did before
    issue 7 (the reference the bulk writer must equal)."""
    for matchday in doc.matchdays:
        for match in matchday.matches:
            instance = match.instance
            if match.totals is not None:
                try:
                    match_totals_enter(
                        match_id=instance.pk,
                        total_home=match.totals[0],
                        total_away=match.totals[1],
                        seen=match_token(instance, []),
                    )
                except RuleViolation as exc:
                    raise _violation(match.place, exc) from None
            for game in match.games:
                _services_game(game, instance, teams, players)
            if match.forfeit is not None:
                # A director's forfeit: the services can't set a lineup's (`cause`).
                side, reason, _cause = match.forfeit
                try:
                    match_forfeit_set(
                        match_id=instance.pk,
                        side=side,
                        reason=reason,
                        seen=match_token_now(match_id=instance.pk),
                    )
                except RuleViolation as exc:
                    raise _violation(_join(match.place, "forfeit"), exc) from None
    for deduction in doc.deductions:
        try:
            added = deduction_add(
                competition_id=competition.pk,
                entry_id=entries[deduction.entry].pk,
                points=deduction.points,
                reason=deduction.reason,
                match_id=deduction.match.instance.pk if deduction.match else None,
                seen=deductions_token(competition_id=competition.pk),
            )
            if deduction.voided is not None:
                deduction_void(
                    deduction_id=added.pk, reason=deduction.voided[1], voided_at=deduction.voided[0]
                )
        except RuleViolation as exc:
            raise _violation(deduction.place, exc) from None


def _services_game(game: Any, match: Match, teams: Any, players: Any) -> None:
    seats = [players[key] for key in game.seats] if game.seats else [None] * 4
    instance = Game.objects.create(
        match=match,
        table=game.table,
        sitting=game.sitting,
        team_a=teams[game.team_a],
        team_b=teams[game.team_b],
        a_is_home=game.a_is_home,
        seat_1=seats[0],
        seat_2=seats[1],
        seat_3=seats[2],
        seat_4=seats[3],
    )
    seat_names = {n: f"{p.name} ({p.key})" for n, p in enumerate(seats, start=1) if p is not None}
    try:
        if game.totals is not None:
            game_totals_enter(
                game_id=instance.pk,
                total_a=game.totals[0],
                total_b=game.totals[1],
                seen=game_token(instance, []),
            )
        elif game.rounds:
            game_rounds_load(
                game_id=instance.pk,
                rounds=[
                    RoundRecord(
                        result=rnd.result,
                        side=rnd.side,
                        caller_id=players[rnd.caller].pk if rnd.caller else None,
                        tricks=rnd.tricks,
                    )
                    for rnd in game.rounds
                ],
            )
        if game.closed:
            game_close(game_id=instance.pk, seen=game_token_now(game_id=instance.pk))
        if game.confirmed:
            game_confirm(game_id=instance.pk, user=None, seen=game_token_now(game_id=instance.pk))
    except RuleViolation as exc:
        raise _violation(game.place, exc, seat_names=seat_names) from None


def import_by_services(data: dict[str, Any]) -> Competition:
    with mock.patch.object(interchange_importer, "results_load", services_results_load):
        return competition_import(data=data)


# ---------------------------------------------------------------- documents


def mixed() -> dict[str, Any]:
    """Four koppels, two matchdays: every kind of result a file can hold."""
    data = document(
        rules={"close_by_director_allowed": True},
        game={"closed": True, "confirmed": True},
        rounds=[{"result": "kap", "side": "a"}, {"result": "gewone_winst", "side": "b"}],
    )
    data["players"] += [
        {"key": key, "name": key.capitalize(), "club": "kampoe"}
        for key in ("eva", "frank", "gina", "hans")
    ]
    data["teams"] += [
        {"key": "oost", "players": ["eva", "frank"]},
        {"key": "west", "players": ["gina", "hans"], "name": "De Westen"},
    ]
    data["entries"] += ["oost", "west"]
    first = data["matchdays"][0]
    first["matches"].append(
        {
            "home": "oost",
            "away": "west",
            "table": 2,
            "pairing_reason": {"code": "swiss_pair", "params": {"round": 1}},
            "games": [{"team_a": "west", "team_b": "oost", "totals": [20, 12], "confirmed": True}],
        }
    )
    full = [{"result": "kap", "side": "b"}] * 4
    data["matchdays"].append(
        {
            "number": 2,
            "date": None,
            "matches": [
                {"home": "noord", "away": "oost", "totals": [20, 10]},
                {
                    "home": "zuid",
                    "away": "west",
                    "forfeit": {"side": "away", "reason": "  late  "},
                    "games": [{"team_a": "zuid", "team_b": "west", "rounds": full}],
                },
            ],
        }
    )
    data["matchdays"].append(
        {"number": 3, "matches": [{"home": "west", "away": "noord", "games": []}]}
    )
    data["matchdays"][2]["matches"][0]["forfeit"] = {"side": "both", "reason": "no show"}
    data["matchdays"][2]["byes"] = [{"entry": "zuid", "reason": {"code": "bye_lowest"}}, "oost"]
    data["deductions"] = [
        {"entry": "noord", "points": 1, "reason": " late ", "matchday": 1, "match": "noord-zuid"},
        {
            "entry": "zuid",
            "points": 2,
            "reason": "rude",
            "voided": {"at": "2026-10-03T10:00:00+00:00", "reason": " sorry "},
        },
    ]
    return data


def league(matchdays: int, koppels: int = 20) -> dict[str, Any]:
    """A pairs league: `koppels` koppels, `matchdays` matchdays (circle method), each game
    four kaps of the home koppel."""
    keys = [f"k{n:02}" for n in range(koppels)]
    data = document()
    data["competition"]["slug"] = f"league-{matchdays}"
    data["clubs"] = []
    data["players"] = [{"key": f"{key}-{n}", "name": f"{key} {n}"} for key in keys for n in (1, 2)]
    data["teams"] = [{"key": key, "players": [f"{key}-1", f"{key}-2"]} for key in keys]
    data["entries"] = keys
    data["matchdays"] = []
    order = keys[:]
    for number in range(1, matchdays + 1):
        pairs = [(order[i], order[-1 - i]) for i in range(koppels // 2)]
        data["matchdays"].append(
            {
                "number": number,
                "matches": [
                    {
                        "home": home,
                        "away": away,
                        "games": [
                            {
                                "team_a": home,
                                "team_b": away,
                                "rounds": [{"result": "kap", "side": "a"}] * 4,
                            }
                        ],
                    }
                    for home, away in pairs
                ],
            }
        )
        order = [order[0], order[-1], *order[1:-1]]
    return data


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / name).read_text(encoding="utf-8"))
    return data


# ---------------------------------------------------------------- what was stored

_GAME_SKIP = {"id", "match_id", "confirmed_at"}
_ROUND_SKIP = {"id", "game_id", "recorded_at"}


def _fields(instance: Any, skip: set[str]) -> dict[str, Any]:
    return {
        field.attname: getattr(instance, field.attname)
        for field in type(instance)._meta.concrete_fields
        if field.attname not in skip and not field.attname.startswith("history_")
    }


def _history(records: Any, skip: set[str]) -> list[tuple[Any, ...]]:
    """History records, oldest first, without ids and times (a confirmation's time: set
    or not)."""
    return [
        (
            record.history_type,
            record.history_user_id,
            record.history_change_reason,
            _fields(record, skip),
            getattr(record, "confirmed_at", None) is not None,
        )
        for record in records.order_by("history_date", "history_id")
    ]


def _lines(lines: list[HistoryLine]) -> list[tuple[Any, ...]]:
    return [(line.who, line.what, line.details) for line in lines]


def stored(competition: Competition) -> Iterator[tuple[str, Any]]:
    """Everything an import stored for `competition`, keyed by the document's places
    (matchday number, home-away, sitting, table), ids and times left out; with the
    history records and the history pages of every match and game."""
    matches = Match.objects.filter(matchday__competition=competition).select_related(
        "matchday", "home__team", "away__team", "home__club", "away__club"
    )
    for match in matches.order_by("matchday__number", "pk"):
        where = (match.matchday.number, match.slug)
        yield f"match {where}", _fields(match, {"id", "matchday_id", "home_id", "away_id"})
        yield (
            f"match {where} history",
            _history(
                Match.history.filter(id=match.pk), {"id", "matchday_id", "home_id", "away_id"}
            ),
        )
        yield f"match {where} page", _lines(match_history(match=match))
        for game in Game.objects.filter(match=match).select_related("team_a", "team_b"):
            place = (*where, game.sitting, game.table)
            yield f"game {place}", (_fields(game, _GAME_SKIP), game.confirmed_at is not None)
            yield f"game {place} history", _history(Game.history.filter(id=game.pk), _GAME_SKIP)
            rounds = Round.objects.filter(game=game).order_by("number")
            yield f"game {place} rounds", [_fields(rnd, _ROUND_SKIP) for rnd in rounds]
            yield (
                f"game {place} round history",
                _history(Round.history.filter(game_id=game.pk), _ROUND_SKIP),
            )
            yield f"game {place} page", _lines(game_history(game=game))
    deductions = Deduction.objects.filter(competition=competition).order_by("pk")
    skip = {"id", "competition_id", "entry_id", "match_id", "created_at"}
    for number, deduction in enumerate(deductions, start=1):
        yield (
            f"deduction {number}",
            (
                _fields(deduction, skip),
                deduction.entry.key,
                deduction.match.slug if deduction.match else None,
            ),
        )
        yield (
            f"deduction {number} history",
            _history(Deduction.history.filter(id=deduction.pk), skip),
        )
    byes = Bye.objects.filter(matchday__competition=competition).order_by("pk")
    yield "byes", [(bye.matchday.number, bye.entry.key, bye.reason) for bye in byes]
    yield (
        "standings",
        [
            (row.entry.key, row.rank, row.points, row.points_for, row.points_against)
            for row in competition.standings.select_related("entry__team", "entry__club")
        ],
    )


def imported_both_ways(data: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    bulk = competition_import(data=copy.deepcopy(data))
    reference = copy.deepcopy(data)
    reference["competition"]["slug"] += "-services"
    by_services = import_by_services(reference)
    return dict(stored(bulk)), dict(stored(by_services))


# ---------------------------------------------------------------- tests


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(lambda: load("stcb-2019-08-24.json"), id="stcb"),
        pytest.param(lambda: load("club-evening-sample.json"), id="club-evening"),
        pytest.param(mixed, id="every-kind-of-result"),
    ],
)
def test_the_bulk_import_stores_what_the_services_stored(data):
    bulk, by_services = imported_both_ways(data())

    assert bulk.keys() == by_services.keys()
    for key in bulk:
        assert bulk[key] == by_services[key], key


def test_the_mixed_document_holds_every_kind_of_result():
    """The comparison above covers what it means to (a test of the test)."""
    competition = competition_import(data=mixed())
    games = Game.objects.filter(match__matchday__competition=competition)
    assert {g.status for g in games} == {"closed", "finished"}
    assert games.filter(total_a__isnull=False).count() == 1
    assert games.filter(confirmed_at__isnull=False).count() == 2
    matches = Match.objects.filter(matchday__competition=competition)
    assert matches.filter(total_home=20).count() == 1
    assert set(matches.values_list("forfeit", "forfeit_reason")) >= {
        ("away", "late"),
        ("both", "no show"),
    }
    deductions = Deduction.objects.filter(competition=competition).order_by("pk")
    assert [(d.reason, d.void_reason) for d in deductions] == [("late", ""), ("rude", "sorry")]
    assert deductions[1].voided_at == datetime.datetime(2026, 10, 3, 10, tzinfo=datetime.UTC)
    assert Game.history.filter(id__in=games.values("pk"), history_type="~").count() == 6


# Bad documents: the first problem is named exactly as the services named it.
def _bad_round_last(data: dict[str, Any]) -> None:
    game = data["matchdays"][-1]["matches"][-1]["games"][0]
    game["rounds"].append({"result": "kap", "side": "a"})  # after the end: game_finished


def _caller_without_seats(data: dict[str, Any]) -> None:
    data["matchdays"][-1]["matches"][-1]["games"][0]["rounds"][2]["caller"] = "k00-1"


def _impossible_totals(data: dict[str, Any]) -> None:
    game = data["matchdays"][-1]["matches"][-1]["games"][0]
    del game["rounds"]
    game["totals"] = [20, 3]


def _close_not_allowed(data: dict[str, Any]) -> None:
    data["matchdays"][-1]["matches"][-1]["games"][0]["closed"] = True


def _close_a_finished_game(data: dict[str, Any]) -> None:
    data["competition"]["rules"]["close_by_director_allowed"] = True
    data["matchdays"][-1]["matches"][-1]["games"][0]["closed"] = True


def _confirm_an_open_game(data: dict[str, Any]) -> None:
    game = data["matchdays"][-1]["matches"][-1]["games"][0]
    game["rounds"] = game["rounds"][:2]
    game["confirmed"] = True


def _impossible_match_totals(data: dict[str, Any]) -> None:
    match = data["matchdays"][-1]["matches"][-1]
    del match["games"]
    match["totals"] = [1, 20]


def _forfeit_without_reason(data: dict[str, Any]) -> None:
    data["matchdays"][-1]["matches"][-1]["forfeit"] = {"side": "home", "reason": "  "}


def _forfeit_bad_side(data: dict[str, Any]) -> None:
    data["matchdays"][-1]["matches"][-1]["forfeit"] = {"side": "nobody", "reason": "x"}


def _deduction_too_large(data: dict[str, Any]) -> None:
    data["deductions"] = [
        {"entry": "k01", "points": 1, "reason": "late"},
        {"entry": "k02", "points": 1001, "reason": "late"},
    ]


def _void_without_reason(data: dict[str, Any]) -> None:
    data["deductions"] = [
        {
            "entry": "k01",
            "points": 1,
            "reason": "late",
            "voided": {"at": "2026-10-03T10:00:00+00:00", "reason": " x "},
        },
        {"entry": "k02", "points": 3, "reason": "  "},
    ]


BAD = [
    _bad_round_last,
    _caller_without_seats,
    _impossible_totals,
    _close_not_allowed,
    _close_a_finished_game,
    _confirm_an_open_game,
    _impossible_match_totals,
    _forfeit_without_reason,
    _forfeit_bad_side,
    _deduction_too_large,
    _void_without_reason,
]


@pytest.mark.parametrize("spoil", BAD, ids=[spoil.__name__.strip("_") for spoil in BAD])
def test_a_bad_result_deep_in_the_file_is_named_as_the_services_named_it(spoil):
    data = league(matchdays=3)
    spoil(data)
    before = row_counts()

    with pytest.raises(InterchangeError) as bulk:
        competition_import(data=copy.deepcopy(data))
    assert row_counts() == before  # nothing saved
    with pytest.raises(InterchangeError) as by_services:
        import_by_services(copy.deepcopy(data))

    assert (bulk.value.place, bulk.value.message, bulk.value.code) == (
        by_services.value.place,
        by_services.value.message,
        by_services.value.code,
    )
    assert bulk.value.place.startswith(("matchday 3", "deductions[2]")), bulk.value.place


def test_a_bad_round_in_the_last_game_leaves_nothing_saved():
    data = league(matchdays=4)
    _bad_round_last(data)
    before = row_counts()

    with pytest.raises(InterchangeError) as caught:
        competition_import(data=data)

    last = data["matchdays"][-1]["matches"][-1]
    place = f"matchday 4, match {last['home']}-{last['away']}, game table 1, round 5"
    assert caught.value.place == place
    assert row_counts() == before
    assert not Competition.objects.filter(slug="league-4").exists()


def test_the_queries_do_not_grow_with_the_games():
    warm = league(matchdays=1)  # makes the players and koppels, which the others reuse
    warm["competition"]["slug"] = "warm"
    competition_import(data=warm)
    counts = {}
    for matchdays in (1, 4):  # 10 games, 40 games; the same 20 koppels
        with CaptureQueriesContext(connection) as queries:
            competition_import(data=league(matchdays=matchdays))
        counts[matchdays] = len(queries)

    assert counts[1] == counts[4], counts


def test_a_long_import_says_how_far_it_is(monkeypatch):
    said: list[str] = []
    monkeypatch.setattr(interchange_load, "PROGRESS_EVERY", 0.0)

    competition_import(data=league(matchdays=2), progress=said.append)

    assert "matchday 2/2, 20/20 games checked" in said
    assert said[-2:] == ["writing 20 games", "writing 80 rounds"]


def test_a_short_import_says_nothing():
    said: list[str] = []

    competition_import(data=league(matchdays=2), progress=said.append)

    assert said == []


def test_the_command_says_how_far_it_is_on_standard_error(tmp_path, monkeypatch):
    monkeypatch.setattr(interchange_load, "PROGRESS_EVERY", 0.0)
    path = tmp_path / "league.json"
    path.write_text(json.dumps(league(matchdays=2)), encoding="utf-8")
    out, err = StringIO(), StringIO()

    call_command("import_competition", str(path), stdout=out, stderr=err)

    assert "matchday 2/2, 20/20 games checked" in err.getvalue()
    assert err.getvalue().splitlines()[-1] == "writing 80 rounds"
    assert out.getvalue().startswith("Imported league-2: 2 matchdays, 20 matches, 20 games")
