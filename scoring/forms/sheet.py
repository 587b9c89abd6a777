"""The forms of the director's score sheet: a round, the seats and first caller, an undo,
a game's or a match's entered totals.
"""

from __future__ import annotations

from typing import Any, cast

from crispy_forms.bootstrap import InlineRadios
from crispy_forms.helper import FormHelper
from crispy_forms.layout import Div, Layout
from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.forms.seen import SeenForm, require_seen, seen_field
from scoring.models import Game, Round
from scoring.tokens import match_token
from tournaments.models import Match
from troefclub.bidi import isolated_text
from troefclub.rule_messages import RESULT_LABELS

MAX_TRICKS = 13

# Far above any real total; keeps absurd numbers out of the database's small integers.
MAX_TOTAL = 9999


NUMBER_MISSING = _(
    "This form does not say which round it adds (it was not sent from the score sheet): "
    "reload the sheet and enter the round again."
)


def seat_names(game: Game) -> dict[int, str]:
    """Seats 1–4 to player names, for `rule_message(..., seat_names=...)`; {} without seats."""
    players = (game.seat_1, game.seat_2, game.seat_3, game.seat_4)
    return {seat: str(player) for seat, player in enumerate(players, start=1) if player}


class RoundForm(forms.Form):
    """One round as the director enters it: result, the koppel it is about, caller, tricks.

    `side` offers the two koppel names (values "a"/"b"); `caller` the four seated players
    (left out when the game has no seats); tricks are optional, both or none. A new round
    requires the hidden `number` it adds; a correction (`correcting=True`) the hidden
    `seen` token of the round as it was opened (`Round.token`).
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
    number = forms.IntegerField(
        min_value=1, max_value=32767, required=False, widget=forms.HiddenInput
    )
    # A correction: the round as it was when the form was opened (`Round.token`).
    seen = seen_field()

    def __init__(
        self,
        *args: Any,
        game: Game,
        expected_caller: int | None = None,
        next_number: int | None = None,
        correcting: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        self.correcting = correcting
        del self.fields["number" if correcting else "seen"]
        if next_number is not None and not self.is_bound:
            self.initial["number"] = next_number
        # Names as plain text that can't turn the label around (issue 19, troefclub.bidi).
        name_a, name_b = isolated_text(game.team_a), isolated_text(game.team_b)
        side = cast(forms.ChoiceField, self.fields["side"])
        side.choices = [("a", name_a), ("b", name_b)]
        self.fields["tricks_a"].label = _("Tricks %(koppel)s") % {"koppel": name_a}
        self.fields["tricks_b"].label = _("Tricks %(koppel)s") % {"koppel": name_b}
        seated = [
            (player.pk, isolated_text(player))
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
        # The score sheet lays this form out by hand (`game_sheet.html`), crispy the rest.
        for name, css in (("caller", "form-select"), ("tricks_a", "form-control")):
            if name in self.fields:
                self.fields[name].widget.attrs["class"] = css
        self.fields["tricks_b"].widget.attrs["class"] = "form-control"
        self.helper = FormHelper()
        self.helper.form_tag = False
        self.helper.layout = Layout(
            "seen" if correcting else "number",
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
        if self.correcting:
            require_seen(self)
        else:
            require_seen(self, "number", NUMBER_MISSING)
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


class SeatsForm(forms.Form):
    """Who sits where and who calls round 1, set on the score sheet before the game starts.

    Chosen from the two koppels' players: who of koppel A sits in seat 1 (the partner in
    seat 3), who of koppel B in seat 2 (the partner in seat 4), and who calls first (or
    not known yet). `seats` and `first_caller_seat` give them as `game_seats_set` takes
    them; `seen` is the sheet's `services.game_seats_token`.
    """

    seat_1 = forms.TypedChoiceField(coerce=int, widget=forms.RadioSelect)
    seat_2 = forms.TypedChoiceField(coerce=int, widget=forms.RadioSelect)
    first_caller = forms.TypedChoiceField(
        label=_("Calls round 1"),
        coerce=int,
        empty_value=None,
        required=False,
        widget=forms.RadioSelect,
        help_text=_("Found by dealing until a jack; from it the caller of every round follows."),
    )
    seen = seen_field()

    def __init__(self, *args: Any, game: Game, seen: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.pairs = (
            (game.team_a.player_1, game.team_a.player_2),
            (game.team_b.player_1, game.team_b.player_2),
        )
        (a_1, a_2), (b_1, b_2) = self.pairs
        seat_1 = cast(forms.ChoiceField, self.fields["seat_1"])
        seat_2 = cast(forms.ChoiceField, self.fields["seat_2"])
        first = cast(forms.ChoiceField, self.fields["first_caller"])
        seat_1.label = _("Seat 1 (%(koppel)s)") % {"koppel": isolated_text(game.team_a)}
        seat_2.label = _("Seat 2 (%(koppel)s)") % {"koppel": isolated_text(game.team_b)}
        seat_1.help_text = _("The partner sits in seat 3, opposite.")
        seat_2.help_text = _("The partner sits in seat 4, opposite.")
        seat_1.choices = [(a_1.pk, isolated_text(a_1)), (a_2.pk, isolated_text(a_2))]
        seat_2.choices = [(b_1.pk, isolated_text(b_1)), (b_2.pk, isolated_text(b_2))]
        first.choices = [
            *((player.pk, isolated_text(player)) for player in (a_1, a_2, b_1, b_2)),
            ("", _("not known yet")),
        ]
        if not self.is_bound:
            self.initial["seen"] = seen
            self.initial["seat_1"] = game.seat_1_id or a_1.pk
            self.initial["seat_2"] = game.seat_2_id or b_1.pk
            if game.first_caller and game.seat_1_id is not None:
                self.initial["first_caller"] = game.seats[game.first_caller - 1]
            else:
                self.initial["first_caller"] = ""

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        require_seen(self)
        return data

    @property
    def seats(self) -> tuple[int, int, int, int]:
        """The four seats clockwise, from the two chosen: each partner sits opposite."""
        (a_1, a_2), (b_1, b_2) = self.pairs
        one, two = self.cleaned_data["seat_1"], self.cleaned_data["seat_2"]
        three = a_2.pk if one == a_1.pk else a_1.pk
        four = b_2.pk if two == b_1.pk else b_1.pk
        return (one, two, three, four)

    @property
    def first_caller_seat(self) -> int | None:
        """The seat (1–4) of the player chosen to call round 1, or None."""
        player = self.cleaned_data.get("first_caller")
        return None if player is None else self.seats.index(player) + 1


class UndoForm(SeenForm):
    """The round the director saw as the last one when pressing "undo", and the sheet's
    `game_token`; `confirmed` once the director was told what undoing does to a game that
    is over (it reopens, or its winner changes)."""

    round = forms.IntegerField(
        min_value=1, max_value=2**31 - 1, required=False, widget=forms.HiddenInput
    )
    confirmed = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        require_seen(self, "round")
        return data


class GameTotalsForm(forms.Form):
    """The final totals of a game known only from a paper sheet, and the sheet's
    `game_token` (`seen`)."""

    total_a = forms.IntegerField(min_value=0, max_value=MAX_TOTAL)
    total_b = forms.IntegerField(min_value=0, max_value=MAX_TOTAL)
    seen = seen_field()

    def __init__(self, *args: Any, game: Game, seen: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if seen and not self.is_bound:
            self.initial["seen"] = seen
        self.fields["total_a"].label = isolated_text(game.team_a)
        self.fields["total_b"].label = isolated_text(game.team_b)
        self.helper = FormHelper()
        self.helper.form_tag = False
        self.helper.layout = Layout(
            "seen",
            Div(
                Div("total_a", css_class="col-6"),
                Div("total_b", css_class="col-6"),
                css_class="row align-items-end",
            ),
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        require_seen(self)
        return data


class MatchTotalsForm(forms.Form):
    """A match known only as reported totals (a newspaper result), and the `match_token`
    of the page (`seen`; an unbound form reads it from `match`)."""

    total_home = forms.IntegerField(min_value=0, max_value=MAX_TOTAL)
    total_away = forms.IntegerField(min_value=0, max_value=MAX_TOTAL)
    seen = seen_field()

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.is_bound and not self.initial.get("seen"):
            self.initial["seen"] = match_token(match, match.games.values_list("pk", flat=True))
        self.fields["total_home"].label = isolated_text(match.home)
        self.fields["total_away"].label = isolated_text(match.away)
        self.helper = FormHelper()
        self.helper.form_tag = False
        self.helper.layout = Layout(
            "seen",
            Div(
                Div("total_home", css_class="col-6"),
                Div("total_away", css_class="col-6"),
                css_class="row align-items-end",
            ),
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        require_seen(self)
        return data


class QueuedRoundForm(RoundForm):
    """A round of the score sheet's offline queue (static/js/sheet_queue.js): `RoundForm`
    with the round's idempotency `key` (a UUID the sheet made, required) and `seen`, the
    `game_token` the round was built on ("" is a valid value: a replay that found the game
    changed sends it, and the round is refused as `game_changed_meanwhile`)."""

    key = forms.UUIDField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, game: Game, **kwargs: Any) -> None:
        super().__init__(*args, game=game, **kwargs)
        self.fields["seen"] = seen_field()

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        require_seen(self, "key")
        return data
