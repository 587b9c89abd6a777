"""Standings and results as spreadsheets: tablib datasets, written as CSV or Excel.

Both read what the pages show, as stored (`Standing` rows, the games' stored scores):
nothing is recomputed. Text cells go through `neutralised` (spreadsheet formula
injection); numbers stay numbers, so a negative saldo is the number -12, not text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import tablib
from django.db.models import Exists, OuterRef
from django.http import HttpResponse
from django.utils.http import content_disposition_header
from django.utils.text import capfirst
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from scoring.models import Round, Standing
from scoring.selectors.results import MatchScore, competition_match_scores
from scoring.selectors.schedule import with_table_shown
from scoring.selectors.standings import competition_standings, competition_standings_summary
from scoring.tables import StandingTable
from tournaments.models import Bye, Competition, Entry, Match

FORMATS = ("csv", "xlsx")
CONTENT_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}
# A text cell starting with one of these is read as a formula (or as the start of one) by
# Excel, LibreOffice and Google Sheets: `=`, `+`, `-`, `@`, and tab or carriage return
# before any of them (OWASP "CSV injection").
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
CSV_DELIMITERS = {"nl": ";", "en": ","}  # by language: what that language's Excel splits on
BOM = "\ufeff"  # Excel reads a CSV as UTF-8 (accents right) only when it starts with one
ENTRY_JOINS = ("team__player_1", "team__player_2", "club")


def neutralised(value: Any) -> Any:
    """`value` safe for a spreadsheet cell: text that would start a formula gets a
    leading apostrophe ("=SUM(A1)" → "'=SUM(A1)", "-Ray" → "'-Ray"); anything else, numbers
    included (-12 stays the number -12), is returned as it is. None becomes ""."""
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def dataset(title: str, headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> tablib.Dataset:
    """A tablib dataset of `rows` under `headers`, every cell `neutralised`."""
    data = tablib.Dataset(title=title)
    data.headers = [str(neutralised(str(header))) for header in headers]
    for row in rows:
        data.append([neutralised(value) for value in row])
    return data


def export_response(data: tablib.Dataset, *, fmt: str, filename: str) -> HttpResponse:
    """`data` as a download: CSV (UTF-8 with a BOM) or Excel, named `filename`.<fmt>.

    The CSV's separator follows the reader's language: a Dutch Excel splits columns on
    ";" (its list separator; "," is its decimal comma) and puts a comma-separated file in
    one column, an English one splits on ",".

    Raises ValueError for a format not in `FORMATS` (the URL pattern allows only those).
    """
    if fmt == "csv":
        delimiter = CSV_DELIMITERS.get(get_language() or "", ",")
        body: bytes = (BOM + data.export("csv", delimiter=delimiter)).encode("utf-8")
    elif fmt == "xlsx":
        body = data.export("xlsx")
    else:
        raise ValueError(f"unknown export format {fmt!r}")
    response = HttpResponse(body, content_type=CONTENT_TYPES[fmt])
    response["Content-Disposition"] = disposition(f"{filename}.{fmt}", attachment=True)
    return response


def disposition(filename: str, *, attachment: bool) -> str:
    """The Content-Disposition header of a file named `filename`: a download
    (`attachment`) or shown in the browser."""
    return content_disposition_header(attachment, filename) or ""


def _entry_cells(entry: Entry) -> tuple[str, str]:
    """An entry's name as shown (the koppel's name, else its players; or the club's),
    and a koppel's two players ("" for a club)."""
    team = entry.team
    if team is None:
        return str(entry.club), ""
    return str(team), f"{team.player_1.name} & {team.player_2.name}"


