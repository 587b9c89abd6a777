"""Helpers for the import/export tests: a minimal valid document and a command runner.

(Named test_import_* so it lives beside the tests that use it; it holds no tests.)
"""

from __future__ import annotations

import copy
import json
from io import StringIO
from pathlib import Path
from typing import Any

from django.apps import apps
from django.core.management import call_command

from tests.paths import DATA

SAMPLE = DATA / "club-evening-sample.json"
STCB = DATA / "stcb-2019-08-24.json"
GAME_PLACE = "matchday 1, match noord-zuid, game table 1"


def load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def document(
    *,
    rules: dict[str, Any] | None = None,
    rounds: list[dict[str, Any]] | None = None,
    game: dict[str, Any] | None = None,
    match: dict[str, Any] | None = None,
    **top: Any,
) -> dict[str, Any]:
    """A minimal valid pairs competition: koppel noord (anna, carla) v zuid (bert, dirk).

    `rules` updates the rule set, `rounds` replaces the one game's rounds, `game` / `match`
    update that game / match (a value None deletes the key), `top` replaces top-level keys.
    """
    doc: dict[str, Any] = {
        "format": "troefclub-competition/1",
        "competition": {
            "slug": "test-evening",
            "name": "Test evening",
            "season": "2026-2027",
            "kind": "pairs",
            "rules": {
                "target_score": 20,
                "fixed_rounds": None,
                "kap_partner_allowed": True,
                "stinkende_bonus": {"kap": 0, "baunie": 0},
                "redeal_allowed": True,
            },
            "standings": {
                "win": 2, "draw": 1, "loss": 0,
                "tiebreaks": ["points", "saldo", "points_for", "head_to_head"],
            },
        },
        "clubs": [{"key": "kampoe", "name": "Kampoe"}],
        "players": [
            {"key": "anna", "name": "Anna", "club": "kampoe"},
            {"key": "bert", "name": "Bert", "club": "kampoe"},
            {"key": "carla", "name": "Carla", "club": "kampoe"},
            {"key": "dirk", "name": "Dirk", "club": "kampoe"},
        ],
        "teams": [
            {"key": "noord", "players": ["anna", "carla"]},
            {"key": "zuid", "players": ["bert", "dirk"]},
        ],
        "entries": ["noord", "zuid"],
        "matchdays": [
            {
                "number": 1,
                "date": "2026-10-02",
                "matches": [
                    {
                        "home": "noord",
                        "away": "zuid",
                        "games": [
                            {
                                "table": 1, "sitting": 1, "team_a": "noord", "team_b": "zuid",
                                "seats": ["anna", "bert", "carla", "dirk"],
                                "rounds": [{"result": "kap", "side": "a"} for _ in range(4)],
                            }
                        ],
                    }
                ],
            }
        ],
    }  # fmt: skip
    doc = copy.deepcopy(doc)
    if rules:
        doc["competition"]["rules"].update(rules)
    the_match = doc["matchdays"][0]["matches"][0]
    the_game = the_match["games"][0]
    if rounds is not None:
        the_game["rounds"] = rounds
    for target, changes in ((the_game, game), (the_match, match)):
        for key, value in (changes or {}).items():
            if value is None:
                target.pop(key, None)
            else:
                target[key] = value
    doc.update(top)
    return doc


def run_import(tmp_path: Path, data: Any, *args: str) -> str:
    """Write `data` as JSON (or as is, when a str) and run import_competition; its stdout."""
    path = tmp_path / "import.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    out = StringIO()
    call_command("import_competition", str(path), *args, stdout=out, stderr=StringIO())
    return out.getvalue()


def run(name: str, *args: str) -> str:
    out = StringIO()
    call_command(name, *args, stdout=out, stderr=StringIO())
    return out.getvalue()


def row_counts() -> dict[str, int]:
    """Rows of every model of our apps (historical records included)."""
    models = [*apps.get_app_config("tournaments").get_models()]
    models += [*apps.get_app_config("scoring").get_models()]
    return {model._meta.label: model._default_manager.count() for model in models}
