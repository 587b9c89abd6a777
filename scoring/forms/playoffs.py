"""The forms of the director's play-off page: the knock-out (size, legs, the rule for a
level tie, the drawn order of each group tied on everything) and a deciding match."""

from __future__ import annotations

from itertools import permutations
from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import Entry, Playoff
from troefclub.validators import validate_single_line_text

# A drawing of lots is offered as the list of the group's possible orders: up to 5 tied
# entries (120 orders); a bigger tie is for deciding matches or the admin's judgement.
LOT_MAX = 5


class PlayoffForm(forms.Form):
    """A knock-out from the final standings; one `lot_<n>` choice per tied group."""

    size = forms.TypedChoiceField(
        label=_("Entries"), choices=[(2, "2"), (4, "4"), (8, "8")], coerce=int, initial=4
    )
    legs = forms.TypedChoiceField(
        label=_("Legs"),
        choices=[(1, _("one match")), (2, _("home and away"))],
        coerce=int,
        initial=1,
    )
    level_rule = forms.ChoiceField(
        label=_("A tie level after all legs"),
        choices=Playoff.LevelRule.choices,
        initial=Playoff.LevelRule.HIGHER_SEED,
    )
    lot_reason = forms.CharField(
        label=_("How the lots were drawn"),
        required=False,
        max_length=500,
        validators=[validate_single_line_text],
        help_text=_("Only for entries tied on everything: who drew, when, witnessed by whom."),
    )

    def __init__(self, *args: Any, tied: list[list[Entry]] = (), **kwargs: Any) -> None:  # type: ignore[assignment]
        super().__init__(*args, **kwargs)
        self.groups = [group for group in tied if 2 <= len(group) <= LOT_MAX]
        for index, group in enumerate(self.groups):
            self.fields[f"lot_{index}"] = forms.ChoiceField(
                label=_("Drawn order of %(entries)s") % {"entries": ", ".join(map(str, group))},
                required=False,
                choices=[("", "—")]
                + [
                    (",".join(str(entry.pk) for entry in order), " › ".join(map(str, order)))
                    for order in permutations(group)
                ],
            )

    def lots(self) -> list[list[int]]:
        """The drawn orders chosen, as entry id lists."""
        return [
            [int(pk) for pk in self.cleaned_data[f"lot_{index}"].split(",")]
            for index in range(len(self.groups))
            if self.cleaned_data.get(f"lot_{index}")
        ]


class DecidingMatchForm(forms.Form):
    """A deciding match between two entries that share a rank."""

    pair = forms.ChoiceField(label=_("Entries tied on everything"))

    def __init__(self, *args: Any, pairs: list[tuple[Entry, Entry]] = (), **kwargs: Any) -> None:  # type: ignore[assignment]
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["pair"]).choices = [
            (",".join(str(pk) for pk in sorted((first.pk, second.pk))), f"{first} – {second}")
            for first, second in pairs
        ]

    def entry_ids(self) -> list[int]:
        return [int(pk) for pk in self.cleaned_data["pair"].split(",")]
