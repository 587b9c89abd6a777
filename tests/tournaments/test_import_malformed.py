"""Malformed files: a clear CommandError naming the place, never a traceback, nothing saved."""

from __future__ import annotations

import copy

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.tournaments.test_import_helpers import GAME_PLACE, document, row_counts, run_import

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
    with pytest.raises(CommandError, match=r"not valid JSON at line 3, column 1"):
        run_import(tmp_path, '{\n "format": "troefclub-competition/1",\n}')


def test_missing_file(tmp_path):
    with pytest.raises(CommandError, match="cannot read the file"):
        call_command("import_competition", str(tmp_path / "nope.json"))
