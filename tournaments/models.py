"""Clubs, players, koppels, competitions and their schedules (DESIGN.md "Words").

Models hold fields, choices and constraints; what happens to them lives in services.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from scoring.rules import PointsScheme, RuleSet
from tournaments.fields import NameField
from tournaments.validators import KEY_FORBIDDEN_START, validate_key_start


def key_start_constraint(field: str, model: str) -> models.CheckConstraint:
    """The database's side of `validate_key_start`: no key starts with -, =, + or @."""
    condition = Q()
    for char in KEY_FORBIDDEN_START:
        condition &= ~Q(**{f"{field}__startswith": char})
    return models.CheckConstraint(
        condition=condition,
        name=f"{model}_{field}_start_safe",
        violation_error_message=_("A key may not start with -, =, + or @."),
    )


class Club(models.Model):
    """A club; `key` is its stable identifier across import files (a federation code)."""

    key = models.SlugField(_("key"), max_length=64, unique=True, validators=[validate_key_start])
    name = NameField(_("name"), max_length=120)

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        constraints = [key_start_constraint("key", "club")]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    """A player; `key` is stable across import files (think licence number)."""

    key = models.SlugField(_("key"), max_length=64, unique=True, validators=[validate_key_start])
    name = NameField(_("name"), max_length=120)
    club = models.ForeignKey(
        Club,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="players",
        verbose_name=_("club"),
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [key_start_constraint("key", "player")]

    def __str__(self) -> str:
        return self.name


class Team(models.Model):
    """A koppel: two players who sit opposite each other."""

    key = models.SlugField(_("key"), max_length=64, unique=True, validators=[validate_key_start])
    name = NameField(_("name"), max_length=120, blank=True)
    player_1 = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("player 1")
    )
    player_2 = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("player 2")
    )

    class Meta:
        ordering = ["key"]
        verbose_name = _("koppel")
        verbose_name_plural = _("koppels")
        constraints = [
            key_start_constraint("key", "team"),
            models.CheckConstraint(
                condition=~Q(player_1=models.F("player_2")),
                name="team_two_distinct_players",
                violation_error_message=_("A koppel is two different players."),
            ),
        ]

    def __str__(self) -> str:
        return self.name or f"{self.player_1} & {self.player_2}"

    @property
    def player_ids(self) -> frozenset[int]:
        return frozenset((self.player_1_id, self.player_2_id))


