"""django-tables2 tables of the public pages."""

from __future__ import annotations

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from scoring.models import Standing


class StandingTable(tables.Table):
    """A competition's standings (DESIGN.md `manage.py standings` columns), best first.

    Short headers keep the table readable on a phone; the full words are in `title`.
    """

    rank = tables.Column(verbose_name="#", attrs={"th": {"title": _("Rank")}})
    entry = tables.Column(
        verbose_name=_("Entry"),
        order_by=("entry__team__name", "entry__team__key", "entry__club__name"),
        attrs={"td": {"class": "standing-entry"}},
    )
    played = tables.Column(verbose_name=_("P"), attrs={"th": {"title": _("Played")}})
    won = tables.Column(verbose_name=_("W"), attrs={"th": {"title": _("Won")}})
    drawn = tables.Column(verbose_name=_("D"), attrs={"th": {"title": _("Drawn")}})
    lost = tables.Column(verbose_name=_("L"), attrs={"th": {"title": _("Lost")}})
    points = tables.Column(
        verbose_name=_("Pts"),
        attrs={"th": {"title": _("Competition points")}, "td": {"class": "fw-bold"}},
    )
    # For and against are hidden on a phone: the saldo says the same in one column.
    points_for = tables.Column(
        verbose_name=_("For"),
        attrs={
            "th": {"title": _("Points for"), "class": "d-none d-sm-table-cell"},
            "td": {"class": "d-none d-sm-table-cell"},
        },
    )
    points_against = tables.Column(
        verbose_name=_("Ag."),
        attrs={
            "th": {"title": _("Points against"), "class": "d-none d-sm-table-cell"},
            "td": {"class": "d-none d-sm-table-cell"},
        },
    )
    saldo = tables.Column(verbose_name=_("+/−"), attrs={"th": {"title": _("Saldo")}})
    kaps = tables.Column(verbose_name=_("Kaps"))
    baunies = tables.Column(verbose_name=_("Baun."), attrs={"th": {"title": _("Baunies")}})

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
        )
        order_by = ("rank",)
        attrs = {"class": "table table-sm table-striped table-hover align-middle standings"}
        orderable = True
        empty_text = _("No standings yet.")
