"""The only place where RuleViolation codes become words, in the user's language.

Forms, views and management commands call `rule_message`; tests check that every code
the engine and the services raise has a message here.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.rules import RuleViolation

RESULT_LABELS = {
    "gewone_winst": gettext_lazy("gewone winst"),
    "kap": gettext_lazy("kap"),
    "kap_partner": gettext_lazy("kap by partner"),
    "baunie": gettext_lazy("baunie"),
    "baunie_mislukt": gettext_lazy("failed baunie"),
    "kap_te_vroeg": gettext_lazy("early kap"),
    "redeal": gettext_lazy("redeal (no picture)"),
}

# What trick counts each result needs, as said to a person (RULES.md "Consequences").
TRICKS_EXPECTED = {
    "gewone_winst": gettext_lazy("exactly 7 for the winners and 1 to 6 for the others"),
    "baunie": gettext_lazy("13–0"),
    "baunie_mislukt": gettext_lazy("7 to 12 for the baunie team and exactly 1 for the others"),
    "kap_te_vroeg": gettext_lazy("at most 6 for the team that tapped and 0 for the others"),
}


def _messages() -> dict[str, str]:
    return {
        "rule_set_invalid": _("The rule set is not possible: check “%(field)s”."),
        "seat_invalid": _("Seat %(seat)s does not exist; seats are 1 to 4."),
        "kap_partner_not_allowed": _(
            "This competition does not allow a kap called by the partner."
        ),
        "redeal_not_allowed": _("This competition does not allow a no-picture redeal."),
        "caller_required_for_bonus": _(
            "The stinkende bonus is on, so every round needs its caller."
        ),
        "caller_required": _("This competition records callers: say who called this round."),
        "caller_invalid": _("The caller must be one of the four players at the table."),
        "caller_out_of_turn": _(
            "%(given)s cannot call this round: it is %(expected)s's turn to call."
        ),
        "caller_not_at_table": _("The caller is not one of the four players at this table."),
        "seats_required": _(
            "Callers can only be recorded when the four seats of the game are known."
        ),
        "tricks_invalid": _(
            "Trick counts %(tricks_a)s–%(tricks_b)s are impossible: "
            "0 or more each, 13 in all at most."
        ),
        "tricks_with_redeal": _("A redeal has no tricks: leave the trick counts empty."),
        "kap_only_at_seven_nil": _(
            "A kap can only be called at exactly 7–0 in tricks, "
            "not at %(side_tricks)s–%(other_tricks)s. "
            "From 8–0 on a team must play on for all 13 (baunie)."
        ),
        "tricks_do_not_fit": _(
            "Tricks %(side_tricks)s–%(other_tricks)s don't fit a %(result_label)s: "
            "it needs %(expected)s."
        ),
        "game_finished": _(
            "The game is over (%(score_a)s–%(score_b)s): no more rounds can be added."
        ),
        "close_not_allowed": _(
            "This competition does not let the director close a game before its end."
        ),
        "game_not_closed": _("The game was not closed by the director."),
        "game_has_totals": _(
            "This game was entered as totals; clear the totals before adding rounds."
        ),
        "game_has_rounds": _(
            "This game has rounds; its totals come from them and cannot be entered."
        ),
        "match_has_games": _(
            "This match has games; its totals come from them and cannot be entered."
        ),
        "total_negative": _("The total of %(team)s cannot be negative (%(total)s)."),
        "total_impossible": _(
            "A total of %(total)s for %(team)s is impossible: no rounds add up to it "
            "(rounds give 2, 5 or 15 points, so a total of 1 or 3 can't happen)."
        ),
        "totals_both_reached_target": _(
            "Both koppels cannot reach %(target)s: the game stops when one of them does."
        ),
        "total_overshoots_target": _(
            "%(total)s for %(team)s cannot be a final score: the game stops as soon as a "
            "koppel reaches %(target)s, and no last round ends there."
        ),
        "totals_below_target": _(
            "Neither total reaches %(target)s, and games in this competition end only there."
        ),
        "tiebreak_unknown": _("“%(key)s” is not a known tie-break."),
        "entry_unknown": _("“%(entry)s” is not an entry of this competition."),
        "result_unknown": _("“%(result)s” for side “%(side)s” is not a round result."),
        "game_unknown": _("That game does not exist (any more)."),
        "round_unknown": _("That round does not exist (any more)."),
        "match_unknown": _("That match does not exist (any more)."),
    }


def rule_message(exc: RuleViolation, *, seat_names: dict[int, str] | None = None) -> str:
    """The violation in words, with "Round N: " in front when it names a round.

    `seat_names` maps seats 1–4 to player names, so a caller out of turn is named.
    """
    params: dict[str, Any] = dict(exc.params)
    names = seat_names or {}
    for key in ("expected", "given"):
        if key in params:
            params[key] = names.get(params[key], _("seat %(seat)s") % {"seat": params[key]})
    if "result" in params:
        params["result_label"] = RESULT_LABELS.get(params["result"], params["result"])
        params["expected"] = TRICKS_EXPECTED.get(params["result"], "")
    if "team" in params:
        params["team"] = {
            "a": _("koppel A"),
            "b": _("koppel B"),
            "home": _("the home side"),
            "away": _("the away side"),
        }.get(params["team"], params["team"])
    template = _messages().get(exc.code)
    text = (
        template % params
        if template
        else _("Not allowed by the rules (%(code)s).") % {"code": exc.code}
    )
    if "round" in params:
        return _("Round %(round)s: %(text)s") % {"round": params["round"], "text": text}
    return text
