"""An import's results written in bulk: games, rounds, reported match totals, forfeits and
deductions, with their audit history (issue 7: imports near bulk-load speed).

`results_load(doc=…, competition=…, …)` is the second half of
`interchange.importer.competition_import`, after the clubs, players, koppels,
entries, squads, matchdays, byes and matches are made. It works in two passes:

1. **Plan.** The document's results are walked in the order the per-game services would
   have written them (each match: its reported totals, its games, its forfeit; then the
   deductions), and every result is checked by the functions those services check with:
   the engine (`scoring.rules`) and the small checks shared with the services
   (`scoring.services.rounds.game_rounds_replay`, `game_totals_set`, `game_close_replay`,
   `game_state_set`, `game_confirmed_set`; `scoring.services.matches.forfeit_check`,
   `deduction_check`, `void_reason_check`). The first problem raises the same
   `InterchangeError` (place and message) as the services' path did; nothing has been
   written for the results then, and the caller's transaction drops the rest.
2. **Write.** One statement per table: games, rounds, their history, the matches' totals
   and forfeits, deductions. PostgreSQL gets `COPY` (game and deduction ids taken from the
   tables' sequences first, so their history rows can name them), SQLite one
   `executemany`; the rounds' history is copied from the rounds by the database (one
   INSERT … SELECT). The database's constraints check every row; its places triggers
   check every statement's rows at once on PostgreSQL (statement triggers, issue 20), every
   row on SQLite. A large import on PostgreSQL first runs ANALYZE on the matches the
   games' trigger reads (`_statistics_update`).

The stored rows, history included, are what the services' path stored: a game's history
has its "+" record as created (open, 0–0) and one "~" record per service write (rounds
loaded or totals entered, closed, confirmed), a round one "+" record, a match a "~" record
for its totals and one for its forfeit, a deduction "+" and "~" when voided; the user is
the one simple-history would name (none for a command), no change reason. Their times
follow one another by a microsecond in that order, so the history pages
(`scoring.selectors.history.game_history`, `match_history`) read an import as before.

No standings refresh is queued: `competition_import` rebuilds the standings in the same
transaction, and nobody else can write to a competition that isn't committed yet.
"""

from __future__ import annotations

import datetime
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import connection, models
from django.utils import timezone
from django.utils.translation import gettext as _

from interchange.document import _Document, _Game, _Match
from interchange.errors import _join, _violation
from scoring.models import Game, Round
from scoring.rules import RuleViolation, check_match_totals
from scoring.services.confirmations import game_confirmed_set
from scoring.services.games import game_close_replay, game_state_set, game_totals_set
from scoring.services.matches import forfeit_check
from scoring.services.rounds import RoundRecord, game_rounds_replay
from tournaments.models import Competition, Deduction, Entry, Match, Matchday, Player, Team
from tournaments.services.deductions import deduction_check, void_reason_check

# A long import says how far it is at most this often (seconds); one that ends sooner says
# nothing, so a club evening's file prints only its result line.
PROGRESS_EVERY = 3.0

# An import of this many games or more first updates the planner's statistics
# (`_statistics_update`); a smaller one is done before that would pay.
ANALYZE_FROM_GAMES = 1000

# Columns written as they are: a COPY or an executemany takes these Python values
# unchanged. Other fields (times on SQLite, JSON) go through `get_db_prep_save`.
_PLAIN_FIELDS = (
    models.AutoField,
    models.BigAutoField,
    models.IntegerField,
    models.CharField,
    models.BooleanField,
    models.ForeignKey,
)
_HISTORY_COLUMNS = ("history_date", "history_change_reason", "history_type", "history_user_id")


Progress = Callable[[str], None]


class _Ticker:
    """Says how far an import is, at most every PROGRESS_EVERY seconds."""

    def __init__(self, say: Progress | None) -> None:
        self.say = say
        self.started = self.last = time.monotonic()

    def due(self, *, force: bool = False) -> bool:
        """Whether to say something now; `force`: whenever the import is long already."""
        if self.say is None:
            return False
        now = time.monotonic()
        if now - self.last >= PROGRESS_EVERY or (force and now - self.started >= PROGRESS_EVERY):
            self.last = now
            return True
        return False

    def __call__(self, message: str) -> None:
        assert self.say is not None
        self.say(message)


