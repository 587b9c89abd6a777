"""The directors' audit history of a match: its games' events, lineups, forfeits, deductions
and byes, in words.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from scoring.forfeit_words import forfeit_reason_text
from scoring.models import Game
from scoring.selectors.history import (
    Event,
    HistoryLine,
    Names,
    arrow,
    changed_fields,
    game_event,
    game_place,
    history_event,
    history_names,
    history_of,
    merged_lines,
    score_text,
    void_words,
    with_previous,
)
from tournaments.models import Bye, Deduction, Match
from troefclub.rule_messages import pairing_reason_message


def _match_event(record: Any, previous: Any, names: Names) -> Event | None:
    """One match record in words: created, reported totals, forfeit, lineup, table."""
    if record.history_type == "+":
        what = _("Match created: %(home)s – %(away)s") % {
            "home": names.entry(record.home_id),
            "away": names.entry(record.away_id),
        }
        made = [_("table %(table)s") % {"table": record.table}] if record.table else []
        reason = pairing_reason_message(record.pairing_reason)
        if reason:
            made.append(reason)
        return history_event(record, what, made)
    if record.history_type == "-":
        return history_event(record, _("Match deleted"))
    if previous is None:
        return None
    changed = changed_fields(record, previous)
    whats: list[str] = []
    details: list[str] = []
    if {"total_home", "total_away"} & changed.keys():
        old = score_text(previous.total_home, previous.total_away)
        new = score_text(record.total_home, record.total_away)
        if previous.total_home is None:
            whats.append(_("Reported totals entered: %(totals)s") % {"totals": new})
        elif record.total_home is None:
            whats.append(_("Reported totals cleared (were %(totals)s)") % {"totals": old})
        else:
            whats.append(_("Reported totals corrected: %(change)s") % {"change": arrow(old, new)})
    if {"forfeit", "forfeit_reason"} & changed.keys():
        if not record.forfeit:
            whats.append(_("Forfeit lifted"))
        else:
            whats.append(
                _("Forfeit: %(side)s. Reason: %(reason)s")
                % {
                    "side": Match.Forfeit(record.forfeit).label,
                    "reason": forfeit_reason_text(record.forfeit_reason),
                }
            )
    if "lineup" in changed:
        whats.append(_("Lineup set") if not previous.lineup else _("Lineup changed"))
        details.extend(_lineup_words(record.lineup or {}, names))
    if {"home", "away"} & changed.keys():
        whats.append(_("Entries changed"))
        for field_name, label in (("home", _("home")), ("away", _("away"))):
            if field_name in changed:
                old, new = (names.entry(pk) for pk in changed[field_name])
                details.append(
                    _("%(label)s %(change)s") % {"label": label, "change": arrow(old, new)}
                )
    if "table" in changed:
        whats.append(
            _("Table %(change)s") % {"change": arrow(*(t or "—" for t in changed["table"]))}
        )
    if "matchday" in changed:
        whats.append(_("Moved to another matchday"))
    if "pairing_reason" in changed:
        reason = pairing_reason_message(record.pairing_reason)
        if reason:
            details.append(reason)
    whats += void_words(record, changed)
    if "replayed_by" in changed and record.replayed_by_id is not None:
        whats.append(_("Replay scheduled"))
    if not whats and not details:
        return None  # a record that changed nothing: only in history kept before issue 19
    return history_event(record, "; ".join(whats) or _("Pairing reason changed"), details)


def _lineup_words(lineup: dict[str, Any], names: Names) -> list[str]:
    """ "home: K1, K2, —" and "away: …", and who joins late, from `Match.lineup`."""
    words = []
    for side, label in (("home", _("home")), ("away", _("away"))):
        places = lineup.get(side) or []
        words.append(
            _("%(side)s: %(koppels)s")
            % {"side": label, "koppels": ", ".join(names.team(pk) for pk in places) or "—"}
        )
    for team_id, sitting in (lineup.get("late") or {}).items():
        words.append(
            _("%(koppel)s joins at sitting %(sitting)s")
            % {"koppel": names.team(int(team_id)), "sitting": sitting}
        )
    return words


def _deduction_event(record: Any, previous: Any, names: Names) -> Event | None:
    about = {"points": record.points, "entry": names.entry(record.entry_id)}
    reason = _("reason: %(reason)s") % {"reason": record.reason}
    if record.history_type == "+":
        return history_event(
            record, _("Deduction added: %(points)s points from %(entry)s") % about, [reason]
        )
    if record.history_type == "-":
        return history_event(
            record, _("Deduction deleted: %(points)s points from %(entry)s") % about, [reason]
        )
    if previous is None or "voided_at" not in changed_fields(record, previous):
        return None
    if record.voided_at is None:
        return history_event(
            record, _("Deduction counts again: %(points)s points from %(entry)s") % about
        )
    why = _("why: %(reason)s") % {"reason": record.void_reason}
    return history_event(
        record, _("Deduction voided: %(points)s points from %(entry)s") % about, [reason, why]
    )


def _bye_event(record: Any, previous: Any, names: Names) -> Event | None:
    entry = {"entry": names.entry(record.entry_id)}
    if record.history_type == "+":
        return history_event(record, _("Bye on this matchday for %(entry)s") % entry)
    if record.history_type == "-":
        return history_event(record, _("Bye of %(entry)s removed") % entry)
    if previous is None or previous.entry_id == record.entry_id:
        return None
    change = arrow(names.entry(previous.entry_id), names.entry(record.entry_id))
    return history_event(record, _("Bye moved: %(change)s") % {"change": change})


def match_history(*, match: Match) -> list[HistoryLine]:
    """Every change of one match, newest first: created, reported totals, forfeits,
    lineups, tables; its games created, removed, finished, closed, reopened, confirmed or
    entered as totals (each links to the game's own history for its rounds); deductions
    tied to the match added or voided; byes given, moved or removed on its matchday.

    Seven queries whatever the number of changes: match, game, deduction and bye records,
    then entry, koppel and player names.
    """
    match_records = history_of(Match, id=match.pk)
    game_records = history_of(Game, match_id=match.pk)
    deduction_records = history_of(Deduction, match_id=match.pk)
    bye_records = history_of(Bye, matchday_id=match.matchday_id)
    seats = ("seat_1_id", "seat_2_id", "seat_3_id", "seat_4_id")
    names = history_names(
        team_ids=[
            *(pk for record in game_records for pk in (record.team_a_id, record.team_b_id)),
            *(
                pk
                for record in match_records
                for side in ("home", "away")
                for pk in ((record.lineup or {}).get(side) or [])
            ),
        ],
        player_ids=[getattr(record, seat) for record in game_records for seat in seats],
        entry_ids=[
            *(pk for record in match_records for pk in (record.home_id, record.away_id)),
            *(record.entry_id for record in (*deduction_records, *bye_records)),
        ],
    )
    events: list[Event] = []
    for record, previous in with_previous(match_records):
        if event := _match_event(record, previous, names):
            events.append(event)
    for record, previous in with_previous(game_records):
        event = game_event(record, previous, names)
        if event is None:
            continue
        if event.derived:
            # The score moves with every round (the game's page lists those); here only
            # the moment a game is over, or in play again, is worth a line.
            if previous is None or previous.status == record.status:
                continue
            event.what = (
                _("Game over: %(score)s") % {"score": score_text(record.score_a, record.score_b)}
                if record.status != Game.Status.OPEN
                else _("Game in play again")
            )
            event.details = []
            event.derived = False
        if record.history_type == "~":  # "created"/"removed" name the place already
            event.what = _("%(place)s: %(what)s") % {
                "place": game_place(record).capitalize(),
                "what": event.what,
            }
        events.append(event)
    for record, previous in with_previous(deduction_records):
        if event := _deduction_event(record, previous, names):
            events.append(event)
    for record, previous in with_previous(bye_records):
        if event := _bye_event(record, previous, names):
            events.append(event)
    return merged_lines(events)
