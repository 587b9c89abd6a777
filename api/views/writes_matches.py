"""The API's writes of a match and of the schedule: reported match totals, a forfeit
(walk-over), and pairing the next matchday of a Swiss tournament.

Each is the director's page's action (scoring/views/match_manage.py, competition_manage.py):
the same form checks the input, the same service writes, with the same arguments.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.urls import path
from rest_framework.request import Request

from api.serializers.writes import (
    ForfeitSerializer,
    MatchConflictSerializer,
    MatchdayPairSerializer,
    MatchStateSerializer,
    MatchTotalsSerializer,
    ScheduleConflictSerializer,
    ScheduleStateSerializer,
)
from api.views.writes_common import (
    WriteView,
    competition_for_write,
    match_for_write,
    match_state,
    refused,
)
from api.views.writes_schema import write_schema
from scoring.forms.match import ForfeitForm
from scoring.forms.schedule import SwissPairForm
from scoring.forms.sheet import MatchTotalsForm
from scoring.rules import RuleViolation
from scoring.services.games import match_totals_enter
from scoring.services.matches import match_forfeit_set
from scoring.services.schedule import swiss_matchday_pair
from scoring.tokens import matchday_token_of
from tournaments.models import Bye, Competition, Match


@write_schema(
    operation_id="match_totals_enter",
    summary="Enter a match's reported totals",
    request=MatchTotalsSerializer,
    answer=MatchStateSerializer,
    conflict=MatchConflictSerializer,
)
class MatchTotals(WriteView):
    """A match known only as reported totals, without games (`match_totals_enter`):
    checked for plausibility. The same totals again change nothing."""

    request_serializer = MatchTotalsSerializer

    def target(self, request: Request, **kwargs: Any) -> Match:
        return match_for_write(request, kwargs["match_id"])

    def page_form(self, request: Request, target: Any, data: dict[str, str]) -> forms.Form:
        return MatchTotalsForm(data, match=target)

    def write(self, request: Request, target: Any, form: forms.Form) -> Any:
        match = target
        try:
            match_totals_enter(
                match_id=match.pk,
                total_home=form.cleaned_data["total_home"],
                total_away=form.cleaned_data["total_away"],
                seen=form.cleaned_data["seen"],
            )
        except RuleViolation as exc:
            refused(exc, current=lambda: match_state(match.pk))
        return MatchStateSerializer(match_state(match.pk)).data


@write_schema(
    operation_id="match_forfeit_set",
    summary="Record or lift a forfeit (walk-over)",
    request=ForfeitSerializer,
    answer=MatchStateSerializer,
    conflict=MatchConflictSerializer,
)
class MatchForfeit(WriteView):
    """Record a forfeit: `forfeit` home, away or both, and the `reason`; "" lifts it
    (`match_forfeit_set`). The forfeit as it is changes nothing."""

    request_serializer = ForfeitSerializer
    form_names = {"version": "seen", "forfeit": "side"}

    def target(self, request: Request, **kwargs: Any) -> Match:
        return match_for_write(request, kwargs["match_id"])

    def page_form(self, request: Request, target: Any, data: dict[str, str]) -> forms.Form:
        return ForfeitForm(data)

    def write(self, request: Request, target: Any, form: forms.Form) -> Any:
        match = target
        try:
            match_forfeit_set(
                match_id=match.pk,
                side=form.cleaned_data["side"],
                reason=form.cleaned_data["reason"],
                seen=form.cleaned_data["seen"],
            )
        except RuleViolation as exc:
            refused(exc, current=lambda: match_state(match.pk))
        return MatchStateSerializer(match_state(match.pk)).data


def schedule_state(competition: Competition) -> dict[str, Any]:
    """A Swiss tournament's schedule for a pairing (`ScheduleStateSerializer`): the next
    matchday's number and the last matchday's pairings with their version."""
    last = competition.matchdays.order_by("-number").first()
    matches = list(Match.objects.filter(matchday=last).order_by("table", "pk")) if last else []
    byes = list(Bye.objects.filter(matchday=last).order_by("entry_id")) if last else []
    return {
        "competition": competition.slug,
        "next_number": (last.number + 1) if last else 1,
        "matchday": last.number if last else None,
        "matches": [
            {"id": m.pk, "home": m.home_id, "away": m.away_id, "table": m.table} for m in matches
        ],
        "byes": [bye.entry_id for bye in byes],
        "version": matchday_token_of(matches, byes),
    }


@write_schema(
    operation_id="matchday_pair",
    summary="Pair the next Swiss matchday",
    request=MatchdayPairSerializer,
    answer=ScheduleStateSerializer,
    conflict=ScheduleConflictSerializer,
)
class MatchdayPair(WriteView):
    """Pair the next matchday of a Swiss tournament from the standings now
    (`swiss_matchday_pair`, the director's schedule page): no rematch while avoidable, at
    most one bye each. `number` is the matchday to pair (`next_number` of the answer):
    another one paired meanwhile is a 409. Refused (422 `previous_matchday_unfinished`)
    while the previous matchday has open games, unless `override_reason` says why."""

    request_serializer = MatchdayPairSerializer
    form_names: dict[str, str] = {}

    def target(self, request: Request, **kwargs: Any) -> Competition:
        return competition_for_write(request, kwargs["slug"])

    def page_form(self, request: Request, target: Any, data: dict[str, str]) -> forms.Form:
        return SwissPairForm(data)

    def write(self, request: Request, target: Any, form: forms.Form) -> Any:
        competition = target
        try:
            swiss_matchday_pair(
                competition_id=competition.pk,
                number=form.cleaned_data["number"],
                override_reason=form.cleaned_data["override_reason"],
                date=form.cleaned_data["date"],
            )
        except RuleViolation as exc:
            refused(exc, current=lambda: schedule_state(competition))
        return ScheduleStateSerializer(schedule_state(competition)).data


urlpatterns = [
    path("matches/<int:match_id>/totals/", MatchTotals.as_view(), name="match-totals"),
    path("matches/<int:match_id>/forfeit/", MatchForfeit.as_view(), name="match-forfeit"),
    path(
        "competitions/<str:slug>/matchdays/pair/",
        MatchdayPair.as_view(),
        name="matchday-pair",
    ),
]
