"""The measures of issue 7's table and their floors, each a list of timed runs.

Every function here takes a database that is ready (migrated, Django set up) and leaves
what it measured behind only where the next measure needs it: the floor's rows and all but
the last import are rolled back; the last import stays, the measures after it read it.

Times are `time.perf_counter` seconds; query counts come from `QueryCounter` (one count per
statement Django sends; a COPY sent through psycopg directly is not counted).
"""

from __future__ import annotations

import io
import json
import random
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.core.management import call_command
from django.db import connection, models, transaction
from django.test import Client
from django.urls import reverse

from benchmarks.generate import Size, random_game
from scoring.models import Game, Round, Standing
from scoring.rules import Result, RoundInput, RuleSet, Side, replay
from tournaments.models import Competition, Entry, Match, Matchday, Player, Team


class Rollback(Exception):
    """Raised to leave a `transaction.atomic` block with its work undone."""


@dataclass
class Runs:
    """The timed runs of one measure: seconds per run, plus what every run saw."""

    seconds: list[float] = field(default_factory=list)
    queries: int | None = None
    size_bytes: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)


class QueryCounter:
    """Counts the statements Django executes (`connection.execute_wrapper`): cheaper than
    CaptureQueriesContext, which keeps every statement's text and slows a 100,000-query
    import."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(
        self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any
    ) -> Any:
        self.count += 1
        return execute(sql, params, many, context)


@contextmanager
def counting() -> Iterator[QueryCounter]:
    counter = QueryCounter()
    with connection.execute_wrapper(counter):
        yield counter


def repeat_runs(run: Callable[[], float], *, repeat: int, budget: float) -> list[float]:
    """Call `run` (it returns its seconds) up to `repeat` times; stop early, after one run
    at least, once the runs took more than `budget` seconds together."""
    seconds: list[float] = []
    while True:
        seconds.append(run())
        if len(seconds) >= repeat or sum(seconds) > budget:
            return seconds


# ---------------------------------------------------------------- the import and its floor


def _column_rows(
    model: type[models.Model], objects: Sequence[models.Model]
) -> tuple[list[str], list[tuple[Any, ...]]]:
    """The columns of `model` and the values `objects` would be saved with, as Django
    prepares them (defaults, auto_now_add, JSON): the rows a bulk load sends."""
    fields = list(model._meta.concrete_fields)
    rows = [
        tuple(f.get_db_prep_save(f.pre_save(obj, add=True), connection) for f in fields)
        for obj in objects
    ]
    return [f.column for f in fields], rows


def _next_ids(*tables: type[models.Model]) -> dict[type[models.Model], int]:
    with connection.cursor() as cursor:
        found = {}
        for model in tables:
            table = connection.ops.quote_name(model._meta.db_table)
            cursor.execute(f"SELECT COALESCE(MAX(id), 0) + 1 FROM {table}")
            found[model] = int(cursor.fetchone()[0])
    return found


@dataclass
class FloorRows:
    """The rows of one document, table by table in the order they load, with explicit ids
    (above every id in the database) and keys prefixed `floor-` so they clash with nothing
    an import wrote."""

    tables: list[tuple[type[models.Model], list[str], list[tuple[Any, ...]]]]

    @property
    def count(self) -> int:
        return sum(len(rows) for _, _, rows in self.tables)


def floor_rows(document: dict[str, Any]) -> FloorRows:
    """What the import of `document` stores (players, teams, the competition, entries,
    matchdays, matches, games, rounds) as column values, the points from the rules engine.
    History rows are not part of the floor: they are the importer's extra work."""
    ids = _next_ids(Competition, Player, Team, Entry, Matchday, Match, Game, Round)
    comp = document["competition"]
    competition = Competition(
        id=ids[Competition],
        slug=f"floor-{comp['slug']}",
        name=comp["name"],
        season=comp.get("season", ""),
        tiebreaks=comp["standings"]["tiebreaks"],
    )
    player_ids = {p["key"]: ids[Player] + n for n, p in enumerate(document["players"])}
    players = [
        Player(id=player_ids[p["key"]], key=f"floor-{p['key']}", name=p["name"])
        for p in document["players"]
    ]
    team_ids = {t["key"]: ids[Team] + n for n, t in enumerate(document["teams"])}
    teams = [
        Team(
            id=team_ids[t["key"]],
            key=f"floor-{t['key']}",
            player_1_id=player_ids[t["players"][0]],
            player_2_id=player_ids[t["players"][1]],
        )
        for t in document["teams"]
    ]
    entry_ids = {key: ids[Entry] + n for n, key in enumerate(document["entries"])}
    entries = [
        Entry(id=entry_ids[key], competition_id=competition.id, team_id=team_ids[key])
        for key in document["entries"]
    ]
    rules = RuleSet()
    matchdays: list[Matchday] = []
    matches: list[Match] = []
    games: list[Game] = []
    rounds: list[Round] = []
    for day in document["matchdays"]:
        matchday = Matchday(
            id=ids[Matchday] + len(matchdays),
            competition_id=competition.id,
            number=day["number"],
            date=day["date"],
        )
        matchdays.append(matchday)
        for m in day["matches"]:
            match = Match(
                id=ids[Match] + len(matches),
                matchday_id=matchday.id,
                home_id=entry_ids[m["home"]],
                away_id=entry_ids[m["away"]],
            )
            matches.append(match)
            for g in m["games"]:
                inputs = [
                    RoundInput(result=Result(r["result"]), side=Side(r["side"]))
                    for r in g["rounds"]
                ]
                played = replay(rules, inputs)
                state = played.state
                game = Game(
                    id=ids[Game] + len(games),
                    match_id=match.id,
                    table=g["table"],
                    team_a_id=team_ids[g["team_a"]],
                    team_b_id=team_ids[g["team_b"]],
                    status=Game.Status.FINISHED if state.finished else Game.Status.OPEN,
                    score_a=state.score.a,
                    score_b=state.score.b,
                    kaps_a=state.kaps.a,
                    kaps_b=state.kaps.b,
                    baunies_a=state.baunies.a,
                    baunies_b=state.baunies.b,
                )
                games.append(game)
                for number, (r, points) in enumerate(
                    zip(g["rounds"], played.points, strict=True), 1
                ):
                    rounds.append(
                        Round(
                            id=ids[Round] + len(rounds),
                            game_id=game.id,
                            number=number,
                            result=r["result"],
                            side=r["side"],
                            points_a=points.a,
                            points_b=points.b,
                        )
                    )
    tables: list[tuple[type[models.Model], list[str], list[tuple[Any, ...]]]] = []
    for model, objects in (
        (Player, players),
        (Team, teams),
        (Competition, [competition]),
        (Entry, entries),
        (Matchday, matchdays),
        (Match, matches),
        (Game, games),
        (Round, rounds),
    ):
        columns, rows = _column_rows(model, objects)
        tables.append((model, columns, rows))
    return FloorRows(tables=tables)


