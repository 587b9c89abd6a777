"""Divisions of a league's season: each division one competition of that season, ranked by
`level` (1 the top), with how many of its entries go up and down at the season's end.
Rolled into the next season by `scoring.services.divisions.season_divisions_roll` only.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models.competitions import Competition
from troefclub.fields import NameField
from troefclub.history import HistoricalRecords


class Division(models.Model):
    """One division (e.g. Hoofdklasse, Eerste klasse) of `league` in `season`, played as
    `competition`. `promoted` of its best entries go up a level, `relegated` of its worst
    go down (none up from the top division, none down from the lowest)."""

    league = NameField(
        _("league"),
        max_length=80,
        help_text=_("The league (bond) the divisions belong to, e.g. STCB."),
    )
    season = models.CharField(_("season"), max_length=20, help_text=_("E.g. 2026-2027."))
    name = NameField(_("name"), max_length=80, help_text=_("E.g. Hoofdklasse."))
    level = models.PositiveSmallIntegerField(
        _("level"), help_text=_("1 for the top division, 2 below it, and so on.")
    )
    competition = models.OneToOneField(
        Competition,
        on_delete=models.PROTECT,
        related_name="division",
        verbose_name=_("competition"),
        help_text=_("The competition the division plays this season."),
    )
    # Default 1 up and 1 down: the most common exchange between two divisions; the league
    # admin sets more on the division.
    promoted = models.PositiveSmallIntegerField(
        _("go up"), default=1, help_text=_("How many of its best entries go up a level.")
    )
    relegated = models.PositiveSmallIntegerField(
        _("go down"), default=1, help_text=_("How many of its worst entries go down a level.")
    )

    history = HistoricalRecords()

    class Meta:
        ordering = ["league", "-season", "level"]
        verbose_name = _("division")
        verbose_name_plural = _("divisions")
        constraints = [
            models.UniqueConstraint(
                fields=["league", "season", "level"],
                name="division_level_once",
                violation_error_message=_("This league has a division at this level already."),
            ),
            models.CheckConstraint(
                condition=Q(level__gte=1),
                name="division_level_positive",
                violation_error_message=_("Levels start at 1 (the top division)."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.league} {self.season}: {self.name}"
