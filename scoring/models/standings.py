"""A competition's standings, one row per entry, as the last refresh computed them."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models import Competition, Entry


class Standing(models.Model):
    """A computed row of a competition's table, written by `standings_refresh`.

    Never edited by hand: the whole table is rebuilt from finished games and matches.
    """

    competition = models.ForeignKey(
        Competition,
        on_delete=models.CASCADE,
        related_name="standings",
        verbose_name=_("competition"),
        help_text=_("The competition this row of the table belongs to."),
    )
    entry = models.ForeignKey(
        Entry,
        on_delete=models.CASCADE,
        related_name="standings",
        verbose_name=_("entry"),
        help_text=_("The koppel or club of this row."),
    )
    rank = models.PositiveSmallIntegerField(
        _("rank"), help_text=_("Place in the table; entries level on every tie-break share it.")
    )
    played = models.PositiveSmallIntegerField(
        _("played"), default=0, help_text=_("Matches played, byes included.")
    )
    won = models.PositiveSmallIntegerField(_("won"), default=0, help_text=_("Matches won."))
    drawn = models.PositiveSmallIntegerField(_("drawn"), default=0, help_text=_("Matches drawn."))
    lost = models.PositiveSmallIntegerField(_("lost"), default=0, help_text=_("Matches lost."))
    points = models.IntegerField(
        _("points"),
        default=0,
        help_text=_("Competition points (win, draw, loss), deductions taken off."),
    )
    points_for = models.PositiveIntegerField(
        _("points for"), default=0, help_text=_("Game points scored, over all matches.")
    )
    points_against = models.PositiveIntegerField(
        _("points against"), default=0, help_text=_("Game points the opponents scored.")
    )
    saldo = models.IntegerField(
        _("saldo"), default=0, help_text=_("Game points for minus game points against.")
    )
    kaps = models.PositiveIntegerField(
        _("kaps"), default=0, help_text=_("Rounds won with a kap or a kap by partner.")
    )
    baunies = models.PositiveIntegerField(_("baunies"), default=0, help_text=_("Baunies made."))
    buchholz = models.IntegerField(
        _("buchholz"),
        default=0,
        help_text=_("The competition points of the entry's opponents, added up."),
    )
    byes = models.PositiveSmallIntegerField(
        _("byes"), default=0, help_text=_("Matchdays without an opponent (counted in points).")
    )
    deducted = models.PositiveIntegerField(
        _("points deducted"),
        default=0,
        help_text=_("Competition points taken off by deductions (already out of points)."),
    )
    # The mini-table points that separated this entry from others tied with it; None when
    # head-to-head did not decide anything for it.
    head_to_head = models.IntegerField(
        _("head-to-head"),
        null=True,
        blank=True,
        help_text=_("Competition points among the tied entries, when that decided the rank."),
    )
    computed_at = models.DateTimeField(_("computed at"), help_text=_("When this row last changed."))

    class Meta:
        ordering = ["competition", "rank", "pk"]
        verbose_name = _("standing")
        verbose_name_plural = _("standings")
        constraints = [
            models.UniqueConstraint(fields=["competition", "entry"], name="standing_entry_once"),
            models.CheckConstraint(condition=Q(rank__gte=1), name="standing_rank_positive"),
            models.CheckConstraint(
                condition=Q(saldo=models.F("points_for") - models.F("points_against")),
                name="standing_saldo_consistent",
            ),
            models.CheckConstraint(
                condition=Q(played=models.F("won") + models.F("drawn") + models.F("lost")),
                name="standing_played_consistent",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.rank}. {self.entry}"


# The columns a rebuild computes: every stored column of `Standing` but its keys and stamp,
# in the model's order, each the engine's `StandingRow` attribute of the same name (a new
# metric's field is written and checked without a change elsewhere).
STANDING_COLUMNS = tuple(
    field.name
    for field in Standing._meta.concrete_fields
    if field.name not in ("id", "competition", "entry", "computed_at")
)
