"""Benchmark: how long `standings_refresh` takes, and how many queries it makes.

    .venv/bin/python -m benchmarks.standings_refresh [--teams 200] [--matchdays 10] [--repeat 5]

Runs against the configured database (DATABASE_URL; SQLite by default) inside a
transaction that is rolled back at the end, so nothing is left behind. Measures the
imported club-evening sample and a generated pairs competition of N teams × M matchdays,
every match one game played out round by round to 20 through the rules engine.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from pathlib import Path

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "troefclub.settings")
os.environ.setdefault("DEBUG", "true")
django.setup()

from django.db import connection, transaction  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from scoring.models import Game, Round  # noqa: E402
from scoring.rules import GameState, Result, RoundInput, RuleSet, RuleViolation, Side  # noqa: E402
from scoring.services import RoundRecord, game_rounds_load, standings_rebuild  # noqa: E402
from tournaments.models import (  # noqa: E402
    Competition,
    Entry,
    Match,
    Matchday,
    Player,
    Team,
)

ROOT = Path(__file__).resolve().parents[1]
RESULTS = (
    [Result.GEWONE_WINST] * 12
    + [Result.KAP] * 3
    + [Result.KAP_PARTNER, Result.BAUNIE, Result.BAUNIE_MISLUKT, Result.KAP_TE_VROEG, Result.REDEAL]
)


class Rollback(Exception):
    pass


def random_game(rng: random.Random) -> list[RoundRecord]:
    """A random valid game to 20, without callers or tricks."""
    state = GameState(rules=RuleSet())
    records = []
    while not state.finished:
        result, side = rng.choice(RESULTS), rng.choice([Side.A, Side.B])
        try:
            state = state.apply(RoundInput(result=result, side=side)).state
        except RuleViolation:
            continue
        records.append(RoundRecord(result=result.value, side=side.value))
    return records


def generate(teams: int, matchdays: int, seed: int = 7) -> Competition:
    rng = random.Random(seed)
    competition = Competition.objects.create(
        slug=f"bench-{teams}x{matchdays}",
        name="Benchmark",
        tiebreaks=["points", "saldo", "points_for", "head_to_head"],
    )
    players = Player.objects.bulk_create(
        Player(key=f"bench-p{n}", name=f"Player {n}") for n in range(2 * teams)
    )
    team_rows = Team.objects.bulk_create(
        Team(key=f"bench-t{n}", player_1=players[2 * n], player_2=players[2 * n + 1])
        for n in range(teams)
    )
    entries = Entry.objects.bulk_create(Entry(competition=competition, team=t) for t in team_rows)
    for number in range(1, matchdays + 1):
        matchday = Matchday.objects.create(competition=competition, number=number)
        order = entries[:]
        rng.shuffle(order)
        matches = Match.objects.bulk_create(
            Match(matchday=matchday, home=order[i], away=order[i + 1])
            for i in range(0, len(order) - 1, 2)
        )
        games = Game.objects.bulk_create(
            Game(match=m, table=t, team_a=m.home.team, team_b=m.away.team)
            for t, m in enumerate(matches, start=1)
        )
        for game in games:
            game_rounds_load(game_id=game.pk, rounds=random_game(rng))
    return competition


def measure(competition: Competition, repeat: int) -> dict[str, float]:
    seconds = []
    queries = 0
    for _ in range(repeat):
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            standings_rebuild(competition_id=competition.pk)
            seconds.append(time.perf_counter() - started)
        queries = len(captured.captured_queries)
    return {
        "median_s": round(statistics.median(seconds), 4),
        "max_s": round(max(seconds), 4),
        "queries": queries,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, default=200)
    parser.add_argument("--matchdays", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    from tournaments.interchange import competition_import

    report: dict[str, object] = {"database": connection.vendor}
    try:
        with transaction.atomic():
            data = json.loads((ROOT / "data" / "club-evening-sample.json").read_text())
            data["competition"]["slug"] = "bench-sample"
            sample = competition_import(data=data)
            report["sample"] = measure(sample, args.repeat)

            started = time.perf_counter()
            big = generate(args.teams, args.matchdays)
            report["generate_s"] = round(time.perf_counter() - started, 1)
            report["generated"] = {
                "teams": args.teams,
                "matchdays": args.matchdays,
                "games": Game.objects.filter(match__matchday__competition=big).count(),
                "rounds": Round.objects.filter(game__match__matchday__competition=big).count(),
                **measure(big, args.repeat),
            }
            raise Rollback
    except Rollback:
        pass
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