class Competition(models.Model):
    """One league season or one tournament, with its rule set and standings settings.

    The rule fields are RULES.md "Rule-set options"; `rule_set` turns them into the
    engine's `RuleSet`. `tiebreaks` is an ordered list of DESIGN.md tie-break keys.
    """

    class Kind(models.TextChoices):
        PAIRS = "pairs", _("Pairs competition")
        CLUBS = "clubs", _("Club competition")

    slug = models.SlugField(_("slug"), max_length=80, unique=True, validators=[validate_key_start])
    name = NameField(_("name"), max_length=160)
    season = models.CharField(_("season"), max_length=20, blank=True)
    kind = models.CharField(_("kind"), max_length=5, choices=Kind.choices, default=Kind.PAIRS)

    target_score = models.PositiveSmallIntegerField(
        _("target score"),
        null=True,
        blank=True,
        default=20,
        help_text=_("A game ends when a koppel reaches this score. Empty: no target."),
    )
    fixed_rounds = models.PositiveSmallIntegerField(
        _("fixed number of rounds"),
        null=True,
        blank=True,
        help_text=_("A game ends after this many rounds (redeals don't count). Empty: off."),
    )
    kap_partner_allowed = models.BooleanField(_("kap by partner allowed (2 points)"), default=True)
    early_kap_penalty = models.PositiveSmallIntegerField(_("early-kap penalty"), default=2)
    stinkende_kap_bonus = models.PositiveSmallIntegerField(_("stinkende kap bonus"), default=0)
    stinkende_baunie_bonus = models.PositiveSmallIntegerField(
        _("stinkende baunie bonus"), default=0
    )
    redeal_allowed = models.BooleanField(_("no-picture redeal allowed"), default=True)
    callers_required = models.BooleanField(_("callers recorded"), default=False)
    close_by_director_allowed = models.BooleanField(
        _("director may close a game (time limit)"), default=False
    )
    # RULES.md "Rule-set options": recorded for information only, no effect on scoring,
    # so the engine's RuleSet doesn't carry it.
    trump_open_card = models.PositiveSmallIntegerField(
        _("trump from an open card"),
        null=True,
        blank=True,
        choices=[(9, _("9th card")), (13, _("13th card"))],
        help_text=_("For information only: it does not change the scoring."),
    )

    class Format(models.TextChoices):
        MANUAL = "manual", _("Manual pairings")
        ROUND_ROBIN = "round_robin", _("Round robin")
        DOUBLE_ROUND_ROBIN = "double_round_robin", _("Double round robin (home and away)")
        SWISS = "swiss", _("Swiss system")

    class ByeResult(models.TextChoices):
        WIN = "win", _("a win")
        DRAW = "draw", _("a draw")
        LOSS = "loss", _("a loss (no points)")

    schedule_format = models.CharField(
        _("schedule"), max_length=20, choices=Format.choices, default=Format.MANUAL
    )
    bye_result = models.CharField(
        _("a bye counts as"), max_length=4, choices=ByeResult.choices, default=ByeResult.WIN
    )
    bye_score_for = models.PositiveSmallIntegerField(_("bye: game points for"), default=20)
    bye_score_against = models.PositiveSmallIntegerField(_("bye: game points against"), default=0)
    forfeit_score_for = models.PositiveSmallIntegerField(
        _("forfeit: game points to the winner"), default=0
    )
    forfeit_score_against = models.PositiveSmallIntegerField(
        _("forfeit: game points to the side that forfeits"), default=0
    )
    koppels_per_side = models.PositiveSmallIntegerField(
        _("koppels a side (club matches)"), default=6
    )
    min_koppels = models.PositiveSmallIntegerField(
        _("fewest koppels a club may field"),
        default=5,
        help_text=_("A club match with fewer koppels on a side is forfeited by that side."),
    )
    sittings = models.PositiveSmallIntegerField(_("sittings (club matches)"), default=4)
    late_koppel_until_sitting = models.PositiveSmallIntegerField(
        _("a missing koppel may join up to sitting"),
        null=True,
        blank=True,
        help_text=_("Empty: a koppel must play from the first sitting."),
    )
    squads_required = models.BooleanField(
        _("koppels only from the club's squad (moederlijst)"), default=False
    )
    ineligible_deduction = models.PositiveSmallIntegerField(
        _("points deducted for an ineligible player in a lost match"), default=3
    )
    confirmation_required = models.BooleanField(
        _("results count only once confirmed"), default=False
    )

    points_win = models.PositiveSmallIntegerField(_("points for a win"), default=2)
    points_draw = models.PositiveSmallIntegerField(_("points for a draw"), default=1)
    points_loss = models.PositiveSmallIntegerField(_("points for a loss"), default=0)
    tiebreaks = models.JSONField(_("tie-breaks"), default=list, blank=True)

    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="directed_competitions",
        verbose_name=_("directors"),
    )
    # Set in the transaction of every write that can move the standings, cleared by the
    # rebuild that saw that write: while set, the page says the standings are catching up
    # and the periodic sweep (`standings_refresh_stale`) rebuilds them even if the queued
    # refresh was lost (broker down, worker killed).
    standings_stale_since = models.DateTimeField(
        _("standings owe a refresh since"), null=True, blank=True, editable=False
    )
    # When the last rebuild ran (it rewrites only the rows that changed, so the rows' own
    # stamps say when each changed): what the standings page's "as of" shows.
    standings_computed_at = models.DateTimeField(
        _("standings computed at"), null=True, blank=True, editable=False
    )

    # Who was made director, and who changed a rule: the audit trail of the competition.
    history = HistoricalRecords(m2m_fields=[directors])

    class Meta:
        ordering = ["-season", "name"]
        verbose_name = _("competition")
        verbose_name_plural = _("competitions")
        permissions = [
            ("direct_every_competition", _("Can enter and correct results of every competition")),
            ("assign_directors", _("Can assign the directors of a competition")),
        ]
        constraints = [
            key_start_constraint("slug", "competition"),
            models.CheckConstraint(
                condition=Q(target_score__isnull=True) | Q(target_score__gte=1),
                name="competition_target_positive",
                violation_error_message=_(
                    "The target score must be at least 1 (or empty for no target)."
                ),
            ),
            models.CheckConstraint(
                condition=Q(fixed_rounds__isnull=True) | Q(fixed_rounds__gte=1),
                name="competition_fixed_rounds_positive",
                violation_error_message=_(
                    "The fixed number of rounds must be at least 1 (or empty for off)."
                ),
            ),
            models.CheckConstraint(
                condition=Q(target_score__isnull=False)
                | Q(fixed_rounds__isnull=False)
                | Q(close_by_director_allowed=True),
                name="competition_game_can_end",
                violation_error_message=_(
                    "A game must be able to end: set a target score, a fixed number of rounds, or"
                    " let the director close games."
                ),
            ),
            models.CheckConstraint(
                condition=Q(early_kap_penalty__gte=1),
                name="competition_early_kap_penalty_positive",
                violation_error_message=_("The early-kap penalty must be at least 1 point."),
            ),
            models.CheckConstraint(
                condition=Q(koppels_per_side__gte=1, koppels_per_side__lte=6)
                & Q(min_koppels__gte=1, min_koppels__lte=models.F("koppels_per_side"))
                & Q(sittings__gte=1, sittings__lte=models.F("koppels_per_side")),
                name="competition_club_match_shape",
                violation_error_message=_(
                    "Club matches: 1 to 6 koppels a side, a minimum between 1 and that number, "
                    "and no more sittings than koppels a side."
                ),
            ),
            models.CheckConstraint(
                condition=Q(late_koppel_until_sitting__isnull=True)
                | Q(
                    late_koppel_until_sitting__gte=1,
                    late_koppel_until_sitting__lte=models.F("sittings"),
                ),
                name="competition_late_within_sittings",
                violation_error_message=_(
                    "A missing koppel may join up to a sitting between 1 and the sittings."
                ),
            ),
            models.CheckConstraint(
                condition=Q(
                    schedule_format__in=["manual", "round_robin", "double_round_robin", "swiss"]
                ),
                name="competition_schedule_format_valid",
                violation_error_message=_("Choose one of the listed schedules."),
            ),
            models.CheckConstraint(
                condition=Q(points_win__gte=models.F("points_draw"))
                & Q(points_draw__gte=models.F("points_loss")),
                name="competition_points_ordered",
                violation_error_message=_(
                    "A win must give at least as many points as a draw, and a draw at least as "
                    "many as a loss."
                ),
            ),
        ]

    def __str__(self) -> str:
        return self.name

    # The fields `rule_set` reads: changing any of them re-scores the competition's games.
    RULE_FIELDS = (
        "target_score",
        "fixed_rounds",
        "kap_partner_allowed",
        "early_kap_penalty",
        "stinkende_kap_bonus",
        "stinkende_baunie_bonus",
        "redeal_allowed",
        "callers_required",
        "close_by_director_allowed",
    )

    @property
    def rule_set(self) -> RuleSet:
        return RuleSet(
            target_score=self.target_score,
            fixed_rounds=self.fixed_rounds,
            kap_partner_allowed=self.kap_partner_allowed,
            early_kap_penalty=self.early_kap_penalty,
            stinkende_kap_bonus=self.stinkende_kap_bonus,
            stinkende_baunie_bonus=self.stinkende_baunie_bonus,
            redeal_allowed=self.redeal_allowed,
            callers_required=self.callers_required,
            close_by_director_allowed=self.close_by_director_allowed,
        )

    @property
    def points_scheme(self) -> PointsScheme:
        return PointsScheme(win=self.points_win, draw=self.points_draw, loss=self.points_loss)

    def is_directed_by(self, user: AbstractBaseUser | AnonymousUser) -> bool:
        """Whether `user` may enter and correct results here.

        One of its directors, or league staff holding the permission to direct every
        competition (superusers have it). Being staff alone (admin access) is not enough.
        """
        if not user.is_authenticated:
            return False
        # `has_perm` comes with PermissionsMixin, which a custom user model might not use.
        has_perm = getattr(user, "has_perm", None)
        if has_perm is not None and has_perm("tournaments.direct_every_competition"):
            return True
        return self.directors.filter(pk=user.pk).exists()


