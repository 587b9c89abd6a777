"""Scoring at the table: a game's private link and the disputes raised on it."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from scoring.models.games import Game
from troefclub.history import HistoricalRecords


class GameLink(models.Model):
    """One koppel's private way in to its game for scoring at the table, without an account.

    A game has one active link per koppel (`side`, "a"/"b"), each with its own `token`
    (the secret in the link and its QR code): the token says which koppel the phone is.
    The koppel whose link records the game's first round enters the rounds; the other
    koppel confirms or disputes through its own link, so a confirmation is the opponents'
    by construction (a phone holding one koppel's link can't speak for the other). A
    revoked link (`revoked_at`) opens nothing; the next `game_links_ensure` makes a new
    one for that koppel.
    """

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="links", verbose_name=_("game")
    )
    side = models.CharField(
        _("koppel"),
        max_length=1,
        choices=[("a", _("koppel A")), ("b", _("koppel B"))],
        help_text=_("The koppel this link is for: the phone that opens it is this koppel."),
    )
    token = models.CharField(_("token"), max_length=64, unique=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    class Meta:
        verbose_name = _("table link")
        verbose_name_plural = _("table links")
        constraints = [
            models.UniqueConstraint(
                fields=["game", "side"],
                condition=Q(revoked_at__isnull=True),
                name="gamelink_one_active_per_koppel",
                violation_error_message=_(
                    "This koppel has a link to this game already; revoke it first."
                ),
            ),
            models.CheckConstraint(condition=Q(side__in=["a", "b"]), name="gamelink_side_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}{self.side}:{self.token[:6]}…"


class GameDispute(models.Model):
    """A koppel's objection to a game's result as entered at the table.

    `side` is the disputing koppel ("a"/"b"); `comment` says what is wrong. The director
    resolves it (`resolution`: accepted as entered, corrected, or rejected and sent back
    to the table); an open dispute has `resolved_at` empty, at most one per game.
    """

    class Resolution(models.TextChoices):
        ACCEPTED = "accepted", _("Accepted as entered")
        CORRECTED = "corrected", _("Corrected by the director")
        REJECTED = "rejected", _("Rejected: entered again at the table")

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="disputes", verbose_name=_("game")
    )
    side = models.CharField(
        _("disputed by"), max_length=1, choices=[("a", _("koppel A")), ("b", _("koppel B"))]
    )
    comment = models.TextField(_("comment"), max_length=500)
    raised_at = models.DateTimeField(_("raised at"), auto_now_add=True)
    resolved_at = models.DateTimeField(_("resolved at"), null=True, blank=True)
    resolution = models.CharField(
        _("resolution"), max_length=10, blank=True, choices=Resolution.choices
    )
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("resolved by"),
    )

    history = HistoricalRecords()

    class Meta:
        ordering = ["raised_at"]
        verbose_name = _("dispute")
        verbose_name_plural = _("disputes")
        constraints = [
            models.UniqueConstraint(
                fields=["game"],
                condition=Q(resolved_at__isnull=True),
                name="gamedispute_one_open_per_game",
                violation_error_message=_("This game has an open dispute already."),
            ),
            models.CheckConstraint(condition=Q(side__in=["a", "b"]), name="gamedispute_side"),
            models.CheckConstraint(
                condition=Q(resolved_at__isnull=True, resolution="")
                | Q(
                    resolved_at__isnull=False, resolution__in=["accepted", "corrected", "rejected"]
                ),
                name="gamedispute_resolved_with_resolution",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}: {self.comment[:30]}"
