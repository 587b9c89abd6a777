"""Scoring at the table (issue 8): the table's own phone page, and the director's pages for
it (a game's link with its QR code, the queue of disputes and unconfirmed results).

The table's page needs no account: whoever holds the game's link (`GameLink.token`) may
score that game, and only that game. The phone says once which koppel it is (kept in the
session, per link): one koppel enters the rounds, the other confirms or disputes the
result. A revoked or unknown link is a friendly 404 page.

Same shape as `scoring.views`: a POST carries one `action`, validated by its form, calls
ONE service, and redirects back (PRG), or answers an htmx request with the page's partial.
A `RuleViolation` becomes words (`rule_message`), status 422, nothing saved. A form sent
twice (a double tap, a retried request) is answered as done, never stored twice.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from scoring.forms.sheet import seat_names
from scoring.forms.table import (
    AcceptAllForm,
    DisputeResolveForm,
    LinkRevokeForm,
    QueueGameForm,
    TableConfirmForm,
    TableDisputeForm,
    TableKoppelForm,
    TableRoundForm,
    TableUndoForm,
)
from scoring.models import Game, GameDispute, GameLink, Round
from scoring.rules import RuleViolation
from scoring.selectors import table
from scoring.selectors.sheet import game_detail
from scoring.selectors.table import game_table_sheet, table_link
from scoring.services.confirmations import (
    game_confirm,
    game_dispute_resolve,
    game_table_reject,
    games_accept_all,
    table_game_confirm,
    table_game_dispute,
)
from scoring.services.table import (
    game_link_revoke,
    game_links_ensure,
    table_round_record,
    table_round_undo,
)
from scoring.views.common import game_for
from scoring.views.sheet import round_summary
from tournaments.lookups import competition_for
from tournaments.models import Competition
from troefclub.access import HtmxHttpRequest, director_required
from troefclub.pages import render_page
from troefclub.rule_messages import rule_message
from troefclub.site import absolute_url

TABLE_TEMPLATE = "scoring/table_sheet.html"
QUEUE_TEMPLATE = "scoring/table_queue.html"
# The other koppel's phone follows the rounds as they are entered (htmx polling).
TABLE_POLL_SECONDS = 10
QUEUE_POLL_SECONDS = 30

TableAction = Callable[[HtmxHttpRequest, GameLink, Game, str], HttpResponse]

FORM_INCOMPLETE = gettext_lazy(
    "This form was not sent from this page (something is missing): reload the page and try again."
)


def _form_error(form: Any) -> str:
    """The first error of a form, in words (for the buttons whose fields are hidden)."""
    for errors in form.errors.values():
        return " ".join(str(error) for error in errors)
    return str(FORM_INCOMPLETE)


# ---------------------------------------------------------------- the table's phone page


def _koppel_key(link: GameLink) -> str:
    # Per link (not per game): a revoked link's choice doesn't carry over to the new one.
    return f"table-koppel-{link.pk}"


# The phone that entered the rounds doesn't confirm or dispute them, whichever koppel it
# says it is after "Not you?" (else one koppel could confirm its own result). The session
# keeps the rounds this browser entered, per game (a revoked link's new one included);
# rounds undone or removed since no longer count, so after a rejection the table can start
# again either way. A cleared cookie (or another browser) gets around it: the service's
# own koppel check stays, and the game's history shows who entered and who confirmed.
ENTERED_HERE = gettext_lazy(
    "This phone entered the rounds: the opponents confirm or dispute the result on their own phone."
)


def _entered_key(game_id: int) -> str:
    return f"table-entered-{game_id}"


def _entered_remember(request: HtmxHttpRequest, rnd: Round) -> None:
    key = _entered_key(rnd.game_id)
    ids = request.session.get(key, [])
    if rnd.pk not in ids:
        request.session[key] = [*ids, rnd.pk]


def _entered_here(request: HtmxHttpRequest, game: Game) -> bool:
    """Whether this browser entered a round that is on `game`'s sheet now."""
    ids = request.session.get(_entered_key(game.pk), [])
    return bool(ids) and Round.objects.filter(game_id=game.pk, pk__in=ids).exists()


def link_invalid(request: HtmxHttpRequest) -> HttpResponse:
    """The friendly 404 of a revoked or unknown table link."""
    return render(request, "scoring/table_invalid.html", status=404)


