"""The director's page of one match: a club match's lineup per sitting, a forfeit, reported
totals, a void (of the match or one game) and the replay of a voided match.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from scoring.forfeit_words import forfeit_reason_text
from scoring.forms.match import ClubLineupForm, ForfeitForm
from scoring.forms.sheet import MatchTotalsForm
from scoring.forms.voids import GameVoidForm, MatchVoidForm, ReplayForm
from scoring.models import Game
from scoring.rules import RuleViolation
from scoring.selectors.matches import match_movement
from scoring.selectors.schedule import club_koppels
from scoring.services.games import match_totals_enter
from scoring.services.lineups import club_match_lineup_set
from scoring.services.matches import match_forfeit_set
from scoring.services.voids import game_void, match_replay_schedule, match_void
from scoring.tokens import match_token
from scoring.views.common import (
    GAME_TEAM_JOINS,
    capped_text,
    match_context,
    match_page_context,
)
from scoring.views.competition_manage import Action
from tournaments.lookups import match_for
from tournaments.models import Competition, Match, Matchday
from tournaments.schedules import away_place
from troefclub.access import HtmxHttpRequest, director_required
from troefclub.pages import render_page
from troefclub.rule_messages import rule_message


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
        # A lineup's stored reason is shown in the reader's words (`_forfeit` maps them back).
        initial={
            "side": match.forfeit,
            "reason": forfeit_reason_text(match.forfeit_reason),
            "seen": seen,
        },
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
    context.update(_void_forms(match, games))
    context.update(extra)
    return context


def _void_forms(match: Match, games: list[Game]) -> dict[str, Any]:
    """The void and replay forms the match's state allows: a void while it counts, a
    game's void while a game counts, a replay once voided and not yet replayed."""
    forms: dict[str, Any] = {}
    if match.voided_at is None:
        forms["void_form"] = MatchVoidForm(prefix="void")
        counting = _counting(games)
        if counting:
            forms["game_void_form"] = GameVoidForm(prefix="void_game", games=counting)
    elif match.replayed_by_id is None:
        forms["replay_form"] = ReplayForm(prefix="replay", matchdays=_replay_matchdays(match))
    return forms


def _counting(games: list[Game]) -> list[Game]:
    return [game for game in games if game.voided_at is None]


def _replay_matchdays(match: Match) -> Any:
    return Matchday.objects.filter(competition_id=match.matchday.competition_id).exclude(
        pk=match.matchday_id
    )


def _void(request: HtmxHttpRequest, match: Match) -> HttpResponse:
    form = MatchVoidForm(request.POST, prefix="void")
    if form.is_valid():
        try:
            match_void(match_id=match.pk, reason=form.cleaned_data["reason"], by=request.user)
        except RuleViolation as exc:
            form.add_error(None, rule_message(exc))
        else:
            return _match_done(request, match, _("Match voided: it counts nowhere any more."))
    return _match_response(request, match, status=422, void_form=form)


def _void_game(request: HtmxHttpRequest, match: Match) -> HttpResponse:
    games = list(match.games.select_related(*GAME_TEAM_JOINS))
    form = GameVoidForm(request.POST, prefix="void_game", games=_counting(games))
    if form.is_valid():
        try:
            game_void(
                game_id=form.cleaned_data["game"],
                reason=form.cleaned_data["reason"],
                by=request.user,
            )
        except RuleViolation as exc:
            form.add_error(None, rule_message(exc))
        else:
            return _match_done(
                request, match, _("Game voided: the match's total counts the other games.")
            )
    return _match_response(request, match, status=422, game_void_form=form)


def _replay(request: HtmxHttpRequest, match: Match) -> HttpResponse:
    form = ReplayForm(request.POST, prefix="replay", matchdays=_replay_matchdays(match))
    if form.is_valid():
        chosen = form.cleaned_data["matchday"]
        try:
            replay = match_replay_schedule(
                match_id=match.pk,
                matchday_id=chosen.pk if chosen else None,
                date=form.cleaned_data["date"],
            )
        except RuleViolation as exc:
            form.add_error(None, rule_message(exc))
        else:
            text = _("Replay scheduled on matchday %(number)s.") % {
                "number": replay.matchday.number
            }
            return _match_done(request, match, text)
    return _match_response(request, match, status=422, replay_form=form)


