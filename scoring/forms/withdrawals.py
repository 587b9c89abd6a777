"""The director's forms of withdrawals and check-ins (issue 22)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import Competition, Entry
from troefclub.validators import validate_single_line_text


class WithdrawForm(forms.Form):
    """Withdraw an entry from a matchday on, saying why; the director confirms that its
    pending matches and results follow the competition's settings (`entry_withdraw`).

    An empty reason is left to the service (`withdrawal_reason_required`): one place says it.
    """

    entry = forms.ModelChoiceField(queryset=Entry.objects.none(), label=_("Entry"))
    from_matchday = forms.IntegerField(
        label=_("From matchday"), min_value=1, max_value=32767, required=False
    )
    from_date = forms.DateField(
        label=_("Or from the date"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    reason = forms.CharField(
        label=_("Reason"), max_length=200, required=False, validators=[validate_single_line_text]
    )
    confirm = forms.BooleanField(
        label=_("I understand what the withdrawal does to its matches (see above)"),
        required=True,
    )

    def __init__(self, *args: Any, competition: Competition, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        entries = Entry.objects.filter(competition=competition)
        if not self.is_bound:
            # Offered: those not withdrawn. Sent: any of the competition's, so a form sent
            # twice (a second tab, the back button) reaches `entry_withdraw`, which makes
            # the same withdrawal once and says why another is refused.
            entries = entries.filter(withdrawal__isnull=True)
        field = self.fields["entry"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = entries.select_related("team__player_1", "team__player_2", "club")


class CheckInForm(forms.Form):
    """Mark one entry present or absent on the evening (`checkin_record`)."""

    entry = forms.IntegerField(widget=forms.HiddenInput)
    present = forms.TypedChoiceField(
        choices=[("1", _("present")), ("0", _("absent"))], coerce=lambda v: v == "1"
    )
