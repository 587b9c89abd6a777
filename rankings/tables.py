"""django-tables2 tables of the season rankings and the rating list (issue 10).

Like the standings (`scoring.tables.StandingTable`), each table's cells are worked out
once per column, not per cell (`body`): django-tables2's own cell rendering costs about
3 ms a row, and a season ranks hundreds of players. Short headers keep a table readable on
a phone; the full words are in each header's `title`.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import django_tables2 as tables
from django.db.models import QuerySet
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from rankings.formats import decimal
from rankings.models import PlayerRating, SeasonRankingLine
from scoring.rules.seasons import SeasonBy
from troefclub.bidi import isolated
from troefclub.tables import BodyTable, signed

# Rows a page: a phone scrolls 50 short rows easily (as the standings).
ROWS_PER_PAGE = 50
# The page of each kind of name (`rankings.urls`).
DETAIL_URL = {
    SeasonBy.PLAYER: "player_detail",
    SeasonBy.KOPPEL: "koppel_detail",
    SeasonBy.CLUB: "club_detail",
}


def headed(
    header: Any, title: Any, *, attrs: dict[str, dict[str, Any]] | None = None, **kwargs: Any
) -> tables.Column:
    """A column headed `header`, with `title` as the header's tooltip; `attrs` add to
    the header's and the cells' attributes."""
    attrs = attrs or {}
    head = {"title": title, **attrs.get("th", {})}
    return tables.Column(verbose_name=header, attrs={**attrs, "th": head}, **kwargs)


def average(value: Fraction | None) -> str:
    """A best-N average as shown: one decimal in the page's language ("12.3", Dutch
    "12,3"); "—" for none. Only the display rounds: the ranking compared the exact
    fractions."""
    return decimal(value, 1)


def linked(name: str, *, url: str, key: str) -> SafeString:
    """`name` linked to its page, isolated (`<bdi>`, `troefclub.bidi`): a name can't turn
    the row around."""
    return format_html('<a href="{}">{}</a>', reverse(url, kwargs={"key": key}), isolated(name))


class SeasonTable(BodyTable):
    """A stored season ranking (`SeasonRankingLine`s, issue 20), in its own order unless
    the reader sorts a column (lines tied on it keep the ranking's order); the rank stays
    the ranking's. `best` (the best-N average) only when the season has a best-N setting,
    after the name."""

    rank = headed("#", _("Rank"))
    name = tables.Column(
        verbose_name=_("Name"), order_by=("sort_name",), attrs={"td": {"class": "season-name"}}
    )
    games = headed(_("G"), _("Games"))
    wins = headed(_("W"), _("Won"))
    draws = headed(_("D"), _("Drawn"))
    losses = headed(_("L"), _("Lost"))
    points_for = headed(_("For"), _("Game points for"))
    points_against = headed(_("Ag."), _("Game points against"))
    saldo = headed(_("+/−"), _("Saldo"))
    kaps = headed(_("Kaps"), _("Kaps"))
    baunies = headed(_("Baun."), _("Baunies"))
    failed_baunies = headed(_("F.b."), _("Failed baunies"))
    early_kaps = headed(_("E.k."), _("Early kaps (kap too early)"))
    won_as_caller = headed(_("Call"), _("Rounds won as caller"))
    won_not_caller = headed(_("Def."), _("Rounds won not as caller"))

    class Meta:
        attrs = {"class": "table table-sm table-striped table-hover align-middle season-ranking"}
        orderable = True
        empty_text = _("No games counted for this choice.")
        template_name = "rankings/_season_table.html"
        per_page = ROWS_PER_PAGE

    # Sorted by a column, ties keep the ranking's own order.
    tie_order = ("position",)

    def __init__(
        self,
        data: QuerySet[SeasonRankingLine],
        *,
        by: SeasonBy,
        best_evenings: int | None,
        **kwargs: Any,
    ) -> None:
        extra: list[tuple[str, tables.Column]] = []
        sequence: list[str] = ["rank", "name"]
        if best_evenings:
            extra.append(
                (
                    "best",
                    headed(
                        _("Best %(count)d avg.") % {"count": best_evenings},
                        _("Average game points of the best %(count)d evenings")
                        % {"count": best_evenings},
                        attrs={
                            "th": {"class": "season-best"},
                            "td": {"class": "season-best fw-bold"},
                        },
                        order_by=("best_points",),
                    ),
                )
            )
            sequence.append("best")
        super().__init__(data, extra_columns=extra, sequence=[*sequence, "..."], **kwargs)
        self.detail_url = DETAIL_URL[by]
        self.best_evenings = best_evenings

    def cell(self, name: str, record: SeasonRankingLine) -> str:
        if name == "name":
            return linked(record.name, url=self.detail_url, key=record.key)
        if name == "saldo":
            return signed(record.saldo)
        if name == "best":
            if record.best_points is None or not self.best_evenings:
                return average(None)
            return average(Fraction(record.best_points, self.best_evenings))
        return str(getattr(record, name))


class RatingTable(BodyTable):
    """The rating list (`rankings.selectors.rating_list`): rank, player, club now, rating
    (the ordinal, mu − 3·sigma), mu, sigma and rated games. Sorting a column keeps the
    list's own order among rows equal on it."""

    rank = headed("#", _("Rank"), order_by=("-ordinal",))
    player = tables.Column(
        verbose_name=_("Player"), order_by=("player__name",), attrs={"td": {"class": "season-name"}}
    )
    club = tables.Column(
        verbose_name=_("Club"),
        accessor="player__club",
        order_by=("player__club__name",),
        attrs={"td": {"class": "season-name"}},  # a long name is cut, as the player's
    )
    ordinal = headed(_("Rating"), _("Rating: mu − 3 × sigma"), attrs={"td": {"class": "fw-bold"}})
    mu = headed("μ", _("mu: the estimated skill"))
    sigma = headed("σ", _("sigma: how uncertain the estimate still is"))
    games = headed(_("G"), _("Rated games"))

    class Meta:
        attrs = {"class": "table table-sm table-striped table-hover align-middle rating-list"}
        orderable = True
        empty_text = _("No player has enough rated games yet.")
        template_name = "rankings/_season_table.html"
        per_page = ROWS_PER_PAGE

    # Sorted by a column, ties keep the list's own order (rating, name).
    tie_order = ("-ordinal", "player__name", "pk")

    def cell(self, name: str, record: PlayerRating) -> str:
        return RATING_CELLS.get(name, lambda r: str(getattr(r, name)))(record)


RATING_CELLS: dict[str, Callable[[PlayerRating], str]] = {
    "player": lambda r: linked(r.player.name, url="player_detail", key=r.player.key),
    "club": lambda r: (
        linked(r.player.club.name, url="club_detail", key=r.player.club.key)
        if r.player.club
        else "—"
    ),
    # In the page's language (Dutch "11,3"), rounded as the player page rounds them.
    "ordinal": lambda r: decimal(r.ordinal, 1),
    "mu": lambda r: decimal(r.mu, 2),
    "sigma": lambda r: decimal(r.sigma, 2),
}
