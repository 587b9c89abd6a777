"""A competition (one league season or one tournament) with its rule set, its entries, and
the claim on its one queued standings refresh.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from scoring.rules import PointsScheme, RuleSet
from tournaments.models.clubs import Club, Team, key_start_constraint
from tournaments.models.withdrawals import WithdrawalSettings
from troefclub.fields import NameField
from troefclub.history import HistoricalRecords
from troefclub.validators import validate_key_start, validate_key_visible, validate_time_zone

# The one source of a new competition's settings: the rule options default to the engine's
# standard rule set and points scheme (RULES.md), the tie-breaks to docs/interchange.md's;
# the formats' defaults are the fields' below. The admin's add form and the importer (for a
# key a file leaves out, `interchange.constants`) read them from these fields.
STANDARD_RULES = RuleSet()

STANDARD_POINTS = PointsScheme()

TIEBREAKS_DEFAULT = ("points", "saldo", "points_for", "head_to_head")


def time_zone_default() -> str:
    """The time zone of a new competition: the site's (`settings.TIME_ZONE`)."""
    return str(settings.TIME_ZONE)


def tiebreaks_default() -> list[str]:
    """The tie-breaks of a new competition (docs/interchange.md): a new list each time."""
    return list(TIEBREAKS_DEFAULT)


