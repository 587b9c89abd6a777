"""Scoring at the table (issues 8 and 18): the table's own phone page, one link per koppel.

The page needs no account: whoever holds a koppel's link (`GameLink.token`) scores that
game, and only that game, as that koppel. The koppel whose link records the first round
enters the rounds; the other koppel follows and confirms or disputes the result through
its own link. A revoked or unknown link is a friendly 404 page.

Two ways a round arrives. The page's script (static/js/table.js) queues each tap on the
phone and sends the queue in order to `table_round_send`, which answers in JSON: it works
offline and never loses a tap. Without the script (or IndexedDB) the form posts as
before (htmx or a plain POST). Both carry the round's idempotency key and the `seen`
token, so a retry is stored once and a round built on an old state is refused.

Same shape as `scoring.views`: a POST carries one `action`, validated by its form, calls
ONE service, and redirects back (PRG), or answers an htmx request with the page's partial.
A `RuleViolation` becomes words (`rule_message`), status 422, nothing saved.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from scoring import offline
from scoring.forms.sheet import seat_names
from scoring.forms.table import (
    TableConfirmForm,
    TableDisputeForm,
    TableRoundForm,
    TableUndoForm,
)
from scoring.models import Game, GameLink, Round
from scoring.rules import RuleViolation
from scoring.selectors.sheet import game_detail, game_detail_again
from scoring.selectors.table import game_table_sheet, table_link
from scoring.services.confirmations import table_game_confirm, table_game_dispute
from scoring.services.table import TableRound, table_round_record, table_round_undo
from scoring.views.sheet import round_summary
from troefclub.access import HtmxHttpRequest
from troefclub.pages import render_page
from troefclub.rule_messages import RESULT_LABELS, rule_message
from troefclub.secret_links import secret_link

TABLE_TEMPLATE = "scoring/table_sheet.html"
# The other koppel's phone follows the rounds as they are entered (htmx polling).
TABLE_POLL_SECONDS = 10

TableAction = Callable[[HtmxHttpRequest, GameLink, Game], HttpResponse]

FORM_INCOMPLETE = gettext_lazy(
    "This form was not sent from this page (something is missing): reload the page and try again."
)


def form_error(form: Any) -> str:
    """The first error of a form, in words (for the buttons whose fields are hidden)."""
    for errors in form.errors.values():
        return " ".join(str(error) for error in errors)
    return str(FORM_INCOMPLETE)


# ---------------------------------------------------------------- the table's phone page


def link_invalid(request: HtmxHttpRequest) -> HttpResponse:
    """The friendly 404 of a revoked or unknown table link."""
    return render(request, "scoring/table_invalid.html", status=404)


def link_of(token: str) -> GameLink | None:
    """The active table link with `token` (`table_link`), for `secret_link`: every view a
    table link opens counts the misses of a client address and stops a guesser
    (`troefclub.secret_links`)."""
    return table_link(token=token)


def table_context(
    request: HtmxHttpRequest, link: GameLink, game: Game, **extra: Any
) -> dict[str, Any]:
    """What the table's page shows to the phone of the link's koppel; `extra` carries a
    bound form with its errors, or `action_error`."""
    koppel = link.side
    teams = {"a": game.team_a, "b": game.team_b}
    sheet = game_table_sheet(game=game)
    last = sheet.last_round
    settled = game.confirmed_at is not None or sheet.dispute is not None
    # Closed by the director: frozen for the table, like a confirmed or disputed game.
    frozen = settled or game.status == Game.Status.CLOSED
    # The entering koppel: the one whose link entered the stored rounds; before the first
    # round either koppel may start.
    enters = not sheet.entering or koppel in sheet.entering
    can_enter = enters and game.status == Game.Status.OPEN and not game.by_totals and not settled
    can_verdict = game.is_over and koppel not in sheet.entering and not settled
    context: dict[str, Any] = {
        "competition": game.match.matchday.competition,
        "game": game,
        "link": link,
        "koppel": koppel,
        "koppel_team": teams[koppel],
        "entering_team": teams[sorted(sheet.entering)[0]] if sheet.entering else None,
        "sheet": sheet,
        "lines": sheet.lines,
        "seen": sheet.seen,
        "last_round": last,
        "next_number": len(sheet.lines) + 1,
        "can_enter": can_enter,
        "can_undo": koppel in sheet.entering
        and last is not None
        and last.link_id == link.pk
        and not frozen,
        "can_verdict": can_verdict,
        "confirmed_side_team": teams.get(game.confirmed_side),
        "disputed_by": teams.get(sheet.dispute.side if sheet.dispute else ""),
        # The phone's copy of the rules scores the rounds it queues (static/js/table.js).
        "engine_json": json.dumps(sheet.engine, separators=(",", ":")),
        "results_json": json.dumps({key: str(label) for key, label in RESULT_LABELS.items()}),
        # Not request.path: the partial is also rendered for the queue's JSON answers.
        "page_url": reverse("table_sheet", kwargs={"token": link.token}),
        "release": offline.release(),
        "tap_guard_ms": settings.TABLE_TAP_GUARD_MS,
    }
    # Follow the rounds while they come in on the other phone; never while this phone has
    # a form open that a refresh would wipe (the rounds, a dispute's comment).
    context["poll_seconds"] = (
        TABLE_POLL_SECONDS if not can_enter and not can_verdict and not game.confirmed_at else None
    )
    context["live_seconds"] = TABLE_POLL_SECONDS  # the connection notice's "every … seconds"
    if can_enter:
        context["round_form"] = TableRoundForm(
            game=game,
            expected_caller=sheet.next_caller,
            next_number=len(sheet.lines) + 1,
            seen=sheet.seen,
        )
    if can_verdict:
        context["dispute_form"] = TableDisputeForm(initial={"seen": sheet.seen})
    context.update(extra)
    return context


def table_headers(response: HttpResponse) -> HttpResponse:
    # The page holds the link's secret: not for search engines, nor for shared caches.
    response["X-Robots-Tag"] = "noindex, nofollow"
    # The URL (the secret) is sent as a referrer to this site only. Not "no-referrer": with
    # it Chromium sends `Origin: null` on the page's form posts (the language switch too),
    # which Django's CSRF check refuses ("Origin checking failed - null").
    response["Referrer-Policy"] = "same-origin"
    return response


def table_response(
    request: HtmxHttpRequest, link: GameLink, game: Game, *, status: int = 200, **extra: Any
) -> HttpResponse:
    response = render_page(
        request,
        TABLE_TEMPLATE,
        table_context(request, link, game, **extra),
        partial="table",
        status=status,
    )
    return table_headers(response)


def _game_again(link: GameLink, game: Game) -> Game:
    """The link's `game` (as `game_detail` read it) after a write: its own row read again
    (`game_detail_again`: one query, issue 20)."""
    if game.pk != link.game_id:
        return game_detail(game_id=link.game_id)
    return game_detail_again(game=game)


def _table_after(request: HtmxHttpRequest, link: GameLink, game: Game) -> HttpResponse:
    """PRG for a normal post; for htmx the fresh page's partial."""
    if request.htmx:
        return table_response(request, link, _game_again(link, game))
    return redirect("table_sheet", token=link.token)


