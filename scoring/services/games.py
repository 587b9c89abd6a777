"""Writes of a game as a whole: its state from the engine's replay, close and reopen, seats
and first caller, entered totals (of a game or a match), and the re-scoring of every game
of a competition after a rule change.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction

from scoring.engine_inputs import game_round_inputs
from scoring.models import Game, Round
from scoring.rules import (
    Replay,
    RoundInput,
    RuleViolation,
    check_game_totals,
    check_match_totals,
    replay,
)
from scoring.selectors.sheet import competition_games_replay, game_setup_check
from scoring.services.disputes import dispute_corrected_if_open
from scoring.services.matches import match_not_voided
from scoring.services.refresh import standings_refresh_on_commit
from scoring.tokens import game_token, match_token
from tournaments.models import Competition, Match, Player, Team
from troefclub.reader_cache import competition_scope, reader_cache_bump_on_commit


def game_locked(game_id: int) -> Game:
    # One writer per game: two phones at one table can't both add round 6, and a correction
    # can't interleave with a new round. `of=("self",)` keeps the competition row unlocked so
    # the other tables of the evening are not serialised behind this one.
    try:
        game = (
            Game.objects.select_for_update(of=("self",))
            .select_related("match__matchday__competition")
            .get(pk=game_id)
        )
    except Game.DoesNotExist:
        raise RuleViolation("game_unknown", game=game_id) from None
    # A voided game (or one of a voided match) is the record of what was voided: it takes
    # no more rounds, corrections or confirmations (issue 22; its replay is another game).
    if game.voided_at is not None or game.match.voided_at is not None:
        raise RuleViolation("game_voided")
    return game


def game_inputs_replay(
    game: Game, inputs: Sequence[RoundInput], *, keep_closed: bool = True
) -> Replay:
    """Replay `inputs` under the game's competition rules, from the game's first caller
    (set with the seats, `game_seats_set`); a director's close survives."""
    result = replay(
        game.match.matchday.competition.rule_set, inputs, first_caller=game.first_caller
    )
    if keep_closed and game.status == Game.Status.CLOSED and not result.state.finished:
        result = Replay(state=result.state.close(), points=result.points)
    return result


def game_state_set(game: Game, replay: Replay) -> None:
    """Set `game`'s derived fields (score, kaps, baunies, status) from the engine's replay;
    not saved. Shared by `game_state_store` and the bulk importer (`interchange.load`).
    """
    state = replay.state
    game.score_a, game.score_b = state.score.a, state.score.b
    game.kaps_a, game.kaps_b = state.kaps.a, state.kaps.b
    game.baunies_a, game.baunies_b = state.baunies.a, state.baunies.b
    if state.closed:
        game.status = Game.Status.CLOSED
    elif state.finished:
        game.status = Game.Status.FINISHED
    else:
        game.status = Game.Status.OPEN


# What `game_state_store` writes: the game's state, and its confirmation when it changed.
_STATE_FIELDS = ("score_a", "score_b", "kaps_a", "kaps_b", "baunies_a", "baunies_b", "status")
_CONFIRMATION_FIELDS = ("confirmed_at", "confirmed_by_id", "confirmed_side")


def game_state_store(game: Game, replay: Replay) -> bool:
    """Store `replay`'s state on locked `game` (`game_state_set`); a confirmed result that
    this changes must be confirmed again. Saves only the fields that changed, and nothing
    when none did (issue 19: a write that changes nothing writes nothing; a round that
    scores nothing, a rule change that re-scores no game). Returns whether it saved."""
    fields = (*_STATE_FIELDS, *_CONFIRMATION_FIELDS)
    before = {name: getattr(game, name) for name in fields}
    game_state_set(game, replay)
    if game.confirmed_at is not None and any(
        before[name] != getattr(game, name) for name in ("score_a", "score_b", "status")
    ):
        # A confirmed result that a correction changed must be confirmed again.
        game.confirmed_at, game.confirmed_by, game.confirmed_side = None, None, ""
    changed = [name.removesuffix("_id") for name in fields if before[name] != getattr(game, name)]
    if changed:
        game.save(update_fields=changed)
    return bool(changed)


