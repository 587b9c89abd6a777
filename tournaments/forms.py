"""Forms of the tournaments app: the competition form of the admin."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from scoring import selectors
from scoring.messages import rule_message
from scoring.models import Game
from scoring.rules import TIEBREAK_KEYS, RuleViolation, check_tiebreaks
from tournaments.models import Competition


class CompetitionAdminForm(forms.ModelForm):
    """The admin's competition form; rules and tie-breaks are checked by the rules engine.

    A change of rule options is tried on every game already recorded: if one of them
    breaks the new rules (a kap by partner where it is now forbidden, a game that would
    have ended earlier), the form names that game and round and nothing is saved.
    """

    class Meta:
        model = Competition
        fields = [  # every field: the admin's fieldsets pick and order them
            "slug",
            "name",
            "season",
            "kind",
            "target_score",
            "fixed_rounds",
            "kap_partner_allowed",
            "early_kap_penalty",
            "stinkende_kap_bonus",
            "stinkende_baunie_bonus",
            "redeal_allowed",
            "callers_required",
            "close_by_director_allowed",
            "trump_open_card",
            "points_win",
            "points_draw",
            "points_loss",
            "tiebreaks",
            "directors",
        ]
        help_texts = {
            "tiebreaks": format_lazy(
                _('A list, applied in order, e.g. ["points", "saldo"]. Known keys: {keys}.'),
                keys=", ".join(TIEBREAK_KEYS),
            ),
        }

    def clean_tiebreaks(self) -> Any:
        tiebreaks = self.cleaned_data.get("tiebreaks") or []
        if not isinstance(tiebreaks, list) or not all(isinstance(key, str) for key in tiebreaks):
            raise forms.ValidationError(
                _('Give the tie-breaks as a list of names, e.g. ["points", "saldo"].'),
                code="tiebreaks_not_a_list",
            )
        try:
            check_tiebreaks(tiebreaks)
        except RuleViolation as exc:
            raise forms.ValidationError(rule_message(exc), code=exc.code) from None
        return tiebreaks

    def clean_kind(self) -> Any:
        kind = self.cleaned_data.get("kind")
        instance = self.instance
        if instance.pk is not None and kind != instance.kind and instance.entries.exists():
            # Entries are koppels in a pairs competition and clubs in a club competition.
            raise forms.ValidationError(
                _("The kind can't change while the competition has entries (%(entries)s)."),
                code="kind_has_entries",
                params={"entries": instance.get_kind_display()},
            )
        return kind

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if any(name in self.errors for name in Competition.RULE_FIELDS):
            return cleaned
        candidate = Competition(**{name: cleaned.get(name) for name in Competition.RULE_FIELDS})
        try:
            rules = candidate.rule_set
        except RuleViolation as exc:
            raise forms.ValidationError(rule_message(exc), code=exc.code) from None
        if self.instance.pk is None:
            return cleaned
        try:
            selectors.competition_games_replay(competition=self.instance, rules=rules)
        except RuleViolation as exc:
            game = Game.objects.select_related("match__matchday").get(pk=exc.params["game"])
            raise forms.ValidationError(
                _(
                    "These rules don't fit a game already played (%(matchday)s, %(game)s): "
                    "%(problem)s"
                ),
                code=exc.code,
                params={
                    "matchday": game.match.matchday,
                    "game": game,
                    "problem": rule_message(exc),
                },
            ) from None
        return cleaned
