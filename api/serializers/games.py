"""Matchdays, fixtures (matches), games and rounds, as the public pages show them.

Never more than those pages: no table-link tokens, no director's notes, no who-entered-what
(`recorded_by`, `link`, `client_key`), no dispute texts. A game's `state` reads as its
public badge does (`templates/scoring/_status_badge.html`): a disputed game reads as
awaiting confirmation there (the hall display too), and so it does here.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.serializers.entities import EntrySerializer, KoppelRefSerializer
from scoring.forfeit_words import forfeit_reason_text
from scoring.models import Game
from scoring.selectors.results import MatchScore
from scoring.selectors.sheet import SheetRow
from scoring.services.games import game_seats_token
from scoring.tokens import game_token, match_token
from tournaments.models import Match, Matchday, Player, Team

GAME_STATES = ["not_started", "in_play", "awaiting_confirmation", "confirmed", "finished"]
MATCH_STATES = ["not_started", "in_play", "awaiting_confirmation", "finished", "voided"]
FORFEITS = ["home", "away", "both"]
SIDES = ["a", "b"]


def enum_schema(choices: list[str], *, nullable: bool = False) -> dict[str, Any]:
    """The OpenAPI schema of a string that is one of `choices` (null too when `nullable`),
    written in place: no shared enum component whose name could collide with another."""
    if nullable:
        return {"type": "string", "enum": [*choices, None], "nullable": True}
    return {"type": "string", "enum": choices}


def game_state(game: Game, *, has_rounds: bool = False) -> str:
    """A game's public state, as its badge reads (its competition joined):

    - ``not_started``: open at 0–0 without totals (and without rounds, where they are read);
    - ``in_play``: open;
    - ``awaiting_confirmation`` / ``confirmed``: over, where results count only once
      confirmed (a disputed game is still awaiting confirmation);
    - ``finished``: over (reached the end, or closed by the director).
    """
    if game.status == Game.Status.OPEN:
        if not (game.by_totals or game.score_a or game.score_b or has_rounds):
            return "not_started"
        return "in_play"
    if game.match.matchday.competition.confirmation_required:
        return "confirmed" if game.confirmed_at is not None else "awaiting_confirmation"
    return "finished"


def side_shown(result: str, side: str) -> str | None:
    """The side a round is about as the API shows it: null for a redeal, which scores for
    neither koppel (it is stored with side "a" only because the column is required)."""
    return None if result == "redeal" else side


def match_state(score: MatchScore) -> str:
    """A match's public state from its score (`competition_match_scores`): ``finished``
    once it counts (forfeited, reported totals, or every game over and confirmed where
    asked), ``awaiting_confirmation`` when only confirmations are missing, ``in_play``
    once a game has points, else ``not_started`` (no games yet, or all open at 0–0);
    ``voided`` once the director voided it (it counts nowhere, issue 22)."""
    if score.voided:
        return "voided"
    if score.finished:
        return "finished"
    if score.games == 0 or score.not_started:
        return "not_started"
    if score.open_games == 0 and score.awaiting:
        return "awaiting_confirmation"
    return "in_play"


class SidesSerializer(serializers.Serializer):
    """Two numbers, koppel A's and koppel B's (game points)."""

    a = serializers.IntegerField()
    b = serializers.IntegerField()


class HomeAwaySerializer(serializers.Serializer):
    """Two numbers, the home side's and the away side's (game points)."""

    home = serializers.IntegerField()
    away = serializers.IntegerField()


class MatchdaySerializer(serializers.ModelSerializer):
    """A matchday (speelronde): its `number`, `date` (null: none yet), why it was paired
    early (`override_reason`, Swiss; "" usually), its number of `matches` and the entries
    with a `bye` on it."""

    matches = serializers.IntegerField(source="match_count", read_only=True)
    byes = serializers.SerializerMethodField()

    class Meta:
        model = Matchday
        fields = ["number", "date", "override_reason", "matches", "byes"]

    @extend_schema_field(EntrySerializer(many=True))
    def get_byes(self, matchday: Matchday) -> Any:
        return EntrySerializer([bye.entry for bye in matchday.byes.all()], many=True).data


class FixtureSerializer(serializers.ModelSerializer):
    """A match (fixture) of a matchday: `id`, the `competition` (slug) and `matchday`
    (number), its `table` (the match's, else its first game's; null: none yet), the `home`
    and `away` entries, its `state`, the `score` once known (game points summed over its
    games, reported totals or the forfeit score; null while not started), how many games it
    has (`game_count`), the `forfeit` side (null: none) with its `forfeit_reason`,
    whether the score is `reported` (known only as totals), whether the director `voided`
    it (it counts nowhere) with its `void_reason`, and the match that replays it
    (`replayed_by`, an id; null: none). Needs `scores` (by match id) in the context."""

    competition = serializers.CharField(source="matchday.competition.slug", read_only=True)
    matchday = serializers.IntegerField(source="matchday.number", read_only=True)
    table = serializers.SerializerMethodField()
    home = EntrySerializer(read_only=True)
    away = EntrySerializer(read_only=True)
    state = serializers.SerializerMethodField()
    score = serializers.SerializerMethodField()
    game_count = serializers.SerializerMethodField()
    forfeit = serializers.SerializerMethodField()
    forfeit_reason = serializers.SerializerMethodField()
    reported = serializers.SerializerMethodField()
    voided = serializers.SerializerMethodField()
    replayed_by = serializers.IntegerField(source="replayed_by_id", read_only=True, allow_null=True)

    class Meta:
        model = Match
        fields = [
            "id",
            "competition",
            "matchday",
            "table",
            "home",
            "away",
            "state",
            "score",
            "game_count",
            "forfeit",
            "forfeit_reason",
            "reported",
            "voided",
            "void_reason",
            "replayed_by",
        ]
        read_only_fields = ["void_reason"]

    def _score(self, match: Match) -> MatchScore:
        score: MatchScore = self.context["scores"][match.pk]
        return score

    def get_table(self, match: Match) -> int | None:
        return getattr(match, "table_shown", match.table)

    @extend_schema_field(enum_schema(MATCH_STATES))
    def get_state(self, match: Match) -> str:
        return match_state(self._score(match))

    @extend_schema_field(HomeAwaySerializer(allow_null=True))
    def get_score(self, match: Match) -> dict[str, int] | None:
        score = self._score(match)
        if match_state(score) == "not_started" and not (score.home or score.away):
            return None
        return {"home": score.home, "away": score.away}

    def get_game_count(self, match: Match) -> int:
        return self._score(match).games

    @extend_schema_field(enum_schema(FORFEITS, nullable=True))
    def get_forfeit(self, match: Match) -> str | None:
        return match.forfeit or None

    def get_forfeit_reason(self, match: Match) -> str:
        return forfeit_reason_text(match.forfeit_reason) if match.forfeit else ""

    def get_reported(self, match: Match) -> bool:
        return self._score(match).reported

    def get_voided(self, match: Match) -> bool:
        return match.voided_at is not None


class GameSerializer(serializers.ModelSerializer):
    """A game in a list: `id`, where it was played (`competition` slug, `matchday` number,
    `date`, `match` id, `table`, `sitting`), `koppel_a` and `koppel_b`, whether koppel A
    plays for the home side, the `score` (game points, A and B), `status` (open, finished,
    closed by the director), its public `state`, whether it is known only by its totals
    (`by_totals`) and whether the director `voided` it (it counts nowhere; its match's
    total leaves it out) with its `void_reason`."""

    competition = serializers.CharField(source="match.matchday.competition.slug", read_only=True)
    matchday = serializers.IntegerField(source="match.matchday.number", read_only=True)
    date = serializers.DateField(source="match.matchday.date", read_only=True, allow_null=True)
    match = serializers.IntegerField(source="match_id", read_only=True)
    koppel_a = KoppelRefSerializer(source="team_a", read_only=True)
    koppel_b = KoppelRefSerializer(source="team_b", read_only=True)
    score = serializers.SerializerMethodField()
    state = serializers.SerializerMethodField()
    by_totals = serializers.BooleanField(read_only=True)
    voided = serializers.BooleanField(source="is_voided", read_only=True)

    class Meta:
        model = Game
        fields = [
            "id",
            "competition",
            "matchday",
            "date",
            "match",
            "table",
            "sitting",
            "koppel_a",
            "koppel_b",
            "a_is_home",
            "score",
            "status",
            "state",
            "by_totals",
            "voided",
            "void_reason",
        ]
        read_only_fields = ["void_reason"]

    @extend_schema_field(SidesSerializer)
    def get_score(self, game: Game) -> dict[str, int]:
        return {"a": game.score_a, "b": game.score_b}

    @extend_schema_field(enum_schema(GAME_STATES))
    def get_state(self, game: Game) -> str:
        return game_state(game)


class PlayerAtTableSerializer(serializers.ModelSerializer):
    """A player at a game's table: `id` (what the writes take: `caller`, `seat_1`,
    `seat_2`, `first_caller`), `key` and `name`."""

    class Meta:
        model = Player
        fields = ["id", "key", "name"]


class GameKoppelSerializer(serializers.Serializer):
    """A koppel of a game: `key`, `name` (as the pages show it) and its two `players`
    (player 1, player 2) with their ids, for the seats write before anyone is seated."""

    key = serializers.CharField()
    name = serializers.CharField(source="__str__")
    players = serializers.SerializerMethodField()

    @extend_schema_field(PlayerAtTableSerializer(many=True))
    def get_players(self, koppel: Team) -> Any:
        return PlayerAtTableSerializer([koppel.player_1, koppel.player_2], many=True).data


class RoundSerializer(serializers.Serializer):
    """One round (deal) of a game with the running score after it: its `id` (the
    `round_id` of a correction, the `round` of an undo), `number`, `result`
    (gewone_winst, kap, kap_partner, baunie, baunie_mislukt, kap_te_vroeg, redeal), `side`
    (the koppel the result is about, "a" or "b"; null for a redeal, which is about
    neither: the writes answer so too), the `caller` with their id (null: not recorded),
    the `tricks` of A and B (null: not counted), the game `points` it gave A and B, the
    `running` score after it, and its `version` (what a correction sends as its
    `version`)."""

    id = serializers.IntegerField(source="round.pk")
    number = serializers.IntegerField(source="round.number")
    result = serializers.CharField(source="round.result")
    side = serializers.SerializerMethodField()
    caller = serializers.SerializerMethodField()
    tricks = serializers.SerializerMethodField()
    points = serializers.SerializerMethodField()
    running = serializers.SerializerMethodField()
    version = serializers.CharField(
        source="round.token", help_text="This round's version: a correction sends it."
    )

    @extend_schema_field(enum_schema(SIDES, nullable=True))
    def get_side(self, row: SheetRow) -> str | None:
        return side_shown(row.round.result, row.round.side)

    @extend_schema_field(PlayerAtTableSerializer(allow_null=True))
    def get_caller(self, row: SheetRow) -> Any:
        caller = row.round.caller
        return None if caller is None else PlayerAtTableSerializer(caller).data

    @extend_schema_field(SidesSerializer(allow_null=True))
    def get_tricks(self, row: SheetRow) -> dict[str, int] | None:
        tricks = row.round.tricks
        return None if tricks is None else {"a": tricks[0], "b": tricks[1]}

    @extend_schema_field(SidesSerializer)
    def get_points(self, row: SheetRow) -> dict[str, int]:
        return {"a": row.round.points_a, "b": row.round.points_b}

    @extend_schema_field(SidesSerializer)
    def get_running(self, row: SheetRow) -> dict[str, int]:
        return {"a": row.running.a, "b": row.running.b}


class GameDetailSerializer(GameSerializer):
    """A game with its rounds: the fields of a game in a list (its koppels with their
    players' ids), its `seats` (the four players clockwise with their ids, seats 1 and 3
    koppel A; null when not set), the `first_caller`'s seat (1-4; null: unknown) and
    `first_caller_player`, the id of the player in that seat (what the seats write takes
    as `first_caller`; null: unknown), the `totals` entered instead of rounds (null:
    none), the `winner` ("a", "b"; null: none yet or a draw), its `rounds` with the
    running score, and its versions: `version` (what the game's writes send as their
    `version`: a round, an undo, totals, close, reopen, confirm, dispute) and
    `seats_version` (what the seats write sends). Needs `rows`
    (`scoring.selectors.sheet.game_sheet`, every round) in the context."""

    koppel_a = GameKoppelSerializer(source="team_a", read_only=True)
    koppel_b = GameKoppelSerializer(source="team_b", read_only=True)
    seats = serializers.SerializerMethodField()
    first_caller_player = serializers.SerializerMethodField()
    totals = serializers.SerializerMethodField()
    winner = serializers.SerializerMethodField()
    rounds = serializers.SerializerMethodField()
    version = serializers.SerializerMethodField()
    seats_version = serializers.SerializerMethodField()

    class Meta(GameSerializer.Meta):
        fields = [
            *GameSerializer.Meta.fields,
            "seats",
            "first_caller",
            "first_caller_player",
            "totals",
            "winner",
            "rounds",
            "version",
            "seats_version",
        ]

    def _rounds(self) -> list[Any]:
        # The rounds the sheet read already: the versions cost no query.
        return [row.round for row in self.context["rows"]]

    @extend_schema_field(enum_schema(GAME_STATES))
    def get_state(self, game: Game) -> str:
        return game_state(game, has_rounds=bool(self.context["rows"]))

    @extend_schema_field(PlayerAtTableSerializer(many=True, allow_null=True))
    def get_seats(self, game: Game) -> Any:
        if game.seat_1_id is None:
            return None
        seated = [game.seat_1, game.seat_2, game.seat_3, game.seat_4]
        return PlayerAtTableSerializer(seated, many=True).data

    @extend_schema_field({"type": "integer", "nullable": True})
    def get_first_caller_player(self, game: Game) -> int | None:
        if not game.first_caller or game.seat_1_id is None:
            return None
        player: int | None = game.seats[game.first_caller - 1]
        return player

    def get_version(self, game: Game) -> str:
        return game_token(game, self._rounds())

    def get_seats_version(self, game: Game) -> str:
        return game_seats_token(game, self._rounds())

    @extend_schema_field(SidesSerializer(allow_null=True))
    def get_totals(self, game: Game) -> dict[str, int] | None:
        if game.total_a is None or game.total_b is None:
            return None
        return {"a": game.total_a, "b": game.total_b}

    @extend_schema_field(enum_schema(SIDES, nullable=True))
    def get_winner(self, game: Game) -> str | None:
        winner = game.winner
        return None if winner is None else str(winner.value)

    @extend_schema_field(RoundSerializer(many=True))
    def get_rounds(self, game: Game) -> Any:
        return RoundSerializer(self.context["rows"], many=True).data


class MatchDetailSerializer(FixtureSerializer):
    """A match with its games (by sitting and table): the fields of a fixture, its `games`
    as a list of games and its `version` (what the match's writes send as their
    `version`: reported totals, forfeit). Needs `scores` and `game_rows` (all its games)
    in the context."""

    games = serializers.SerializerMethodField()
    version = serializers.SerializerMethodField()

    class Meta(FixtureSerializer.Meta):
        fields = [*FixtureSerializer.Meta.fields, "games", "version"]

    @extend_schema_field(GameSerializer(many=True))
    def get_games(self, match: Match) -> Any:
        return GameSerializer(self.context["game_rows"], many=True).data

    def get_version(self, match: Match) -> str:
        # The games read already: the version costs no query.
        return match_token(match, [game.pk for game in self.context["game_rows"]])