def _bulk_load(rows: FloorRows) -> dict[str, float]:
    """PostgreSQL: one COPY per table (psycopg 3 `cursor.copy`); SQLite: one executemany.
    Returns the seconds per table."""
    seconds = {}
    with connection.cursor() as cursor:
        for model, columns, values in rows.tables:
            table = connection.ops.quote_name(model._meta.db_table)
            names = ", ".join(connection.ops.quote_name(c) for c in columns)
            started = time.perf_counter()
            if connection.vendor == "postgresql":
                raw = cursor.cursor  # the psycopg cursor under Django's wrapper
                with raw.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
                    for row in values:
                        copy.write_row(row)
            else:
                marks = ", ".join(["%s"] * len(columns))
                cursor.executemany(f"INSERT INTO {table} ({names}) VALUES ({marks})", values)
            seconds[model._meta.db_table] = time.perf_counter() - started
    return seconds


def _user_triggers_off(rows: FloorRows) -> None:
    """Switch off the app's own triggers on the floor's tables (the places backstops;
    foreign keys, unique and check constraints and every index stay) for the rest of the
    transaction, undone by its rollback. PostgreSQL: `ALTER TABLE … DISABLE TRIGGER USER`
    (constraint triggers are the system's, not the user's); SQLite: the triggers naming the
    tables are dropped (DDL is transactional there too)."""
    tables = [model._meta.db_table for model, _columns, _values in rows.tables]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            for table in tables:
                cursor.execute(
                    f"ALTER TABLE {connection.ops.quote_name(table)} DISABLE TRIGGER USER"
                )
            return
        cursor.execute("SELECT name, tbl_name FROM sqlite_master WHERE type = 'trigger'")
        for name, table in cursor.fetchall():
            if table in tables:
                cursor.execute(f"DROP TRIGGER {connection.ops.quote_name(name)}")


def _vacuum() -> None:
    """Clear the dead rows a rolled-back run left (PostgreSQL, outside a transaction)."""
    if connection.vendor == "postgresql" and not connection.in_atomic_block:
        with connection.cursor() as cursor:
            for model in (Player, Team, Entry, Matchday, Match, Game, Round):
                cursor.execute(f"VACUUM ANALYZE {connection.ops.quote_name(model._meta.db_table)}")


