"""What the API's writes take and answer: one request serializer a write, the state it
answers with (with its new `version`), and the error shapes of `api.errors`.

The request serializers check the types and ranges (400, DRF's codes); what the page's form
checks beyond that (both tricks or none, the koppel a result is about) is checked by that
same form (`api.views.writes_common.form_checked`), so no door accepts what another refuses.
`version` is the token the page's form carries hidden as `seen` (`scoring.tokens`).
"""

from __future__ import annotations

from rest_framework import serializers

from scoring.forms.sheet import MAX_TOTAL, MAX_TRICKS
from scoring.models import Game, GameDispute
from scoring.services.table import DISPUTE_COMMENT_MAX_LENGTH
from scoring.tokens import TOKEN_MAX_LENGTH
from tournaments.models import Match
from troefclub.rule_messages import RESULT_LABELS

RESULTS = list(RESULT_LABELS)
SIDES = ["a", "b"]
ID_MAX = 2**31 - 1


def _version(what: str, *, blank: bool = False) -> serializers.CharField:
    """The `version` field. Not blank (the form refuses a blank one as `seen_missing`, and
    the schema says so), but for a round: a queue replaying a round on a game that
    changed sends "" on purpose, refused as changed (409)."""
    return serializers.CharField(
        max_length=TOKEN_MAX_LENGTH,
        allow_blank=blank,
        trim_whitespace=False,
        help_text=f"The version of {what} this write was built on (from its last answer).",
    )


def _id(help_text: str) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=1, max_value=ID_MAX, help_text=help_text)


# ---------------------------------------------------------------- requests


class RoundFieldsSerializer(serializers.Serializer):
    """What a round says: its result, the koppel it is about, the caller, the tricks."""

    result = serializers.ChoiceField(choices=RESULTS, help_text="The round result (RULES.md).")
    side = serializers.ChoiceField(
        choices=SIDES,
        required=False,
        allow_null=True,
        help_text="The koppel the result is about: a or b (none for a redeal).",
    )
    caller = serializers.IntegerField(
        min_value=1,
        max_value=ID_MAX,
        required=False,
        allow_null=True,
        help_text="The player id of the caller (one of the four seated players), if recorded.",
    )
    tricks_a = serializers.IntegerField(
        min_value=0, max_value=MAX_TRICKS, required=False, allow_null=True
    )
    tricks_b = serializers.IntegerField(
        min_value=0, max_value=MAX_TRICKS, required=False, allow_null=True
    )


class RoundRecordSerializer(RoundFieldsSerializer):
    """The next round of a game. `number` is the round it adds (the rounds stored plus
    those sent before it); `version` the game's version it was built on. A table link
    records no tricks (its phone page has none)."""

    number = serializers.IntegerField(min_value=1, max_value=32767)
    version = _version("the game", blank=True)


class RoundCorrectSerializer(RoundFieldsSerializer):
    """A stored round as it should have been; `version` is the round's own version."""

    version = _version("the round")


class RoundUndoSerializer(serializers.Serializer):
    """Undo the last round: `round`, the id of the round seen as the last one."""

    round = _id("The id of the last round, as the sender saw it.")
    version = _version("the game")


class VersionSerializer(serializers.Serializer):
    """A write without fields (close, reopen, confirm): the version it was built on."""

    version = _version("the game")


class GameTotalsSerializer(serializers.Serializer):
    """A game known only by its final totals (a paper sheet)."""

    total_a = serializers.IntegerField(min_value=0, max_value=MAX_TOTAL)
    total_b = serializers.IntegerField(min_value=0, max_value=MAX_TOTAL)
    version = _version("the game")


class SeatsSerializer(serializers.Serializer):
    """Who sits where before round 1: seat 1 of koppel A (the partner in seat 3), seat 2 of
    koppel B (the partner in seat 4), and who calls round 1 (a player id, or null while
    not known). `version` is the game's `seats_version`."""

    seat_1 = _id("A player id of koppel A.")
    seat_2 = _id("A player id of koppel B.")
    first_caller = serializers.IntegerField(
        min_value=1, max_value=ID_MAX, required=False, allow_null=True
    )
    version = _version("the seating (`seats_version`)")


class DisputeSerializer(serializers.Serializer):
    """The other koppel disagrees with the result, saying why."""

    # Refused blank here and by the phone page's form, whose words (and code) answer.
    comment = serializers.CharField(max_length=DISPUTE_COMMENT_MAX_LENGTH, trim_whitespace=False)
    version = _version("the game")


class DisputeResolveSerializer(serializers.Serializer):
    """The director's decision on the game's open dispute."""

    resolution = serializers.ChoiceField(choices=GameDispute.Resolution.values)
    version = _version("the game")


class MatchTotalsSerializer(serializers.Serializer):
    """A match known only as reported totals (a newspaper result)."""

    total_home = serializers.IntegerField(min_value=0, max_value=MAX_TOTAL)
    total_away = serializers.IntegerField(min_value=0, max_value=MAX_TOTAL)
    version = _version("the match")


