"""The document checked before anything is written: `document_check(data)` reads parsed
JSON into the values of `interchange.document`, or raises InterchangeError
naming the place of the first problem. This module reads the competition, its clubs,
players, koppels and entries, its deductions and squads; `parse_schedule` its matchdays.

Beyond DESIGN.md, these optional keys are read (and written back by the export only when
they differ from the default, so files that don't use them round-trip unchanged):

- `competition.rules.callers_required` (bool, default false): every round must name its
  caller (RULES.md "Who calls next").
- `competition.rules.close_by_director_allowed` (bool, default false): a director may end a
  game before its target (time limit).
- `competition.rules.early_kap_penalty` (int, default 2): points to the opponents for a
  `kap_te_vroeg`.
- `teams[].name` (text, default empty): a koppel's display name.
- `games[].closed` (bool, default false): the director closed the game (needs
  `close_by_director_allowed`).

Competition formats (docs/interchange.md has the whole format with examples):

- `competition.schedule` ("manual", "round_robin", "double_round_robin", "swiss"),
  `competition.bye` ({"result": "win|draw|loss", "score": [for, against]}),
  `competition.forfeit_score` ([winner, loser]), `competition.club_matches`
  ({"koppels", "min_koppels", "sittings", "late_until_sitting"}),
  `competition.squads_required`, `competition.ineligible_deduction`,
  `competition.confirmation_required`, `competition.rules.trump_open_card` (null, 9, 13).
  Objects are exported with their non-default members only.
- `matchdays[].byes` (entry keys, or {"entry", "reason"} when the bye has a reason) and
  `matchdays[].override_reason`.
- `matches[].table`, `matches[].forfeit` ({"side": "home|away|both", "reason", "cause"},
  checked and stored as `scoring.services.matches.match_forfeit_set` does; `cause`
  "director|lineup", default "director", says who forfeited), `matches[].pairing_reason`
  (an object, stored as is).
- `games[].confirmed` (bool, default false; as `scoring.services.confirmations.game_confirm`).
- `matches[].voided`, `games[].voided` ({"at", "reason"}, as a deduction's: voided by
  `scoring.services.voids.match_void` / `game_void`) and `matches[].replay_of`
  ({"matchday": number, "match": "home-away"}: the voided match this one replays, linked
  by `match_replay_link`), issue 22.
- top-level `deductions` ([{"entry", "points", "reason", "matchday", "match", "voided"}],
  as `tournaments.services.deductions.deduction_add` adds them, and `deduction_void` when `voided`
  gives {"at", "reason"}) and `squads` ([{"club", "season", "locked_on",
  "players"}], clubs competitions only: the squads of its entries for its season). Squad
  members are written directly, so a lock date in the past does not stop an import of
  history; a player on two clubs' squads in one season is refused.

Other choices: `season` defaults to "", `rules`/`standings` members to the model defaults,
the lists (`clubs`, `players`, `teams`, `entries`, `matchdays`, `matches`, `games`,
`rounds`) to empty; `date` may be null; `table` and `sitting` default to 1; a player's
`club` may be null. Unknown keys are refused (a misspelt key would otherwise be lost).
Every club, player and team a file refers to must be listed in the file.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from interchange.constants import (
    CLUB_MATCH_FIELDS,
    COMPETITION_FIELDS,
    DOCUMENT_FIELDS,
    FORMAT,
    FORMAT_DEFAULTS,
    INT_MAX,
    RULE_FIELDS,
    SMALL_INT_MAX,
    TRUMP_OPEN_CARDS,
    competition_default,
)
from interchange.document import _Deduction, _Document, _Match, _Squad
from interchange.errors import InterchangeError, _violation
from interchange.parse_schedule import _parse_matchdays, parse_voided
from interchange.stages import stages_parse
from interchange.values import (
    _check_values,
    _choice,
    _int_pair,
    _kind_of,
    _Object,
    _parse_date,
    _show,
)
from interchange.withdrawals import withdrawal_settings_parse, withdrawals_parse
from scoring.rules import RuleSet, RuleViolation, check_tiebreaks
from tournaments.models import Competition
from troefclub.validators import validate_time_zone


def document_check(data: Any) -> _Document:
    """Parsed JSON `data` checked as a `troefclub-competition/1` document: its structure
    (fields, types, keys and references, who sits where), before anything is written.

    Raises InterchangeError naming the place of the first problem.
    """
    _check_values(data)  # again: a caller may pass a document it did not read with document_parse
    if not isinstance(data, dict):
        raise InterchangeError(
            "document",
            _("the file must hold one JSON object, not %(kind)s") % {"kind": _kind_of(data)},
        )
    if "format" not in data:
        raise InterchangeError(
            "document", _("“format” is missing: expected “%(format)s”") % {"format": FORMAT}
        )
    if data["format"] != FORMAT:
        raise InterchangeError(
            "format",
            _("“%(given)s” is not a format this app reads: expected “%(format)s”")
            % {"given": _show(data["format"]), "format": FORMAT},
        )
    top = _Object(data, "document", DOCUMENT_FIELDS)
    doc = _Document(competition=_parse_competition(top))
    _parse_people(top, doc)
    _parse_entries(top, doc)
    _parse_matchdays(top, doc)
    _parse_deductions(top, doc)
    _parse_squads(top, doc)
    withdrawals_parse(top, doc)
    doc.stages = stages_parse(top, doc.entries)
    return doc


def _parse_competition(data: _Object) -> dict[str, Any]:
    """The `competition` object as Competition field values: its names and kind, the rule
    set (`_parse_rules`), the standings (`_parse_standings`) and the formats
    (`_parse_formats`)."""
    comp = data.obj("competition", COMPETITION_FIELDS)
    values: dict[str, Any] = {
        "slug": comp.text("slug", max_length=80, slug=True),
        "name": comp.text("name", max_length=160, name=True),
        "season": comp.text("season", default="", max_length=20),
    }
    kind = comp.text("kind", max_length=5)
    if kind not in Competition.Kind.values:
        raise InterchangeError(
            comp.place,
            _("“kind” must be “pairs” or “clubs”, not “%(kind)s”") % {"kind": _show(kind)},
        )
    values["kind"] = kind
    # Optional (files before it was added import unchanged): the site's zone by default.
    time_zone = comp.text("time_zone", default=None, max_length=64, nullable=True)
    if time_zone is not None:
        try:
            validate_time_zone(time_zone)
        except ValidationError:
            raise InterchangeError(
                comp.place,
                _("“time_zone” must be an IANA time zone like America/Paramaribo, not “%(value)s”")
                % {"value": _show(time_zone)},
            ) from None
        values["time_zone"] = time_zone
    values.update(_parse_rules(comp))
    values.update(_parse_standings(comp))
    values.update(_parse_formats(comp))
    values.update(withdrawal_settings_parse(comp))
    return values


def _parse_rules(comp: _Object) -> dict[str, Any]:
    """`competition.rules`, checked by the engine's `RuleSet`."""
    rules = comp.obj("rules", RULE_FIELDS, default={})
    values: dict[str, Any] = {}
    for name in ("target_score", "fixed_rounds"):
        values[name] = rules.integer(
            name, default=competition_default(name), minimum=None, nullable=True
        )
    for name in (
        "kap_partner_allowed",
        "redeal_allowed",
        "callers_required",
        "close_by_director_allowed",
    ):
        values[name] = rules.boolean(name, default=competition_default(name))
    values["early_kap_penalty"] = rules.integer(
        "early_kap_penalty", default=competition_default("early_kap_penalty"), minimum=None
    )
    values["trump_open_card"] = rules.integer(
        "trump_open_card",
        default=competition_default("trump_open_card"),
        minimum=None,
        nullable=True,
    )
    if values["trump_open_card"] not in (None, *TRUMP_OPEN_CARDS):
        raise InterchangeError(
            rules.place,
            _("“trump_open_card” must be null, 9 or 13, not %(value)s")
            % {"value": values["trump_open_card"]},
        )
    bonus = rules.obj("stinkende_bonus", ("kap", "baunie"), default={})
    for key in ("kap", "baunie"):
        name = f"stinkende_{key}_bonus"
        values[name] = bonus.integer(key, default=competition_default(name), minimum=None)
    try:
        RuleSet(**{name: values[name] for name in Competition.RULE_FIELDS})
    except RuleViolation as exc:
        raise _violation(rules.place, exc) from None
    return values


