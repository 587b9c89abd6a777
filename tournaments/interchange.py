"""Import and export of the interchange format `troefclub-competition/1` (DESIGN.md).

`competition_import(data=…)` reads one parsed JSON document into the database, all or
nothing: it runs in one transaction and raises `InterchangeError(place, message)` on the
first problem, so nothing is saved. The whole document's structure (fields, types, keys and
references, who sits where) is checked before anything is written; then the results are
checked in document order by the rules engine and the checks the `scoring.services` and
`tournaments.services` writes use, and written in bulk (`tournaments.interchange_load`);
a rule violation becomes an `InterchangeError` naming the place (`matchday 2, match
kampoe-toppers, game table 3, round 5`) and the rule broken (`scoring.messages.rule_message`).

`competition_export(competition=…)` gives the same format back: importing a file and
exporting the competition returns the file (up to the order of keys in objects).

Places name objects the way a director reads them: `competition`, `competition, rules`,
`clubs[3]` (1-based positions), `players[p07]`, `teams[t01]`, `entries`, `matchday 2`,
`matchday 2, match kampoe-toppers` (the home and away entry keys), `…, game table 3` (with
`sitting 2` in front of the table when the match's games use more than one sitting),
`…, round 5`, `matchday 2, match kampoe-toppers, forfeit`, `deductions[1]`, `squads[kampoe]`.

Hostile files: `document_parse(raw=…)` reads the bytes of a file (UTF-8, nesting at most
MAX_DEPTH levels, no key twice in one object) and names `line L, column C` when it can't;
every value of the document is then checked (`_check_values`, also run by
`competition_import`) and a problem is named by its JSON path (`players[3].name`, positions
from 1): numbers no field can hold (huge, NaN, Infinity), control characters other than tab
and line breaks, lone surrogates. Names and one-line texts take no control characters at
all, names are stored in Unicode NFC, keys and the slug may not start with -, =, + or @
(`tournaments.validators`).

Beyond DESIGN.md, these optional keys are read and written (exported only when they differ
from the default, so files that don't use them round-trip unchanged):

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
- `matches[].table`, `matches[].forfeit` ({"side": "home|away|both", "reason"}, checked
  and stored as `tournaments.services.match_forfeit_set` does), `matches[].pairing_reason`
  (an object, stored as is).
- `games[].confirmed` (bool, default false; as `tournaments.services.game_confirm`).
- top-level `deductions` ([{"entry", "points", "reason", "matchday", "match", "voided"}],
  as `tournaments.services.deduction_add` adds them, and `deduction_void` when `voided`
  gives {"at", "reason"}) and `squads` ([{"club", "season", "locked_on",
  "players"}], clubs competitions only: the squads of its entries for its season). Squad
  members are written directly, so a lock date in the past does not stop an import of
  history; a player on two clubs' squads in one season is refused.

Other choices: `season` defaults to "", `rules`/`standings` members to the model defaults,
the lists (`clubs`, `players`, `teams`, `entries`, `matchdays`, `matches`, `games`,
`rounds`) to empty; `date` may be null; `table` and `sitting` default to 1; a player's
`club` may be null. Unknown keys are refused (a misspelt key would otherwise be lost).
Every club, player and team a file refers to must be listed in the file. A key that already
exists in the database is reused; a file that contradicts it (a player with another club, a
koppel with other players) is refused; a different name does not count as a contradiction
and the stored name is kept.
"""

from __future__ import annotations

import datetime
import json
import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import models, transaction
from django.utils.translation import gettext as _

from scoring.messages import rule_message
from scoring.models import Game, Round, Standing
from scoring.rules import (
    Result,
    RuleSet,
    RuleViolation,
    check_tiebreaks,
    found_at_bye,
    game_players_check,
    matchday_places_check,
    pairs_match_games_check,
)
from scoring.services import MAX_ROUNDS_PER_GAME, standings_rebuild
from tournaments.fields import nfc
from tournaments.models import (
    Bye,
    Club,
    Competition,
    Deduction,
    Entry,
    Match,
    Matchday,
    Player,
    Squad,
    SquadMember,
    Team,
)
from tournaments.validators import (
    UNSAFE_TEXT_CHARS,
    text_unsafe_char,
    validate_key_start,
)

FORMAT = "troefclub-competition/1"
RESULTS = tuple(result.value for result in Result)

SMALL_INT_MAX = 32767  # PositiveSmallIntegerField on every backend
INT_MAX = 2147483647  # PositiveIntegerField

RULE_DEFAULTS: dict[str, Any] = {
    "target_score": 20,
    "fixed_rounds": None,
    "kap_partner_allowed": True,
    "redeal_allowed": True,
}
EXTRA_RULE_DEFAULTS: dict[str, Any] = {
    "callers_required": False,
    "close_by_director_allowed": False,
    "early_kap_penalty": 2,
    "trump_open_card": None,
}
TRUMP_OPEN_CARDS = (9, 13)
# The optional competition keys of the formats (`competition.club_matches` members map
# to the model fields on the right). Exported only when they differ from these defaults.
CLUB_MATCH_FIELDS = {
    "koppels": "koppels_per_side",
    "min_koppels": "min_koppels",
    "sittings": "sittings",
    "late_until_sitting": "late_koppel_until_sitting",
}
FORMAT_DEFAULTS: dict[str, Any] = {
    "schedule_format": "manual",
    "bye_result": "win",
    "bye_score_for": 20,
    "bye_score_against": 0,
    "forfeit_score_for": 0,
    "forfeit_score_against": 0,
    "koppels_per_side": 6,
    "min_koppels": 5,
    "sittings": 4,
    "late_koppel_until_sitting": None,
    "squads_required": False,
    "ineligible_deduction": 3,
    "confirmation_required": False,
}


class InterchangeError(Exception):
    """A document that can't be imported: `place` says where, `message` what is wrong.

    `code` is the RuleViolation code when a rule was broken, None for a malformed document.
    """

    def __init__(self, place: str, message: str, *, code: str | None = None) -> None:
        super().__init__(place, message)
        self.place = place
        self.message = message
        self.code = code

    def __str__(self) -> str:
        return f"{self.place}: {self.message}"


def _join(*parts: str) -> str:
    return ", ".join(part for part in parts if part)


def _violation(
    place: str, exc: RuleViolation, *, seat_names: dict[int, str] | None = None
) -> InterchangeError:
    """A rule violation as an InterchangeError; a game's round number goes into the place."""
    params = {key: value for key, value in exc.params.items() if key != "round"}
    if "round" in exc.params:
        place = _join(place, _("round %(number)s") % {"number": exc.params["round"]})
    text = rule_message(RuleViolation(exc.code, **params), seat_names=seat_names)
    return InterchangeError(place, text, code=exc.code)


# ------------------------------------------------------------------ reading JSON values


