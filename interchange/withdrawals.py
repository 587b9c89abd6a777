"""Withdrawals in `troefclub-competition/1` (issue 22): the competition's optional
`withdrawal` settings and the optional top-level `withdrawals` list, read, written on
import and exported.

```json
"competition": {..., "withdrawal": {"fixtures": "walkover", "played": "half"}},
"withdrawals": [{"entry": "t3", "from_matchday": 4, "date": "2026-11-01",
                 "reason": "moved away", "fixtures": "walkover", "played": "keep",
                 "removed": [{"matchday": 5, "home": "t3", "away": "t1", "table": 2}],
                 "matchdays_then": 3}]
```

The settings default to the model's (`WithdrawalSettings`) and are exported only when they
differ. A withdrawal's `fixtures` defaults to the competition's setting, `played` to its
setting with "half" read as "keep", `date` to none, `removed` to none, `matchdays_then`
(the matchdays there were when it withdrew: a later one refuses a reinstatement) to the
file's last matchday. The file's matches carry the withdrawal's walk-overs already (their
forfeit `cause` "withdrew"), so an import stores the withdrawal as it is, after the checks
`entry_withdraw` makes of its reason.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from interchange.constants import competition_default
from interchange.document import _Document
from interchange.errors import InterchangeError
from interchange.values import _choice, _Object, _parse_date, _show
from scoring.rules import RuleViolation
from scoring.services.withdrawals import withdrawal_reason_check
from tournaments.models import (
    Competition,
    Entry,
    Withdrawal,
    WithdrawalFixtures,
    WithdrawalPlayed,
)
from troefclub.rule_messages import rule_message

SETTINGS_FIELDS = ("fixtures", "played")
WITHDRAWAL_FIELDS = (
    "entry",
    "from_matchday",
    "date",
    "reason",
    "fixtures",
    "played",
    "removed",
    "matchdays_then",
)
REMOVED_FIELDS = ("matchday", "home", "away", "table", "bye")
SETTINGS_DEFAULTS = {
    "fixtures": competition_default("withdrawal_fixtures"),
    "played": competition_default("withdrawal_played"),
}


def withdrawal_settings_parse(comp: _Object) -> dict[str, Any]:
    """`competition.withdrawal` as Competition field values (defaults when left out)."""
    settings = comp.obj("withdrawal", SETTINGS_FIELDS, default={})
    return {
        "withdrawal_fixtures": _choice(
            settings, "fixtures", WithdrawalFixtures.values, SETTINGS_DEFAULTS["fixtures"]
        ),
        "withdrawal_played": _choice(
            settings, "played", WithdrawalPlayed.values, SETTINGS_DEFAULTS["played"]
        ),
    }


def withdrawals_parse(top: _Object, doc: _Document) -> None:
    """The top-level `withdrawals`, checked and kept on `doc.withdrawals` as Withdrawal
    field values with the entry's key (written by `withdrawals_load`)."""
    competition = doc.competition
    last = max((md.number for md in doc.matchdays), default=0)
    seen: set[str] = set()
    for position, raw in enumerate(top.array("withdrawals", default=[]), start=1):
        item = _Object(raw, f"withdrawals[{position}]", WITHDRAWAL_FIELDS)
        entry = item.text("entry", max_length=64)
        if entry not in doc.entries:
            raise InterchangeError(
                item.place, _("entry “%(entry)s” is not in “entries”") % {"entry": _show(entry)}
            )
        if entry in seen:
            raise InterchangeError(
                item.place, _("“%(entry)s” is withdrawn twice") % {"entry": _show(entry)}
            )
        seen.add(entry)
        try:
            reason = withdrawal_reason_check(item.text("reason", max_length=200))
        except RuleViolation as exc:
            raise InterchangeError(item.place, rule_message(exc)) from None
        played_default = competition["withdrawal_played"]
        if played_default == WithdrawalPlayed.HALF:
            played_default = WithdrawalPlayed.KEEP
        doc.withdrawals.append(
            {
                "entry": entry,
                "from_matchday": item.integer("from_matchday", minimum=1),
                "from_date": _parse_date(
                    item.place,
                    "date",
                    item.text("date", default=None, max_length=10, nullable=True),
                ),
                "reason": reason,
                "fixtures": _choice(
                    item,
                    "fixtures",
                    WithdrawalFixtures.values,
                    competition["withdrawal_fixtures"],
                ),
                "played": _choice(
                    item,
                    "played",
                    [WithdrawalPlayed.KEEP, WithdrawalPlayed.ANNUL],
                    played_default,
                ),
                "removed": _removed_parse(item, doc),
                "matchdays_then": item.integer("matchdays_then", default=last),
            }
        )


def _removed_parse(item: _Object, doc: _Document) -> list[dict[str, Any]]:
    """A withdrawal's `removed`: the matches (home, away and table keys) and byes ("bye":
    true) it took off the schedule, by matchday number and entry keys."""
    removed: list[dict[str, Any]] = []
    for position, raw in enumerate(item.array("removed", default=[]), start=1):
        place = _Object(raw, f"{item.place}.removed[{position}]", REMOVED_FIELDS)
        number = place.integer("matchday", minimum=1)
        if place.boolean("bye", default=False):
            removed.append({"matchday": number, "bye": True})
            continue
        sides = [place.text(side, max_length=64) for side in ("home", "away")]
        for key in sides:
            if key not in doc.entries:
                raise InterchangeError(
                    place.place,
                    _("entry “%(entry)s” is not in “entries”") % {"entry": _show(key)},
                )
        removed.append(
            {
                "matchday": number,
                "home": sides[0],
                "away": sides[1],
                "table": place.integer("table", default=None, minimum=1, nullable=True),
            }
        )
    return removed


def withdrawals_load(doc: _Document, entries: dict[str, Entry]) -> None:
    """Store the document's withdrawals (`doc.withdrawals`), each with its history row;
    `entries` by key."""
    for values in doc.withdrawals:
        removed = [
            item
            if item.get("bye")
            else {**item, "home": entries[item["home"]].pk, "away": entries[item["away"]].pk}
            for item in values["removed"]
        ]
        Withdrawal.objects.create(
            **{**values, "entry": entries[values["entry"]], "removed": removed}
        )


def withdrawal_settings_export(competition: Competition) -> dict[str, Any]:
    """`competition.withdrawal`'s members that differ from their defaults."""
    settings = {
        "fixtures": competition.withdrawal_fixtures,
        "played": competition.withdrawal_played,
    }
    return {key: value for key, value in settings.items() if value != SETTINGS_DEFAULTS[key]}


def withdrawals_export(competition: Competition) -> list[dict[str, Any]]:
    """The competition's withdrawals as the file's `withdrawals` (entry keys), in the order
    they were recorded."""
    keys = {entry.pk: entry.key for entry in competition.entries.select_related("team", "club")}
    rows = []
    for withdrawal in Withdrawal.objects.filter(entry__competition=competition).order_by("pk"):
        row: dict[str, Any] = {
            "entry": keys[withdrawal.entry_id],
            "from_matchday": withdrawal.from_matchday,
            "reason": withdrawal.reason,
            "fixtures": withdrawal.fixtures,
            "played": withdrawal.played,
            "matchdays_then": withdrawal.matchdays_then,
        }
        if withdrawal.from_date is not None:
            row["date"] = withdrawal.from_date.isoformat()
        if withdrawal.removed:
            row["removed"] = [
                item
                if item.get("bye")
                else {**item, "home": keys[item["home"]], "away": keys[item["away"]]}
                for item in withdrawal.removed
            ]
        rows.append(row)
    return rows