class _Clock:
    """The history times of the import: one microsecond apart, in the services' order."""

    def __init__(self) -> None:
        self.now = timezone.now()

    def tick(self) -> datetime.datetime:
        self.now += datetime.timedelta(microseconds=1)
        return self.now


@dataclass
class _Table:
    """Rows for one table: `columns` are the model's field attnames, `rows` tuples of
    values in that order."""

    model: type[models.Model]
    columns: tuple[str, ...]
    rows: list[tuple[Any, ...]] = field(default_factory=list)


def _columns(model: type[models.Model]) -> tuple[str, ...]:
    return tuple(f.attname for f in model._meta.concrete_fields)


def _history_model(model: type[models.Model]) -> type[models.Model]:
    return model.history.model  # type: ignore[attr-defined]


def _history_table(model: type[models.Model]) -> _Table:
    """Rows for `model`'s simple-history table: the model's columns, then _HISTORY_COLUMNS
    (history_id is left to the database)."""
    tracked = tuple(f.attname for f in _history_model(model).tracked_fields)  # type: ignore[attr-defined]
    assert tracked == _columns(model), model  # a snapshot of a row is its history record
    return _Table(_history_model(model), tracked + _HISTORY_COLUMNS)


def _snapshot(instance: models.Model, columns: Sequence[str]) -> tuple[Any, ...]:
    return tuple(getattr(instance, column) for column in columns)


# ------------------------------------------------------------------ the plan


# Round's columns in the order `_plan_rounds` builds its rows; the id is the database's.
ROUND_COLUMNS = (
    "game_id",
    "number",
    "result",
    "side",
    "caller_id",
    "tricks_a",
    "tricks_b",
    "points_a",
    "points_b",
    "recorded_at",
    "recorded_by_id",
)


@dataclass
class _Plan:
    """What the import writes, checked and in order; `history_user_id` is whom
    simple-history would name (the logged-in user of a request, None for a command)."""

    history_user_id: int | None
    clock: _Clock = field(default_factory=_Clock)
    games: _Table = field(default_factory=lambda: _Table(Game, _columns(Game)))
    game_history: _Table = field(default_factory=lambda: _history_table(Game))
    rounds: _Table = field(default_factory=lambda: _Table(Round, ROUND_COLUMNS))
    matches: dict[int, Match] = field(default_factory=dict)  # changed, by id
    match_history: _Table = field(default_factory=lambda: _history_table(Match))
    deductions: _Table = field(default_factory=lambda: _Table(Deduction, _columns(Deduction)))
    deduction_history: _Table = field(default_factory=lambda: _history_table(Deduction))

    def record(self, table: _Table, row: tuple[Any, ...], kind: str) -> datetime.datetime:
        """Add the history record of `row` (a snapshot); returns its time."""
        when = self.clock.tick()
        table.rows.append((*row, when, None, kind, self.history_user_id))
        return when


def _history_user_id(instance: models.Model) -> int | None:
    """The user simple-history names in a record of `instance` saved now (the request's
    logged-in user; None in a command)."""
    user = _history_model(type(instance)).get_default_history_user(instance)  # type: ignore[attr-defined]
    return getattr(user, "pk", None)


def results_load(
    *,
    doc: _Document,
    competition: Competition,
    teams: dict[str, Team],
    players: dict[str, Player],
    entries: dict[str, Entry],
    progress: Progress | None = None,
) -> None:
    """Check and write the results of parsed document `doc` into `competition`, whose
    matches are made already (`_Match.instance`); see the module's docstring.

    Raises InterchangeError at the first result the rules refuse (nothing of the results
    is written then); IntegrityError when a row breaks a database constraint or trigger
    the checks before missed.
    """
    ticker = _Ticker(progress)
    total_games = sum(len(m.games) for md in doc.matchdays for m in md.matches)
    game_ids = iter(_ids_reserve(Game, total_games))
    plan = _Plan(history_user_id=_history_user_id(Game()))
    done = 0
    for position, matchday in enumerate(doc.matchdays, start=1):
        for match in matchday.matches:
            _plan_match(plan, match, competition, teams, players, game_ids)
            done += len(match.games)
            if ticker.due():
                ticker(
                    _("matchday %(matchday)s/%(matchdays)s, %(done)s/%(games)s games checked")
                    % {
                        "matchday": position,
                        "matchdays": len(doc.matchdays),
                        "done": f"{done:,}",
                        "games": f"{total_games:,}",
                    }
                )
    _plan_deductions(plan, doc, competition, entries)

    if connection.vendor == "postgresql" and total_games >= ANALYZE_FROM_GAMES:
        _statistics_update()
    if ticker.due(force=True):
        ticker(_("writing %(count)s games") % {"count": f"{len(plan.games.rows):,}"})
    _rows_insert(plan.games)
    _rows_insert(plan.game_history)
    if ticker.due(force=True):
        ticker(_("writing %(count)s rounds") % {"count": f"{len(plan.rounds.rows):,}"})
    _rows_insert(plan.rounds)
    _round_history_insert(competition, plan.history_user_id)
    _matches_update(plan)
    _rows_insert(plan.deductions)
    _rows_insert(plan.deduction_history)


