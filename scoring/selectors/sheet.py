"""Reads of one game: its score sheet, the game page, the next caller, the set-up checks, and
the replay of every game of a competition under its rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Prefetch

from scoring.engine_inputs import game_round_inputs
from scoring.models import Game, Round
from scoring.rules import (
    Points,
    Replay,
    RuleSet,
    RuleViolation,
    check_game_totals,
    game_seating_check,
    koppel_club,
    replay,
)
from tournaments.models import Competition, Entry, Match, Player, Team


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
    """A game with its match, competition, koppels and seated players joined, in four small
    queries: the game with its match, matchday and competition; the match's two entries
    with their clubs; the (at most four) koppels; the (at most eight) players.

    Joining them all in one query (12 or more tables) cost PostgreSQL 3–13 ms of planning
    for a 0.5 ms execution (past `join_collapse_limit`, at `geqo_threshold`, issue 7), and
    the score sheet reads the game twice a saved round; four queries on primary keys
    plan in well under a millisecond.
    Raises Game.DoesNotExist.
    """
    game = Game.objects.select_related("match__matchday__competition").get(pk=game_id)
    match = game.match
    entries = Entry.objects.select_related("club").in_bulk([match.home_id, match.away_id])
    match.home, match.away = entries[match.home_id], entries[match.away_id]
    sides = (match.home, match.away)
    koppels = Team.objects.in_bulk(
        {game.team_a_id, game.team_b_id} | {e.team_id for e in sides if e.team_id is not None}
    )
    game.team_a, game.team_b = koppels[game.team_a_id], koppels[game.team_b_id]
    for entry in sides:
        if entry.team_id is not None:
            entry.team = koppels[entry.team_id]
    teams = list(koppels.values())
    seats = ("seat_1", "seat_2", "seat_3", "seat_4")
    wanted = {player_id for team in teams for player_id in (team.player_1_id, team.player_2_id)}
    wanted |= {getattr(game, f"{seat}_id") for seat in seats} - {None}
    players = Player.objects.in_bulk(wanted)
    for team in teams:
        team.player_1 = players[team.player_1_id]
        team.player_2 = players[team.player_2_id]
    for seat in seats:
        player_id = getattr(game, f"{seat}_id")
        if player_id is not None:
            setattr(game, seat, players[player_id])
    return game


# The columns of a game's own row that its writes change (rounds, totals, close and reopen,
# confirmations, seats); the rows `game_detail` joins (match, competition, koppels, players)
# are the same after any of them.
_GAME_OWN = (
    "status",
    "score_a",
    "score_b",
    "kaps_a",
    "kaps_b",
    "baunies_a",
    "baunies_b",
    "total_a",
    "total_b",
    "confirmed_at",
    "confirmed_by_id",
    "confirmed_side",
    "first_caller",
)
# What `game_detail` joined by: when one of these changed, the game is read whole again.
_GAME_JOINS = (
    "match_id",
    "team_a_id",
    "team_b_id",
    "seat_1_id",
    "seat_2_id",
    "seat_3_id",
    "seat_4_id",
)


def game_detail_again(*, game: Game) -> Game:
    """`game` as `game_detail` read it, after a write on it: its own row read again in
    one query and set on it (`game` is returned, updated), its match, competition,
    koppels and players kept. When its match, koppels or seats changed meanwhile (the
    seats set, the admin) it is read whole again (`game_detail`, four queries), as after
    a round before issue 20 every time.

    Raises Game.DoesNotExist (the game is gone: a lineup took its pairing away).
    """
    row = Game.objects.filter(pk=game.pk).values(*_GAME_OWN, *_GAME_JOINS).first()
    if row is None:
        raise Game.DoesNotExist(f"game {game.pk} is gone")
    if any(row[name] != getattr(game, name) for name in _GAME_JOINS):
        return game_detail(game_id=game.pk)
    for name in _GAME_OWN:
        setattr(game, name, row[name])
    return game


def game_next_caller(*, game: Game, rounds: Sequence[Round]) -> int | None:
    """The player id whose turn it is to call the next round (RULES.md "Who calls next").

    `rounds` are the game's stored rounds in order. None while the rotation is unknown
    (no caller recorded yet, no seats) or the game is over.
    """
    if None in game.seats:
        return None
    try:
        state = replay(
            game.match.matchday.competition.rule_set,
            game_round_inputs(game, rounds),
            first_caller=game.first_caller,
        )
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
            game_replay = replay(
                rules, game_round_inputs(game, rounds), first_caller=game.first_caller
            )
            if game.status == Game.Status.CLOSED and not game_replay.state.finished:
                game_replay = Replay(state=game_replay.state.close(), points=game_replay.points)
        except RuleViolation as exc:
            raise exc.at(game=game.pk) from None
        replayed.append((game, rounds, game_replay))
    return replayed


def game_setup_check(
    *,
    match: Match,
    team_a: Team,
    team_b: Team,
    seats: Sequence[Player | None],
    game: Game | None = None,
    table: int | None = None,
    sitting: int | None = None,
) -> bool:
    """Check who plays a game before it is saved; returns whether koppel A plays for home.

    Koppel A and B are the match's two koppels (pairs) or one koppel of each club (club
    match); seats are all four players clockwise or none, seats 1 and 3 being koppel A
    (RULES.md "Terms"): the engine's `game_seating_check`, which the importer uses too; a
    match with reported totals takes no games; a pairs game sits at its match's table in
    sitting 1, a club-match game within the competition's sittings and tables; and once a
    game has rounds, its match, koppels and seats stay as they are (the rounds depend on
    them).

    Raises RuleViolation: `match_reported_totals`, `game_same_koppel`,
    `koppel_not_in_match` (param koppel: its name), `game_koppels_share_player` (param
    player: its name), `seat_player_twice` (params player, first_seat, seat),
    `seats_incomplete`, `seats_do_not_fit`, `game_place_not_in_match` (params table,
    sitting), `game_has_rounds_setup`.
    """
    if match.total_home is not None:
        raise RuleViolation("match_reported_totals")
    competition = match.matchday.competition
    if table is not None and sitting is not None:
        if competition.kind == Competition.Kind.PAIRS:
            fits = sitting == 1 and (match.table is None or table == match.table)
        else:
            fits = sitting <= competition.sittings and table <= competition.koppels_per_side
        if not fits:
            raise RuleViolation("game_place_not_in_match", table=table, sitting=sitting)
    home, away = match.home, match.away
    entries: tuple[int | None, int | None]
    plays_for: tuple[int | None, int | None]
    if home.team_id is not None:  # a pairs match: a koppel is its own entry
        entries, plays_for = (home.team_id, away.team_id), (team_a.pk, team_b.pk)
    else:  # a club match: a koppel plays for its players' club
        entries = (home.club_id, away.club_id)
        plays_for = (
            koppel_club((team_a.player_1.club_id, team_a.player_2.club_id)),
            koppel_club((team_b.player_1.club_id, team_b.player_2.club_id)),
        )
    # One player, one place (issue 6): named, so the message says who.
    named_players = {
        player.pk: str(player)
        for player in (team_a.player_1, team_a.player_2, team_b.player_1, team_b.player_2)
    }
    named_players.update((seat.pk, str(seat)) for seat in seats if seat is not None)
    try:
        a_is_home = game_seating_check(
            *entries,
            team_a,
            team_b,
            plays_for=plays_for,
            players=(team_a.player_ids, team_b.player_ids),
            seats=[seat.pk if seat is not None else None for seat in seats],
        )
    except RuleViolation as exc:
        params = dict(exc.params)
        if "koppel" in params:
            params["koppel"] = str(params["koppel"])
        if "player" in params:
            params["player"] = named_players.get(params["player"], params["player"])
        raise RuleViolation(exc.code, **params) from None

    if game is not None and game.pk is not None and game.rounds.exists():
        stored = Game.objects.get(pk=game.pk)
        before = (stored.match_id, stored.team_a_id, stored.team_b_id, stored.seats)
        after = (
            match.pk,
            team_a.pk,
            team_b.pk,
            tuple(seat.pk if seat else None for seat in seats),
        )
        if before != after:
            raise RuleViolation("game_has_rounds_setup")
    return a_is_home
