"""The benchmark competitions: N koppels × M matchdays, written as interchange documents.

A pairs competition (docs/interchange.md); every matchday pairs the koppels at random
(seeded), every match is one game, played out round by round to 20 through the rules
engine. With the default seed, 1,000 koppels × 15 matchdays hold 7,500 games and about
98,000 rounds: the size of the competition of issue 7's table (97,568 rounds).

Documents are cached in the temp directory by size and seed (`document_path`), so a rerun
reads the file instead of playing 100,000 rounds again. Standard library and the rules
engine only: no database.
"""

from __future__ import annotations

import json
import os
import random
import tempfile
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from scoring.rules import GameState, Result, RoundInput, RuleSet, RuleViolation, Side

# Bump when the generated document changes shape, so stale cached files are not reused.
VERSION = 1
SEED = 7
MATCHDAYS = 15
FIRST_DATE = date(2026, 9, 4)

# What a club evening looks like: mostly ordinary wins, some kaps, a rare baunie; the
# redeals bring a game to about 13 rounds, as in the competition of issue 7's table.
RESULTS = (
    [Result.GEWONE_WINST] * 16
    + [Result.KAP] * 2
    + [Result.KAP_PARTNER, Result.BAUNIE, Result.BAUNIE_MISLUKT, Result.KAP_TE_VROEG]
    + [Result.REDEAL] * 3
)


@dataclass(frozen=True, slots=True)
class Size:
    """One benchmark competition: `koppels` entries, `matchdays` matchdays."""

    koppels: int
    matchdays: int = MATCHDAYS

    @property
    def slug(self) -> str:
        return f"bench-{self.koppels}x{self.matchdays}"

    @property
    def label(self) -> str:
        return f"{self.koppels} × {self.matchdays}"


def random_game(rng: random.Random, rules: RuleSet | None = None) -> list[dict[str, str]]:
    """A random valid game played to its end: the rounds as documents give them."""
    state = GameState(rules=rules or RuleSet())
    rounds: list[dict[str, str]] = []
    while not state.finished:
        result, side = rng.choice(RESULTS), rng.choice([Side.A, Side.B])
        try:
            state = state.apply(RoundInput(result=result, side=side)).state
        except RuleViolation:
            continue
        rounds.append({"result": result.value, "side": side.value})
    return rounds


def document_build(size: Size, *, seed: int = SEED) -> dict[str, Any]:
    """The interchange document of `size` (deterministic for a seed)."""
    rng = random.Random(seed)
    prefix = f"b{size.koppels}"
    players = [
        {"key": f"{prefix}-p{n}", "name": f"Player {n} of {size.koppels}"}
        for n in range(2 * size.koppels)
    ]
    teams = [
        {"key": f"{prefix}-t{n}", "players": [players[2 * n]["key"], players[2 * n + 1]["key"]]}
        for n in range(size.koppels)
    ]
    entries = [team["key"] for team in teams]
    matchdays = []
    for number in range(1, size.matchdays + 1):
        order = entries[:]
        rng.shuffle(order)
        matches = []
        for table, i in enumerate(range(0, len(order) - 1, 2), start=1):
            home, away = order[i], order[i + 1]
            game = {"table": table, "team_a": home, "team_b": away, "rounds": random_game(rng)}
            matches.append({"home": home, "away": away, "games": [game]})
        day = FIRST_DATE + timedelta(weeks=number - 1)
        matchdays.append({"number": number, "date": day.isoformat(), "matches": matches})
    return {
        "format": "troefclub-competition/1",
        "competition": {
            "slug": size.slug,
            "name": f"Benchmark {size.koppels} koppels",
            "season": "2026-2027",
            "kind": "pairs",
            "standings": {
                "win": 2,
                "draw": 1,
                "loss": 0,
                "tiebreaks": ["points", "saldo", "points_for", "head_to_head"],
            },
        },
        "clubs": [],
        "players": players,
        "teams": teams,
        "entries": entries,
        "matchdays": matchdays,
    }


def cache_dir() -> Path:
    """Where generated documents are kept between runs ($TROEF_BENCH_CACHE or the temp dir)."""
    configured = os.environ.get("TROEF_BENCH_CACHE")
    return Path(configured) if configured else Path(tempfile.gettempdir()) / "troefclub-bench"


def document_path(size: Size, *, seed: int = SEED, directory: Path | None = None) -> Path:
    """The file holding `size`'s document, generated and written first when missing."""
    directory = directory or cache_dir()
    path = directory / f"{size.slug}-seed{seed}-v{VERSION}.json"
    if path.exists():
        return path
    directory.mkdir(parents=True, exist_ok=True)
    text = json.dumps(document_build(size, seed=seed), separators=(",", ":"))
    partial = path.with_suffix(f".{os.getpid()}.tmp")
    partial.write_text(text, encoding="utf-8")
    partial.replace(path)  # whole or absent: a run cut short leaves no half file behind
    return path


def document_counts(document: dict[str, Any]) -> dict[str, int]:
    """Players, teams, matchdays, matches, games and rounds of a generated document."""
    matches = [m for day in document["matchdays"] for m in day["matches"]]
    games = [g for m in matches for g in m["games"]]
    return {
        "players": len(document["players"]),
        "teams": len(document["teams"]),
        "matchdays": len(document["matchdays"]),
        "matches": len(matches),
        "games": len(games),
        "rounds": sum(len(g["rounds"]) for g in games),
    }
