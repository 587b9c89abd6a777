"""The director's pages of issue 22: withdrawals of a competition's entries (withdraw from
a matchday on, reinstate) and the check-in of an evening (who is present).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.db.models import Max
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scoring.forms.withdrawals import CheckInForm, WithdrawForm
from scoring.rules import RuleViolation
from scoring.selectors.results import result_holders
from scoring.services.checkins import checkin_record
from scoring.services.withdrawals import entry_reinstate, entry_withdraw
from tournaments.lookups import competition_for
from tournaments.models import CheckIn, Competition, Entry, Withdrawal
from tournaments.selectors import ENTRY_JOINS, competition_entries
from troefclub.access import HtmxHttpRequest, director_required
from troefclub.pages import render_page
from troefclub.rule_messages import rule_message


def _withdrawals_context(competition: Competition, **extra: Any) -> dict[str, Any]:
    withdrawals = list(
        Withdrawal.objects.filter(entry__competition=competition)
        .select_related(*(f"entry__{join}" for join in ENTRY_JOINS))
        .order_by("from_matchday", "pk")
    )
    # The first matchday not played yet: where a withdrawal usually starts.
    matchdays = competition.matchdays.order_by("number")
    unplayed = matchdays.exclude(pk__in=result_holders(matchdays).values("pk"))
    first = unplayed.values_list("number", flat=True).first()
    last = matchdays.reverse().values_list("number", flat=True).first()
    context: dict[str, Any] = {
        "competition": competition,
        "withdrawals": withdrawals,
        "form": WithdrawForm(
            competition=competition,
            prefix="withdraw",
            initial={"from_matchday": first or (last or 0) + 1},
        ),
    }
    context.update(extra)
    return context


def _withdrawals_page(
    request: HtmxHttpRequest, competition: Competition, *, status: int = 200, **extra: Any
) -> HttpResponse:
    return render_page(
        request,
        "scoring/withdrawals_manage.html",
        _withdrawals_context(competition, **extra),
        partial="withdrawals",
        status=status,
    )


@require_http_methods(["GET", "POST"])
@director_required(competition_for)
def withdrawals_manage(request: HtmxHttpRequest, competition: Competition) -> HttpResponse:
    """The competition's withdrawals: withdraw an entry (with its reason and a
    confirmation), reinstate one (`entry_withdraw`, `entry_reinstate`)."""
    if request.method != "POST":
        return _withdrawals_page(request, competition)
    action = request.POST.get("action", "")
    if action == "reinstate":
        entry_id = request.POST.get("entry", "")
        # isdecimal, not isdigit: "²" is a digit int() refuses.
        entry = Entry.objects.filter(
            competition=competition, pk=int(entry_id) if entry_id.isdecimal() else 0
        ).first()
        if entry is None:
            error = rule_message(RuleViolation("entry_unknown", entry=entry_id[:20]))
            return _withdrawals_page(request, competition, status=422, action_error=error)
        try:
            entry_reinstate(entry_id=entry.pk, by=request.user)  # type: ignore[arg-type]
        except RuleViolation as exc:
            return _withdrawals_page(
                request, competition, status=422, action_error=rule_message(exc)
            )
        messages.success(request, _("%(entry)s reinstated.") % {"entry": entry})
        return redirect("withdrawals_manage", slug=competition.slug)
    if action != "withdraw":
        error = _("That action does not exist on this page.")
        return _withdrawals_page(request, competition, status=422, action_error=error)
    form = WithdrawForm(request.POST, competition=competition, prefix="withdraw")
    if form.is_valid():
        data = form.cleaned_data
        try:
            withdrawal = entry_withdraw(
                entry_id=data["entry"].pk,
                from_matchday=data["from_matchday"],
                from_date=data["from_date"],
                reason=data["reason"],
                by=request.user,  # type: ignore[arg-type]
            )
        except RuleViolation as exc:
            form.add_error(None, rule_message(exc))
        else:
            messages.success(
                request,
                _("%(entry)s withdrawn from matchday %(number)s on.")
                % {"entry": data["entry"], "number": withdrawal.from_matchday},
            )
            return redirect("withdrawals_manage", slug=competition.slug)
    return _withdrawals_page(request, competition, status=422, form=form)


def _checkin_context(competition: Competition, number: int, **extra: Any) -> dict[str, Any]:
    marks = {
        checkin.entry_id: checkin
        for checkin in CheckIn.objects.filter(entry__competition=competition, number=number)
    }
    gone = dict(
        Withdrawal.objects.filter(
            entry__competition=competition, from_matchday__lte=number
        ).values_list("entry_id", "from_matchday")
    )
    rows = [
        {"entry": entry, "checkin": marks.get(entry.pk), "withdrawn": entry.pk in gone}
        for entry in competition_entries(competition=competition)
    ]
    context: dict[str, Any] = {
        "competition": competition,
        "number": number,
        "rows": rows,
        "present": sum(1 for mark in marks.values() if mark.present),
        "paired": competition.matchdays.filter(number=number).exists(),
    }
    context.update(extra)
    return context


def checkin_competition_for(slug: str, number: int) -> Competition:
    """The competition whose matchday `number` is checked in: a matchday it has or the next
    one (a Swiss evening is checked in before it is paired). Raises Http404 for any other
    number, as for an unknown matchday (before the login is asked)."""
    competition = competition_for(slug)
    last = competition.matchdays.aggregate(last=Max("number"))["last"] or 0
    if not 1 <= number <= last + 1:
        raise Http404
    return competition


@require_http_methods(["GET", "POST"])
@director_required(checkin_competition_for)
def checkin_manage(request: HtmxHttpRequest, competition: Competition) -> HttpResponse:
    """The check-in of matchday `number`'s evening (the URL's, checked by
    `checkin_competition_for`): every entry with present/absent buttons (`checkin_record`);
    once the matchday is paired, a koppel marked present late gets the late bye or meets
    another late one."""
    assert request.resolver_match is not None  # a view routed by its URL
    number = int(request.resolver_match.kwargs["number"])
    status = 200
    extra: dict[str, Any] = {}
    if request.method == "POST":
        form = CheckInForm(request.POST)
        entry = None
        if form.is_valid():
            entry = Entry.objects.filter(
                competition=competition, pk=form.cleaned_data["entry"]
            ).first()
        if entry is None:
            unknown = RuleViolation("entry_unknown", entry=request.POST.get("entry", "")[:20])
            status, extra["action_error"] = 422, rule_message(unknown)
        else:
            try:
                checkin_record(
                    entry_id=entry.pk,
                    number=number,
                    present=form.cleaned_data["present"],
                    by=request.user,  # type: ignore[arg-type]
                )
            except RuleViolation as exc:
                status, extra["action_error"] = 422, rule_message(exc)
            else:
                if not request.htmx:
                    return redirect("checkin_manage", slug=competition.slug, number=number)
    return render_page(
        request,
        "scoring/checkin_manage.html",
        _checkin_context(competition, number, **extra),
        partial="checkin",
        status=status,
    )
