"""The forms of the director's match page: a club match's lineup per sitting, a forfeit."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.forms.seen import require_seen, seen_field
from tournaments.models import Match
from troefclub.validators import validate_single_line_text


class ClubLineupForm(forms.Form):
    """The koppels of a club match: `koppels_per_side` places a side, each may stay empty.

    A place offers the koppels whose two players are of that side's club. When the
    competition lets a koppel join late, each place has a "joins at sitting" number.
    Fields: `home_1`…`home_N`, `away_1`…`away_N`, and `home_1_from`… when late is allowed;
    `seen` is the `match_token` of the page (`club_match_lineup_set`).
    """

    seen = seen_field()

    def __init__(
        self,
        *args: Any,
        match: Match,
        home_teams: Any,
        away_teams: Any,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        competition = match.matchday.competition
        self.size = competition.koppels_per_side
        self.until = competition.late_koppel_until_sitting
        self.places: list[tuple[str, str, str | None]] = []
        for side, teams in (("home", home_teams), ("away", away_teams)):
            for place in range(1, self.size + 1):
                name = f"{side}_{place}"
                self.fields[name] = forms.ModelChoiceField(
                    queryset=teams,
                    required=False,
                    label=_("Place %(place)s") % {"place": place},
                    empty_label=_("— nobody —"),
                )
                late_name = None
                if self.until:
                    late_name = f"{name}_from"
                    # No form-level maximum: the service says when a sitting is too late
                    # (`late_too_late`), in the same words wherever the lineup comes from.
                    self.fields[late_name] = forms.IntegerField(
                        label=_("from sitting"), min_value=1, required=False
                    )
                self.places.append((side, name, late_name))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        require_seen(self)
        return data

    def side_fields(self, side: str) -> list[tuple[Any, Any]]:
        """(koppel field, late field or None) per place of `side`, bound, for the template."""
        return [
            (self[name], self[late] if late else None)
            for place_side, name, late in self.places
            if place_side == side
        ]

    @property
    def side_fields_home(self) -> list[tuple[Any, Any]]:
        return self.side_fields("home")

    @property
    def side_fields_away(self) -> list[tuple[Any, Any]]:
        return self.side_fields("away")

    def lineup(self, side: str) -> list[int | None]:
        return [
            team.pk if (team := self.cleaned_data.get(name)) is not None else None
            for place_side, name, _late in self.places
            if place_side == side
        ]

    def late(self) -> dict[int, int]:
        joins: dict[int, int] = {}
        for _side, name, late_name in self.places:
            team = self.cleaned_data.get(name)
            sitting = self.cleaned_data.get(late_name) if late_name else None
            if team is not None and sitting is not None and sitting > 1:
                joins[team.pk] = sitting
        return joins


class ForfeitForm(forms.Form):
    """Record a forfeit (a side and the reason), or lift it (side "—"); `seen` is the
    `match_token` of the page (`match_forfeit_set`)."""

    side = forms.ChoiceField(label=_("Forfeited by"), choices=Match.Forfeit.choices, required=False)
    reason = forms.CharField(
        label=_("Reason"), max_length=200, required=False, validators=[validate_single_line_text]
    )
    seen = seen_field()

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        require_seen(self)
        return data
