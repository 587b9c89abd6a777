"""The standings table (django-tables2): every metric column of the engine, sortable, with
the competition's tie-breaks marked.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from scoring.models import Standing
from scoring.rules import METRIC_OF, METRICS
from scoring.selectors.standings import STANDINGS_ORDER
from troefclub.tables import MINUS, PHONE_HIDDEN, BodyTable, signed

# Tie-break keys whose column is shown only while they break ties, and that column.
TIEBREAK_COLUMNS = {metric.key: metric.column for metric in METRICS if not metric.always_shown}

# The column that shows each tie-break key.
TIEBREAK_COLUMN_OF = {metric.key: metric.column for metric in METRICS}

# Each tie-break's name, in the language of the request (the metrics' texts are msgids).
TIEBREAK_LABELS = {metric.key: _(metric.label) for metric in METRICS}


def metric_column(
    key: str, *, th: dict[str, str] | None = None, td: dict[str, str] | None = None, **kwargs: Any
) -> tables.Column:
    """The column of the tie-break `key`, headed as its metric says (`header`, and `title`
    as the header's tooltip); `th`/`td` add attributes, `kwargs` go to the column."""
    metric = METRIC_OF[key]
    head: dict[str, Any] = {"title": _(metric.title)} if metric.title else {}
    attrs: dict[str, dict[str, Any]] = {"th": {**head, **(th or {})}} if head or th else {}
    if td:
        attrs["td"] = td
    return tables.Column(verbose_name=_(metric.header), attrs=attrs, **kwargs)


class StandingTable(BodyTable):
    """A competition's standings (DESIGN.md `manage.py standings` columns), best first.

    Short headers keep the table readable on a phone; the full words are in `title`. Every
    tie-break the competition uses is a visible column (issue: "none hidden"): Buchholz and
    H2H appear when they are tie-breaks, "Byes" and "Ded." when any entry has one. A
    tie-break's column is headed as its metric says (`metric_column`, `METRICS`).
    """

    # Sorted by a column, ties keep the stored order.
    tie_order = STANDINGS_ORDER

    rank = tables.Column(verbose_name="#", attrs={"th": {"title": _("Rank")}})
    entry = tables.Column(
        verbose_name=_("Entry"),
        # By the name shown, any case (`competition_standings`' `entry_sort`), not by key.
        order_by=("entry_sort",),
        attrs={"td": {"class": "standing-entry"}},
    )
    played = tables.Column(verbose_name=_("P"), attrs={"th": {"title": _("Played")}})
    won = metric_column("wins")
    drawn = tables.Column(verbose_name=_("D"), attrs={"th": {"title": _("Drawn")}})
    lost = tables.Column(verbose_name=_("L"), attrs={"th": {"title": _("Lost")}})
    points = metric_column("points", td={"class": "fw-bold"})
    # For and against are hidden on a phone unless they break ties: the saldo says the same.
    points_for = metric_column("points_for", th={"class": PHONE_HIDDEN}, td={"class": PHONE_HIDDEN})
    points_against = tables.Column(
        verbose_name=_("Ag."),
        attrs={
            "th": {"title": _("Points against"), "class": "d-none d-sm-table-cell"},
            "td": {"class": "d-none d-sm-table-cell"},
        },
    )
    saldo = metric_column("saldo")
    kaps = metric_column("kaps")
    baunies = metric_column("baunies")
    buchholz = metric_column("buchholz")
    head_to_head = metric_column("head_to_head", default="—")
    byes = tables.Column(verbose_name=_("Byes"), attrs={"th": {"title": _("Byes had")}})
    deducted = tables.Column(
        verbose_name=_("Ded."), attrs={"th": {"title": _("Competition points deducted")}}
    )

    class Meta:
        model = Standing
        fields = (
            "rank",
            "entry",
            "played",
            "won",
            "drawn",
            "lost",
            "points",
            "points_for",
            "points_against",
            "saldo",
            "kaps",
            "baunies",
            "buchholz",
            "head_to_head",
            "byes",
            "deducted",
        )
        order_by = ("rank",)
        attrs = {"class": "table table-sm table-striped table-hover align-middle standings"}
        orderable = True
        empty_text = _("No standings yet.")
        template_name = "scoring/_standings_table.html"
        per_page = 50

    def __init__(
        self,
        data: Iterable[Standing],
        *,
        tiebreaks: Sequence[str] = (),
        show_byes: bool = False,
        show_deducted: bool = False,
        **kwargs: Any,
    ) -> None:
        exclude = [name for key, name in TIEBREAK_COLUMNS.items() if key not in tiebreaks]
        if not show_byes:
            exclude.append("byes")
        if not show_deducted:
            exclude.append("deducted")
        extra: list[tuple[str, tables.Column]] = []
        if "points_for" in tiebreaks:  # a tie-break is never hidden, not even on a phone
            extra.append(("points_for", metric_column("points_for")))
        super().__init__(data, exclude=exclude, extra_columns=extra, **kwargs)
        # Kaps and baunies give way on a phone, unless they break ties (then they stay);
        # drawn and lost too when tie-break columns need the room (played − won says it).
        give_way = [key for key in ("kaps", "baunies") if key not in tiebreaks]
        if any(key in tiebreaks for key in TIEBREAK_COLUMNS):
            give_way += ["drawn", "lost"]
        for name in give_way:
            column = self.columns[name].column
            column.attrs = {
                **column.attrs,
                "th": {**column.attrs.get("th", {}), "class": PHONE_HIDDEN},
                "td": {**column.attrs.get("td", {}), "class": PHONE_HIDDEN},
            }
        # Mark the tie-break columns, in order, in their header's tooltip and class.
        for order, key in enumerate(tiebreaks, start=1):
            tiebreak_column = TIEBREAK_COLUMN_OF.get(key)
            if tiebreak_column is None or tiebreak_column not in self.columns.names():
                continue
            column = self.columns[tiebreak_column].column
            th = dict(column.attrs.get("th", {}))
            th["class"] = f"{th.get('class', '')} tiebreak".strip()
            th["data-tiebreak"] = str(order)
            column.attrs = {**column.attrs, "th": th}

    def cell(self, name: str, record: Any) -> str:
        return cell_text(name, record)


def cell_text(name: str, row: Standing) -> str:
    """One cell of the standings as shown: signs with a real minus, "—" for no H2H."""
    value = getattr(row, name)
    if name == "points":
        return f"{MINUS}{-value}" if value < 0 else str(value)
    if name == "saldo":
        return signed(value)
    if name == "deducted":
        return f"{MINUS}{value}" if value else "0"
    if name == "head_to_head":
        return "—" if value is None else str(value)
    return str(value)
