"""The only place where RuleViolation codes become words, in the user's language.

Forms, views and management commands call `rule_message`; tests check that every code
the engine and the services raise has a message here.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.rules import RuleViolation
from troefclub.bidi import isolated_text
from troefclub.pairing_messages import pairing_reason_message
from troefclub.stage_messages import stage_messages
from troefclub.void_messages import void_messages
from troefclub.withdrawal_messages import withdrawal_messages
from troefclub.writes import integrity_violation

RESULT_LABELS = {
    "gewone_winst": gettext_lazy("gewone winst"),
    "kap": gettext_lazy("kap"),
    "kap_partner": gettext_lazy("kap by partner"),
    "baunie": gettext_lazy("baunie"),
    "baunie_mislukt": gettext_lazy("failed baunie"),
    "kap_te_vroeg": gettext_lazy("early kap"),
    "redeal": gettext_lazy("redeal (no picture)"),
}


# The rule set's options (`scoring.rules.RuleSet`) as the competition's form names them:
# a message says "check “target score”", never the attribute.
RULE_FIELD_LABELS = {
    "target_score": gettext_lazy("target score"),
    "fixed_rounds": gettext_lazy("fixed number of rounds"),
    "early_kap_penalty": gettext_lazy("early-kap penalty"),
    "stinkende_kap_bonus": gettext_lazy("stinkende kap bonus"),
    "stinkende_baunie_bonus": gettext_lazy("stinkende baunie bonus"),
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
        # Issue 22's messages live in modules of their own (this one is long enough).
        **withdrawal_messages(),
        **void_messages(),
        **stage_messages(),
        "rule_set_invalid": _("The rule set is not possible: check “%(field)s”."),
        "api_token_name_required": _("Give the API token a name: what it is for."),
        "api_token_unknown": _("There is no such API token of yours."),
        "api_token_sent_already": _(
            "This form was sent already: the API token made then was shown once, in the "
            "answer to it. If it was not copied, revoke it and make a new one."
        ),
        # A text no form lets through (troefclub.validators), refused by a service too.
        "text_control_char": _("Remove the invisible control character %(char)s from the text."),
        "text_surrogate": _(
            "The text is not valid Unicode (a lone surrogate, %(char)s): type it again."
        ),
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
            "Tricks %(side_tricks)s–%(other_tricks)s don't fit the result "
            "“%(result_label)s”: it needs %(expected)s."
        ),
        "game_finished": _(
            "The game is over (%(score_a)s–%(score_b)s): no more rounds can be added."
        ),
        "close_not_allowed": _(
            "This competition does not let the director close a game before its end."
        ),
        "game_not_closed": _("The game was not closed by the director."),
        "sheet_changed": _(
            "Round %(number)s was recorded meanwhile (from another screen, or this form was "
            "sent twice): the game has more rounds now than this form knew. Check the sheet "
            "below and enter the round again only if it is really a new one."
        ),
        "sheet_rounds_removed": _(
            "This form was for round %(number)s, but the game has %(recorded)s rounds now: "
            "rounds were undone or deleted meanwhile (from another screen). Check the sheet "
            "below and enter the round again if it is still needed."
        ),
        "round_changed": _(
            "This round was changed meanwhile (from another screen). Nothing was "
            "overwritten or deleted: here is what it says now; try again if still needed."
        ),
        # Lost updates and double submits (issue 6): a form carries what it saw.
        "round_already_recorded": _(
            "Round %(number)s is recorded already, exactly like this (the form was sent "
            "twice, or from another screen): it is on the sheet once."
        ),
        "game_changed_meanwhile": _(
            "This game was changed by someone else since you opened it: here is what it "
            "holds now; enter again if still needed."
        ),
        "match_changed_meanwhile": _(
            "This match was changed by someone else since you opened it: here is what it "
            "holds now; enter again if still needed."
        ),
        "matchday_changed_meanwhile": _(
            "This matchday was changed since you opened it (by someone else, or this form "
            "was sent twice): here is what it holds now; swap again if still needed."
        ),
        "deductions_changed_meanwhile": _(
            "The deductions were changed by someone else since you opened this page: here "
            "is the list now; add the deduction again if still needed."
        ),
        "deduction_already_added": _(
            "%(points)s points were deducted from %(entry)s already (the form was sent "
            "twice): they count once."
        ),
        "matchday_already_added": _(
            "Matchday %(number)s is added already (the form was sent twice, or by another "
            "director): here it is."
        ),
        "matchday_already_paired": _(
            "Matchday %(number)s is paired already (the form was sent twice, or by another "
            "director): nothing was paired again."
        ),
        "matchday_number_changed": _(
            "The schedule changed since you opened this page: the next matchday is now "
            "%(next)s, not %(number)s. Here is the schedule now; add again if still needed."
        ),
        "match_already_added": _(
            "%(match)s is on this matchday already (the form was sent twice): it is there once."
        ),
        "matchday_not_last": _(
            "Only the last matchday (%(last)s) can be deleted, so the numbering keeps no "
            "holes: delete the later matchdays first, or change matchday %(number)s's "
            "matches instead."
        ),
        "matchday_has_results": _(
            "Matchday %(number)s has results already (rounds, totals, a forfeit or a "
            "deduction on one of its matches): only a matchday without results can be deleted."
        ),
        "bye_counts": _(
            "Matchday %(number)s is played: its bye counts in the standings and stays."
        ),
        "correction_ends_game": _(
            "With this change the game is over after round %(ends_at)s, but it has "
            "%(rounds)s rounds: delete the rounds after it first, or correct it differently."
        ),
        "game_has_totals": _(
            "This game was entered as totals; clear the totals before adding rounds."
        ),
        "game_has_rounds": _(
            "This game has rounds; its totals come from them and cannot be entered."
        ),
        "game_too_many_rounds": _(
            "A game holds at most %(limit)s rounds (redeals included); this one would have "
            "%(rounds)s. Check the sheet: a game to 20 is over in far fewer."
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
        "tiebreak_twice": _("“%(key)s” is chosen twice as a tie-break; each counts once."),
        "entry_unknown": _("“%(entry)s” is not an entry of this competition."),
        "result_unknown": _("“%(result)s” for side “%(side)s” is not a round result."),
        "game_unknown": _("That game does not exist (any more)."),
        "round_unknown": _("That round does not exist (any more)."),
        "match_unknown": _("That match does not exist (any more)."),
        # Schedules, pairings and club matches (issue 3).
        "competition_unknown": _("That competition does not exist (any more)."),
        "matchday_unknown": _("That matchday does not exist (any more)."),
        "schedule_exists": _(
            "This competition has matchdays already: change them one by one instead."
        ),
        "schedule_too_few_entries": _("A schedule needs at least two entries."),
        "matchday_time_without_date": _("A start time needs a date: give the date too."),
        "schedule_duplicate_entry": _("“%(entry)s” is entered twice."),
        "not_swiss": _("This competition is not played in the Swiss system."),
        "previous_matchday_unfinished": _(
            "Matchday %(number)s is not finished (%(open)s open: games in play, matches "
            "without a result, or entries left out). Finish it first, or give a reason to "
            "pair the next matchday anyway."
        ),
        "swiss_too_few_entrants": _("Swiss pairing needs at least two entries."),
        "swiss_no_bye_possible": _(
            "Every entry has had its bye already: with an odd number of entries nobody "
            "can sit out again."
        ),
        "movement_too_many_sittings": _(
            "%(sittings)s sittings need more koppels: with %(koppels)s a side a home koppel "
            "would meet the same away koppel twice."
        ),
        "movement_sides_differ": _(
            "Both sides need the same number of places (home %(home)s, away %(away)s)."
        ),
        "movement_no_tables": _("A club match needs at least one table."),
        "movement_duplicate_koppel": _("A koppel can take only one place in a match."),
        "movement_late_unknown": _("A koppel that joins late must be in the lineup."),
        "movement_late_sitting": _(
            "Sitting %(sitting)s does not exist: this match has %(sittings)s sittings."
        ),
        "movement_too_few_koppels": _(
            "The %(side)s side fields %(koppels)s koppels; at least %(minimum)s are needed."
        ),
        "swiss_duplicate_entrant": _("An entry appears twice in the pairing."),
        "match_same_entry": _("An entry cannot play itself."),
        "match_reported_totals": _(
            "This match has reported totals only: it takes no games. Clear the totals first."
        ),
        "game_same_koppel": _("A koppel cannot play itself."),
        "koppel_not_in_match": _("%(koppel)s does not play in this match."),
        "seats_incomplete": _("Fill all four seats, or none."),
        "game_place_not_in_match": _(
            "Table %(table)s, sitting %(sitting)s is not a place of this match: a pairs game "
            "sits at its match's table in sitting 1; a club-match game within the "
            "competition's sittings and koppels a side."
        ),
        "seats_do_not_fit": _(
            "Seats 1 and 3 are koppel A's two players, seats 2 and 4 koppel B's."
        ),
        "game_has_rounds_setup": _(
            "This game has rounds: its match, koppels and seats can't change any more. "
            "Delete its rounds on the score sheet first."
        ),
        "entry_already_playing": _("%(entry)s already plays (or has the bye) on this matchday."),
        "entry_not_scheduled": _("%(entry)s has no match and no bye on this matchday."),
        "swap_same_match": _("These two already play each other: nothing to swap."),
        "table_taken": _("Table %(table)s is already used on this matchday."),
        "table_invalid": _("Table numbers start at 1."),
        "match_already_at_table": _("Match already at table %(table)s."),
        "match_has_results": _(
            "This match has results already: undo them first, then change the pairing."
        ),
        "not_a_club_match": _("Lineups are for club matches only."),
        "lineup_wrong_size": _("The %(side)s lineup needs exactly %(size)s places."),
        "koppel_not_of_club": _("%(koppel)s is not a koppel of %(club)s."),
        "koppel_not_on_squad": _(
            "%(koppel)s can't play for %(club)s: %(players)s not on the club's squad for "
            "this season."
        ),
        "koppel_twice": _("A koppel can take only one place in a match."),
        # A wrong entry (issue 10's tester): the kind of the competition, and its delete.
        "entry_club_in_pairs_competition": _(
            "%(competition)s is a pairs competition: its entries are koppels. Choose a "
            "koppel and leave the club empty."
        ),
        "entry_koppel_in_club_competition": _(
            "%(competition)s is a club competition: its entries are clubs. Choose a club "
            "and leave the koppel empty."
        ),
        "entry_on_schedule": _(
            "%(entry)s is on the schedule (a match or a bye), so it stays: take it off the "
            "matchdays first. An entry that has played stays in its competition."
        ),
        "entry_has_deductions": _(
            "%(entry)s has deductions (voided ones too: they are its history), so it stays "
            "in its competition."
        ),
        "koppel_has_games": _(
            "%(koppel)s keeps its players: it has games (%(count)s), and they would move to "
            "other players. Make a new koppel for the new partners."
        ),
        "lineup_empty": _(
            "Nobody is chosen for either side. Choose the koppels of at least one side, or "
            "set a forfeit on the form below."
        ),
        "late_not_allowed": _("This competition does not let a koppel join after the start."),
        "late_too_late": _(
            "%(koppel)s cannot join at sitting %(sitting)s: the last sitting to join is %(until)s."
        ),
        "forfeit_side_invalid": _("“%(side)s” is not a side that can forfeit."),
        "forfeit_reason_missing": _("Say why the match is forfeited."),
        "deduction_points_invalid": _("Deduct between 1 and 1000 points, not %(points)s."),
        "deduction_reason_missing": _("Say why the points are deducted."),
        "deduction_unknown": _("That deduction does not exist (any more)."),
        "deduction_already_void": _(
            "This deduction was voided already (%(voided_at)s: %(void_reason)s)."
        ),
        "void_reason_required": _("Say why the deduction is voided."),
        "void_reason_too_long": _("Say why in at most %(limit)s characters."),
        "squad_unknown": _("That squad does not exist (any more)."),
        "squad_locked": _(
            "The squad of %(squad)s is locked since %(locked_on)s: no more changes this season."
        ),
        "player_on_other_squad": _(
            "%(player)s is on the squad of %(club)s for %(season)s; a transfer can only "
            "happen between seasons."
        ),
        "game_not_over": _("Only a finished game can be confirmed."),
        # Season rankings (issue 10).
        "season_by_unknown": _("“%(by)s” is not a season ranking: rank players, koppels or clubs."),
        "best_of_invalid": _(
            "At least one evening must count for the season average, not %(count)s."
        ),
        # Scoring at the table (issue 8): the table's link, confirmation and disputes.
        "link_invalid": _(
            "This link is no longer valid (it was revoked, or it never existed): ask the "
            "director for your table's link."
        ),
        "link_unknown": _("That link is not a link of this game (any more)."),
        "table_other_koppel_enters": _(
            "The rounds of this game are entered by %(team)s: you follow them here, and "
            "confirm or dispute the result once the game is over."
        ),
        "table_not_entering": _("Only the koppel that enters the rounds can undo one."),
        # The phone's offline queue (issue 18): each round carries its own key.
        "round_removed_meanwhile": _(
            "Round %(number)s was stored and has been removed since (undone, or by the "
            "director): it is not entered again by itself. Enter it again if it is still "
            "needed."
        ),
        "round_key_elsewhere": _(
            "This round was sent with the key of a round of another game: it was not "
            "stored. Reload the page and enter it again."
        ),
        "round_not_from_table": _(
            "Round %(number)s was entered by the director, not at this table: only the "
            "director can change it."
        ),
        "table_own_rounds": _(
            "Your koppel entered these rounds: the other koppel confirms or disputes them."
        ),
        "game_confirmed": _(
            "The result is confirmed already: it can't be changed at the table any more. "
            "Ask the director if something is wrong."
        ),
        "game_disputed": _(
            "The result is disputed: the director decides first. Nothing can be changed at "
            "the table until then."
        ),
        "game_closed_by_director": _(
            "The director closed this game: it can't be changed at the table any more. "
            "Ask the director if something is wrong."
        ),
        "dispute_comment_missing": _("Say what is wrong with the result."),
        "dispute_comment_too_long": _("Say what is wrong in at most %(limit)s characters."),
        "dispute_unknown": _("That dispute does not exist (any more)."),
        "dispute_resolved_already": _(
            "This dispute was decided already (by another director, or from another "
            "screen): nothing was changed. Here is the queue as it is now."
        ),
        "resolution_unknown": _("Choose accept, corrected or reject."),
        # The database's backstops (see `integrity_message`).
        "entry_other_competition": _(
            "An entry of another competition can't play on this competition's matchday."
        ),
        "entry_twice_on_matchday": _(
            "An entry plays at most once a matchday: in one match, or it has the bye."
        ),
        "matchday_competition_fixed": _(
            "A matchday with matches or a bye can't move to another competition."
        ),
        "entry_scheduled_fixed": _(
            "An entry that is on the schedule can't change its competition, koppel or club."
        ),
        "pairs_match_one_game": _("A match of a pairs competition has one game."),
        "game_koppels_not_of_match": _(
            "A game of a pairs match is played by the match's two koppels."
        ),
        "koppel_twice_in_sitting": _(
            "A koppel plays one game at a time: it is at another table in this sitting."
        ),
        "entry_koppel_entered_twice": _(
            "This koppel is entered in this competition already: a koppel is entered once."
        ),
        "entry_club_entered_twice": _(
            "This club is entered in this competition already: a club is entered once."
        ),
        "game_koppels_share_player": _(
            "A player is in both koppels: a game's two koppels share no player."
        ),
        "seat_player_twice": _(
            "A player sits at one place: the four seats are four different players."
        ),
        "match_entries_share_player": _(
            "A player is in both entries of this match: a player plays one game at a time."
        ),
        "player_twice_on_matchday": _(
            "A player is in two entries of this matchday's matches: a player plays one game "
            "at a time."
        ),
        # `manage.py check_results` (scoring.selectors.faults.competition_result_problems).
        "pairs_match_no_game": _(
            "A match of a pairs competition has one game; this one has none, and no reported "
            "totals or forfeit either."
        ),
        "match_totals_and_rounds": _(
            "The match has reported totals and games with rounds: the standings count the "
            "totals and ignore the rounds."
        ),
        "game_score_differs": _(
            "The stored %(field)s is %(stored)s, but replaying the game's rounds gives "
            "%(replayed)s."
        ),
        "standings_row_differs": _(
            "%(entry)s: the stored %(column)s is %(stored)s, a fresh computation gives "
            "%(computed)s (manage.py standings SLUG --refresh rebuilds them)."
        ),
        "standings_row_missing": _(
            "%(entry)s has no stored standings row (manage.py standings SLUG --refresh "
            "rebuilds them)."
        ),
        "standings_row_extra": _(
            "%(entry)s has a stored standings row but no place in a fresh computation."
        ),
    }


def _placed_messages() -> dict[str, str]:
    """Words for the codes of `scoring.rules.places` when their params say who and where.

    The same codes come without params from the database's triggers (`integrity_violation`):
    those take the plain words of `_messages`.
    """
    return {
        "entry_other_competition": _("%(entry)s is not an entry of this competition."),
        "entry_twice_on_matchday": _(
            "%(entry)s plays twice on this matchday: in %(first)s and in %(second)s. "
            "An entry plays at most once a matchday, a bye included."
        ),
        "game_koppels_not_of_match": _(
            "%(koppel)s does not play in this match: a game of a pairs match is played by "
            "the match's two koppels, %(home)s and %(away)s."
        ),
        "pairs_match_one_game": _("A match of a pairs competition has one game, not %(games)s."),
        "koppel_twice_in_sitting": _(
            "%(koppel)s plays at two tables in sitting %(sitting)s: a koppel plays one game "
            "at a time."
        ),
        "game_koppels_share_player": _(
            "%(player)s is in both koppels: a game's two koppels share no player."
        ),
        "seat_player_twice": _(
            "%(player)s has two seats (%(first_seat)s and %(seat)s): the four seats "
            "are four different players."
        ),
        "match_entries_share_player": _(
            "%(player)s is in both entries of %(match)s: a player plays one game at a time."
        ),
        "player_twice_on_matchday": _(
            "%(player)s plays twice on this matchday: in %(first)s and in %(second)s. A "
            "player plays one game at a time, whichever koppel they play in."
        ),
    }


def _place_words(place: Any) -> Any:
    """A matchday place of `scoring.rules.places`: a (home, away) match, or None for the bye."""
    if place is None:
        return _("the bye")
    if isinstance(place, tuple) and len(place) == 2:
        home, away = (isolated_text(name) for name in place)
        return _("match %(home)s – %(away)s") % {"home": home, "away": away}
    return place


def integrity_message(exc: Exception) -> str | None:
    """The words for a database error raised by one of our triggers, or None if it is not
    one of ours (`integrity_violation`)."""
    violation = integrity_violation(exc)
    return rule_message(violation) if violation is not None else None


# The params that hold a user-given name (`troefclub.bidi.isolated_text`).
NAME_PARAMS = {"entry", "koppel", "player", "players", "club", "competition", "home", "away",
               "team", "expected", "given", "caller", "entries", "division"}  # fmt: skip


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
    if exc.code == "rule_set_invalid" and "field" in params:
        params["field"] = RULE_FIELD_LABELS.get(params["field"], params["field"])
    if params.get("side") in ("home", "away"):
        # The lineup messages name the side: in the reader's language, not the code's word.
        params["side"] = {"home": _("home"), "away": _("away")}[params["side"]]
    for key in NAME_PARAMS.intersection(params):  # a name can't turn the sentence (issue 19)
        if not isinstance(params[key], int | float):
            params[key] = isolated_text(params[key])
    template = _messages().get(exc.code)
    placed = _placed_messages().get(exc.code)
    # Without the params that say who and where (a trigger's error), the plain words.
    if placed is not None and set(re.findall(r"%\((\w+)\)", placed)) <= params.keys():
        template = placed
        for key in ("first", "second", "match"):
            if key in params:
                params[key] = _place_words(params[key])
    text = (
        template % params
        if template
        else _("Not allowed by the rules (%(code)s).") % {"code": exc.code}
    )
    if "round" in params:
        return _("Round %(round)s: %(text)s") % {"round": params["round"], "text": text}
    return text


__all__ = ["integrity_message", "pairing_reason_message", "rule_message"]
