"""Director pages: the score sheet of a game and the writes on it, match totals.

Login required; allowed to the competition's directors and staff (`is_directed_by`),
others get a friendly 403 page. Each write view validates a form, calls ONE service and
then redirects (PRG) — or, for htmx, re-renders the sheet partial so the page updates in
place. A `RuleViolation` becomes a form error in words (`rule_message`) with status 422 and
the entered values kept; the service saved nothing. Only `RuleViolation` is caught: every
other input is validated by the forms and the URL converters first.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from scoring import selectors, services
from scoring.forms import GameTotalsForm, MatchTotalsForm, RoundForm, UndoForm, seat_names
from scoring.messages import RESULT_LABELS, rule_message
from scoring.models import Game, Round
from scoring.rules import RuleViolation
from tournaments import services as tournament_services
from tournaments.models import Competition
from tournaments.views import game_for, match_context, match_for, render_page, sheet_lines

SHEET_TEMPLATE = "scoring/game_sheet.html"


# ---------------------------------------------------------------- access


def denied(request: HttpRequest, competition: Competition) -> HttpResponse | None:
    """None when the user may direct `competition`; else the login redirect or a 403 page."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if competition.is_directed_by(request.user):
        return None
    return render(request, "scoring/forbidden.html", {"competition": competition}, status=403)


# ---------------------------------------------------------------- the score sheet


def sheet_context(request: HttpRequest, game: Game, **extra: Any) -> dict[str, Any]:
    """Everything the score sheet shows; `extra` carries bound forms with their errors."""
    competition = game.match.matchday.competition
    lines = sheet_lines(game)
    rows = [row for row, _label in lines]
    last = rows[-1].round if rows else None
    context: dict[str, Any] = {
        "competition": competition,
        "game": game,
        "lines": lines,
        "last_round": last,
        "can_close": competition.close_by_director_allowed
        and game.status == Game.Status.OPEN
        and not game.by_totals,
        "can_reopen": game.status == Game.Status.CLOSED or game.by_totals,
        "can_confirm": competition.confirmation_required
        and game.status != Game.Status.OPEN
        and game.confirmed_at is None,
        "undo_form": UndoForm(initial={"round": last.pk}) if last else None,
    }
    if game.status == Game.Status.OPEN and not game.by_totals:
        context["round_form"] = RoundForm(
            game=game,
            expected_caller=selectors.game_next_caller(
                game=game, rounds=[row.round for row in rows]
            ),
            next_number=len(rows) + 1,
        )
    if not rows and not game.by_totals:
        context["totals_form"] = GameTotalsForm(game=game)
    context.update(extra)
    return context


def sheet_response(
    request: HttpRequest, game: Game, *, status: int = 200, **extra: Any
) -> HttpResponse:
    return render_page(
        request,
        SHEET_TEMPLATE,
        sheet_context(request, game, **extra),
        partial="sheet",
        status=status,
    )


def after_write(request: HttpRequest, slug: str, game_id: int) -> HttpResponse:
    """PRG for a normal post; for htmx the fresh sheet partial (the page updates in place)."""
    if request.htmx:  # type: ignore[attr-defined]
        return sheet_response(request, game_for(slug, game_id))
    return redirect("game_sheet", slug=slug, game_id=game_id)


def refused(request: HttpRequest, game: Game, exc: RuleViolation) -> HttpResponse:
    """The sheet again with the refusal in words, for the actions without fields."""
    message = rule_message(exc, seat_names=seat_names(game))
    return sheet_response(request, game, status=422, action_error=message)


def round_summary(rnd: Round, game: Game) -> str:
    """ "kap, 5 points to X" — what a round gave, for the success messages."""
    label = RESULT_LABELS.get(rnd.result, rnd.result)
    if rnd.points_a:
        return _("%(result)s, %(points)s points to %(koppel)s") % {
            "result": label,
            "points": rnd.points_a,
            "koppel": game.team_a,
        }
    if rnd.points_b:
        return _("%(result)s, %(points)s points to %(koppel)s") % {
            "result": label,
            "points": rnd.points_b,
            "koppel": game.team_b,
        }
    return _("%(result)s, no points") % {"result": label}


