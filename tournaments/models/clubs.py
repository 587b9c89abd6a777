"""Clubs, players and koppels (`Team`: two players opposite each other), with their keys."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from troefclub.fields import NameField
from troefclub.validators import KEY_FORBIDDEN_START, validate_key_start, validate_key_visible


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

    key = models.SlugField(
        _("key"),
        max_length=64,
        unique=True,
        validators=[validate_key_start, validate_key_visible],
        help_text=_(
            "A short code that never changes, e.g. the federation's club code: import files "
            "find the club by it. Letters, digits, - and _."
        ),
    )
    name = NameField(_("name"), max_length=120, help_text=_("The club's name as players know it."))

    # Moved by every save (and bulk_create): the API's ETags of the registry's reads look
    # here (issue 21). A write by QuerySet.update() or save(update_fields=…) must name it.
    updated_at = models.DateTimeField(
        _("updated at"),
        auto_now=True,
        db_index=True,
        help_text=_("When the row last changed (set on every save)."),
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        constraints = [key_start_constraint("key", "club")]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    """A player; `key` is stable across import files (think licence number)."""

    key = models.SlugField(
        _("key"),
        max_length=64,
        unique=True,
        validators=[validate_key_start, validate_key_visible],
        help_text=_(
            "A short code that never changes, e.g. the licence number: import files find the "
            "player by it. Letters, digits, - and _."
        ),
    )
    name = NameField(
        _("name"), max_length=120, help_text=_("The name shown on score sheets and standings.")
    )
    club = models.ForeignKey(
        Club,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="players",
        verbose_name=_("club"),
        help_text=_("The club the player plays for now; empty for a player without a club."),
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
        ordering = ["name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [key_start_constraint("key", "player")]

    def __str__(self) -> str:
        return self.name


class Team(models.Model):
    """A koppel: two players who sit opposite each other."""

    key = models.SlugField(
        _("key"),
        max_length=64,
        unique=True,
        validators=[validate_key_start, validate_key_visible],
        help_text=_(
            "A short code that never changes: import files and the director's pages find the "
            "koppel by it. Letters, digits, - and _."
        ),
    )
    name = NameField(
        _("name"),
        max_length=120,
        blank=True,
        help_text=_("Optional; empty: the koppel is shown as its two players' names."),
    )
    player_1 = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("player 1"),
        help_text=_("One of the two partners; they sit opposite each other."),
    )
    player_2 = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("player 2"),
        help_text=_("The other partner (a different player)."),
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