def floor_runs(document: dict[str, Any], *, repeat: int, budget: float) -> Runs:
    """The import's floor: a bulk load of the same rows into the real tables with the app's
    triggers off, timed, rolled back every time (issue 20: "a floor without the app's
    triggers"). The same indexes, foreign keys, unique and check constraints stay, so the
    floor is what storing the rows costs, not what the app checks on top.

    Each run also loads the rows once more with the triggers on: `extra["triggers_s"]` is
    that median, to tell the triggers' share; `extra["tables_s"]` the seconds per table of
    the last run without them."""
    rows = floor_rows(document)
    result = Runs(extra={"rows": rows.count})
    triggered: list[float] = []
    tables: dict[str, float] = {}

    def load(*, triggers: bool) -> float:
        nonlocal tables
        _vacuum()
        try:
            with transaction.atomic():
                if not triggers:
                    _user_triggers_off(rows)
                started = time.perf_counter()
                per_table = _bulk_load(rows)
                seconds = time.perf_counter() - started
                raise Rollback
        except Rollback:
            pass
        if not triggers:
            tables = per_table
        return seconds

    def run() -> float:
        triggered.append(load(triggers=True))
        return load(triggers=False)

    result.seconds = repeat_runs(run, repeat=repeat, budget=budget)
    result.extra["tables_s"] = {table: round(s, 3) for table, s in tables.items()}
    result.extra["triggers_s"] = statistics.median(triggered)
    return result


def import_runs(path: Path, *, repeat: int, budget: float) -> Runs:
    """`manage.py import_competition FILE` (call_command), timed inside a transaction.

    Every run but the last is rolled back; the last commits (after its time was taken, so
    the commit and the refresh it queues are not in the figure) and leaves the competition
    for the measures that follow. The last run is the one after which `repeat` runs are
    done or `budget` seconds are spent.
    """
    result = Runs()
    spent: list[float] = []
    while True:
        _vacuum()
        out = io.StringIO()
        try:
            with transaction.atomic():
                with counting() as counter:
                    started = time.perf_counter()
                    call_command("import_competition", str(path), stdout=out, stderr=out)
                    seconds = time.perf_counter() - started
                spent.append(seconds)
                result.queries = counter.count
                if len(spent) < repeat and sum(spent) <= budget:
                    raise Rollback
        except Rollback:
            continue
        result.seconds = spent
        result.extra["output"] = out.getvalue().strip().splitlines()[-1:]
        return result


# ---------------------------------------------------------------- standings


def aggregate_sql() -> str:
    """One aggregate over the competition's finished games, grouped by entry: what the
    standings' counting columns need (played, won, drawn, lost, points for and against,
    kaps, baunies). Each game counts once for each side: home and away are unioned."""
    game = connection.ops.quote_name(Game._meta.db_table)
    match = connection.ops.quote_name(Match._meta.db_table)
    matchday = connection.ops.quote_name(Matchday._meta.db_table)
    side = (
        "SELECT CASE WHEN g.a_is_home THEN m.{home} ELSE m.{away} END AS entry_id, "
        "g.score_{us} AS pf, g.score_{them} AS pa, g.kaps_{us} AS kaps, "
        "g.baunies_{us} AS baunies "
        f"FROM {game} g JOIN {match} m ON m.id = g.match_id "
        f"JOIN {matchday} d ON d.id = m.matchday_id "
        "WHERE d.competition_id = %s AND g.status <> 'open'"
    )
    return (
        "SELECT s.entry_id, COUNT(*), "
        "SUM(CASE WHEN s.pf > s.pa THEN 1 ELSE 0 END), "
        "SUM(CASE WHEN s.pf = s.pa THEN 1 ELSE 0 END), "
        "SUM(CASE WHEN s.pf < s.pa THEN 1 ELSE 0 END), "
        "SUM(s.pf), SUM(s.pa), SUM(s.kaps), SUM(s.baunies) "
        "FROM ("
        + side.format(home="home_id", away="away_id", us="a", them="b")
        + " UNION ALL "
        + side.format(home="away_id", away="home_id", us="b", them="a")
        + ") s GROUP BY s.entry_id"
    )