@require_http_methods(["GET", "POST"])
def game_sheet(request: HttpRequest, slug: str, game_id: int) -> HttpResponse:
    """The score sheet; a POST records the next round (`round_record`)."""
    game = game_for(slug, game_id)
    if response := denied(request, game.match.matchday.competition):
        return response
    if request.method != "POST":
        return sheet_response(request, game)
    form = RoundForm(request.POST, game=game)
    if form.is_valid():
        try:
            rnd = services.round_record(
                game_id=game.pk,
                result=form.cleaned_data["result"],
                side=form.cleaned_data["side"],
                caller_id=form.caller_id,
                tricks=form.tricks,
                user=request.user,
                expected_number=form.cleaned_data.get("number"),
            )
        except RuleViolation as exc:
            form.add_error(None, rule_message(exc, seat_names=seat_names(game)))
        else:
            messages.success(
                request,
                _("Round %(number)s recorded: %(summary)s")
                % {"number": rnd.number, "summary": round_summary(rnd, game)},
            )
            return after_write(request, slug, game.pk)
    return sheet_response(request, game, status=422, round_form=form)


def round_of(game: Game, round_id: int) -> Round:
    """One round of `game`; a round of another game is a 404."""
    return get_object_or_404(Round.objects.select_related("caller"), pk=round_id, game=game)


@require_http_methods(["GET", "POST"])
def round_edit(request: HttpRequest, slug: str, game_id: int, round_id: int) -> HttpResponse:
    """Correct one round (`round_correct`); the whole game is replayed with the change."""
    game = game_for(slug, game_id)
    if response := denied(request, game.match.matchday.competition):
        return response
    rnd = round_of(game, round_id)
    template = "scoring/round_edit.html"
    context: dict[str, Any] = {
        "competition": game.match.matchday.competition,
        "game": game,
        "round": rnd,
    }
    if request.method != "POST":
        form = RoundForm(initial=RoundForm.initial_for(rnd), game=game)
        return render_page(request, template, {**context, "form": form}, partial="form")
    form = RoundForm(request.POST, game=game)
    if form.is_valid():
        try:
            fixed = services.round_correct(
                round_id=rnd.pk,
                result=form.cleaned_data["result"],
                side=form.cleaned_data["side"],
                caller_id=form.caller_id,
                tricks=form.tricks,
                seen=form.cleaned_data.get("seen") or None,
            )
        except RuleViolation as exc:
            form.add_error(None, rule_message(exc, seat_names=seat_names(game)))
        else:
            messages.success(
                request,
                _("Round %(number)s corrected: %(summary)s")
                % {"number": fixed.number, "summary": round_summary(fixed, game)},
            )
            return redirect("game_sheet", slug=slug, game_id=game.pk)
    return render_page(request, template, {**context, "form": form}, partial="form", status=422)


@require_http_methods(["GET", "POST"])
def round_delete(request: HttpRequest, slug: str, game_id: int, round_id: int) -> HttpResponse:
    """Delete one round (`round_delete`); GET asks to confirm (without JavaScript)."""
    game = game_for(slug, game_id)
    if response := denied(request, game.match.matchday.competition):
        return response
    rnd = round_of(game, round_id)
    if request.method != "POST":
        context = {"competition": game.match.matchday.competition, "game": game, "round": rnd}
        return render(request, "scoring/round_delete.html", context)
    try:
        services.round_delete(round_id=rnd.pk)
    except RuleViolation as exc:
        return refused(request, game, exc)
    messages.success(request, _("Round %(number)s deleted.") % {"number": rnd.number})
    return after_write(request, slug, game.pk)


@require_POST
def round_undo(request: HttpRequest, slug: str, game_id: int) -> HttpResponse:
    """Delete the last round, if it still is the one the director saw as last."""
    game = game_for(slug, game_id)
    if response := denied(request, game.match.matchday.competition):
        return response
    form = UndoForm(request.POST)
    last = game.rounds.order_by("-number").first()
    if not form.is_valid() or last is None or last.pk != form.cleaned_data["round"]:
        return sheet_response(
            request,
            game,
            status=422,
            action_error=_(
                "The sheet has changed since you opened it: nothing was undone. "
                "Check the rounds below and try again."
            ),
        )
    try:
        services.round_delete(round_id=last.pk)
    except RuleViolation as exc:
        return refused(request, game, exc)
    messages.success(request, _("Round %(number)s undone.") % {"number": last.number})
    return after_write(request, slug, game.pk)