def _kind_of(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return _("true/false")
    if isinstance(value, int):
        return _("a whole number")
    if isinstance(value, float):
        return _("a decimal number")
    if isinstance(value, str):
        return _("text")
    if isinstance(value, list):
        return _("a list")
    if isinstance(value, dict):
        return _("an object")
    return type(value).__name__


def _show(value: Any) -> str:
    """`value` to quote in a message: at most 40 characters, control characters and lone
    surrogates escaped (a message must print on any terminal, and not drive it)."""
    text = repr(value) if not isinstance(value, str) else value
    text = text if len(text) <= 40 else text[:37] + "…"
    return UNSAFE_TEXT_CHARS.sub(lambda found: f"\\u{ord(found.group()):04x}", text)


# ------------------------------------------------------------------ reading the file

# Deeper than any document of this format (a round's tricks sit at depth 10; stored
# objects such as pairing reasons add a few): a file nested deeper is refused before its
# values are read, and no Python recursion limit is ever reached.
MAX_DEPTH = 32
# More digits than any number field holds; Python refuses to read 4,300 or more.
MAX_NUMBER_DIGITS = 30


class _BadNumber:
    """A number as written in the file that no field can hold (huge, NaN or Infinity);
    `_check_values` refuses it with its place."""

    def __init__(self, text: str) -> None:
        self.text = text


class _RepeatedKeys(dict[str, Any]):
    """A JSON object that gave a key twice (`repeated`): JSON parsers differ on which one
    counts, so `_check_values` refuses it rather than silently keep the last."""

    repeated: str = ""


def _object_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    value = dict(pairs)
    if len(value) == len(pairs):
        return value
    seen: set[str] = set()
    for key, _item in pairs:
        if key in seen:
            break
        seen.add(key)
    marked = _RepeatedKeys(value)
    marked.repeated = key
    return marked


def _integer(text: str) -> int | _BadNumber:
    return int(text) if len(text.lstrip("-")) <= MAX_NUMBER_DIGITS else _BadNumber(text)


def _decimal(text: str) -> float | _BadNumber:
    number = float(text)
    return number if math.isfinite(number) else _BadNumber(text)


def _line_column(text: str, position: int) -> str:
    line = text.count("\n", 0, position) + 1
    column = position - text.rfind("\n", 0, position)
    return _("line %(line)s, column %(column)s") % {"line": line, "column": column}


_BRACKET_OR_STRING = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def _too_deep_at(text: str) -> int:
    """Where `text` opens its bracket MAX_DEPTH + 1 levels deep (0 if it never does)."""
    depth = 0
    for found in _BRACKET_OR_STRING.finditer(text):
        token = found.group()
        if token in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return found.start()
        elif token in "]}":
            depth -= 1
    return 0


def document_parse(*, raw: bytes) -> Any:
    """The JSON document in `raw`, read for `competition_import`.

    `raw` is UTF-8 (a byte order mark is allowed). Raises InterchangeError naming the place:
    `line L, column C` for bytes that are not UTF-8, text that is not JSON, or nesting
    deeper than MAX_DEPTH; the JSON path (`players[3].name`) for a key given twice in one
    object, a number no field can hold (huge, NaN, Infinity), a control character or a
    lone surrogate (`_check_values`).
    """
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        good = raw[: exc.start].decode("utf-8-sig")
        raise InterchangeError(
            _line_column(good, len(good)),
            _("the file is not UTF-8 text (byte 0x%(byte)02x)") % {"byte": raw[exc.start]},
        ) from None
    try:
        data = json.loads(
            text,
            object_pairs_hook=_object_pairs,
            parse_int=_integer,
            parse_float=_decimal,
            parse_constant=_BadNumber,
        )
    except json.JSONDecodeError as exc:
        raise InterchangeError(
            _line_column(text, exc.pos), _("not valid JSON: %(problem)s") % {"problem": exc.msg}
        ) from None
    except RecursionError:
        raise InterchangeError(
            _line_column(text, _too_deep_at(text)),
            _("nested deeper than %(depth)s levels") % {"depth": MAX_DEPTH},
        ) from None
    _check_values(data)
    return data


def _problem(char: str) -> str:
    """What is wrong with a text holding `char` (see `text_unsafe_char`), in words."""
    point = f"U+{ord(char):04X}"
    if "\ud800" <= char <= "\udfff":
        return _("the text holds a lone surrogate (%(char)s), which is not Unicode") % {
            "char": point
        }
    return _("the text holds the control character %(char)s") % {"char": point}


def _number_problem(value: Any) -> str | None:
    """What is wrong with a number no field can hold (huge, NaN, Infinity), or None."""
    too_large = isinstance(value, int) and abs(value) >= 10**MAX_NUMBER_DIGITS
    if too_large or (isinstance(value, float) and not math.isfinite(value)):
        value = _BadNumber(str(value))
    if not isinstance(value, _BadNumber):
        return None
    if value.text.lower().lstrip("-") in ("nan", "infinity", "inf"):
        return _("%(number)s is not a number JSON allows") % {"number": value.text}
    return _("the number %(number)s is out of range") % {"number": _show(value.text)}


def _check_values(value: Any) -> None:
    """Refuse what no field can store, anywhere in the document, with its JSON path
    (`players[3].name`; list positions count from 1 like every place in this module).

    Refused: nesting deeper than MAX_DEPTH, a key given twice in one object, numbers that
    are huge, NaN or infinite, and texts (values and keys) holding a lone surrogate or a
    control character other than tab and line breaks (`text_unsafe_char`; the fields that
    take one line refuse those too, in `_check_text`). Raises InterchangeError.
    """
    _check_value(value, [])


def _trail_place(trail: list[str | int]) -> str:
    """The JSON path of `trail` (keys and 1-based list positions), "document" when empty;
    made only for an error: a league file has a million values."""
    path = ""
    for step in trail:
        if isinstance(step, int):
            path = f"{path}[{step}]"
        else:
            path = f"{path}.{_show(step)}" if path else _show(step)
    return path or "document"


def _check_value(value: Any, trail: list[str | int]) -> None:
    """`_check_values` of one value at `trail` (changed while walking, restored after)."""
    if len(trail) > MAX_DEPTH:
        raise InterchangeError(
            _show(_trail_place(trail)),
            _("nested deeper than %(depth)s levels") % {"depth": MAX_DEPTH},
        )
    if isinstance(value, str):
        char = text_unsafe_char(value, multiline=True)
        if char is not None:
            raise InterchangeError(_trail_place(trail), _problem(char))
    elif isinstance(value, dict):
        if isinstance(value, _RepeatedKeys):
            raise InterchangeError(
                _trail_place(trail),
                _("the key “%(key)s” appears twice in this object")
                % {"key": _show(value.repeated)},
            )
        for key, item in value.items():
            char = text_unsafe_char(str(key))
            if char is not None:
                raise InterchangeError(
                    _trail_place(trail),
                    _("the key “%(key)s”: %(problem)s")
                    % {"key": _show(key), "problem": _problem(char)},
                )
            trail.append(str(key))
            _check_value(item, trail)
            trail.pop()
    elif isinstance(value, list):
        for position, item in enumerate(value, start=1):
            trail.append(position)
            _check_value(item, trail)
            trail.pop()
    else:
        number = _number_problem(value)
        if number is not None:
            raise InterchangeError(_trail_place(trail), number)


_MISSING = object()
T = TypeVar("T")


class _Object:
    """A JSON object being read, with the place to name in errors."""

    def __init__(self, value: Any, place: str, fields: Iterable[str]) -> None:
        if not isinstance(value, dict):
            raise InterchangeError(
                place, _("must be an object, not %(kind)s") % {"kind": _kind_of(value)}
            )
        allowed = set(fields)
        for key in value:
            if key not in allowed:
                raise InterchangeError(
                    place,
                    _("unknown field “%(key)s” (known fields: %(known)s)")
                    % {"key": _show(key), "known": ", ".join(sorted(allowed))},
                )
        self.value = value
        self.place = place

    def _get(self, key: str, default: Any) -> Any:
        value = self.value.get(key, _MISSING)
        if value is _MISSING:
            if default is _MISSING:
                raise InterchangeError(self.place, _("“%(key)s” is missing") % {"key": key})
            return default
        return value

    def _wrong(self, key: str, expected: str, value: Any) -> InterchangeError:
        return InterchangeError(
            self.place,
            _("“%(key)s” must be %(expected)s, not %(kind)s")
            % {"key": key, "expected": expected, "kind": _kind_of(value)},
        )

    def text(
        self,
        key: str,
        *,
        default: Any = _MISSING,
        max_length: int,
        slug: bool = False,
        nullable: bool = False,
        name: bool = False,
        blank: bool = False,
        multiline: bool = False,
    ) -> Any:
        """The text at `key`; see `_check_text` for the options."""
        value = self._get(key, default)
        if value is None and nullable:
            return None
        return _check_text(
            self.place,
            key,
            value,
            max_length=max_length,
            slug=slug,
            name=name,
            blank=blank,
            multiline=multiline,
        )

    def integer(
        self,
        key: str,
        *,
        default: Any = _MISSING,
        minimum: int | None = 0,
        maximum: int = SMALL_INT_MAX,
        nullable: bool = False,
    ) -> Any:
        value = self._get(key, default)
        if value is None and nullable:
            return None
        if not isinstance(value, int) or isinstance(value, bool):
            expected = _("a whole number or null") if nullable else _("a whole number")
            raise self._wrong(key, expected, value)
        if minimum is not None and value < minimum:
            raise InterchangeError(
                self.place,
                _("“%(key)s” must be at least %(minimum)s, not %(value)s")
                % {"key": key, "minimum": minimum, "value": value},
            )
        if value > maximum:
            raise InterchangeError(
                self.place,
                _("“%(key)s” is too large (%(value)s; at most %(maximum)s)")
                % {"key": key, "value": value, "maximum": maximum},
            )
        return value

    def boolean(self, key: str, *, default: Any = _MISSING) -> bool:
        value = self._get(key, default)
        if not isinstance(value, bool):
            raise self._wrong(key, _("true or false"), value)
        return value

    def array(self, key: str, *, default: Any = _MISSING, nullable: bool = False) -> Any:
        value = self._get(key, default)
        if value is None and nullable:
            return None
        if not isinstance(value, list):
            raise self._wrong(key, _("a list"), value)
        return value

    def obj(self, key: str, fields: Iterable[str], *, default: Any = _MISSING) -> _Object:
        value = self._get(key, default)
        return _Object(value, _join(self.place, key), fields)

    def has(self, key: str) -> bool:
        return key in self.value


def _check_text(
    place: str,
    key: str,
    value: Any,
    *,
    max_length: int,
    slug: bool = False,
    name: bool = False,
    blank: bool = False,
    multiline: bool = False,
) -> str:
    """`value` checked as a text of at most `max_length` characters, on one line unless
    `multiline` (no control characters or lone surrogates either way).

    `slug`: a key (letters, digits, - and _, not starting with -); `name`: a name, returned
    in Unicode NFC (so "Kolibrië" is found however it was typed; the length counts NFC),
    not empty unless `blank`.
    """
    if not isinstance(value, str):
        raise InterchangeError(
            place,
            _("“%(key)s” must be text, not %(kind)s") % {"key": key, "kind": _kind_of(value)},
        )
    char = text_unsafe_char(value, multiline=multiline)
    if char is not None:
        raise InterchangeError(
            place, _("“%(key)s”: %(problem)s") % {"key": key, "problem": _problem(char)}
        )
    if slug:
        try:
            validate_slug(value)
        except ValidationError:
            raise InterchangeError(
                place,
                _("“%(key)s” must be letters, digits, “-” or “_” only, not “%(value)s”")
                % {"key": key, "value": _show(value)},
            ) from None
        try:
            validate_key_start(value)
        except ValidationError as exc:
            raise InterchangeError(
                place, _("“%(key)s”: %(problem)s") % {"key": key, "problem": exc.messages[0]}
            ) from None
    if name:
        value = nfc(value)
        if not blank and not value.strip():
            raise InterchangeError(place, _("“%(key)s” may not be empty") % {"key": key})
    if len(value) > max_length:
        raise InterchangeError(
            place,
            _("“%(key)s” is too long (at most %(max)s characters)")
            % {"key": key, "max": max_length},
        )
    return value


def _int_pair(place: str, key: str, value: Any, *, maximum: int) -> tuple[int, int]:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or any(not isinstance(v, int) or isinstance(v, bool) for v in value)
    ):
        raise InterchangeError(
            place,
            _("“%(key)s” must be a list of two whole numbers, not %(value)s")
            % {"key": key, "value": _show(value)},
        )
    for number in value:
        if number > maximum:
            raise InterchangeError(
                place,
                _("“%(key)s” holds a number that is too large (%(value)s)")
                % {"key": key, "value": number},
            )
    return (value[0], value[1])