def _table_refused(
    request: HtmxHttpRequest, link: GameLink, game: Game, exc: RuleViolation, **extra: Any
) -> HttpResponse:
    """The page again, as it is now, with the refusal in words (422)."""
    if exc.code == "link_invalid":
        return link_invalid(request)
    game = _game_again(link, game)
    message = rule_message(exc, seat_names=seat_names(game))
    return table_response(request, link, game, status=422, action_error=message, **extra)


def _round_sent(form: TableRoundForm, link: GameLink, *, seen: str | None) -> TableRound:
    """Record the round of a valid `form` through `link` (`table_round_record`), built on
    the state `seen` (None: not checked)."""
    return table_round_record(
        token=link.token,
        expected_number=form.cleaned_data["number"],
        result=form.cleaned_data["result"],
        side=form.cleaned_data["side"],
        caller_id=form.caller_id,
        client_key=form.cleaned_data.get("key"),
        seen=seen,
    )


def _table_round(request: HtmxHttpRequest, link: GameLink, game: Game) -> HttpResponse:
    """Record the next round (`table_round_record`): a big button's gewone winst, or the
    result chosen. A double tap finds the round stored once and says so."""
    form = TableRoundForm(request.POST, game=game)
    if not form.is_valid():
        return table_response(request, link, game, status=422, round_form=form)
    try:
        # A page from before the key and token (or a hand-made post) sends none: the round
        # number alone then guards against a double tap, as before.
        sent = _round_sent(form, link, seen=form.cleaned_data["seen"] or None)
    except RuleViolation as exc:
        if exc.code == "round_already_recorded":
            messages.info(request, rule_message(exc))
            return _table_after(request, link, game)
        return _table_refused(request, link, game, exc)
    rnd = sent.round
    if sent.stored_already:
        stored = RuleViolation("round_already_recorded", number=rnd.number)
        messages.info(request, rule_message(stored))
    else:
        messages.success(
            request,
            _("Round %(number)s recorded: %(summary)s")
            % {"number": rnd.number, "summary": round_summary(rnd, game)},
        )
    return _table_after(request, link, game)


