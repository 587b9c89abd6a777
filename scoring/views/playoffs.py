"""The play-off pages: the director's (seeding from the final standings, a deciding match,
the knock-out made) and the public bracket (HTML and PDF) of a stage."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from scoring.forms.playoffs import DecidingMatchForm, PlayoffForm
from scoring.pdf.bracket import BracketLine, BracketSheet, bracket_pdf
from scoring.rules import RuleViolation
from scoring.selectors.playoffs import (
    DECIDED_BY_DECIDING_MATCH,
    DECIDED_BY_LOT,
    BracketTie,
    competition_final_order,
    playoff_bracket,
)
from scoring.services.playoffs import deciding_match_create, playoff_advance, playoff_create
from scoring.tables import TIEBREAK_LABELS
from scoring.views.paper import pdf_response
from tournaments.lookups import competition_for
from tournaments.models import Competition, Entry, Playoff
from troefclub.access import HtmxHttpRequest, director_required
from troefclub.rule_messages import rule_message

ENTRY_JOINS = ("team__player_1", "team__player_2", "club")


def decided_by_words(key: str) -> str:
    """What put an entry above the next, in words: a tie-break's name, a deciding match,
    a drawing of lots."""
    if key == DECIDED_BY_DECIDING_MATCH:
        return _("deciding match")
    if key == DECIDED_BY_LOT:
        return _("drawing of lots")
    return str(TIEBREAK_LABELS.get(key, key))


def round_name(playoff: Playoff, number: int) -> str:
    """Round `number` of the stage by its usual name."""
    if playoff.kind == Playoff.Kind.DECIDING:
        return _("Deciding match")
    left = playoff.rounds - number
    return [_("Final"), _("Semi-finals"), _("Quarter-finals")][left]


def _manage_context(competition: Competition, **extra: Any) -> dict[str, Any]:
    order = competition_final_order(competition=competition)
    shown = order.places[:8]
    entries = Entry.objects.select_related(*ENTRY_JOINS).in_bulk(
        [place.entry_id for place in order.places]
    )
    tied = [[entries[entry] for entry in group] for group in order.unresolved_within(8)]
    seeding = [
        {
            "seed": seed,
            "entry": entries[place.entry_id],
            "rank": place.rank,
            "decided_by": decided_by_words(place.decided_by) if place.decided_by else "",
            "tied": any(place.entry_id in group for group in order.unresolved),
        }
        for seed, place in enumerate(shown, start=1)
    ]
    pairs = [(group[0], group[1]) for group in tied if len(group) == 2]
    context: dict[str, Any] = {
        "competition": competition,
        "seeding": seeding,
        "tied": tied,
        "stages": list(competition.playoffs.select_related("competition")),
        "playoff_form": PlayoffForm(tied=tied, prefix="playoff"),
        "deciding_form": DecidingMatchForm(pairs=pairs, prefix="deciding") if pairs else None,
    }
    context.update(extra)
    return context


@require_http_methods(["GET", "POST"])
@director_required(competition_for)
def playoff_manage(request: HtmxHttpRequest, competition: Competition) -> HttpResponse:
    """The seeding from the final standings (with what decided each seed), the knock-out
    made from it, deciding matches between entries tied on everything."""
    if request.method != "POST":
        return render(request, "scoring/playoff_manage.html", _manage_context(competition))
    action = request.POST.get("action")
    context = _manage_context(competition)
    try:
        if action == "playoff":
            form = PlayoffForm(request.POST, tied=context["tied"], prefix="playoff")
            context["playoff_form"] = form
            if form.is_valid():
                playoff = playoff_create(
                    competition_id=competition.pk,
                    size=form.cleaned_data["size"],
                    legs=form.cleaned_data["legs"],
                    level_rule=form.cleaned_data["level_rule"],
                    lots=form.lots(),
                    lot_reason=form.cleaned_data["lot_reason"],
                    by=request.user,
                )
                messages.success(request, _("The play-offs are made."))
                return redirect("playoff_bracket", slug=playoff.competition.slug)
        elif action == "deciding" and context["deciding_form"] is not None:
            pairs = [(g[0], g[1]) for g in context["tied"] if len(g) == 2]
            deciding = DecidingMatchForm(request.POST, pairs=pairs, prefix="deciding")
            context["deciding_form"] = deciding
            if deciding.is_valid():
                playoff = deciding_match_create(
                    competition_id=competition.pk, entry_ids=deciding.entry_ids(), by=request.user
                )
                messages.success(request, _("The deciding match is made."))
                return redirect("playoff_bracket", slug=playoff.competition.slug)
        elif action == "advance":
            for stage in context["stages"]:
                playoff_advance(playoff_id=stage.pk)
            messages.success(request, _("The brackets are up to date."))
            return redirect("playoff_manage", slug=competition.slug)
        else:
            context["action_error"] = _("Choose one of the forms on this page.")
    except RuleViolation as exc:
        context["action_error"] = rule_message(exc)
    return render(request, "scoring/playoff_manage.html", context, status=422)


def _stage_for(slug: str) -> Playoff:
    competition = get_object_or_404(Competition, slug=slug)
    playoff = (
        Playoff.objects.filter(competition=competition)
        .select_related("competition", "source")
        .first()
    )
    if playoff is None:
        raise Http404(_("This competition is no play-off."))
    return playoff


def _rounds(playoff: Playoff) -> list[tuple[str, list[BracketTie]]]:
    return [
        (round_name(playoff, number), ties)
        for number, ties in enumerate(playoff_bracket(playoff=playoff), start=1)
    ]


@require_safe
def playoff_bracket_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The stage's bracket: each round's ties, seeds, aggregate score and winner. Public."""
    playoff = _stage_for(slug)
    context = {
        "playoff": playoff,
        "competition": playoff.competition,
        "rounds": _rounds(playoff),
        "lot_reason": playoff.lot_reason,
    }
    return render(request, "scoring/playoff_bracket.html", context)


def _side(entry: Entry | None, seed: int | None) -> str:
    if entry is None:
        return "—"
    return f"{seed}. {entry}" if seed else str(entry)


@require_safe
def playoff_bracket_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    """The bracket as a PDF for the wall. Public, like the page."""
    playoff = _stage_for(slug)
    sheet = BracketSheet(
        title=playoff.competition.name,
        subtitle=_("Seeded from the final standings of %(name)s") % {"name": playoff.source.name},
        rounds=tuple(
            (
                name,
                tuple(
                    BracketLine(
                        home=_side(tie.home, tie.home_seed),
                        away=_side(tie.away, tie.away_seed),
                        score=f"{tie.score.home}–{tie.score.away}"
                        if tie.score and tie.score.played
                        else "",
                        winner=str(tie.tie.winner) if tie.tie.winner else "",
                    )
                    for tie in ties
                ),
            )
            for name, ties in _rounds(playoff)
        ),
        winner_label=_("Through"),
    )
    return pdf_response(bracket_pdf(sheet), f"{slug}-bracket.pdf", private=False)