# ------------------------------------------------------------------ the parsed document


@dataclass
class _Round:
    place: str
    result: str
    side: str
    caller: str | None
    tricks: tuple[int, int] | None


@dataclass
class _Game:
    place: str
    table: int
    sitting: int
    team_a: str
    team_b: str
    a_is_home: bool
    seats: list[str] | None
    rounds: list[_Round]
    totals: tuple[int, int] | None
    closed: bool
    confirmed: bool = False
    pk: int | None = None


@dataclass
class _Match:
    place: str
    home: str
    away: str
    games: list[_Game]
    totals: tuple[int, int] | None
    table: int | None = None
    forfeit: tuple[str, str] | None = None  # side, reason
    pairing_reason: dict[str, Any] = field(default_factory=dict)
    instance: Match | None = None

    @property
    def slug(self) -> str:
        return f"{self.home}-{self.away}"


@dataclass
class _Matchday:
    place: str
    number: int
    date: datetime.date | None
    matches: list[_Match]
    override_reason: str = ""
    byes: list[tuple[str, dict[str, Any]]] = field(default_factory=list)  # entry, reason
    instance: Matchday | None = None


@dataclass
class _Deduction:
    place: str
    entry: str
    points: int
    reason: str
    match: _Match | None
    voided: tuple[datetime.datetime, str] | None = None  # when, why


@dataclass
class _Squad:
    place: str
    club: str
    season: str
    locked_on: datetime.date | None
    players: list[str]


@dataclass
class _Document:
    competition: dict[str, Any]
    clubs: dict[str, str] = field(default_factory=dict)  # key -> name, file order
    players: dict[str, tuple[str, str | None]] = field(default_factory=dict)  # name, club
    teams: dict[str, tuple[str, str, str]] = field(default_factory=dict)  # p1, p2, name
    entries: list[str] = field(default_factory=list)
    matchdays: list[_Matchday] = field(default_factory=list)
    deductions: list[_Deduction] = field(default_factory=list)
    squads: list[_Squad] = field(default_factory=list)


COMPETITION_FIELDS = (
    "slug",
    "name",
    "season",
    "kind",
    "rules",
    "standings",
    "schedule",
    "bye",
    "forfeit_score",
    "club_matches",
    "squads_required",
    "ineligible_deduction",
    "confirmation_required",
)
RULE_FIELDS = (
    "target_score",
    "fixed_rounds",
    "kap_partner_allowed",
    "stinkende_bonus",
    "redeal_allowed",
    *EXTRA_RULE_DEFAULTS,
)


def _parse_competition(data: _Object) -> dict[str, Any]:
    comp = data.obj("competition", COMPETITION_FIELDS)
    place = comp.place
    values: dict[str, Any] = {
        "slug": comp.text("slug", max_length=80, slug=True),
        "name": comp.text("name", max_length=160, name=True),
        "season": comp.text("season", default="", max_length=20),
    }
    kind = comp.text("kind", max_length=5)
    if kind not in Competition.Kind.values:
        raise InterchangeError(
            place, _("“kind” must be “pairs” or “clubs”, not “%(kind)s”") % {"kind": _show(kind)}
        )
    values["kind"] = kind

    rules = comp.obj("rules", RULE_FIELDS, default={})
    values["target_score"] = rules.integer("target_score", default=20, minimum=None, nullable=True)
    values["fixed_rounds"] = rules.integer(
        "fixed_rounds", default=None, minimum=None, nullable=True
    )
    values["kap_partner_allowed"] = rules.boolean("kap_partner_allowed", default=True)
    values["redeal_allowed"] = rules.boolean("redeal_allowed", default=True)
    values["callers_required"] = rules.boolean("callers_required", default=False)
    values["close_by_director_allowed"] = rules.boolean("close_by_director_allowed", default=False)
    values["early_kap_penalty"] = rules.integer("early_kap_penalty", default=2, minimum=None)
    trump = rules.integer("trump_open_card", default=None, minimum=None, nullable=True)
    if trump not in (None, *TRUMP_OPEN_CARDS):
        raise InterchangeError(
            rules.place,
            _("“trump_open_card” must be null, 9 or 13, not %(value)s") % {"value": trump},
        )
    values["trump_open_card"] = trump
    bonus = rules.obj("stinkende_bonus", ("kap", "baunie"), default={})
    values["stinkende_kap_bonus"] = bonus.integer("kap", default=0, minimum=None)
    values["stinkende_baunie_bonus"] = bonus.integer("baunie", default=0, minimum=None)
    try:
        RuleSet(
            target_score=values["target_score"],
            fixed_rounds=values["fixed_rounds"],
            kap_partner_allowed=values["kap_partner_allowed"],
            early_kap_penalty=values["early_kap_penalty"],
            stinkende_kap_bonus=values["stinkende_kap_bonus"],
            stinkende_baunie_bonus=values["stinkende_baunie_bonus"],
            redeal_allowed=values["redeal_allowed"],
            callers_required=values["callers_required"],
            close_by_director_allowed=values["close_by_director_allowed"],
        )
    except RuleViolation as exc:
        raise _violation(rules.place, exc) from None

    standings = comp.obj("standings", ("win", "draw", "loss", "tiebreaks"), default={})
    values["points_win"] = standings.integer("win", default=2)
    values["points_draw"] = standings.integer("draw", default=1)
    values["points_loss"] = standings.integer("loss", default=0)
    if not values["points_win"] >= values["points_draw"] >= values["points_loss"]:
        raise InterchangeError(
            standings.place, _("a win must give at least a draw, and a draw at least a loss")
        )
    tiebreaks = standings.array("tiebreaks", default=[])
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
    values.update(_parse_formats(comp))
    return values


