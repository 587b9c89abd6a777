"""Words for the codes of void and replay (issue 22: `scoring.services.voids`), kept beside
`troefclub.rule_messages` (which looks here for a code it lacks) so that module stays one
screen of sections.
"""

from __future__ import annotations

from django.utils.translation import gettext as _


def void_messages() -> dict[str, str]:
    """The message of each void-and-replay code, in the reader's language."""
    return {
        "void_why_missing": _("Say why it is voided: the reason is shown with the result."),
        "match_already_void": _("This match was voided already (%(voided_at)s: %(void_reason)s)."),
        "game_already_void": _("This game was voided already (%(voided_at)s: %(void_reason)s)."),
        "match_voided": _(
            "This match is voided: it takes no more results, forfeits or lineups. Its replay "
            "is another match."
        ),
        "game_match_void": _("The whole match is voided already: none of its games counts."),
        "game_voided": _(
            "This game is voided (or its match is): it takes no more rounds, corrections or "
            "confirmations. Its replay is another match."
        ),
        "replay_needs_matchday_or_date": _(
            "Choose the matchday the replay is played on, or give the date of a new matchday "
            "(one of the two)."
        ),
        "replay_match_not_void": _(
            "Only a voided match can be replayed: void it first, with the reason."
        ),
        "match_replayed_already": _(
            "This match has a replay already (on %(match)s): only one replay can count."
        ),
        "replay_other_fixture": _(
            "A replay is a match of the same two sides in the same competition."
        ),
        "replay_date_too_early": _(
            "A replay on a new matchday is played on %(date)s or later: the last matchday of "
            "the schedule is dated then. Or choose a matchday that exists."
        ),
        "replay_same_matchday": _(
            "A replay is played on another matchday than the voided match: choose a later one."
        ),
    }