def standings_agree(competition_id: int, rows: list[Any] | None = None) -> bool:
    """Whether the stored standings reflect every finished game: for each entry, played,
    won, drawn, lost, points for and against as the aggregate counts them (`rows`: its
    result, when the caller ran it already). Right whatever way the standings were
    refreshed (a full rebuild, or only the rows a game changed)."""
    if rows is None:
        with connection.cursor() as cursor:
            cursor.execute(aggregate_sql(), [competition_id, competition_id])
            rows = cursor.fetchall()
    stored = {
        s.entry_id: (s.played, s.won, s.drawn, s.lost, s.points_for, s.points_against)
        for s in Standing.objects.filter(competition_id=competition_id)
    }
    counted = {row[0]: tuple(int(v) for v in row[1:7]) for row in rows}
    return all(stored.get(entry) == values for entry, values in counted.items())


def aggregate_runs(competition: Competition, *, repeat: int) -> Runs:
    """The rebuild's floor: the one SQL aggregate, rows fetched. Also checks it against the
    stored standings (`extra["agrees"]`): a floor that counts something else is no floor."""
    sql = aggregate_sql()
    result = Runs()
    rows: list[Any] = []
    for _ in range(repeat):
        with connection.cursor() as cursor:
            started = time.perf_counter()
            cursor.execute(sql, [competition.pk, competition.pk])
            rows = cursor.fetchall()
            result.seconds.append(time.perf_counter() - started)
    result.queries = 1
    result.extra["agrees"] = standings_agree(competition.pk, rows)
    return result


def rebuild_runs(competition: Competition, *, repeat: int) -> Runs:
    """`scoring.services.standings.standings_rebuild` of the imported competition, each run
    committed."""
    from scoring.services.standings import standings_rebuild

    result = Runs()
    for _ in range(repeat):
        with counting() as counter:
            started = time.perf_counter()
            standings_rebuild(competition_id=competition.pk)
            result.seconds.append(time.perf_counter() - started)
        result.queries = counter.count
    return result


