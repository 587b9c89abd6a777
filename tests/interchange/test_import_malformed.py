"""Malformed files: a clear CommandError naming the place, never a traceback, nothing saved."""

from __future__ import annotations

import copy
import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from scoring.models import Round
from scoring.services.rounds import MAX_ROUNDS_PER_GAME
from tests.interchange.documents import GAME_PLACE, document, row_counts, run_import
from tournaments.models import Competition

pytestmark = pytest.mark.django_db


def without_format():
    data = document()
    del data["format"]
    return data


def changed(path: tuple, value, *, delete: bool = False):
    """document() with the value at `path` (keys and list indexes) replaced or deleted."""
    data = copy.deepcopy(document())
    target = data
    for step in path[:-1]:
        target = target[step]
    if delete:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


def with_eva(data):
    """`data` with one more koppel, oost (eva and bert), that is no entry."""
    data["players"].append({"key": "eva", "name": "Eva", "club": "kampoe"})
    data["teams"].append({"key": "oost", "players": ["eva", "bert"]})
    return data


GAME = ("matchdays", 0, "matches", 0, "games", 0)

CASES = [
    ("not_an_object", [1, 2], "document: the file must hold one JSON object, not a list"),
    ("format_missing", without_format(), "document: “format” is missing"),
    ("format_wrong", changed(("format",), "troefclub/2"), "format: “troefclub/2” is not a format"),
    ("competition_missing", changed(("competition",), None, delete=True),
     "document: “competition” is missing"),
    ("slug_missing", changed(("competition", "slug"), None, delete=True),
     "competition: “slug” is missing"),
    ("slug_not_a_slug", changed(("competition", "slug"), "club evening"),
     "competition: “slug” must be letters, digits"),
    ("kind_unknown", changed(("competition", "kind"), "teams"),
     "competition: “kind” must be “pairs” or “clubs”, not “teams”"),
    ("target_as_text", changed(("competition", "rules", "target_score"), "20"),
     "competition, rules: “target_score” must be a whole number or null, not text"),
    ("bool_as_text", changed(("competition", "rules", "redeal_allowed"), "yes"),
     "competition, rules: “redeal_allowed” must be true or false, not text"),
    ("points_unordered", changed(("competition", "standings", "draw"), 3),
     "competition, standings: a win must give at least a draw"),
    ("clubs_not_a_list", changed(("clubs",), {"kampoe": "Kampoe"}),
     "document: “clubs” must be a list, not an object"),
    ("club_name_missing", changed(("clubs", 0), {"key": "kampoe"}),
     "clubs[1]: “name” is missing"),
    ("player_twice", changed(("players", 1, "key"), "anna"),
     "players[anna]: player key “anna” appears twice"),
    ("player_club_unknown", changed(("players", 0, "club"), "toppers"),
     "players[anna]: club “toppers” is not in “clubs”"),
    ("team_of_three", changed(("teams", 0, "players"), ["anna", "carla", "bert"]),
     "teams[noord]: “players” must be a list of two player keys"),
    ("team_player_unknown", changed(("teams", 0, "players"), ["anna", "zoe"]),
     "teams[noord]: player “zoe” is not in “players”"),
    ("entry_unknown", changed(("entries",), ["noord", "west"]),
     "entries: “west” is not in “teams”"),
    ("entry_twice", changed(("entries",), ["noord", "zuid", "noord"]),
     "entries: “noord” is entered twice"),
    ("matchday_number_text", changed(("matchdays", 0, "number"), "1"),
     "matchdays[1]: “number” must be a whole number, not text"),
    ("matchday_twice", changed(("matchdays",), [document()["matchdays"][0]] * 2),
     "matchday 1 appears twice"),
    ("date_bad", changed(("matchdays", 0, "date"), "2-10-2026"),
     "matchday 1: “date” must be a date like 2026-10-02"),
    ("match_entry_unknown", changed(("matchdays", 0, "matches", 0, "away"), "west"),
     "matchday 1, match noord-west: away “west” is not in “entries”"),
    ("game_team_not_in_match", changed((*GAME, "team_b"), "noord"),
     f"{GAME_PLACE}: a koppel cannot play against itself"),
    ("seats_player_unknown", changed((*GAME, "seats"), ["anna", "bert", "carla", "zoe"]),
     f"{GAME_PLACE}: player “zoe” in “seats” is not in “players”"),
    ("seats_wrong_team", changed((*GAME, "seats"), ["anna", "bert", "dirk", "carla"]),
     f"{GAME_PLACE}: seats 1 and 3 must be team_a's players"),
    ("seats_outsider_for_team_b",
     with_eva(changed((*GAME, "seats"), ["anna", "eva", "carla", "dirk"])),
     f"{GAME_PLACE}: seats 1 and 3 must be team_a's players and seats 2 and 4 team_b's; "
     "team_b “zuid” is bert & dirk"),
    ("seat_player_twice", changed((*GAME, "seats"), ["anna", "bert", "anna", "dirk"]),
     f"{GAME_PLACE}: anna has two seats (1 and 3)"),
    ("koppel_of_another_match", with_eva(changed((*GAME, "team_b"), "oost")),
     f"{GAME_PLACE}: team_a and team_b must be the match's koppels “noord” and “zuid”"),
    ("rounds_not_a_list", changed((*GAME, "rounds"), "kap kap kap kap"),
     f"{GAME_PLACE}: “rounds” must be a list, not text"),
    ("result_unknown", changed((*GAME, "rounds", 2, "result"), "troef"),
     f"{GAME_PLACE}, round 3: “troef” is not a round result; use one of gewone_winst"),
    ("side_unknown", changed((*GAME, "rounds", 0, "side"), "home"),
     f"{GAME_PLACE}, round 1: “side” must be “a” or “b”, not “home”"),
    ("result_missing", changed((*GAME, "rounds", 0), {"side": "a"}),
     f"{GAME_PLACE}, round 1: “result” is missing"),
    ("tricks_one_number", changed((*GAME, "rounds", 0, "tricks"), [7]),
     f"{GAME_PLACE}, round 1: “tricks” must be a list of two whole numbers"),
    ("caller_unknown", changed((*GAME, "rounds", 0, "caller"), "zoe"),
     f"{GAME_PLACE}, round 1: caller “zoe” is not in “players”"),
    ("unknown_round_field", changed((*GAME, "rounds", 0, "points"), 5),
     f"{GAME_PLACE}, round 1: unknown field “points”"),
    ("rounds_and_totals", changed((*GAME, "totals"), [20, 0]),
     f"{GAME_PLACE}: a game gives either “rounds” or “totals”, not both"),
    ("totals_text", changed(("matchdays", 0, "matches", 0), {
        "home": "noord", "away": "zuid", "totals": "81-74"}),
     "matchday 1, match noord-zuid: “totals” must be a list of two whole numbers"),
]  # fmt: skip


