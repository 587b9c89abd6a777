"""The director's score sheet of a game: the page, and the writes of one round on it (record,
correct, delete, undo), each answered with the sheet again (htmx) or a message.
"""

from __future__ import annotations

import json
from typing import Any, cast

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from scoring import offline
from scoring.forms.seen import SeenForm
from scoring.forms.sheet import GameTotalsForm, RoundForm, SeatsForm, UndoForm, seat_names
from scoring.models import Game, Round
from scoring.rules import Points, RuleViolation
from scoring.selectors.evening import matchday_sheet_stops
from scoring.selectors.sheet import SheetRow, game_detail_again, game_next_caller
from scoring.selectors.table import table_engine
from scoring.services import rounds as round_services
from scoring.services.games import game_seats_token
from scoring.services.rounds import round_correct, round_record
from scoring.tokens import game_token
from scoring.views.common import game_for, sheet_lines
from troefclub.access import HtmxHttpRequest, director_required
from troefclub.pages import render_page
from troefclub.rule_messages import RESULT_LABELS, rule_message

SHEET_TEMPLATE = "scoring/game_sheet.html"


def sheet_context(request: HttpRequest, game: Game, **extra: Any) -> dict[str, Any]:
    """Everything the score sheet shows; `extra` carries bound forms with their errors.

    `seen` is the sheet's `game_token`: every write form on it sends it back, so a write
    made on a sheet that changed meanwhile is refused instead of overwriting. The seats
    form carries `services.game_seats_token` instead (the seats are not in the game token).
    """
    competition = game.match.matchday.competition
    lines = sheet_lines(game)
    rows = [row for row, _label in lines]
    rounds = [row.round for row in rows]
    last = rows[-1].round if rows else None
    seen = game_token(game, rounds)
    # Raised at the table on a game that is over; an open game's sheet skips the query.
    dispute = game.disputes.filter(resolved_at__isnull=True).first() if game.is_over else None
    playing = game.status == Game.Status.OPEN and not game.by_totals
    ask, _done = undo_texts(game, rows)
    context: dict[str, Any] = {
        "competition": competition,
        "game": game,
        "lines": lines,
        "last_round": last,
        "seen": seen,
        # Only once a round is played: closing an unstarted game would record a 0–0 draw.
        "can_close": competition.close_by_director_allowed and playing and bool(rows),
        "can_reopen": game.status == Game.Status.CLOSED or game.by_totals,
        "can_confirm": (competition.confirmation_required or dispute is not None)
        and game.status != Game.Status.OPEN
        and game.confirmed_at is None,
        "dispute": dispute,
        "undo_form": UndoForm(initial={"round": last.pk, "seen": seen}) if last else None,
        "undo_ask": ask,
        "first_caller_name": seat_names(game).get(game.first_caller or 0, ""),
        **table_switch(game),
        **queue_context(game, rounds),
    }
    if playing:
        expected = game_next_caller(game=game, rounds=rounds)
        context["round_form"] = RoundForm(
            game=game, expected_caller=expected, next_number=len(rows) + 1
        )
        context["next_number"] = len(rows) + 1
        context["sides"] = [("a", game.team_a), ("b", game.team_b)]
        context["expected_caller"] = expected
        context["expected_caller_name"] = next(
            (str(p) for p in game_players(game) if p.pk == expected), ""
        )
        # One tap records a gewone winst with the caller whose turn it is; where every
        # round needs its caller, only once the rotation says who (seats and first caller).
        context["one_tap"] = expected is not None or not competition.rule_set.needs_caller
        if not rows:
            context["seats_form"] = SeatsForm(game=game, seen=game_seats_token(game, []))
    if not rows and not game.by_totals:
        context["totals_form"] = GameTotalsForm(game=game, seen=seen)
    context.update(extra)
    if context.get("seats_form") is not None:
        form = context["seats_form"]
        # Open while the seats are needed and missing, or when the form came back refused.
        context["seats_open"] = form.is_bound or (
            game.seat_1_id is None and competition.rule_set.needs_caller
        )
    return context


def queue_context(game: Game, rounds: list[Round]) -> dict[str, Any]:
    """What the sheet's offline queue (static/js/sheet_queue.js) needs: the rules and state
    for its running score (`table_engine`), the result names, its page and endpoint, and
    the release the service worker's caches are named after."""
    slug = game.match.matchday.competition.slug
    return {
        "engine_json": json.dumps(table_engine(game=game, rounds=rounds), separators=(",", ":")),
        "results_json": json.dumps({key: str(label) for key, label in RESULT_LABELS.items()}),
        "page_url": reverse("game_sheet", kwargs={"slug": slug, "game_id": game.pk}),
        "send_url": reverse("sheet_round_send", kwargs={"slug": slug, "game_id": game.pk}),
        "release": offline.release(),
    }