def _plan_match(
    plan: _Plan,
    match: _Match,
    competition: Competition,
    teams: dict[str, Team],
    players: dict[str, Player],
    game_ids: Iterator[int],
) -> None:
    """A match's reported totals, games and forfeit, as `match_totals_enter`, the game
    services and `match_forfeit_set` would write them, in that order."""
    instance = match.instance
    assert instance is not None  # made by `competition_import`
    columns = plan.match_history.columns[: -len(_HISTORY_COLUMNS)]
    if match.totals is not None:
        # `match_totals_enter`'s checks: a file's match with totals has no games
        # (`_parse_match`), so only the engine's plausibility check is left.
        try:
            check_match_totals(match.totals[0], match.totals[1], competition.rule_set)
        except RuleViolation as exc:
            raise _violation(match.place, exc) from None
        instance.total_home, instance.total_away = match.totals
        plan.matches[instance.pk] = instance
        plan.record(plan.match_history, _snapshot(instance, columns), "~")
    for game in match.games:
        _plan_game(plan, game, instance, teams, players, game_ids)
    if match.forfeit is not None:
        side, reason, cause = match.forfeit
        try:
            reason = forfeit_check(side, reason)
        except RuleViolation as exc:
            raise _violation(_join(match.place, "forfeit"), exc) from None
        # The file's cause: `match_forfeit_set` would make every forfeit the director's.
        instance.forfeit, instance.forfeit_reason, instance.forfeit_cause = side, reason, cause
        plan.matches[instance.pk] = instance
        plan.record(plan.match_history, _snapshot(instance, columns), "~")


def _plan_game(
    plan: _Plan,
    game: _Game,
    match: Match,
    teams: dict[str, Team],
    players: dict[str, Player],
    game_ids: Iterator[int],
) -> None:
    """One game as `Game.objects.create` and then `game_totals_enter` or
    `game_rounds_load`, `game_close` and `game_confirm` would leave it, with a history
    record for each of those writes."""
    seats: list[Player | None] = [None] * 4
    if game.seats:
        seats = [players[key] for key in game.seats]
    seat_ids = [player.pk if player else None for player in seats]
    # Keys by id (assigning instances costs more); the match as an instance: the engine
    # reads the competition's rules through it.
    instance = Game(
        pk=next(game_ids),
        match=match,
        table=game.table,
        sitting=game.sitting,
        team_a_id=teams[game.team_a].pk,
        team_b_id=teams[game.team_b].pk,
        a_is_home=game.a_is_home,
        seat_1_id=seat_ids[0],
        seat_2_id=seat_ids[1],
        seat_3_id=seat_ids[2],
        seat_4_id=seat_ids[3],
    )
    game.pk = instance.pk  # the file's game finds its row (a void: `interchange.voids`)
    columns = plan.games.columns
    history = plan.game_history
    plan.record(history, _snapshot(instance, columns), "+")
    records = [
        RoundRecord(
            result=rnd.result,
            side=rnd.side,
            caller_id=players[rnd.caller].pk if rnd.caller else None,
            tricks=rnd.tricks,
        )
        for rnd in game.rounds
    ]
    try:
        if game.totals is not None:
            game_totals_set(instance, game.totals[0], game.totals[1])
            plan.record(history, _snapshot(instance, columns), "~")
        played = game_rounds_replay(instance, records)
        if records:
            game_state_set(instance, played)
            _plan_rounds(plan, instance, records, played.points)
            plan.record(history, _snapshot(instance, columns), "~")
        if game.closed:
            game_state_set(instance, game_close_replay(instance, played))
            plan.record(history, _snapshot(instance, columns), "~")
        if game.confirmed:
            # The confirmation's time is its history record's: the record is made next.
            game_confirmed_set(instance, user=None, at=plan.clock.now + _ONE_TICK)
            plan.record(history, _snapshot(instance, columns), "~")
    except RuleViolation as exc:
        seat_names = {
            number: f"{player.name} ({player.key})"
            for number, player in enumerate(seats, start=1)
            if player is not None
        }
        raise _violation(game.place, exc, seat_names=seat_names) from None
    plan.games.rows.append(_snapshot(instance, columns))


