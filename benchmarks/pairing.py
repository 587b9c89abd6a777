"""Benchmark: how long pairing takes (the issue: "how long pairing takes for 100 and 1,000
entries"; issue 7: "Swiss pairing of 1,000 entries < 1 s every round").

    .venv/bin/python -m benchmarks.pairing [--sizes 100 1000] [--rounds 15] [--runs 5]
                                           [--seed 2026] [--json]

Pure Python, no database. For each size, plays a seeded Swiss tournament: every round is
paired by `swiss_pair` from the real history so far (random results: win 2, draw 1, loss
0, the bye worth a win) and timed, once with random saldo as tiebreak and once without
(the harder case for the matching: big score groups ordered by input only). The same
tournament is played `--runs` times (pairing is deterministic, so every run pairs the
same rounds) and each round's figure is the median over the runs, wall clock and CPU
(the machine is shared: CPU time is what the pairing itself costs). Prints a table per
size and tiebreak (round 1, the middle round, the last, the worst and every round), or
with `--json` the same as JSON, plus `round_robin` for 1,000 entries.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from dataclasses import dataclass, field
from typing import cast

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
    """One seeded tournament of `size` entrants over `rounds` rounds: seconds per round."""
    rng = random.Random(seed)
    records = {key: Record() for key in range(size)}
    seconds: list[float] = []
    cpu: list[float] = []
    rematches = 0
    for _ in range(rounds):
        entrants = entrants_of(records, tiebreak=tiebreak)
        started, started_cpu = time.perf_counter(), time.process_time()
        result = swiss_pair(entrants)
        seconds.append(round(time.perf_counter() - started, 3))
        cpu.append(round(time.process_time() - started_cpu, 3))
        rematches += sum(1 for p in result.pairs if p.reason == "rematch_unavoidable")
        play(records, result, rng)
    middle = (rounds + 1) // 2
    return {
        "entrants": size,
        "tiebreak": "saldo" if tiebreak else "none (score groups ordered by input only)",
        "graph": "full" if size <= swiss_module.FULL_GRAPH_MAX else "blocks",
        "round_1": seconds[0],
        f"round_{middle}": seconds[middle - 1],
        f"round_{rounds}": seconds[-1],
        "every_round": seconds,
        "every_round_cpu": cpu,
        "rematches": rematches,
    }


def median_runs(
    size: int, rounds: int, seed: int, runs: int, *, tiebreak: bool
) -> dict[str, object]:
    """`swiss_tournament` `runs` times: each round's median wall and CPU seconds."""
    reports = [swiss_tournament(size, rounds, seed, tiebreak=tiebreak) for _ in range(runs)]

    def medians(key: str) -> list[float]:
        per_run = [cast(list[float], report[key]) for report in reports]
        return [round(statistics.median(column), 3) for column in zip(*per_run, strict=True)]

    wall, cpu = medians("every_round"), medians("every_round_cpu")
    middle = (rounds + 1) // 2
    return {
        "entrants": size,
        "tiebreak": reports[0]["tiebreak"],
        "graph": reports[0]["graph"],
        "runs": runs,
        "round_1": wall[0],
        "middle": {"round": middle, "seconds": wall[middle - 1]},
        "last": {"round": rounds, "seconds": wall[-1]},
        "worst": {"round": wall.index(max(wall)) + 1, "seconds": max(wall)},
        "worst_cpu": max(cpu),
        "every_round": wall,
        "every_round_cpu": cpu,
        "rematches": reports[0]["rematches"],
    }


def table(report: dict[str, object]) -> str:
    middle, last, worst = (
        cast(dict[str, int | float], report[k]) for k in ("middle", "last", "worst")
    )
    every = ", ".join(f"{s:.3f}" for s in cast(list[float], report["every_round"]))
    return (
        f"{report['entrants']} entrants, tiebreak {report['tiebreak']}, {report['graph']} graph, "
        f"median of {report['runs']} runs (s):\n"
        f"  round 1 {report['round_1']:.3f} · round {middle['round']} {middle['seconds']:.3f} · "
        f"round {last['round']} {last['seconds']:.3f} · worst round {worst['round']} "
        f"{worst['seconds']:.3f} (CPU {report['worst_cpu']:.3f}) · "
        f"rematches {report['rematches']}\n"
        f"  every round: {every}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    args = parser.parse_args()

    swiss = [
        median_runs(size, args.rounds, args.seed, args.runs, tiebreak=tiebreak)
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
    settings = {
        "networkx": nx.__version__,
        "full_graph_max": swiss_module.FULL_GRAPH_MAX,
        "block": swiss_module.BLOCK,
        "lookahead": swiss_module.LOOKAHEAD,
    }
    if args.json:
        print(json.dumps({**settings, "swiss_pair": swiss, "round_robin": robin}, indent=2))
        return
    print(" · ".join(f"{key} {value}" for key, value in settings.items()))
    for report in swiss:
        print(table(report))
    print(
        f"round_robin: {robin['entries']} entries, {robin['matchdays']} matchdays, "
        f"{robin['seconds']:.3f} s"
    )


if __name__ == "__main__":
    main()
