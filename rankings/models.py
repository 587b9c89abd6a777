"""Season settings and player ratings (issue 10).

Season rankings are derived data, like standings (issue 20): `SeasonRankingList` is one
ranking of a season (by player, koppel or club; of a competition kind; of a club), its
`SeasonRankingLine`s the ranked lines, `SeasonRankingState` when they were computed and
whether a write has moved them since; `rankings.season_refresh` keeps them equal to the
computation from the games (`rankings.seasons.season_ranking`). Their one setting,
best-N-of-M, is `Season`. Ratings are derived data, like standings: `RatedGame` is the list
of finished games in the order the ratings took them, `RatingChange` each player's rating
after each of them, `PlayerRating` the latest; `rankings.services.ratings_refresh` keeps
them equal to a rebuild from scratch.
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from scoring.models import Game
from tournaments.models import Club, Player, Team

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


class SeasonRankingState(models.Model):
    """A season's stored rankings (issue 20): `computed_at`, the time the refresh that
    wrote them started (what the page says they are "as of"; None: never computed);
    `stale_since`, when a write that can move them was made since (None: none); and
    `queued_at`, the claim on the one queued refresh (`troefclub.refresh`). `season` is
    the season as competitions write it (`Competition.season`). Every column but `season`
    may be empty: the queue makes a season's row with its first claim."""

    season = models.CharField(_("season"), max_length=20, unique=True)
    computed_at = models.DateTimeField(_("computed at"), null=True, blank=True)
    stale_since = models.DateTimeField(_("stale since"), null=True, blank=True)
    queued_at = models.DateTimeField(_("refresh queued at"), null=True, blank=True)

    class Meta:
        verbose_name = _("season ranking state")
        verbose_name_plural = _("season ranking states")

    def __str__(self) -> str:
        return f"{self.season} rankings as of {self.computed_at}"


class SeasonRankingList(models.Model):
    """One stored season ranking, as the page's filters choose it: `season`, `by` (a
    `scoring.rules.seasons.SeasonBy` value), competition `kind` ("" for both) and `club`
    (the club it is narrowed to; None for all clubs). `games` counted and `evenings` (M)
    and the season's best-N setting `best_evenings` when it was computed (None: none).
    One for each club that played in the season, whether or not it played in `kind`."""

    season = models.CharField(_("season"), max_length=20)
    by = models.CharField(_("ranked by"), max_length=10)
    kind = models.CharField(_("competition kind"), max_length=10, blank=True)
    club = models.ForeignKey(
        Club,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="season_rankings",
        verbose_name=_("club"),
    )
    games = models.PositiveIntegerField(_("games"))
    evenings = models.PositiveIntegerField(_("evenings"))
    best_evenings = models.PositiveSmallIntegerField(_("best evenings"), null=True, blank=True)

    class Meta:
        verbose_name = _("season ranking")
        verbose_name_plural = _("season rankings")
        constraints = [
            models.UniqueConstraint(
                fields=["season", "by", "kind", "club"],
                name="season_ranking_list_once_per_club",
                condition=Q(club__isnull=False),
            ),
            models.UniqueConstraint(
                fields=["season", "by", "kind"],
                name="season_ranking_list_once_for_all",
                condition=Q(club__isnull=True),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.season} by {self.by} {self.kind or 'all'} club {self.club_id or 'all'}"


class SeasonRankingLine(models.Model):
    """One line of a stored season ranking (`rankings.seasons.SeasonRankingRow` as it was
    computed): its `position` in the ranking's own order (1, 2, …), the `rank` (shared by
    equal lines), the player's, koppel's or club's id `entry`, `key` and `name` (and
    `sort_name`, casefolded, for sorting), the tally's columns, and `best_points`: the
    game points of its best N evenings (its best-N average is `best_points / N`, N the
    list's `best_evenings`; None without the setting or without an evening)."""

    ranking = models.ForeignKey(
        SeasonRankingList,
        on_delete=models.CASCADE,
        related_name="lines",
        verbose_name=_("season ranking"),
    )
    position = models.PositiveIntegerField(_("position"))
    rank = models.PositiveIntegerField(_("rank"))
    entry = models.BigIntegerField(_("entry"))
    key = models.CharField(_("key"), max_length=200)
    name = models.TextField(_("name"))
    sort_name = models.TextField(_("name, casefolded"))
    games = models.PositiveIntegerField(_("games"))
    wins = models.PositiveIntegerField(_("won"))
    draws = models.PositiveIntegerField(_("drawn"))
    losses = models.PositiveIntegerField(_("lost"))
    points_for = models.IntegerField(_("game points for"))
    points_against = models.IntegerField(_("game points against"))
    saldo = models.IntegerField(_("saldo"))
    kaps = models.PositiveIntegerField(_("kaps"))
    baunies = models.PositiveIntegerField(_("baunies"))
    failed_baunies = models.PositiveIntegerField(_("failed baunies"))
    early_kaps = models.PositiveIntegerField(_("early kaps"))
    won_as_caller = models.PositiveIntegerField(_("rounds won as caller"))
    won_not_caller = models.PositiveIntegerField(_("rounds won not as caller"))
    best_points = models.IntegerField(_("game points of the best evenings"), null=True)

    class Meta:
        ordering = ["ranking", "position"]
        verbose_name = _("season ranking line")
        verbose_name_plural = _("season ranking lines")
        constraints = [
            models.UniqueConstraint(
                fields=["ranking", "position"], name="season_ranking_line_position"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.rank}. {self.name}"


class PlayerAlias(models.Model):
    """The key of a player merged into another (issue 22, `rankings.merge.player_merge`):
    its old profile URL redirects (301) to `player`'s, and an import file naming the old
    key gets `player`. `name` is the merged player's name, `merged_at` and `merged_by`
    who merged it when (the record of the merge)."""

    key = models.SlugField(
        _("old key"),
        max_length=64,
        unique=True,
        help_text=_("The key of the player that was merged away."),
    )
    player = models.ForeignKey(
        Player,
        on_delete=models.CASCADE,
        related_name="aliases",
        verbose_name=_("player"),
        help_text=_("The player the old key now leads to."),
    )
    name = models.CharField(_("old name"), max_length=120, blank=True)
    merged_at = models.DateTimeField(_("merged at"))
    merged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("merged by"),
    )

    class Meta:
        ordering = ["key"]
        verbose_name = _("merged player key")
        verbose_name_plural = _("merged player keys")

    def __str__(self) -> str:
        return f"{self.key} → {self.player_id}"


class KoppelAlias(models.Model):
    """The key of a koppel merged into another when two merged players left two koppels
    of the same two players (issue 22): its URL redirects (301) to `team`'s."""

    key = models.SlugField(_("old key"), max_length=64, unique=True)
    team = models.ForeignKey(
        Team,
        on_delete=models.CASCADE,
        related_name="aliases",
        verbose_name=_("koppel"),
    )
    merged_at = models.DateTimeField(_("merged at"))

    class Meta:
        ordering = ["key"]
        verbose_name = _("merged koppel key")
        verbose_name_plural = _("merged koppel keys")

    def __str__(self) -> str:
        return f"{self.key} → {self.team_id}"
