"""Who plays where on a matchday: one place an entry, one game a pairs match, one table a
koppel at a time (issue 6 "One pairing, one result").

RULES.md covers the play of a game, not the schedule; DESIGN.md "How the real game is
organised" does: a match is two entries meeting on a matchday, a pairs match is one game
between its two koppels, and in a club match "every sitting each home koppel plays one away
koppel". So:

- an entry plays at most once a matchday: in one match, home or away, or it has the bye;
- the entries of a matchday's matches and byes are entries of its competition;
- a match of a pairs competition has one game, played by the match's two koppels;
- a koppel plays one game at a time: at one table in each sitting of a matchday;
- a player plays one game at a time too, through any koppel: a game's two koppels share no
  player and its four seats are four players; the koppels of a matchday's matches share no
  player (`players`), so a player is not at two tables of a pairs matchday.

Entries and koppels are any hashable ids (database ids, or keys in the interchange format):
the violations hold them as given and the edges name them. The `*_violations` functions list
every violation of stored data (`manage.py check_results`); the `*_check` functions raise the
first one, before a write. The database's triggers (migrations tournaments/0004 and
scoring/0003) raise the same codes, without the params, as the backstop for every other path.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterator, Mapping, Sequence
from typing import TypeVar

from scoring.rules.errors import RuleViolation

K = TypeVar("K", bound=Hashable)
P = TypeVar("P", bound=Hashable)


def matchday_places_violations(
    matches: Sequence[tuple[K, K]],
    byes: Sequence[K] = (),
    *,
    entries: Collection[K] | None = None,
    players: Mapping[K, Collection[Hashable]] | None = None,
) -> Iterator[RuleViolation]:
    """Every entry on a matchday that is in more than one place, or not an entry at all.

    `matches` are the matchday's (home, away) pairs and `byes` the entries with the bye, in
    the order they were made (a new match last): a violation is reported at the later place.
    `entries`, when given, are the competition's entries; `players`, when given, the players
    of each koppel entry (a club entry is left out: a player plays for one club). A player
    in two entries of the matchday's matches plays twice (two tables in sitting 1 of a
    pairs matchday); byes are left out of this, as a bye is no game.

    Yields RuleViolation:
    - `entry_other_competition` (params entry; match: (home, away), or None for a bye;
      index): an entry not in `entries`;
    - `match_same_entry` (params entry, index): an entry playing itself;
    - `entry_twice_on_matchday` (params entry; first and second: its two places, each a
      (home, away) pair or None for the bye; index): an entry met a second (third, …) time;
    - `match_entries_share_player` (params player, match: (home, away); index): the two
      entries of one match share a player;
    - `player_twice_on_matchday` (params player; first and second: the two matches; index):
      a player in entries of two matches.

    `index` is the position of the place reported in `matches`, or in `byes` when that
    place is a bye (`match` / `second` None).
    """
    seen: dict[K, tuple[K, K] | None] = {}
    player_seen: dict[Hashable, tuple[K, tuple[K, K]]] = {}
    places: list[tuple[int, tuple[K, K] | None, tuple[K, ...]]] = [
        (index, (home, away), (home, away)) for index, (home, away) in enumerate(matches)
    ]
    places += [(index, None, (entry,)) for index, entry in enumerate(byes)]
    for index, match, playing in places:
        if entries is not None:
            for entry in playing:
                if entry not in entries:
                    yield RuleViolation(
                        "entry_other_competition", entry=entry, match=match, index=index
                    )
        if match is not None and match[0] == match[1]:
            yield RuleViolation("match_same_entry", entry=match[0], index=index)
            playing = (match[0],)
        for entry in playing:
            if entry in seen:
                yield RuleViolation(
                    "entry_twice_on_matchday",
                    entry=entry,
                    first=seen[entry],
                    second=match,
                    index=index,
                )
            else:
                seen[entry] = match
        if players is not None and match is not None and match[0] != match[1]:
            yield from _players_twice(players, playing, match, index, player_seen)


def _players_twice(
    players: Mapping[K, Collection[Hashable]],
    playing: tuple[K, ...],
    match: tuple[K, K],
    index: int,
    player_seen: dict[Hashable, tuple[K, tuple[K, K]]],
) -> Iterator[RuleViolation]:
    """The players of a match's entries already met at this matchday (`player_seen`: player
    -> the entry and match it was met in, updated). An entry met twice is the entry's
    fault (`entry_twice_on_matchday`), not its players'."""
    for entry in playing:
        for player in players.get(entry, ()):
            if player not in player_seen:
                player_seen[player] = (entry, match)
                continue
            other, first = player_seen[player]
            if other == entry:
                continue
            if first == match:
                yield RuleViolation(
                    "match_entries_share_player", player=player, match=match, index=index
                )
            else:
                yield RuleViolation(
                    "player_twice_on_matchday",
                    player=player,
                    first=first,
                    second=match,
                    index=index,
                )