def _choice(item: _Object, key: str, choices: Iterable[str], default: str) -> str:
    value = item.text(key, default=default, max_length=40)
    if value not in choices:
        raise InterchangeError(
            item.place,
            _("“%(key)s” must be one of %(choices)s, not “%(value)s”")
            % {
                "key": key,
                "choices": ", ".join(f"“{choice}”" for choice in choices),
                "value": _show(value),
            },
        )
    return value


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
    values: dict[str, Any] = {
        "schedule_format": _choice(comp, "schedule", Competition.Format.values, "manual"),
    }
    bye = comp.obj("bye", ("result", "score"), default={})
    values["bye_result"] = _choice(bye, "result", Competition.ByeResult.values, "win")
    values["bye_score_for"], values["bye_score_against"] = _score_pair(bye, "score", [20, 0])
    values["forfeit_score_for"], values["forfeit_score_against"] = _score_pair(
        comp, "forfeit_score", [0, 0]
    )
    club = comp.obj("club_matches", CLUB_MATCH_FIELDS, default={})
    koppels = club.integer("koppels", default=6, minimum=1, maximum=6)
    values["koppels_per_side"] = koppels
    values["min_koppels"] = club.integer("min_koppels", default=min(5, koppels), minimum=1)
    values["sittings"] = club.integer("sittings", default=min(4, koppels), minimum=1)
    for key in ("min_koppels", "sittings"):
        if values[key] > koppels:
            raise InterchangeError(
                club.place,
                _("“%(key)s” can't be more than “koppels” (%(koppels)s), not %(value)s")
                % {"key": key, "koppels": koppels, "value": values[key]},
            )
    values["late_koppel_until_sitting"] = club.integer(
        "late_until_sitting", default=None, minimum=1, maximum=values["sittings"], nullable=True
    )
    values["squads_required"] = comp.boolean("squads_required", default=False)
    values["ineligible_deduction"] = comp.integer("ineligible_deduction", default=3)
    values["confirmation_required"] = comp.boolean("confirmation_required", default=False)
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


def _parse_date(place: str, key: str, raw: str | None) -> datetime.date | None:
    if raw is None:
        return None
    try:
        return datetime.date.fromisoformat(raw)
    except ValueError:
        raise InterchangeError(
            place,
            _("“%(key)s” must be a date like 2026-10-02, not “%(value)s”")
            % {"key": key, "value": _show(raw)},
        ) from None


def _parse_matchdays(data: _Object, doc: _Document) -> None:
    numbers: set[int] = set()
    for position, raw in enumerate(data.array("matchdays", default=[]), start=1):
        item = _Object(
            raw,
            f"matchdays[{position}]",
            ("number", "date", "matches", "byes", "override_reason"),
        )
        number = item.integer("number", minimum=1)
        if number in numbers:
            raise InterchangeError(
                item.place, _("matchday %(number)s appears twice") % {"number": number}
            )
        numbers.add(number)
        place = _("matchday %(number)s") % {"number": number}
        item.place = place
        raw_date = item.text("date", default=None, max_length=10, nullable=True)
        date = _parse_date(place, "date", raw_date)
        matchday = _Matchday(
            place=place,
            number=number,
            date=date,
            matches=[],
            override_reason=item.text(
                "override_reason", default="", max_length=10000, multiline=True
            ),
        )
        tables: dict[int, str] = {}
        for index, raw_match in enumerate(item.array("matches", default=[]), start=1):
            match = _parse_match(raw_match, _join(place, f"matches[{index}]"), doc, place)
            if match.table is not None:
                if match.table in tables:
                    raise InterchangeError(
                        match.place,
                        _("table %(table)s is taken by match %(other)s on this matchday")
                        % {"table": match.table, "other": tables[match.table]},
                    )
                tables[match.table] = match.slug
            matchday.matches.append(match)
        _parse_byes(item, matchday, doc)
        _check_places(matchday, doc)
        doc.matchdays.append(matchday)


def _check_places(matchday: _Matchday, doc: _Document) -> None:
    """Who plays where on a parsed matchday, by the engine's one check
    (`scoring.rules.matchday_places_check`): an entry of the competition, at most once
    (home, away or the bye), and no player in two entries of its matches (pairs); the place
    named is the later one. A koppel then sits at one
    table a sitting too: a pairs game is its match's koppels (`_team_side`), a club match
    seats each koppel once a sitting (`_check_club_match_shape`), and a koppel plays for
    one club, which plays one match.
    """
    # A player in two koppel entries plays twice (issue 6); a club entry's players play
    # for that club only.
    players = {}
    if doc.competition.get("kind") == "pairs":
        players = {entry: doc.teams[entry][:2] for entry in doc.entries if entry in doc.teams}
    try:
        matchday_places_check(
            [(match.home, match.away) for match in matchday.matches],
            [entry for entry, _reason in matchday.byes],
            entries=set(doc.entries),
            players=players,
        )
    except RuleViolation as exc:
        place = matchday.place if found_at_bye(exc) else matchday.matches[exc.params["index"]].place
        raise _violation(place, exc) from None


def _parse_byes(item: _Object, matchday: _Matchday, doc: _Document) -> None:
    """`byes`: entry keys, or {"entry": key, "reason": {…}} for a bye with its reason."""
    playing = {}
    for match in matchday.matches:
        playing[match.home] = playing[match.away] = match.slug
    seen: set[str] = set()
    for position, raw in enumerate(item.array("byes", default=[]), start=1):
        reason: dict[str, Any] = {}
        if isinstance(raw, dict):
            bye = _Object(raw, _join(item.place, f"byes[{position}]"), ("entry", "reason"))
            entry = bye.text("entry", max_length=64)
            reason = _json_object(bye, "reason")
        elif isinstance(raw, str):
            entry = raw
        else:
            raise InterchangeError(
                item.place,
                _("“byes” must hold entry keys, not %(kind)s") % {"kind": _kind_of(raw)},
            )
        if entry not in doc.entries:
            raise InterchangeError(
                item.place,
                _("bye “%(entry)s” is not in “entries”") % {"entry": _show(entry)},
            )
        if entry in seen:
            raise InterchangeError(
                item.place, _("“%(entry)s” has two byes on this matchday") % {"entry": entry}
            )
        if entry in playing:
            raise InterchangeError(
                item.place,
                _("“%(entry)s” has a bye but also plays match %(match)s on this matchday")
                % {"entry": entry, "match": playing[entry]},
            )
        seen.add(entry)
        matchday.byes.append((entry, reason))


