"""An entry withdrawn from a competition (issue 22), the competition's two withdrawal
settings, and who is present on an evening (check-in).

The settings are a mixin of `Competition` (its module is near the 600-line limit): what a
withdrawal does to the entry's pending fixtures and to its played matches. Their defaults
follow the FIDE/KNSB rule most Dutch and Surinamese federations copy into their
reglementen: withdrawn before it played half of its matches, its results are annulled
(so the opponents it met early gain nothing over those it never met); after, they stand
and its remaining matches are walk-overs for the opponents (reglementair gewonnen).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from troefclub.history import HistoricalRecords


class WithdrawalFixtures(models.TextChoices):
    """What a withdrawal does to the entry's matches not played yet from its matchday on."""

    WALKOVER = "walkover", _("walk-overs won by the opponents")
    REMOVE = "remove", _("removed from the schedule")


class WithdrawalPlayed(models.TextChoices):
    """What a withdrawal does to the entry's matches: the competition's setting (`HALF`
    decides per withdrawal) and, resolved, what a `Withdrawal` applies (`KEEP`/`ANNUL`)."""

    KEEP = "keep", _("results stand")
    ANNUL = "annul", _("all its matches annulled")
    HALF = "half", _("annulled if it played fewer than half of its matches, else they stand")


class WithdrawalSettings(models.Model):
    """The withdrawal settings of a competition (an abstract base of `Competition`)."""

    withdrawal_fixtures = models.CharField(
        _("withdrawal: its pending matches"),
        max_length=8,
        choices=WithdrawalFixtures.choices,
        default=WithdrawalFixtures.WALKOVER,
        help_text=_(
            "What happens to the matches a withdrawn entry has not played yet, from its "
            "withdrawal on: walk-overs won by its opponents (the forfeit score), or removed "
            "from the schedule. A played match is never changed."
        ),
    )
    withdrawal_played = models.CharField(
        _("withdrawal: its played matches"),
        max_length=5,
        choices=WithdrawalPlayed.choices,
        default=WithdrawalPlayed.HALF,
        help_text=_(
            "Whether the results of a withdrawn entry stand or all its matches count for "
            "neither side (standings and tie-breaks alike). “Half”: annulled when it played "
            "fewer than half of its scheduled matches (FIDE/KNSB rule; a Swiss schedule "
            "keeps them)."
        ),
    )

    class Meta:
        abstract = True


class Withdrawal(models.Model):
    """An entry that plays no more from matchday `from_matchday` on, with what the
    withdrawal applied (`fixtures`, `played`: the competition's settings, resolved when it
    was recorded) and what it took off the schedule (`removed`, for a reinstatement).

    Written by `scoring.services.withdrawals` only; a reinstatement deletes the row (its
    history keeps it).
    """

    entry = models.OneToOneField(
        "tournaments.Entry",
        on_delete=models.CASCADE,
        related_name="withdrawal",
        verbose_name=_("entry"),
        help_text=_("The koppel or club that withdrew."),
    )
    from_matchday = models.PositiveSmallIntegerField(
        _("from matchday"),
        help_text=_("The first matchday (number) the entry no longer plays."),
    )
    from_date = models.DateField(
        _("from date"),
        null=True,
        blank=True,
        help_text=_("The date the withdrawal took effect, when it was given by date."),
    )
    reason = models.CharField(
        _("reason"), max_length=200, help_text=_("Why the entry withdrew; shown on the standings.")
    )
    fixtures = models.CharField(
        _("its pending matches"),
        max_length=8,
        choices=WithdrawalFixtures.choices,
        help_text=_("What was done to its matches not played yet (the competition's setting)."),
    )
    played = models.CharField(
        _("its played matches"),
        max_length=5,
        choices=WithdrawalPlayed.choices[:2],
        help_text=_("Whether its results stand or all its matches are annulled."),
    )
    # The fixtures it took off the schedule: [{"matchday": n, "home": entry id, "away":
    # entry id, "table": n or null}] and its byes [{"matchday": n, "bye": true}], so a
    # reinstatement puts them back.
    removed = models.JSONField(
        _("removed from the schedule"),
        default=list,
        blank=True,
        help_text=_("The matches and byes the withdrawal removed (put back on reinstatement)."),
    )
    # The last matchday there was when it withdrew: a matchday added since was paired
    # without it, so a reinstatement is refused.
    matchdays_then = models.PositiveSmallIntegerField(
        _("matchdays when withdrawn"),
        default=0,
        help_text=_("How many matchdays the competition had when the entry withdrew."),
    )
    created_at = models.DateTimeField(_("recorded at"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("recorded by"),
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("withdrawal")
        verbose_name_plural = _("withdrawals")
        constraints = [
            models.CheckConstraint(
                condition=Q(from_matchday__gte=1),
                name="withdrawal_from_matchday_positive",
                violation_error_message=_("Matchday numbers start at 1."),
            ),
            models.CheckConstraint(
                condition=~Q(reason=""),
                name="withdrawal_has_reason",
                violation_error_message=_("A withdrawal needs a reason."),
            ),
            models.CheckConstraint(
                condition=Q(fixtures__in=["walkover", "remove"]) & Q(played__in=["keep", "annul"]),
                name="withdrawal_choices_valid",
                violation_error_message=_("Choose one of the listed withdrawal settings."),
            ),
        ]

    def __str__(self) -> str:
        return _("%(entry)s withdrawn from matchday %(number)s") % {
            "entry": self.entry,
            "number": self.from_matchday,
        }


class CheckIn(models.Model):
    """Whether an entry is present on the evening of matchday `number` of its competition.

    Keyed by the matchday's number, not the matchday: a Swiss evening is checked in before
    its matchday is paired. Once any entry of the competition is marked present for a
    number, only the entries present are paired that evening.
    """

    entry = models.ForeignKey(
        "tournaments.Entry",
        on_delete=models.CASCADE,
        related_name="checkins",
        verbose_name=_("entry"),
        help_text=_("The koppel or club checked in."),
    )
    number = models.PositiveSmallIntegerField(
        _("matchday"), help_text=_("The number of the matchday (the evening).")
    )
    present = models.BooleanField(_("present"), default=True)
    at = models.DateTimeField(_("checked at"), auto_now=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("checked by"),
    )

    history = HistoricalRecords()

    class Meta:
        ordering = ["number", "entry"]
        verbose_name = _("check-in")
        verbose_name_plural = _("check-ins")
        constraints = [
            models.UniqueConstraint(
                fields=["entry", "number"],
                name="checkin_once_per_matchday",
                violation_error_message=_("This entry is checked in for this matchday already."),
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1),
                name="checkin_number_positive",
                violation_error_message=_("Matchday numbers start at 1."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.entry} #{self.number}: {'+' if self.present else '-'}"
