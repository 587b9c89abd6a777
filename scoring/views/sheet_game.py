"""The writes of a whole game on the director's score sheet: entered totals, close, reopen,
confirm, seats and first caller.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring.forms.seen import SeenForm
from scoring.forms.sheet import GameTotalsForm, SeatsForm, seat_names
from scoring.models import Game
from scoring.rules import RuleViolation
from scoring.services import confirmations, games
from scoring.services.games import game_seats_set, game_totals_enter
from scoring.views.common import game_for
from scoring.views.sheet import (
    CLOSE_UNSTARTED,
    SHEET_TEMPLATE,
    after_write,
    form_refused,
    game_again,
    refused,
    sheet_context,
    sheet_response,
)
from troefclub.access import HtmxHttpRequest, director_required
from troefclub.pages import render_page
from troefclub.rule_messages import rule_message


@require_POST
@director_required(game_for)
def game_totals(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """Enter a game's final totals instead of rounds (`game_totals_enter`).

    Refused when the game changed since the sheet was opened: the sheet shows what it
    holds now, with the entered totals ready to send again if still needed.
    """
    form = GameTotalsForm(request.POST, game=game)
    if form.is_valid():
        total_a, total_b = form.cleaned_data["total_a"], form.cleaned_data["total_b"]
        try:
            game_totals_enter(
                game_id=game.pk, total_a=total_a, total_b=total_b, seen=form.cleaned_data["seen"]
            )
        except RuleViolation as exc:
            if exc.code == "game_changed_meanwhile":
                fresh = game_again(game)
                context = sheet_context(request, fresh, action_error=rule_message(exc))
                if "totals_form" in context:
                    context["totals_form"] = GameTotalsForm(
                        game=fresh,
                        seen=context["seen"],
                        initial={"total_a": total_a, "total_b": total_b},
                    )
                return render_page(request, SHEET_TEMPLATE, context, partial="sheet", status=422)
            form.add_error(None, rule_message(exc, seat_names=seat_names(game)))
        else:
            messages.success(
                request, _("Totals entered: %(a)s–%(b)s.") % {"a": total_a, "b": total_b}
            )
            return after_write(request, game)
    return sheet_response(request, game, status=422, totals_form=form)


@require_POST
@director_required(game_for)
def game_close(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """End the game now, at a time limit (`game_close`); refused on a game without rounds."""
    competition = game.match.matchday.competition
    form = SeenForm(request.POST)
    if not form.is_valid():
        return form_refused(request, game, form)
    unstarted = game.status == Game.Status.OPEN and not game.by_totals
    if competition.close_by_director_allowed and unstarted and not game.rounds.exists():
        # Closing a game nobody played records a 0–0 draw: a misclick, never a time limit.
        # (The `seen` token guards the race: a page that showed rounds is refused as stale.)
        return sheet_response(request, game, status=422, action_error=str(CLOSE_UNSTARTED))
    try:
        closed = games.game_close(game_id=game.pk, seen=form.cleaned_data["seen"])
    except RuleViolation as exc:
        return refused(request, game, exc)
    messages.success(
        request,
        _("Game closed at %(a)s–%(b)s.") % {"a": closed.score_a, "b": closed.score_b},
    )
    return after_write(request, game)


@require_POST
@director_required(game_for)
def game_reopen(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """Undo a close, or clear entered totals (`game_reopen`)."""
    form = SeenForm(request.POST)
    if not form.is_valid():
        return form_refused(request, game, form)
    try:
        games.game_reopen(game_id=game.pk, seen=form.cleaned_data["seen"], user=request.user)
    except RuleViolation as exc:
        return refused(request, game, exc)
    messages.success(request, _("Game reopened."))
    return after_write(request, game)


@require_POST
@director_required(game_for)
def game_confirm(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """Confirm a finished game's result, so it counts in the standings (`game_confirm`)."""
    form = SeenForm(request.POST)
    if not form.is_valid():
        return form_refused(request, game, form)
    try:
        confirmations.game_confirm(
            game_id=game.pk, user=request.user, seen=form.cleaned_data["seen"]
        )
    except RuleViolation as exc:
        return refused(request, game, exc)
    messages.success(request, _("Result confirmed: it counts in the standings."))
    return after_write(request, game)


@require_POST
@director_required(game_for)
def game_seats(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """Seat the players and name the first caller, before round 1 (`game_seats_set`).

    Refused once the game has rounds, and when the seats were changed meanwhile (the
    sheet then shows them as they are); the same form sent twice changes nothing.
    """
    form = SeatsForm(request.POST, game=game)
    if form.is_valid():
        try:
            game_seats_set(
                game_id=game.pk,
                seats=form.seats,
                first_caller=form.first_caller_seat,
                seen=form.cleaned_data["seen"],
            )
        except RuleViolation as exc:
            if exc.code in ("game_changed_meanwhile", "game_has_rounds_setup"):
                return refused(request, game, exc)
            form.add_error(None, rule_message(exc))
        else:
            fresh = game_again(game)
            names = seat_names(fresh)
            if fresh.first_caller:
                text = _("Seats set; %(caller)s calls round 1.") % {
                    "caller": names[fresh.first_caller]
                }
            else:
                text = _("Seats set. Who calls round 1 is not known yet.")
            messages.success(request, text)
            return after_write(request, game)
    return sheet_response(request, game, status=422, seats_form=form)
