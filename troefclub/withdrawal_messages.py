"""The words of the withdrawal and check-in codes (issue 22), merged into
`troefclub.rule_messages` (kept apart: that module is at its size limit).
"""

from __future__ import annotations

from django.utils.translation import gettext as _


def withdrawal_messages() -> dict[str, str]:
    """The message of each withdrawal and check-in RuleViolation code, in the user's
    language; params as the services raise them."""
    return {
        "withdrawal_reason_required": _("Say why the entry withdraws."),
        "withdrawal_reason_too_long": _(
            "The reason of a withdrawal is at most %(limit)s characters."
        ),
        "withdrawal_from_missing": _(
            "Give the matchday the withdrawal starts from, or its date (one of the two)."
        ),
        "withdrawal_matchday_invalid": _(
            "Matchday %(number)s does not exist: matchday numbers start at 1."
        ),
        "entry_already_withdrawn": _(
            "%(entry)s is withdrawn already (from matchday %(number)s): reinstate it first "
            "to withdraw it from another matchday."
        ),
        "reinstate_after_later_matchday": _(
            "%(entry)s can't be reinstated: matchday %(number)s was added after it withdrew, "
            "without it."
        ),
        "reinstate_after_played_matchday": _(
            "%(entry)s can't be reinstated: matchday %(number)s was played after it "
            "withdrew, and its walk-overs there stand."
        ),
        "reinstate_place_taken": _(
            "%(entry)s can't be reinstated: its place on matchday %(number)s is taken now "
            "(a removed match or bye can't come back)."
        ),
        "entry_withdrawn": _("%(entry)s is withdrawn from matchday %(number)s on."),
        "checkin_matchday_invalid": _(
            "Matchday %(number)s can't be checked in: matchday numbers start at 1."
        ),
    }
