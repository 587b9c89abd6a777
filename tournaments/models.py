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

from scoring.rules import PointsScheme, RuleSet


class Club(models.Model):
    """A club; `key` is its stable identifier across import files (a federation code)."""

    key = models.SlugField(_("key"), max_length=64, unique=True)
    name = models.CharField(_("name"), max_length=120)

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    """A player; `key` is stable across import files (think licence number)."""

    key = models.SlugField(_("key"), max_length=64, unique=True)
    name = models.CharField(_("name"), max_length=120)
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

    def __str__(self) -> str:
        return self.name


class Team(models.Model):
    """A koppel: two players who sit opposite each other."""

    key = models.SlugField(_("key"), max_length=64, unique=True)
    name = models.CharField(_("name"), max_length=120, blank=True)
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
            models.CheckConstraint(
                condition=~Q(player_1=models.F("player_2")), name="team_two_distinct_players"
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

    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    name = models.CharField(_("name"), max_length=160)
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

    class Meta:
        ordering = ["-season", "name"]
        verbose_name = _("competition")
        verbose_name_plural = _("competitions")
        constraints = [
            models.CheckConstraint(
                condition=Q(target_score__isnull=True) | Q(target_score__gte=1),
                name="competition_target_positive",
            ),
            models.CheckConstraint(
                condition=Q(fixed_rounds__isnull=True) | Q(fixed_rounds__gte=1),
                name="competition_fixed_rounds_positive",
            ),
            models.CheckConstraint(
                condition=Q(target_score__isnull=False)
                | Q(fixed_rounds__isnull=False)
                | Q(close_by_director_allowed=True),
                name="competition_game_can_end",
            ),
            models.CheckConstraint(
                condition=Q(early_kap_penalty__gte=1), name="competition_early_kap_penalty_positive"
            ),
            models.CheckConstraint(
                condition=Q(points_win__gte=models.F("points_draw"))
                & Q(points_draw__gte=models.F("points_loss")),
                name="competition_points_ordered",
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
        """Whether `user` may enter and correct results here: staff, or one of its directors."""
        if not user.is_authenticated:
            return False
        if getattr(user, "is_staff", False):
            return True
        return self.directors.filter(pk=user.pk).exists()


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
            ),
            models.UniqueConstraint(
                fields=["competition", "team"],
                condition=Q(team__isnull=False),
                name="entry_team_once",
            ),
            models.UniqueConstraint(
                fields=["competition", "club"],
                condition=Q(club__isnull=False),
                name="entry_club_once",
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

    class Meta:
        ordering = ["competition", "number"]
        verbose_name = _("matchday")
        verbose_name_plural = _("matchdays")
        constraints = [
            models.UniqueConstraint(fields=["competition", "number"], name="matchday_number_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="matchday_number_positive"),
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

    class Meta:
        ordering = ["matchday", "pk"]
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        constraints = [
            models.CheckConstraint(
                condition=~Q(home=models.F("away")), name="match_distinct_entries"
            ),
            models.CheckConstraint(
                condition=Q(total_home__isnull=True, total_away__isnull=True)
                | Q(total_home__isnull=False, total_away__isnull=False),
                name="match_totals_both_or_none",
            ),
            models.UniqueConstraint(
                fields=["matchday", "home"], name="match_home_once_per_matchday"
            ),
            models.UniqueConstraint(
                fields=["matchday", "away"], name="match_away_once_per_matchday"
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