def _match_response(
    request: HtmxHttpRequest, match: Match, *, status: int = 200, **extra: Any
) -> HttpResponse:
    return render_page(
        request,
        "scoring/match_manage.html",
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
                    "reason": forfeit_reason_text(saved.forfeit_reason)
                }
            return _match_done(request, match, text)
    return _match_response(request, match, status=422, lineup_form=form)


def _forfeit(request: HtmxHttpRequest, match: Match) -> HttpResponse:
    form = ForfeitForm(request.POST, prefix="forfeit")
    if form.is_valid():
        reason = form.cleaned_data["reason"]
        if match.forfeit_reason and reason == forfeit_reason_text(match.forfeit_reason):
            reason = match.forfeit_reason  # the form showed the stored reason in words
        try:
            saved = match_forfeit_set(
                match_id=match.pk,
                side=form.cleaned_data["side"],
                reason=reason,
                seen=form.cleaned_data["seen"],
            )
        except RuleViolation as exc:
            if exc.code == "match_changed_meanwhile":
                return _match_changed(request, match, exc)
            form.add_error(None, rule_message(exc))
        else:
            if (saved.forfeit, saved.forfeit_reason) == (match.forfeit, match.forfeit_reason):
                text = _("Nothing changed: the forfeit is as it was.")  # nothing was written
            elif saved.forfeit:
                text = _("Forfeit recorded: %(side)s.") % {"side": saved.get_forfeit_display()}
            else:
                text = _("Forfeit lifted.")
            return _match_done(request, match, text)
    return _match_response(request, match, status=422, forfeit_form=form)


MATCH_ACTIONS: dict[str, Action] = {
    "lineup": _lineup,
    "forfeit": _forfeit,
    "void": _void,
    "void_game": _void_game,
    "replay": _replay,
}


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


def _match_page(
    request: HtmxHttpRequest, match: Match, *, status: int = 200, **extra: Any
) -> HttpResponse:
    return render_page(
        request,
        "scoring/match_detail.html",
        match_context(request, match, **extra),
        partial="match",
        status=status,
    )


@require_POST
@director_required(match_for)
def match_totals(request: HtmxHttpRequest, match: Match) -> HttpResponse:
    """Enter a match known only as reported totals (`match_totals_enter`).

    Refused when the match changed since its page was opened: the page shows what it
    holds now (with the entered totals ready to send again while it takes totals).
    """
    slug = match.matchday.competition.slug
    form = MatchTotalsForm(request.POST, match=match)
    if form.is_valid():
        total_home, total_away = form.cleaned_data["total_home"], form.cleaned_data["total_away"]
        try:
            match_totals_enter(
                match_id=match.pk,
                total_home=total_home,
                total_away=total_away,
                seen=form.cleaned_data["seen"],
            )
        except RuleViolation as exc:
            if exc.code == "match_changed_meanwhile":
                # Said as a flash message: the totals form may be gone from the fresh page.
                messages.error(request, rule_message(exc))
                fresh = match_for(slug, match.pk)
                extra = {}
                if not fresh.games.exists():
                    initial = {"total_home": total_home, "total_away": total_away}
                    extra["totals_form"] = MatchTotalsForm(match=fresh, initial=initial)
                return _match_page(request, fresh, status=422, **extra)
            form.add_error(None, rule_message(exc))
        else:
            messages.success(
                request,
                _("Match totals entered: %(home)s–%(away)s.")
                % {"home": total_home, "away": total_away},
            )
            if request.htmx:
                return _match_page(request, match_for(slug, match.pk))
            return redirect(reverse("match_detail", kwargs={"slug": slug, "match_id": match.pk}))
    return _match_page(request, match, status=422, totals_form=form)