def _parse_standings(comp: _Object) -> dict[str, Any]:
    """`competition.standings`: the points of a win, draw and loss, and the tie-breaks
    (a file without them gets the model's: docs/interchange.md's four)."""
    standings = comp.obj("standings", ("win", "draw", "loss", "tiebreaks"), default={})
    values: dict[str, Any] = {
        f"points_{key}": standings.integer(key, default=competition_default(f"points_{key}"))
        for key in ("win", "draw", "loss")
    }
    if not values["points_win"] >= values["points_draw"] >= values["points_loss"]:
        raise InterchangeError(
            standings.place, _("a win must give at least a draw, and a draw at least a loss")
        )
    tiebreaks = standings.array("tiebreaks", default=competition_default("tiebreaks"))
    for key in tiebreaks:
        if not isinstance(key, str):
            raise InterchangeError(
                standings.place,
                _("“tiebreaks” must be a list of texts, not hold %(kind)s")
                % {"kind": _kind_of(key)},
            )
    try:
        check_tiebreaks(tiebreaks)
    except RuleViolation as exc:
        raise _violation(standings.place, exc) from None
    values["tiebreaks"] = list(tiebreaks)
    return values


def _score_pair(item: _Object, key: str, default: list[int]) -> tuple[int, int]:
    """A `[x, y]` pair of game points (0 or more) at `key`, `default` when absent."""
    pair = _int_pair(item.place, key, item.value.get(key, default), maximum=SMALL_INT_MAX)
    if min(pair) < 0:
        raise InterchangeError(
            item.place,
            _("“%(key)s” must hold numbers of 0 or more, not %(value)s")
            % {"key": key, "value": min(pair)},
        )
    return pair


