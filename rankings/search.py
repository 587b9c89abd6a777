"""The site search (issue 10): players, koppels, clubs and competitions whose names contain
the words typed in the navbar's search box.

Each group is one query whatever the number of rows: the first `limit` matches, each row
carrying the count of all matches (a window count), so the page can say "10 of 37".
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from django.db.models import Case, Count, IntegerField, Model, Q, QuerySet, Value, When, Window
from django.db.models.expressions import OrderBy

from tournaments.models import Club, Competition, Player, Team
from tournaments.selectors import koppel_players_q
from troefclub.fields import nfc
from troefclub.ordering import blank_last

# Longer input is cut: no name is this long, and a 10,000-character query must not reach
# the database as a 10,000-character LIKE pattern.
QUERY_MAX_LENGTH = 100
# Shorter (after cleaning) searches nothing: one letter matches half the players.
QUERY_MIN_LENGTH = 2
# Rows shown per group; the count says how many more there are.
GROUP_LIMIT = 10

M = TypeVar("M", bound=Model)


def search_words(raw: str) -> str:
    """`raw` as the search uses it: control and format characters (NUL, RTL marks,
    zero-width spaces) and lone surrogates removed, as NFC (how names are stored), spaces
    squeezed, cut to `QUERY_MAX_LENGTH` characters. Never raises."""
    cleaned = "".join(
        char
        for char in raw[: QUERY_MAX_LENGTH * 4]
        if unicodedata.category(char) not in {"Cc", "Cf", "Cs"}
    )
    return " ".join(nfc(cleaned).split())[:QUERY_MAX_LENGTH].strip()


@dataclass(frozen=True, slots=True)
class SearchGroup(Generic[M]):
    """One kind of result: the first rows (at most the limit) and how many match in all."""

    rows: list[M] = field(default_factory=list)
    total: int = 0

    @property
    def more(self) -> int:
        """Matches not shown."""
        return self.total - len(self.rows)


@dataclass(frozen=True, slots=True)
class SearchResults:
    """What a search found. `words` is the cleaned query; `searched` is False when it was
    too short to search (then every group is empty and no query was made)."""

    words: str
    searched: bool
    players: SearchGroup[Player]
    koppels: SearchGroup[Team]
    clubs: SearchGroup[Club]
    competitions: SearchGroup[Competition]

    @property
    def total(self) -> int:
        return self.players.total + self.koppels.total + self.clubs.total + self.competitions.total


def _group(
    rows: QuerySet[M], *, starts: Q, order: tuple[str | OrderBy, ...], limit: int
) -> SearchGroup[M]:
    """The first `limit` of `rows`, those matching `starts` (a name beginning with the
    words) first, then by `order`; with the count of all `rows`, in one query."""
    found = list(
        rows.annotate(
            total=Window(Count("pk")),
            starts_first=Case(
                When(starts, then=Value(0)), default=Value(1), output_field=IntegerField()
            ),
        ).order_by("starts_first", *order)[:limit]
    )
    return SearchGroup(rows=found, total=found[0].total if found else 0)


def site_search(*, text: str, limit: int = GROUP_LIMIT) -> SearchResults:
    """Players (name or key), koppels (name, key, either player's name, or both players'
    names as "A & B", "A en B" or "A and B", either order, each in part), clubs (name or
    key) and competitions (name, slug or season) containing `text`, any case and accents
    ("gerard eluard" finds "Gérard Éluard", "Kolibrië" "Kolibrie": `troefclub.text.Fold`,
    in the database). `text` is cleaned first (`search_words`); shorter
    than `QUERY_MIN_LENGTH` searches nothing. Four queries otherwise, whatever the data's
    size; each group at most `limit` rows, names starting with the words first."""
    words = search_words(text)
    if len(words) < QUERY_MIN_LENGTH:
        return SearchResults(
            words=words,
            searched=False,
            players=SearchGroup(),
            koppels=SearchGroup(),
            clubs=SearchGroup(),
            competitions=SearchGroup(),
        )
    players = _group(
        Player.objects.filter(
            Q(name__fold__contains=words) | Q(key__fold__contains=words)
        ).select_related("club"),
        starts=Q(name__fold__startswith=words),
        order=("name", "pk"),
        limit=limit,
    )
    koppel_found = (
        Q(name__fold__contains=words)
        | Q(key__fold__contains=words)
        | Q(player_1__name__fold__contains=words)
        | Q(player_2__name__fold__contains=words)
    )
    koppel_starts = (
        Q(name__fold__startswith=words)
        | Q(player_1__name__fold__startswith=words)
        | Q(player_2__name__fold__startswith=words)
    )
    # "A & B" (how a koppel is shown), "A en B": the koppel of those two players, either
    # order, each name in part; listed first.
    by_players = koppel_players_q(words, lookup="fold__contains")
    if by_players is not None:
        koppel_found |= by_players
        koppel_starts |= by_players
    koppels = _group(
        Team.objects.filter(koppel_found).select_related("player_1", "player_2"),
        starts=koppel_starts,
        order=(blank_last("name"), "player_1__name", "pk"),  # koppels without a name last
        limit=limit,
    )
    clubs = _group(
        Club.objects.filter(Q(name__fold__contains=words) | Q(key__fold__contains=words)),
        starts=Q(name__fold__startswith=words),
        order=("name", "pk"),
        limit=limit,
    )
    competitions = _group(
        Competition.objects.filter(
            Q(name__fold__contains=words)
            | Q(slug__fold__contains=words)
            | Q(season__fold__contains=words)
        ),
        starts=Q(name__fold__startswith=words),
        order=("-season", "name", "pk"),
        limit=limit,
    )
    return SearchResults(
        words=words,
        searched=True,
        players=players,
        koppels=koppels,
        clubs=clubs,
        competitions=competitions,
    )
