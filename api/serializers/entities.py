"""Clubs, players, koppels, competitions, seasons: what the public pages name."""

from __future__ import annotations

from rest_framework import serializers

from tournaments.models import Club


class ClubSerializer(serializers.ModelSerializer):
    """A club: `key` (stable, the federation's code) and `name`."""

    class Meta:
        model = Club
        fields = ["key", "name"]
