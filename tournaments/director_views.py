"""The director's pages of a competition: schedule, matchdays, club-match lineups.

Same shape as `scoring.views`: login, `is_directed_by` or the friendly 403 page. A page
answers GET with itself and POST with one action (the form's `action` field): the action
validates its form, calls ONE service, and redirects back (PRG) — or, for htmx, answers
with the page's named partial. A `RuleViolation` becomes an inline message in words
(`rule_message`), status 422, the entered values kept; the service saved nothing.

Every action that adds or changes carries what its page showed (the matchday number it
adds, a `seen` token of `scoring.tokens`). Sent twice (a double click: the browser shows
the second answer), an add is answered "added already" with the page, never as an error
and never as a second row; made on a page that changed meanwhile, a change is refused
with the page as it is now.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.paginator import Paginator
from django.db.models import Count, Exists, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods
from django_htmx.http import HttpResponseClientRedirect

from scoring.messages import pairing_reason_message, rule_message
from scoring.models import Game
from scoring.rules import RuleViolation
from scoring.selectors.matches import match_movement
from scoring.selectors.results import MatchScore, competition_match_scores, result_holders
from scoring.selectors.schedule import (
    Rematch,
    RepeatBye,
    club_koppels,
    competition_schedule,
    matchday_matches,
    matchday_problems,
)
from scoring.selectors.standings_inputs import matches_adjustments
from scoring.services.lineups import club_match_lineup_set
from scoring.services.matches import (
    match_create,
    match_delete,
    match_forfeit_set,
    match_table_move,
    matchday_entries_swap,
)
from scoring.services.schedule import (
    matchday_create,
    matchday_delete,
    schedule_round_robin_create,
    swiss_matchday_pair,
)
from scoring.tokens import deductions_token, deductions_token_of, match_token, matchday_token_of
from tournaments.forms import (
    ENTRY_LIST_ID,
    ENTRY_SELECT_MAX,
    ClubLineupForm,
    DeductionForm,
    DeductionVoidForm,
    ForfeitForm,
    MatchAddForm,
    MatchdayAddForm,
    MatchdayDeleteForm,
    MatchDeleteForm,
    RoundRobinForm,
    SwapForm,
    SwissPairForm,
    TableMoveForm,
    entry_choices,
    entry_suggestions,
)
from tournaments.models import Bye, Competition, Entry, Match, Matchday
from tournaments.schedules import away_place
from tournaments.services.deductions import deduction_add, deduction_void
from tournaments.tables import page_links
from tournaments.view_helpers import (
    ENTRY_JOINS,
    MATCHES_PER_PAGE,
    SEARCH_MAX_LENGTH,
    capped_text,
    competition_for,
    match_adjustment_lines,
    match_for,
    match_page_context,
    render_page,
)
from troefclub.access import HtmxHttpRequest, director_required

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


# ================================================================ the schedule


def competition_context(competition: Competition, **extra: Any) -> dict[str, Any]:
    """The schedule page: matchdays with their counts (and their matches and byes when the
    matchday is small enough to list), pairing forms, deductions."""
    summaries = competition_schedule(competition=competition)
    matchdays = [summary.matchday for summary in summaries]
    # Only small matchdays list their matches here; a big one links to its own page.
    listed = [s.matchday.pk for s in summaries if s.matches <= SCHEDULE_MATCHES_LISTED]
    rows = list(
        Match.objects.filter(matchday_id__in=listed)
        .select_related(*ENTRY_JOINS)
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
        "tournaments/competition_manage.html",
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


# ================================================================ one matchday


def matchday_context(
    matchday: Matchday, *, page_number: str | None = None, search: str = "", **extra: Any
) -> dict[str, Any]:
    """A matchday for its director: matches with tables, reasons and scores, a page at a
    time (`MATCHES_PER_PAGE`; `search` finds a table or a koppel as on the public page),
    byes, problems, and the forms. Reads only the shown matches' games (issue 7).

    A competition of more than `ENTRY_SELECT_MAX` entries gets forms that take entries and
    matches typed, with one shared list of suggestions, instead of a select of every entry
    in each form: at 1,000 koppels those were 4,500 options.
    """
    competition = matchday.competition
    page = Paginator(matchday_matches(matchday=matchday, search=search), MATCHES_PER_PAGE).get_page(
        page_number
    )
    matches = list(page.object_list)
    ids = [match.pk for match in matches]
    scores = competition_match_scores(competition=competition, match_ids=ids)
    sheets = dict(
        Game.objects.filter(match_id__in=ids, sitting=1)
        .order_by("match_id", "-table")
        .values_list("match_id", "pk")
    )
    adjustments = match_adjustment_lines(
        matches,
        matches_adjustments(competition=competition, match_ids=ids, scores=scores),
    )
    rows: list[dict[str, Any]] = [
        {
            "match": match,
            "score": scores[match.pk],
            "adjustments": adjustments.get(match.pk, []),
            "reason": pairing_reason_message(match.pairing_reason),
            "game_id": sheets.get(match.pk) if competition.kind == Competition.Kind.PAIRS else None,
            "has_results": scores[match.pk].reported
            or bool(scores[match.pk].forfeit)
            or scores[match.pk].games > scores[match.pk].open_games
            or scores[match.pk].home
            or scores[match.pk].away,
        }
        for match in matches
    ]
    byes = list(matchday.byes.select_related(*ENTRY_NAME_JOINS))
    is_last = getattr(matchday, "is_last", None)  # annotated by `matchday_manage`'s lookup
    if is_last is None:
        is_last = not competition.matchdays.filter(number__gt=matchday.number).exists()
    scalable = _scalable(matchday)
    # The whole matchday's pairings, not only the page's: a swap checks them all.
    pairings_seen = matchday_token_of(
        Match.objects.filter(matchday=matchday).only("pk", "home_id", "away_id", "table"), byes
    )
    # Small: one read of the entries for the four selects; big: typed, with suggestions.
    choices = None if scalable else entry_choices(competition)
    context: dict[str, Any] = {
        "competition": competition,
        "matchday": matchday,
        "rows": rows,
        "page": page,
        "page_links": page_links(page),
        "search": search,
        "byes": [(bye, pairing_reason_message(bye.reason)) for bye in byes],
        "problems": matchday_problems(matchday=matchday),
        # `matchday_delete` decides; this only offers the button where it would go ahead
        # (its test of results, on every match of the matchday, not only the page's).
        "can_delete": is_last
        and not result_holders(Matchday.objects.filter(pk=matchday.pk)).exists(),
        "is_last": is_last,
        "scalable": scalable,
        # Called by the template only when it renders the whole page: an htmx answer swaps
        # `#matchday` and keeps the list the page has.
        "entry_suggestions": functools.partial(entry_suggestions, competition)
        if scalable
        else None,
        "entry_list_id": ENTRY_LIST_ID,
        "swap_form": SwapForm(
            competition=competition,
            prefix="swap",
            initial={"seen": pairings_seen},
            scalable=scalable,
            choices=choices,
        ),
        "move_form": TableMoveForm(matchday=matchday, prefix="move", scalable=scalable),
        "add_form": MatchAddForm(
            competition=competition, prefix="add", scalable=scalable, choices=choices
        ),
    }
    context.update(extra)
    return context


def _scalable(matchday: Matchday) -> bool:
    """Whether the matchday's forms take entries typed (more than `ENTRY_SELECT_MAX`
    entries): the same answer for the page and for the post it sends."""
    count = getattr(matchday, "entry_count", None)  # annotated by `matchday_manage`'s lookup
    if count is None:
        count = matchday.competition.entries.count()
    return bool(count > ENTRY_SELECT_MAX)


def _matchday_response(
    request: HtmxHttpRequest, matchday: Matchday, *, status: int = 200, **extra: Any
) -> HttpResponse:
    search = request.GET.get("q", "").strip()[:SEARCH_MAX_LENGTH]
    return render_page(
        request,
        "tournaments/matchday_manage.html",
        matchday_context(
            matchday,
            page_number=request.GET.get("page"),
            search=search,
            # The forms post back to the list as shown (its `page` and `q`).
            manage_url=request.get_full_path(),
            **extra,
        ),
        partial="matchday",
        status=status,
    )


def _problem_keys(matchday: Matchday) -> set[tuple[Any, ...]]:
    """The rematches and repeat byes of a matchday, as keys that survive a swap (which makes
    its matches anew)."""
    problems = matchday_problems(matchday=matchday)
    return {("rematch", r.match.home_id, r.match.away_id) for r in problems.rematches} | {
        ("bye", r.bye.entry_id) for r in problems.repeat_byes
    }


def _warn_new_problems(request: HtmxHttpRequest, matchday: Matchday, before: set[Any]) -> None:
    """After an edit: a warning for each rematch or second bye it made (still allowed)."""
    problems = matchday_problems(matchday=matchday)
    for rematch in problems.rematches:
        if ("rematch", rematch.match.home_id, rematch.match.away_id) not in before:
            messages.warning(request, rematch_text(rematch))
    for repeat in problems.repeat_byes:
        if ("bye", repeat.bye.entry_id) not in before:
            messages.warning(request, repeat_bye_text(repeat))


def _matchdays_text(numbers: list[int]) -> str:
    return ", ".join(_("matchday %(number)s") % {"number": number} for number in numbers)


def rematch_text(rematch: Rematch) -> str:
    return _("%(match)s is a rematch: they met on %(matchdays)s.") % {
        "match": rematch.match,
        "matchdays": _matchdays_text(rematch.earlier),
    }


def repeat_bye_text(repeat: RepeatBye) -> str:
    return _("%(entry)s gets a second bye: they had one on %(matchdays)s.") % {
        "entry": repeat.bye.entry,
        "matchdays": _matchdays_text(repeat.earlier),
    }


def _matchday_done(
    request: HtmxHttpRequest, matchday: Matchday, text: str, *, level: int = messages.SUCCESS
) -> HttpResponse:
    messages.add_message(request, level, text)
    if request.htmx:
        return _matchday_response(request, matchday)
    url = reverse(
        "matchday_manage", kwargs={"slug": matchday.competition.slug, "number": matchday.number}
    )
    # Back to the page of the list the form was sent from (its `page` and `q`).
    return redirect(f"{url}?{request.GET.urlencode()}" if request.GET else url)


def _swap(request: HtmxHttpRequest, matchday: Matchday) -> HttpResponse:
    form = SwapForm(
        request.POST,
        competition=matchday.competition,
        prefix="swap",
        scalable=_scalable(matchday),
    )
    if form.is_valid():
        entry_a, entry_b = form.cleaned_data["entry_a"], form.cleaned_data["entry_b"]
        try:
            before = _problem_keys(matchday)
            if entry_a.pk == entry_b.pk:
                form.add_error(None, _("Choose two different entries to swap."))
            else:
                matchday_entries_swap(
                    matchday_id=matchday.pk,
                    entry_a_id=entry_a.pk,
                    entry_b_id=entry_b.pk,
                    seen=form.cleaned_data["seen"],
                )
        except RuleViolation as exc:
            if exc.code == "matchday_changed_meanwhile":
                # The pairings as they are now, with a fresh form to swap again if needed.
                return _matchday_response(
                    request, matchday, status=422, action_error=rule_message(exc)
                )
            form.add_error(None, rule_message(exc))
        else:
            if entry_a.pk != entry_b.pk:
                text = _("%(a)s and %(b)s swapped places.") % {"a": entry_a, "b": entry_b}
                _warn_new_problems(request, matchday, before)
                return _matchday_done(request, matchday, text)
    return _matchday_response(request, matchday, status=422, swap_form=form)


def _move(request: HtmxHttpRequest, matchday: Matchday) -> HttpResponse:
    form = TableMoveForm(
        request.POST, matchday=matchday, prefix="move", scalable=_scalable(matchday)
    )
    if form.is_valid():
        try:
            match = match_table_move(
                match_id=form.cleaned_data["match"].pk, table=form.cleaned_data["table"]
            )
        except RuleViolation as exc:
            if exc.code in ALREADY_DONE:  # the move sent twice: the match is there already
                return _matchday_done(request, matchday, rule_message(exc), level=messages.INFO)
            form.add_error(None, rule_message(exc))
        else:
            text = _("%(match)s moved to table %(table)s.") % {
                "match": form.cleaned_data["match"],
                "table": match.table,
            }
            return _matchday_done(request, matchday, text)
    return _matchday_response(request, matchday, status=422, move_form=form)


def _add(request: HtmxHttpRequest, matchday: Matchday) -> HttpResponse:
    form = MatchAddForm(
        request.POST,
        competition=matchday.competition,
        prefix="add",
        scalable=_scalable(matchday),
    )
    if form.is_valid():
        before = _problem_keys(matchday)
        try:
            match = match_create(
                matchday_id=matchday.pk,
                home_id=form.cleaned_data["home"].pk,
                away_id=form.cleaned_data["away"].pk,
                table=form.cleaned_data["table"],
            )
        except RuleViolation as exc:
            if exc.code in ALREADY_DONE:
                return _matchday_done(request, matchday, rule_message(exc), level=messages.INFO)
            form.add_error(None, rule_message(exc))
        else:
            text = _("Match %(home)s – %(away)s added at table %(table)s.") % {
                "home": form.cleaned_data["home"],
                "away": form.cleaned_data["away"],
                "table": match.table,
            }
            _warn_new_problems(request, matchday, before)
            return _matchday_done(request, matchday, text)
    return _matchday_response(request, matchday, status=422, add_form=form)


def _delete(request: HtmxHttpRequest, matchday: Matchday) -> HttpResponse:
    form = MatchDeleteForm(request.POST, matchday=matchday, prefix="delete")
    error = _("That match does not exist (any more).")
    if form.is_valid():
        match = form.cleaned_data["match"]
        try:
            match_delete(match_id=match.pk)
        except RuleViolation as exc:
            error = rule_message(exc)
        else:
            return _matchday_done(
                request, matchday, _("Match %(match)s removed.") % {"match": match}
            )
    return _matchday_response(request, matchday, status=422, action_error=error)


MATCHDAY_ACTIONS: dict[str, Action] = {
    "swap": _swap,
    "move": _move,
    "add": _add,
    "delete": _delete,
}


@director_required(competition_for)
def _matchday_delete(
    request: HtmxHttpRequest, competition: Competition, number: int
) -> HttpResponse:
    """Delete the matchday (`matchday_delete`), then back to the schedule.

    Before the matchday is looked up: sent twice, the second post finds it gone and is
    answered "deleted already" with the schedule, not with a 404.
    """
    form = MatchdayDeleteForm(request.POST)
    matchday = Matchday.objects.filter(competition=competition, number=number).first()
    if not form.is_valid():
        if matchday is None:
            raise Http404("no such matchday")
        error = " ".join(str(e) for e in form.non_field_errors())
        return _matchday_response(request, matchday, status=422, action_error=error)
    matchday_id = form.cleaned_data["matchday"]
    shown = Matchday.objects.filter(pk=matchday_id).first()
    if shown is not None and (shown.competition_id != competition.pk or shown.number != number):
        raise Http404("matchday of another competition, or another matchday")
    if shown is None:
        text = _("Matchday %(number)s is deleted already (the form was sent twice).") % {
            "number": number
        }
        return _schedule_after(request, competition, text, level=messages.INFO)
    try:
        deleted = matchday_delete(matchday_id=matchday_id)
    except RuleViolation as exc:
        return _matchday_response(request, shown, status=422, action_error=rule_message(exc))
    text = _("Matchday %(number)s deleted.") % {"number": deleted}
    return _schedule_after(request, competition, text)


def _schedule_after(
    request: HtmxHttpRequest, competition: Competition, text: str, *, level: int = messages.SUCCESS
) -> HttpResponse:
    """To the schedule after a matchday is gone: its own page no longer exists, so htmx is
    told to load the schedule page instead of swapping a partial."""
    messages.add_message(request, level, text)
    url = reverse("competition_manage", kwargs={"slug": competition.slug})
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


@require_http_methods(["GET", "POST"])
def matchday_manage(request: HtmxHttpRequest, slug: str, number: int) -> HttpResponse:
    """One matchday: pairing reasons, the bye, swaps, table moves, added and removed matches,
    and deleting it (the last matchday, while it has no results)."""
    if request.method == "POST" and request.POST.get("action") == "matchday_delete":
        return _matchday_delete(request, slug=slug, number=number)
    return _matchday_page(request, slug=slug, number=number)


def matchday_managed(slug: str, number: int) -> Matchday:
    """Matchday `number` of competition `slug` for its director's page: its competition
    joined, whether it is the last (`is_last`) and the competition's entry count
    (`entry_count`) annotated; else 404."""
    later = Matchday.objects.filter(
        competition=OuterRef("competition"), number__gt=OuterRef("number")
    )
    entries = (
        Entry.objects.filter(competition=OuterRef("competition"))
        .order_by()
        .values("competition")
        .annotate(count=Count("pk"))
        .values("count")
    )
    return get_object_or_404(
        Matchday.objects.select_related("competition").annotate(
            is_last=~Exists(later), entry_count=Coalesce(Subquery(entries), 0)
        ),
        competition__slug=slug,
        number=number,
    )


@director_required(matchday_managed)
def _matchday_page(request: HtmxHttpRequest, matchday: Matchday) -> HttpResponse:
    """The matchday page (GET) and its actions (`MATCHDAY_ACTIONS`) but the delete."""
    if request.method != "POST":
        return _matchday_response(request, matchday)
    action = MATCHDAY_ACTIONS.get(request.POST.get("action", ""))
    if action is None:
        return _matchday_response(
            request,
            matchday,
            status=422,
            action_error=_("That action does not exist on this page."),
        )
    return action(request, matchday)


# ================================================================ one match


def lineup_initial(match: Match, games: list[Game], size: int) -> dict[str, Any]:
    """The lineup form's values: the lineup stored on the match, else read from its games.

    `Match.lineup` is what `club_match_lineup_set` saved. A match without it (imported
    data) is read back from the games: table t holds home place t; the away place comes
    from the movement (`away_place`), so each koppel's place follows from any game it
    played; a koppel first seen after sitting 1 joined late.
    """
    initial: dict[str, Any] = {}
    lineup = match.lineup or {}
    if lineup:
        late = {str(team_id): sitting for team_id, sitting in (lineup.get("late") or {}).items()}
        for name in ("home", "away"):
            for place, team in enumerate(lineup.get(name) or [], start=1):
                if team is None or place > size:
                    continue
                initial[f"{name}_{place}"] = team
                if str(team) in late:
                    initial[f"{name}_{place}_from"] = late[str(team)]
        return initial
    for game in games:
        home_team, away_team = (
            (game.team_a_id, game.team_b_id) if game.a_is_home else (game.team_b_id, game.team_a_id)
        )
        home_place = game.table
        away = away_place(game.table, game.sitting, size) if size else 0
        for name, team, place in (("home", home_team, home_place), ("away", away_team, away)):
            if not 1 <= place <= size:
                continue
            key = f"{name}_{place}"
            if key not in initial:
                initial[key] = team
                if game.sitting > 1:
                    initial[f"{key}_from"] = game.sitting
    return initial


def match_manage_context(match: Match, **extra: Any) -> dict[str, Any]:
    """The public match page's content plus the lineup and forfeit forms."""
    context = match_page_context(match)
    competition, games = context["competition"], context["games"]
    seen = match_token(match, [game.pk for game in games])
    context["is_club_match"] = competition.kind == Competition.Kind.CLUBS
    context["forfeit_form"] = ForfeitForm(
        prefix="forfeit",
        initial={"side": match.forfeit, "reason": match.forfeit_reason, "seen": seen},
    )
    if context["is_club_match"]:
        context["lineup_form"] = ClubLineupForm(
            match=match,
            home_teams=club_koppels(entry=match.home, competition=competition),
            away_teams=club_koppels(entry=match.away, competition=competition),
            prefix="lineup",
            initial={
                **lineup_initial(match, games, competition.koppels_per_side),
                "seen": seen,
            },
        )
    context.update(extra)
    return context


