"""The load benchmark's `--ratings-rebuild` (issue 19): standings of another competition
while the player ratings are rebuilt.

Mid-run (`--rebuild-after` seconds after the scorers start) the benchmark corrects an early
game of the big competition the way a director does (`round_correct`: its last round given
to the other koppel, which reopens or re-ends the game), so the ratings refresh that
correction queues re-rates nearly every game after it: the issue's "correction in an early
game of a 1,000-koppel season". Meanwhile a probe writes to another competition
(`bench-2x1`, imported once): a new game of it entered as totals (`game_totals_enter`),
committed, then the time until that competition owes no refresh any more
(`standings_stale_since` NULL, polled every 20 ms): the **standings delay**; a second later
the next, until the rebuild is done and the scorers' standings caught up (issue 20: each
write queues a season rankings refresh on the ratings queue too, so writing on would keep
that queue from ever draining). Both go through the services in this process, queueing
their tasks on the benchmark's broker like any write.

The rebuild counts as done once the corrected game's rated row was rewritten (a refresh
replays from the first changed game, deleting and writing the rated games from there in one
transaction). The report gives the probe's delays during the rebuild (writes from the
correction until it is done) and outside it.
"""

from __future__ import annotations

import statistics
import threading
import time
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from benchmarks.generate import FIRST_DATE, Size

PROBE = Size(koppels=2, matchdays=1)  # "another competition": its slug is bench-2x1
POLL_S = 0.02
# A probe a second: ~10 during a rebuild; faster would make it most of the ratings work.
BETWEEN_PROBES_S = 1.0


@dataclass
class Rebuild:
    """What the rebuild thread and the probe saw (`perf_counter` times)."""

    corrected_at: float | None = None  # the correction committed
    done_at: float | None = None  # the ratings rewritten from the corrected game
    game_id: int | None = None
    rerated: int = 0  # rated games from the corrected game's position on
    error: str = ""
    probes: list[tuple[float, float]] = field(default_factory=list)  # (written at, delay s)
    probe_errors: list[str] = field(default_factory=list)


def probe_prepare() -> int:
    """The probe's competition, imported when missing, its earlier probe games deleted;
    returns its id. (In `prepare`, Celery eager.)"""
    from django.core.management import call_command

    from benchmarks.generate import document_path
    from scoring.models import Game, Round
    from scoring.services.standings import standings_rebuild
    from tournaments.models import Competition, Match, Matchday

    competition = Competition.objects.filter(slug=PROBE.slug).first()
    if competition is None:
        call_command("import_competition", str(document_path(PROBE)), verbosity=0)
        competition = Competition.objects.get(slug=PROBE.slug)
    old = Matchday.objects.filter(competition=competition, number__gt=PROBE.matchdays)
    Round.objects.filter(game__match__matchday__in=old).delete()
    Game.objects.filter(match__matchday__in=old).delete()
    Match.objects.filter(matchday__in=old).delete()
    old.delete()
    standings_rebuild(competition_id=competition.pk)
    return competition.pk


def _probe_write(competition_id: int, number: int) -> None:
    """A new matchday of the probe competition with one game, then its totals entered (the
    write that owes a standings refresh, and a ratings one)."""
    from django.db import transaction

    from scoring.models import Game
    from scoring.services.games import game_totals_enter
    from scoring.tokens import game_token_now
    from tournaments.models import Competition, Match, Matchday

    competition = Competition.objects.get(pk=competition_id)
    home, away = list(competition.entries.select_related("team").order_by("pk")[:2])
    assert home.team is not None and away.team is not None
    day = FIRST_DATE.replace(year=FIRST_DATE.year + 1) + timedelta(days=number)
    with transaction.atomic():
        matchday = Matchday.objects.create(
            competition=competition, number=PROBE.matchdays + number, date=day
        )
        match = Match.objects.create(matchday=matchday, home=home, away=away)
        game = Game.objects.create(match=match, team_a=home.team, team_b=away.team)
    game_totals_enter(game_id=game.pk, total_a=20, total_b=12, seen=game_token_now(game_id=game.pk))


def probe_run(competition_id: int, rebuild: Rebuild, done: threading.Event) -> None:
    """Until `done`: a probe write, the time until its standings are fresh, a pause (a
    thread, with its own database connection)."""
    from django.db import connection

    from tournaments.models import Competition

    stale = Competition.objects.filter(pk=competition_id).values_list(
        "standings_stale_since", flat=True
    )
    number = 0
    try:
        while not done.is_set():
            number += 1
            try:
                _probe_write(competition_id, number)
            except Exception as exc:  # reported, not raised: the run goes on
                rebuild.probe_errors.append(f"probe write {number}: {exc!r}")
                done.wait(1)
                continue
            written = time.perf_counter()
            while stale.first() is not None and not done.is_set():
                time.sleep(POLL_S)
            if stale.first() is None:
                rebuild.probes.append((written, time.perf_counter() - written))
            done.wait(BETWEEN_PROBES_S)
    finally:
        connection.close()