def _parse_formats(comp: _Object) -> dict[str, Any]:
    """The competition-format keys: schedule, bye, forfeit score, club matches and flags."""
    default = FORMAT_DEFAULTS
    values: dict[str, Any] = {
        "schedule_format": _choice(
            comp, "schedule", Competition.Format.values, default["schedule_format"]
        ),
    }
    bye = comp.obj("bye", ("result", "score"), default={})
    values["bye_result"] = _choice(
        bye, "result", Competition.ByeResult.values, default["bye_result"]
    )
    values["bye_score_for"], values["bye_score_against"] = _score_pair(
        bye, "score", [default["bye_score_for"], default["bye_score_against"]]
    )
    values["forfeit_score_for"], values["forfeit_score_against"] = _score_pair(
        comp, "forfeit_score", [default["forfeit_score_for"], default["forfeit_score_against"]]
    )
    club = comp.obj("club_matches", CLUB_MATCH_FIELDS, default={})
    koppels = club.integer("koppels", default=default["koppels_per_side"], minimum=1, maximum=6)
    values["koppels_per_side"] = koppels
    for key in ("min_koppels", "sittings"):  # at most `koppels` (as the export leaves them out)
        values[key] = club.integer(key, default=min(default[key], koppels), minimum=1)
    for key in ("min_koppels", "sittings"):
        if values[key] > koppels:
            raise InterchangeError(
                club.place,
                _("“%(key)s” can't be more than “koppels” (%(koppels)s), not %(value)s")
                % {"key": key, "koppels": koppels, "value": values[key]},
            )
    values["late_koppel_until_sitting"] = club.integer(
        "late_until_sitting",
        default=default["late_koppel_until_sitting"],
        minimum=1,
        maximum=values["sittings"],
        nullable=True,
    )
    values["squads_required"] = comp.boolean("squads_required", default=default["squads_required"])
    values["ineligible_deduction"] = comp.integer(
        "ineligible_deduction", default=default["ineligible_deduction"]
    )
    values["confirmation_required"] = comp.boolean(
        "confirmation_required", default=default["confirmation_required"]
    )
    return values


def _list_of_objects(
    data: _Object, key: str, fields: Iterable[str], name_place: Callable[[Any, int], str]
) -> list[_Object]:
    """Each element of list `key` as an _Object, placed by `name_place(element, position)`."""
    return [
        _Object(item, name_place(item, position), fields)
        for position, item in enumerate(data.array(key, default=[]), start=1)
    ]


