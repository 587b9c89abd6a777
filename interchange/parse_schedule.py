"""The schedule of a document checked before anything is written: its matchdays with
their byes, matches, games and rounds (`_parse_matchdays`, called by
`interchange.parse.document_check`).

Who plays where is checked by the engine's checks (`scoring.rules.places`): an entry plays
once a matchday, a pairs match is one game of its two koppels, a koppel sits at one table a
sitting, a player at one place.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.utils.translation import gettext as _

from interchange.constants import INT_MAX, LINEUP_REASON_PREFIX, RESULTS, SMALL_INT_MAX
from interchange.document import _Document, _Game, _Match, _Matchday, _Round
from interchange.errors import InterchangeError, _join, _violation
from interchange.values import (
    _MISSING,
    _choice,
    _int_pair,
    _kind_of,
    _Object,
    _parse_date,
    _parse_time,
    _show,
)
from scoring.rules import (
    Forfeit,
    RuleViolation,
    found_at_bye,
    game_seating_check,
    koppel_club,
    matchday_places_check,
    pairs_match_games_check,
)
from scoring.services.rounds import MAX_ROUNDS_PER_GAME
from tournaments.models import Match
from troefclub.rule_messages import rule_message


def _parse_matchdays(data: _Object, doc: _Document) -> None:
    numbers: set[int] = set()
    for position, raw in enumerate(data.array("matchdays", default=[]), start=1):
        item = _Object(
            raw,
            f"matchdays[{position}]",
            ("number", "date", "time", "matches", "byes", "override_reason"),
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
        raw_time = item.text("time", default=None, max_length=8, nullable=True)
        time = _parse_time(place, "time", raw_time)
        if time is not None and date is None:
            raise InterchangeError(place, _("a matchday with a “time” needs its “date” too"))
        matchday = _Matchday(
            place=place,
            number=number,
            date=date,
            time=time,
            matches=[],
            override_reason=item.text(
                "override_reason", default="", max_length=10000, multiline=True
            ),
        )
        matchday.matches = _parse_matches(item, doc)
        _parse_byes(item, matchday, doc)
        _check_places(matchday, doc)
        doc.matchdays.append(matchday)


def _parse_matches(item: _Object, doc: _Document) -> list[_Match]:
    """A matchday's `matches`; two of them can't share a table."""
    matches: list[_Match] = []
    tables: dict[int, str] = {}
    for index, raw_match in enumerate(item.array("matches", default=[]), start=1):
        match = _parse_match(raw_match, _join(item.place, f"matches[{index}]"), doc, item.place)
        if match.table is not None:
            if match.table in tables:
                raise InterchangeError(
                    match.place,
                    _("table %(table)s is taken by match %(other)s on this matchday")
                    % {"table": match.table, "other": tables[match.table]},
                )
            tables[match.table] = match.slug
        matches.append(match)
    return matches


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
        raw,
        place,
        (
            *("home", "away", "games", "totals", "table", "forfeit", "pairing_reason"),
            *("voided", "replay_of"),
        ),
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
        match.forfeit = _parse_forfeit(item)
    match.voided = parse_voided(item)
    match.replay_of = _parse_replay_of(item)
    _parse_games(item, doc, match)
    return match


def parse_voided(item: _Object) -> tuple[datetime.datetime, str] | None:
    """An optional `voided`: {"at": ISO 8601 time with its UTC offset, "reason"} (a
    deduction's, a match's, a game's)."""
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


def _parse_replay_of(item: _Object) -> tuple[int, str] | None:
    """A replay's optional `replay_of`: {"matchday": number, "match": "home-away"}, the
    voided match it replays (found once every matchday is read: `interchange.voids`)."""
    if not item.has("replay_of"):
        return None
    replay_of = item.obj("replay_of", ("matchday", "match"))
    return (
        replay_of.integer("matchday", minimum=1),
        replay_of.text("match", max_length=130),
    )


def _parse_forfeit(item: _Object) -> tuple[Forfeit, str, Match.ForfeitCause]:
    """A match's `forfeit`: (side, reason, cause); the reason is checked on import
    (`scoring.services.matches.forfeit_check`).

    `cause` says who forfeited: "director" (the default) or "lineup" (`Match.forfeit_cause`).
    A file without it whose reason starts with "lineup:" was exported before the cause was
    a field: that forfeit is the lineup's, its reason without the prefix (as tournaments
    migration 0007 read the stored ones).
    """
    forfeit = item.obj("forfeit", ("side", "reason", "cause"))
    text = forfeit.text("side", max_length=10)
    try:
        side = Forfeit(text)
    except ValueError:  # "" too: it would lift a forfeit, and a file states forfeits
        raise InterchangeError(
            forfeit.place, rule_message(RuleViolation("forfeit_side_invalid", side=text))
        ) from None
    reason = forfeit.text("reason", default="", max_length=200)
    if forfeit.has("cause"):
        cause = _choice(forfeit, "cause", Match.ForfeitCause.values, Match.ForfeitCause.DIRECTOR)
        return side, reason, Match.ForfeitCause(cause)
    if reason.startswith(LINEUP_REASON_PREFIX):
        # A reason that was only the prefix keeps it: a forfeit needs its words.
        words = reason.removeprefix(LINEUP_REASON_PREFIX).strip() or reason
        return side, words, Match.ForfeitCause.LINEUP
    return side, reason, Match.ForfeitCause.DIRECTOR


def _parse_games(item: _Object, doc: _Document, match: _Match) -> None:
    """A match's `games`, into `match.games`: one place each (sitting and table), in the
    shape of the competition's matches (a club match's sittings and tables, a pairs match's
    one game)."""
    raw_games = item.array("games", default=[])
    sittings = {repr(g.get("sitting", 1)) for g in raw_games if isinstance(g, dict)}
    tables: set[tuple[int, int]] = set()
    for index, raw_game in enumerate(raw_games, start=1):
        game = _parse_game(
            raw_game, _join(match.place, f"games[{index}]"), doc, match, len(sittings) > 1
        )
        if (game.sitting, game.table) in tables:
            raise InterchangeError(game.place, _("two games at the same table in the same sitting"))
        tables.add((game.sitting, game.table))
        match.games.append(game)
    if doc.competition["kind"] == "clubs":
        _check_club_match_shape(match, doc)
    else:
        try:
            pairs_match_games_check(
                match.home, match.away, [(g.team_a, g.team_b) for g in match.games]
            )
        except RuleViolation as exc:
            raise _violation(match.games[exc.params["index"]].place, exc) from None


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


GAME_FIELDS = (
    "table",
    "sitting",
    "team_a",
    "team_b",
    "seats",
    "rounds",
    "totals",
    "closed",
    "confirmed",
    "voided",
)


def _parse_game(raw: Any, place: str, doc: _Document, match: _Match, sittings: bool) -> _Game:
    """One game of `match`, placed `game table 3` (`game sitting 2 table 3` when the match's
    games use more than one sitting): who sits where (`_game_seating`), then its rounds or
    totals (`_game_results`) and whether it was closed and confirmed."""
    item = _Object(raw, place, GAME_FIELDS)
    table = item.integer("table", default=1, minimum=1)
    sitting = item.integer("sitting", default=1, minimum=1)
    if sittings:
        name = _("game sitting %(sitting)s table %(table)s") % {"sitting": sitting, "table": table}
    else:
        name = _("game table %(table)s") % {"table": table}
    item.place = place = _join(match.place, name)
    team_a, team_b, a_is_home, seats = _game_seating(item, doc, match)
    totals, rounds = _game_results(item, doc)
    voided = parse_voided(item)
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
        closed=item.boolean("closed", default=False),
        confirmed=item.boolean("confirmed", default=False),
        voided=voided,
    )


