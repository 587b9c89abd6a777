"""Runs issue 7's measures at each size and makes the table (BENCHMARKS.md).

`bench(...)` needs a ready database (migrated, empty of the benchmark competitions):
`python -m benchmarks` makes a throwaway one, the smoke test uses the test database.
It returns a report (JSON-ready dict); `table_markdown(report)` prints it.
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connection

from benchmarks import api_reads, board_pages, measures, profile_pages, season_clubs
from benchmarks.generate import SEED, Size, document_path
from benchmarks.measures import Runs
from tournaments.models import Competition

MEASURES = ("import", "rebuild", "round", "pages", "api", "seasons", "swiss")
PAGES = ("standings", "matchday", "match", "game")

# Issue 7's targets: (what the table says, the check on a row).
TARGETS: dict[str, tuple[str, Callable[[dict[str, Any]], bool | None]]] = {
    # Issue 20: against a floor without the app's triggers (issue 7 had ≤ 5× a floor with them).
    "import_competition": ("≤ 3× the floor", lambda r: _at_most(r["ratio"], 3)),
    "standings_rebuild": ("≤ 3× the floor", lambda r: _at_most(r["ratio"], 3)),
    "one round → fresh standings": (
        "≤ 50 ms refresh work a round",
        lambda r: _at_most(r["median_s"], 0.050),
    ),
    "standings page": (
        "≤ 150 ms, ≤ 100 KB",
        lambda r: r["median_s"] <= 0.150 and (r["bytes"] or 0) <= 100_000,
    ),
    "matchday page": ("≤ 2× the smallest size", lambda r: _at_most(r["ratio"], 2)),
    "match page": ("≤ 2× the smallest size", lambda r: _at_most(r["ratio"], 2)),
    "game page": ("≤ 30 ms", lambda r: _at_most(r["median_s"], 0.030)),
    # Issue 20: flat as the database grows (the player and koppel play 15 games at every size).
    "player page": ("≤ 2× the smallest size", lambda r: _at_most(r["ratio"], 2)),
    "koppel page": ("≤ 2× the smallest size", lambda r: _at_most(r["ratio"], 2)),
    "club page": (
        "≤ 2× the smallest size, ≤ 100 KB",
        lambda r: _at_most(r["ratio"], 2) and (r["bytes"] or 0) <= 100_000,
    ),
    # Issue 20: the season rankings read stored rows.
    **{
        f"season ranking by {by} page": (
            "≤ 100 ms, ≤ 2× the smallest size",
            lambda r: r["median_s"] <= 0.100 and _at_most(r["ratio"], 2) is not False,
        )
        for by in ("player", "koppel", "club")
    },
    "ratings page": ("≤ 2× the smallest size", lambda r: _at_most(r["ratio"], 2)),
    # Issue 20: the director's board and the hall display, paged, their polls sending only
    # what changed (benchmarks/board_pages.py).
    "board page": (
        "≤ 2× the smallest size, ≤ 100 KB",
        lambda r: _at_most(r["ratio"], 2) is not False and (r["bytes"] or 0) <= 100_000,
    ),
    "board unchanged poll": ("≤ 20 ms", lambda r: _at_most(r["median_s"], 0.020)),
    "board changed poll": (
        "≤ 2× the smallest size, ≤ 20 KB",
        lambda r: _at_most(r["ratio"], 2) is not False and (r["bytes"] or 0) <= 20_000,
    ),
    "hall display": ("≤ 2× the smallest size", lambda r: _at_most(r["ratio"], 2)),
    "hall display poll": (
        "≤ 2× the smallest size, ≤ 20 KB",
        lambda r: _at_most(r["ratio"], 2) is not False and (r["bytes"] or 0) <= 20_000,
    ),
    # Issue 20: every club-filtered choice of a season in one pass, not one pass a club.
    "season rankings refresh, the page's clubs": ("—", lambda r: None),
    # No target of the issue's: the ratio says how it grows. A club's choices read only its
    # own games, and a pairs game counts for up to 4 clubs, so 30 clubs read about 2.5× the
    # rows of 2 (the old refresh read every game once a club).
    f"season rankings refresh, {season_clubs.MANY_CLUBS} clubs": (
        "— (ratio: against the page's clubs)",
        lambda r: None,
    ),
    # Issue 21: the API's reads of the ranked tables, beside their pages at the same size
    # (the floor: the page reads the same stored rows), and the calendar feeds.
    **{
        name: ("≤ 1.5× its page", lambda r: _at_most(r["ratio"], 1.5))
        for name in ("API standings", "API season ranking by player", "API ratings")
    },
    "API standings, next page": ("≤ 2× the smallest size", lambda r: _at_most(r["ratio"], 2)),
    "API standings unchanged (304)": ("≤ 20 ms", lambda r: _at_most(r["median_s"], 0.020)),
    # A competition's feed lists every dated fixture of the last FIXTURES_PAST_DAYS: it grows
    # with the league (the ratio says how much); a koppel's has its 15 at every size.
    "API competition fixtures feed": ("— (ratio: against the smallest size)", lambda r: None),
    "API koppel fixtures feed": ("≤ 2× the smallest size", lambda r: _at_most(r["ratio"], 2)),
    # Issue 21: the entity and game reads. Beside their page where one shows the same
    # (the floor); the rest are a page of at most 50 rows or one thing, so flat.
    **{
        name: ("≤ 1.5× its page", lambda r: _at_most(r["ratio"], 1.5))
        for name in (
            "API fixtures of a matchday",
            "API match",
            "API game",
            "API player's games",
            "API koppel's games",
            "API club's games",
        )
    },
    **{
        name: ("≤ 2× the smallest size", lambda r: _at_most(r["ratio"], 2))
        for name in (
            "API clubs",
            "API players",
            "API koppels",
            "API competitions",
            "API competition",
            "API matchdays",
            "API matchday",
            "API seasons",
        )
    },
    "Swiss pairing, slowest round": ("< 1 s every round", lambda r: r["median_s"] < 1),
}
ROW_NAMES = tuple(TARGETS)


def _at_most(value: float | None, limit: float) -> bool | None:
    return None if value is None else value <= limit


def say(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def machine() -> dict[str, Any]:
    """Where the figures come from: cores, memory, database, versions, commit."""
    memory = None
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            kib = int(meminfo.readline().split()[1])
            memory = f"{kib / 1024 / 1024:.1f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SHOW server_version")
        else:
            cursor.execute("SELECT sqlite_version()")
        version = cursor.fetchone()[0]
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            cwd=settings.BASE_DIR,
            check=False,
        ).stdout.strip()
    except OSError:
        commit = ""
    return {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "cores": os.cpu_count(),
        "memory": memory,
        "database": f"{connection.vendor} {version}",
        "python": platform.python_version(),
        "debug": settings.DEBUG,
        "commit": commit,
    }


def _row(
    name: str,
    koppels: int | None,
    runs: Runs,
    *,
    floor: Runs | None = None,
    ratio: float | None = None,
    note: str = "",
) -> dict[str, Any]:
    row: dict[str, Any] = {
        "measure": name,
        "koppels": koppels,
        "median_s": runs.median,
        "runs": len(runs.seconds),
        "seconds": runs.seconds,
        "floor_s": floor.median if floor else None,
        "floor_runs": len(floor.seconds) if floor else None,
        "ratio": ratio if ratio is not None else (runs.median / floor.median if floor else None),
        "queries": runs.queries,
        "bytes": runs.size_bytes,
        "note": note,
        "extra": {
            **runs.extra,
            **{f"floor_{key}": value for key, value in (floor.extra if floor else {}).items()},
        },
    }
    target, check = TARGETS[name]
    row["target"] = target
    row["met"] = check(row)
    return row


def bench(
    *,
    sizes: Sequence[int],
    matchdays: int = 15,
    repeat: int = 5,
    only: Sequence[str] = MEASURES,
    budget: float = 120.0,
    swiss_entries: int = 1000,
    swiss_rounds: int = 7,
    seed: int = SEED,
    cache: Path | None = None,
) -> dict[str, Any]:
    """Run the measures in `only` at each of `sizes` koppels (× `matchdays`); a measure
    repeats `repeat` times, the import and its floor stop earlier once they spent `budget`
    seconds (the table says how many runs each figure is the median of).

    Celery runs eagerly meanwhile: the refresh work is measured in this process, and
    nothing is sent to a broker."""
    from troefclub.celery import eager_set

    eager = eager_set(always=True, propagates=True)
    try:
        return _bench(
            sizes=sizes,
            matchdays=matchdays,
            repeat=repeat,
            only=only,
            budget=budget,
            swiss_entries=swiss_entries,
            swiss_rounds=swiss_rounds,
            seed=seed,
            cache=cache,
        )
    finally:
        eager_set(always=eager[0], propagates=eager[1])


def _bench(
    *,
    sizes: Sequence[int],
    matchdays: int,
    repeat: int,
    only: Sequence[str],
    budget: float,
    swiss_entries: int,
    swiss_rounds: int,
    seed: int,
    cache: Path | None,
) -> dict[str, Any]:
    rows: list[dict[str, Any]] = []
    smallest_pages: dict[str, float] = {}
    for koppels in sorted(sizes):
        size = Size(koppels, matchdays)
        say(f"{size.label}: the document")
        path = document_path(size, seed=seed, directory=cache)
        document = measures.document_load(path)
        counts = {
            "games": sum(len(m["games"]) for d in document["matchdays"] for m in d["matches"]),
            "rounds": sum(
                len(g["rounds"])
                for d in document["matchdays"]
                for m in d["matches"]
                for g in m["games"]
            ),
        }
        note = f"{counts['games']} games, {counts['rounds']} rounds"
        if "import" in only:
            say(f"{size.label}: the floor (bulk load of the same rows, no app triggers)")
            floor = measures.floor_runs(document, repeat=repeat, budget=budget)
            say(f"{size.label}: import_competition ({note})")
            imported = measures.import_runs(path, repeat=repeat, budget=budget)
            note += f"; floor with the app's triggers {_duration(floor.extra['triggers_s'])}"
            rows.append(_row("import_competition", koppels, imported, floor=floor, note=note))
        elif {"rebuild", "round", "pages", "api", "seasons"} & set(only):
            say(f"{size.label}: import_competition once (not measured)")
            measures.import_runs(path, repeat=1, budget=0)
        competition = Competition.objects.filter(slug=size.slug).first()
        if competition is None:
            continue
        if "rebuild" in only:
            say(f"{size.label}: standings_rebuild and its floor (one aggregate)")
            rebuild = measures.rebuild_runs(competition, repeat=repeat)
            aggregate = measures.aggregate_runs(competition, repeat=repeat)
            agrees = "" if aggregate.extra["agrees"] else "; the aggregate DISAGREES with it!"
            rows.append(
                _row(
                    "standings_rebuild",
                    koppels,
                    rebuild,
                    floor=aggregate,
                    note=f"floor: 1 query{agrees}",
                )
            )
        if "pages" in only:
            say(f"{size.label}: pages")
            urls = {
                **measures.page_urls(competition),
                **profile_pages.profile_urls(competition),
            }
            for page, url in urls.items():
                runs = measures.page_runs(url, repeat=repeat)
                ratio = None
                if page in (
                    "matchday",
                    "match",
                    "player",
                    "koppel",
                    "club",
                    "ratings",
                ) or page.startswith("season ranking"):
                    smallest_pages.setdefault(page, runs.median)
                    ratio = runs.median / smallest_pages[page]
                rows.append(_row(f"{page} page", koppels, runs, ratio=ratio, note=url))
            for name, (url, runs) in board_pages.board_runs(competition, repeat=repeat).items():
                smallest_pages.setdefault(name, runs.median)
                ratio = runs.median / smallest_pages[name]
                rows.append(_row(name, koppels, runs, ratio=ratio, note=url))
        if "api" in only:
            say(f"{size.label}: API reads and calendar feeds")
            for name, row in api_reads.api_runs(competition, repeat=repeat).items():
                ratio = None
                if row["floor"] is None and name != "API standings unchanged (304)":
                    smallest_pages.setdefault(name, row["runs"].median)
                    ratio = row["runs"].median / smallest_pages[name]
                rows.append(
                    _row(
                        name,
                        koppels,
                        row["runs"],
                        floor=row["floor"],
                        ratio=ratio,
                        note=row["note"],
                    )
                )
        if "seasons" in only and competition.season:
            say(f"{size.label}: season rankings refresh, then with {season_clubs.MANY_CLUBS} clubs")
            few, many = season_clubs.season_clubs_runs(competition, repeat=repeat)
            rows.append(
                _row(
                    "season rankings refresh, the page's clubs",
                    koppels,
                    few,
                    note=f"{few.extra['clubs']} clubs in the season",
                )
            )
            rows.append(
                _row(
                    f"season rankings refresh, {season_clubs.MANY_CLUBS} clubs",
                    koppels,
                    many,
                    ratio=many.median / few.median,
                    note=(
                        f"{many.extra['clubs']} clubs in the season; the first refresh wrote "
                        f"{many.extra['first_written']} lines"
                    ),
                )
            )
        if "round" in only:
            say(f"{size.label}: one round → fresh standings")
            runs = measures.round_refresh_runs(competition, repeat=repeat, seed=seed)
            extra = runs.extra
            rows.append(
                _row(
                    "one round → fresh standings",
                    koppels,
                    runs,
                    note=(
                        f"{extra['rounds_that_queued_a_refresh']} of {extra['rounds']} rounds "
                        f"queued a refresh; slowest {extra['max_refresh_s'] * 1000:.0f} ms; "
                        f"apart, in the ratings queue: {extra['ratings_refreshes']} ratings "
                        f"refreshes (median {extra['ratings_refresh_median_s'] * 1000:.0f} ms), "
                        f"{extra['season_rankings_refreshes']} season rankings refreshes "
                        f"(median {extra['season_rankings_refresh_median_s'] * 1000:.0f} ms)"
                    ),
                )
            )
    if "swiss" in only:
        say(f"Swiss pairing, {swiss_entries} entries × {swiss_rounds} rounds")
        runs = measures.swiss_runs(
            swiss_entries, rounds=swiss_rounds, repeat=max(1, min(repeat, 3)), seed=seed
        )
        rows.append(
            _row(
                "Swiss pairing, slowest round",
                None,
                runs,
                note=f"{swiss_entries} entries, {swiss_rounds} rounds, with and without tiebreak",
            )
        )
    return {"machine": machine(), "sizes": list(sizes), "matchdays": matchdays, "rows": rows}


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "—"
    if seconds >= 1:
        return f"{seconds:.2f} s"
    return f"{seconds * 1000:.1f} ms"


def table_markdown(report: dict[str, Any]) -> str:
    """The report as one markdown table, with the machine it ran on."""
    lines = [
        "| measure | koppels | median | runs | floor | ratio | queries | bytes | target | met |"
        " note |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | --- |",
    ]
    order = {name: n for n, name in enumerate(ROW_NAMES)}
    rows = sorted(report["rows"], key=lambda r: (order[r["measure"]], r["koppels"] or 0))
    for row in rows:
        met = {True: "yes", False: "**no**", None: "—"}[row["met"]]
        ratio = "—" if row["ratio"] is None else f"{row['ratio']:.2f}×"
        size = "—" if row["bytes"] is None else f"{row['bytes'] / 1000:.0f} KB"
        koppels = "—" if row["koppels"] is None else f"{row['koppels']:,}"
        queries = "—" if row["queries"] is None else str(row["queries"])
        lines.append(
            f"| {row['measure']} | {koppels} | {_duration(row['median_s'])} | {row['runs']} | "
            f"{_duration(row['floor_s'])} | {ratio} | {queries} | {size} | {row['target']} | "
            f"{met} | {row['note']} |"
        )
    m = report["machine"]
    lines.append("")
    lines.append(
        f"{m['date']} · {m['cores']} cores · {m['memory']} · {m['database']} · "
        f"Python {m['python']} · DEBUG {'on' if m['debug'] else 'off'} · commit {m['commit']}"
    )
    return "\n".join(lines)