@pytest.mark.parametrize(("data", "message"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_malformed_file_gives_a_clear_error(tmp_path, data, message):
    before = row_counts()

    with pytest.raises(CommandError) as info:
        run_import(tmp_path, data)

    assert message in str(info.value)
    assert "Nothing was imported." in str(info.value)
    assert row_counts() == before


def test_invalid_json_names_line_and_column(tmp_path):
    with pytest.raises(CommandError, match=r"line 3, column 1: not valid JSON"):
        run_import(tmp_path, '{\n "format": "troefclub-competition/1",\n}')


# Hostile input: what the database can't store or a JSON reader may read differently. The
# place is the JSON path (positions from 1) when the value is the problem.
MATCH = ("matchdays", 0, "matches", 0)
HOSTILE = [
    ("name_with_nul", changed(("players", 2, "name"), "Ca\x00rla"),
     "players[3].name: the text holds the control character U+0000"),
    ("name_with_lone_surrogate", changed(("players", 2, "name"), "Carla \ud800"),
     "players[3].name: the text holds a lone surrogate (U+D800), which is not Unicode"),
    ("name_with_terminal_escape", changed(("clubs", 0, "name"), "\x1b[2JKampoe"),
     "clubs[1].name: the text holds the control character U+001B"),
    ("name_with_line_break", changed(("players", 2, "name"), "Carla\nBert"),
     "players[carla]: “name”: the text holds the control character U+000A"),
    ("reason_with_tab_is_one_line",
     changed((*MATCH, "forfeit"), {"side": "home", "reason": "a\tb"}),
     "match noord-zuid, forfeit: “reason”: the text holds the control character U+0009"),
    ("name_blank", changed(("players", 2, "name"), "  "),
     "players[carla]: “name” may not be empty"),
    ("competition_name_empty", changed(("competition", "name"), ""),
     "competition: “name” may not be empty"),
    ("stored_object_key_with_nul", changed((*MATCH, "pairing_reason"), {"code\x00": "x"}),
     "matchdays[1].matches[1].pairing_reason: the key “code\\u0000”: the text holds the control"),
    ("stored_object_with_nan", changed((*MATCH, "pairing_reason"), {"score": float("nan")}),
     "matchdays[1].matches[1].pairing_reason.score: NaN is not a number JSON allows"),
    ("stored_object_with_infinity", changed((*MATCH, "pairing_reason"), {"score": float("inf")}),
     "pairing_reason.score: Infinity is not a number JSON allows"),
    ("stored_object_with_huge_number", changed((*MATCH, "pairing_reason"), {"score": 10**40}),
     "pairing_reason.score: the number 1000000000000000000000000000000000000… is out of range"),
    ("table_beyond_small_integer", changed((*GAME, "table"), 70000),
     "“table” is too large (70000; at most 32767)"),
    ("totals_beyond_any_integer", changed(MATCH, {"home": "noord", "away": "zuid",
                                                  "totals": [10**30, 0]}),
     "matchdays[1].matches[1].totals[1]: the number 1000000000000000000000000000000 is out of"),
    ("totals_beyond_integer", changed(MATCH, {"home": "noord", "away": "zuid",
                                              "totals": [2**31, 0]}),
     "match noord-zuid: “totals” holds a number that is too large (2147483648)"),
    ("matchday_number_beyond_bigint", changed(("matchdays", 0, "number"), 2**70),
     "matchdays[1]: “number” is too large (1180591620717411303424; at most 32767)"),
    ("tricks_huge", changed((*GAME, "rounds", 0, "tricks"), [10**29, 0]),
     "round 1: “tricks” holds a number that is too large"),
    ("deduction_points_huge", {**document(), "deductions": [
        {"entry": "noord", "points": 2**40, "reason": "late"}]},
     "deductions[1]: “points” is too large (1099511627776; at most 2147483647)"),
    ("key_starting_with_dash", changed(("clubs", 0, "key"), "-kampoe"),
     "clubs[1]: “key”: A key may not start with “-”"),
    ("slug_starting_with_dash", changed(("competition", "slug"), "-evening"),
     "competition: “slug”: A key may not start with “-”"),
    ("list_for_an_object", changed(("competition",), ["test-evening"]),
     "competition: must be an object, not a list"),
    ("object_for_a_list", changed(("matchdays",), {"1": {"number": 1}}),
     "document: “matchdays” must be a list, not an object"),
    ("list_for_a_round", changed((*GAME, "rounds"), [["kap", "a"]]),
     "round 1: must be an object, not a list"),
    ("text_for_a_number", changed((*GAME, "table"), "1"),
     "“table” must be a whole number, not text"),
    ("true_for_a_number", changed((*GAME, "sitting"), True),
     "“sitting” must be a whole number, not true/false"),
    ("number_for_a_name", changed(("players", 0, "name"), 7),
     "players[anna]: “name” must be text, not a whole number"),
    ("null_for_a_key", changed(("players", 0, "key"), None),
     "players[1]: “key” must be text, not null"),
    ("decimal_for_a_total", changed(MATCH, {"home": "noord", "away": "zuid", "totals": [20.0, 0]}),
     "“totals” must be a list of two whole numbers, not [20.0, 0]"),
]  # fmt: skip


@pytest.mark.parametrize(("data", "message"), [c[1:] for c in HOSTILE], ids=[c[0] for c in HOSTILE])
def test_hostile_value_is_refused_with_its_place(tmp_path, data, message):
    before = row_counts()

    with pytest.raises(CommandError) as info:
        run_import(tmp_path, data)

    assert message in str(info.value)
    assert "Nothing was imported." in str(info.value)
    assert row_counts() == before


def _text(**replace: str) -> str:
    """document() as JSON text with each `"old": new` fragment replaced (raw JSON text)."""
    text = json.dumps(document(), indent=1)
    for old, new in replace.items():
        assert old in text, old
        text = text.replace(old, new, 1)
    return text


DEEP = 100_000
RAW = [
    ("nested_beyond_python", '{"format": ' + "[" * DEEP + "]" * DEEP + "}",
     "line 1, column 43: nested deeper than 32 levels"),
    ("nested_beyond_the_limit", '{"format": ' + "[" * 40 + "]" * 40 + "}",
     "format[1][1][1][1][1][1][1][1][1][1][…: nested deeper than 32 levels"),
    ("top_key_twice", '{"format": "troefclub-competition/1", "format": "troefclub/2"}',
     "document: the key “format” appears twice in this object"),
    ("key_twice_deep_down", _text(**{'"name": "Bert"': '"name": "Bert", "name": "Bart"'}),
     "players[2]: the key “name” appears twice in this object"),
    ("number_of_5000_digits", _text(**{'"table": 1': '"table": ' + "9" * 5000}),
     "matchdays[1].matches[1].games[1].table: the number 999999999999999999999999999999999"),
    ("nan", _text(**{'"table": 1': '"table": NaN'}),
     "matchdays[1].matches[1].games[1].table: NaN is not a number JSON allows"),
    ("minus_infinity", _text(**{'"table": 1': '"table": -Infinity'}),
     "games[1].table: -Infinity is not a number JSON allows"),
    ("decimal_beyond_float", _text(**{'"table": 1': '"table": 1e999'}),
     "games[1].table: the number 1e999 is out of range"),
    ("lone_surrogate_escape", _text(**{'"Bert"': '"\\ud800"'}),
     "players[2].name: the text holds a lone surrogate (U+D800), which is not Unicode"),
    ("nul_escape", _text(**{'"Bert"': '"B\\u0000"'}),
     "players[2].name: the text holds the control character U+0000"),
    ("empty_file", "", "line 1, column 1: not valid JSON: Expecting value"),
    ("truncated", _text()[:200], "not valid JSON"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "message"), [c[1:] for c in RAW], ids=[c[0] for c in RAW])
def test_hostile_file_is_refused_with_its_place(tmp_path, text, message):
    before = row_counts()

    with pytest.raises(CommandError) as info:
        run_import(tmp_path, text)

    assert message in str(info.value)
    assert "Nothing was imported." in str(info.value)
    assert row_counts() == before


def test_bytes_that_are_not_utf8_name_line_and_column(tmp_path):
    path = tmp_path / "latin1.json"
    path.write_bytes('{\n "format": "Caf\u00e9"}'.encode("latin-1"))
    before = row_counts()

    with pytest.raises(CommandError) as info:
        call_command("import_competition", str(path))

    assert "line 2, column 16: the file is not UTF-8 text (byte 0xe9)" in str(info.value)
    assert row_counts() == before


def test_a_byte_order_mark_is_allowed(tmp_path):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(document()).encode())

    call_command("import_competition", str(path), stdout=StringIO())

    competition = Competition.objects.get(slug="test-evening")
    assert competition.name == "Test evening"
    entries = competition.entries.order_by("team__key").values_list("team__key", flat=True)
    assert list(entries) == ["noord", "zuid"]


def test_missing_file(tmp_path):
    with pytest.raises(CommandError, match="cannot read the file"):
        call_command("import_competition", str(tmp_path / "nope.json"))


def test_a_game_of_more_rounds_than_a_game_can_hold_is_refused_before_its_rounds_are_read(
    tmp_path,
):
    # The tester's file: one game of 100,000 redeals (a 61 MB public page once imported).
    # The last round is malformed too: the bound is checked before any round is read.
    rounds = [{"result": "redeal", "side": "a"}] * 100_000 + [{"points": 5}]
    before = row_counts()

    with pytest.raises(CommandError) as info:
        run_import(tmp_path, changed((*GAME, "rounds"), rounds))

    message = str(info.value)
    assert f"{GAME_PLACE}: A game holds at most {MAX_ROUNDS_PER_GAME} rounds" in message
    assert "100001" in message
    assert "Nothing was imported." in message
    assert row_counts() == before


def test_a_game_of_as_many_rounds_as_a_game_can_hold_is_imported(tmp_path):
    rounds = [{"result": "redeal", "side": "a"}] * MAX_ROUNDS_PER_GAME

    run_import(tmp_path, changed((*GAME, "rounds"), rounds))

    assert Round.objects.count() == MAX_ROUNDS_PER_GAME