def _game_refresh_needed(game: Game, before: str) -> bool:
    """Whether a write that took locked `game` from status `before` to `game.status` can
    move its competition's standings. Issue 7: most rounds can't, and then the write
    neither marks the standings stale nor queues a refresh.

    The standings read a game only through its match, and only once the match counts:
    forfeited, reported, or every game over and confirmed if required
    (`competition_standings_inputs`); a bye counts once its matchday has a game over
    (`matchday_results`). A write that leaves the game OPEN before and after (a round that
    doesn't end it, a correction, delete or undo inside an open game, rounds loaded that
    don't end it) changes nothing they read: the match has an open game before and after,
    and the game is no finished game of its matchday. The exception is a forfeited match,
    whose outcome still counts the kaps and baunies of all its games
    (`competition_match_sums`). Every other game write (to or from OPEN, between FINISHED
    and CLOSED, on an over game) can move them; so can confirmations, totals and writes on
    matches, byes, deductions and the schedule, which call `standings_refresh_on_commit`
    directly.

    The forfeit is the one read with the game lock (no extra query, no match lock: the
    schedule services lock a match before its games). A forfeit committed while this write
    is in flight may be refreshed without this write's kap or baunie of an open game; the
    next refresh of the competition counts it.
    """
    if before != Game.Status.OPEN or game.status != Game.Status.OPEN:
        return True
    return bool(game.match.forfeit)


def game_refresh_on_commit(game: Game, before: str) -> None:
    """`standings_refresh_on_commit` for a write on locked `game` when it can move the
    standings (`_game_refresh_needed`); `before` is the game's status before the write.
    Either way the competition's reader pages are bumped on commit (`troefclub.reader_cache`):
    a matchday's page and the hall display show an open game's score."""
    competition_id = game.match.matchday.competition_id
    reader_cache_bump_on_commit(competition_scope(competition_id))
    if _game_refresh_needed(game, before):
        standings_refresh_on_commit(competition_id)


def round_points_sync(rounds: Sequence[Round], replay: Replay) -> None:
    changed = []
    for rnd, points in zip(rounds, replay.points, strict=True):
        if (rnd.points_a, rnd.points_b) != (points.a, points.b):
            rnd.points_a, rnd.points_b = points.a, points.b
            changed.append(rnd)
    for rnd in changed:
        rnd.save(update_fields=["points_a", "points_b"])


def game_write_needed(game: Game, rounds: Sequence[Round], seen: str, *, done: bool) -> bool:
    """Whether a write on `game` goes ahead. The form must have seen the game as it is now
    (`seen` is its `game_token`), except when what it asks is `done` already: then a stale
    form (the button pressed twice) is answered with False, nothing to write.

    Raises RuleViolation: `game_changed_meanwhile`.
    """
    if seen == game_token(game, rounds):
        return True
    if done:
        return False
    raise RuleViolation("game_changed_meanwhile")


def game_close_replay(game: Game, replay: Replay) -> Replay:
    """`replay` (of `game`'s rounds, by the engine) as the director's close leaves it. Shared
    by `game_close` and the bulk importer (`interchange.load`).

    Raises RuleViolation: `game_finished` (entered totals, or over already),
    `close_not_allowed`.
    """
    if game.by_totals:  # a game entered as totals has no rounds: replaying them raised nothing
        raise RuleViolation("game_finished", score_a=game.score_a, score_b=game.score_b)
    return Replay(state=replay.state.close(), points=replay.points)


@transaction.atomic
def game_close(*, game_id: int, seen: str) -> Game:
    """End a game before its natural end, as the director does at a time limit.

    `seen` (required) is the `game_token` the director's page showed: a game changed
    meanwhile is not closed unseen. A stale form on a game closed already (the button
    pressed twice) changes nothing.

    Raises RuleViolation: `game_unknown`, `game_changed_meanwhile`, `close_not_allowed`,
    `game_finished`.
    """
    game = game_locked(game_id)
    rounds = list(game.rounds.order_by("number"))
    if not game_write_needed(game, rounds, seen, done=game.status == Game.Status.CLOSED):
        return game
    replay = game_inputs_replay(game, game_round_inputs(game, rounds))
    game_state_store(game, game_close_replay(game, replay))
    standings_refresh_on_commit(game.match.matchday.competition_id)
    return game