def _json_object(item: _Object, key: str) -> dict[str, Any]:
    """An object stored as is (a pairing or bye reason); {} when absent."""
    value = item.value.get(key, {})
    if not isinstance(value, dict):
        raise item._wrong(key, _("an object"), value)
    return value


def _parse_match(raw: Any, place: str, doc: _Document, matchday_place: str) -> _Match:
    item = _Object(
        raw, place, ("home", "away", "games", "totals", "table", "forfeit", "pairing_reason")
    )
    home = item.text("home", max_length=64)
    away = item.text("away", max_length=64)
    item.place = place = _join(matchday_place, _("match %(slug)s") % {"slug": f"{home}-{away}"})
    for role, entry in (("home", home), ("away", away)):
        if entry not in doc.entries:
            raise InterchangeError(
                place,
                _("%(role)s “%(entry)s” is not in “entries”") % {"role": role, "entry": entry},
            )
    if home == away:
        raise InterchangeError(place, _("an entry cannot play against itself"))
    totals = None
    if item.has("totals"):
        if item.has("games") and item.value["games"]:
            raise InterchangeError(place, _("a match gives either “games” or “totals”, not both"))
        totals = _int_pair(place, "totals", item.value["totals"], maximum=INT_MAX)
    match = _Match(
        place=place,
        home=home,
        away=away,
        games=[],
        totals=totals,
        table=item.integer("table", default=None, minimum=1, nullable=True),
        pairing_reason=_json_object(item, "pairing_reason"),
    )
    if item.has("forfeit"):
        forfeit = item.obj("forfeit", ("side", "reason"))
        side = forfeit.text("side", max_length=10)
        if not side:  # "" would lift a forfeit: a file states forfeits, it doesn't lift them
            raise InterchangeError(
                forfeit.place, rule_message(RuleViolation("forfeit_side_invalid", side=side))
            )
        match.forfeit = (side, forfeit.text("reason", default="", max_length=200))
    raw_games = item.array("games", default=[])
    sittings = {repr(g.get("sitting", 1)) for g in raw_games if isinstance(g, dict)}
    tables: set[tuple[int, int]] = set()
    for index, raw_game in enumerate(raw_games, start=1):
        game = _parse_game(raw_game, _join(place, f"games[{index}]"), doc, match, len(sittings) > 1)
        if (game.sitting, game.table) in tables:
            raise InterchangeError(game.place, _("two games at the same table in the same sitting"))
        tables.add((game.sitting, game.table))
        match.games.append(game)
    if doc.competition["kind"] == "clubs":
        _check_club_match_shape(match, doc)
    else:
        try:
            pairs_match_games_check(home, away, [(g.team_a, g.team_b) for g in match.games])
        except RuleViolation as exc:
            raise _violation(match.games[exc.params["index"]].place, exc) from None
    return match


def _check_club_match_shape(match: _Match, doc: _Document) -> None:
    """A club match's games fit the competition's tables and sittings; a koppel sits at one
    table a sitting."""
    koppels, sittings = doc.competition["koppels_per_side"], doc.competition["sittings"]
    seated: set[tuple[int, str]] = set()
    for game in match.games:
        if game.sitting > sittings:
            raise InterchangeError(
                game.place,
                _("sitting %(sitting)s, but a club match has %(sittings)s sittings here "
                  "(competition, club_matches: “sittings”)")
                % {"sitting": game.sitting, "sittings": sittings},
            )  # fmt: skip
        if game.table > koppels:
            raise InterchangeError(
                game.place,
                _("table %(table)s, but a club match has %(koppels)s tables here "
                  "(competition, club_matches: “koppels”)")
                % {"table": game.table, "koppels": koppels},
            )  # fmt: skip
        for team in (game.team_a, game.team_b):
            if (game.sitting, team) in seated:
                raise InterchangeError(
                    game.place,
                    _("koppel “%(team)s” plays twice in sitting %(sitting)s")
                    % {"team": team, "sitting": game.sitting},
                )
            seated.add((game.sitting, team))


def _parse_game(raw: Any, place: str, doc: _Document, match: _Match, sittings: bool) -> _Game:
    item = _Object(
        raw,
        place,
        (
            "table",
            "sitting",
            "team_a",
            "team_b",
            "seats",
            "rounds",
            "totals",
            "closed",
            "confirmed",
        ),
    )
    table = item.integer("table", default=1, minimum=1)
    sitting = item.integer("sitting", default=1, minimum=1)
    if sittings:
        name = _("game sitting %(sitting)s table %(table)s") % {"sitting": sitting, "table": table}
    else:
        name = _("game table %(table)s") % {"table": table}
    item.place = place = _join(match.place, name)
    team_a = item.text("team_a", max_length=64)
    team_b = item.text("team_b", max_length=64)
    for label, team in (("team_a", team_a), ("team_b", team_b)):
        if team not in doc.teams:
            raise InterchangeError(
                place,
                _("%(label)s “%(team)s” is not in “teams”") % {"label": label, "team": team},
            )
    if team_a == team_b:
        raise InterchangeError(place, _("a koppel cannot play against itself"))
    a_is_home = _team_side(place, doc, match, team_a, team_b)

    seats = item.array("seats", default=None, nullable=True)
    # One player, one place (issue 6): two koppels sharing a player, or a player in two
    # seats, is refused before the seats are matched to the koppels.
    try:
        game_players_check(doc.teams[team_a][:2], doc.teams[team_b][:2])
    except RuleViolation as exc:
        raise _violation(place, exc) from None
    if seats is not None:
        if len(seats) != 4 or any(not isinstance(s, str) for s in seats):
            raise InterchangeError(place, _("“seats” must be a list of four player keys"))
        for seat in seats:
            if seat not in doc.players:
                raise InterchangeError(
                    place,
                    _("player “%(player)s” in “seats” is not in “players”")
                    % {"player": _show(seat)},
                )
        try:
            game_players_check((), (), seats)
        except RuleViolation as exc:
            raise _violation(place, exc) from None
        for label, team, pair in (
            ("team_a", team_a, {seats[0], seats[2]}),
            ("team_b", team_b, {seats[1], seats[3]}),
        ):
            if pair != set(doc.teams[team][:2]):
                raise InterchangeError(
                    place,
                    _(
                        "seats 1 and 3 must be team_a's players and seats 2 and 4 team_b's; "
                        "%(label)s “%(team)s” is %(players)s"
                    )
                    % {"label": label, "team": team, "players": " & ".join(doc.teams[team][:2])},
                )

    totals = None
    rounds: list[_Round] = []
    if item.has("totals"):
        if item.has("rounds") and item.value["rounds"]:
            raise InterchangeError(place, _("a game gives either “rounds” or “totals”, not both"))
        totals = _int_pair(place, "totals", item.value["totals"], maximum=SMALL_INT_MAX)
    raw_rounds = item.array("rounds", default=[])
    if len(raw_rounds) > MAX_ROUNDS_PER_GAME:
        # Before reading a single round: a file of 100,000 redeals is refused at once.
        raise _violation(
            place,
            RuleViolation(
                "game_too_many_rounds", limit=MAX_ROUNDS_PER_GAME, rounds=len(raw_rounds)
            ),
        )
    round_name = _("round %(number)s")  # translated once: a league file has 100,000 rounds
    for number, raw_round in enumerate(raw_rounds, start=1):
        rounds.append(_parse_round(raw_round, _join(place, round_name % {"number": number}), doc))
    closed = item.boolean("closed", default=False)
    confirmed = item.boolean("confirmed", default=False)
    return _Game(
        place=place,
        table=table,
        sitting=sitting,
        team_a=team_a,
        team_b=team_b,
        a_is_home=a_is_home,
        seats=seats,
        rounds=rounds,
        totals=totals,
        closed=closed,
        confirmed=confirmed,
    )