UNDONE_ALREADY = gettext_lazy(
    "That round is no longer on the sheet (undone already: the button was pressed twice)."
)


def _table_undo(request: HtmxHttpRequest, link: GameLink, game: Game) -> HttpResponse:
    """Undo the table's own last round (`table_round_undo`)."""
    form = TableUndoForm(request.POST)
    if not form.is_valid():
        return table_response(request, link, game, status=422, action_error=form_error(form))
    round_id = form.cleaned_data["round"]
    try:
        number = table_round_undo(
            token=link.token, round_id=round_id, seen=form.cleaned_data["seen"]
        )
    except RuleViolation as exc:
        gone = (
            not Round.objects.filter(pk=round_id).exists()
            and Round.history.filter(id=round_id, game_id=game.pk).exists()
        )
        if exc.code == "round_unknown" and gone:
            messages.info(request, str(UNDONE_ALREADY))
            return _table_after(request, link, game)
        return _table_refused(request, link, game, exc)
    messages.success(request, _("Round %(number)s undone.") % {"number": number})
    return _table_after(request, link, game)


def _table_confirm(request: HtmxHttpRequest, link: GameLink, game: Game) -> HttpResponse:
    """The other koppel confirms the result through its own link (`table_game_confirm`)."""
    form = TableConfirmForm(request.POST)
    if not form.is_valid():
        return table_response(request, link, game, status=422, action_error=form_error(form))
    try:
        table_game_confirm(token=link.token, seen=form.cleaned_data["seen"])
    except RuleViolation as exc:
        return _table_refused(request, link, game, exc)
    messages.success(request, _("Thank you: the result is confirmed."))
    return _table_after(request, link, game)


def _table_dispute(request: HtmxHttpRequest, link: GameLink, game: Game) -> HttpResponse:
    """The other koppel disputes the result, saying why (`table_game_dispute`)."""
    form = TableDisputeForm(request.POST)
    if not form.is_valid():
        return table_response(request, link, game, status=422, dispute_form=form)
    try:
        table_game_dispute(
            token=link.token, comment=form.cleaned_data["comment"], seen=form.cleaned_data["seen"]
        )
    except RuleViolation as exc:
        return _table_refused(request, link, game, exc, dispute_form=form)
    messages.success(request, _("Your dispute is with the director, who will decide."))
    return _table_after(request, link, game)


TABLE_ACTIONS: dict[str, TableAction] = {
    "round": _table_round,
    "undo": _table_undo,
    "confirm": _table_confirm,
    "dispute": _table_dispute,
}