def table_context(
    request: HtmxHttpRequest, link: GameLink, game: Game, koppel: str, **extra: Any
) -> dict[str, Any]:
    """What the table's page shows to the phone of `koppel` ("" before it said which
    koppel it is); `extra` carries a bound form with its errors, or `action_error`."""
    sheet = game_table_sheet(game=game, link=link)
    last = sheet.last_round
    settled = game.confirmed_at is not None or sheet.dispute is not None
    # Closed by the director: frozen for the table, like a confirmed or disputed game.
    frozen = settled or game.status == Game.Status.CLOSED
    # The entering koppel: the link's, or this phone's while no round fixed it yet.
    enters = bool(koppel) and link.entering_side in ("", koppel)
    can_enter = enters and game.status == Game.Status.OPEN and not game.by_totals and not settled
    entered = set(request.session.get(_entered_key(game.pk), []))
    entered_here = any(row.round.pk in entered for row, _label in sheet.lines)
    context: dict[str, Any] = {
        "competition": game.match.matchday.competition,
        "game": game,
        "link": link,
        "koppel": koppel,
        "koppel_team": {"a": game.team_a, "b": game.team_b}.get(koppel),
        "entering_team": {"a": game.team_a, "b": game.team_b}.get(link.entering_side),
        "sheet": sheet,
        "lines": sheet.lines,
        "seen": sheet.seen,
        "last_round": last,
        "next_number": len(sheet.lines) + 1,
        "can_enter": can_enter,
        "can_undo": bool(koppel)
        and link.entering_side == koppel
        and last is not None
        and last.link_id == link.pk
        and not frozen,
        "can_verdict": bool(koppel)
        and game.is_over
        and koppel not in sheet.entering
        and not entered_here
        and not settled,
        "entered_here": entered_here,
        "confirmed_side_team": {"a": game.team_a, "b": game.team_b}.get(game.confirmed_side),
        "disputed_by": {"a": game.team_a, "b": game.team_b}.get(
            sheet.dispute.side if sheet.dispute else ""
        ),
    }
    # Follow the rounds while they come in on the other phone; never while this phone has
    # a form open that a refresh would wipe (the rounds, a dispute's comment).
    context["poll_seconds"] = (
        TABLE_POLL_SECONDS
        if koppel and not can_enter and not context["can_verdict"] and not game.confirmed_at
        else None
    )
    context["live_seconds"] = TABLE_POLL_SECONDS  # the connection notice's "every … seconds"
    if can_enter:
        context["round_form"] = TableRoundForm(
            game=game, expected_caller=sheet.next_caller, next_number=len(sheet.lines) + 1
        )
    if context["can_verdict"]:
        context["dispute_form"] = TableDisputeForm(initial={"seen": sheet.seen})
    context.update(extra)
    return context


def table_response(
    request: HtmxHttpRequest,
    link: GameLink,
    game: Game,
    koppel: str,
    *,
    status: int = 200,
    **extra: Any,
) -> HttpResponse:
    response = render_page(
        request,
        TABLE_TEMPLATE,
        table_context(request, link, game, koppel, **extra),
        partial="table",
        status=status,
    )
    # The page holds the link's secret: not for search engines, nor for shared caches.
    response["X-Robots-Tag"] = "noindex, nofollow"
    # The URL (the secret) is sent as a referrer to this site only. Not "no-referrer": with
    # it Chromium sends `Origin: null` on the page's form posts (the language switch too),
    # which Django's CSRF check refuses ("Origin checking failed - null").
    response["Referrer-Policy"] = "same-origin"
    return response


def _table_after(request: HtmxHttpRequest, link: GameLink) -> HttpResponse:
    """PRG for a normal post; for htmx the fresh page's partial."""
    if request.htmx:
        game = game_detail(game_id=link.game_id)
        link.refresh_from_db(fields=["entering_side"])
        return table_response(request, link, game, request.session.get(_koppel_key(link), ""))
    return redirect("table_sheet", token=link.token)


def _table_refused(
    request: HtmxHttpRequest, link: GameLink, koppel: str, exc: RuleViolation, **extra: Any
) -> HttpResponse:
    """The page again, as it is now, with the refusal in words (422)."""
    if exc.code == "link_invalid":
        return link_invalid(request)
    game = game_detail(game_id=link.game_id)
    link.refresh_from_db(fields=["entering_side"])
    message = rule_message(exc, seat_names=seat_names(game))
    return table_response(request, link, game, koppel, status=422, action_error=message, **extra)


