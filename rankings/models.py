"""Season settings and player ratings (issue 10).

Season rankings are read from the games (`rankings.selectors`); only their one setting,
best-N-of-M, is stored. Ratings are derived data, like standings: `RatedGame` is the list
of finished games in the order the ratings took them, `RatingChange` each player's rating
after each of them, `PlayerRating` the latest; `rankings.services.ratings_refresh` keeps
them equal to a rebuild from scratch.
"""

from __future__ import annotations

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from scoring.models import Game
from tournaments.models import Player

# More evenings than any season has: a typo, not a setting.
BEST_EVENINGS_MAX = 60


class Season(models.Model):
    """A season's ranking settings; `name` is the season as competitions write it
    (`Competition.season`, e.g. 2026-2027). A season without a row has no setting."""

    name = models.CharField(
        _("season"),
        max_length=20,
        unique=True,
        help_text=_("As the competitions write it, e.g. 2026-2027."),
    )
    best_evenings = models.PositiveSmallIntegerField(
        _("best evenings that count"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(BEST_EVENINGS_MAX)],
        help_text=_(
            "Best-N-of-M: the season average counts each player's best N evenings (e.g. 6 "
            "of 8). Empty: no best-N average."
        ),
    )

    class Meta:
        ordering = ["-name"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [
            models.CheckConstraint(
                condition=Q(best_evenings__isnull=True)
                | Q(best_evenings__gte=1, best_evenings__lte=BEST_EVENINGS_MAX),
                name="season_best_evenings_range",
                violation_error_message=format_lazy(
                    _("Between 1 and {max} evenings count, or none (leave it empty)."),
                    max=BEST_EVENINGS_MAX,
                ),
            ),
        ]

    def __str__(self) -> str:
        return self.name


class RatedGame(models.Model):
    """One finished game in the order the ratings took it (1, 2, …): finished games in
    date order (`rankings.selectors.rating_games`).

    `signature` is what the ratings read of the game (date, koppels' players, result): a
    refresh replays from the first position whose game or signature changed. `game` is
    None once the game is deleted (until the next refresh replays from there).
    """

    position = models.PositiveIntegerField(_("position"), unique=True)
    # SET_NULL, not CASCADE: a deleted game leaves its place and its changes behind, so
    # the next refresh sees the place changed and knows whose ratings to replay.
    game = models.OneToOneField(
        Game,
        on_delete=models.SET_NULL,
        null=True,
        related_name="rated",
        verbose_name=_("game"),
    )
    signature = models.CharField(_("signature"), max_length=200)

    class Meta:
        ordering = ["position"]
        verbose_name = _("rated game")
        verbose_name_plural = _("rated games")

    def __str__(self) -> str:
        return f"#{self.position} game {self.game_id}"


class RatingChange(models.Model):
    """A player's rating after one rated game: OpenSkill `mu` and `sigma` (floats, the
    model's units: a new player has mu 25, sigma 25/3)."""

    rated_game = models.ForeignKey(
        RatedGame,
        on_delete=models.CASCADE,
        related_name="changes",
        verbose_name=_("rated game"),
    )
    player = models.ForeignKey(
        Player,
        on_delete=models.CASCADE,
        related_name="rating_changes",
        verbose_name=_("player"),
    )
    mu = models.FloatField(_("mu"))
    sigma = models.FloatField(_("sigma"))

    class Meta:
        ordering = ["rated_game"]
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints = [
            models.UniqueConstraint(
                fields=["player", "rated_game"], name="rating_change_once_per_game"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} after #{self.rated_game_id}: {self.mu:.2f} ± {self.sigma:.2f}"


class PlayerRating(models.Model):
    """A player's current rating: the latest `RatingChange`, and `games`, how many rated
    games it is made of. `ordinal` (mu − 3·sigma) is what the rating list ranks by."""

    player = models.OneToOneField(
        Player,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="rating",
        verbose_name=_("player"),
    )
    mu = models.FloatField(_("mu"))
    sigma = models.FloatField(_("sigma"))
    ordinal = models.FloatField(_("rating"), db_index=True)
    games = models.PositiveIntegerField(_("games"))

    class Meta:
        ordering = ["-ordinal"]
        verbose_name = _("player rating")
        verbose_name_plural = _("player ratings")
        constraints = [
            models.CheckConstraint(condition=Q(games__gte=1), name="player_rating_has_games"),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.ordinal:.1f}"


class RatingsLock(models.Model):
    """One row (pk 1) that a ratings refresh locks: one refresh at a time writes.
    `queued_at`: when the one queued refresh was queued (None: none is queued)."""

    refreshed_at = models.DateTimeField(_("refreshed at"), null=True, blank=True)
    queued_at = models.DateTimeField(_("refresh queued at"), null=True, blank=True)

    class Meta:
        verbose_name = _("ratings lock")
        verbose_name_plural = _("ratings lock")

    def __str__(self) -> str:
        return f"ratings refreshed at {self.refreshed_at}"