def game_players(game: Game) -> list[Any]:
    """The four seated players, seats 1–4 (empty when the seats are not set)."""
    return [player for player in (game.seat_1, game.seat_2, game.seat_3, game.seat_4) if player]


# Up to this many games a matchday, the sheet lists them all to jump to (a club evening's
# 8 tables); more (a 500-table tournament) would crowd the sheet: previous and next only.
TABLE_SWITCH_MAX = 16


def table_switch(game: Game) -> dict[str, Any]:
    """The previous and next game of the game's matchday by table (`SHEET_ORDER`), and
    every game to jump to while they are few (`TABLE_SWITCH_MAX`). One query."""
    stops = matchday_sheet_stops(matchday_id=game.match.matchday_id)
    here = next((index for index, stop in enumerate(stops) if stop.game_id == game.pk), 0)
    return {
        "previous_stop": stops[here - 1] if here > 0 else None,
        "next_stop": stops[here + 1] if here + 1 < len(stops) else None,
        "stops": stops if 1 < len(stops) <= TABLE_SWITCH_MAX else [],
        "club_match": game.match.matchday.competition.kind != "pairs",
    }


def undo_texts(game: Game, rows: list[SheetRow]) -> tuple[str, str]:
    """What undoing the last round does to a game that is over, said before (the undo
    button's confirmation) and after (the message): ("", "") while the game is open.

    A game that ended on its last round (target or fixed rounds reached) is open again
    after the undo: its winner is no longer the winner. A game the director closed stays
    closed, at the score before the last round: the winner may change.
    """
    if game.status == Game.Status.OPEN or not rows:
        return "", ""
    number = rows[-1].round.number
    winner = {"a": game.team_a, "b": game.team_b}.get(game.winner or "")
    if game.status == Game.Status.FINISHED:
        if winner is None:
            ask = _("Round %(number)s ended the game in a draw: undoing it reopens the game.")
            done = _("Round %(number)s undone: the game is open again.")
        else:
            ask = _(
                "Round %(number)s ended the game: undoing it reopens the game, and "
                "%(koppel)s is no longer the winner."
            )
            done = _(
                "Round %(number)s undone: the game is open again; %(koppel)s is no "
                "longer the winner."
            )
        said = {"number": number, "koppel": winner}
        return ask % said, done % said
    after = rows[-2].running if len(rows) > 1 else Points()
    leader = after.leader
    after_winner = {"a": game.team_a, "b": game.team_b}.get(leader.value if leader else "")
    names = {"before": winner, "after": after_winner}
    if winner is not None and after_winner is not None and winner != after_winner:
        change = _("the winner changes from %(before)s to %(after)s.") % names
    elif winner is not None and after_winner is None:
        change = _("%(before)s is no longer the winner: it becomes a draw.") % names
    elif winner is None and after_winner is not None:
        change = _("it is no longer a draw: %(after)s wins.") % names
    elif winner is not None:
        change = _("%(after)s still wins.") % names
    else:
        change = _("it is still a draw.")
    params: dict[str, Any] = {"number": number, "a": after.a, "b": after.b, "change": change}
    ask = _(
        "The game was closed by the director: after undoing round %(number)s it stays "
        "closed at %(a)s–%(b)s; %(change)s"
    )
    done = _("Round %(number)s undone: the game stays closed at %(a)s–%(b)s; %(change)s")
    return ask % params, done % params


def sheet_response(
    request: HtmxHttpRequest, game: Game, *, status: int = 200, **extra: Any
) -> HttpResponse:
    return render_page(
        request,
        SHEET_TEMPLATE,
        sheet_context(request, game, **extra),
        partial="sheet",
        status=status,
    )


def game_again(game: Game) -> Game:
    """`game` read again, with everything its pages show (after a write, or a refusal that
    it changed meanwhile): its own row (`game_detail_again`: one query, issue 20); 404
    when it is gone."""
    try:
        return game_detail_again(game=game)
    except Game.DoesNotExist:
        raise Http404("no such game") from None