def _early_correction(competition_id: int) -> tuple[int, Any]:
    """Correct one of the first rated games of competition `competition_id` (the big one):
    its last round given to the other koppel. Returns the game's id and its rated row
    before (position, pk)."""
    from rankings.models import RatedGame
    from scoring.models import Round
    from scoring.rules import RuleViolation
    from scoring.services.rounds import round_correct

    rated_games = RatedGame.objects.filter(game__match__matchday__competition_id=competition_id)
    for rated in rated_games.order_by("position")[:50]:
        if rated.game_id is None:
            continue
        last = Round.objects.filter(game_id=rated.game_id).order_by("-number").first()
        if last is None:
            continue
        try:
            round_correct(
                round_id=last.pk,
                result=last.result,
                side="b" if last.side == "a" else "a",
                caller_id=last.caller_id,
                seen=last.token,
            )
        except RuleViolation:
            continue
        return rated.game_id, (rated.position, rated.pk)
    raise RuntimeError("no early game of the big competition could be corrected")


def rebuild_run(competition_id: int, after: float, rebuild: Rebuild, done: threading.Event) -> None:
    """`after` seconds in: the correction in competition `competition_id`, then wait
    (polling every 100 ms, until `done`) for the ratings to be rewritten from the
    corrected game (a thread, with its own database connection)."""
    from django.db import connection

    from rankings.models import RatedGame

    try:
        if done.wait(after):
            return
        try:
            rebuild.game_id, (position, pk) = _early_correction(competition_id)
        except Exception as exc:
            rebuild.error = repr(exc)
            return
        rebuild.corrected_at = time.perf_counter()
        while not done.is_set():
            row = RatedGame.objects.filter(position=position).values_list("pk", flat=True)
            if row.first() != pk:
                rebuild.done_at = time.perf_counter()
                rebuild.rerated = RatedGame.objects.filter(position__gte=position).count()
                return
            time.sleep(0.1)
    finally:
        connection.close()


def report(rebuild: Rebuild) -> dict[str, Any]:
    """The rebuild and the standings delays of the probe, during and outside it (JSON)."""

    def summary(delays: list[float]) -> dict[str, Any]:
        return {
            "writes": len(delays),
            "p50_s": statistics.median(delays) if delays else None,
            "max_s": max(delays, default=None),
        }

    start, end = rebuild.corrected_at, rebuild.done_at
    during = [
        delay
        for written, delay in rebuild.probes
        if start is not None and written >= start and (end is None or written <= end)
    ]
    outside = [
        delay
        for written, delay in rebuild.probes
        if start is None or written < start or (end is not None and written > end)
    ]
    return {
        "rebuild_error": rebuild.error or None,
        "corrected_game": rebuild.game_id,
        "rerated_games": rebuild.rerated,
        "rebuild_done_s": (end - start) if start is not None and end is not None else None,
        "standings_delay_during_rebuild": summary(during),
        "standings_delay_otherwise": summary(outside),
        "probe_errors": rebuild.probe_errors[:10],
    }


def markdown(r: dict[str, Any], layout: str) -> str:
    """The rebuild's row of the report."""

    def seconds(value: float | None) -> str:
        return "—" if value is None else f"{value:.2f} s"

    during, otherwise = r["standings_delay_during_rebuild"], r["standings_delay_otherwise"]
    done = (
        "never (still running at the end)"
        if r["rebuild_done_s"] is None
        else seconds(r["rebuild_done_s"])
    )
    return "\n".join(
        [
            "",
            "| workers | games re-rated | rebuild done after | standings delay during "
            "the rebuild: p50 / max (writes) | otherwise: p50 / max (writes) |",
            "| --- | ---: | ---: | ---: | ---: |",
            f"| {layout} | {r['rerated_games']:,} | {done} "
            f"| {seconds(during['p50_s'])} / {seconds(during['max_s'])} ({during['writes']}) "
            f"| {seconds(otherwise['p50_s'])} / {seconds(otherwise['max_s'])} "
            f"({otherwise['writes']}) |",
        ]
        + ([f"\nrebuild error: {r['rebuild_error']}"] if r["rebuild_error"] else [])
    )