class StandingsRefreshClaim(models.Model):
    """The one queued refresh of a competition's standings (issue 7, "refreshes that
    coalesce"): `queued_at` is set when a `standings_refresh` task is queued and cleared
    by that task once it holds the competition; while it is set, results saved meanwhile
    queue nothing more, the queued task will see them.

    A row of its own, not a column of `Competition`: a rebuild holds the competition row
    FOR UPDATE, and a writer claiming after its commit must not wait for that rebuild
    (`scoring.services._standings_refresh_claim`). Written by `scoring.services` only.
    """

    competition = models.OneToOneField(
        Competition,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="+",
        verbose_name=_("competition"),
    )
    queued_at = models.DateTimeField(_("refresh queued at"), null=True, blank=True)

    class Meta:
        verbose_name = _("queued standings refresh")
        verbose_name_plural = _("queued standings refreshes")

    def __str__(self) -> str:
        return f"{self.competition_id}: {self.queued_at}"


class Entry(models.Model):
    """A koppel (pairs competition) or a club (club competition) taking part."""

    competition = models.ForeignKey(
        Competition,
        on_delete=models.PROTECT,
        related_name="entries",
        verbose_name=_("competition"),
    )
    team = models.ForeignKey(
        Team,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="entries",
        verbose_name=_("koppel"),
    )
    club = models.ForeignKey(
        Club,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="entries",
        verbose_name=_("club"),
    )

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.CheckConstraint(
                condition=Q(team__isnull=False, club__isnull=True)
                | Q(team__isnull=True, club__isnull=False),
                name="entry_team_or_club",
                violation_error_message=_(
                    "An entry is either a koppel or a club, not both and not neither."
                ),
            ),
            models.UniqueConstraint(
                fields=["competition", "team"],
                condition=Q(team__isnull=False),
                name="entry_team_once",
                violation_error_message=_("This koppel is entered already."),
            ),
            models.UniqueConstraint(
                fields=["competition", "club"],
                condition=Q(club__isnull=False),
                name="entry_club_once",
                violation_error_message=_("This club is entered already."),
            ),
        ]

    def __str__(self) -> str:
        return str(self.team or self.club)

    @property
    def key(self) -> str:
        holder = self.team or self.club
        assert holder is not None
        return holder.key


