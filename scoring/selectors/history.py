"""The directors' audit history of a game, from the stored history rows (django-simple-history):
who did what, when, in words; the pieces the match history reuses.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Model, OuterRef, Subquery
from django.utils.translation import gettext as _

from scoring.models import Game, GameDispute, GameLink, Round
from scoring.rules import Result
from tournaments.models import Entry, Player, Team
from tournaments.selectors import TEAM_JOINS
from troefclub.rule_messages import RESULT_LABELS

#
# The directors' history pages read simple-history's records (`<Model>.history`): "+"
# created, "~" changed, "-" deleted, with the user the middleware saw. A "~" record is
# written only when a field changed (`troefclub.history`, issue 19), so each one says
# something: consecutive records of one object are compared with `diff_against` (no
# queries: foreign keys stay ids) and worded here; names come from one query per kind of
# thing named. A record that changed nothing is left out: history kept before issue 19
# holds them (a save with nothing changed wrote one).

# A write saves several rows in one transaction (a correction: the round, the later
# rounds' points, the game's score), milliseconds apart; records that follow one another
# this closely, by the same user, and only carry what the engine derived are one change.
_SAME_WRITE = timedelta(seconds=5)

# The `history_change_reason` of a round deleted by the score sheet's undo button
# (`services.round_undo`), so its history says "undone" rather than "deleted".
ROUND_UNDO_REASON = "undo"

_GAME_DERIVED = frozenset(
    {"score_a", "score_b", "kaps_a", "kaps_b", "baunies_a", "baunies_b", "confirmed_by"}
)


@dataclass(frozen=True, slots=True)
class HistoryLine:
    """One change on a director's history page, in words.

    `when` is when it was saved; `who` the user's name, "" when no user made it (an import
    or a management command); `what` one sentence; `details` the "old → new" phrases;
    `game_id`, on a match's page, the game whose own history page tells more.
    """

    when: datetime
    who: str
    what: str
    details: tuple[str, ...] = ()
    game_id: int | None = None


@dataclass(slots=True)
class Event:
    """A `HistoryLine` being built; `derived` events may join the write before them."""

    when: datetime
    user_id: int | None
    who: str
    what: str
    details: list[str]
    derived: bool = False
    game_id: int | None = None
    # What a derived event adds to the write it joins (see `merged_lines`); only its details
    # when it joins a change of the same row (`subject`: model name and id).
    joined: tuple[str, ...] = ()
    subject: tuple[str, int] | None = None


@dataclass(frozen=True, slots=True)
class Names:
    teams: dict[int, str]
    players: dict[int, str]
    entries: dict[int, str]

    def team(self, pk: int | None) -> str:
        return "—" if pk is None else self.teams.get(pk, _("koppel #%(id)s") % {"id": pk})

    def player(self, pk: int | None) -> str:
        return "—" if pk is None else self.players.get(pk, _("player #%(id)s") % {"id": pk})

    def entry(self, pk: int | None) -> str:
        return "—" if pk is None else self.entries.get(pk, _("entry #%(id)s") % {"id": pk})


def history_names(
    *,
    team_ids: Iterable[int | None],
    player_ids: Iterable[int | None],
    entry_ids: Iterable[int],
    known_teams: Iterable[Team] = (),
) -> Names:
    """The names the history records refer to by id: one query a kind, none when unused
    (`known_teams` are loaded already)."""
    known = {team.pk: str(team) for team in known_teams}
    teams = {pk for pk in team_ids if pk is not None} - known.keys()
    players = {pk for pk in player_ids if pk is not None}
    entries = set(entry_ids)
    return Names(
        teams=known
        | {
            team.pk: str(team)
            for team in (
                Team.objects.filter(pk__in=teams).select_related(*TEAM_JOINS) if teams else []
            )
        },
        players=dict(Player.objects.filter(pk__in=players).values_list("pk", "name"))
        if players
        else {},
        entries={
            entry.pk: str(entry)
            for entry in (
                Entry.objects.filter(pk__in=entries).select_related(
                    "team__player_1", "team__player_2", "club"
                )
                if entries
                else []
            )
        },
    )


def history_of(
    model: type[Model], *, annotate: dict[str, Any] | None = None, **filters: Any
) -> list[Any]:
    """The history records of `model` matching `filters`, oldest first, users joined;
    `annotate` adds expressions to each record (in the same query)."""
    history = model.history  # type: ignore[attr-defined]
    return list(
        history.filter(**filters)
        .annotate(**(annotate or {}))
        .select_related("history_user")
        .order_by("history_date", "history_id")
    )


def _at_table(koppel: str | None) -> str:
    """The `who` of a change made at the table (through the game's link, no account)."""
    if not koppel:
        return _("at the table (through the game's link)")
    return _("at the table (%(koppel)s, through the game's link)") % {"koppel": koppel}


def _side_name(side: str, koppels: tuple[str, str]) -> str | None:
    return {"a": koppels[0], "b": koppels[1]}.get(side)


def with_previous(records: Iterable[Any]) -> Iterable[tuple[Any, Any]]:
    """Each record (oldest first) with the record before it of the same row, or None."""
    previous: dict[int, Any] = {}
    for record in records:
        yield record, previous.get(record.id)
        previous[record.id] = record


def changed_fields(record: Any, previous: Any) -> dict[str, tuple[Any, Any]]:
    """field name -> (old, new) of what `record` changed since `previous`."""
    delta = record.diff_against(previous)
    return {change.field: (change.old, change.new) for change in delta.changes}


def void_words(record: Any, changed: dict[str, tuple[Any, Any]]) -> list[str]:
    """A match's or game's void (issue 22) in words, if `record` voided it."""
    if "voided_at" not in changed or record.voided_at is None:
        return []
    return [_("Voided. Reason: %(reason)s") % {"reason": record.void_reason}]


def history_event(record: Any, what: str, details: Iterable[str] = (), **extra: Any) -> Event:
    user = record.history_user
    who = (user.get_full_name() or user.get_username()) if user is not None else ""
    subject = (type(record).__name__, record.id)
    return Event(
        record.history_date,
        record.history_user_id,
        who,
        what,
        list(details),
        subject=subject,
        **extra,
    )


def arrow(old: Any, new: Any) -> str:
    return _("%(old)s → %(new)s") % {"old": old, "new": new}


def score_text(a: int | None, b: int | None) -> str:
    return _("none") if a is None else f"{a}–{b}"


def _round_points(a: int, b: int, koppels: tuple[str, str]) -> str:
    if a:
        return _("%(points)s points to %(koppel)s") % {"points": a, "koppel": koppels[0]}
    if b:
        return _("%(points)s points to %(koppel)s") % {"points": b, "koppel": koppels[1]}
    return _("no points")


def _round_about(record: Any, koppels: tuple[str, str]) -> str:
    """ "kap for Noord": the round's result and the koppel it is about; a redeal is about
    neither koppel, so only its result."""
    result = RESULT_LABELS.get(record.result, record.result)
    if record.result == Result.REDEAL:
        return str(result)
    return _("%(result)s for %(koppel)s") % {
        "result": result,
        "koppel": koppels[0] if record.side == "a" else koppels[1],
    }


def _round_facts(record: Any, names: Names, koppels: tuple[str, str]) -> list[str]:
    facts = []
    if record.caller_id is not None:
        facts.append(_("caller %(name)s") % {"name": names.player(record.caller_id)})
    if record.tricks_a is not None:
        facts.append(
            _("tricks %(tricks)s") % {"tricks": score_text(record.tricks_a, record.tricks_b)}
        )
    facts.append(_round_points(record.points_a, record.points_b, koppels))
    return facts


def _round_events(records: list[Any], names: Names, koppels: tuple[str, str]) -> list[Event]:
    """Round N added / corrected / deleted, renumbered or re-scored, in words."""
    events = []
    for record, previous in with_previous(records):
        number = {"number": record.number}
        if record.history_type == "+":
            what = _("Round %(number)s added: %(about)s") % {
                **number,
                "about": _round_about(record, koppels),
            }
            events.append(
                _table_who(
                    history_event(record, what, _round_facts(record, names, koppels)),
                    record,
                    koppels,
                )
            )
            continue
        if record.history_type == "-":
            undone = record.history_change_reason == ROUND_UNDO_REASON
            what = (
                _("Round %(number)s undone: %(about)s")
                if undone
                else _("Round %(number)s deleted: %(about)s")
            ) % {**number, "about": _round_about(record, koppels)}
            event = history_event(record, what, _round_facts(record, names, koppels))
            events.append(_table_who(event, record, koppels) if undone else event)
            continue
        if previous is None:
            continue  # history began after the row was made: nothing to compare with
        changed = changed_fields(record, previous)
        details = []
        if "result" in changed:
            old, new = changed["result"]
            details.append(
                _("result %(change)s")
                % {"change": arrow(RESULT_LABELS.get(old, old), RESULT_LABELS.get(new, new))}
            )
        if "side" in changed and Result.REDEAL not in changed.get("result", (record.result,)):
            old, new = (koppels[0] if side == "a" else koppels[1] for side in changed["side"])
            details.append(_("koppel %(change)s") % {"change": arrow(old, new)})
        if "caller" in changed:
            old, new = (names.player(pk) for pk in changed["caller"])
            details.append(_("caller %(change)s") % {"change": arrow(old, new)})
        if {"tricks_a", "tricks_b"} & changed.keys():
            old = score_text(previous.tricks_a, previous.tricks_b)
            new = score_text(record.tricks_a, record.tricks_b)
            details.append(_("tricks %(change)s") % {"change": arrow(old, new)})
        corrected = bool(details)
        if {"points_a", "points_b"} & changed.keys():
            old = _round_points(previous.points_a, previous.points_b, koppels)
            new = _round_points(record.points_a, record.points_b, koppels)
            details.append(arrow(old, new))
        if corrected:
            what = _("Round %(number)s corrected") % number
        elif "number" in changed:
            what = _("Round %(old)s is now round %(new)s") % dict(
                zip(("old", "new"), changed["number"], strict=True)
            )
        elif details:
            what = _("Round %(number)s re-scored") % number
        else:
            continue  # a record that changed nothing: only in history kept before issue 19
        joined = (
            (_("%(what)s: %(details)s") % {"what": what, "details": "; ".join(details)},)
            if details
            else (what,)
        )
        events.append(history_event(record, what, details, derived=not corrected, joined=joined))
    return events


def _table_who(event: Event, record: Any, koppels: tuple[str, str]) -> Event:
    """A round added (or undone) through the table's link by nobody logged in: the table
    did it, the koppel that enters with that link (`link_side`, annotated by
    `game_history`; unknown on a match's page)."""
    if record.history_user_id is None and getattr(record, "link_id", None) is not None:
        event.who = _at_table(_side_name(getattr(record, "link_side", None) or "", koppels))
    return event


def _dispute_events(records: list[Any], koppels: tuple[str, str]) -> list[Event]:
    """A koppel disputed the result at the table (with its comment), and how the director
    decided it."""
    events = []
    for record, previous in with_previous(records):
        koppel = _side_name(record.side, koppels) or record.side
        if record.history_type == "+":
            event = history_event(
                record,
                _("Result disputed by %(koppel)s") % {"koppel": koppel},
                [_("comment: %(comment)s") % {"comment": record.comment}],
            )
            if record.history_user_id is None:
                event.who = _at_table(koppel)
            events.append(event)
        elif (
            record.history_type == "~"
            and previous is not None
            and record.resolution
            and record.resolution != previous.resolution
        ):
            label = GameDispute.Resolution(record.resolution).label
            what = _("Dispute of %(koppel)s decided: %(resolution)s") % {
                "koppel": koppel,
                "resolution": label,
            }
            events.append(history_event(record, what))
    return events


def _first_caller(record: Any, names: Names) -> str:
    """The player in the seat that calls round 1 (`first_caller`), "—" while not known."""
    seat = record.first_caller
    return names.player(getattr(record, f"seat_{seat}_id") if seat in (1, 2, 3, 4) else None)


def game_place(record: Any) -> str:
    return _("table %(table)s, sitting %(sitting)s") % {
        "table": record.table,
        "sitting": record.sitting,
    }


def game_event(record: Any, previous: Any, names: Names) -> Event | None:
    """One game record in words: created, deleted, totals, closed, reopened, confirmed,
    moved, seats; `derived` when it only carries what the engine computed (the score)."""
    koppels = _("%(a)s – %(b)s") % {
        "a": names.team(record.team_a_id),
        "b": names.team(record.team_b_id),
    }
    if record.history_type == "+":
        what = _("Game created: %(koppels)s at %(place)s") % {
            "koppels": koppels,
            "place": game_place(record),
        }
        return history_event(record, what, game_id=record.id)
    if record.history_type == "-":
        what = _("Game removed: %(koppels)s at %(place)s") % {
            "koppels": koppels,
            "place": game_place(record),
        }
        return history_event(record, what, game_id=record.id)
    if previous is None:
        return None
    changed = changed_fields(record, previous)
    whats: list[str] = []
    details: list[str] = []
    if {"total_a", "total_b"} & changed.keys():
        old = score_text(previous.total_a, previous.total_b)
        new = score_text(record.total_a, record.total_b)
        if previous.total_a is None:
            whats.append(_("Totals entered: %(totals)s") % {"totals": new})
        elif record.total_a is None:
            whats.append(_("Totals cleared (were %(totals)s)") % {"totals": old})
        else:
            whats.append(_("Totals corrected: %(change)s") % {"change": arrow(old, new)})
    if "status" in changed:
        old, new = changed["status"]
        if new == Game.Status.CLOSED:
            whats.append(_("Closed by the director"))
        elif old == Game.Status.CLOSED:
            whats.append(_("Reopened"))
        elif new == Game.Status.FINISHED:
            details.append(_("game over"))
        else:
            details.append(_("in play again"))
    whats += void_words(record, changed)
    at_table = ""
    if "confirmed_at" in changed:
        if record.confirmed_at is not None:
            whats.append(_("Result confirmed"))
            side = getattr(record, "confirmed_side", "")
            if side and record.history_user_id is None:
                # The other koppel confirmed at the table (`table_game_confirm`).
                at_table = _at_table(names.team(getattr(record, f"team_{side}_id")))
        else:
            details.append(_("confirmation withdrawn: the result changed"))
    for field_name, label in (("team_a", _("koppel A")), ("team_b", _("koppel B"))):
        if field_name in changed:
            old, new = (names.team(pk) for pk in changed[field_name])
            details.append(_("%(label)s %(change)s") % {"label": label, "change": arrow(old, new)})
    seats = ("seat_1", "seat_2", "seat_3", "seat_4")
    if set(seats) & changed.keys():
        old, new = (
            ", ".join(names.player(getattr(version, f"{seat}_id")) for seat in seats)
            for version in (previous, record)
        )
        details.append(_("seats %(change)s") % {"change": arrow(old, new)})
    if "first_caller" in changed:
        old, new = (_first_caller(version, names) for version in (previous, record))
        details.append(_("first caller %(change)s") % {"change": arrow(old, new)})
    if {"table", "sitting"} & changed.keys():
        change = arrow(game_place(previous), game_place(record))
        details.append(change)
    if "a_is_home" in changed:
        details.append(_("koppel A plays for the other side now"))
    if "match" in changed:
        details.append(_("moved to another match"))
    setup = {"team_a", "team_b", "table", "sitting", "a_is_home", "match", "first_caller", *seats}
    if not whats and setup & changed.keys():
        whats.append(_("Game changed"))
    if {"score_a", "score_b"} & changed.keys():
        details.append(
            _("score %(change)s")
            % {
                "change": arrow(
                    score_text(previous.score_a, previous.score_b),
                    score_text(record.score_a, record.score_b),
                )
            }
        )
    if not whats and not details:
        return None  # a record that changed nothing: only in history kept before issue 19
    what = "; ".join(whats) if whats else _("Score updated")
    event = history_event(
        record, what, details, derived=not whats, game_id=record.id, joined=tuple(details)
    )
    if at_table:
        event.who = at_table
    return event


def merged_lines(events: list[Event]) -> list[HistoryLine]:
    """Oldest-first events as lines, newest first; a derived event joins the event just
    before it when the same user saved both in one write (`_SAME_WRITE`)."""
    merged: list[Event] = []
    for event in sorted(events, key=lambda event: event.when):
        last = merged[-1] if merged else None
        if (
            event.derived
            and last is not None
            and last.user_id == event.user_id
            and event.when - last.when <= _SAME_WRITE
        ):
            last.details.extend(event.details if last.subject == event.subject else event.joined)
            continue
        merged.append(event)
    return [
        HistoryLine(event.when, event.who, event.what, tuple(event.details), event.game_id)
        for event in reversed(merged)
    ]


def game_history(*, game: Game) -> list[HistoryLine]:
    """Every change of one game, newest first: rounds added, corrected (old → new),
    deleted, renumbered or re-scored; totals entered or cleared; closed, reopened,
    confirmed; seats and places. The score the engine derived joins the change that
    caused it; a koppel's dispute and its decision. Rounds entered, undone and results
    confirmed or disputed at the table (no account) say so instead of a user. Four queries
    whatever the number of changes (game records, round records with their link's koppel,
    dispute records, player names); `game` comes with its koppels (`game_detail`).
    """
    game_records = history_of(Game, id=game.pk)
    # The koppel that enters with the link a round came through: who added it at the table.
    link_side = GameLink.objects.filter(pk=OuterRef("link_id")).values("side")[:1]
    round_records = history_of(Round, annotate={"link_side": Subquery(link_side)}, game_id=game.pk)
    seats = ("seat_1_id", "seat_2_id", "seat_3_id", "seat_4_id")
    names = history_names(
        team_ids=[game.team_a_id, game.team_b_id]
        + [pk for record in game_records for pk in (record.team_a_id, record.team_b_id)],
        player_ids=[record.caller_id for record in round_records]
        + [getattr(record, seat) for record in game_records for seat in seats],
        entry_ids=[],
        known_teams=(game.team_a, game.team_b),
    )
    koppels = (names.team(game.team_a_id), names.team(game.team_b_id))
    events = _round_events(round_records, names, koppels)
    events += _dispute_events(history_of(GameDispute, game_id=game.pk), koppels)
    for record, previous in with_previous(game_records):
        event = game_event(record, previous, names)
        if event is not None:
            event.game_id = None  # on the game's own page there is nothing to link to
            events.append(event)
    return merged_lines(events)