def _team_side(place: str, doc: _Document, match: _Match, team_a: str, team_b: str) -> bool:
    """Whether team_a plays for the home entry; refuses koppels that don't belong."""
    if doc.competition["kind"] == "pairs":
        if {team_a, team_b} != {match.home, match.away}:
            raise InterchangeError(
                place,
                _("team_a and team_b must be the match's koppels “%(home)s” and “%(away)s”")
                % {"home": match.home, "away": match.away},
            )
        return team_a == match.home
    sides = []
    for label, team in (("team_a", team_a), ("team_b", team_b)):
        clubs = {doc.players[player][1] for player in doc.teams[team][:2]}
        club = clubs.pop() if len(clubs) == 1 else None
        if club not in (match.home, match.away):
            raise InterchangeError(
                place,
                _("both players of %(label)s “%(team)s” must belong to “%(home)s” or “%(away)s”")
                % {"label": label, "team": team, "home": match.home, "away": match.away},
            )
        sides.append(club)
    if sides[0] == sides[1]:
        raise InterchangeError(
            place, _("team_a and team_b must play for different clubs of the match")
        )
    return sides[0] == match.home


def _parse_round(raw: Any, place: str, doc: _Document) -> _Round:
    item = _Object(raw, place, ("result", "side", "caller", "tricks"))
    result = item.text("result", max_length=20)
    if result not in RESULTS:
        raise InterchangeError(
            place,
            _("“%(result)s” is not a round result; use one of %(results)s")
            % {"result": _show(result), "results": ", ".join(RESULTS)},
        )
    side = item.value.get("side", _MISSING)
    if side is _MISSING:
        raise InterchangeError(place, _("“side” is missing"))
    if side not in ("a", "b"):
        raise InterchangeError(
            place, _("“side” must be “a” or “b”, not “%(side)s”") % {"side": _show(side)}
        )
    caller = item.text("caller", default=None, max_length=64, nullable=True)
    if caller is not None and caller not in doc.players:
        raise InterchangeError(
            place, _("caller “%(player)s” is not in “players”") % {"player": _show(caller)}
        )
    tricks = None
    if item.value.get("tricks") is not None:
        tricks = _int_pair(place, "tricks", item.value["tricks"], maximum=SMALL_INT_MAX)
    return _Round(place=place, result=result, side=side, caller=caller, tricks=tricks)


def _parse(data: Any) -> _Document:
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
    top = _Object(
        data,
        "document",
        (
            "format",
            "competition",
            "clubs",
            "players",
            "teams",
            "entries",
            "matchdays",
            "deductions",
            "squads",
        ),
    )
    doc = _Document(competition=_parse_competition(top))
    _parse_people(top, doc)
    _parse_entries(top, doc)
    _parse_matchdays(top, doc)
    _parse_deductions(top, doc)
    _parse_squads(top, doc)
    return doc


def _parse_deductions(data: _Object, doc: _Document) -> None:
    fields = ("entry", "points", "reason", "matchday", "match", "voided")
    for item in _list_of_objects(data, "deductions", fields, lambda _i, n: f"deductions[{n}]"):
        entry = item.text("entry", max_length=64)
        if entry not in doc.entries:
            raise InterchangeError(
                item.place, _("entry “%(entry)s” is not in “entries”") % {"entry": _show(entry)}
            )
        points = item.integer("points", minimum=None, maximum=INT_MAX)
        reason = item.text("reason", max_length=200)
        number = item.integer("matchday", default=None, minimum=1, nullable=True)
        slug = item.text("match", default=None, max_length=130, nullable=True)
        match = None
        if (number is None) != (slug is None):
            raise InterchangeError(
                item.place,
                _("a deduction for a match gives both “matchday” and “match” (e.g. "
                  "\"matchday\": 2, \"match\": \"t01-t02\"); without a match, neither")
            )  # fmt: skip
        if number is not None:
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
                    _("“%(entry)s” does not play match %(match)s")
                    % {"entry": entry, "match": match.slug},
                )
        doc.deductions.append(
            _Deduction(
                place=item.place,
                entry=entry,
                points=points,
                reason=reason,
                match=match,
                voided=_parse_voided(item),
            )
        )


def _parse_voided(item: _Object) -> tuple[datetime.datetime, str] | None:
    """A deduction's optional `voided`: {"at": ISO 8601 time with its UTC offset, "reason"}."""
    if not item.has("voided"):
        return None
    voided = item.obj("voided", ("at", "reason"))
    raw = voided.text("at", max_length=40)
    try:
        at = datetime.datetime.fromisoformat(raw)
    except ValueError:
        at = None
    if at is None or at.tzinfo is None:
        raise InterchangeError(
            voided.place,
            _("“at” must be a time with its UTC offset like 2026-10-02T21:15:00+00:00, "
              "not “%(value)s”") % {"value": _show(raw)},
        )  # fmt: skip
    reason = voided.text("reason", max_length=200)
    if not reason.strip():
        raise InterchangeError(voided.place, _("“reason” must say why it was voided"))
    return at, reason


def _squad_place(item: Any, position: int) -> str:
    club = item.get("club") if isinstance(item, dict) else None
    if isinstance(club, str) and club:
        return f"squads[{_show(club)}]"
    return f"squads[{position}]"


def _parse_squads(data: _Object, doc: _Document) -> None:
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
        doc.squads.append(
            _Squad(
                place=item.place,
                club=club,
                season=squad_season,
                locked_on=locked_on,
                players=list(players),
            )
        )


# ------------------------------------------------------------------ writing


def _check_existing(doc: _Document) -> tuple[dict[str, Club], dict[str, Player], dict[str, Team]]:
    """The clubs, players and koppels the database already has under the file's keys.

    Refuses a file that contradicts them (a player with another club, a koppel with other
    players). Three queries.
    """
    clubs = {club.key: club for club in Club.objects.filter(key__in=list(doc.clubs))}
    players = {
        player.key: player
        for player in Player.objects.filter(key__in=list(doc.players)).select_related("club")
    }
    for key, player in players.items():
        stored = player.club.key if player.club else None
        given = doc.players[key][1]
        if stored != given:
            raise InterchangeError(
                f"players[{key}]",
                _(
                    "player “%(key)s” is registered with club %(stored)s, not %(given)s as this "
                    "file says"
                )
                % {
                    "key": key,
                    "stored": f"“{stored}”" if stored else _("none"),
                    "given": f"“{given}”" if given else _("none"),
                },
            )
    teams = {
        team.key: team
        for team in Team.objects.filter(key__in=list(doc.teams)).select_related(
            "player_1", "player_2"
        )
    }
    for key, team in teams.items():
        stored_players = {team.player_1.key, team.player_2.key}
        if stored_players != set(doc.teams[key][:2]):
            raise InterchangeError(
                f"teams[{key}]",
                _("koppel “%(key)s” is registered as %(stored)s, not %(given)s as this file says")
                % {
                    "key": key,
                    "stored": " & ".join(sorted(stored_players)),
                    "given": " & ".join(doc.teams[key][:2]),
                },
            )
    return clubs, players, teams


M = TypeVar("M", bound=models.Model)


def _create_missing(model: type[M], existing: dict[str, M], new: list[M]) -> dict[str, M]:
    """Insert `new` in one query; return every record by key (existing and new)."""
    model.objects.bulk_create(new)  # type: ignore[attr-defined]
    if any(obj.pk is None for obj in new):  # a backend that can't return ids
        new = list(model.objects.filter(key__in=[obj.key for obj in new]))  # type: ignore[attr-defined]
    return {**existing, **{obj.key: obj for obj in new}}  # type: ignore[attr-defined]


def _delete_competition(competition: Competition) -> None:
    """Delete a competition and its schedule and results (clubs, players, koppels and squads
    stay)."""
    Deduction.objects.filter(competition=competition).delete()
    Bye.objects.filter(matchday__competition=competition).delete()
    Round.objects.filter(game__match__matchday__competition=competition).delete()
    Game.objects.filter(match__matchday__competition=competition).delete()
    Match.objects.filter(matchday__competition=competition).delete()
    Matchday.objects.filter(competition=competition).delete()
    Standing.objects.filter(competition=competition).delete()
    Entry.objects.filter(competition=competition).delete()
    competition.delete()