@transaction.atomic
def game_reopen(*, game_id: int, seen: str, user: Any = None) -> Game:
    """Undo a director's close (or clear entered totals): the game is open again.

    `seen` (required) is the `game_token` the director's page showed: a game changed
    meanwhile is not reopened unseen. A stale form on a game open already (the button
    pressed twice) changes nothing. A disputed game has its dispute decided as corrected by
    director `user` (`dispute_corrected_if_open`).

    Raises RuleViolation: `game_unknown`, `game_changed_meanwhile`, `game_not_closed`.
    """
    game = game_locked(game_id)
    rounds = list(game.rounds.order_by("number"))
    already_open = game.status == Game.Status.OPEN and not game.by_totals
    if not game_write_needed(game, rounds, seen, done=already_open):
        return game
    if game.by_totals:
        game.total_a = game.total_b = None
        game.save(update_fields=["total_a", "total_b"])
    elif game.status != Game.Status.CLOSED:
        raise RuleViolation("game_not_closed")
    replay = game_inputs_replay(game, game_round_inputs(game, rounds), keep_closed=False)
    status_before = game.status
    game_state_store(game, replay)
    game_refresh_on_commit(game, status_before)
    dispute_corrected_if_open(game, user)
    return game


def game_seats_token(game: Game, rounds: Sequence[Round]) -> str:
    """The token of a game's seating as its score sheet shows it: the `game_token` (the
    seats can't change once a round exists) and the four seats and the first caller."""
    values = (*game.seats, game.first_caller)
    seating = ".".join("" if value is None else str(value) for value in values)
    return f"{game_token(game, rounds)}:{seating}"


@transaction.atomic
def game_seats_set(
    *, game_id: int, seats: Sequence[int | None], first_caller: int | None, seen: str
) -> Game:
    """Seat the four players of a game and say which seat calls round 1, before it starts.

    `seats` are four player ids clockwise, seats 1 and 3 koppel A's two players and seats 2
    and 4 koppel B's (RULES.md "Terms"), or four Nones to clear them; `first_caller` is
    the seat (1-4) found by dealing until a jack (RULES.md "Who calls next"), or None
    while not known. From it the engine checks and proposes every caller
    (`game_inputs_replay`, `selectors.game_next_caller`). `seen` (required) is the
    `game_seats_token` the sheet showed: seats changed or rounds entered meanwhile are
    not overwritten; the same form sent twice finds its seats stored and changes nothing.
    Who may sit is `selectors.game_setup_check`, as in the admin.

    Raises RuleViolation: `game_unknown`, `game_changed_meanwhile`, `game_has_rounds_setup`
    (rounds depend on the seats), `seats_incomplete`, `seats_do_not_fit`,
    `seat_player_twice`, `game_koppels_share_player`, `seat_invalid` (param seat: a first
    caller outside 1-4), `seats_required` (a first caller without seats),
    `match_reported_totals`.
    """
    game = game_locked(game_id)
    rounds = list(game.rounds.order_by("number"))
    wanted = tuple(seats)
    if len(wanted) != 4:
        raise RuleViolation("seats_incomplete")
    if (game.seats, game.first_caller) == (wanted, first_caller):
        return game  # stored already (the form sent twice): nothing to change
    if seen != game_seats_token(game, rounds):
        raise RuleViolation("game_changed_meanwhile")
    if rounds:
        raise RuleViolation("game_has_rounds_setup")
    if first_caller is not None:
        if isinstance(first_caller, bool) or first_caller not in (1, 2, 3, 4):
            raise RuleViolation("seat_invalid", seat=first_caller)
        if None in wanted:
            raise RuleViolation("seats_required")
    players = Player.objects.in_bulk([pk for pk in wanted if pk is not None])
    if len(players) != len({pk for pk in wanted if pk is not None}):
        raise RuleViolation("seats_do_not_fit")  # an id that is nobody's: not their player
    match = Match.objects.select_related(
        "matchday__competition",
        "home__team__player_1",
        "home__team__player_2",
        "away__team__player_1",
        "away__team__player_2",
    ).get(pk=game.match_id)
    koppels = Team.objects.select_related("player_1", "player_2").in_bulk(
        [game.team_a_id, game.team_b_id]
    )
    # `game=None`: the rounds were refused above, so the "rounds exist" check is done.
    game_setup_check(
        match=match,
        team_a=koppels[game.team_a_id],
        team_b=koppels[game.team_b_id],
        seats=[players[pk] if pk is not None else None for pk in wanted],
    )
    game.seat_1_id, game.seat_2_id, game.seat_3_id, game.seat_4_id = wanted
    game.first_caller = first_caller
    game.save(update_fields=["seat_1", "seat_2", "seat_3", "seat_4", "first_caller"])
    return game