@never_cache
@require_http_methods(["GET", "POST"])
@secret_link(link_of, invalid=link_invalid)
def table_sheet(request: HtmxHttpRequest, link: GameLink) -> HttpResponse:
    """The table's own score page of one koppel, on a phone, without an account
    (`/t/<token>/`).

    The entering koppel records rounds (a big button for the most common one) and undoes
    its last; once the game is over the other koppel confirms or disputes through its own
    link. A POST carries one `action` (`TABLE_ACTIONS`). An unknown or revoked link is a
    friendly 404; guessing links is throttled (`secret_link`).
    """
    game = game_detail(game_id=link.game_id)
    if request.method == "POST":
        action = TABLE_ACTIONS.get(request.POST.get("action", ""))
        if action is None:
            return table_response(
                request, link, game, status=422, action_error=str(FORM_INCOMPLETE)
            )
        return action(request, link, game)
    return table_response(request, link, game)


# ---------------------------------------------------------------- the phone's queue


def _sent_answer(
    request: HtmxHttpRequest, link: GameLink, game: Game, status: int, answer: dict[str, Any]
) -> JsonResponse:
    """The JSON answer to a queued round; with `html` (the page's fresh partial) when the
    phone asked for it (`html=1`, which the queue sends with every round: a sync cut off
    halfway leaves the phone's kept copy of the page no older than its last stored round),
    so one request both stores the round and brings the sheet up to date."""
    if request.POST.get("html") == "1":
        game = _game_again(link, game)
        answer["html"] = render_to_string(
            f"{TABLE_TEMPLATE}#table", table_context(request, link, game), request=request
        )
    # Names as they are (no \u escapes): the answer is the size of today's htmx partial.
    response = JsonResponse(answer, status=status, json_dumps_params={"ensure_ascii": False})
    table_headers(response)
    return response


def _link_invalid_answer(request: HtmxHttpRequest) -> HttpResponse:
    return JsonResponse(
        {"refused": "link_invalid", "message": rule_message(RuleViolation("link_invalid"))},
        status=404,
    )


@never_cache
@require_POST
@secret_link(link_of, invalid=_link_invalid_answer)
def table_round_send(request: HtmxHttpRequest, link: GameLink) -> HttpResponse:
    """One round of the phone's queue (`/t/<token>/round/`, static/js/table.js): stored
    once, in order, or refused with the reason; answered in JSON.

    The form is `TableRoundForm`'s, with the round's `key` (required here) and `seen`
    (the `game_token` of the state the phone built it on). Answers:

    - 200 `{"stored": true, "already": bool, "number": n, "token": t, "rounds": r}`:
      stored now, or by an earlier send of the same key (`already`). `token` is the game's
      token for the next queued round ("" when the game changed since by more than this
      link's own rounds: the next one is then refused), `rounds` the rounds stored now.
    - 409 `{"refused": code, "message": words, "token": t, "rounds": r}`: not stored (the
      rules, or the game changed meanwhile); `token` is the game's token now, for a
      round entered again on purpose.
    - 404 `{"refused": "link_invalid", ...}`: a revoked or unknown link.
    - 429, a page (not JSON: the queue keeps the round and sends it later): too many
      unknown links from this address (`secret_link`); never to a phone that opened this
      link before.
    """
    game = game_detail(game_id=link.game_id)
    form = TableRoundForm(request.POST, game=game, key_required=True)
    if not form.is_valid():
        return _sent_answer(
            request, link, game, 409, {"refused": "form_invalid", "message": form_error(form)}
        )
    try:
        # Always checked: an empty `seen` (a replay that found the game changed) refuses.
        sent = _round_sent(form, link, seen=form.cleaned_data["seen"])
    except RuleViolation as exc:
        answer: dict[str, Any] = {"refused": exc.code}
        if exc.code == "link_invalid":
            answer["message"] = rule_message(exc)
            return JsonResponse(answer, status=404)
        game = _game_again(link, game)
        answer["message"] = rule_message(exc, seat_names=seat_names(game))
        answer["token"] = game_table_sheet(game=game).seen
        answer["rounds"] = game.rounds.count()
        return _sent_answer(request, link, game, 409, answer)
    return _sent_answer(
        request,
        link,
        game,
        200,
        {
            "stored": True,
            "already": sent.stored_already,
            "number": sent.round.number,
            "token": sent.game_token,
            "rounds": sent.rounds,
        },
    )