class Competition(WithdrawalSettings, models.Model):
    """One league season or one tournament, with its rule set and standings settings.

    The rule fields are RULES.md "Rule-set options"; `rule_set` turns them into the
    engine's `RuleSet`, whose defaults are theirs (`STANDARD_RULES`). `tiebreaks` is an
    ordered list of DESIGN.md tie-break keys. The withdrawal settings come from
    `WithdrawalSettings` (issue 22).
    """

    class Kind(models.TextChoices):
        PAIRS = "pairs", _("Pairs competition")
        CLUBS = "clubs", _("Club competition")

    slug = models.SlugField(
        _("slug"),
        max_length=80,
        unique=True,
        validators=[validate_key_start, validate_key_visible],
        help_text=_(
            "The competition's short name in its web address and in import files. "
            "Fixed once it has matchdays: printed sheets link to it."
        ),
    )
    name = NameField(
        _("name"), max_length=160, help_text=_("As shown to players, e.g. “Club evening”.")
    )
    season = models.CharField(
        _("season"),
        max_length=20,
        blank=True,
        help_text=_("E.g. 2026-2027; season rankings and squads go by it. May stay empty."),
    )
    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        default=time_zone_default,
        validators=[validate_time_zone],
        help_text=_(
            "Where the matchdays are played, as an IANA name (e.g. America/Paramaribo, "
            "Europe/Amsterdam): their start times are in it (the calendar feeds)."
        ),
    )
    kind = models.CharField(
        _("kind"),
        max_length=5,
        choices=Kind.choices,
        default=Kind.PAIRS,
        help_text=_(
            "Pairs: koppels are the entries (club evenings, open tournaments). Club: clubs "
            "are, each fielding several koppels in a match (leagues)."
        ),
    )

    target_score = models.PositiveSmallIntegerField(
        _("target score"),
        null=True,
        blank=True,
        default=STANDARD_RULES.target_score,
        help_text=_(
            "Game points: a game ends when a koppel reaches this score (usually 20). Empty: "
            "no target."
        ),
    )
    fixed_rounds = models.PositiveSmallIntegerField(
        _("fixed number of rounds"),
        null=True,
        blank=True,
        help_text=_("A game ends after this many rounds (redeals don't count). Empty: off."),
    )
    kap_partner_allowed = models.BooleanField(
        _("kap by partner allowed (2 points)"),
        default=STANDARD_RULES.kap_partner_allowed,
        help_text=_(
            "On: when the partner of the 7th trick's winner says kap, the koppel gets 2 game "
            "points. Off: that result is refused."
        ),
    )
    early_kap_penalty = models.PositiveSmallIntegerField(
        _("early-kap penalty"),
        default=STANDARD_RULES.early_kap_penalty,
        help_text=_("Game points to the other koppel when a player says kap too early."),
    )
    stinkende_kap_bonus = models.PositiveSmallIntegerField(
        _("stinkende kap bonus"),
        default=STANDARD_RULES.stinkende_kap_bonus,
        help_text=_(
            "Extra game points when the koppel that did not call makes a kap. 0: no bonus."
        ),
    )
    stinkende_baunie_bonus = models.PositiveSmallIntegerField(
        _("stinkende baunie bonus"),
        default=STANDARD_RULES.stinkende_baunie_bonus,
        help_text=_(
            "Extra game points when the koppel that did not call makes a baunie. 0: no bonus."
        ),
    )
    redeal_allowed = models.BooleanField(
        _("no-picture redeal allowed"),
        default=STANDARD_RULES.redeal_allowed,
        help_text=_(
            "On: a caller without king, queen or jack may ask for a new deal (a round worth "
            "nothing). Off: that result is refused."
        ),
    )
    callers_required = models.BooleanField(
        _("callers recorded"),
        default=STANDARD_RULES.callers_required,
        help_text=_(
            "On: every round names its caller and the seats must be set; a caller out of "
            "turn is refused."
        ),
    )
    close_by_director_allowed = models.BooleanField(
        _("director may close a game (time limit)"),
        default=STANDARD_RULES.close_by_director_allowed,
        help_text=_("On: the director may end a game before the target (e.g. at closing time)."),
    )
    # RULES.md "Rule-set options": recorded for information only, no effect on scoring,
    # so the engine's RuleSet doesn't carry it.
    trump_open_card = models.PositiveSmallIntegerField(
        _("trump from an open card"),
        null=True,
        blank=True,
        choices=[(9, _("9th card")), (13, _("13th card"))],
        help_text=_(
            "Which open card shows trumps. For information only: it does not change the scoring."
        ),
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
        _("schedule"),
        max_length=20,
        choices=Format.choices,
        default=Format.MANUAL,
        help_text=_(
            "How the matchdays are paired: by the director, a round robin made at once, or "
            "Swiss (each matchday paired on the standings)."
        ),
    )
    bye_result = models.CharField(
        _("a bye counts as"),
        max_length=4,
        choices=ByeResult.choices,
        default=ByeResult.WIN,
        help_text=_("The result an entry without an opponent on a matchday gets in the standings."),
    )
    bye_score_for = models.PositiveSmallIntegerField(
        _("bye: game points for"),
        default=20,
        help_text=_(
            "Game points the entry with the bye scores. Follows the target score unless you "
            "change it."
        ),
    )
    bye_score_against = models.PositiveSmallIntegerField(
        _("bye: game points against"),
        default=0,
        help_text=_("Game points counted against the entry with the bye (for its saldo)."),
    )
    forfeit_score_for = models.PositiveSmallIntegerField(
        _("forfeit: game points to the winner"),
        default=0,
        help_text=_("Game points the side that did not forfeit gets for the match."),
    )
    forfeit_score_against = models.PositiveSmallIntegerField(
        _("forfeit: game points to the side that forfeits"),
        default=0,
        help_text=_("Game points the forfeiting side gets for the match (usually 0)."),
    )
    koppels_per_side = models.PositiveSmallIntegerField(
        _("koppels a side (club matches)"),
        default=6,
        help_text=_("How many koppels each club fields in a match: 1 to 6."),
    )
    min_koppels = models.PositiveSmallIntegerField(
        _("fewest koppels a club may field"),
        default=5,
        help_text=_(
            "Koppels: a club match with fewer koppels on a side is forfeited by that side."
        ),
    )
    sittings = models.PositiveSmallIntegerField(
        _("sittings (club matches)"),
        default=4,
        help_text=_(
            "Rounds of play in a club match: in each, every home koppel plays one away koppel. "
            "At most the koppels a side."
        ),
    )
    late_koppel_until_sitting = models.PositiveSmallIntegerField(
        _("a missing koppel may join up to sitting"),
        null=True,
        blank=True,
        help_text=_(
            "The last sitting a koppel that arrives late may still join in. Empty: a koppel "
            "must play from the first sitting."
        ),
    )
    squads_required = models.BooleanField(
        _("koppels only from the club's squad (moederlijst)"),
        default=False,
        help_text=_("On: a club may field only players on its squad for the season (Squads)."),
    )
    ineligible_deduction = models.PositiveSmallIntegerField(
        _("points deducted for an ineligible player in a lost match"),
        default=3,
        help_text=_(
            "A side that fields a player not on its squad loses the match by forfeit; if it "
            "lost the match anyway, it loses these competition points instead."
        ),
    )
    confirmation_required = models.BooleanField(
        _("results count only once confirmed"),
        default=False,
        help_text=_(
            "On: a game entered at the table counts in the standings only after the other "
            "koppel (or the director) confirms it."
        ),
    )

    points_win = models.PositiveSmallIntegerField(
        _("points for a win"),
        default=STANDARD_POINTS.win,
        help_text=_("Competition points for a won match (the standings' “Pts”)."),
    )
    points_draw = models.PositiveSmallIntegerField(
        _("points for a draw"),
        default=STANDARD_POINTS.draw,
        help_text=_("Competition points for a drawn match."),
    )
    points_loss = models.PositiveSmallIntegerField(
        _("points for a loss"),
        default=STANDARD_POINTS.loss,
        help_text=_("Competition points for a lost match."),
    )
    tiebreaks = models.JSONField(
        _("tie-breaks"),
        default=tiebreaks_default,
        blank=True,
        help_text=_(
            "How entries level on competition points are ranked, in order (a list of "
            "tie-break keys; the admin offers them by name)."
        ),
    )

    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="directed_competitions",
        verbose_name=_("directors"),
        help_text=_(
            "The users who pair matchdays and enter and correct results of this competition."
        ),
    )
    # Set in the transaction of every write that can move the standings, cleared by the
    # rebuild that saw that write: while set, the page says the standings are catching up
    # and the periodic sweep (`standings_refresh_stale`) rebuilds them even if the queued
    # refresh was lost (broker down, worker killed).
    standings_stale_since = models.DateTimeField(
        _("standings owe a refresh since"),
        null=True,
        blank=True,
        editable=False,
        help_text=_("Set while the standings are catching up with a saved result."),
    )
    # When the last rebuild ran (it rewrites only the rows that changed, so the rows' own
    # stamps say when each changed): what the standings page's "as of" shows.
    standings_computed_at = models.DateTimeField(
        _("standings computed at"),
        null=True,
        blank=True,
        editable=False,
        help_text=_("When the standings were last rebuilt: the “as of” of the standings page."),
    )

    # Who was made director, and who changed a rule: the audit trail of the competition.
    # The standings stamps are the refresh's bookkeeping (written with `update()`, no
    # history), not a change of the competition: kept out, so a save after a refresh is no
    # change (issue 19).
    history = HistoricalRecords(
        m2m_fields=[directors],
        excluded_fields=["standings_stale_since", "standings_computed_at"],
    )

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
    (`troefclub.refresh.RefreshQueue.claim`). Written by `scoring.services.refresh` only.
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
        help_text=_("The competition the koppel or club takes part in."),
    )
    team = models.ForeignKey(
        Team,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="entries",
        verbose_name=_("koppel"),
        help_text=_("In a pairs competition: the koppel taking part (leave the club empty)."),
    )
    club = models.ForeignKey(
        Club,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="entries",
        verbose_name=_("club"),
        help_text=_("In a club competition: the club taking part (leave the koppel empty)."),
    )
    # Issue 10: a koppel's entry keeps the club each player played for in this competition,
    # so a transfer between seasons never moves old games to the new club. Set when the
    # koppel is entered (from the players' clubs then, or the import file's); never after.
    player_1_club = models.ForeignKey(
        Club,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("club of player 1"),
        help_text=_(
            "The club the koppel's player 1 played for in this competition; filled in when "
            "the koppel is entered. Empty: no club."
        ),
    )
    player_2_club = models.ForeignKey(
        Club,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("club of player 2"),
        help_text=_(
            "The club the koppel's player 2 played for in this competition; filled in when "
            "the koppel is entered. Empty: no club."
        ),
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
            models.CheckConstraint(
                condition=Q(team__isnull=False)
                | Q(player_1_club__isnull=True, player_2_club__isnull=True),
                name="entry_player_clubs_only_for_koppels",
                violation_error_message=_(
                    "Only a koppel's entry keeps its players' clubs; a club's entry is the club."
                ),
            ),
        ]

    def __str__(self) -> str:
        return str(self.team or self.club)

    @property
    def key(self) -> str:
        holder = self.team or self.club
        assert holder is not None
        return holder.key