def _table_koppel(
    request: HtmxHttpRequest, link: GameLink, game: Game, koppel: str
) -> HttpResponse:
    """ "Which koppel are you?": remembered in this phone's session for this link."""
    form = TableKoppelForm(request.POST)
    if not form.is_valid():
        return _table_refused(request, link, koppel, RuleViolation("koppel_unknown"))
    request.session[_koppel_key(link)] = form.cleaned_data["koppel"]
    return _table_after(request, link)


def _table_forget(
    request: HtmxHttpRequest, link: GameLink, game: Game, koppel: str
) -> HttpResponse:
    """ "Not this koppel": the phone asks again."""
    request.session.pop(_koppel_key(link), None)
    return _table_after(request, link)


def _table_round(request: HtmxHttpRequest, link: GameLink, game: Game, koppel: str) -> HttpResponse:
    """Record the next round (`table_round_record`): a big button's gewone winst, or the
    result chosen. A double tap finds the round stored once and says so."""
    form = TableRoundForm(request.POST, game=game)
    if not form.is_valid():
        return table_response(request, link, game, koppel, status=422, round_form=form)
    try:
        rnd = table_round_record(
            token=link.token,
            koppel=koppel,
            expected_number=form.cleaned_data["number"],
            result=form.cleaned_data["result"],
            side=form.cleaned_data["side"],
            caller_id=form.caller_id,
        )
    except RuleViolation as exc:
        if exc.code == "round_already_recorded":
            messages.info(request, rule_message(exc))
            return _table_after(request, link)
        return _table_refused(request, link, koppel, exc)
    _entered_remember(request, rnd)
    messages.success(
        request,
        _("Round %(number)s recorded: %(summary)s")
        % {"number": rnd.number, "summary": round_summary(rnd, game)},
    )
    return _table_after(request, link)


UNDONE_ALREADY = gettext_lazy(
    "That round is no longer on the sheet (undone already: the button was pressed twice)."
)


def _table_undo(request: HtmxHttpRequest, link: GameLink, game: Game, koppel: str) -> HttpResponse:
    """Undo the table's own last round (`table_round_undo`)."""
    form = TableUndoForm(request.POST)
    if not form.is_valid():
        return table_response(
            request, link, game, koppel, status=422, action_error=_form_error(form)
        )
    round_id = form.cleaned_data["round"]
    try:
        number = table_round_undo(
            token=link.token, koppel=koppel, round_id=round_id, seen=form.cleaned_data["seen"]
        )
    except RuleViolation as exc:
        gone = (
            not Round.objects.filter(pk=round_id).exists()
            and Round.history.filter(id=round_id, game_id=game.pk).exists()
        )
        if exc.code == "round_unknown" and gone:
            messages.info(request, str(UNDONE_ALREADY))
            return _table_after(request, link)
        return _table_refused(request, link, koppel, exc)
    messages.success(request, _("Round %(number)s undone.") % {"number": number})
    return _table_after(request, link)


def _table_confirm(
    request: HtmxHttpRequest, link: GameLink, game: Game, koppel: str
) -> HttpResponse:
    """The other koppel confirms the result (`table_game_confirm`)."""
    form = TableConfirmForm(request.POST)
    if not form.is_valid():
        return table_response(
            request, link, game, koppel, status=422, action_error=_form_error(form)
        )
    if _entered_here(request, game):
        return table_response(
            request, link, game, koppel, status=422, action_error=str(ENTERED_HERE)
        )
    try:
        table_game_confirm(token=link.token, koppel=koppel, seen=form.cleaned_data["seen"])
    except RuleViolation as exc:
        return _table_refused(request, link, koppel, exc)
    messages.success(request, _("Thank you: the result is confirmed."))
    return _table_after(request, link)