def found_at_bye(violation: RuleViolation) -> bool:
    """Whether a `matchday_places_violations` violation was found at a bye: its `index` is
    then a position in `byes`, else in `matches`."""
    place = violation.params.get("second", violation.params.get("match", ()))
    return place is None


def matchday_places_check(
    matches: Sequence[tuple[K, K]],
    byes: Sequence[K] = (),
    *,
    entries: Collection[K] | None = None,
    players: Mapping[K, Collection[Hashable]] | None = None,
) -> None:
    """Refuse a matchday where an entry plays twice (a bye included) or is not an entry.

    Arguments as `matchday_places_violations`. Raises its first RuleViolation:
    `entry_other_competition`, `match_same_entry`, `entry_twice_on_matchday`,
    `match_entries_share_player` or `player_twice_on_matchday`.
    """
    for violation in matchday_places_violations(matches, byes, entries=entries, players=players):
        raise violation


def pairs_match_games_violations(
    home: K, away: K, games: Sequence[tuple[K, K]], *, complete: bool = False
) -> Iterator[RuleViolation]:
    """Every way the games of one pairs-competition match break "one game, its two koppels".

    `home` and `away` are the match's koppels; `games` the (koppel A, koppel B) of each of
    its games, a new one last. Koppel A may be either of the two. With `complete` (the
    stored games, nothing being added) a match without any game is reported too; a caller
    leaves out matches that need no game (reported totals, forfeits).

    Yields RuleViolation:
    - `game_same_koppel` (param index): a koppel playing itself;
    - `game_koppels_not_of_match` (params koppel, home, away, index): a koppel of another
      match;
    - `pairs_match_one_game` (params games: how many, index: the second game);
    - `pairs_match_no_game` (with `complete`, no params).

    `index` is the game's position in `games`.
    """
    for index, (koppel_a, koppel_b) in enumerate(games):
        if koppel_a == koppel_b:
            yield RuleViolation("game_same_koppel", index=index)
        for koppel in (koppel_a, koppel_b):
            if koppel not in (home, away):
                yield RuleViolation(
                    "game_koppels_not_of_match", koppel=koppel, home=home, away=away, index=index
                )
                break
    if len(games) > 1:
        yield RuleViolation("pairs_match_one_game", games=len(games), index=1)
    if complete and not games:
        yield RuleViolation("pairs_match_no_game")


def pairs_match_games_check(home: K, away: K, games: Sequence[tuple[K, K]]) -> None:
    """Refuse a pairs-competition match with a second game, or a game of other koppels.

    Arguments as `pairs_match_games_violations`. Raises its first RuleViolation:
    `game_same_koppel`, `game_koppels_not_of_match` or `pairs_match_one_game`.
    """
    for violation in pairs_match_games_violations(home, away, games):
        raise violation


def sitting_koppels_violations(games: Sequence[tuple[int, K, K]]) -> Iterator[RuleViolation]:
    """Every koppel at more than one table in a sitting of a matchday.

    `games` are (sitting, koppel A, koppel B) of every game of one matchday, over all its
    matches, a new one last.

    Yields RuleViolation:
    - `game_same_koppel` (param index): a koppel playing itself;
    - `koppel_twice_in_sitting` (params koppel, sitting, index): a koppel met a second
      time in the sitting.

    `index` is the game's position in `games`.
    """
    seated: set[tuple[int, K]] = set()
    for index, (sitting, koppel_a, koppel_b) in enumerate(games):
        if koppel_a == koppel_b:
            yield RuleViolation("game_same_koppel", index=index)
        for koppel in dict.fromkeys((koppel_a, koppel_b)):
            if (sitting, koppel) in seated:
                yield RuleViolation(
                    "koppel_twice_in_sitting", koppel=koppel, sitting=sitting, index=index
                )
            seated.add((sitting, koppel))


def sitting_koppels_check(games: Sequence[tuple[int, K, K]]) -> None:
    """Refuse a matchday where a koppel would sit at two tables in one sitting.

    Arguments as `sitting_koppels_violations`. Raises its first RuleViolation:
    `game_same_koppel` or `koppel_twice_in_sitting`.
    """
    for violation in sitting_koppels_violations(games):
        raise violation