@transaction.atomic
def competition_import(
    *,
    data: dict[str, Any],
    replace: bool = False,
    progress: Callable[[str], None] | None = None,
) -> Competition:
    """Import one `troefclub-competition/1` document (parsed JSON); returns the competition.

    All or nothing, in one transaction. With `replace`, a competition with the same slug is
    deleted first (its directors carry over); without it, an existing slug is refused.
    The results are checked as the services check them and written in bulk
    (`tournaments.interchange_load`); `progress`, when given, is told how far a long import
    is (a line at most every few seconds). Standings are rebuilt before returning, in the
    same transaction, so no refresh is queued.

    Raises InterchangeError(place, message) on the first problem; nothing is saved then.
    """
    doc = _parse(data)
    values = doc.competition
    old = Competition.objects.filter(slug=values["slug"]).first()
    directors: list[int] = []
    if old is not None and not replace:
        raise InterchangeError(
            "competition",
            _("a competition “%(slug)s” exists already; import with replace to overwrite it")
            % {"slug": values["slug"]},
        )
    clubs, players, teams = _check_existing(doc)
    if old is not None:
        directors = list(old.directors.values_list("pk", flat=True))
        _delete_competition(old)

    clubs = _create_missing(
        Club, clubs, [Club(key=k, name=n) for k, n in doc.clubs.items() if k not in clubs]
    )
    players = _create_missing(
        Player,
        players,
        [
            Player(key=k, name=name, club=clubs[club] if club else None)
            for k, (name, club) in doc.players.items()
            if k not in players
        ],
    )
    teams = _create_missing(
        Team,
        teams,
        [
            Team(key=k, name=name, player_1=players[p1], player_2=players[p2])
            for k, (p1, p2, name) in doc.teams.items()
            if k not in teams
        ],
    )

    competition = Competition.objects.create(**values)
    if directors:
        competition.directors.add(*directors)
    pairs = competition.kind == Competition.Kind.PAIRS
    entries = [
        Entry(competition=competition, team=teams[key])
        if pairs
        else Entry(competition=competition, club=clubs[key])
        for key in doc.entries
    ]
    Entry.objects.bulk_create(entries)
    if any(entry.pk is None for entry in entries):
        entries = list(competition.entries.select_related("team", "club"))
    entry_by_key = {entry.key: entry for entry in entries}

    _import_squads(doc, clubs, players)

    for matchday in doc.matchdays:
        matchday.instance = Matchday(
            competition=competition,
            number=matchday.number,
            date=matchday.date,
            override_reason=matchday.override_reason,
        )
    Matchday.objects.bulk_create([md.instance for md in doc.matchdays if md.instance])
    # Imported here: `tournaments.interchange_load` reads this module's parsed document.
    from tournaments.interchange_load import results_load, rows_create

    # With history, like every write of a result: the audit trail shows imported byes too.
    rows_create(
        Bye,
        [
            Bye(matchday=md.instance, entry=entry_by_key[entry], reason=reason)
            for md in doc.matchdays
            for entry, reason in md.byes
        ],
    )
    all_matches = [match for md in doc.matchdays for match in md.matches]
    for md in doc.matchdays:
        for match in md.matches:
            match.instance = Match(
                matchday=md.instance,
                home=entry_by_key[match.home],
                away=entry_by_key[match.away],
                table=match.table,
                pairing_reason=match.pairing_reason,
            )
    rows_create(Match, [m.instance for m in all_matches if m.instance])

    # The results, checked first and then written in bulk.
    results_load(
        doc=doc,
        competition=competition,
        teams=teams,
        players=players,
        entries=entry_by_key,
        progress=progress,
    )
    standings_rebuild(competition_id=competition.pk)
    return competition


def _import_squads(doc: _Document, clubs: dict[str, Club], players: dict[str, Player]) -> None:
    """The file's squads and their members, written directly: a lock date in the past must
    not stop an import of history. A squad already stored (club and season) is reused and
    keeps its lock date; a player on another club's squad that season is refused."""
    if not doc.squads:
        return
    season = doc.competition["season"]
    stored = {
        squad.club_id: squad
        for squad in Squad.objects.filter(
            season=season, club__in=[clubs[s.club] for s in doc.squads]
        )
    }
    members = {
        member.player_id: member
        for member in SquadMember.objects.filter(
            season=season,
            player__in=[players[key] for squad in doc.squads for key in squad.players],
        ).select_related("squad__club", "player")
    }
    new_members = []
    for item in doc.squads:
        club = clubs[item.club]
        squad = stored.get(club.pk)
        if squad is None:
            squad = Squad.objects.create(club=club, season=season, locked_on=item.locked_on)
        for key in item.players:
            player = players[key]
            member = members.get(player.pk)
            if member is None:
                new_members.append(SquadMember(squad=squad, player=player, season=season))
            elif member.squad_id != squad.pk:
                exc = RuleViolation(
                    "player_on_other_squad",
                    player=f"{player.name} ({player.key})",
                    club=str(member.squad.club),
                    season=season,
                )
                raise InterchangeError(item.place, rule_message(exc), code=exc.code)
    SquadMember.objects.bulk_create(new_members)


def competition_counts(*, competition: Competition) -> dict[str, int]:
    """How many matchdays, matches, games, rounds, standings rows, byes and deductions a
    competition has."""
    return {
        "matchdays": Matchday.objects.filter(competition=competition).count(),
        "matches": Match.objects.filter(matchday__competition=competition).count(),
        "games": Game.objects.filter(match__matchday__competition=competition).count(),
        "rounds": Round.objects.filter(game__match__matchday__competition=competition).count(),
        "standings": Standing.objects.filter(competition=competition).count(),
        "byes": Bye.objects.filter(matchday__competition=competition).count(),
        "deductions": Deduction.objects.filter(competition=competition).count(),
    }


# ------------------------------------------------------------------ export


def _rules_export(competition: Competition) -> dict[str, Any]:
    rules: dict[str, Any] = {
        "target_score": competition.target_score,
        "fixed_rounds": competition.fixed_rounds,
        "kap_partner_allowed": competition.kap_partner_allowed,
        "stinkende_bonus": {
            "kap": competition.stinkende_kap_bonus,
            "baunie": competition.stinkende_baunie_bonus,
        },
        "redeal_allowed": competition.redeal_allowed,
    }
    for name, default in EXTRA_RULE_DEFAULTS.items():
        value = getattr(competition, name)
        if value != default:
            rules[name] = value
    return rules


def _formats_export(competition: Competition) -> dict[str, Any]:
    """The competition-format keys that differ from their defaults (objects: members too)."""
    row: dict[str, Any] = {}
    if competition.schedule_format != FORMAT_DEFAULTS["schedule_format"]:
        row["schedule"] = competition.schedule_format
    bye: dict[str, Any] = {}
    if competition.bye_result != FORMAT_DEFAULTS["bye_result"]:
        bye["result"] = competition.bye_result
    bye_score = [competition.bye_score_for, competition.bye_score_against]
    if bye_score != [FORMAT_DEFAULTS["bye_score_for"], FORMAT_DEFAULTS["bye_score_against"]]:
        bye["score"] = bye_score
    if bye:
        row["bye"] = bye
    forfeit_score = [competition.forfeit_score_for, competition.forfeit_score_against]
    if forfeit_score != [0, 0]:
        row["forfeit_score"] = forfeit_score
    koppels = competition.koppels_per_side
    # min_koppels and sittings default to at most `koppels` (as the import reads them).
    defaults = {
        "koppels": 6,
        "min_koppels": min(5, koppels),
        "sittings": min(4, koppels),
        "late_until_sitting": None,
    }
    club = {
        key: getattr(competition, name)
        for key, name in CLUB_MATCH_FIELDS.items()
        if getattr(competition, name) != defaults[key]
    }
    if club:
        row["club_matches"] = club
    for name in ("squads_required", "ineligible_deduction", "confirmation_required"):
        if getattr(competition, name) != FORMAT_DEFAULTS[name]:
            row[name] = getattr(competition, name)
    return row