@require_POST
def game_totals(request: HttpRequest, slug: str, game_id: int) -> HttpResponse:
    """Enter a game's final totals instead of rounds (`game_totals_enter`)."""
    game = game_for(slug, game_id)
    if response := denied(request, game.match.matchday.competition):
        return response
    form = GameTotalsForm(request.POST, game=game)
    if form.is_valid():
        try:
            services.game_totals_enter(
                game_id=game.pk,
                total_a=form.cleaned_data["total_a"],
                total_b=form.cleaned_data["total_b"],
            )
        except RuleViolation as exc:
            form.add_error(None, rule_message(exc, seat_names=seat_names(game)))
        else:
            messages.success(
                request,
                _("Totals entered: %(a)s–%(b)s.")
                % {"a": form.cleaned_data["total_a"], "b": form.cleaned_data["total_b"]},
            )
            return after_write(request, slug, game.pk)
    return sheet_response(request, game, status=422, totals_form=form)


@require_POST
def game_close(request: HttpRequest, slug: str, game_id: int) -> HttpResponse:
    """End the game now, at a time limit (`game_close`)."""
    game = game_for(slug, game_id)
    if response := denied(request, game.match.matchday.competition):
        return response
    try:
        closed = services.game_close(game_id=game.pk)
    except RuleViolation as exc:
        return refused(request, game, exc)
    messages.success(
        request,
        _("Game closed at %(a)s–%(b)s.") % {"a": closed.score_a, "b": closed.score_b},
    )
    return after_write(request, slug, game.pk)


@require_POST
def game_reopen(request: HttpRequest, slug: str, game_id: int) -> HttpResponse:
    """Undo a close, or clear entered totals (`game_reopen`)."""
    game = game_for(slug, game_id)
    if response := denied(request, game.match.matchday.competition):
        return response
    try:
        services.game_reopen(game_id=game.pk)
    except RuleViolation as exc:
        return refused(request, game, exc)
    messages.success(request, _("Game reopened."))
    return after_write(request, slug, game.pk)


@require_POST
def game_confirm(request: HttpRequest, slug: str, game_id: int) -> HttpResponse:
    """Confirm a finished game's result, so it counts in the standings (`game_confirm`)."""
    game = game_for(slug, game_id)
    if response := denied(request, game.match.matchday.competition):
        return response
    try:
        tournament_services.game_confirm(game_id=game.pk, user=request.user)
    except RuleViolation as exc:
        return refused(request, game, exc)
    messages.success(request, _("Result confirmed: it counts in the standings."))
    return after_write(request, slug, game.pk)


# ---------------------------------------------------------------- match totals


@require_POST
def match_totals(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    """Enter a match known only as reported totals (`match_totals_enter`)."""
    match = match_for(slug, match_id)
    if response := denied(request, match.matchday.competition):
        return response
    form = MatchTotalsForm(request.POST, match=match)
    if form.is_valid():
        try:
            services.match_totals_enter(
                match_id=match.pk,
                total_home=form.cleaned_data["total_home"],
                total_away=form.cleaned_data["total_away"],
            )
        except RuleViolation as exc:
            form.add_error(None, rule_message(exc))
        else:
            messages.success(
                request,
                _("Match totals entered: %(home)s–%(away)s.")
                % {
                    "home": form.cleaned_data["total_home"],
                    "away": form.cleaned_data["total_away"],
                },
            )
            if request.htmx:  # type: ignore[attr-defined]
                fresh = match_for(slug, match_id)
                return render_page(
                    request,
                    "tournaments/match_detail.html",
                    match_context(request, fresh),
                    partial="match",
                )
            return redirect(reverse("match_detail", kwargs={"slug": slug, "match_id": match.pk}))
    return render_page(
        request,
        "tournaments/match_detail.html",
        match_context(request, match, totals_form=form),
        partial="match",
        status=422,
    )