def _table_dispute(
    request: HtmxHttpRequest, link: GameLink, game: Game, koppel: str
) -> HttpResponse:
    """The other koppel disputes the result, saying why (`table_game_dispute`)."""
    form = TableDisputeForm(request.POST)
    if not form.is_valid():
        return table_response(request, link, game, koppel, status=422, dispute_form=form)
    if _entered_here(request, game):
        return table_response(
            request, link, game, koppel, status=422, action_error=str(ENTERED_HERE)
        )
    try:
        table_game_dispute(
            token=link.token,
            koppel=koppel,
            comment=form.cleaned_data["comment"],
            seen=form.cleaned_data["seen"],
        )
    except RuleViolation as exc:
        return _table_refused(request, link, koppel, exc, dispute_form=form)
    messages.success(request, _("Your dispute is with the director, who will decide."))
    return _table_after(request, link)


TABLE_ACTIONS: dict[str, TableAction] = {
    "koppel": _table_koppel,
    "forget": _table_forget,
    "round": _table_round,
    "undo": _table_undo,
    "confirm": _table_confirm,
    "dispute": _table_dispute,
}


@never_cache
@require_http_methods(["GET", "POST"])
def table_sheet(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The table's own score page, on a phone, without an account (`/t/<token>/`).

    First it asks which koppel the phone is; the entering koppel records rounds (a big
    button for the most common one), undoes its last; once the game is over the other
    koppel confirms or disputes. A POST carries one `action` (`TABLE_ACTIONS`).
    """
    link = table_link(token=token)
    if link is None:
        return link_invalid(request)
    game = game_detail(game_id=link.game_id)
    koppel = request.session.get(_koppel_key(link), "")
    if request.method == "POST":
        action = TABLE_ACTIONS.get(request.POST.get("action", ""))
        if action is None:
            return table_response(
                request, link, game, koppel, status=422, action_error=str(FORM_INCOMPLETE)
            )
        return action(request, link, game, koppel)
    return table_response(request, link, game, koppel)


# ---------------------------------------------------------------- the director's link page


@require_http_methods(["GET", "POST"])
@director_required(game_for)
def game_link(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """A game's table link and its QR code, for the director; a POST revokes the link
    shown (`game_link_revoke`) and the page shows the new one."""
    if request.method == "POST":
        form = LinkRevokeForm(request.POST)
        if not form.is_valid():
            messages.error(request, _form_error(form))
        else:
            try:
                game_link_revoke(game_id=game.pk, link_id=form.cleaned_data["link"])
            except RuleViolation as exc:
                messages.error(request, rule_message(exc))
            else:
                messages.success(
                    request,
                    _("The old link no longer works. Here is the new one: give it to the table."),
                )
        return redirect("game_link", slug=game.match.matchday.competition.slug, game_id=game.pk)
    link = game_links_ensure(game_ids=[game.pk])[game.pk]
    context = {
        "competition": game.match.matchday.competition,
        "game": game,
        "link": link,
        "entering_team": {"a": game.team_a, "b": game.team_b}.get(link.entering_side),
        "url": absolute_url(reverse("table_sheet", kwargs={"token": link.token}), request),
        "revoke_form": LinkRevokeForm(initial={"link": link.pk}),
    }
    response = render(request, "scoring/table_link.html", context)
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


# ---------------------------------------------------------------- the director's queue


def queue_context(competition: Competition, **extra: Any) -> dict[str, Any]:
    wait = settings.TABLE_CONFIRM_WAIT_MINUTES
    queue = table.director_queue(competition=competition, wait=timedelta(minutes=wait))
    return {
        "competition": competition,
        "queue": queue,
        "wait_minutes": wait,
        "poll_seconds": QUEUE_POLL_SECONDS,
        "accept_all_form": AcceptAllForm(
            initial={"games": [f"{item.game.pk}:{item.seen}" for item in queue.waiting]}
        ),
        **extra,
    }


def queue_response(
    request: HtmxHttpRequest, competition: Competition, *, status: int = 200, **extra: Any
) -> HttpResponse:
    return render_page(
        request, QUEUE_TEMPLATE, queue_context(competition, **extra), partial="queue", status=status
    )


def _queue_game(competition: Competition, game_id: int) -> Game:
    """A game of `competition`; another competition's game is a 404 (a forged form)."""
    return get_object_or_404(Game, pk=game_id, match__matchday__competition=competition)


def _queue_resolve(request: HtmxHttpRequest, competition: Competition) -> str:
    form = DisputeResolveForm(request.POST)
    if not form.is_valid():
        raise _Refused(_form_error(form))
    dispute = get_object_or_404(
        GameDispute.objects.select_related("game"),
        pk=form.cleaned_data["dispute"],
        game__match__matchday__competition=competition,
    )
    resolution = form.cleaned_data["resolution"]
    game_dispute_resolve(
        dispute_id=dispute.pk,
        resolution=resolution,
        user=request.user,
        seen=form.cleaned_data["seen"],
    )
    return {
        GameDispute.Resolution.ACCEPTED: _("Dispute decided: the result stands and is confirmed."),
        GameDispute.Resolution.CORRECTED: _("Dispute decided: the corrected result is confirmed."),
        GameDispute.Resolution.REJECTED: _(
            "Dispute decided: the rounds were removed, the table enters the game again."
        ),
    }[resolution]


def _queue_accept(request: HtmxHttpRequest, competition: Competition) -> str:
    form = QueueGameForm(request.POST)
    if not form.is_valid():
        raise _Refused(_form_error(form))
    game = _queue_game(competition, form.cleaned_data["game"])
    game_confirm(game_id=game.pk, user=request.user, seen=form.cleaned_data["seen"])
    return _("Result confirmed: it counts in the standings.")


def _queue_reject(request: HtmxHttpRequest, competition: Competition) -> str:
    form = QueueGameForm(request.POST)
    if not form.is_valid():
        raise _Refused(_form_error(form))
    game = _queue_game(competition, form.cleaned_data["game"])
    game_table_reject(game_id=game.pk, user=request.user, seen=form.cleaned_data["seen"])
    return _("The rounds were removed: the table enters the game again.")


def _queue_accept_all(request: HtmxHttpRequest, competition: Competition) -> str:
    form = AcceptAllForm(request.POST)
    if not form.is_valid():
        raise _Refused(_form_error(form))
    accepted = games_accept_all(
        competition_id=competition.pk, user=request.user, seen=form.cleaned_data["games"]
    )
    listed = len(form.cleaned_data["games"])
    if len(accepted) == listed:
        return ngettext(
            "%(count)s result confirmed.", "%(count)s results confirmed.", len(accepted)
        ) % {"count": len(accepted)}
    if not accepted:
        return _(
            "No result was confirmed: they were confirmed already (the button was pressed "
            "twice?), or changed meanwhile. Here is the queue as it is now."
        )
    return ngettext(
        "%(count)s result confirmed; %(left)s changed meanwhile or were settled already: "
        "look at them again below.",
        "%(count)s results confirmed; %(left)s changed meanwhile or were settled already: "
        "look at them again below.",
        len(accepted),
    ) % {"count": len(accepted), "left": listed - len(accepted)}


class _Refused(Exception):
    """A queue form that was not sent from the queue page: said in words, 422."""


QUEUE_ACTIONS: dict[str, Callable[[HtmxHttpRequest, Competition], str]] = {
    "resolve": _queue_resolve,
    "accept": _queue_accept,
    "reject": _queue_reject,
    "accept_all": _queue_accept_all,
}


@require_http_methods(["GET", "POST"])
@director_required(competition_for)
def director_queue(request: HtmxHttpRequest, competition: Competition) -> HttpResponse:
    """The director's queue: disputes raised at the tables, and results over but not
    confirmed for longer than `settings.TABLE_CONFIRM_WAIT_MINUTES` (competitions that ask
    for confirmation). Each can be accepted, corrected on its score sheet, or rejected
    (the table enters it again); "accept all" accepts the waiting results listed."""
    if request.method != "POST":
        return queue_response(request, competition)
    action = QUEUE_ACTIONS.get(request.POST.get("action", ""))
    if action is None:
        return queue_response(request, competition, status=422, action_error=FORM_INCOMPLETE)
    try:
        done = action(request, competition)
    except _Refused as refused:
        return queue_response(request, competition, status=422, action_error=str(refused))
    except RuleViolation as exc:
        if exc.code == "dispute_resolved_already":
            messages.info(request, rule_message(exc))
            return _queue_after(request, competition)
        return queue_response(request, competition, status=422, action_error=rule_message(exc))
    messages.success(request, done)
    return _queue_after(request, competition)


def _queue_after(request: HtmxHttpRequest, competition: Competition) -> HttpResponse:
    if request.htmx:
        return queue_response(request, competition)
    return redirect("director_queue", slug=competition.slug)
