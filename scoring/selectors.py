"""Reads with logic: standings inputs and tables, game sheets. Each owns its joins."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Max, Prefetch, QuerySet

from scoring.models import Game, Round, Standing
from scoring.rules import (
    MatchOutcome,
    Points,
    Replay,
    Result,
    RoundInput,
    RuleSet,
    RuleViolation,
    Side,
    check_game_totals,
    replay,
)
from tournaments.models import Competition, Entry, Match


def competition_entries(*, competition: Competition) -> list[Entry]:
    """The entries of a competition, ordered by name (the order inside a full tie)."""
    entries = list(competition.entries.select_related("team__player_1", "team__player_2", "club"))
    return sorted(entries, key=lambda entry: (str(entry).casefold(), entry.pk))


@dataclass(frozen=True, slots=True)
class MatchScore:
    """A match's score so far: game points summed over its games, home and away.

    `*_kaps` / `*_baunies` count rounds won as kap (or kap_partner) / baunie per side;
    a match with reported totals has no games and so no kaps.
    """

    home_id: int
    away_id: int
    home: int = 0
    away: int = 0
    games: int = 0
    open_games: int = 0
    reported: bool = False
    home_kaps: int = 0
    away_kaps: int = 0
    home_baunies: int = 0
    away_baunies: int = 0

    @property
    def finished(self) -> bool:
        return self.reported or (self.games > 0 and self.open_games == 0)


def competition_match_scores(*, competition: Competition) -> dict[int, MatchScore]:
    """Every match's score by match id, in two queries (games, then matches)."""
    sums: dict[int, list[int]] = defaultdict(lambda: [0] * 8)
    games = Game.objects.filter(match__matchday__competition=competition).values_list(
        "match_id",
        "a_is_home",
        "status",
        "score_a",
        "score_b",
        "kaps_a",
        "kaps_b",
        "baunies_a",
        "baunies_b",
    )
    for match_id, a_is_home, status, *per_team in games:
        row = sums[match_id]
        # per_team is (score, kaps, baunies) for a then b, interleaved: a, b, a, b, a, b.
        pairs = list(zip(per_team[0::2], per_team[1::2], strict=True))
        for index, (value_a, value_b) in enumerate(pairs):
            home, away = (value_a, value_b) if a_is_home else (value_b, value_a)
            row[2 * index] += home
            row[2 * index + 1] += away
        row[6] += 1
        row[7] += status == Game.Status.OPEN
    scores: dict[int, MatchScore] = {}
    matches = Match.objects.filter(matchday__competition=competition).values_list(
        "pk", "home_id", "away_id", "total_home", "total_away"
    )
    for pk, home_id, away_id, total_home, total_away in matches:
        if total_home is not None and total_away is not None:
            scores[pk] = MatchScore(home_id, away_id, total_home, total_away, reported=True)
            continue
        home, away, home_kaps, away_kaps, home_baunies, away_baunies, count, open_count = sums[pk]
        scores[pk] = MatchScore(
            home_id,
            away_id,
            home,
            away,
            count,
            open_count,
            False,
            home_kaps,
            away_kaps,
            home_baunies,
            away_baunies,
        )
    return scores


def competition_match_outcomes(*, competition: Competition) -> list[MatchOutcome]:
    """The finished matches of a competition as engine input, in two queries.

    A match counts once it has reported totals, or games that are all over; a match with
    an open game, or with no games and no totals, doesn't count yet.
    """
    return [
        MatchOutcome(
            home=score.home_id,
            away=score.away_id,
            home_points=score.home,
            away_points=score.away,
            home_kaps=score.home_kaps,
            away_kaps=score.away_kaps,
            home_baunies=score.home_baunies,
            away_baunies=score.away_baunies,
        )
        for score in competition_match_scores(competition=competition).values()
        if score.finished
    ]


def competition_standings(*, competition: Competition) -> QuerySet[Standing]:
    """The stored standings rows, best first, with their entries' names joined."""
    return (
        Standing.objects.filter(competition=competition)
        .select_related("entry__team__player_1", "entry__team__player_2", "entry__club")
        .order_by("rank", "entry__team__key", "entry__club__name")
    )


def competition_standings_as_of(*, competition: Competition) -> datetime | None:
    """When the stored standings were computed; None when never."""
    stamp: datetime | None = Standing.objects.filter(competition=competition).aggregate(
        stamp=Max("computed_at")
    )["stamp"]
    return stamp


