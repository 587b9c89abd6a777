"""How much audit history a club evening writes (issue 19): rows and bytes per evening.

    DATABASE_URL=postgres://... python -m benchmarks.history_growth [--koppels 40] [--evenings 4]

It runs in a database of its own beside the configured one (`<NAME>_history_bench`, or a
SQLite file in the benchmark cache folder: `benchmarks/throwaway.py`), made, marked and
migrated here; PostgreSQL for the bytes (SQLite counts rows only). Everything runs in one
transaction that is rolled back at the end: nothing it wrote stays, and no refresh is
queued (the on-commit callbacks never run).

A Swiss pairs competition of `--koppels` koppels (set up first, not counted), then each
evening, as the app writes it: the matchday paired (`swiss_matchday_pair`), every game's
rounds recorded one at a time (`round_record`, as the table phones send them; random
games of `benchmarks.generate`, about 13 rounds with redeals), three rounds corrected
(`round_correct`), every result accepted by the director (`games_accept_all`). Printed: the
history rows each evening added, by model, and the bytes the history tables grew by
(`pg_total_relation_size`: rows, indexes and TOAST; the tables grow by 8 kB pages, so the
average over several evenings is the figure to read).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections import Counter

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "troefclub.settings")
os.environ.setdefault("SECRET_KEY", "history-growth")
os.environ.setdefault("DEBUG", "true")
# Never the configured database, never a broker (issue 19, benchmarks/throwaway.py).
from benchmarks.throwaway import database_own  # noqa: E402

DATABASE = database_own(os.environ, "history")
django.setup()

from django.apps import apps  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.db.models import Model  # noqa: E402
from simple_history.models import HistoricalChanges  # noqa: E402

from benchmarks.generate import random_game  # noqa: E402
from scoring.models import Game, Round  # noqa: E402
from scoring.rules import RuleViolation  # noqa: E402
from scoring.services.confirmations import games_accept_all  # noqa: E402
from scoring.services.rounds import round_correct, round_record  # noqa: E402
from scoring.services.schedule import swiss_matchday_pair  # noqa: E402
from scoring.services.standings import standings_rebuild  # noqa: E402
from tournaments.models import Competition, Entry, Player, Team  # noqa: E402

SEED = 19
CORRECTIONS = 3
SLUG = "history-growth-benchmark"


class _RollBack(Exception):
    """Raised at the end: the transaction and everything in it is undone."""


def history_models() -> list[type[Model]]:
    return [model for model in apps.get_models() if issubclass(model, HistoricalChanges)]


def history_rows() -> Counter[str]:
    return Counter({model.__name__: model._default_manager.count() for model in history_models()})


def history_bytes() -> int | None:
    """The size of the history tables with their indexes and TOAST; None on SQLite."""
    if connection.vendor != "postgresql":
        return None
    tables = [model._meta.db_table for model in history_models()]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT COALESCE(SUM(pg_total_relation_size(quote_ident(t))), 0) "
            "FROM unnest(%s::text[]) t",
            [tables],
        )
        return int(cursor.fetchone()[0])


def competition_setup(koppels: int) -> Competition:
    competition = Competition.objects.create(
        slug=SLUG,
        name="History growth",
        season="2026-2027",
        schedule_format=Competition.Format.SWISS,
        confirmation_required=True,
    )
    for n in range(koppels):
        first, second = (
            Player.objects.create(key=f"hg-p{n}-{i}", name=f"P{n}.{i}") for i in (1, 2)
        )
        team = Team.objects.create(key=f"hg-t{n}", player_1=first, player_2=second)
        Entry.objects.create(competition=competition, team=team)
    return competition


def evening(competition: Competition, number: int, rng: random.Random, director: object) -> int:
    """One evening of `competition`; returns the rounds recorded."""
    matchday = swiss_matchday_pair(competition_id=competition.pk, number=number)
    recorded = 0
    games = list(Game.objects.filter(match__matchday=matchday).order_by("pk"))
    for game in games:
        for n, played in enumerate(random_game(rng), start=1):
            round_record(
                game_id=game.pk, expected_number=n, result=played["result"], side=played["side"]
            )
            recorded += 1
    corrected = 0
    rounds = Round.objects.filter(game__in=games, result="gewone_winst")
    for rnd in rounds.order_by("game_id", "number")[:: max(1, len(games) // CORRECTIONS)]:
        try:  # the other koppel won it; not when that ends the game earlier or reopens it
            with transaction.atomic():
                round_correct(
                    round_id=rnd.pk,
                    result="gewone_winst",
                    side="b" if rnd.side == "a" else "a",
                    seen=rnd.token,
                    user=director,
                )
                if Game.objects.get(pk=rnd.game_id).status == Game.Status.OPEN:
                    raise _RollBack
        except (RuleViolation, _RollBack):
            continue
        corrected += 1
        if corrected == CORRECTIONS:
            break
    games_accept_all(competition_id=competition.pk, user=director, matchday_id=matchday.pk)
    standings_rebuild(competition_id=competition.pk)  # the next evening pairs from it
    return recorded


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--koppels", type=int, default=40)
    parser.add_argument("--evenings", type=int, default=4)
    args = parser.parse_args(argv)
    call_command("migrate", verbosity=0)
    if Competition.objects.filter(slug=SLUG).exists():
        sys.exit(f"a competition {SLUG!r} exists already: not a run of this benchmark's own")
    rng = random.Random(SEED)
    try:
        with transaction.atomic():
            director = get_user_model().objects.create(username="history-growth-director")
            competition = competition_setup(args.koppels)
            rows, size = history_rows(), history_bytes()
            start_rows, start_size = rows, size
            for number in range(1, args.evenings + 1):
                recorded = evening(competition, number, rng, director)
                now_rows, now_size = history_rows(), history_bytes()
                added = now_rows - rows
                grown = "" if size is None or now_size is None else f", {now_size - size:,} bytes"
                print(
                    f"evening {number}: {args.koppels // 2} tables, {recorded} rounds: "
                    f"{sum(added.values()):,} history rows{grown} ({dict(sorted(added.items()))})"
                )
                rows, size = now_rows, now_size
            total = sum((rows - start_rows).values())
            print(f"per evening: {total / args.evenings:,.0f} history rows", end="")
            if size is not None and start_size is not None:
                print(f", {(size - start_size) / args.evenings:,.0f} bytes")
            else:
                print()
            raise _RollBack
    except _RollBack:
        pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