def _keyed_place(section: str) -> Callable[[Any, int], str]:
    """`players[p07]` when the element has a text key, else `players[3]` (1-based)."""

    def place(item: Any, position: int) -> str:
        key = item.get("key") if isinstance(item, dict) else None
        if isinstance(key, str) and key:
            return f"{section}[{_show(key)}]"
        return f"{section}[{position}]"

    return place


def _unique_key(seen: dict[str, Any], item: _Object, what: str) -> str:
    key = item.text("key", max_length=64, slug=True)
    if key in seen:
        raise InterchangeError(
            item.place, _("%(what)s key “%(key)s” appears twice") % {"what": what, "key": key}
        )
    return key


def _parse_people(data: _Object, doc: _Document) -> None:
    for item in _list_of_objects(data, "clubs", ("key", "name"), lambda _i, n: f"clubs[{n}]"):
        key = _unique_key(doc.clubs, item, _("club"))
        doc.clubs[key] = item.text("name", max_length=120, name=True)
    for item in _list_of_objects(data, "players", ("key", "name", "club"), _keyed_place("players")):
        key = _unique_key(doc.players, item, _("player"))
        name = item.text("name", max_length=120, name=True)
        club = item.text("club", default=None, max_length=64, nullable=True)
        if club is not None and club not in doc.clubs:
            raise InterchangeError(
                item.place, _("club “%(club)s” is not in “clubs”") % {"club": _show(club)}
            )
        doc.players[key] = (name, club)
    for item in _list_of_objects(data, "teams", ("key", "players", "name"), _keyed_place("teams")):
        key = _unique_key(doc.teams, item, _("koppel"))
        players = item.array("players")
        if len(players) != 2 or any(not isinstance(p, str) for p in players):
            raise InterchangeError(item.place, _("“players” must be a list of two player keys"))
        for player in players:
            if player not in doc.players:
                raise InterchangeError(
                    item.place,
                    _("player “%(player)s” is not in “players”") % {"player": _show(player)},
                )
        if players[0] == players[1]:
            raise InterchangeError(item.place, _("a koppel needs two different players"))
        name = item.text("name", default="", max_length=120, name=True, blank=True)
        doc.teams[key] = (players[0], players[1], name)


def _parse_entries(data: _Object, doc: _Document) -> None:
    entries = data.array("entries", default=[])
    kind = doc.competition["kind"]
    pool, section = (doc.teams, "teams") if kind == "pairs" else (doc.clubs, "clubs")
    for entry in entries:
        if not isinstance(entry, str):
            raise InterchangeError(
                "entries",
                _("entries must be keys (text), not %(kind)s") % {"kind": _kind_of(entry)},
            )
        if entry not in pool:
            raise InterchangeError(
                "entries",
                _(
                    "“%(entry)s” is not in “%(section)s” "
                    "(a %(kind)s competition's entries are %(section)s)"
                )
                % {"entry": _show(entry), "section": section, "kind": kind},
            )
        if entry in doc.entries:
            raise InterchangeError("entries", _("“%(entry)s” is entered twice") % {"entry": entry})
        doc.entries.append(entry)


def _parse_deductions(data: _Object, doc: _Document) -> None:
    """`deductions`: an entry's points taken, for a match of the file or for none."""
    fields = ("entry", "points", "reason", "matchday", "match", "voided")
    for item in _list_of_objects(data, "deductions", fields, lambda _i, n: f"deductions[{n}]"):
        entry = item.text("entry", max_length=64)
        if entry not in doc.entries:
            raise InterchangeError(
                item.place, _("entry “%(entry)s” is not in “entries”") % {"entry": _show(entry)}
            )
        points = item.integer("points", minimum=None, maximum=INT_MAX)
        reason = item.text("reason", max_length=200)
        doc.deductions.append(
            _Deduction(
                place=item.place,
                entry=entry,
                points=points,
                reason=reason,
                match=_deduction_match(item, doc, entry),
                voided=_parse_voided(item),
            )
        )