def competition_open_games(*, competition: Competition) -> int:
    """How many games of the competition are still in play."""
    return Game.objects.filter(
        match__matchday__competition=competition, status=Game.Status.OPEN
    ).count()


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One line of a score sheet: the round and the running score after it."""

    round: Round
    running: Points


def game_sheet(*, game: Game) -> list[SheetRow]:
    """The game's rounds in order, each with the running totals after it."""
    rows = []
    running = Points()
    for rnd in game.rounds.select_related("caller").order_by("number"):
        running = running + Points(rnd.points_a, rnd.points_b)
        rows.append(SheetRow(round=rnd, running=running))
    return rows


def game_detail(*, game_id: int) -> Game:
    """A game with its match, competition, koppels and seated players joined.

    Raises Game.DoesNotExist.
    """
    return Game.objects.select_related(
        "match__matchday__competition",
        "match__home__team",
        "match__home__club",
        "match__away__team",
        "match__away__club",
        "team_a__player_1",
        "team_a__player_2",
        "team_b__player_1",
        "team_b__player_2",
        "seat_1",
        "seat_2",
        "seat_3",
        "seat_4",
    ).get(pk=game_id)


def round_input(
    game: Game, *, result: str, side: str, caller_id: int | None, tricks: tuple[int, int] | None
) -> RoundInput:
    """A round as the engine takes it: result and side parsed, the caller as a seat (1–4).

    Raises RuleViolation: `result_unknown`, `seats_required` (a caller but no seats),
    `caller_not_at_table`.
    """
    try:
        result_value, side_value = Result(result), Side(side)
    except ValueError:
        raise RuleViolation("result_unknown", result=result, side=side) from None
    seat = None
    if caller_id is not None:
        seats = game.seats
        if None in seats:
            raise RuleViolation("seats_required")
        if caller_id not in seats:
            raise RuleViolation("caller_not_at_table", caller=caller_id)
        seat = seats.index(caller_id) + 1
    return RoundInput(result=result_value, side=side_value, caller=seat, tricks=tricks)


def game_round_inputs(game: Game, rounds: Sequence[Round]) -> list[RoundInput]:
    """The stored `rounds` of `game`, in the order given, as engine input."""
    return [
        round_input(game, result=r.result, side=r.side, caller_id=r.caller_id, tricks=r.tricks)
        for r in rounds
    ]


def game_next_caller(*, game: Game, rounds: Sequence[Round]) -> int | None:
    """The player id whose turn it is to call the next round (RULES.md "Who calls next").

    `rounds` are the game's stored rounds in order. None while the rotation is unknown
    (no caller recorded yet, no seats) or the game is over.
    """
    if None in game.seats:
        return None
    try:
        state = replay(game.match.matchday.competition.rule_set, game_round_inputs(game, rounds))
    except RuleViolation:
        return None  # stored rounds that no longer fit the rules: nobody to propose
    if state.state.finished or state.state.caller is None:
        return None
    return game.seats[state.state.caller - 1]


def competition_games_replay(
    *, competition: Competition, rules: RuleSet
) -> list[tuple[Game, list[Round], Replay | None]]:
    """Every game of a competition replayed under `rules`, in two queries.

    Returns (game, its rounds in order, the replay) per game; the replay is None for a game
    entered as totals (those are checked with `check_game_totals`). Used to try a change
    of rules before saving it, and to re-score the games after it.

    Raises RuleViolation from the first game that breaks `rules`, with `game` (its id) and,
    for a round, `round` added to the params.
    """
    games = list(
        Game.objects.filter(match__matchday__competition=competition)
        .select_related("match__matchday")
        .prefetch_related(Prefetch("rounds", queryset=Round.objects.order_by("number")))
        .order_by("match__matchday__number", "match_id", "sitting", "table")
    )
    replayed: list[tuple[Game, list[Round], Replay | None]] = []
    for game in games:
        rounds = list(game.rounds.all())
        try:
            if game.total_a is not None and game.total_b is not None:
                check_game_totals(game.total_a, game.total_b, rules)
                replayed.append((game, rounds, None))
                continue
            played = replay(rules, game_round_inputs(game, rounds))
            if game.status == Game.Status.CLOSED and not played.state.finished:
                played = Replay(state=played.state.close(), points=played.points)
        except RuleViolation as exc:
            raise exc.at(game=game.pk) from None
        replayed.append((game, rounds, played))
    return replayed