_ONE_TICK = datetime.timedelta(microseconds=1)


def _plan_rounds(
    plan: _Plan, game: Game, records: Sequence[RoundRecord], points: Sequence[Any]
) -> None:
    """The rows of a game's rounds, as `game_rounds_load` makes them (no user recorded:
    an import has none). `recorded_at` is also the time of the round's "+" record
    (`_round_history_insert`)."""
    rows = plan.rounds.rows
    for number, (record, scored) in enumerate(zip(records, points, strict=True), start=1):
        tricks = record.tricks or (None, None)
        rows.append(
            (
                game.pk,
                number,
                record.result,
                record.side,
                record.caller_id,
                tricks[0],
                tricks[1],
                scored.a,
                scored.b,
                plan.clock.tick(),
                None,
            )
        )


def _plan_deductions(
    plan: _Plan, doc: _Document, competition: Competition, entries: dict[str, Entry]
) -> None:
    """The file's deductions as `deduction_add` (and `deduction_void`) would write them."""
    if not doc.deductions:
        return
    columns = plan.deductions.columns
    ids = iter(_ids_reserve(Deduction, len(doc.deductions)))
    for item in doc.deductions:
        try:
            reason = deduction_check(item.points, item.reason)
            deduction = Deduction(
                pk=next(ids),
                competition=competition,
                entry=entries[item.entry],
                points=item.points,
                reason=reason,
                match=item.match.instance if item.match else None,
                created_at=plan.clock.now + _ONE_TICK,
            )
            plan.record(plan.deduction_history, _snapshot(deduction, columns), "+")
            if item.voided is not None:
                deduction.void_reason = void_reason_check(item.voided[1])
                deduction.voided_at = item.voided[0]
                plan.record(plan.deduction_history, _snapshot(deduction, columns), "~")
        except RuleViolation as exc:
            raise _violation(item.place, exc) from None
        plan.deductions.rows.append(_snapshot(deduction, columns))


# ------------------------------------------------------------------ writing rows in bulk


def _ids_reserve(model: type[models.Model], count: int) -> list[int]:
    """`count` new primary keys for `model`'s table, never used before (one query).

    PostgreSQL: from the table's sequence (concurrent writers get others). SQLite: after
    the largest id the table ever had (`sqlite_sequence`, AUTOINCREMENT), which nobody
    else can take meanwhile: the import's transaction holds the database's write lock.
    Ids are not reused even when rows were deleted: a history record names its row by id.
    """
    if count == 0:
        return []
    table = model._meta.db_table
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
                [connection.ops.quote_name(table), model._meta.pk.column, count],
            )
            return [row[0] for row in cursor.fetchall()]
        pk, quoted = model._meta.pk.column, connection.ops.quote_name(table)
        cursor.execute(
            "SELECT MAX(n) FROM (SELECT seq AS n FROM sqlite_sequence WHERE name = %s"
            f" UNION ALL SELECT MAX({pk}) FROM {quoted})",
            [table],
        )
        (last,) = cursor.fetchone()
    start = (last or 0) + 1
    return list(range(start, start + count))


def _statistics_update() -> None:
    """ANALYZE the matches before the games are written (PostgreSQL).

    The games' insert trigger (scoring/migrations/0011_game_places_checked_per_statement.py)
    reads the matches of the new games' matchdays: statistics that know the import's new
    matchdays let the planner read them by matchday. The games themselves are not
    analysed: this import's are not written yet, and statistics taken now would say the
    table is empty (or, after a rolled-back import, that its pages hold no rows), which
    the trigger's plans would then believe.
    """
    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {connection.ops.quote_name(Match._meta.db_table)}")