def _open_games(competition: Competition, count: int) -> list[Game]:
    """`count` new open games on a new matchday of `competition`, two fresh entries each
    (as many as the competition has: at least one game)."""
    entries = list(competition.entries.select_related("team").order_by("pk"))
    number = (competition.matchdays.aggregate(models.Max("number"))["number__max"] or 0) + 1
    matchday = Matchday.objects.create(competition=competition, number=number)
    games = []
    for n in range(max(1, min(count, len(entries) // 2))):
        home, away = entries[2 * n], entries[2 * n + 1]
        match = Match.objects.create(matchday=matchday, home=home, away=away)
        assert home.team is not None and away.team is not None
        games.append(Game.objects.create(match=match, team_a=home.team, team_b=away.team))
    return games


def round_refresh_runs(competition: Competition, *, repeat: int, seed: int) -> Runs:
    """One round → fresh standings: `round_record` on an open game, committed, then the
    refresh work it queued (its on-commit callbacks, taken out before the commit and run
    right after it, Celery eager), timed apart. One run = one whole game played round by
    round; its figure is the refresh seconds per round averaged over the game.

    The ratings refresh that a round ending a game also queues (issue 10) is another task
    with its own worker time: it is run and timed apart (`ratings_refresh_median_s`), after
    the ratings are brought up to date once before the first run. So is the season
    rankings' refresh (issue 20: the ratings queue's, `SEASON_RANKINGS_DELAY_SECONDS`
    later, one for the results of those seconds; `season_rankings_refresh_median_s`)."""
    from rankings.season_refresh import SEASON_RANKINGS
    from rankings.services import RATINGS, ratings_refresh
    from scoring.services.rounds import round_record
    from troefclub.refresh import RefreshOnCommit

    ratings_refresh()
    ratings_seconds: list[float] = []
    season_seconds: list[float] = []
    rng = random.Random(seed)
    result = Runs()
    per_round_max = 0.0
    refresh_queries: list[int] = []
    record_seconds: list[float] = []
    refreshed_rounds = 0
    total_rounds = 0
    for game in _open_games(competition, repeat):
        refresh_total = 0.0
        rounds = random_game(rng)
        for number, rnd in enumerate(rounds, start=1):
            with transaction.atomic():
                start = len(connection.run_on_commit)
                started = time.perf_counter()
                round_record(
                    game_id=game.pk,
                    expected_number=number,
                    result=rnd["result"],
                    side=rnd["side"],
                )
                record_seconds.append(time.perf_counter() - started)
                # (savepoint ids, function, robust): the function is what commit would call
                callbacks = [entry[1] for entry in connection.run_on_commit[start:]]
                del connection.run_on_commit[start:]
            apart = {
                queue: [
                    func
                    for func in callbacks
                    if isinstance(func, RefreshOnCommit) and func.queue is queue
                ]
                for queue in (RATINGS, SEASON_RANKINGS)
            }
            callbacks = [func for func in callbacks if not any(func in f for f in apart.values())]
            for queue, timed in ((RATINGS, ratings_seconds), (SEASON_RANKINGS, season_seconds)):
                for callback in apart[queue]:
                    started = time.perf_counter()
                    callback()
                    timed.append(time.perf_counter() - started)
            with counting() as counter:
                started = time.perf_counter()
                for func in callbacks:
                    func()
                seconds = time.perf_counter() - started
            refresh_queries.append(counter.count)
            refresh_total += seconds
            per_round_max = max(per_round_max, seconds)
            refreshed_rounds += bool(callbacks)
            total_rounds += 1
        result.seconds.append(refresh_total / len(rounds))
    result.queries = round(statistics.mean(refresh_queries)) if refresh_queries else 0
    result.extra = {
        "games": len(result.seconds),
        "rounds": total_rounds,
        "rounds_that_queued_a_refresh": refreshed_rounds,
        "max_refresh_s": per_round_max,
        "round_record_median_s": statistics.median(record_seconds) if record_seconds else 0,
        "ratings_refreshes": len(ratings_seconds),
        "ratings_refresh_median_s": statistics.median(ratings_seconds) if ratings_seconds else 0,
        "season_rankings_refreshes": len(season_seconds),
        "season_rankings_refresh_median_s": (
            statistics.median(season_seconds) if season_seconds else 0
        ),
    }
    return result


# ---------------------------------------------------------------- pages


def page_urls(competition: Competition) -> dict[str, str]:
    """The public pages of issue 7's table: standings, a matchday (the middle one), a match
    of it and its game; and issue 20's season rankings of the competition's season, by
    player, koppel and club, and the ratings list."""
    number = max(1, (competition.matchdays.count() + 1) // 2)
    matchday = competition.matchdays.get(number=number)
    match = matchday.matches.order_by("pk").first()
    assert match is not None, "the generated matchdays have matches"
    game = match.games.order_by("pk").first()
    assert game is not None
    slug = competition.slug
    return {
        "standings": reverse("competition_detail", kwargs={"slug": slug}),
        "matchday": reverse("matchday_detail", kwargs={"slug": slug, "number": number}),
        "match": reverse("match_detail", kwargs={"slug": slug, "match_id": match.pk}),
        "game": reverse("game_detail", kwargs={"slug": slug, "game_id": game.pk}),
        **{
            f"season ranking by {by}": reverse(
                "season_rankings", kwargs={"season": competition.season}
            )
            + f"?by={by}"
            for by in ("player", "koppel", "club")
        },
        "ratings": reverse("rating_list"),
    }


def page_runs(url: str, *, repeat: int) -> Runs:
    """GET `url` with the test client (no network): server time per request, bytes of the
    body, queries. One request first, untimed, to fill the template caches."""
    client = Client()
    warm = client.get(url)
    if warm.status_code != 200:
        raise RuntimeError(f"GET {url} answered {warm.status_code}")
    result = Runs(size_bytes=len(warm.content))
    for _ in range(repeat):
        with counting() as counter:
            started = time.perf_counter()
            response = client.get(url)
            result.seconds.append(time.perf_counter() - started)
        result.queries = counter.count
        result.size_bytes = len(response.content)
    return result


# ---------------------------------------------------------------- Swiss pairing


def swiss_runs(entries: int, *, rounds: int, repeat: int, seed: int) -> Runs:
    """`benchmarks.pairing.swiss_tournament` (the Swiss helper's benchmark) for `entries`,
    with and without a tiebreak; a run's figure is its slowest round."""
    from benchmarks import pairing

    result = Runs()
    every: list[float] = []
    for n in range(repeat):
        worst = 0.0
        for tiebreak in (True, False):
            report = pairing.swiss_tournament(entries, rounds, seed + n, tiebreak=tiebreak)
            seconds = [float(s) for s in report["every_round"]]  # type: ignore[attr-defined]
            every.extend(seconds)
            worst = max(worst, *seconds)
        result.seconds.append(worst)
    result.extra = {"rounds": rounds, "median_round_s": statistics.median(every)}
    return result


def document_load(path: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


__all__ = [
    "Runs",
    "Size",
    "aggregate_runs",
    "aggregate_sql",
    "document_load",
    "floor_runs",
    "import_runs",
    "page_runs",
    "page_urls",
    "rebuild_runs",
    "round_refresh_runs",
    "standings_agree",
    "swiss_runs",
]
