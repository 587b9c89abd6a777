"""Paper and downloads of a competition: PDF score sheets and pairing sheets
(`scoring.pdf`), standings and results as CSV or Excel (`scoring.exports`).

A score sheet carries the QR code of its game's table link, which is the table's secret
(it lets whoever holds it enter rounds): sheets are for the competition's directors only
and never cached. The pairing sheet and the exports are public, like the pages they
print. Each view reads in a fixed number of queries, whatever the size of the matchday
or competition.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import NoReverseMatch, reverse
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from scoring.exports import disposition, export_response, results_dataset, standings_dataset
from scoring.models import Game
from scoring.pdf.pairings import Pairing, PairingSheet, pairings_pdf
from scoring.pdf.sheets import GameSheet, Koppel, game_sheets_pdf
from scoring.selectors.schedule import matchday_matches
from scoring.services.standings import standings_catch_up
from scoring.services.table import game_links_ensure
from tournaments.lookups import matchday_byes, matchday_for
from tournaments.models import Competition, Entry, Matchday, Player, Team
from troefclub.access import HtmxHttpRequest, director_required
from troefclub.rule_messages import RESULT_LABELS
from troefclub.site import absolute_url

# Grid lines beyond the longest game to the target: redeals and a crossed-out line.
SPARE_ROWS = 5
# Grid lines when no rule says how long a game is (the director closes it).
OPEN_ENDED_ROWS = 24
# The fewest points a scoring round gives (gewone winst, kap by partner and a failed
# baunie: 2); an early kap gives the competition's penalty, which may be 1.
SMALLEST_ROUND_POINTS = 2


def table_link_url(request: HttpRequest, token: str) -> str:
    """The absolute URL of the table's own page for the link `token` (what the sheet's QR
    code holds): `table_sheet`, or "/t/<token>/" while that page is not installed, at the
    public address (`troefclub.site.absolute_url`: SITE_URL, else the request's host)."""
    try:
        path = reverse("table_sheet", kwargs={"token": token})
    except NoReverseMatch:
        path = f"/t/{token}/"
    return absolute_url(path, request)


def grid_rows(competition: Competition) -> int:
    """Lines of the round grid: enough for the longest game the rules allow, plus spare.

    To a target of T, with at least p points a scoring round, each koppel can score
    ceil(T / p) − 1 times without winning, and one more round ends it; a fixed number of
    rounds is that many. Whichever ends first counts; neither: `OPEN_ENDED_ROWS`.
    """
    lengths = []
    if competition.target_score:
        smallest = min(SMALLEST_ROUND_POINTS, competition.early_kap_penalty)
        lengths.append(2 * (math.ceil(competition.target_score / smallest) - 1) + 1)
    if competition.fixed_rounds:
        lengths.append(competition.fixed_rounds)
    return min(lengths) + SPARE_ROWS if lengths else OPEN_ENDED_ROWS


def target_text(competition: Competition) -> str:
    """How a game of `competition` ends, in words: "20 points", "16 rounds", both, or
    closed by the director."""
    target, fixed = competition.target_score, competition.fixed_rounds
    if target and fixed:
        return _("%(points)s points or %(rounds)s rounds") % {"points": target, "rounds": fixed}
    if target:
        return _("%(points)s points") % {"points": target}
    if fixed:
        return _("%(rounds)s rounds") % {"rounds": fixed}
    return _("until the director closes the game")


def legend_text(competition: Competition) -> str:
    """The round results this competition allows, with their points (RULES.md)."""
    others = _("%(points)s to the others")
    parts = [
        (RESULT_LABELS["gewone_winst"], "2"),
        (RESULT_LABELS["kap"], "5"),
        *([(RESULT_LABELS["kap_partner"], "2")] if competition.kap_partner_allowed else []),
        (RESULT_LABELS["baunie"], "15"),
        (RESULT_LABELS["baunie_mislukt"], others % {"points": 2}),
        (RESULT_LABELS["kap_te_vroeg"], others % {"points": competition.early_kap_penalty}),
        *([(RESULT_LABELS["redeal"], "0")] if competition.redeal_allowed else []),
    ]
    return _("Points") + ": " + " · ".join(f"{label} {points}" for label, points in parts)


def matchday_place(matchday: Matchday) -> str:
    """ "Matchday 3 · Friday 2 October 2026" (the date when known), in the active language."""
    place = _("Matchday %(number)s") % {"number": matchday.number}
    if matchday.date:
        place += " · " + date_format(matchday.date, "l j F Y")
    return place


def _koppel(team: Team) -> Koppel:
    return Koppel(name=str(team), players=(team.player_1.name, team.player_2.name))


def _side(entry: Entry) -> Koppel | str:
    return _koppel(entry.team) if entry.team is not None else str(entry.club)


def _games_with_names(games: QuerySet[Game]) -> list[Game]:
    """`games` with their match, matchday and competition, koppels, players (seats too)
    and, for club matches, the two clubs: four queries whatever their number (one join
    of them all would be a 15-table query that PostgreSQL plans slowly, issue 7)."""
    rows = list(
        games.select_related("match__matchday__competition").order_by(
            "match__matchday__number", "match__table", "match_id", "sitting", "table", "pk"
        )
    )
    if not rows:
        return rows
    teams = Team.objects.in_bulk({g.team_a_id for g in rows} | {g.team_b_id for g in rows})
    seats = ("seat_1", "seat_2", "seat_3", "seat_4")
    wanted = {pk for team in teams.values() for pk in (team.player_1_id, team.player_2_id)}
    wanted |= {getattr(game, f"{seat}_id") for game in rows for seat in seats} - {None}
    players = Player.objects.in_bulk(wanted)
    for team in teams.values():
        team.player_1, team.player_2 = players[team.player_1_id], players[team.player_2_id]
    clubs = rows[0].match.matchday.competition.kind == Competition.Kind.CLUBS
    entries = (
        Entry.objects.select_related("club").in_bulk(
            {g.match.home_id for g in rows} | {g.match.away_id for g in rows}
        )
        if clubs
        else {}
    )
    for game in rows:
        game.team_a, game.team_b = teams[game.team_a_id], teams[game.team_b_id]
        for seat in seats:
            player_id = getattr(game, f"{seat}_id")
            if player_id is not None:
                setattr(game, seat, players[player_id])
        if clubs:
            game.match.home = entries[game.match.home_id]
            game.match.away = entries[game.match.away_id]
    return rows


def game_sheets(request: HttpRequest, games: Sequence[Game]) -> list[GameSheet]:
    """What the score sheet of each of `games` (read by `_games_with_names`) shows, with
    its two table links (one per koppel) made where missing (`game_links_ensure`)."""
    links = game_links_ensure(game_ids=[game.pk for game in games])
    sheets = []
    for game in games:
        match = game.match
        competition = match.matchday.competition
        clubs = competition.kind == Competition.Kind.CLUBS
        seated = [p.name for p in (game.seat_1, game.seat_2, game.seat_3, game.seat_4) if p]
        seats = (seated[0], seated[1], seated[2], seated[3]) if len(seated) == 4 else None
        sheets.append(
            GameSheet(
                competition=competition.name,
                place=matchday_place(match.matchday),
                table=game.table,
                sitting=game.sitting if clubs else None,
                match=f"{match.home} – {match.away}" if clubs else None,
                koppel_a=_koppel(game.team_a),
                koppel_b=_koppel(game.team_b),
                seats=seats,
                first_caller=game.first_caller,
                target=target_text(competition),
                grid_rows=grid_rows(competition),
                legend=legend_text(competition),
                urls=(
                    table_link_url(request, links[game.pk]["a"].token),
                    table_link_url(request, links[game.pk]["b"].token),
                ),
                reference=_("game %(id)s") % {"id": game.pk},
            )
        )
    return sheets


def pdf_response(data: bytes, filename: str, *, private: bool) -> HttpResponse:
    """The PDF `data`, shown in the browser (to print) as `filename`; `private`: a page
    holding a secret, which no cache may keep."""
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = disposition(filename, attachment=False)
    if private:
        response["Cache-Control"] = "no-store, private"
    return response


def sheet_game_for(slug: str, game_id: int) -> Game:
    """The game `game_id` of competition `slug` as its score sheet shows it
    (`_games_with_names`); else 404."""
    games = _games_with_names(
        Game.objects.filter(pk=game_id, match__matchday__competition__slug=slug)
    )
    if not games:
        raise Http404("no such game")
    return games[0]


@require_safe
@never_cache
@director_required(sheet_game_for)
def game_sheet_pdf(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """One game's A4 score sheet with its table link's QR code (directors only)."""
    data = game_sheets_pdf(game_sheets(request, [game]))
    slug = game.match.matchday.competition.slug
    return pdf_response(data, f"{slug}-game-{game.pk}.pdf", private=True)


@require_safe
@never_cache
@director_required(matchday_for)
def matchday_sheets_pdf(request: HtmxHttpRequest, matchday: Matchday) -> HttpResponse:
    """Every game of a matchday, a score sheet a page, by table (directors only)."""
    competition = matchday.competition
    games = _games_with_names(Game.objects.filter(match__matchday=matchday))
    title = f"{competition.name} · {matchday_place(matchday)}"
    data = game_sheets_pdf(game_sheets(request, games), title=title)
    filename = f"{competition.slug}-matchday-{matchday.number}-sheets.pdf"
    return pdf_response(data, filename, private=True)


@require_safe
def matchday_pairings_pdf(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The matchday's pairing sheet: table, home – away with the players, the byes.
    Public, like the matchday page."""
    matchday = matchday_for(slug, number)
    competition = matchday.competition
    matches = list(matchday_matches(matchday=matchday))
    lines: dict[int, list[str]] = {}
    if competition.kind == Competition.Kind.CLUBS:
        lines = _sitting_lines(matchday)
    sheet = PairingSheet(
        competition=competition.name,
        place=matchday_place(matchday),
        pairings=tuple(
            Pairing(
                table=getattr(match, "table_shown", match.table),
                home=_side(match.home),
                away=_side(match.away),
                games=tuple(lines.get(match.pk, ())),
            )
            for match in matches
        ),
        byes=tuple(_side(bye.entry) for bye in matchday_byes(matchday)),
    )
    return pdf_response(
        pairings_pdf(sheet), f"{slug}-matchday-{number}-pairings.pdf", private=False
    )


def _sitting_lines(matchday: Matchday) -> dict[int, list[str]]:
    """A club matchday's games by match, a line a sitting: "sitting 1: table 2 A – B · …"."""
    games = Game.objects.filter(match__matchday=matchday).select_related(
        "team_a__player_1", "team_a__player_2", "team_b__player_1", "team_b__player_2"
    )
    sittings: dict[int, dict[int, list[str]]] = {}
    for game in games.order_by("match_id", "sitting", "table"):
        text = _("table %(table)s: %(a)s – %(b)s") % {
            "table": game.table,
            "a": game.team_a,
            "b": game.team_b,
        }
        sittings.setdefault(game.match_id, {}).setdefault(game.sitting, []).append(text)
    return {
        match_id: [
            _("sitting %(sitting)s") % {"sitting": sitting} + ": " + " · ".join(texts)
            for sitting, texts in by_sitting.items()
        ]
        for match_id, by_sitting in sittings.items()
    }


@require_safe
def standings_export(request: HttpRequest, slug: str, fmt: str) -> HttpResponse:
    """The stored standings as CSV or Excel (public, like the standings page)."""
    competition = get_object_or_404(Competition, slug=slug)
    standings_catch_up(competition=competition)  # the page does too
    data = standings_dataset(competition=competition)
    return export_response(data, fmt=fmt, filename=f"{slug}-standings")


@require_safe
def results_export(request: HttpRequest, slug: str, fmt: str) -> HttpResponse:
    """Every match's result as CSV or Excel (public, like the matchday pages)."""
    competition = get_object_or_404(Competition, slug=slug)
    data = results_dataset(competition=competition)
    return export_response(data, fmt=fmt, filename=f"{slug}-results")
