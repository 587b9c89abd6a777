"""Clubs, players, koppels, competitions, seasons: what the public pages name.

Only what a public page shows: keys and names, a player's club, a koppel's players, a
competition's public settings (never its directors, nor its standings' bookkeeping).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tournaments.models import Club, Competition, Entry, Player, Team

# What an entry is: a koppel (a pairs competition) or a club (a club competition).
ENTRY_KINDS = ["koppel", "club"]


class ClubSerializer(serializers.ModelSerializer):
    """A club: `key` (stable, the federation's code) and `name`."""

    class Meta:
        model = Club
        fields = ["key", "name"]


class PlayerRefSerializer(serializers.ModelSerializer):
    """A player as other answers name it: `key` and `name`."""

    class Meta:
        model = Player
        fields = ["key", "name"]


class PlayerSerializer(serializers.ModelSerializer):
    """A player: `key` (stable, e.g. a licence number), `name`, and the `club` they play
    for now (null: none). Games keep the club of their time (see a player's games)."""

    club = ClubSerializer(allow_null=True, read_only=True)

    class Meta:
        model = Player
        fields = ["key", "name", "club"]


class KoppelSerializer(serializers.ModelSerializer):
    """A koppel: `key`, `name` as the pages show it (its own name, else "A & B" of its
    players' names), `own_name` (its own name; "" when it has none) and its two `players`
    (player 1, player 2)."""

    name = serializers.SerializerMethodField()
    own_name = serializers.CharField(source="name", read_only=True)
    players = serializers.SerializerMethodField()

    class Meta:
        model = Team
        fields = ["key", "name", "own_name", "players"]

    def get_name(self, koppel: Team) -> str:
        return str(koppel)

    @extend_schema_field(PlayerRefSerializer(many=True))
    def get_players(self, koppel: Team) -> list[dict[str, Any]]:
        return PlayerRefSerializer([koppel.player_1, koppel.player_2], many=True).data


class KoppelRefSerializer(serializers.Serializer):
    """A koppel as a game names it: `key` and `name` (as the pages show it)."""

    key = serializers.CharField()
    name = serializers.CharField(source="__str__")


class EntrySerializer(serializers.Serializer):
    """An entry of a competition: `kind` ("koppel" in a pairs competition, "club" in a club
    competition), the koppel's or club's `key` and `name` as the pages show it."""

    kind = serializers.SerializerMethodField()
    key = serializers.CharField()
    name = serializers.CharField(source="__str__")

    @extend_schema_field({"type": "string", "enum": ENTRY_KINDS})
    def get_kind(self, entry: Entry) -> str:
        return "koppel" if entry.team_id is not None else "club"


class CompetitionSerializer(serializers.ModelSerializer):
    """A competition: `slug`, `name`, `season` ("" when none), `kind` (pairs / clubs), how
    it is paired (`schedule_format`), when a game ends (`target_score`, `fixed_rounds`; null:
    off), whether results count only once confirmed, its tie-breaks in order and its number
    of `entries` (as the list of competitions shows)."""

    tiebreaks = serializers.ListField(child=serializers.CharField(), read_only=True)
    entries = serializers.IntegerField(source="entry_count", read_only=True)

    class Meta:
        model = Competition
        fields = [
            "slug",
            "name",
            "season",
            "kind",
            "schedule_format",
            "target_score",
            "fixed_rounds",
            "confirmation_required",
            "tiebreaks",
            "entries",
        ]


class CompetitionRefSerializer(serializers.ModelSerializer):
    """A competition as a season lists it: `slug`, `name` and `kind`."""

    class Meta:
        model = Competition
        fields = ["slug", "name", "kind"]


class SeasonSerializer(serializers.Serializer):
    """A season (as competitions write it, e.g. 2026-2027) and how many competitions it
    has."""

    name = serializers.CharField()
    competitions = serializers.IntegerField()


class SeasonDetailSerializer(serializers.Serializer):
    """A season: its `name`, `best_evenings` (the best-N-of-M setting of its rankings; null:
    none) and its `competitions`, latest first by name."""

    name = serializers.CharField()
    best_evenings = serializers.IntegerField(allow_null=True)
    competitions = CompetitionRefSerializer(many=True)
