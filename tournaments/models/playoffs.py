"""A knock-out stage (play-offs) or a deciding match (beslissingswedstrijd) after a
competition: the stage, its seeds from the source competition's final standings, and its
ties (one or two legs).

A stage is a `Competition` of its own (`Playoff.competition`), linked to the competition
it was seeded from (`Playoff.source`): its entries, matchdays, matches and games are the
ordinary rows, scored, confirmed, corrected and exported like any other, and its
standings never mix into the source competition's table. Written by
`scoring.services.playoffs` only.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models.competitions import Competition, Entry
from tournaments.models.schedule import Match
from troefclub.history import HistoricalRecords


class Playoff(models.Model):
    """A knock-out stage of 2, 4 or 8 entries, or a deciding match between two entries
    tied on every tie-break, after `source`; its matches are `competition`'s."""

    class Kind(models.TextChoices):
        KNOCKOUT = "knockout", _("Play-offs (knock-out)")
        DECIDING = "deciding", _("Deciding match")

    class LevelRule(models.TextChoices):
        # Default: the league's order already rewards the higher seed, and no extra
        # evening has to be found (federations that want a deciding game say so).
        HIGHER_SEED = "higher_seed", _("the higher seed goes through")
        DECIDING_GAME = "deciding_game", _("a deciding match between the two")

    competition = models.OneToOneField(
        Competition,
        on_delete=models.CASCADE,
        related_name="playoff",
        verbose_name=_("stage"),
        help_text=_("The competition holding the stage's entries, matchdays and matches."),
    )
    source = models.ForeignKey(
        Competition,
        on_delete=models.PROTECT,
        related_name="playoffs",
        verbose_name=_("seeded from"),
        help_text=_("The competition whose final standings seeded the stage."),
    )
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices, default=Kind.KNOCKOUT)
    size = models.PositiveSmallIntegerField(
        _("entries"), help_text=_("How many entries the knock-out starts with: 2, 4 or 8.")
    )
    legs = models.PositiveSmallIntegerField(
        _("legs"),
        default=1,
        help_text=_("1: one match a tie; 2: home and away, the game points added up."),
    )
    level_rule = models.CharField(
        _("a tie level after all legs"),
        max_length=16,
        choices=LevelRule.choices,
        default=LevelRule.HIGHER_SEED,
        help_text=_("Who goes through when both sides scored the same game points over the tie."),
    )
    lot_reason = models.TextField(
        _("why entries tied on everything were ordered so"),
        blank=True,
        help_text=_("The director's record of a drawing of lots between tied entries."),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("made by"),
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("play-off")
        verbose_name_plural = _("play-offs")
        constraints = [
            models.CheckConstraint(
                condition=Q(size__in=[2, 4, 8]),
                name="playoff_size_2_4_8",
                violation_error_message=_("A knock-out has 2, 4 or 8 entries."),
            ),
            models.CheckConstraint(
                condition=Q(legs__in=[1, 2]),
                name="playoff_legs_1_2",
                violation_error_message=_("A tie has one leg or two (home and away)."),
            ),
            models.CheckConstraint(
                condition=~Q(kind="deciding") | Q(size=2, legs=1),
                name="playoff_deciding_is_one_match",
                violation_error_message=_("A deciding match is one match between two entries."),
            ),
            models.CheckConstraint(
                condition=~Q(competition=models.F("source")),
                name="playoff_not_its_own_source",
                violation_error_message=_("A stage cannot be seeded from itself."),
            ),
        ]

    def __str__(self) -> str:
        return str(self.competition)

    @property
    def rounds(self) -> int:
        """How many rounds the knock-out has: 1 (final), 2, 3."""
        return self.size.bit_length() - 1


class PlayoffSeed(models.Model):
    """Seed `seed` of a stage: the stage's entry, the source's entry and the rank it had
    there, and what put it at this seed (`decided_by`: a tie-break key, `deciding_match`
    or `lot`)."""

    playoff = models.ForeignKey(
        Playoff, on_delete=models.CASCADE, related_name="seeds", verbose_name=_("play-off")
    )
    seed = models.PositiveSmallIntegerField(_("seed"))
    entry = models.ForeignKey(
        Entry, on_delete=models.PROTECT, related_name="+", verbose_name=_("entry")
    )
    source_entry = models.ForeignKey(
        Entry, on_delete=models.PROTECT, related_name="+", verbose_name=_("entry in the source")
    )
    source_rank = models.PositiveSmallIntegerField(_("rank in the source standings"))
    decided_by = models.CharField(_("placed by"), max_length=20, blank=True)

    class Meta:
        ordering = ["playoff", "seed"]
        verbose_name = _("play-off seed")
        verbose_name_plural = _("play-off seeds")
        constraints = [
            models.UniqueConstraint(fields=["playoff", "seed"], name="playoff_seed_once"),
            models.UniqueConstraint(fields=["playoff", "entry"], name="playoff_seed_entry_once"),
            models.CheckConstraint(condition=Q(seed__gte=1), name="playoff_seed_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.seed}. {self.entry}"


class PlayoffTie(models.Model):
    """One pairing of a round of a stage (round 1 first, the final last; `position` 1, 2, …
    top to bottom of the bracket): its entries once known, its legs' matches once made,
    its winner once decided. Tie `position` p of round r feeds tie (p + 1) // 2 of round
    r + 1, at home when p is odd."""

    playoff = models.ForeignKey(
        Playoff, on_delete=models.CASCADE, related_name="ties", verbose_name=_("play-off")
    )
    round = models.PositiveSmallIntegerField(_("round"))
    position = models.PositiveSmallIntegerField(_("position"))
    home = models.ForeignKey(
        Entry, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    away = models.ForeignKey(
        Entry, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    leg_1 = models.OneToOneField(
        Match, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    leg_2 = models.OneToOneField(
        Match, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    # Level after all legs under `LevelRule.DECIDING_GAME`: one more match between the two
    # (the tie's home entry at home), on matchday rounds × legs + round.
    decider = models.OneToOneField(
        Match, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    winner = models.ForeignKey(
        Entry, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    history = HistoricalRecords()

    class Meta:
        ordering = ["playoff", "round", "position"]
        verbose_name = _("play-off tie")
        verbose_name_plural = _("play-off ties")
        constraints = [
            models.UniqueConstraint(
                fields=["playoff", "round", "position"], name="playoff_tie_place_once"
            ),
            models.CheckConstraint(
                condition=Q(winner__isnull=True)
                | Q(winner=models.F("home"))
                | Q(winner=models.F("away")),
                name="playoff_tie_winner_plays",
                violation_error_message=_("The winner of a tie is one of its two entries."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.playoff_id} R{self.round}.{self.position}"
