"""A file that breaks a rule the database's places triggers also hold is refused by the
import's own checks, with the message naming the place, and nothing is saved (issue 20:
the triggers now check a bulk insert's rows once a statement on PostgreSQL; the import
keeps its words and its all-or-nothing). One case a trigger rule:

- an entry plays once a matchday (`entry_twice_on_matchday`): two matches, a match and the
  bye;
- a pairs match has one game (`pairs_match_one_game`) of its own koppels
  (`game_koppels_not_of_match`);
- a koppel plays one game a sitting (`koppel_twice_in_sitting`: club matches,
  tests/interchange/test_import_formats.py);
- an entry of another competition (`entry_other_competition`): a file can only name its own
  entries ("is not in “entries”", tests/interchange/test_import_malformed.py).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.core.management.base import CommandError

from tests.interchange.documents import GAME_PLACE, document, row_counts, run_import

pytestmark = pytest.mark.django_db


def three_koppels() -> dict[str, Any]:
    """document() with a third koppel, west (eva, femke), entered."""
    data = copy.deepcopy(document())
    data["players"] += [
        {"key": "eva", "name": "Eva", "club": "kampoe"},
        {"key": "femke", "name": "Femke", "club": "kampoe"},
    ]
    data["teams"].append({"key": "west", "players": ["eva", "femke"]})
    data["entries"].append("west")
    return data


def west_plays_noord_too() -> dict[str, Any]:
    data = three_koppels()
    data["matchdays"][0]["matches"].append({"home": "west", "away": "noord", "games": []})
    return data


def noord_has_the_bye_too() -> dict[str, Any]:
    data = three_koppels()
    data["matchdays"][0]["byes"] = ["noord"]
    return data


def a_second_game() -> dict[str, Any]:
    data = copy.deepcopy(document())
    games = data["matchdays"][0]["matches"][0]["games"]
    games.append({**games[0], "table": 2})
    return data


def a_koppel_of_another_match() -> dict[str, Any]:
    data = three_koppels()
    data["matchdays"][0]["matches"][0]["games"][0].update(team_b="west", seats=None)
    return data


CASES = [
    ("entry_in_two_matches", west_plays_noord_too(),
     "matchday 1, match west-noord: noord plays twice on this matchday: in match noord – zuid "
     "and in match west – noord. An entry plays at most once a matchday, a bye included."),
    ("entry_in_a_match_and_the_bye", noord_has_the_bye_too(),
     "matchday 1: “noord” has a bye but also plays match noord-zuid on this matchday"),
    ("pairs_match_with_two_games", a_second_game(),
     "matchday 1, match noord-zuid, game table 2: "
     "A match of a pairs competition has one game, not 2."),
    ("game_of_another_koppel", a_koppel_of_another_match(),
     f"{GAME_PLACE}: team_a and team_b must be the match's koppels “noord” and “zuid”"),
]  # fmt: skip


@pytest.mark.parametrize(("data", "message"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_file_breaking_a_places_rule_is_refused_with_its_place(tmp_path, data, message):
    before = row_counts()
    with pytest.raises(CommandError) as refused:
        run_import(tmp_path, data)
    assert message in str(refused.value)
    assert row_counts() == before
