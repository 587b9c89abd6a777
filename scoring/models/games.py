"""A game (two koppels at one table, in one sitting of a match) and its rounds (one deal
each, with its result, side, caller and tricks).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from scoring.rules import Result, Side
from tournaments.models import Competition, Match, Player, Team, match_counts_q
from troefclub.history import HistoricalRecords
from troefclub.rule_messages import RESULT_LABELS


def _seats_differ(first: str, second: str) -> Q:
    """Seat `first` and `second` differ, or one is empty (a NULL compares to nothing)."""
    return (
        Q(**{f"{first}__isnull": True})
        | Q(**{f"{second}__isnull": True})
        | ~Q(**{first: models.F(second)})
    )


SEATS_DISTINCT = (
    _seats_differ("seat_1", "seat_2")
    & _seats_differ("seat_1", "seat_3")
    & _seats_differ("seat_1", "seat_4")
    & _seats_differ("seat_2", "seat_3")
    & _seats_differ("seat_2", "seat_4")
    & _seats_differ("seat_3", "seat_4")
)


def game_counts_q(prefix: str = "", *, match: bool = True) -> Q:
    """The condition "this game counts" (standings, rankings, ratings, highlights,
    profiles), as a `Q` on `Game` or, with `prefix` ("games__"), through a relation: the
    game is not voided and its match counts (`tournaments.models.match_counts_q`: the one
    definition of a counting match, issue 22). `match=False` leaves the match out, for a
    reader that starts from matches already counting (the standings' sums). Whether the
    game is over (and confirmed) is the reader's business
    (`scoring.selectors.counted.games_counted`)."""
    own = Q(**{f"{prefix}voided_at__isnull": True})
    return own & match_counts_q(f"{prefix}match__") if match else own


def game_counts_sql(alias: str) -> str:
    """`game_counts_q` for the game's own row, as SQL on the game table aliased `alias`;
    a statement joining the match adds `tournaments.models.match_counts_sql` for it."""
    return f"{alias}.voided_at IS NULL"


class GameQuerySet(models.QuerySet["Game"]):
    """`Game.objects`: `counting()` is the games that count (`game_counts_q`)."""

    def counting(self) -> GameQuerySet:
        """The games that count anywhere: neither the game nor its match voided."""
        return self.filter(game_counts_q())


class Game(models.Model):
    """Two koppels at one table in one sitting of a match.

    A voided game (`voided_at`, `void_reason`, `voided_by`: issue 22) stays on its match's
    page and in the history, but counts nowhere, its match's total included
    (`game_counts_q`).

    `seat_1..4` are the players clockwise (seats 1 and 3 are `team_a`), needed when callers
    are recorded. `total_a/b` hold totals entered instead of rounds. `score_*`, `kaps_*`,
    `baunies_*` and `status` are derived by the services from the rounds (or the totals).
    """

    class Status(models.TextChoices):
        OPEN = "open", _("In play")
        FINISHED = "finished", _("Finished")
        CLOSED = "closed", _("Closed by the director")

    match = models.ForeignKey(
        Match,
        on_delete=models.PROTECT,
        related_name="games",
        verbose_name=_("match"),
        help_text=_("The match this game counts for (a pairs match has exactly one game)."),
    )
    table = models.PositiveSmallIntegerField(
        _("table"), default=1, help_text=_("The table number the game is played at.")
    )
    sitting = models.PositiveSmallIntegerField(
        _("sitting"),
        default=1,
        help_text=_("Club matches: the sitting (1, 2, …) of the match; 1 in a pairs match."),
    )
    team_a = models.ForeignKey(
        Team,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("koppel A"),
        help_text=_("One koppel at the table; it sits in seats 1 and 3."),
    )
    team_b = models.ForeignKey(
        Team,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("koppel B"),
        help_text=_("The other koppel; it sits in seats 2 and 4."),
    )
    a_is_home = models.BooleanField(
        _("koppel A plays for the home side"),
        default=True,
        help_text=_("Worked out from the koppels and the match, never typed in."),
    )
    seat_1 = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("seat 1"),
        help_text=_("The player in seat 1 (koppel A); seats go clockwise. All four seats or none."),
    )
    seat_2 = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("seat 2"),
        help_text=_("The player in seat 2 (koppel B)."),
    )
    seat_3 = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("seat 3"),
        help_text=_("The player in seat 3 (koppel A, opposite seat 1)."),
    )
    seat_4 = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("seat 4"),
        help_text=_("The player in seat 4 (koppel B, opposite seat 2)."),
    )
    total_a = models.PositiveSmallIntegerField(
        _("entered total A"),
        null=True,
        blank=True,
        help_text=_(
            "Koppel A's game points when only the final score is known (no rounds); empty "
            "otherwise."
        ),
    )
    total_b = models.PositiveSmallIntegerField(
        _("entered total B"),
        null=True,
        blank=True,
        help_text=_("Koppel B's game points, with koppel A's total, or empty."),
    )

    status = models.CharField(
        _("status"),
        max_length=8,
        choices=Status.choices,
        default=Status.OPEN,
        help_text=_(
            "In play until the game ends: a koppel reaches the target, the last round is "
            "played, or the director closes it."
        ),
    )
    confirmed_at = models.DateTimeField(
        _("confirmed at"),
        null=True,
        blank=True,
        help_text=_("When the result was confirmed; empty: not confirmed yet."),
    )
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("confirmed by"),
        help_text=_("The director who confirmed it; empty when a koppel did at the table."),
    )
    confirmed_side = models.CharField(
        _("confirmed by koppel"),
        max_length=1,
        blank=True,
        choices=[("a", _("koppel A")), ("b", _("koppel B"))],
        help_text=_("The koppel that confirmed the result at the table (its own link)."),
    )
    first_caller = models.PositiveSmallIntegerField(
        _("first caller's seat"),
        null=True,
        blank=True,
        help_text=_(
            "The seat (1-4) that calls the first round, found by dealing until a jack; "
            "the rotation follows from it."
        ),
    )
    score_a = models.PositiveSmallIntegerField(
        _("score A"), default=0, help_text=_("Koppel A's game points, added up from the rounds.")
    )
    score_b = models.PositiveSmallIntegerField(
        _("score B"), default=0, help_text=_("Koppel B's game points, added up from the rounds.")
    )
    kaps_a = models.PositiveSmallIntegerField(
        _("kaps A"), default=0, help_text=_("Rounds koppel A won with a kap or a kap by partner.")
    )
    kaps_b = models.PositiveSmallIntegerField(
        _("kaps B"), default=0, help_text=_("Rounds koppel B won with a kap or a kap by partner.")
    )
    baunies_a = models.PositiveSmallIntegerField(
        _("baunies A"), default=0, help_text=_("Baunies koppel A made.")
    )
    baunies_b = models.PositiveSmallIntegerField(
        _("baunies B"), default=0, help_text=_("Baunies koppel B made.")
    )

    voided_at = models.DateTimeField(
        _("voided at"),
        null=True,
        blank=True,
        help_text=_(
            "When the director voided the game: it stays on the match's page but counts "
            "nowhere, the match's total included. Empty: it counts."
        ),
    )
    void_reason = models.CharField(
        _("why it was voided"),
        max_length=200,
        blank=True,
        help_text=_("Given when voiding, e.g. “wrong koppel at the table”."),
    )
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("voided by"),
        help_text=_("The director who voided it; empty for an import."),
    )

    objects = GameQuerySet.as_manager()

    history = HistoricalRecords()

    class Meta:
        ordering = ["match", "sitting", "table"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        constraints = [
            models.CheckConstraint(
                condition=~Q(team_a=models.F("team_b")),
                name="game_distinct_teams",
                violation_error_message=_("A koppel cannot play itself."),
            ),
            models.UniqueConstraint(
                fields=["match", "sitting", "table"],
                name="game_table_once_per_sitting",
                violation_error_message=_(
                    "Another game of this match is at this table in this sitting already."
                ),
            ),
            models.CheckConstraint(
                condition=Q(total_a__isnull=True, total_b__isnull=True)
                | Q(total_a__isnull=False, total_b__isnull=False),
                name="game_totals_both_or_none",
                violation_error_message=_("Give the totals of both koppels, or neither."),
            ),
            models.CheckConstraint(
                condition=Q(
                    seat_1__isnull=True,
                    seat_2__isnull=True,
                    seat_3__isnull=True,
                    seat_4__isnull=True,
                )
                | Q(
                    seat_1__isnull=False,
                    seat_2__isnull=False,
                    seat_3__isnull=False,
                    seat_4__isnull=False,
                ),
                name="game_seats_all_or_none",
                violation_error_message=_("Fill all four seats, or none."),
            ),
            # One player, one place (issue 6): the seats hold four different players.
            models.CheckConstraint(
                condition=SEATS_DISTINCT,
                name="game_distinct_players",
                violation_error_message=_(
                    "A player sits at one place: the four seats are four different players."
                ),
            ),
            models.CheckConstraint(
                condition=Q(table__gte=1) & Q(sitting__gte=1),
                name="game_table_sitting_positive",
                violation_error_message=_("Table and sitting numbers start at 1."),
            ),
            models.CheckConstraint(
                condition=Q(status__in=["open", "finished", "closed"]), name="game_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(first_caller__isnull=True)
                | Q(first_caller__gte=1, first_caller__lte=4),
                name="game_first_caller_seat",
                violation_error_message=_("The first caller sits in seat 1, 2, 3 or 4."),
            ),
            models.CheckConstraint(
                condition=Q(confirmed_side__in=["", "a", "b"]), name="game_confirmed_side_valid"
            ),
            models.CheckConstraint(
                condition=Q(voided_at__isnull=True, void_reason="")
                | (Q(voided_at__isnull=False) & ~Q(void_reason="")),
                name="game_void_has_reason",
                violation_error_message=_("Voiding a game needs a reason."),
            ),
        ]

    def __str__(self) -> str:
        return _("Table %(table)s: %(a)s – %(b)s") % {
            "table": self.table,
            "a": self.team_a,
            "b": self.team_b,
        }

    @property
    def competition(self) -> Competition:
        """The game's competition, through its match and matchday (no query when they are
        joined)."""
        return self.match.matchday.competition

    @property
    def is_over(self) -> bool:
        return self.status != self.Status.OPEN

    @property
    def is_voided(self) -> bool:
        """Whether the director voided the game itself (its match may be voided too:
        `game_counts_q` says whether it counts)."""
        return self.voided_at is not None

    @property
    def by_totals(self) -> bool:
        return self.total_a is not None

    @property
    def seats(self) -> tuple[int | None, int | None, int | None, int | None]:
        """Player ids in seats 1–4, clockwise."""
        return (self.seat_1_id, self.seat_2_id, self.seat_3_id, self.seat_4_id)

    @property
    def winner(self) -> Side | None:
        if not self.is_over or self.score_a == self.score_b:
            return None
        return Side.A if self.score_a > self.score_b else Side.B


class Round(models.Model):
    """One deal with its round result (RULES.md "Round results").

    `side` is the team the result is about; `caller` the caller, when recorded; `tricks_*`
    the trick counts, when recorded; `points_*` what the engine awarded.
    """

    game = models.ForeignKey(
        Game,
        on_delete=models.PROTECT,
        related_name="rounds",
        verbose_name=_("game"),
        help_text=_("The game this deal was played in."),
    )
    number = models.PositiveSmallIntegerField(
        _("round"), help_text=_("1 for the first deal of the game, then 2, 3, … (redeals too).")
    )
    result = models.CharField(
        _("result"),
        max_length=14,
        choices=[(r.value, RESULT_LABELS[r.value]) for r in Result],
        help_text=_("What happened in the deal (gewone winst, kap, baunie, …)."),
    )
    side = models.CharField(
        _("side"),
        max_length=1,
        choices=[("a", _("koppel A")), ("b", _("koppel B"))],
        help_text=_(
            "The koppel the result is about (for a mislukte baunie or te vroeg gekapt, the "
            "one that failed: the other koppel scores)."
        ),
    )
    caller = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("caller"),
        help_text=_("The player who called trumps, when callers are recorded."),
    )
    tricks_a = models.PositiveSmallIntegerField(
        _("tricks A"),
        null=True,
        blank=True,
        help_text=_("Tricks koppel A took (0 to 13), when counted."),
    )
    tricks_b = models.PositiveSmallIntegerField(
        _("tricks B"),
        null=True,
        blank=True,
        help_text=_("Tricks koppel B took (0 to 13), when counted."),
    )
    points_a = models.PositiveSmallIntegerField(
        _("points A"), default=0, help_text=_("Game points koppel A got for the deal.")
    )
    points_b = models.PositiveSmallIntegerField(
        _("points B"), default=0, help_text=_("Game points koppel B got for the deal.")
    )
    recorded_at = models.DateTimeField(
        _("recorded at"), auto_now_add=True, help_text=_("When the round was entered.")
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("recorded by"),
        help_text=_("The director who entered it; empty for a table link or an import."),
    )
    client_key = models.UUIDField(
        _("sent as"),
        null=True,
        blank=True,
        unique=True,
        help_text=_(
            "The key the table's phone made for this round (a retry or a replay of its "
            "queue finds the round stored once); empty for a director or an import."
        ),
    )
    link = models.ForeignKey(
        "GameLink",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rounds",
        verbose_name=_("entered through link"),
        help_text=_("The table's link this round was entered with; empty when a director did."),
    )

    history = HistoricalRecords(newest_by=("game_id",))

    class Meta:
        ordering = ["game", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(
                fields=["game", "number"],
                name="round_number_once_per_game",
                violation_error_message=_("This game has a round with this number already."),
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
            models.CheckConstraint(
                condition=Q(result__in=[r.value for r in Result]), name="round_result_valid"
            ),
            models.CheckConstraint(condition=Q(side__in=["a", "b"]), name="round_side_valid"),
            models.CheckConstraint(
                condition=Q(tricks_a__isnull=True, tricks_b__isnull=True)
                | Q(
                    tricks_a__isnull=False,
                    tricks_b__isnull=False,
                    tricks_a__lte=13,
                    tricks_b__lte=13,
                ),
                name="round_tricks_both_or_none",
                violation_error_message=_(
                    "Give the tricks of both koppels (0 to 13 each), or neither."
                ),
            ),
            models.CheckConstraint(
                condition=Q(points_a=0) | Q(points_b=0),
                name="round_one_team_scores",
                violation_error_message=_("Only one koppel scores in a round."),
            ),
        ]

    def __str__(self) -> str:
        # Shown as the admin's title and breadcrumb: in words, in the reader's language.
        return _("Round %(number)s of game %(game)s: %(result)s, %(side)s") % {
            "number": self.number,
            "game": self.game_id,
            "result": self.get_result_display(),
            "side": self.get_side_display(),
        }

    @property
    def tricks(self) -> tuple[int, int] | None:
        if self.tricks_a is None or self.tricks_b is None:
            return None
        return (self.tricks_a, self.tricks_b)

    @property
    def token(self) -> str:
        """What the round says now, as a short string: a correction form sends back the
        token it was opened with, so a correction made meanwhile elsewhere isn't lost."""
        values = (self.result, self.side, self.caller_id, self.tricks_a, self.tricks_b)
        return ":".join("" if value is None else str(value) for value in values)
