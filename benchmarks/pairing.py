"""Benchmark: how long pairing takes (the issue: "how long pairing takes for 100 and 1,000
entries").

    .venv/bin/python -m benchmarks.pairing [--sizes 100 1000] [--rounds 7] [--seed 2026]

Pure Python, no database. For each size, plays a seeded Swiss tournament: every round is
paired by `swiss_pair` from the real history so far (random results: win 2, draw 1, loss
0, the bye worth a win) and timed, once with random saldo as tiebreak and once without
(the harder case for the matching: big score groups ordered by input only). Prints JSON:
seconds for round 1 (everybody 0 points), the middle round, the last and every round, plus
`round_robin` for 1,000 entries.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from dataclasses import dataclass, field

import networkx as nx  # type: ignore[import-untyped]

from tournaments.schedules import SwissEntrant, SwissRound, round_robin, swiss_pair
from tournaments.schedules import swiss as swiss_module


@dataclass
class Record:
    points: int = 0
    saldo: int = 0
    opponents: list[int] = field(default_factory=list)
    byes: int = 0
    home_games: int = 0


def entrants_of(records: dict[int, Record], *, tiebreak: bool) -> list[SwissEntrant[int]]:
    return [
        SwissEntrant(
            id=key,
            points=r.points,
            tiebreak=r.saldo if tiebreak else 0,
            opponents=tuple(r.opponents),
            byes=r.byes,
            home_games=r.home_games,
        )
        for key, r in records.items()
    ]


def play(records: dict[int, Record], result: SwissRound[int], rng: random.Random) -> None:
    for pairing in result.pairs:
        home, away = records[pairing.home], records[pairing.away]
        home.opponents.append(pairing.away)
        away.opponents.append(pairing.home)
        home.home_games += 1
        outcome = rng.choice((0, 1, 2))
        home.points += outcome
        away.points += 2 - outcome
        saldo = rng.randint(-40, 40)
        home.saldo += saldo
        away.saldo -= saldo
    if result.bye is not None:
        records[result.bye].byes += 1
        records[result.bye].points += 2


def swiss_tournament(size: int, rounds: int, seed: int, *, tiebreak: bool) -> dict[str, object]:
    rng = random.Random(seed)
    records = {key: Record() for key in range(size)}
    seconds: list[float] = []
    rematches = 0
    for _ in range(rounds):
        entrants = entrants_of(records, tiebreak=tiebreak)
        started = time.perf_counter()
        result = swiss_pair(entrants)
        seconds.append(round(time.perf_counter() - started, 3))
        rematches += sum(1 for p in result.pairs if p.reason == "rematch_unavoidable")
        play(records, result, rng)
    middle = (rounds + 1) // 2
    return {
        "entrants": size,
        "tiebreak": "saldo" if tiebreak else "none (score groups ordered by input only)",
        "graph": "full" if size <= swiss_module.FULL_GRAPH_MAX else "restricted",
        "round_1": seconds[0],
        f"round_{middle}": seconds[middle - 1],
        f"round_{rounds}": seconds[-1],
        "every_round": seconds,
        "rematches": rematches,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    swiss = [
        swiss_tournament(size, args.rounds, args.seed, tiebreak=tiebreak)
        for size in args.sizes
        for tiebreak in (True, False)
    ]
    started = time.perf_counter()
    days = round_robin(list(range(1000)))
    robin = {
        "entries": 1000,
        "matchdays": len(days),
        "seconds": round(time.perf_counter() - started, 3),
    }
    print(
        json.dumps(
            {
                "networkx": nx.__version__,
                "full_graph_max": swiss_module.FULL_GRAPH_MAX,
                "neighbours": swiss_module.NEIGHBOURS,
                "swiss_pair": swiss,
                "round_robin": robin,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