def _game_seating(
    item: _Object, doc: _Document, match: _Match
) -> tuple[str, str, bool, list[str] | None]:
    """A game's koppels and seats: (team_a, team_b, whether team_a plays for home, seats).

    Who may sit there is the engine's one check (`scoring.rules.game_seating_check`, as in
    the admin and the services), in the file's words (`_seating_refusal`).
    """
    place = item.place
    team_a = item.text("team_a", max_length=64)
    team_b = item.text("team_b", max_length=64)
    for label, team in (("team_a", team_a), ("team_b", team_b)):
        if team not in doc.teams:
            raise InterchangeError(
                place,
                _("%(label)s “%(team)s” is not in “teams”") % {"label": label, "team": team},
            )
    seats = item.array("seats", default=None, nullable=True)
    if seats is not None:
        _check_seat_keys(place, doc, seats)
    players = (doc.teams[team_a][:2], doc.teams[team_b][:2])
    if doc.competition["kind"] == "pairs":  # a koppel is its own entry
        plays_for: tuple[str | None, str | None] = (team_a, team_b)
    else:  # a koppel plays for its players' club
        plays_for = (
            koppel_club([doc.players[player][1] for player in players[0]]),
            koppel_club([doc.players[player][1] for player in players[1]]),
        )
    try:
        a_is_home = game_seating_check(
            match.home,
            match.away,
            team_a,
            team_b,
            plays_for=plays_for,
            players=players,
            seats=seats or (),
        )
    except RuleViolation as exc:
        raise _seating_refusal(place, exc, doc, match, (team_a, team_b)) from None
    return team_a, team_b, a_is_home, seats