def _rows_insert(table: _Table) -> None:
    """Insert `table.rows`: COPY on PostgreSQL, one executemany elsewhere.

    Values of plain columns (numbers, text, booleans, keys) go as they are; the others
    (times, JSON) through the field's `get_db_prep_save`, as Django's inserts do.
    """
    if not table.rows:
        return
    fields = {f.attname: f for f in table.model._meta.concrete_fields}
    targets = [fields[column] for column in table.columns]
    prepared = [
        index
        for index, target in enumerate(targets)
        if not isinstance(target, _PLAIN_FIELDS)
        and not (connection.vendor == "postgresql" and isinstance(target, models.DateTimeField))
    ]
    rows: Iterable[tuple[Any, ...]] = table.rows
    if prepared:
        rows = (_prepared(row, prepared, targets) for row in table.rows)
    quote = connection.ops.quote_name
    names = ", ".join(quote(target.column) for target in targets)
    sql_table = quote(table.model._meta.db_table)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # psycopg 3: rows are sent as they are made, converted by the driver.
            with connection.wrap_database_errors:
                raw = cursor.cursor
                with raw.copy(f"COPY {sql_table} ({names}) FROM STDIN") as copy:
                    for row in rows:
                        copy.write_row(row)
        else:
            marks = ", ".join(["%s"] * len(targets))
            cursor.executemany(f"INSERT INTO {sql_table} ({names}) VALUES ({marks})", list(rows))


def _prepared(
    row: tuple[Any, ...], indexes: Sequence[int], targets: Sequence[models.Field[Any, Any]]
) -> tuple[Any, ...]:
    values = list(row)
    for index in indexes:
        values[index] = targets[index].get_db_prep_save(values[index], connection)
    return tuple(values)


def rows_create(model: type[models.Model], instances: Sequence[models.Model]) -> None:
    """Insert `instances` (unsaved, all of `model`) and their "+" history records, as
    simple-history's `bulk_create_with_history` would, in two statements (COPY on
    PostgreSQL); sets their primary keys. Used for an import's matches and byes."""
    if not instances:
        return
    for instance, pk in zip(instances, _ids_reserve(model, len(instances)), strict=True):
        instance.pk = pk
        instance._state.adding, instance._state.db = False, connection.alias
    columns = _columns(model)
    rows = [_snapshot(instance, columns) for instance in instances]
    _rows_insert(_Table(model, columns, rows))
    history = _history_table(model)
    user, when = _history_user_id(instances[0]), timezone.now()
    history.rows = [(*row, when, None, "+", user) for row in rows]
    _rows_insert(history)


def _round_history_insert(competition: Competition, user_id: int | None) -> None:
    """The "+" records of the competition's rounds, made by the database from the rounds
    just inserted (one INSERT … SELECT): each at its round's `recorded_at`, by `user_id`.
    The import's competition is new, so all its rounds are the import's."""
    history = _history_model(Round)
    columns = _columns(Round)
    quote = connection.ops.quote_name
    fields = {f.attname: f.column for f in Round._meta.concrete_fields}
    history_fields = {f.attname: f.column for f in history._meta.concrete_fields}
    sources = ", ".join(f"r.{quote(fields[column])}" for column in columns)
    targets = ", ".join(quote(history_fields[name]) for name in (*columns, *_HISTORY_COLUMNS))
    game, match, matchday = (quote(m._meta.db_table) for m in (Game, Match, Matchday))
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {quote(history._meta.db_table)} ({targets}) "
            f"SELECT {sources}, r.{quote(fields['recorded_at'])}, NULL, '+', %s "
            f"FROM {quote(Round._meta.db_table)} r WHERE r.{quote(fields['game_id'])} IN ("
            f"SELECT g.id FROM {game} g JOIN {match} m ON m.id = g.match_id "
            f"JOIN {matchday} d ON d.id = m.matchday_id WHERE d.competition_id = %s) "
            "ORDER BY r.id",
            [user_id, competition.pk],
        )


def _matches_update(plan: _Plan) -> None:
    """The matches with reported totals or a forfeit: one UPDATE, and their records."""
    if plan.matches:
        Match.objects.bulk_update(
            list(plan.matches.values()),
            ["total_home", "total_away", "forfeit", "forfeit_reason", "forfeit_cause"],
        )
    _rows_insert(plan.match_history)