def _match_response(
    request: HtmxHttpRequest, match: Match, *, status: int = 200, **extra: Any
) -> HttpResponse:
    return render_page(
        request,
        "tournaments/match_manage.html",
        match_manage_context(match, **extra),
        partial="manage",
        status=status,
    )


def _match_done(request: HtmxHttpRequest, match: Match, text: str) -> HttpResponse:
    messages.success(request, text)
    if request.htmx:
        return _match_response(request, match_for(match.matchday.competition.slug, match.pk))
    return redirect("match_manage", slug=match.matchday.competition.slug, match_id=match.pk)


def _match_changed(request: HtmxHttpRequest, match: Match, exc: RuleViolation) -> HttpResponse:
    """The match as it is now, with fresh forms, and why nothing was saved."""
    fresh = match_for(match.matchday.competition.slug, match.pk)
    return _match_response(request, fresh, status=422, action_error=rule_message(exc))


def _lineup(request: HtmxHttpRequest, match: Match) -> HttpResponse:
    competition = match.matchday.competition
    form = ClubLineupForm(
        request.POST,
        match=match,
        home_teams=club_koppels(entry=match.home, competition=competition),
        away_teams=club_koppels(entry=match.away, competition=competition),
        prefix="lineup",
    )
    if competition.kind != Competition.Kind.CLUBS:
        return _match_response(
            request, match, status=422, action_error=rule_message(RuleViolation("not_a_club_match"))
        )
    if form.is_valid():
        try:
            saved = club_match_lineup_set(
                match_id=match.pk,
                home_teams=form.lineup("home"),
                away_teams=form.lineup("away"),
                late=form.late(),
                seen=form.cleaned_data["seen"],
            )
        except RuleViolation as exc:
            if exc.code == "match_changed_meanwhile":
                return _match_changed(request, match, exc)
            form.add_error(None, rule_message(exc))
        else:
            movement = match_movement(match=saved)
            text = _("Lineup saved: %(games)s games over %(sittings)s sittings.") % {
                "games": saved.games.count(),
                "sittings": movement.sittings if movement else competition.sittings,
            }
            if movement is not None and movement.capped:
                text += " " + capped_text(movement)
            if saved.forfeit:
                text += " " + _("The match is forfeited: %(reason)s") % {
                    "reason": saved.forfeit_reason
                }
            return _match_done(request, match, text)
    return _match_response(request, match, status=422, lineup_form=form)