def _check_seat_keys(place: str, doc: _Document, seats: list[Any]) -> None:
    """`seats`: four keys of the file's players, clockwise."""
    if len(seats) != 4 or any(not isinstance(s, str) for s in seats):
        raise InterchangeError(place, _("“seats” must be a list of four player keys"))
    for seat in seats:
        if seat not in doc.players:
            raise InterchangeError(
                place,
                _("player “%(player)s” in “seats” is not in “players”") % {"player": _show(seat)},
            )


def _seating_refusal(
    place: str, exc: RuleViolation, doc: _Document, match: _Match, teams: tuple[str, str]
) -> InterchangeError:
    """A `game_seating_check` violation in the words of the file (team_a, team_b)."""
    label = f"team_{exc.params.get('side', 'a')}"
    team = teams[0] if label == "team_a" else teams[1]
    values = {"label": label, "team": team, "home": match.home, "away": match.away}
    if exc.code == "game_same_koppel":
        return InterchangeError(place, _("a koppel cannot play against itself"))
    if exc.code == "koppel_not_in_match" and doc.competition["kind"] == "pairs":
        text = _("team_a and team_b must be the match's koppels “%(home)s” and “%(away)s”")
    elif exc.code == "koppel_not_in_match" and exc.params["plays_for"] is None:
        text = _("both players of %(label)s “%(team)s” must belong to “%(home)s” or “%(away)s”")
    elif exc.code == "koppel_not_in_match":  # for the club koppel A plays for too
        text = _("team_a and team_b must play for different clubs of the match")
    elif exc.code == "seats_do_not_fit":
        values["players"] = " & ".join(doc.teams[team][:2])
        text = _(
            "seats 1 and 3 must be team_a's players and seats 2 and 4 team_b's; "
            "%(label)s “%(team)s” is %(players)s"
        )
    else:  # one player, one place (issue 6): the engine's words
        return _violation(place, exc)
    return InterchangeError(place, text % values)


def _game_results(item: _Object, doc: _Document) -> tuple[tuple[int, int] | None, list[_Round]]:
    """A game's `totals` or its `rounds` (at most MAX_ROUNDS_PER_GAME), not both."""
    place = item.place
    totals = None
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
    rounds = [
        _parse_round(raw_round, _join(place, round_name % {"number": number}), doc)
        for number, raw_round in enumerate(raw_rounds, start=1)
    ]
    return totals, rounds


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
