"""Forms of the director's score sheet: a round, a game's totals, a match's totals.

Forms check the shape of the input (a known result, a seated caller, trick counts 0–13,
both or none); whether the rules allow it is the engine's call, made by the services.
Their `RuleViolation`s come back as form errors through `scoring.messages.rule_message`.
"""

from __future__ import annotations

from typing import Any, cast

from crispy_forms.bootstrap import InlineRadios
from crispy_forms.helper import FormHelper
from crispy_forms.layout import Div, Layout
from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.messages import RESULT_LABELS
from scoring.models import Game, Round
from tournaments.models import Match

MAX_TRICKS = 13
# Far above any real total; keeps absurd numbers out of the database's small integers.
MAX_TOTAL = 9999


def seat_names(game: Game) -> dict[int, str]:
    """Seats 1–4 to player names, for `rule_message(..., seat_names=...)`; {} without seats."""
    players = (game.seat_1, game.seat_2, game.seat_3, game.seat_4)
    return {seat: str(player) for seat, player in enumerate(players, start=1) if player}


class RoundForm(forms.Form):
    """One round as the director enters it: result, the koppel it is about, caller, tricks.

    `side` offers the two koppel names (values "a"/"b"); `caller` the four seated players
    (left out when the game has no seats); tricks are optional, both or none.
    """

    result = forms.ChoiceField(
        label=_("Result"), choices=list(RESULT_LABELS.items()), widget=forms.RadioSelect
    )
    side = forms.ChoiceField(
        label=_("Koppel"),
        widget=forms.RadioSelect,
        required=False,  # a redeal is about neither koppel; `clean` asks for it otherwise
        help_text=_("The koppel the result is about (for a failed baunie or an early kap too)."),
    )
    caller = forms.TypedChoiceField(label=_("Caller"), coerce=int, empty_value=None)
    tricks_a = forms.IntegerField(min_value=0, max_value=MAX_TRICKS, required=False)
    tricks_b = forms.IntegerField(min_value=0, max_value=MAX_TRICKS, required=False)
    # The round number this form adds: a second phone, or the same form sent twice, must not
    # record the round again (`round_record(expected_number=…)`).
    number = forms.IntegerField(min_value=1, required=False, widget=forms.HiddenInput)
    # A correction: the round as it was when the form was opened (`Round.token`).
    seen = forms.CharField(required=False, max_length=80, widget=forms.HiddenInput)

    def __init__(
        self,
        *args: Any,
        game: Game,
        expected_caller: int | None = None,
        next_number: int | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        if next_number is not None and not self.is_bound:
            self.initial["number"] = next_number
        name_a, name_b = str(game.team_a), str(game.team_b)
        side = cast(forms.ChoiceField, self.fields["side"])
        side.choices = [("a", name_a), ("b", name_b)]
        self.fields["tricks_a"].label = _("Tricks %(koppel)s") % {"koppel": name_a}
        self.fields["tricks_b"].label = _("Tricks %(koppel)s") % {"koppel": name_b}
        seated = [
            (player.pk, str(player))
            for player in (game.seat_1, game.seat_2, game.seat_3, game.seat_4)
            if player is not None
        ]
        if len(seated) == 4:
            rules = game.match.matchday.competition.rule_set
            caller = cast(forms.ChoiceField, self.fields["caller"])
            # Not required here: the rules engine refuses a missing caller with the reason
            # (callers recorded, or the stinkende bonus needs them).
            caller.required = False
            caller.choices = [("", _("— not recorded —")), *seated]
            if expected_caller is not None and not self.is_bound and "caller" not in self.initial:
                self.initial["caller"] = expected_caller
            if rules.needs_caller:
                caller.help_text = _("This competition records who called every round.")
            else:
                caller.help_text = _(
                    "Optional. Once the rotation is known, whose turn it is is preselected."
                )
        else:
            del self.fields["caller"]
        self.helper = FormHelper()
        self.helper.form_tag = False
        self.helper.layout = Layout(
            "number",
            "seen",
            "result",
            InlineRadios("side"),
            *(["caller"] if "caller" in self.fields else []),
            Div(
                Div("tricks_a", css_class="col-6"),
                Div("tricks_b", css_class="col-6"),
                css_class="row align-items-end",
            ),
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not data.get("side"):
            if data.get("result") == "redeal":
                data["side"] = "a"  # stored, but a redeal scores for neither koppel
            elif not self.has_error("side"):
                self.add_error("side", _("Choose the koppel the result is about."))
        tricks_a, tricks_b = data.get("tricks_a"), data.get("tricks_b")
        bad_input = self.has_error("tricks_a") or self.has_error("tricks_b")
        if not bad_input and (tricks_a is None) != (tricks_b is None):
            raise forms.ValidationError(
                _("Give the tricks of both koppels, or leave both empty."),
                code="tricks_both_or_none",
            )
        return data

    @property
    def tricks(self) -> tuple[int, int] | None:
        """The cleaned trick counts as (koppel A, koppel B), or None."""
        tricks_a, tricks_b = self.cleaned_data.get("tricks_a"), self.cleaned_data.get("tricks_b")
        if tricks_a is None or tricks_b is None:
            return None
        return (tricks_a, tricks_b)

    @property
    def caller_id(self) -> int | None:
        value = self.cleaned_data.get("caller")
        return int(value) if value is not None else None

    @classmethod
    def initial_for(cls, rnd: Round) -> dict[str, Any]:
        """The form's initial data for correcting a stored round."""
        return {
            "result": rnd.result,
            "side": rnd.side,
            "caller": rnd.caller_id,
            "tricks_a": rnd.tricks_a,
            "tricks_b": rnd.tricks_b,
            "seen": rnd.token,
        }


class UndoForm(forms.Form):
    """The round the director saw as the last one when pressing "undo"."""

    round = forms.IntegerField(min_value=1, widget=forms.HiddenInput)


class GameTotalsForm(forms.Form):
    """The final totals of a game known only from a paper sheet."""

    total_a = forms.IntegerField(min_value=0, max_value=MAX_TOTAL)
    total_b = forms.IntegerField(min_value=0, max_value=MAX_TOTAL)

    def __init__(self, *args: Any, game: Game, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["total_a"].label = str(game.team_a)
        self.fields["total_b"].label = str(game.team_b)
        self.helper = FormHelper()
        self.helper.form_tag = False
        self.helper.layout = Layout(
            Div(
                Div("total_a", css_class="col-6"),
                Div("total_b", css_class="col-6"),
                css_class="row align-items-end",
            )
        )


class MatchTotalsForm(forms.Form):
    """A match known only as reported totals (a newspaper result)."""

    total_home = forms.IntegerField(min_value=0, max_value=MAX_TOTAL)
    total_away = forms.IntegerField(min_value=0, max_value=MAX_TOTAL)

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["total_home"].label = str(match.home)
        self.fields["total_away"].label = str(match.away)
        self.helper = FormHelper()
        self.helper.form_tag = False
        self.helper.layout = Layout(
            Div(
                Div("total_home", css_class="col-6"),
                Div("total_away", css_class="col-6"),
                css_class="row align-items-end",
            )
        )
