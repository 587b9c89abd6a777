"""Words for the reasons a pairing or bye was made (`Match.pairing_reason`,
`Bye.reason`: the Swiss and late-koppel schedules store a code and its params), kept
beside `troefclub.rule_messages` (which re-exports `pairing_reason_message`) so that
module stays one screen of sections.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy


def _pairing_reasons() -> dict[str, str]:
    return {
        "same_score_group": _("Same score group: both have %(points)s points."),
        "floated": _(
            "Floated between score groups: %(from_points)s and %(to_points)s points, the "
            "closest scores without a rematch."
        ),
        "rematch_unavoidable": _(
            "Rematch (met %(times)s times before): every other pairing would leave "
            "someone without an opponent."
        ),
        "manual": _("Set by hand by the director."),
        "round_robin": _("Round robin schedule."),
        "late": _("Late: arrived after the matchday was paired."),
        "bye_lowest_without_bye": _(
            "Bye: the lowest-placed entry without a bye yet (%(points)s points)."
        ),
        "bye_unavoidable_repeat": _(
            "Bye again: every entry has had %(byes)s bye(s) already; lowest placed "
            "(%(points)s points)."
        ),
    }


# The words a reason needs when its params were not stored (older rows, manual edits).
_PAIRING_REASONS_WITHOUT_PARAMS = {
    "bye_lowest_without_bye": gettext_lazy("Bye: the lowest-placed entry without a bye yet."),
    "bye_unavoidable_repeat": gettext_lazy(
        "Bye again: every entry has had a bye already; the lowest placed gets another."
    ),
    "rematch_unavoidable": gettext_lazy(
        "Rematch: every other pairing would leave someone without an opponent."
    ),
    "floated": gettext_lazy("Floated to the closest score without a rematch."),
    "same_score_group": gettext_lazy("Same score group."),
}


def pairing_reason_message(reason: dict[str, Any] | None) -> str:
    """Why a match (or a bye) was made, in words, from its stored {"code", "params"}.

    Codes come from `tournaments.schedules.swiss` and the schedule services. An empty
    reason is "" (a match made before reasons were kept); an unknown code is named.
    """
    if not reason or not isinstance(reason, dict) or not reason.get("code"):
        return ""
    code = str(reason["code"])
    params = reason.get("params") or {}
    template = _pairing_reasons().get(code)
    if template is None:
        return _("Paired by rule “%(code)s”.") % {"code": code}
    try:
        text = template % params
    except (KeyError, TypeError, ValueError):
        text = str(_PAIRING_REASONS_WITHOUT_PARAMS.get(code, template))
    if code == "bye_lowest_without_bye" and params.get("passed_over"):
        text += " " + _(
            "%(passed_over)s lower-placed entries were passed over to avoid a rematch."
        ) % {"passed_over": params["passed_over"]}
    return text
