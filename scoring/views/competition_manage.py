"""The director's page of a competition: its schedule (round robin, Swiss pairing, a
matchday added) and its deductions.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scoring.forms.schedule import (
    DeductionForm,
    DeductionVoidForm,
    MatchdayAddForm,
    RoundRobinForm,
    SwissPairForm,
)
from scoring.rules import RuleViolation
from scoring.selectors.results import MatchScore, competition_match_scores
from scoring.selectors.schedule import competition_schedule
from scoring.services.schedule import (
    matchday_create,
    schedule_round_robin_create,
    swiss_matchday_pair,
)
from tournaments.lookups import competition_for
from tournaments.models import Bye, Competition, Match
from tournaments.selectors import MATCH_ENTRY_JOINS
from tournaments.services.deductions import deduction_add, deduction_void
from tournaments.tokens import deductions_token, deductions_token_of
from troefclub.access import HtmxHttpRequest, director_required
from troefclub.pages import render_page
from troefclub.rule_messages import rule_message

ENTRY_NAME_JOINS = ("entry__team__player_1", "entry__team__player_2", "entry__club")

# A matchday of at most this many matches lists them on the schedule page; a bigger one
# (a 1,000-koppel tournament has 500) shows its counts and links to its own page (issue 7).
SCHEDULE_MATCHES_LISTED = 16


Action = Callable[[HtmxHttpRequest, Any], HttpResponse]


# Codes that say a form's work is done already (it was sent twice): answered as news with
# the fresh page, not as an error.
ALREADY_DONE = frozenset(
    {
        "matchday_already_added",
        "matchday_already_paired",
        "match_already_added",
        "deduction_already_added",
        "match_already_at_table",
    }
)


def competition_context(competition: Competition, **extra: Any) -> dict[str, Any]:
    """The schedule page: matchdays with their counts (and their matches and byes when the
    matchday is small enough to list), pairing forms, deductions."""
    summaries = competition_schedule(competition=competition)
    matchdays = [summary.matchday for summary in summaries]
    # Only small matchdays list their matches here; a big one links to its own page.
    listed = [s.matchday.pk for s in summaries if s.matches <= SCHEDULE_MATCHES_LISTED]
    rows = list(
        Match.objects.filter(matchday_id__in=listed)
        .select_related(*MATCH_ENTRY_JOINS)
        .order_by("table", "pk")
    )
    scores = competition_match_scores(
        competition=competition, match_ids=[match.pk for match in rows]
    )
    matches_of: dict[int, list[tuple[Match, MatchScore]]] = defaultdict(list)
    for match in rows:
        matches_of[match.matchday_id].append((match, scores[match.pk]))
    byes_of: dict[int, list[Bye]] = defaultdict(list)
    for bye in Bye.objects.filter(matchday__competition=competition).select_related(
        *ENTRY_NAME_JOINS
    ):
        byes_of[bye.matchday_id].append(bye)
    schedule = [
        {
            "matchday": summary.matchday,
            "matches": matches_of[summary.matchday.pk],
            "listed": summary.matches <= SCHEDULE_MATCHES_LISTED,
            "total": summary.matches,
            "byes": byes_of[summary.matchday.pk],
            "finished": summary.finished,
        }
        for summary in summaries
    ]
    deductions = list(competition.deductions.select_related(*ENTRY_NAME_JOINS, "match__matchday"))
    is_round_robin = competition.schedule_format in (
        Competition.Format.ROUND_ROBIN,
        Competition.Format.DOUBLE_ROUND_ROBIN,
    )
    context: dict[str, Any] = {
        "competition": competition,
        "schedule": schedule,
        "next_number": (matchdays[-1].number + 1) if matchdays else 1,
        "is_swiss": competition.schedule_format == Competition.Format.SWISS,
        "is_round_robin": is_round_robin,
        # Voided ones stay listed, struck through with why: the director sees the trail.
        "deductions": deductions,
        "deduction_form": DeductionForm(
            competition=competition,
            prefix="deduction",
            initial={"seen": deductions_token_of(deductions)},
        ),
        "show_override": False,
    }
    if is_round_robin and not matchdays:
        context["generate_form"] = RoundRobinForm(prefix="rr")
    if context["is_swiss"]:
        context["pair_form"] = SwissPairForm(
            prefix="pair", initial={"number": context["next_number"]}
        )
    if competition.schedule_format == Competition.Format.MANUAL:
        context["matchday_form"] = MatchdayAddForm(
            prefix="matchday", initial={"number": context["next_number"]}
        )
    context.update(extra)
    return context


def _competition_response(
    request: HtmxHttpRequest, competition: Competition, *, status: int = 200, **extra: Any
) -> HttpResponse:
    return render_page(
        request,
        "scoring/competition_manage.html",
        competition_context(competition, **extra),
        partial="schedule",
        status=status,
    )


def _competition_done(
    request: HtmxHttpRequest, competition: Competition, text: str
) -> HttpResponse:
    """PRG after a successful action; for htmx the fresh schedule partial."""
    messages.success(request, text)
    if request.htmx:
        return _competition_response(request, competition)
    return redirect("competition_manage", slug=competition.slug)


def _already(request: HtmxHttpRequest, competition: Competition, text: str) -> HttpResponse:
    """A form sent twice: its work is done, said as news with the fresh schedule (PRG)."""
    messages.info(request, text)
    if request.htmx:
        return _competition_response(request, competition)
    return redirect("competition_manage", slug=competition.slug)


def _generate(request: HtmxHttpRequest, competition: Competition) -> HttpResponse:
    form = RoundRobinForm(request.POST, prefix="rr")
    if form.is_valid():
        try:
            matchdays = schedule_round_robin_create(
                competition_id=competition.pk,
                start=form.cleaned_data["start"],
                days_between=form.cleaned_data["days_between"],
                time=form.cleaned_data["time"],
            )
        except RuleViolation as exc:
            if exc.code == "schedule_exists":
                # The form is only shown without matchdays: a second "generate" (a double
                # click, another tab) finds the schedule made, which is what was asked.
                text = _(
                    "The schedule is there already (%(count)s matchdays): nothing was "
                    "generated again."
                ) % {"count": competition.matchdays.count()}
                return _already(request, competition, text)
            form.add_error(None, rule_message(exc))
        else:
            text = _("Round robin generated: %(count)s matchdays.") % {"count": len(matchdays)}
            return _competition_done(request, competition, text)
    return _competition_response(request, competition, status=422, generate_form=form)


def _pair(request: HtmxHttpRequest, competition: Competition) -> HttpResponse:
    form = SwissPairForm(request.POST, prefix="pair")
    show_override = bool(request.POST.get("pair-override_reason", "").strip())
    if form.is_valid():
        try:
            matchday = swiss_matchday_pair(
                competition_id=competition.pk,
                number=form.cleaned_data["number"],
                override_reason=form.cleaned_data["override_reason"],
                date=form.cleaned_data["date"],
                time=form.cleaned_data["time"],
            )
        except RuleViolation as exc:
            if exc.code in ALREADY_DONE:
                return _already(request, competition, rule_message(exc))
            if exc.code == "matchday_number_changed":
                return _competition_response(
                    request, competition, status=422, action_error=rule_message(exc)
                )
            form.add_error(None, rule_message(exc))
            show_override = show_override or exc.code == "previous_matchday_unfinished"
        else:
            text = _("Matchday %(number)s paired.") % {"number": matchday.number}
            return _competition_done(request, competition, text)
    return _competition_response(
        request, competition, status=422, pair_form=form, show_override=show_override
    )


def _matchday_add(request: HtmxHttpRequest, competition: Competition) -> HttpResponse:
    form = MatchdayAddForm(request.POST, prefix="matchday")
    if form.is_valid():
        try:
            matchday = matchday_create(
                competition_id=competition.pk,
                number=form.cleaned_data["number"],
                date=form.cleaned_data["date"],
                time=form.cleaned_data["time"],
            )
        except RuleViolation as exc:
            if exc.code in ALREADY_DONE:
                messages.info(request, rule_message(exc))
                number = form.cleaned_data["number"]
                return redirect("matchday_manage", slug=competition.slug, number=number)
            if exc.code == "matchday_number_changed":
                return _competition_response(
                    request, competition, status=422, action_error=rule_message(exc)
                )
            form.add_error(None, rule_message(exc))
        else:
            messages.success(
                request,
                _("Matchday %(number)s added: add its matches here.") % {"number": matchday.number},
            )
            return redirect("matchday_manage", slug=competition.slug, number=matchday.number)
    return _competition_response(request, competition, status=422, matchday_form=form)


def _deduction_add(request: HtmxHttpRequest, competition: Competition) -> HttpResponse:
    form = DeductionForm(request.POST, competition=competition, prefix="deduction")
    if form.is_valid():
        try:
            deduction = deduction_add(
                competition_id=competition.pk,
                entry_id=form.cleaned_data["entry"].pk,
                points=form.cleaned_data["points"],
                reason=form.cleaned_data["reason"],
                seen=form.cleaned_data["seen"],
            )
        except RuleViolation as exc:
            if exc.code in ALREADY_DONE:
                return _already(request, competition, rule_message(exc))
            if exc.code == "deductions_changed_meanwhile":
                # The fresh list, and the entered deduction ready to send again if needed.
                data = form.cleaned_data
                again = DeductionForm(
                    competition=competition,
                    prefix="deduction",
                    initial={
                        "entry": data["entry"].pk,
                        "points": data["points"],
                        "reason": data["reason"],
                        "seen": deductions_token(competition_id=competition.pk),
                    },
                )
                return _competition_response(
                    request,
                    competition,
                    status=422,
                    deduction_error=rule_message(exc),
                    deduction_form=again,
                )
            form.add_error(None, rule_message(exc))
        else:
            text = _("%(points)s points deducted from %(entry)s.") % {
                "points": deduction.points,
                "entry": form.cleaned_data["entry"],
            }
            return _competition_done(request, competition, text)
    return _competition_response(request, competition, status=422, deduction_form=form)


def _deduction_void(request: HtmxHttpRequest, competition: Competition) -> HttpResponse:
    form = DeductionVoidForm(request.POST, competition=competition)
    if form.is_valid():
        try:
            deduction = deduction_void(
                deduction_id=form.cleaned_data["deduction"].pk,
                reason=form.cleaned_data["void_reason"],
            )
        except RuleViolation as exc:
            error = rule_message(exc)
        else:
            text = _("Deduction of %(points)s points from %(entry)s voided.") % {
                "points": deduction.points,
                "entry": deduction.entry,
            }
            return _competition_done(request, competition, text)
    elif "deduction" in form.errors:
        error = rule_message(RuleViolation("deduction_unknown"))
    else:
        error = " ".join(str(message) for message in form.errors["void_reason"])
    return _competition_response(
        request,
        competition,
        status=422,
        deduction_error=error,
        void_failed=form.data.get("deduction", ""),
        void_reason=form.data.get("void_reason", ""),
    )


COMPETITION_ACTIONS: dict[str, Action] = {
    "generate": _generate,
    "pair": _pair,
    "matchday_add": _matchday_add,
    "deduction_add": _deduction_add,
    "deduction_void": _deduction_void,
}


@require_http_methods(["GET", "POST"])
@director_required(competition_for)
def competition_manage(request: HtmxHttpRequest, competition: Competition) -> HttpResponse:
    """The schedule: generate the round robin or pair the next Swiss matchday; deductions."""
    if request.method != "POST":
        return _competition_response(request, competition)
    action = COMPETITION_ACTIONS.get(request.POST.get("action", ""))
    if action is None:
        return _competition_response(
            request,
            competition,
            status=422,
            action_error=_("That action does not exist on this page."),
        )
    return action(request, competition)
