"""The director's page of a matchday: its matches and byes, with the problems of the
pairing (entries left out, rematches, repeated byes), and the edits of one pairing (swap,
move, add, delete) and of the whole matchday (delete).
"""

from __future__ import annotations

import functools
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

from scoring.forms.schedule import (
    ENTRY_LIST_ID,
    ENTRY_SELECT_MAX,
    MatchAddForm,
    MatchdayDeleteForm,
    MatchDeleteForm,
    SwapForm,
    TableMoveForm,
    entry_choices,
    entry_suggestions,
)
from scoring.models import Game
from scoring.rules import RuleViolation
from scoring.selectors.results import competition_match_scores, result_holders
from scoring.selectors.schedule import Rematch, RepeatBye, matchday_matches, matchday_problems
from scoring.selectors.standings_inputs import matches_adjustments
from scoring.services.matches import (
    match_create,
    match_delete,
    match_table_move,
    matchday_entries_swap,
)
from scoring.services.schedule import matchday_delete
from scoring.tokens import matchday_token_of
from scoring.views.common import MATCHES_PER_PAGE, SEARCH_MAX_LENGTH, match_adjustment_lines
from scoring.views.competition_manage import ALREADY_DONE, ENTRY_NAME_JOINS, Action
from tournaments.lookups import competition_for
from tournaments.models import Competition, Entry, Match, Matchday
from troefclub.access import HtmxHttpRequest, director_required
from troefclub.pages import page_number_asked, render_page
from troefclub.rule_messages import pairing_reason_message, rule_message
from troefclub.tables import page_links


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
        page_number_asked(page_number)
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
        "scoring/matchday_manage.html",
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