def game_totals_set(game: Game, total_a: int, total_b: int) -> None:
    """Set `game` to the final totals given (not saved), once the engine found them
    plausible (`check_game_totals`, RULES.md points). Shared by `game_totals_enter` and the
    bulk importer (`interchange.load`).

    Raises RuleViolation: the `check_game_totals` codes.
    """
    check_game_totals(total_a, total_b, game.match.matchday.competition.rule_set)
    game.total_a, game.total_b = total_a, total_b
    game.score_a, game.score_b = total_a, total_b
    game.kaps_a = game.kaps_b = game.baunies_a = game.baunies_b = 0
    game.status = Game.Status.FINISHED
    # New totals need a new confirmation.
    game.confirmed_at, game.confirmed_by, game.confirmed_side = None, None, ""


@transaction.atomic
def game_totals_enter(*, game_id: int, total_a: int, total_b: int, seen: str) -> Game:
    """Record a game known only by its final totals (a paper sheet); the game is over.

    `seen` (required) is the `game_token` the director's page showed (an import passes
    the token of the game it has just made): totals or rounds entered meanwhile are not
    overwritten. Totals stored already (a form sent twice, stale or not) change nothing.
    Checked for plausibility (RULES.md points; DESIGN.md: "a team total of 1 or
    3 can't happen").

    Raises RuleViolation: `game_unknown`, `game_changed_meanwhile`, `game_has_rounds`,
    and the `check_game_totals` codes.
    """
    game = game_locked(game_id)
    if (game.total_a, game.total_b) == (total_a, total_b):
        return game  # stored already (sent twice, or the same totals again): nothing to write
    rounds = list(game.rounds.order_by("number"))
    if seen != game_token(game, rounds):
        raise RuleViolation("game_changed_meanwhile")
    if rounds:
        raise RuleViolation("game_has_rounds")
    game_totals_set(game, total_a, total_b)
    game.save()
    standings_refresh_on_commit(game.match.matchday.competition_id)
    return game


@transaction.atomic
def match_totals_enter(*, match_id: int, total_home: int, total_away: int, seen: str) -> Match:
    """Record a match known only as reported totals (a newspaper result).

    `seen` (required) is the `match_token` the director's page showed (an import passes
    the token of the match it has just made): totals, games or a forfeit entered
    meanwhile are not overwritten. Totals stored already (a form sent twice, stale or not)
    change nothing: no history row, no refresh.

    Raises RuleViolation: `match_unknown`, `match_voided`, `match_changed_meanwhile`,
    `match_has_games`, and the `check_match_totals` codes.
    """
    try:
        match = (
            Match.objects.select_for_update(of=("self",))
            .select_related("matchday__competition")
            .get(pk=match_id)
        )
    except Match.DoesNotExist:
        raise RuleViolation("match_unknown", match=match_id) from None
    match_not_voided(match)
    if (match.total_home, match.total_away) == (total_home, total_away):
        return match  # stored already (sent twice, or the same totals again): nothing to write
    game_ids = list(match.games.values_list("pk", flat=True))
    if seen != match_token(match, game_ids):
        raise RuleViolation("match_changed_meanwhile")
    if game_ids:
        raise RuleViolation("match_has_games")
    check_match_totals(total_home, total_away, match.matchday.competition.rule_set)
    match.total_home, match.total_away = total_home, total_away
    match.save(update_fields=["total_home", "total_away"])
    standings_refresh_on_commit(match.matchday.competition_id)
    return match


@transaction.atomic
def competition_games_rescore(*, competition_id: int) -> int:
    """Re-score every game of a competition under its current rules; returns games changed
    (their score or status).

    Run after a league admin changes the rule options, so stored points, game status and
    standings follow the new rules. All the competition's games are locked first. Only the
    rounds and games whose stored values change are saved, and the standings refresh is
    queued only when a game changed (issue 19: a rule change that re-scores no game wrote a
    history row for every game).

    Raises RuleViolation from the first game that the new rules break (`game` = its id,
    `round` when a round breaks them); then nothing is changed.
    """
    competition = Competition.objects.get(pk=competition_id)
    # Lock every game: no round may be added under the old rules while we re-score.
    list(
        Game.objects.select_for_update(of=("self",))
        .filter(match__matchday__competition=competition)
        .values_list("pk", flat=True)
    )
    changed = 0
    saved = False
    for game, rounds, game_replay in competition_games_replay(
        competition=competition, rules=competition.rule_set
    ):
        if game_replay is None:
            continue
        before = (game.score_a, game.score_b, game.status)
        round_points_sync(rounds, game_replay)
        saved |= game_state_store(game, game_replay)
        changed += before != (game.score_a, game.score_b, game.status)
    if saved:
        standings_refresh_on_commit(competition_id)
    return changed
