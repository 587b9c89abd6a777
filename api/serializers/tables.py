"""The ranked tables as the API gives them: standings, season rankings, ratings.

Every column a page shows is here, as a number (not as the page formats it: a negative
saldo is -12, a best-N average a number, not "12,3"); the page's own choice of columns
(`columns`: the tie-break columns, byes and deductions only when they apply) comes along,
so a site can show what the page shows. Each table says when it was computed (`as_of`)
and whether it is behind (`stale`), as its page does.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from rankings.models import PlayerRating, SeasonRankingLine
from scoring.models import Standing
from scoring.rules.seasons import SeasonBy
from scoring.tables import StandingTable
from tournaments.models import Competition, Entry

# -------------------------------------------------------------------- query parameters

# The standings page's sortable columns (`scoring.tables.StandingTable`), by their names.
STANDING_SORTS: tuple[str, ...] = tuple(StandingTable._meta.fields)
# The season page's sortable columns (`rankings.tables.SeasonTable`).
SEASON_SORTS = (
    "rank",
    "name",
    "best",
    "games",
    "wins",
    "draws",
    "losses",
    "points_for",
    "points_against",
    "saldo",
    "kaps",
    "baunies",
    "failed_baunies",
    "early_kaps",
    "won_as_caller",
    "won_not_caller",
)
# The rating list's sortable columns (`rankings.tables.RatingTable`).
RATING_SORTS = ("rank", "player", "club", "rating", "mu", "sigma", "games")


def _sorts(columns: tuple[str, ...]) -> list[str]:
    return [spelled for column in columns for spelled in (column, f"-{column}")]


class StandingsQuery(serializers.Serializer):
    """The standings page's parameters: `q` (its find box), `ordering` (its column sort)."""

    q = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=100,
        help_text="Only the rows whose koppel (name or key), player or club name contains this.",
    )
    ordering = serializers.ChoiceField(
        choices=_sorts(STANDING_SORTS),
        required=False,
        help_text="Sort by a column (`-` first: descending); rows tied on it keep the "
        "table's order. Default: the table's order (rank).",
    )


class SeasonQuery(serializers.Serializer):
    """The season page's parameters: `by`, `kind`, `club`, and its column sort; and `q`,
    a find box the page has not (a player finding their own line)."""

    by = serializers.ChoiceField(
        choices=[by.value for by in SeasonBy],
        default=SeasonBy.PLAYER.value,
        help_text="Rank players, koppels or clubs.",
    )
    kind = serializers.ChoiceField(
        choices=["", *Competition.Kind.values],
        default="",
        allow_blank=True,
        help_text="Only competitions of this kind (empty: both).",
    )
    club = serializers.SlugField(
        required=False,
        allow_blank=True,
        max_length=64,
        help_text="Only the games played for this club (its key); one of `clubs`.",
    )
    q = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=100,
        help_text="Only the lines whose name or key contains this (any case and accents); "
        "their ranks stay the ranking's.",
    )
    ordering = serializers.ChoiceField(
        choices=_sorts(SEASON_SORTS),
        required=False,
        help_text="Sort by a column (`-` first: descending); lines tied on it keep the "
        "ranking's order. Default: the ranking's order.",
    )


class RatingQuery(serializers.Serializer):
    """The rating page's parameters: `club`, its column sort, and a higher threshold."""

    club = serializers.SlugField(
        required=False,
        allow_blank=True,
        max_length=64,
        help_text="Only the players of this club now (its key); one of `clubs`.",
    )
    min_games = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=100_000,
        help_text="Only players with at least this many rated games; never fewer than the "
        "site's threshold (`min_games` of the answer).",
    )
    ordering = serializers.ChoiceField(
        choices=_sorts(RATING_SORTS),
        required=False,
        help_text="Sort by a column (`-` first: descending); rows tied on it keep the "
        "list's order (rating, name). Default: best rating first.",
    )


# -------------------------------------------------------------------- pieces


