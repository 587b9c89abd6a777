"""The forms of void and replay on the director's match page (issue 22): void the match or
one of its games with a reason, schedule the replay of a voided match. The services check
again (`scoring.services.voids`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from scoring.models import Game
from tournaments.models import Match, Matchday
from troefclub.validators import validate_single_line_text

REASON_MAX = cast(int, Match._meta.get_field("void_reason").max_length)


def _reason_field() -> forms.CharField:
    return forms.CharField(
        label=_("Why it is voided"),
        max_length=REASON_MAX,
        validators=[validate_single_line_text],
        help_text=_("Shown with the result, e.g. “hall closed at 23:00, replayed”."),
    )


class MatchVoidForm(forms.Form):
    """Void the whole match (`match_void`)."""

    reason = _reason_field()


class GameVoidForm(forms.Form):
    """Void one game of the match (`game_void`): the match's total follows. `games`: the
    match's games that count, loaded with their koppels (the page has them already)."""

    game = forms.TypedChoiceField(label=_("Game"), coerce=int)
    reason = _reason_field()

    def __init__(self, *args: Any, games: Sequence[Game] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = cast(forms.TypedChoiceField, self.fields["game"])
        field.choices = [("", "—"), *((game.pk, str(game)) for game in games)]


class ReplayForm(forms.Form):
    """Schedule the replay of a voided match (`match_replay_schedule`): on a matchday of
    the competition, or on a new last matchday on a date."""

    matchday = forms.ModelChoiceField(
        queryset=Matchday.objects.none(),
        label=_("On matchday"),
        required=False,
        empty_label=_("— a new matchday —"),
    )
    date = forms.DateField(
        label=_("Date of the new matchday"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=_("Only for a new matchday: it is added after the last one."),
    )

    def __init__(
        self, *args: Any, matchdays: QuerySet[Matchday] | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        field = cast(forms.ModelChoiceField, self.fields["matchday"])
        field.queryset = matchdays if matchdays is not None else Matchday.objects.none()