class ForfeitSerializer(serializers.Serializer):
    """A forfeit (walk-over): the side that forfeits (home, away, both) and why; ""
    lifts it."""

    forfeit = serializers.ChoiceField(choices=Match.Forfeit.values, allow_blank=True)
    reason = serializers.CharField(
        max_length=200, required=False, allow_blank=True, trim_whitespace=False
    )
    version = _version("the match")


class MatchdayPairSerializer(serializers.Serializer):
    """Pair the next matchday of a Swiss tournament. `number` is the matchday to pair (the
    schedule's version: a second send finds it paired), `override_reason` why to pair
    while the previous matchday is unfinished."""

    number = serializers.IntegerField(min_value=1, max_value=32767)
    date = serializers.DateField(required=False, allow_null=True)
    override_reason = serializers.CharField(
        max_length=200, required=False, allow_blank=True, trim_whitespace=False
    )


# ---------------------------------------------------------------- answers


class RoundStateSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    result = serializers.ChoiceField(choices=RESULTS)
    side = serializers.ChoiceField(
        choices=SIDES,
        allow_null=True,
        help_text="The koppel the result is about; null for a redeal (as the game's read).",
    )
    caller = serializers.IntegerField(allow_null=True)
    tricks_a = serializers.IntegerField(allow_null=True)
    tricks_b = serializers.IntegerField(allow_null=True)
    points_a = serializers.IntegerField()
    points_b = serializers.IntegerField()
    version = serializers.CharField(help_text="This round's version (for a correction).")


class DisputeStateSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    side = serializers.ChoiceField(choices=SIDES, help_text="The koppel that disputes.")
    comment = serializers.CharField()


class GameStateSerializer(serializers.Serializer):
    """A game after a write: its result, rounds, seats and open dispute, and its versions."""

    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Game.Status.choices)
    by_totals = serializers.BooleanField()
    score_a = serializers.IntegerField()
    score_b = serializers.IntegerField()
    total_a = serializers.IntegerField(allow_null=True)
    total_b = serializers.IntegerField(allow_null=True)
    confirmed = serializers.BooleanField()
    seats = serializers.ListField(
        child=serializers.IntegerField(allow_null=True),
        min_length=4,
        max_length=4,
        help_text="Player ids in seats 1–4, clockwise (null: not seated).",
    )
    first_caller = serializers.IntegerField(
        allow_null=True, help_text="The seat (1–4) that calls round 1."
    )
    first_caller_player = serializers.IntegerField(
        allow_null=True,
        help_text="The player id in that seat (what the seats write takes as `first_caller`).",
    )
    rounds = RoundStateSerializer(many=True)
    dispute = DisputeStateSerializer(allow_null=True)
    version = serializers.CharField(help_text="The game's version, for its next write.")
    seats_version = serializers.CharField(help_text="The version the seats write takes.")


class RoundRecordedSerializer(GameStateSerializer):
    """The game after a round was recorded: `round` is that round; `already` says it was
    stored by an earlier request with the same Idempotency-Key (nothing stored twice)."""

    round = RoundStateSerializer()
    already = serializers.BooleanField()


class MatchStateSerializer(serializers.Serializer):
    """A match after a write: reported totals, forfeit, its games, and its version."""

    id = serializers.IntegerField()
    total_home = serializers.IntegerField(allow_null=True)
    total_away = serializers.IntegerField(allow_null=True)
    forfeit = serializers.ChoiceField(choices=Match.Forfeit.values, allow_blank=True)
    forfeit_reason = serializers.CharField(allow_blank=True)
    games = serializers.ListField(child=serializers.IntegerField())
    version = serializers.CharField(help_text="The match's version, for its next write.")


class PairingSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    home = serializers.IntegerField(help_text="The home entry's id.")
    away = serializers.IntegerField(help_text="The away entry's id.")
    table = serializers.IntegerField(allow_null=True)


class ScheduleStateSerializer(serializers.Serializer):
    """A Swiss tournament's schedule for its director: the next matchday to pair (the
    version of a pairing) and the matchday paired last, with its matches and bye."""

    competition = serializers.CharField(help_text="The competition's slug.")
    next_number = serializers.IntegerField(help_text="The matchday a pairing makes next.")
    matchday = serializers.IntegerField(allow_null=True, help_text="The last matchday's number.")
    matches = PairingSerializer(many=True)
    byes = serializers.ListField(child=serializers.IntegerField(), help_text="Entry ids.")
    version = serializers.CharField(help_text="The last matchday's pairings version.")


# ---------------------------------------------------------------- errors


class GameConflictSerializer(serializers.Serializer):
    """409: the game changed since the version sent; `current` is the game now."""

    code = serializers.CharField()
    message = serializers.CharField()
    current = GameStateSerializer()


class MatchConflictSerializer(serializers.Serializer):
    """409: the match changed since the version sent; `current` is the match now."""

    code = serializers.CharField()
    message = serializers.CharField()
    current = MatchStateSerializer()


class ScheduleConflictSerializer(serializers.Serializer):
    """409: another matchday was paired meanwhile; `current` is the schedule now."""

    code = serializers.CharField()
    message = serializers.CharField()
    current = ScheduleStateSerializer()
