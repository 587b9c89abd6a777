"""Benchmark: the player ratings (issue 10: "the note gives the rating rebuild time for
100k rounds").

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/troefclub \\
        .venv/bin/python -m benchmarks.ratings [--koppels 1000] [--matchdays 15] [--repeat 3]

Works in a database of its own beside the one DATABASE_URL names, `<NAME>_ratings_bench`
(SQLite: a file in the benchmark cache folder), made, marked and migrated here when
missing; never in DATABASE_URL's own, and one of that name no benchmark made is refused
(`benchmarks.throwaway`, exit status 2). Celery runs eagerly. Imports the
generated competition of `--koppels` × `--matchdays` (benchmarks/generate.py: 1,000 × 15
is 7,500 games, about 98,000 rounds) when it is missing, and keeps it for the next run.
Then, each the median of `--repeat` runs, with the queries Django sent:

- `ratings_rebuild`: every counted game rated from scratch (committed);
- refresh, nothing changed: what the beat run and a coalesced task cost;
- refresh after one more finished game (a new matchday after the others, totals entered
  and committed first; the refresh that write queues is left to the measure): the
  incremental path, one game rated;
- refresh after the middle matchday's date changed (by a day, as in the admin): the games
  from there on rated again, about half;

and three floors in the same process, on the same data: the one query that reads what the
ratings need, `PlackettLuce.rate` over every game in memory (no database), and a
`bulk_create` of as many `RatedGame` + `RatingChange` + `PlayerRating` rows as a rebuild
writes (rolled back). Prints a markdown table (seconds, ratio to the sum of the floors).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "troefclub.settings")
os.environ.setdefault("SECRET_KEY", "benchmarks-ratings")
os.environ.setdefault("DEBUG", "false")
# Never the configured database, never a broker (issue 19, benchmarks/throwaway.py): its own
# database beside it, `<NAME>_ratings_bench`, made and marked when missing; Celery eager.
from benchmarks.throwaway import database_own  # noqa: E402

DATABASE = database_own(os.environ, "ratings")
django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection, models, transaction  # noqa: E402

from benchmarks.generate import FIRST_DATE, Size, document_path  # noqa: E402
from benchmarks.harness import say  # noqa: E402
from benchmarks.measures import Rollback, counting  # noqa: E402
from rankings import services  # noqa: E402
from rankings.models import PlayerRating, RatedGame, RatingChange  # noqa: E402
from rankings.services import MODEL, RANKS, rating_games  # noqa: E402
from rankings.tasks import ratings_refresh as ratings_refresh_task  # noqa: E402
from scoring.models import Game  # noqa: E402
from scoring.services.games import game_totals_enter  # noqa: E402
from scoring.tokens import game_token_now  # noqa: E402
from tournaments.models import Competition, Match, Matchday  # noqa: E402

Row = dict[str, Any]


def timed(run: Callable[[], Any], *, repeat: int, before: Callable[[], Any] | None = None) -> Row:
    """Median seconds of `repeat` calls of `run` (each after an untimed `before`), the
    queries of the last, and what the last returned."""
    seconds, queries, returned = [], 0, None
    for _ in range(repeat):
        if before is not None:
            before()
        with counting() as counter:
            started = time.perf_counter()
            returned = run()
            seconds.append(time.perf_counter() - started)
        queries = counter.count
    return {"seconds": statistics.median(seconds), "queries": queries, "result": returned}


def competition_ready(size: Size) -> Competition:
    """The generated competition, imported (and committed) when missing."""
    found = Competition.objects.filter(slug=size.slug).first()
    if found is not None:
        return found
    path = document_path(size)
    say(f"importing {path.name} (once; kept for the next run)")
    call_command("import_competition", str(path))
    return Competition.objects.get(slug=size.slug)


def one_more_game(competition: Competition) -> None:
    """A new matchday after the others with one game, over (totals), committed."""
    entries = list(competition.entries.select_related("team").order_by("pk")[:2])
    last = competition.matchdays.aggregate(models.Max("number"))["number__max"] or 0
    day = FIRST_DATE.replace(year=FIRST_DATE.year + 1)
    with transaction.atomic():
        matchday = Matchday.objects.create(competition=competition, number=last + 1, date=day)
        home, away = entries
        assert home.team is not None and away.team is not None
        match = Match.objects.create(matchday=matchday, home=home, away=away)
        game = Game.objects.create(match=match, team_a=home.team, team_b=away.team)
    game_totals_enter(game_id=game.pk, total_a=20, total_b=12, seen=game_token_now(game_id=game.pk))


def move_middle_matchday(competition: Competition, moves: list[int]) -> None:
    """The middle matchday's date one day later, then back (as the admin changes it): every
    game from there on is rated again, the ones before it not."""
    number = competition.matchdays.count() // 2
    matchday = competition.matchdays.get(number=number)
    assert matchday.date is not None
    moves[0] += 1
    shift = timedelta(days=1 if moves[0] % 2 else -1)
    Matchday.objects.filter(pk=matchday.pk).update(date=matchday.date + shift)


def floor_read(repeat: int) -> Row:
    return timed(lambda: len(rating_games()), repeat=repeat)


def floor_rate(repeat: int) -> Row:
    """openskill alone: every counted game rated in memory (the games read untimed)."""
    games = rating_games()

    def run() -> int:
        ratings: dict[int, Any] = {}
        for game in games:
            teams = [
                [ratings.get(p) or MODEL.rating() for p in game.a],
                [ratings.get(p) or MODEL.rating() for p in game.b],
            ]
            after = MODEL.rate(teams, ranks=list(RANKS[game.outcome]))
            ratings.update(zip(game.players, (*after[0], *after[1]), strict=True))
        return len(games)

    return timed(run, repeat=repeat)


def floor_write(repeat: int) -> Row:
    """A bulk_create of as many rows as the rebuild wrote (copies of them), rolled back."""
    games = list(RatedGame.objects.order_by("position").values_list("game_id", "signature"))
    changes = list(
        RatingChange.objects.order_by("rated_game__position").values_list(
            "rated_game__position", "player_id", "mu", "sigma"
        )
    )
    players = list(PlayerRating.objects.values_list("player_id", "mu", "sigma", "ordinal", "games"))

    def run() -> int:
        try:
            with transaction.atomic():
                RatingChange.objects.all().delete()
                RatedGame.objects.all().delete()
                PlayerRating.objects.all().delete()
                started = time.perf_counter()
                made = RatedGame.objects.bulk_create(
                    [
                        RatedGame(position=n, game_id=game, signature=signature)
                        for n, (game, signature) in enumerate(games, 1)
                    ],
                    batch_size=2000,
                )
                RatingChange.objects.bulk_create(
                    [
                        RatingChange(rated_game=made[position - 1], player_id=p, mu=mu, sigma=s)
                        for position, p, mu, s in changes
                    ],
                    batch_size=2000,
                )
                PlayerRating.objects.bulk_create(
                    [
                        PlayerRating(player_id=p, mu=mu, sigma=s, ordinal=o, games=n)
                        for p, mu, s, o, n in players
                    ],
                    batch_size=2000,
                )
                timings.append(time.perf_counter() - started)
                raise Rollback
        except Rollback:
            pass
        return len(games) + len(changes) + len(players)

    timings: list[float] = []
    row = timed(run, repeat=repeat)
    row["seconds"] = statistics.median(timings)  # the inserts only, not the deletes
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ratings")
    parser.add_argument("--koppels", type=int, default=1000)
    parser.add_argument("--matchdays", type=int, default=15)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)

    call_command("migrate", verbosity=0)
    # Celery is eager here: the refresh a write queues would run inside its commit, before
    # the measure. The measures call the service themselves.
    ratings_refresh_task.delay = lambda: None  # type: ignore[assignment,return-value]
    size = Size(koppels=args.koppels, matchdays=args.matchdays)
    competition = competition_ready(size)
    from scoring.models import Round

    rounds = Round.objects.count()
    counted = len(rating_games())
    say(f"{counted} counted games, {rounds} rounds in the database ({connection.vendor})")

    rows: dict[str, Row] = {}
    say("ratings_rebuild")
    rows["ratings_rebuild"] = timed(services.ratings_rebuild, repeat=args.repeat)
    say("refreshes")
    rows["refresh, nothing changed"] = timed(services.ratings_refresh, repeat=args.repeat)
    rows["refresh after one more finished game"] = timed(
        services.ratings_refresh, repeat=args.repeat, before=lambda: one_more_game(competition)
    )
    moves = [0]
    rows["refresh after the middle matchday's date changed"] = timed(
        services.ratings_refresh,
        repeat=args.repeat,
        before=lambda: move_middle_matchday(competition, moves),
    )
    say("floors")
    floors = {
        "floor: read the games (one query)": floor_read(args.repeat),
        "floor: openskill rate() of every game, in memory": floor_rate(args.repeat),
        "floor: bulk_create of the rows a rebuild writes": floor_write(args.repeat),
    }
    floor = sum(row["seconds"] for row in floors.values())
    services.ratings_refresh()  # leave the ratings as the data says

    print(f"\n{counted:,} counted games, {rounds:,} rounds, {connection.vendor}; "
          f"median of {args.repeat}\n")  # fmt: skip
    print("| measure | seconds | × floor sum | queries | games rated / rows |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, row in {**rows, **floors}.items():
        ratio = f"{row['seconds'] / floor:.2f}" if name in rows else ""
        print(f"| {name} | {row['seconds']:.3f} | {ratio} | {row['queries']} | {row['result']:,} |")
    print(f"| floor sum | {floor:.3f} | 1.00 | | |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