def _forfeit(request: HtmxHttpRequest, match: Match) -> HttpResponse:
    form = ForfeitForm(request.POST, prefix="forfeit")
    if form.is_valid():
        try:
            saved = match_forfeit_set(
                match_id=match.pk,
                side=form.cleaned_data["side"],
                reason=form.cleaned_data["reason"],
                seen=form.cleaned_data["seen"],
            )
        except RuleViolation as exc:
            if exc.code == "match_changed_meanwhile":
                return _match_changed(request, match, exc)
            form.add_error(None, rule_message(exc))
        else:
            text = (
                _("Forfeit recorded: %(side)s.") % {"side": saved.get_forfeit_display()}
                if saved.forfeit
                else _("Forfeit lifted.")
            )
            return _match_done(request, match, text)
    return _match_response(request, match, status=422, forfeit_form=form)


MATCH_ACTIONS: dict[str, Action] = {"lineup": _lineup, "forfeit": _forfeit}


@require_http_methods(["GET", "POST"])
@director_required(match_for)
def match_manage(request: HtmxHttpRequest, match: Match) -> HttpResponse:
    """A match for its director: the club lineup (movement), forfeits, links to the sheets."""
    if request.method != "POST":
        return _match_response(request, match)
    action = MATCH_ACTIONS.get(request.POST.get("action", ""))
    if action is None:
        return _match_response(
            request, match, status=422, action_error=_("That action does not exist on this page.")
        )
    return action(request, match)