def competition_export(*, competition: Competition) -> dict[str, Any]:
    """The competition as a `troefclub-competition/1` document (a dict ready for JSON).

    Lists come in the order they were created (an imported file's order); clubs, players
    and koppels are those the competition uses (squad members included). Ten queries
    whatever the size.
    """
    entries = list(
        competition.entries.select_related(
            "club", "team__player_1__club", "team__player_2__club"
        ).order_by("pk")
    )
    matchdays = list(competition.matchdays.order_by("number"))
    matches = list(
        Match.objects.filter(matchday__competition=competition)
        .select_related("home__team", "home__club", "away__team", "away__club")
        .order_by("pk")
    )
    seat_fields = ("seat_1__club", "seat_2__club", "seat_3__club", "seat_4__club")
    games = list(
        Game.objects.filter(match__matchday__competition=competition)
        .select_related(
            "team_a__player_1__club",
            "team_a__player_2__club",
            "team_b__player_1__club",
            "team_b__player_2__club",
            *seat_fields,
        )
        .order_by("pk")
    )
    rounds: dict[int, list[dict[str, Any]]] = {}
    for game_id, result, side, caller, tricks_a, tricks_b in (
        Round.objects.filter(game__match__matchday__competition=competition)
        .order_by("game_id", "number")
        .values_list("game_id", "result", "side", "caller__key", "tricks_a", "tricks_b")
    ):
        row: dict[str, Any] = {"result": result, "side": side}
        if caller is not None:
            row["caller"] = caller
        if tricks_a is not None:
            row["tricks"] = [tricks_a, tricks_b]
        rounds.setdefault(game_id, []).append(row)

    teams: dict[int, Team] = {}
    players: dict[int, Player] = {}
    clubs: dict[int, Club] = {}
    for entry in entries:
        if entry.team:
            teams[entry.team.pk] = entry.team
        if entry.club:
            clubs[entry.club.pk] = entry.club
    for game in games:
        teams[game.team_a.pk] = game.team_a
        teams[game.team_b.pk] = game.team_b
        for seat in (game.seat_1, game.seat_2, game.seat_3, game.seat_4):
            if seat is not None:
                players[seat.pk] = seat
    for team in teams.values():
        players[team.player_1.pk] = team.player_1
        players[team.player_2.pk] = team.player_2
    squads: list[Squad] = []
    if competition.kind == Competition.Kind.CLUBS:
        squads = list(
            Squad.objects.filter(
                season=competition.season, club__in=[e.club_id for e in entries if e.club_id]
            )
            .select_related("club")
            .prefetch_related("members__player__club")
            .order_by("pk")
        )
    squad_players: dict[int, list[str]] = {}
    for squad in squads:
        members = sorted(squad.members.all(), key=lambda member: member.pk)
        squad_players[squad.pk] = [member.player.key for member in members]
        for member in members:
            players[member.player.pk] = member.player
    for player in players.values():
        if player.club:
            clubs[player.club.pk] = player.club
    byes: dict[int, list[Any]] = {}
    for bye in (
        Bye.objects.filter(matchday__competition=competition)
        .select_related("entry__team", "entry__club")
        .order_by("pk")
    ):
        value: Any = bye.entry.key
        if bye.reason:
            value = {"entry": bye.entry.key, "reason": bye.reason}
        byes.setdefault(bye.matchday_id, []).append(value)
    deductions = list(
        Deduction.objects.filter(competition=competition)
        .select_related(
            "entry__team",
            "entry__club",
            "match__matchday",
            "match__home__team",
            "match__home__club",
            "match__away__team",
            "match__away__club",
        )
        .order_by("pk")
    )

    games_by_match: dict[int, list[Game]] = {}
    for game in games:
        games_by_match.setdefault(game.match_id, []).append(game)
    matches_by_day: dict[int, list[Match]] = {}
    for match in matches:
        matches_by_day.setdefault(match.matchday_id, []).append(match)

    def game_export(game: Game) -> dict[str, Any]:
        row: dict[str, Any] = {
            "table": game.table,
            "sitting": game.sitting,
            "team_a": game.team_a.key,
            "team_b": game.team_b.key,
        }
        if game.seat_1 is not None:
            row["seats"] = [
                seat.key for seat in (game.seat_1, game.seat_2, game.seat_3, game.seat_4) if seat
            ]
        if game.by_totals:
            row["totals"] = [game.total_a, game.total_b]
        else:
            row["rounds"] = rounds.get(game.pk, [])
        if game.status == Game.Status.CLOSED:
            row["closed"] = True
        if game.confirmed_at is not None:
            row["confirmed"] = True
        return row

    def match_export(match: Match) -> dict[str, Any]:
        row: dict[str, Any] = {"home": match.home.key, "away": match.away.key}
        if match.pk in games_by_match:
            row["games"] = [game_export(game) for game in games_by_match[match.pk]]
        elif match.has_reported_totals:
            row["totals"] = [match.total_home, match.total_away]
        if match.table is not None:
            row["table"] = match.table
        if match.forfeit:
            row["forfeit"] = {"side": match.forfeit, "reason": match.forfeit_reason}
        if match.pairing_reason:
            row["pairing_reason"] = match.pairing_reason
        return row

    def matchday_export(md: Matchday) -> dict[str, Any]:
        row: dict[str, Any] = {
            "number": md.number,
            "date": md.date.isoformat() if md.date else None,
            "matches": [match_export(m) for m in matches_by_day.get(md.pk, [])],
        }
        if md.pk in byes:
            row["byes"] = byes[md.pk]
        if md.override_reason:
            row["override_reason"] = md.override_reason
        return row

    def deduction_export(deduction: Deduction) -> dict[str, Any]:
        row: dict[str, Any] = {
            "entry": deduction.entry.key,
            "points": deduction.points,
            "reason": deduction.reason,
        }
        if deduction.match is not None:
            row["matchday"] = deduction.match.matchday.number
            row["match"] = deduction.match.slug
        if deduction.voided_at is not None:
            # Kept, not left out: an export is also the backup taken before a --replace.
            row["voided"] = {
                "at": deduction.voided_at.astimezone(datetime.UTC).isoformat(),
                "reason": deduction.void_reason,
            }
        return row

    def squad_export(squad: Squad) -> dict[str, Any]:
        return {
            "club": squad.club.key,
            "season": squad.season,
            "locked_on": squad.locked_on.isoformat() if squad.locked_on else None,
            "players": squad_players[squad.pk],
        }

    def team_export(team: Team) -> dict[str, Any]:
        row: dict[str, Any] = {"key": team.key, "players": [team.player_1.key, team.player_2.key]}
        if team.name:
            row["name"] = team.name
        return row

    document: dict[str, Any] = {
        "format": FORMAT,
        "competition": {
            "slug": competition.slug,
            "name": competition.name,
            "season": competition.season,
            "kind": competition.kind,
            "rules": _rules_export(competition),
            "standings": {
                "win": competition.points_win,
                "draw": competition.points_draw,
                "loss": competition.points_loss,
                "tiebreaks": list(competition.tiebreaks),
            },
            **_formats_export(competition),
        },
        "clubs": [{"key": c.key, "name": c.name} for _pk, c in sorted(clubs.items())],
        "players": [
            {"key": p.key, "name": p.name, "club": p.club.key if p.club else None}
            for _pk, p in sorted(players.items())
        ],
        "teams": [team_export(t) for _pk, t in sorted(teams.items())],
        "entries": [entry.key for entry in entries],
        "matchdays": [matchday_export(md) for md in matchdays],
    }
    if deductions:
        document["deductions"] = [deduction_export(d) for d in deductions]
    if squads:
        document["squads"] = [squad_export(squad) for squad in squads]
    return document