class Matchday(models.Model):
    """A speelronde: one date of the schedule."""

    competition = models.ForeignKey(
        Competition,
        on_delete=models.PROTECT,
        related_name="matchdays",
        verbose_name=_("competition"),
    )
    number = models.PositiveSmallIntegerField(_("number"))
    date = models.DateField(_("date"), null=True, blank=True)
    override_reason = models.TextField(
        _("why it was paired before the previous matchday finished"), blank=True
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


class Match(models.Model):
    """Two entries meeting on a matchday. `total_*` hold a result known only as reported."""

    matchday = models.ForeignKey(
        Matchday, on_delete=models.PROTECT, related_name="matches", verbose_name=_("matchday")
    )
    home = models.ForeignKey(
        Entry, on_delete=models.PROTECT, related_name="home_matches", verbose_name=_("home")
    )
    away = models.ForeignKey(
        Entry, on_delete=models.PROTECT, related_name="away_matches", verbose_name=_("away")
    )
    total_home = models.PositiveIntegerField(_("reported total home"), null=True, blank=True)
    total_away = models.PositiveIntegerField(_("reported total away"), null=True, blank=True)
    table = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)

    class Forfeit(models.TextChoices):
        NONE = "", _("—")
        HOME = "home", _("home side forfeits")
        AWAY = "away", _("away side forfeits")
        BOTH = "both", _("both sides forfeit")

    forfeit = models.CharField(
        _("forfeit"), max_length=4, choices=Forfeit.choices, default=Forfeit.NONE, blank=True
    )
    forfeit_reason = models.CharField(_("forfeit reason"), max_length=200, blank=True)
    # Why the pairing was made (Swiss): {"code": "...", "params": {...}}, worded at the edge.
    pairing_reason = models.JSONField(_("pairing reason"), default=dict, blank=True)
    # A club match's lineup as the director set it (`club_match_lineup_set`):
    # {"home": [team id or null, ...], "away": [...], "late": {"<team id>": sitting}};
    # {} when it was never set here (imported or reported data: read the games instead).
    lineup = models.JSONField(_("lineup"), default=dict, blank=True)

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


