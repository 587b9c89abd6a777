"""Forms of scoring at the table (issue 8): the table's phone page, the director's link
page and queue.

As on the score sheet (`scoring.forms`), forms check the shape of the input and carry hidden
what their page showed (the round number a tap adds, a `seen` token): a double tap or a
retried request is stored once, a stale page never overwrites. Whether the rules allow a
round is the engine's call, made by the services.
"""

from __future__ import annotations

import uuid
from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.forms.seen import require_seen, seen_field
from scoring.forms.sheet import NUMBER_MISSING
from scoring.models import Game, GameDispute
from scoring.services.table import DISPUTE_COMMENT_MAX_LENGTH
from scoring.tokens import TOKEN_MAX_LENGTH
from troefclub.bidi import isolated_text
from troefclub.rule_messages import RESULT_LABELS
from troefclub.validators import validate_multiline_text

KOPPELS = [("a", _("koppel A")), ("b", _("koppel B"))]
# Far more than a queue lists; keeps a forged "accept all" small.
ACCEPT_ALL_MAX = 1000
ID_MAX = 2**63 - 1


def _id_field() -> forms.IntegerField:
    return forms.IntegerField(min_value=1, max_value=ID_MAX, widget=forms.HiddenInput)


class TableRoundForm(forms.Form):
    """One round as the table enters it.

    The big buttons send `quick` ("a"/"b"): gewone winst for that koppel, the most common
    round. Any other result comes from `result` with the koppel in `side` (none for a
    redeal). `caller` offers the four seated players (left out without seats), the one
    whose turn it is preselected. `number` is the round the page adds (required).

    `key` is the round's idempotency key (a UUID: made fresh for each page, by the phone's
    script for each queued round; required with `key_required`, the queue's answer page)
    and `seen` the `game_token` of the state the round was entered on.
    """

    number = forms.IntegerField(
        min_value=1, max_value=32767, required=False, widget=forms.HiddenInput
    )
    key = forms.UUIDField(required=False, widget=forms.HiddenInput)
    seen = seen_field()
    caller = forms.TypedChoiceField(label=_("Caller"), coerce=int, empty_value=None, required=False)
    quick = forms.ChoiceField(choices=KOPPELS, required=False)
    result = forms.ChoiceField(
        label=_("Result"),
        choices=[("", _("— choose —")), *RESULT_LABELS.items()],
        required=False,
    )
    side = forms.ChoiceField(
        label=_("Koppel"),
        widget=forms.RadioSelect,
        required=False,
        help_text=_("The koppel the result is about (for a failed baunie or an early kap too)."),
    )

    def __init__(
        self,
        *args: Any,
        game: Game,
        expected_caller: int | None = None,
        next_number: int | None = None,
        seen: str = "",
        key_required: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.key_required = key_required
        if not self.is_bound:
            # Fresh for every page: the same form sent twice is one round.
            self.initial["key"] = uuid.uuid4()
            self.initial["seen"] = seen
            if next_number is not None:
                self.initial["number"] = next_number
        side = cast(forms.ChoiceField, self.fields["side"])
        side.choices = [("a", isolated_text(game.team_a)), ("b", isolated_text(game.team_b))]
        seated = [
            (player.pk, isolated_text(player))
            for player in (game.seat_1, game.seat_2, game.seat_3, game.seat_4)
            if player is not None
        ]
        if len(seated) == 4:
            caller = cast(forms.ChoiceField, self.fields["caller"])
            caller.choices = [("", _("— not recorded —")), *seated]
            if expected_caller is not None and not self.is_bound:
                self.initial["caller"] = expected_caller
        else:
            del self.fields["caller"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        require_seen(self, "number", NUMBER_MISSING)
        if self.key_required:
            require_seen(self, "key")
        if data.get("quick"):
            data["result"], data["side"] = "gewone_winst", data["quick"]
            return data
        if not data.get("result"):
            if not self.has_error("result"):
                self.add_error("result", _("Choose the result of the round."))
            return data
        if not data.get("side"):
            if data["result"] == "redeal":
                data["side"] = "a"  # stored, but a redeal scores for neither koppel
            elif not self.has_error("side"):
                self.add_error("side", _("Choose the koppel the result is about."))
        return data

    @property
    def caller_id(self) -> int | None:
        value = self.cleaned_data.get("caller")
        return int(value) if value is not None else None


class TableUndoForm(forms.Form):
    """The round the table saw as its last one, and the page's `game_token`."""

    round = forms.IntegerField(
        min_value=1, max_value=ID_MAX, required=False, widget=forms.HiddenInput
    )
    seen = seen_field()

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        require_seen(self)
        require_seen(self, "round")
        return data


class TableConfirmForm(forms.Form):
    """The other koppel agrees: the `game_token` of the result it saw."""

    seen = seen_field()

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        require_seen(self)
        return data


class TableDisputeForm(TableConfirmForm):
    """The other koppel disagrees, saying what is wrong."""

    comment = forms.CharField(
        label=_("What is wrong?"),
        max_length=DISPUTE_COMMENT_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("The director reads this and decides. At most 500 characters."),
        # Control characters would reach the director's queue and the history (the admin's
        # text fields refuse them the same way: `troefclub.admin_input`).
        validators=[validate_multiline_text],
    )


class LinkRevokeForm(forms.Form):
    """The link the director's page showed, to revoke."""

    link = _id_field()


class DisputeResolveForm(forms.Form):
    """The director's decision on a dispute, on the result the queue showed (`seen`)."""

    dispute = _id_field()
    resolution = forms.ChoiceField(choices=GameDispute.Resolution.choices)
    seen = seen_field()

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        require_seen(self)
        return data


class QueueGameForm(forms.Form):
    """A waiting game accepted or sent back, as the queue showed it (`seen`)."""

    game = _id_field()
    seen = seen_field()

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        require_seen(self)
        return data


class SeenGamesField(forms.Field):
    """Hidden "<game id>:<game_token>" values, one a game the page listed: {id: token}."""

    widget = forms.MultipleHiddenInput
    default_error_messages = {
        "invalid": _("This list of games was not sent from the queue: reload the page."),
    }

    def to_python(self, value: Any) -> dict[int, str]:
        values = value if isinstance(value, list | tuple) else []
        if len(values) > ACCEPT_ALL_MAX:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        seen: dict[int, str] = {}
        for text in values:
            head, _sep, token = str(text).partition(":")
            if not head.isdigit() or not 0 < int(head) <= ID_MAX:
                raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
            if not token or len(token) > TOKEN_MAX_LENGTH:
                raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
            seen[int(head)] = token
        return seen


class AcceptAllForm(forms.Form):
    """ "Accept all": the waiting games the queue listed, each as it was listed."""

    games = SeenGamesField(required=False)