def standings_dataset(*, competition: Competition) -> tablib.Dataset:
    """The stored standings, best first, with the columns the standings page shows (the
    tie-break columns, byes and deductions as the page decides: `StandingTable`): rank,
    the koppel or club, a koppel's players, then the numbers as numbers. Headers are the
    `Standing` fields' names. Three queries, whatever the size."""
    tiebreaks = [key for key in competition.tiebreaks or [] if isinstance(key, str)]
    summary = competition_standings_summary(competition=competition)
    rows = list(competition_standings(competition=competition))
    table = StandingTable(
        rows, tiebreaks=tiebreaks, show_byes=summary.byes, show_deducted=summary.deducted
    )
    columns = [column.name for column in table.columns]
    pairs = competition.kind == Competition.Kind.PAIRS
    headers: list[str] = []
    for name in columns:
        if name == "entry":
            headers.append(_("Koppel") if pairs else _("Club"))
            if pairs:
                headers.append(_("Players"))
        else:
            field = Standing._meta.get_field(name)
            headers.append(capfirst(str(getattr(field, "verbose_name", name))))
    body = []
    for row in rows:
        cells: list[Any] = []
        for name in columns:
            if name == "entry":
                shown, players = _entry_cells(row.entry)
                cells.append(shown)
                if pairs:
                    cells.append(players)
            else:
                cells.append(getattr(row, name))
        body.append(cells)
    return dataset(_("Standings"), headers, body)


def _match_status(score: MatchScore, started: bool) -> str:
    """A match's state in words, as the pages say it."""
    if score.voided:
        return _("voided")  # counts nowhere (issue 22): the standings export leaves it out
    if score.forfeit:
        return str(Match.Forfeit(score.forfeit).label)
    if score.reported:
        return _("reported total")
    if score.games and not score.open_games:
        return _("awaiting confirmation") if score.awaiting else _("finished")
    return _("in play") if started else _("not started")


def results_dataset(*, competition: Competition) -> tablib.Dataset:
    """Every match of the competition, by matchday and table, then that matchday's byes:
    matchday, date, table, home, away (a koppel's players beside it), the score home and
    away as numbers (empty before a match has started), and its status. Five queries,
    whatever the size."""
    matches = list(
        with_table_shown(Match.objects.filter(matchday__competition=competition))
        .annotate(started=Exists(Round.objects.filter(game__match=OuterRef("pk"))))
        .select_related(
            "matchday",
            *(f"{side}__{join}" for side in ("home", "away") for join in ENTRY_JOINS),
        )
        .order_by("matchday__number", "table_shown", "pk")
    )
    scores = competition_match_scores(competition=competition)
    byes = list(
        Bye.objects.filter(matchday__competition=competition)
        .select_related("matchday", *(f"entry__{join}" for join in ENTRY_JOINS))
        .order_by("matchday__number", "pk")
    )
    pairs = competition.kind == Competition.Kind.PAIRS
    headers = [_("Matchday"), _("Date"), _("Table")]
    headers += [_("Home"), _("Home players")] if pairs else [_("Home")]
    headers += [_("Away"), _("Away players")] if pairs else [_("Away")]
    headers += [_("Home score"), _("Away score"), _("Status")]

    def sides(*entries: Entry | None) -> list[Any]:
        cells: list[Any] = []
        for entry in entries:
            shown, players = _entry_cells(entry) if entry is not None else ("", "")
            cells += [shown, players] if pairs else [shown]
        return cells

    # Each matchday's matches by table, then its byes: sorted on (matchday, bye?, order).
    keyed: list[tuple[tuple[int, int, int], list[Any]]] = []
    for index, match in enumerate(matches):
        score = scores[match.pk]
        started = bool(getattr(match, "started", False))
        shown = score.forfeit or score.reported or (score.games and (started or score.finished))
        row = [
            match.matchday.number,
            match.matchday.date,
            getattr(match, "table_shown", match.table),
            *sides(match.home, match.away),
            score.home if shown else None,
            score.away if shown else None,
            _match_status(score, started),
        ]
        keyed.append(((match.matchday.number, 0, index), row))
    for index, bye in enumerate(byes):
        matchday = bye.matchday
        row = [matchday.number, matchday.date, None, *sides(bye.entry, None), None, None]
        keyed.append(((matchday.number, 1, index), [*row, _("bye")]))
    body = [row for _key, row in sorted(keyed, key=lambda item: item[0])]
    return dataset(_("Results"), headers, body)
