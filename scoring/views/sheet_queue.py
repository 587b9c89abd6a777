"""The director's score sheet's offline queue (issue 18): one queued round a request.

The sheet's script (static/js/sheet_queue.js, on static/js/table_queue.js) queues each
round the director enters in IndexedDB and sends the queue in order to `sheet_round_send`
(`/c/<slug>/game/<id>/sheet/round/`), each round with its idempotency key and the game
token it was built on: stored once, in order, or refused with the reason. Corrections,
deletes, undo and totals stay online-only (the sheet's own forms).
"""

from __future__ import annotations

from typing import Any

from django.http import JsonResponse
from django.template.loader import render_to_string
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from scoring.forms.sheet import QueuedRoundForm, seat_names
from scoring.models import Game
from scoring.rules import RuleViolation
from scoring.services.rounds import game_round_send
from scoring.tokens import game_token_now
from scoring.views.common import game_for
from scoring.views.sheet import SHEET_TEMPLATE, game_again, sheet_context
from troefclub.access import HtmxHttpRequest, director_required
from troefclub.rule_messages import rule_message

# The refusals that say the game moved on under the queue (409); the rules' own are 422.
CHANGED_CODES = frozenset(
    {"game_changed_meanwhile", "round_removed_meanwhile", "sheet_changed", "sheet_rounds_removed"}
)


def _answer(
    request: HtmxHttpRequest, game: Game, status: int, answer: dict[str, Any]
) -> JsonResponse:
    """The JSON answer, with the fresh sheet partial (`html`) when the queue asked for it
    (`html=1`: one request stores the round and brings the sheet up to date)."""
    fresh = game_again(game)
    # A stored round's answer carries the count read with its token (`SentRound.rounds`).
    answer.setdefault("rounds", fresh.rounds.count())
    if request.POST.get("html") == "1":
        answer["html"] = render_to_string(
            f"{SHEET_TEMPLATE}#sheet", sheet_context(request, fresh), request=request
        )
    return JsonResponse(answer, status=status, json_dumps_params={"ensure_ascii": False})


@never_cache
@require_POST
@director_required(game_for)
def sheet_round_send(request: HtmxHttpRequest, game: Game) -> JsonResponse:
    """One round of the score sheet's queue (`game_round_send`), answered in JSON.

    The form is `QueuedRoundForm` (`RoundForm` with `key` and `seen`). Answers:

    - 200 `{"stored": true, "already": bool, "number": n, "token": t, "rounds": r}`:
      stored now, or by an earlier send of the same key (`already`); `token` is the
      game's token for the next queued round ("" when the game changed since by more
      than this director's own rounds: the next one is then refused).
    - 409 `{"refused": code, "message": words, "token": t, "rounds": r}`: the game changed
      meanwhile (a table phone's round, another director, a close or a correction).
    - 422 the same shape: refused by the rules (the message in the user's language), or
      a form that does not come from the sheet.

    Only the competition's directors (`director_required`, as the sheet): anyone else
    gets the login page or a 403, and nothing is written.
    """
    form = QueuedRoundForm(request.POST, game=game)
    if not form.is_valid():
        errors = [str(error) for error in form.non_field_errors()]
        errors += [
            str(e) for name, field in form.errors.items() if name != "__all__" for e in field
        ]
        return _answer(
            request,
            game,
            422,
            {
                "refused": "form_invalid",
                "message": " ".join(errors),
                "token": game_token_now(game_id=game.pk),
            },
        )
    try:
        sent = game_round_send(
            game_id=game.pk,
            expected_number=form.cleaned_data["number"],
            result=form.cleaned_data["result"],
            side=form.cleaned_data["side"],
            caller_id=form.caller_id,
            tricks=form.tricks,
            client_key=form.cleaned_data["key"],
            seen=form.cleaned_data["seen"],
            user=request.user,
        )
    except RuleViolation as exc:
        status = 409 if exc.code in CHANGED_CODES else 422
        message = rule_message(exc, seat_names=seat_names(game_again(game)))
        answer = {"refused": exc.code, "message": message, "token": game_token_now(game_id=game.pk)}
        return _answer(request, game, status, answer)
    return _answer(
        request,
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
