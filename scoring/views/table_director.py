"""The director's pages of scoring at the table (issue 8): a game's two table links (one
per koppel) with their QR codes, and the queue of disputes and unconfirmed results.

Same shape as `scoring.views`: a POST carries one `action`, validated by its form, calls
ONE service, and redirects back (PRG), or answers an htmx request with the page's partial.
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
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from scoring.forms.table import (
    AcceptAllForm,
    DisputeResolveForm,
    LinkRevokeForm,
    QueueGameForm,
)
from scoring.models import Game, GameDispute
from scoring.rules import RuleViolation
from scoring.selectors import table
from scoring.services.confirmations import (
    game_confirm,
    game_dispute_resolve,
    game_table_reject,
    games_accept_all,
)
from scoring.services.table import game_link_revoke, game_links_ensure
from scoring.views.common import game_for
from scoring.views.table import FORM_INCOMPLETE, form_error
from tournaments.lookups import competition_for
from tournaments.models import Competition
from troefclub.access import HtmxHttpRequest, director_required
from troefclub.pages import render_page
from troefclub.rule_messages import rule_message
from troefclub.site import absolute_url

QUEUE_TEMPLATE = "scoring/table_queue.html"
QUEUE_POLL_SECONDS = 30


# ---------------------------------------------------------------- the director's link page


@require_http_methods(["GET", "POST"])
@director_required(game_for)
def game_link(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """A game's two table links (one per koppel) with their QR codes, for the director; a
    POST revokes the link chosen (`game_link_revoke`) and the page shows its new one."""
    if request.method == "POST":
        form = LinkRevokeForm(request.POST)
        if not form.is_valid():
            messages.error(request, form_error(form))
        else:
            try:
                game_link_revoke(game_id=game.pk, link_id=form.cleaned_data["link"])
            except RuleViolation as exc:
                messages.error(request, rule_message(exc))
            else:
                messages.success(
                    request,
                    _("The old link no longer works. Here is the new one: give it to the koppel."),
                )
        return redirect("game_link", slug=game.match.matchday.competition.slug, game_id=game.pk)
    links = game_links_ensure(game_ids=[game.pk])[game.pk]
    teams = {"a": game.team_a, "b": game.team_b}
    entering = table.game_entering_koppels(game=game)
    context = {
        "competition": game.match.matchday.competition,
        "game": game,
        "entering_team": teams[sorted(entering)[0]] if entering else None,
        "koppels": [
            {
                "side": side,
                "team": teams[side],
                "link": links[side],
                "url": absolute_url(
                    reverse("table_sheet", kwargs={"token": links[side].token}), request
                ),
                "revoke_form": LinkRevokeForm(initial={"link": links[side].pk}),
            }
            for side in ("a", "b")
        ],
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
        raise _Refused(form_error(form))
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
        raise _Refused(form_error(form))
    game = _queue_game(competition, form.cleaned_data["game"])
    game_confirm(game_id=game.pk, user=request.user, seen=form.cleaned_data["seen"])
    return _("Result confirmed: it counts in the standings.")


def _queue_reject(request: HtmxHttpRequest, competition: Competition) -> str:
    form = QueueGameForm(request.POST)
    if not form.is_valid():
        raise _Refused(form_error(form))
    game = _queue_game(competition, form.cleaned_data["game"])
    game_table_reject(game_id=game.pk, user=request.user, seen=form.cleaned_data["seen"])
    return _("The rounds were removed: the table enters the game again.")


def _queue_accept_all(request: HtmxHttpRequest, competition: Competition) -> str:
    form = AcceptAllForm(request.POST)
    if not form.is_valid():
        raise _Refused(form_error(form))
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