def game_players_violations(
    koppel_a: Collection[P], koppel_b: Collection[P], seats: Sequence[P | None] = ()
) -> Iterator[RuleViolation]:
    """Every way a game's players break "four players at one table".

    `koppel_a` and `koppel_b` are the players of the game's two koppels; `seats` its seats
    1–4 clockwise (player or None for an empty seat; empty: no seats recorded). A player
    sits at one place: the two koppels share no player, and no player has two seats.

    Yields RuleViolation:
    - `game_koppels_share_player` (param player): a player of both koppels;
    - `seat_player_twice` (params player, first_seat, seat: the two seat numbers, 1–4): a
      player in two seats.
    """
    for player in [player for player in koppel_a if player in koppel_b]:
        yield RuleViolation("game_koppels_share_player", player=player)
    first_seat: dict[P, int] = {}
    for number, seated in enumerate(seats, start=1):
        if seated is None:
            continue
        if seated in first_seat:
            yield RuleViolation(
                "seat_player_twice", player=seated, first_seat=first_seat[seated], seat=number
            )
        else:
            first_seat[seated] = number


def game_players_check(
    koppel_a: Collection[P], koppel_b: Collection[P], seats: Sequence[P | None] = ()
) -> None:
    """Refuse a game where a player would sit twice: in both koppels, or in two seats.

    Arguments as `game_players_violations`. Raises its first RuleViolation:
    `game_koppels_share_player` or `seat_player_twice`.
    """
    for violation in game_players_violations(koppel_a, koppel_b, seats):
        raise violation


E = TypeVar("E", bound=Hashable)


def koppel_club(clubs: Collection[E | None]) -> E | None:
    """The club a koppel plays for in a club match: the one club of its players (`clubs`:
    each player's club, None for none); None when they are of two clubs or of none (DESIGN.md
    "How the real game is organised": a club fields koppels of its own players)."""
    found = set(clubs)
    return found.pop() if len(found) == 1 else None


def game_seating_check(
    home: E,
    away: E,
    koppel_a: K,
    koppel_b: K,
    *,
    plays_for: tuple[E | None, E | None],
    players: tuple[Collection[P], Collection[P]],
    seats: Sequence[P | None] = (),
) -> bool:
    """Who may sit at a game of the match `home` v `away`; returns whether koppel A plays
    for `home`. The one check of the admin, the services and the importer.

    The game is two koppels, one for each entry of the match: `plays_for` are the entries
    koppel A and koppel B play for (a pairs koppel is its own entry; a club-match koppel
    plays for its players' club, `koppel_club`; None: for no entry). `players` are the two
    koppels' players; `seats` the seats 1–4 clockwise (None for an empty seat; empty: no
    seats recorded): all four or none, seats 1 and 3 koppel A's players and seats 2 and 4
    koppel B's (RULES.md "Terms"), four different players (`game_players_check`).

    Raises the first RuleViolation of:
    - `game_same_koppel`: koppel A is koppel B;
    - `koppel_not_in_match` (params koppel; side: "a" or "b"; plays_for: what it plays
      for): koppel A, else koppel B, plays for neither entry, or koppel B for the entry
      koppel A plays for;
    - `game_koppels_share_player`, `seat_player_twice` (`game_players_violations`);
    - `seats_incomplete`: some seats empty, not all;
    - `seats_do_not_fit` (param side: "a" or "b", the first koppel whose seats hold other
      players).
    """
    if koppel_a == koppel_b:
        raise RuleViolation("game_same_koppel")
    entry_a, entry_b = plays_for
    if (entry_a, entry_b) not in ((home, away), (away, home)):
        if entry_a in (home, away):
            raise RuleViolation("koppel_not_in_match", koppel=koppel_b, side="b", plays_for=entry_b)
        raise RuleViolation("koppel_not_in_match", koppel=koppel_a, side="a", plays_for=entry_a)
    game_players_check(players[0], players[1], seats)
    given = [seat for seat in seats if seat is not None]
    if given and len(given) != 4:
        raise RuleViolation("seats_incomplete")
    if given:
        if {given[0], given[2]} != set(players[0]):
            raise RuleViolation("seats_do_not_fit", side="a")
        if {given[1], given[3]} != set(players[1]):
            raise RuleViolation("seats_do_not_fit", side="b")
    return entry_a == home
