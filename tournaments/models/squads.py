"""A club's squad for a season: who may play for the club in its club matches."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.clubs import Club, Player


class Squad(models.Model):
    """A club's squad list (moederlijst) for one season; no changes from `locked_on` on."""

    club = models.ForeignKey(
        Club,
        on_delete=models.PROTECT,
        related_name="squads",
        verbose_name=_("club"),
        help_text=_("The club whose squad list (moederlijst) this is."),
    )
    season = models.CharField(
        _("season"),
        max_length=20,
        help_text=_("As the competitions write it, e.g. 2026-2027: one squad a club a season."),
    )
    locked_on = models.DateField(
        _("locked on"),
        null=True,
        blank=True,
        help_text=_("From this date on no player is added or removed. Empty: never locked."),
    )

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
        Squad,
        on_delete=models.PROTECT,
        related_name="members",
        verbose_name=_("squad"),
        help_text=_("The club's squad for a season."),
    )
    player = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        related_name="squad_places",
        verbose_name=_("player"),
        help_text=_("A player may be on one club's squad a season."),
    )
    season = models.CharField(
        _("season"), max_length=20, help_text=_("The squad's season, copied from the squad.")
    )

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