class TableErrorSerializer(serializers.Serializer):
    """A refusal of a table's read (`api.errors`): its stable `code` and `message` in the
    reader's language; `fields` for a bad parameter; for `ranking_changed` (409) the
    table's `current` version and the link to its `first` page."""

    code = serializers.CharField()
    message = serializers.CharField()
    fields = serializers.DictField(required=False, help_text="The bad parameters' errors.")
    current = serializers.DictField(required=False, help_text="409: the table's version now.")
    first = serializers.URLField(required=False, help_text="409: the table's first page now.")


class NamedSerializer(serializers.Serializer):
    """A player, koppel or club as the tables name it: its stable `key` and its `name`."""

    key = serializers.CharField()
    name = serializers.CharField()


class EntrySerializer(serializers.Serializer):
    """A koppel or a club taking part: `kind` ("koppel" or "club"), `key`, `name` as the
    page shows it (a koppel without a name: its players'), and a koppel's `players`."""

    kind = serializers.ChoiceField(choices=["koppel", "club"])
    key = serializers.CharField()
    name = serializers.CharField()
    players = NamedSerializer(many=True, help_text="A koppel's two players; [] for a club.")

    class Meta:
        # The lists' "Entry" (api.serializers.entities) names no players.
        ref_name = "EntryWithPlayers"


def entry_data(entry: Entry | None) -> dict[str, Any] | None:
    """`EntrySerializer` data of `entry` (its team's players and its club joined)."""
    if entry is None:
        return None
    team = entry.team
    if team is None:
        club = entry.club
        assert club is not None
        return {"kind": "club", "key": club.key, "name": club.name, "players": []}
    players = [
        {"key": player.key, "name": player.name} for player in (team.player_1, team.player_2)
    ]
    return {"kind": "koppel", "key": team.key, "name": str(team), "players": players}


class AdjustmentMatchSerializer(serializers.Serializer):
    """The match an adjustment is about."""

    id = serializers.IntegerField()
    matchday = serializers.IntegerField(help_text="The matchday's number.")
    home = EntrySerializer()
    away = EntrySerializer()


class AdjustmentSerializer(serializers.Serializer):
    """A walk-over (forfeit) or a deduction listed under the standings: `kind`, the entry
    it is about (null if it is gone), `points` deducted (0 for a forfeit), `reason` in the
    reader's language (a lineup's), as typed otherwise, and its match (null: none)."""

    kind = serializers.ChoiceField(choices=["forfeit", "deduction"])
    entry = EntrySerializer(allow_null=True)
    points = serializers.IntegerField()
    reason = serializers.CharField(allow_blank=True)
    match = AdjustmentMatchSerializer(allow_null=True)


class TableStatus(serializers.Serializer):
    """What every ranked table says of itself."""

    as_of = serializers.DateTimeField(
        allow_null=True, help_text="When the table was computed (null: never yet)."
    )
    stale = serializers.BooleanField(
        help_text="A result saved since may not be in this table yet (the page's “being "
        "updated” note); it catches up within a minute."
    )
    version = serializers.CharField(
        help_text="Changes whenever the table is recomputed: the paging cursor carries it."
    )
    next = serializers.URLField(allow_null=True, help_text="The next page (null: last).")
    previous = serializers.URLField(allow_null=True, help_text="The page before (null: first).")


# -------------------------------------------------------------------- standings


class StandingSerializer(serializers.ModelSerializer):
    """One row of the standings: every column of `Standing` (DESIGN.md, `manage.py
    standings` columns, and the tie-break columns), `head_to_head` null when it decided
    nothing."""

    entry = serializers.SerializerMethodField()

    class Meta:
        model = Standing
        fields = [*STANDING_SORTS, "computed_at"]

    @extend_schema_field(EntrySerializer)
    def get_entry(self, row: Standing) -> dict[str, Any] | None:
        return entry_data(row.entry)


