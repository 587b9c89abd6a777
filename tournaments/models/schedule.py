"""The calendar of a competition: matchdays, the matches and byes on them, and the
deductions taken from entries.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models.competitions import Competition, Entry
from troefclub.history import HistoricalRecords


class Matchday(models.Model):
    """A speelronde: one date of the schedule."""

    competition = models.ForeignKey(
        Competition,
        on_delete=models.PROTECT,
        related_name="matchdays",
        verbose_name=_("competition"),
        help_text=_("The competition this matchday belongs to."),
    )
    number = models.PositiveSmallIntegerField(
        _("number"),
        help_text=_("1 for the first matchday (speelronde) of the competition, 2 next, and so on."),
    )
    date = models.DateField(
        _("date"), null=True, blank=True, help_text=_("The evening it is played; may stay empty.")
    )
    time = models.TimeField(
        _("start time"),
        null=True,
        blank=True,
        help_text=_(
            "When play starts, in the competition's time zone; may stay empty (the calendar "
            "then shows the whole day)."
        ),
    )
    override_reason = models.TextField(
        _("why it was paired before the previous matchday finished"),
        blank=True,
        help_text=_(
            "Swiss: the director's reason to pair it early, shown on the matchday's page. "
            "Usually empty."
        ),
    )

    # Moved by every save (and bulk_create): the API's ETags of the registry's reads look
    # here (issue 21). A write by QuerySet.update() or save(update_fields=…) must name it.
    updated_at = models.DateTimeField(
        _("updated at"),
        auto_now=True,
        db_index=True,
        help_text=_("When the row last changed (set on every save)."),
    )

    class Meta:
        ordering = ["competition", "number"]
        verbose_name = _("matchday")
        verbose_name_plural = _("matchdays")
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "number"],
                name="matchday_number_once",
                violation_error_message=_(
                    "This competition has a matchday with this number already."
                ),
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1),
                name="matchday_number_positive",
                violation_error_message=_("Matchday numbers start at 1."),
            ),
        ]

    def __str__(self) -> str:
        return _("Matchday %(number)s") % {"number": self.number}


def match_counts_q(prefix: str = "") -> Q:
    """The condition "this match counts" (standings, tie-breaks, rankings, ratings,
    highlights, profiles), as a `Q` on `Match` or, with `prefix` ("match__"), on a model
    that points to it. The ONE definition (issue 22, FTC scorekeeper #271: an aborted match
    and its replay both counted): a voided match counts nowhere. Every reader goes through
    it: `Match.objects.counting()`, `scoring.models.game_counts_q` / `Game.objects.counting()`
    and, for hand-written SQL, `match_counts_sql`. Another reason a match stops counting
    (an annulled match of a withdrawn entry) is added here, and only here.
    """
    return Q(**{f"{prefix}voided_at__isnull": True})


def match_counts_sql(alias: str) -> str:
    """`match_counts_q` as an SQL condition on the match table aliased `alias` (the
    standings' hand-written statements, `scoring.selectors.results`)."""
    return f"{alias}.voided_at IS NULL"


class MatchQuerySet(models.QuerySet["Match"]):
    """`Match.objects`: `counting()` is the matches that count (`match_counts_q`)."""

    def counting(self) -> MatchQuerySet:
        """The matches that count anywhere: not voided (`match_counts_q`)."""
        return self.filter(match_counts_q())


class Match(models.Model):
    """Two entries meeting on a matchday. `total_*` hold a result known only as reported.

    A voided match (`voided_at`, `void_reason`, `voided_by`: issue 22) stays on the
    schedule and in the history but counts nowhere (`match_counts_q`). Its replay is another
    match, on another matchday, that `replayed_by` points to (the replay reads it back as
    `replay_of`): a match with a replay must be voided (`match_replayed_is_void`), and has
    at most one (`replayed_by` is unique), so one fixture has one counting result. A voided
    replay can be replayed in turn.
    """

    matchday = models.ForeignKey(
        Matchday,
        on_delete=models.PROTECT,
        related_name="matches",
        verbose_name=_("matchday"),
        help_text=_("The matchday (speelronde) the match is played on."),
    )
    home = models.ForeignKey(
        Entry,
        on_delete=models.PROTECT,
        related_name="home_matches",
        verbose_name=_("home"),
        help_text=_("The entry playing at home (named first)."),
    )
    away = models.ForeignKey(
        Entry,
        on_delete=models.PROTECT,
        related_name="away_matches",
        verbose_name=_("away"),
        help_text=_("The visiting entry."),
    )
    total_home = models.PositiveIntegerField(
        _("reported total home"),
        null=True,
        blank=True,
        help_text=_(
            "Game points of the home side when only the totals are known (a paper sheet, a "
            "newspaper report); empty when the games are entered."
        ),
    )
    total_away = models.PositiveIntegerField(
        _("reported total away"),
        null=True,
        blank=True,
        help_text=_("Game points of the away side, with the home total, or empty."),
    )
    table = models.PositiveSmallIntegerField(
        _("table"),
        null=True,
        blank=True,
        help_text=_("The table number the match is played at that evening."),
    )

    class Forfeit(models.TextChoices):
        NONE = "", _("—")
        HOME = "home", _("home side forfeits")
        AWAY = "away", _("away side forfeits")
        BOTH = "both", _("both sides forfeit")

    forfeit = models.CharField(
        _("forfeit"),
        max_length=4,
        choices=Forfeit.choices,
        default=Forfeit.NONE,
        blank=True,
        help_text=_(
            "The side that gave up or did not come: it loses, and the game points are the "
            "competition's forfeit score."
        ),
    )
    forfeit_reason = models.CharField(
        _("forfeit reason"),
        max_length=200,
        blank=True,
        help_text=_("Why the match was forfeited, shown with the result."),
    )

    class ForfeitCause(models.TextChoices):
        DIRECTOR = "director", _("the director")
        LINEUP = "lineup", _("the lineup (too few koppels)")
        # A withdrawn entry's walk-over (issue 22); eight letters: the column's width.
        WITHDRAWAL = "withdrew", _("a withdrawal (walk-over)")

    # Who forfeited the match: a lineup's forfeit (`club_match_lineup_set`) is lifted again
    # by a lineup that fields enough koppels; the director's stays until the director
    # lifts it; a withdrawal's walk-over goes with a reinstatement (issue 22). Meaningless
    # while `forfeit` is empty.
    forfeit_cause = models.CharField(
        _("forfeited by"),
        max_length=8,
        choices=ForfeitCause.choices,
        default=ForfeitCause.DIRECTOR,
        help_text=_(
            "Who set the forfeit: the director, or the lineup, which lifts it again once both "
            "sides field enough koppels."
        ),
    )
    # Why the pairing was made (Swiss): {"code": "...", "params": {...}}, worded at the edge.
    pairing_reason = models.JSONField(
        _("pairing reason"),
        default=dict,
        blank=True,
        help_text=_(
            "Why the schedule (e.g. the Swiss pairing) made this match; empty for a match "
            "paired by hand."
        ),
    )
    # A club match's lineup as the director set it (`club_match_lineup_set`):
    # {"home": [team id or null, ...], "away": [...], "late": {"<team id>": sitting}};
    # {} when it was never set here (imported or reported data: read the games instead).
    lineup = models.JSONField(
        _("lineup"),
        default=dict,
        blank=True,
        help_text=_("A club match's koppels per side, as the director set them on the match page."),
    )

    voided_at = models.DateTimeField(
        _("voided at"),
        null=True,
        blank=True,
        help_text=_(
            "When the director voided the match: it stays on the schedule but counts nowhere. "
            "Empty: it counts."
        ),
    )
    void_reason = models.CharField(
        _("why it was voided"),
        max_length=200,
        blank=True,
        help_text=_("Given when voiding, e.g. “hall closed at 23:00, replayed”."),
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
    # On the voided match, not on the replay: "a match with a replay is void" is then a
    # check of one row, which the database holds on SQLite and PostgreSQL alike (a replay
    # pointing back would need a trigger reading the other row).
    replayed_by = models.OneToOneField(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="replay_of",
        verbose_name=_("replayed by"),
        help_text=_("The match that replays this voided one, on a later matchday."),
    )

    objects = MatchQuerySet.as_manager()

    history = HistoricalRecords()

    class Meta:
        ordering = ["matchday", "pk"]
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        constraints = [
            models.CheckConstraint(
                condition=~Q(home=models.F("away")),
                name="match_distinct_entries",
                violation_error_message=_("An entry cannot play itself."),
            ),
            models.CheckConstraint(
                condition=Q(total_home__isnull=True, total_away__isnull=True)
                | Q(total_home__isnull=False, total_away__isnull=False),
                name="match_totals_both_or_none",
                violation_error_message=_("Give the reported totals of both sides, or neither."),
            ),
            models.UniqueConstraint(
                fields=["matchday", "home"],
                name="match_home_once_per_matchday",
                violation_error_message=_(
                    "This entry plays at home in another match of this matchday already."
                ),
            ),
            models.UniqueConstraint(
                fields=["matchday", "table"],
                condition=Q(table__isnull=False),
                name="match_table_once_per_matchday",
                violation_error_message=_(
                    "Another match of this matchday is at this table already."
                ),
            ),
            models.CheckConstraint(
                condition=Q(forfeit__in=["", "home", "away", "both"]),
                name="match_forfeit_valid",
                violation_error_message=_("Choose one of the listed forfeit sides."),
            ),
            models.CheckConstraint(
                condition=Q(forfeit="") | ~Q(forfeit_reason=""),
                name="match_forfeit_has_reason",
                violation_error_message=_("A forfeit needs a reason."),
            ),
            models.UniqueConstraint(
                fields=["matchday", "away"],
                name="match_away_once_per_matchday",
                violation_error_message=_(
                    "This entry plays away in another match of this matchday already."
                ),
            ),
            models.CheckConstraint(
                condition=Q(voided_at__isnull=True, void_reason="")
                | (Q(voided_at__isnull=False) & ~Q(void_reason="")),
                name="match_void_has_reason",
                violation_error_message=_("Voiding a match needs a reason."),
            ),
            # One counting result per fixture (issue 22): a match and its replay never
            # both count.
            models.CheckConstraint(
                condition=Q(replayed_by__isnull=True) | Q(voided_at__isnull=False),
                name="match_replayed_is_void",
                violation_error_message=_(
                    "A match that is replayed must be voided: only the replay counts."
                ),
            ),
            models.CheckConstraint(
                condition=Q(replayed_by__isnull=True) | ~Q(replayed_by=models.F("pk")),
                name="match_replay_not_itself",
                violation_error_message=_("A match cannot be its own replay."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.home} – {self.away}"

    @property
    def slug(self) -> str:
        """`home-away` keys, as DESIGN.md names a match in messages."""
        return f"{self.home.key}-{self.away.key}"

    @property
    def has_reported_totals(self) -> bool:
        return self.total_home is not None

    @property
    def is_voided(self) -> bool:
        """Whether the director voided it: it counts nowhere (`match_counts_q`)."""
        return self.voided_at is not None

    @property
    def competition(self) -> Competition:
        """The match's competition, through its matchday (no query when it is joined)."""
        return self.matchday.competition


class Bye(models.Model):
    """An entry without an opponent on a matchday, scored as the competition says."""

    matchday = models.ForeignKey(
        Matchday,
        on_delete=models.PROTECT,
        related_name="byes",
        verbose_name=_("matchday"),
        help_text=_("The matchday the entry has no opponent."),
    )
    entry = models.ForeignKey(
        Entry,
        on_delete=models.PROTECT,
        related_name="byes",
        verbose_name=_("entry"),
        help_text=_(
            "The koppel or club without an opponent; it scores what the competition's bye "
            "settings say."
        ),
    )
    # Why this entry got the bye (Swiss): {"code": "...", "params": {...}}, worded at the edge.
    reason = models.JSONField(
        _("reason"),
        default=dict,
        blank=True,
        help_text=_(
            "Filled by the schedule (why this entry got the bye); leave it empty ({}) for a "
            "bye given by hand."
        ),
    )

    history = HistoricalRecords()

    class Meta:
        ordering = ["matchday", "pk"]
        verbose_name = _("bye")
        verbose_name_plural = _("byes")
        constraints = [
            models.UniqueConstraint(
                fields=["matchday", "entry"],
                name="bye_once_per_matchday",
                violation_error_message=_("This entry has a bye on this matchday already."),
            ),
        ]

    def __str__(self) -> str:
        return _("%(entry)s: bye on %(matchday)s") % {
            "entry": self.entry,
            "matchday": self.matchday,
        }


class Deduction(models.Model):
    """Competition points taken from an entry, with the reason shown on the standings page."""

    competition = models.ForeignKey(
        Competition,
        on_delete=models.PROTECT,
        related_name="deductions",
        verbose_name=_("competition"),
        help_text=_("The competition whose standings lose the points."),
    )
    entry = models.ForeignKey(
        Entry,
        on_delete=models.PROTECT,
        related_name="deductions",
        verbose_name=_("entry"),
        help_text=_("The koppel or club that loses the points."),
    )
    points = models.PositiveSmallIntegerField(
        _("points deducted"),
        help_text=_("Competition points taken off the entry's total (at least 1)."),
    )
    reason = models.CharField(
        _("reason"),
        max_length=200,
        help_text=_("Shown under the standings, e.g. “ineligible player”."),
    )
    match = models.ForeignKey(
        Match,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="deductions",
        verbose_name=_("match"),
        help_text=_("The match it is about, if any (one the entry played)."),
    )
    created_at = models.DateTimeField(
        _("created at"), auto_now_add=True, help_text=_("When the deduction was added.")
    )
    # A deduction is never deleted: it is voided with a reason, and the history keeps who.
    voided_at = models.DateTimeField(
        _("voided at"),
        null=True,
        blank=True,
        help_text=_("When it was voided; from then on it no longer counts. Empty: it counts."),
    )
    void_reason = models.CharField(
        _("why it was voided"),
        max_length=200,
        blank=True,
        help_text=_("Given when voiding, e.g. “appeal upheld”."),
    )

    history = HistoricalRecords()

    class Meta:
        ordering = ["competition", "created_at"]
        verbose_name = _("deduction")
        verbose_name_plural = _("deductions")
        constraints = [
            models.CheckConstraint(
                condition=Q(voided_at__isnull=True, void_reason="")
                | (Q(voided_at__isnull=False) & ~Q(void_reason="")),
                name="deduction_void_has_reason",
                violation_error_message=_("Voiding a deduction needs a reason."),
            ),
            models.CheckConstraint(
                condition=Q(points__gte=1),
                name="deduction_points_positive",
                violation_error_message=_("Deduct at least 1 point."),
            ),
            models.CheckConstraint(
                condition=~Q(reason=""),
                name="deduction_has_reason",
                violation_error_message=_("A deduction needs a reason."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.entry}: −{self.points} ({self.reason})"
