"""Reads of scoring at the table: a table link by its token, the koppels that may enter, the
table's sheet, and the director's queue of disputes and unconfirmed results.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

from django.db.models import Exists, F, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce, Greatest
from django.utils import timezone

from scoring.engine_inputs import game_round_inputs
from scoring.models import Game, GameDispute, GameLink, Round
from scoring.rules import GameState, RuleSet, RuleViolation, replay
from scoring.selectors.sheet import SheetRow, game_next_caller, game_sheet
from tournaments.models import Competition
from tournaments.selectors import TEAM_JOINS
from troefclub.rule_messages import RESULT_LABELS

#
# The table's own phone page (a game's `GameLink`, no account) and the director's queue of
# disputes and long-unconfirmed results (issue 8), each in a constant number of queries.


def table_link(*, token: str) -> GameLink | None:
    """The active table link with `token`; None for an unknown or revoked one. One query
    (none for a token that can't be one)."""
    if not token or len(token) > cast(int, GameLink._meta.get_field("token").max_length):
        return None
    return GameLink.objects.filter(token=token, revoked_at__isnull=True).first()


def game_entering_koppels(*, game: Game) -> frozenset[str]:
    """The koppels ("a"/"b") that entered the stored rounds of `game` at the table: the
    sides of the links they came through. One query.

    That koppel enters the rounds and doesn't confirm or dispute them: the other koppel
    does, through its own link. A game entered by the director only has none, and either
    koppel may confirm it; a rejection (its rounds removed) frees it again.
    """
    return frozenset(
        GameLink.objects.filter(rounds__game=game).values_list("side", flat=True).distinct()
    )


@dataclass(frozen=True, slots=True)
class TableSheet:
    """What the table's phone shows of its game, besides the game itself.

    `lines` are the score sheet rows, each with its result in words; `seen` the
    `game_token` the page's forms send back; `next_caller` the player whose turn it is to
    call (None when unknown); `dispute` the open dispute; `entering` the koppels ("a"/"b")
    that entered rounds at the table (`game_entering_koppels`: they don't confirm);
    `engine` the game's rules and state for the phone's own copy of the scoring rules
    (`table_engine`).
    """

    lines: list[tuple[SheetRow, str]]
    seen: str
    next_caller: int | None
    dispute: GameDispute | None
    entering: frozenset[str]
    engine: dict[str, Any]

    @property
    def last_round(self) -> Round | None:
        return self.lines[-1][0].round if self.lines else None


def game_table_sheet(*, game: Game) -> TableSheet:
    """The table page's view of `game` (as `game_detail` reads it): three queries (the
    rounds, the open dispute, the koppels that entered rounds)."""
    from scoring.tokens import game_token  # tokens imports the models, as this module does

    rows = game_sheet(game=game)
    rounds = [row.round for row in rows]
    return TableSheet(
        engine=table_engine(game=game, rounds=rounds),
        lines=[(row, str(RESULT_LABELS.get(row.round.result, row.round.result))) for row in rows],
        seen=game_token(game, rounds),
        next_caller=game_next_caller(game=game, rounds=rounds),
        dispute=game.disputes.filter(resolved_at__isnull=True).first(),
        entering=game_entering_koppels(game=game),
    )


def table_engine(*, game: Game, rounds: Sequence[Round]) -> dict[str, Any]:
    """What the table phone's copy of the scoring rules (static/js/table_rules.js) needs to
    score the rounds it queues offline exactly as the engine will: the competition's rule
    set, the game's state after its stored `rounds` (in order) and the seated player ids
    (seats 1–4; None without seats). JSON-ready. `state` is None when the stored rounds
    no longer fit the rules (the phone then queues without a running score).
    """
    rules = game.match.matchday.competition.rule_set
    state: GameState | None
    try:
        state = replay(rules, game_round_inputs(game, rounds), first_caller=game.first_caller).state
        if game.status == Game.Status.CLOSED and not state.finished:
            state = state.close()  # the director's close, as `game_inputs_replay` keeps it
    except RuleViolation:
        state = None
    return {
        "rules": engine_rules(rules),
        "state": None if state is None else engine_state(state),
        "seats": list(game.seats) if None not in game.seats else None,
    }


def engine_rules(rules: RuleSet) -> dict[str, Any]:
    """A rule set as static/js/table_rules.js reads it: the options that change a round's
    points or whether it is allowed (RULES.md, "Rule-set options"). JSON-ready."""
    return {
        "target_score": rules.target_score,
        "fixed_rounds": rules.fixed_rounds,
        "kap_partner_allowed": rules.kap_partner_allowed,
        "early_kap_penalty": rules.early_kap_penalty,
        "stinkende_kap_bonus": rules.stinkende_kap_bonus,
        "stinkende_baunie_bonus": rules.stinkende_baunie_bonus,
        "redeal_allowed": rules.redeal_allowed,
        "callers_required": rules.callers_required,
    }


def engine_state(state: GameState) -> dict[str, Any]:
    """A `GameState` as the phone's rules copy takes it (JSON-ready)."""
    return {
        "score": [state.score.a, state.score.b],
        "rounds": state.rounds,
        "played": state.played,
        "caller": state.caller,
        "closed": state.closed,
    }


# What the director's queue shows of each game: its place and koppels' names.
QUEUE_GAME_JOINS = (
    "match__matchday",
    *(f"team_{side}__{join}" for side in "ab" for join in TEAM_JOINS),
)


@dataclass(frozen=True, slots=True)
class QueueGame:
    """A game in the director's queue: disputed at the table, or over and unconfirmed for
    too long. `changed_at` is when it last changed (the newest history record of it or of
    a round of it; None without history); `seen` its `game_token` for the queue's buttons."""

    game: Game
    dispute: GameDispute | None
    changed_at: datetime | None
    seen: str

    @property
    def corrected(self) -> bool:
        """The result changed after the dispute was raised: the director corrected it."""
        return (
            self.dispute is not None
            and self.changed_at is not None
            and self.changed_at > self.dispute.raised_at
        )

    @property
    def table(self) -> int:
        """The table the players know: a pairs match's own table, else the game's."""
        return self.game.match.table or self.game.table


@dataclass(frozen=True, slots=True)
class DirectorQueue:
    """The director's queue of a competition: open disputes (oldest first) and results
    over but unconfirmed for longer than the wait (the longest waiting first; only when
    the competition asks for confirmation)."""

    disputes: list[QueueGame]
    waiting: list[QueueGame]


def _game_changed_at(game: str = "pk") -> Greatest:
    """When the outer query's game (its field `game`) last changed: the newest history
    record of the game or of one of its rounds. Both: a write that leaves the game's own
    fields as they were (a caller corrected) writes only the round's record (issue 19)."""
    # The newest record is the last written (`history_id`): one probe of the indexes on
    # (id, history_id) and (game_id, history_id) (`troefclub.history`). Ordered by
    # `history_date`, PostgreSQL read a history table backwards by date and filtered,
    # whole tables for each game: minutes for the queue of a season (issue 22, seen when
    # the tables' statistics said they were empty).
    game_record = Subquery(
        Game.history.filter(id=OuterRef(game)).order_by("-history_id").values("history_date")[:1]
    )
    round_record = Subquery(
        Round.history.filter(game_id=OuterRef(game))
        .order_by("-history_id")
        .values("history_date")[:1]
    )
    # Either may be missing (SQLite's greatest of a NULL is NULL): each stands in for the other.
    return Greatest(Coalesce(game_record, round_record), Coalesce(round_record, game_record))


def director_queue(
    *, competition: Competition, wait: timedelta, now: datetime | None = None
) -> DirectorQueue:
    """The disputes and long-unconfirmed results of `competition` for its director.

    A result is waiting when it is over, not confirmed, not disputed, the competition asks
    for confirmation, and it has not changed for `wait` (the koppels had time to confirm
    it at the table). Three queries whatever the competition's size: the open disputes
    with their games, the waiting games, and their rounds (for the `seen` tokens).
    """
    from scoring.tokens import game_token  # tokens imports the models, as this module does

    cutoff = (now or timezone.now()) - wait
    in_competition = Game.objects.filter(match__matchday__competition=competition)
    disputes = list(
        GameDispute.objects.filter(
            resolved_at__isnull=True, game__match__matchday__competition=competition
        )
        .select_related(*(f"game__{join}" for join in QUEUE_GAME_JOINS))
        .annotate(changed_at=_game_changed_at("game_id"))
        .order_by("raised_at", "pk")
    )
    waiting_games: list[Game] = []
    if competition.confirmation_required:
        open_dispute = GameDispute.objects.filter(game=OuterRef("pk"), resolved_at__isnull=True)
        waiting_games = list(
            in_competition.filter(
                status__in=[Game.Status.FINISHED, Game.Status.CLOSED], confirmed_at__isnull=True
            )
            .exclude(Exists(open_dispute))
            .select_related(*QUEUE_GAME_JOINS)
            .annotate(changed_at=_game_changed_at())
            .filter(Q(changed_at__lte=cutoff) | Q(changed_at__isnull=True))
            .order_by(F("changed_at").asc(nulls_first=True), "pk")
        )
    rounds: dict[int, list[Round]] = defaultdict(list)
    ids = [dispute.game_id for dispute in disputes] + [game.pk for game in waiting_games]
    if ids:
        for rnd in Round.objects.filter(game_id__in=ids):
            rounds[rnd.game_id].append(rnd)

    def item(game: Game, dispute: GameDispute | None, changed_at: datetime | None) -> QueueGame:
        return QueueGame(game, dispute, changed_at, game_token(game, rounds[game.pk]))

    return DirectorQueue(
        disputes=[item(d.game, d, getattr(d, "changed_at", None)) for d in disputes],
        waiting=[item(game, None, getattr(game, "changed_at", None)) for game in waiting_games],
    )