class StandingsSerializer(TableStatus):
    """A competition's standings, a page of rows at a time, with what the page says
    around them."""

    competition = serializers.SlugField()
    stale_since = serializers.DateTimeField(
        allow_null=True, help_text="Since when the table owes a refresh (null: it doesn't)."
    )
    tiebreaks = serializers.ListField(
        child=serializers.CharField(), help_text="The tie-break keys, in the order applied."
    )
    columns = serializers.ListField(
        child=serializers.CharField(),
        help_text="The columns the standings page shows, in its order.",
    )
    open_games = serializers.IntegerField(help_text="Games still open.")
    awaiting = serializers.IntegerField(
        help_text="Games over and awaiting confirmation (0 where results need none)."
    )
    adjustments = AdjustmentSerializer(many=True)
    results = StandingSerializer(many=True)


# -------------------------------------------------------------------- season rankings


class SeasonLineSerializer(serializers.ModelSerializer):
    """One line of a season ranking: every column of the season page (`SeasonTable`);
    `best_points` and `best_average` (`best_points` / `best_evenings`) null without a
    best-N setting."""

    best_average = serializers.SerializerMethodField()

    class Meta:
        model = SeasonRankingLine
        fields = [
            "rank",
            "position",
            "key",
            "name",
            "games",
            "wins",
            "draws",
            "losses",
            "points_for",
            "points_against",
            "saldo",
            "kaps",
            "baunies",
            "failed_baunies",
            "early_kaps",
            "won_as_caller",
            "won_not_caller",
            "best_points",
            "best_average",
        ]

    @extend_schema_field(serializers.FloatField(allow_null=True))
    def get_best_average(self, line: SeasonRankingLine) -> float | None:
        best = self.context.get("best_evenings")
        if line.best_points is None or not best:
            return None
        return line.best_points / best


class SeasonRankingSerializer(TableStatus):
    """A season's ranking as its page chooses it, a page of lines at a time."""

    season = serializers.CharField()
    by = serializers.ChoiceField(choices=[by.value for by in SeasonBy])
    kind = serializers.CharField(allow_blank=True)
    club = NamedSerializer(allow_null=True)
    clubs = NamedSerializer(many=True, help_text="The clubs that played in the season.")
    best_evenings = serializers.IntegerField(
        allow_null=True, help_text="The season's best-N setting (null: none)."
    )
    evenings = serializers.IntegerField(help_text="Evenings (M) in the season so far.")
    games = serializers.IntegerField(help_text="Games counted.")
    results = SeasonLineSerializer(many=True)


# -------------------------------------------------------------------- ratings


class RatingSerializer(serializers.ModelSerializer):
    """One player's rating: `rank` (shared by equal ratings), the player, their club now
    (null: none), `rating` (mu − 3·sigma, what the list ranks by), `mu`, `sigma`, and the
    rated `games`."""

    rank = serializers.IntegerField()
    player = serializers.SerializerMethodField()
    club = serializers.SerializerMethodField()
    rating = serializers.FloatField(source="ordinal")

    class Meta:
        model = PlayerRating
        fields = ["rank", "player", "club", "rating", "mu", "sigma", "games"]

    @extend_schema_field(NamedSerializer)
    def get_player(self, rating: PlayerRating) -> dict[str, str]:
        return {"key": rating.player.key, "name": rating.player.name}

    @extend_schema_field(NamedSerializer(allow_null=True))
    def get_club(self, rating: PlayerRating) -> dict[str, str] | None:
        club = rating.player.club
        return None if club is None else {"key": club.key, "name": club.name}


class RatingListSerializer(TableStatus):
    """The rating list, a page at a time."""

    min_games = serializers.IntegerField(help_text="Rated games a player needs to be listed.")
    below = serializers.IntegerField(help_text="Players left out: fewer rated games.")
    club = NamedSerializer(allow_null=True)
    clubs = NamedSerializer(many=True, help_text="The clubs of listed players.")
    results = RatingSerializer(many=True)