def _deduction_match(item: _Object, doc: _Document, entry: str) -> _Match | None:
    """The match a deduction names by `matchday` and `match` (home-away), which `entry`
    plays; None when it names neither."""
    number = item.integer("matchday", default=None, minimum=1, nullable=True)
    slug = item.text("match", default=None, max_length=130, nullable=True)
    if (number is None) != (slug is None):
        raise InterchangeError(
            item.place,
            _("a deduction for a match gives both “matchday” and “match” (e.g. "
              "\"matchday\": 2, \"match\": \"t01-t02\"); without a match, neither")
        )  # fmt: skip
    if number is None:
        return None
    matchday = next((md for md in doc.matchdays if md.number == number), None)
    if matchday is None:
        raise InterchangeError(
            item.place,
            _("there is no matchday %(number)s in “matchdays”") % {"number": number},
        )
    found = [m for m in matchday.matches if m.slug == slug]
    if len(found) != 1:
        text = (
            _("%(matchday)s has no match “%(match)s” (name it home-away)")
            if not found
            else _("“%(match)s” names two matches of %(matchday)s")
        )
        raise InterchangeError(
            item.place, text % {"matchday": matchday.place, "match": _show(slug)}
        )
    match = found[0]
    if entry not in (match.home, match.away):
        raise InterchangeError(
            item.place,
            _("“%(entry)s” does not play match %(match)s") % {"entry": entry, "match": match.slug},
        )
    return match


def _parse_voided(item: _Object) -> tuple[datetime.datetime, str] | None:
    """A deduction's optional `voided` (`interchange.parse_schedule.parse_voided`)."""
    return parse_voided(item)


def _squad_place(item: Any, position: int) -> str:
    club = item.get("club") if isinstance(item, dict) else None
    if isinstance(club, str) and club:
        return f"squads[{_show(club)}]"
    return f"squads[{position}]"


def _parse_squads(data: _Object, doc: _Document) -> None:
    """`squads` (clubs competitions only): the squads of the file's entries for the
    competition's season; a player is on one club's squad a season."""
    fields = ("club", "season", "locked_on", "players")
    season = doc.competition["season"]
    placed: dict[str, str] = {}  # player -> club whose squad has them
    for item in _list_of_objects(data, "squads", fields, _squad_place):
        if doc.competition["kind"] != "clubs":
            raise InterchangeError(
                item.place, _("squads belong to a clubs competition; this one is “pairs”")
            )
        club = item.text("club", max_length=64)
        if club not in doc.entries:
            raise InterchangeError(
                item.place,
                _("club “%(club)s” is not in “entries” (a file holds its entries' squads)")
                % {"club": _show(club)},
            )
        if any(squad.club == club for squad in doc.squads):
            raise InterchangeError(item.place, _("club “%(club)s” has two squads") % {"club": club})
        squad_season = item.text("season", max_length=20)
        if squad_season != season:
            raise InterchangeError(
                item.place,
                _("the squad's season “%(given)s” is not the competition's (“%(season)s”)")
                % {"given": _show(squad_season), "season": season},
            )
        locked_on = _parse_date(
            item.place,
            "locked_on",
            item.text("locked_on", default=None, max_length=10, nullable=True),
        )
        doc.squads.append(
            _Squad(
                place=item.place,
                club=club,
                season=squad_season,
                locked_on=locked_on,
                players=_squad_players(item, club, doc, placed),
            )
        )


def _squad_players(item: _Object, club: str, doc: _Document, placed: dict[str, str]) -> list[str]:
    """A squad's `players`: keys of the file's players, none on another squad of the file
    (`placed`: player -> the club whose squad has them, updated)."""
    players = item.array("players", default=[])
    for player in players:
        if not isinstance(player, str):
            raise InterchangeError(
                item.place,
                _("“players” must hold player keys, not %(kind)s") % {"kind": _kind_of(player)},
            )
        if player not in doc.players:
            raise InterchangeError(
                item.place,
                _("player “%(player)s” is not in “players”") % {"player": _show(player)},
            )
        if player in placed:
            other = placed[player]
            text = (
                _("player “%(player)s” is on the squad of “%(other)s” too; a player is "
                  "on one club's squad a season")
                if other != club
                else _("player “%(player)s” is on the squad twice")
            )  # fmt: skip
            raise InterchangeError(item.place, text % {"player": player, "other": other})
        placed[player] = club
    return list(players)
