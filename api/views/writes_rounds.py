"""The API's writes of one round: record the next one, correct one, undo the last.

Recording goes to the service of the door's offline queue, with the Idempotency-Key as the
round's `client_key`: a director's token to `game_round_send` (the score sheet's queue), a
table link to `table_round_record` (the phone's queue). Correcting (`round_correct`, a
director) and undoing (`round_undo` for a director, `table_round_undo` for the link whose
round it is) keep their answer under the key (`api.idempotency.keyed_write`). The input is
checked by the page's own form first (`RoundForm`, `TableRoundForm`, `UndoForm`).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from django import forms
from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.translation import gettext as _
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from api.idempotency import key_reused
from api.serializers.writes import (
    GameConflictSerializer,
    GameStateSerializer,
    RoundCorrectSerializer,
    RoundRecordedSerializer,
    RoundRecordSerializer,
    RoundUndoSerializer,
)
from api.views.writes_common import (
    FormRefused,
    WriteView,
    game_for_write,
    game_state,
    link_of,
    refused,
    round_state,
)
from api.views.writes_schema import write_schema
from scoring.forms.sheet import QueuedRoundForm, RoundForm, UndoForm
from scoring.forms.table import TableRoundForm, TableUndoForm
from scoring.models import Game, Round
from scoring.rules import RuleViolation
from scoring.services.rounds import SentRound, game_round_send, round_correct, round_undo
from scoring.services.table import table_round_record, table_round_undo


def _tricks_at_table(request: Request) -> None:
    """A table link records no tricks (its phone page has no such fields): said, not
    dropped. Raises FormRefused `tricks_not_at_table`."""
    data = request.data if isinstance(request.data, Mapping) else {}
    given = [name for name in ("tricks_a", "tricks_b") if data.get(name) is not None]
    if given:
        message = _("The table records no tricks: leave tricks_a and tricks_b out.")
        raise FormRefused(
            {
                "code": "tricks_not_at_table",
                "message": message,
                "params": {},
                "place": {"field": given[0]},
                "fields": {name: [message] for name in given},
            }
        )


def _same_round(stored: Round, form: forms.Form) -> bool:
    """Whether round `stored` says what the (valid) round `form` asks: the same request
    sent again."""
    data = form.cleaned_data
    asked = Round(
        result=data["result"],
        side=data["side"],
        caller_id=data.get("caller"),
        tricks_a=data.get("tricks_a"),
        tricks_b=data.get("tricks_b"),
    )
    return asked.token == stored.token


def _send(request: Request, game: Game, key: uuid.UUID, form: forms.Form) -> SentRound:
    """The round through the door's service (see the module), from its valid form."""
    link = link_of(request)
    data = form.cleaned_data
    if link is not None:
        assert isinstance(form, TableRoundForm)
        return table_round_record(
            token=link.token,
            expected_number=data["number"],
            result=data["result"],
            side=data["side"],
            caller_id=form.caller_id,
            client_key=key,
            seen=data["seen"],
        )
    assert isinstance(form, QueuedRoundForm)
    return game_round_send(
        game_id=game.pk,
        expected_number=data["number"],
        result=data["result"],
        side=data["side"],
        caller_id=form.caller_id,
        tricks=form.tricks,
        client_key=key,
        seen=data["seen"],
        user=request.user,
    )


@write_schema(
    operation_id="game_round_record",
    summary="Record the next round",
    request=RoundRecordSerializer,
    answer=RoundRecordedSerializer,
    created=RoundRecordedSerializer,
    conflict=GameConflictSerializer,
    table=True,
)
class RoundRecord(WriteView):
    """Record the next round of a game: 201 with the game and the round; 200 when the same
    Idempotency-Key stored it already (`already`: a retry, or the phone's queue sent it).

    A director (the score sheet's queue: `QueuedRoundForm`, `game_round_send`) or the
    game's own table link (the phone's queue: `TableRoundForm`, `table_round_record`; no
    tricks). `version` is the game's version the round was built on: another round, a
    correction or a close meanwhile is a 409 with the game now; a round the rules refuse
    is a 422 naming the round.
    """

    request_serializer = RoundRecordSerializer

    def target(self, request: Request, **kwargs: Any) -> Game:
        return game_for_write(request, kwargs["game_id"], table=True)

    def checked(self, request: Request, target: Any) -> forms.Form:
        if link_of(request) is not None:
            _tricks_at_table(request)
        return super().checked(request, target)

    def page_form(self, request: Request, target: Any, data: dict[str, str]) -> forms.Form:
        data = {**data, "key": str(self.key)}
        if link_of(request) is not None:
            return TableRoundForm(data, game=target, key_required=True)
        return QueuedRoundForm(data, game=target)

    def keyed(self, request: Request, target: Any, form: forms.Form) -> Response:
        game = target
        try:
            sent = _send(request, game, self.key, form)
        except RuleViolation as exc:
            refused(exc, current=lambda: game_state(game.pk), game=game)
            raise  # not reached: `refused` raises
        if sent.stored_already and not _same_round(sent.round, form):
            raise key_reused()
        answer = {
            **game_state(game.pk),
            "round": round_state(sent.round),
            "already": sent.stored_already,
        }
        code = status.HTTP_200_OK if sent.stored_already else status.HTTP_201_CREATED
        return Response(RoundRecordedSerializer(answer).data, status=code)