def after_write(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """PRG for a normal post; for htmx the fresh sheet partial (the page updates in place)."""
    if request.htmx:
        return sheet_response(request, game_again(game))
    return redirect("game_sheet", slug=game.match.matchday.competition.slug, game_id=game.pk)


def already_done(request: HtmxHttpRequest, game: Game, text: str) -> HttpResponse:
    """The answer to a form sent twice: what was asked is done already, so it is said as
    news (not as an error) with the fresh sheet. The browser shows the second answer of
    a double click, so it must not look like a failure."""
    messages.info(request, text)
    return after_write(request, game)


def refused(request: HtmxHttpRequest, game: Game, exc: RuleViolation) -> HttpResponse:
    """The sheet again with the refusal in words, for the actions without fields.

    The game is read again: when the refusal is that it changed meanwhile, the page must
    show what it holds now (with fresh `seen` tokens, so a second try can go through).
    """
    fresh = game_again(game)
    message = rule_message(exc, seat_names=seat_names(fresh))
    return sheet_response(request, fresh, status=422, action_error=message)


def form_refused(request: HtmxHttpRequest, game: Game, form: forms.Form) -> HttpResponse:
    """The sheet again when a button's hidden fields are missing: nothing was done."""
    message = " ".join(str(error) for error in form.non_field_errors())
    return sheet_response(request, game, status=422, action_error=message)


def deleted_round(game: Game, round_id: int) -> bool:
    """Whether `round_id` was a round of `game` that is deleted now (its history says so):
    a delete or undo sent twice, answered as done rather than as an unknown round."""
    return (
        not Round.objects.filter(pk=round_id).exists()
        and Round.history.filter(id=round_id, game_id=game.pk).exists()
    )


ROUND_GONE = gettext_lazy(
    "That round is no longer on the sheet (deleted already, by this form sent twice or from "
    "another screen): nothing else was deleted."
)


CLOSE_UNSTARTED = gettext_lazy(
    "This game has not started (no rounds yet): it cannot be closed. Enter its rounds, or "
    "its totals if only the final score is known."
)


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
@director_required(game_for)
def game_sheet(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """The score sheet; a POST records the next round (`round_record`).

    The form must carry the round `number` it was made for: a round sent twice is
    answered "recorded already"; one made before another phone added a round is refused,
    with the entered values kept under the new number to send again if still needed.
    """
    if request.method != "POST":
        return sheet_response(request, game)
    form = RoundForm(request.POST, game=game)
    if form.is_valid():
        try:
            rnd = round_record(
                game_id=game.pk,
                expected_number=form.cleaned_data["number"],
                result=form.cleaned_data["result"],
                side=form.cleaned_data["side"],
                caller_id=form.caller_id,
                tricks=form.tricks,
                user=request.user,
            )
        except RuleViolation as exc:
            if exc.code == "round_already_recorded":
                return already_done(request, game, rule_message(exc))
            game = game_again(game)
            form = renumbered(form, game)
            form.add_error(None, rule_message(exc, seat_names=seat_names(game)))
        else:
            messages.success(
                request,
                _("Round %(number)s recorded: %(summary)s")
                % {"number": rnd.number, "summary": round_summary(rnd, game)},
            )
            return after_write(request, game)
    return sheet_response(request, game, status=422, round_form=form)


def renumbered(form: RoundForm, game: Game) -> RoundForm:
    """`form` with the values entered but the round number the sheet has reached now, and
    the caller whose turn it is now (when the rotation says who).

    A refused round comes back to send again: another screen may have recorded a round
    meanwhile (the one-tap race), so the caller it carried is no longer in turn. The
    sheet's heading names the now-expected caller; the select must say the same, or the
    next "Record" is refused as out of turn.
    """
    data = cast(QueryDict, form.data).copy()
    rounds = list(game.rounds.order_by("number"))
    data["number"] = str(len(rounds) + 1)
    expected = game_next_caller(game=game, rounds=rounds)
    if expected is not None and "caller" in form.fields:
        data["caller"] = str(expected)
    fresh = RoundForm(data, game=game)
    fresh.is_valid()
    return fresh


def round_of(game: Game, round_id: int) -> Round:
    """One round of `game`; a round of another game is a 404."""
    return get_object_or_404(Round.objects.select_related("caller"), pk=round_id, game=game)


@require_http_methods(["GET", "POST"])
@director_required(game_for)
def round_edit(request: HtmxHttpRequest, game: Game, round_id: int) -> HttpResponse:
    """Correct one round (`round_correct`); the whole game is replayed with the change.

    The form carries the round's token as opened: a round corrected meanwhile is not
    overwritten, and the refusal shows the round as it is now.
    """
    rnd = round_of(game, round_id)
    template = "scoring/round_edit.html"
    context: dict[str, Any] = {
        "competition": game.match.matchday.competition,
        "game": game,
        "round": rnd,
    }
    if request.method != "POST":
        form = RoundForm(initial=RoundForm.initial_for(rnd), game=game, correcting=True)
        return render_page(request, template, {**context, "form": form}, partial="form")
    form = RoundForm(request.POST, game=game, correcting=True)
    if form.is_valid():
        try:
            fixed = round_correct(
                round_id=rnd.pk,
                result=form.cleaned_data["result"],
                side=form.cleaned_data["side"],
                caller_id=form.caller_id,
                tricks=form.tricks,
                seen=form.cleaned_data["seen"],
                user=request.user,
            )
        except RuleViolation as exc:
            if exc.code != "round_changed":
                form.add_error(None, rule_message(exc, seat_names=seat_names(game)))
            else:
                game = game_again(game)
                rnd = round_of(game, round_id)
                now = RoundForm(initial=RoundForm.initial_for(rnd), game=game, correcting=True)
                context.update(game=game, round=rnd, action_error=rule_message(exc))
                return render_page(
                    request, template, {**context, "form": now}, partial="form", status=422
                )
        else:
            if fixed.token == rnd.token:  # saved as it was: the service wrote nothing
                messages.info(
                    request,
                    _("Nothing changed: round %(number)s is as it was.") % {"number": fixed.number},
                )
            else:
                messages.success(
                    request,
                    _("Round %(number)s corrected: %(summary)s")
                    % {"number": fixed.number, "summary": round_summary(fixed, game)},
                )
            competition = game.match.matchday.competition
            return redirect("game_sheet", slug=competition.slug, game_id=game.pk)
    return render_page(request, template, {**context, "form": form}, partial="form", status=422)


@require_http_methods(["GET", "POST"])
@director_required(game_for)
def round_delete(request: HtmxHttpRequest, game: Game, round_id: int) -> HttpResponse:
    """Delete one round (`round_delete`); GET asks to confirm (without JavaScript).

    The confirmation carries the round's token: a round changed meanwhile is not deleted
    unseen; one deleted already (the confirmation sent twice) is said so, not a 404.
    """
    if request.method == "POST" and deleted_round(game, round_id):
        return already_done(request, game, str(ROUND_GONE))
    rnd = round_of(game, round_id)
    if request.method != "POST":
        context = {
            "competition": game.match.matchday.competition,
            "game": game,
            "round": rnd,
            "form": SeenForm(initial={"seen": rnd.token}),
        }
        return render(request, "scoring/round_delete.html", context)
    form = SeenForm(request.POST)
    if not form.is_valid():
        return form_refused(request, game, form)
    try:
        round_services.round_delete(
            round_id=rnd.pk, seen=form.cleaned_data["seen"], user=request.user
        )
    except RuleViolation as exc:
        if exc.code == "round_unknown":
            return already_done(request, game, str(ROUND_GONE))
        return refused(request, game, exc)
    messages.success(request, _("Round %(number)s deleted.") % {"number": rnd.number})
    return after_write(request, game)


@require_POST
@director_required(game_for)
def round_undo(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """Delete the last round (`round_undo`), if the sheet is still as the director saw it.

    On a game that is over, undoing changes the result (it reopens, or the winner of a
    closed game changes): without the form's `confirmed` (the button's confirmation
    dialog sends it) nothing is undone and the sheet says what would happen, with a
    button to confirm. So the warning comes before the undo without JavaScript too.
    """
    form = UndoForm(request.POST)
    if not form.is_valid():
        return form_refused(request, game, form)
    round_id = form.cleaned_data["round"]
    rows = [row for row, _label in sheet_lines(game)]
    ask, done = undo_texts(game, rows)
    as_shown = form.cleaned_data["seen"] == game_token(game, [row.round for row in rows])
    if ask and as_shown and not form.cleaned_data["confirmed"]:
        return sheet_response(request, game, undo_confirm=True)
    try:
        number = round_services.round_undo(
            game_id=game.pk, round_id=round_id, seen=form.cleaned_data["seen"], user=request.user
        )
    except RuleViolation as exc:
        if exc.code == "round_unknown" and deleted_round(game, round_id):
            return already_done(request, game, str(ROUND_GONE))
        return refused(request, game, exc)
    if done:
        messages.warning(request, done)
    else:
        messages.success(request, _("Round %(number)s undone.") % {"number": number})
    return after_write(request, game)