class Bye(models.Model):
    """An entry without an opponent on a matchday, scored as the competition says."""

    matchday = models.ForeignKey(
        Matchday, on_delete=models.PROTECT, related_name="byes", verbose_name=_("matchday")
    )
    entry = models.ForeignKey(
        Entry, on_delete=models.PROTECT, related_name="byes", verbose_name=_("entry")
    )
    # Why this entry got the bye (Swiss): {"code": "...", "params": {...}}, worded at the edge.
    reason = models.JSONField(_("reason"), default=dict, blank=True)

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
    )
    entry = models.ForeignKey(
        Entry, on_delete=models.PROTECT, related_name="deductions", verbose_name=_("entry")
    )
    points = models.PositiveSmallIntegerField(_("points deducted"))
    reason = models.CharField(_("reason"), max_length=200)
    match = models.ForeignKey(
        Match,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="deductions",
        verbose_name=_("match"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # A deduction is never deleted: it is voided with a reason, and the history keeps who.
    voided_at = models.DateTimeField(_("voided at"), null=True, blank=True)
    void_reason = models.CharField(_("why it was voided"), max_length=200, blank=True)

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


class Squad(models.Model):
    """A club's squad list (moederlijst) for one season; no changes from `locked_on` on."""

    club = models.ForeignKey(
        Club, on_delete=models.PROTECT, related_name="squads", verbose_name=_("club")
    )
    season = models.CharField(_("season"), max_length=20)
    locked_on = models.DateField(_("locked on"), null=True, blank=True)

    class Meta:
        ordering = ["-season", "club"]
        verbose_name = _("squad")
        verbose_name_plural = _("squads")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "season"],
                name="squad_once_per_season",
                violation_error_message=_("This club has a squad for this season already."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club} {self.season}"


class SquadMember(models.Model):
    """A player on a squad.

    `season` repeats the squad's so the database keeps a player on one club's squad per
    season: transfers between clubs happen only between seasons.
    """

    squad = models.ForeignKey(
        Squad, on_delete=models.PROTECT, related_name="members", verbose_name=_("squad")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="squad_places", verbose_name=_("player")
    )
    season = models.CharField(_("season"), max_length=20)

    class Meta:
        ordering = ["squad", "player"]
        verbose_name = _("squad member")
        verbose_name_plural = _("squad members")
        constraints = [
            models.UniqueConstraint(
                fields=["season", "player"],
                name="squad_member_one_club_a_season",
                violation_error_message=_(
                    "This player is on a squad for this season already; transfers only between "
                    "seasons."
                ),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.squad})"