@write_schema(
    operation_id="game_round_correct",
    summary="Correct a round",
    request=RoundCorrectSerializer,
    answer=GameStateSerializer,
    conflict=GameConflictSerializer,
)
class RoundCorrect(WriteView):
    """Correct one stored round (`RoundForm`, `round_correct`, a director); the game is
    replayed with it. `version` is the round's own version: a round corrected meanwhile is
    a 409. The round as it is already changes nothing (no history row, no refresh)."""

    request_serializer = RoundCorrectSerializer

    def target(self, request: Request, **kwargs: Any) -> tuple[Game, Round]:
        game = game_for_write(request, kwargs["game_id"], table=False)
        return game, get_object_or_404(Round, pk=kwargs["round_id"], game=game)

    def page_form(self, request: Request, target: Any, data: dict[str, str]) -> forms.Form:
        return RoundForm(data, game=target[0], correcting=True)

    def write(self, request: Request, target: Any, form: forms.Form) -> Any:
        game, rnd = target
        assert isinstance(form, RoundForm)
        try:
            round_correct(
                round_id=rnd.pk,
                result=form.cleaned_data["result"],
                side=form.cleaned_data["side"],
                caller_id=form.caller_id,
                tricks=form.tricks,
                seen=form.cleaned_data["seen"],
                user=request.user,
            )
        except RuleViolation as exc:
            refused(exc, current=lambda: game_state(game.pk), game=game)
        return GameStateSerializer(game_state(game.pk)).data


@write_schema(
    operation_id="game_round_undo",
    summary="Undo the last round",
    request=RoundUndoSerializer,
    answer=GameStateSerializer,
    conflict=GameConflictSerializer,
    table=True,
)
class RoundUndo(WriteView):
    """Undo the last round: a director (`UndoForm`, `round_undo`), or the table link that
    entered it (`TableUndoForm`, `table_round_undo`). `round` is the round seen as the
    last one and `version` the game's version: a game changed meanwhile is a 409. Undoing
    the round that ended a game reopens it (a closed game stays closed): the answer's
    state says so (the score sheet asks first; a program has decided already)."""

    request_serializer = RoundUndoSerializer

    def target(self, request: Request, **kwargs: Any) -> Game:
        return game_for_write(request, kwargs["game_id"], table=True)

    def page_form(self, request: Request, target: Any, data: dict[str, str]) -> forms.Form:
        if link_of(request) is not None:
            return TableUndoForm(data)
        return UndoForm(data)

    def write(self, request: Request, target: Any, form: forms.Form) -> Any:
        game = target
        link = link_of(request)
        try:
            if link is not None:
                table_round_undo(
                    token=link.token,
                    round_id=form.cleaned_data["round"],
                    seen=form.cleaned_data["seen"],
                )
            else:
                round_undo(
                    game_id=game.pk,
                    round_id=form.cleaned_data["round"],
                    seen=form.cleaned_data["seen"],
                    user=request.user,
                )
        except RuleViolation as exc:
            refused(exc, current=lambda: game_state(game.pk), game=game)
        return GameStateSerializer(game_state(game.pk)).data


urlpatterns = [
    path("games/<int:game_id>/rounds/record/", RoundRecord.as_view(), name="game-round-record"),
    path(
        "games/<int:game_id>/rounds/<int:round_id>/correct/",
        RoundCorrect.as_view(),
        name="game-round-correct",
    ),
    path("games/<int:game_id>/rounds/undo/", RoundUndo.as_view(), name="game-round-undo"),
]
