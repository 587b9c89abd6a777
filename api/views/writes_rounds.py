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
from typing import Any

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
    RoundCorrectRequestSerializer,
    RoundRecordedSerializer,
    RoundRecordRequestSerializer,
    RoundUndoRequestSerializer,
)
from api.views.writes_common import (
    FormRefused,
    WriteView,
    form_checked,
    form_data,
    game_for_write,
    game_state,
    link_of,
    refused,
    round_state,
    write_schema,
)
from scoring.forms.sheet import QueuedRoundForm, RoundForm, UndoForm
from scoring.forms.table import TableRoundForm, TableUndoForm
from scoring.models import Game, Round
from scoring.rules import RuleViolation
from scoring.services.rounds import SentRound, game_round_send, round_correct, round_undo
from scoring.services.table import table_round_record, table_round_undo

ROUND_FIELDS = ("result", "side", "caller", "tricks_a", "tricks_b")


def _tricks_at_table(values: dict[str, Any]) -> None:
    """A table link records no tricks (its phone page has no such fields): said, not
    dropped. Raises FormRefused `tricks_not_at_table`."""
    given = [name for name in ("tricks_a", "tricks_b") if values.get(name) is not None]
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


def _same_round(stored: Round, values: dict[str, Any]) -> bool:
    """Whether round `stored` says what `values` ask (the same request sent again)."""
    asked = Round(
        result=values["result"],
        side=values.get("side") or "a",  # a redeal is stored about koppel A
        caller_id=values.get("caller"),
        tricks_a=values.get("tricks_a"),
        tricks_b=values.get("tricks_b"),
    )
    return asked.token == stored.token


def _send(request: Request, game: Game, key: uuid.UUID, values: dict[str, Any]) -> SentRound:
    """The round through the door's own form and service (see the module)."""
    link = link_of(request)
    data = form_data({name: values.get(name) for name in (*ROUND_FIELDS, "number")})
    data |= {"key": str(key), "seen": values["version"]}
    if link is not None:
        _tricks_at_table(values)
        table_form = form_checked(TableRoundForm(data, game=game, key_required=True))
        return table_round_record(
            token=link.token,
            expected_number=table_form.cleaned_data["number"],
            result=table_form.cleaned_data["result"],
            side=table_form.cleaned_data["side"],
            caller_id=table_form.caller_id,
            client_key=key,
            seen=table_form.cleaned_data["seen"],
        )
    form = form_checked(QueuedRoundForm(data, game=game))
    assert isinstance(form, QueuedRoundForm)
    return game_round_send(
        game_id=game.pk,
        expected_number=form.cleaned_data["number"],
        result=form.cleaned_data["result"],
        side=form.cleaned_data["side"],
        caller_id=form.caller_id,
        tricks=form.tricks,
        client_key=key,
        seen=form.cleaned_data["seen"],
        user=request.user,
    )


@write_schema(
    operation_id="game_round_record",
    summary="Record the next round",
    request=RoundRecordRequestSerializer,
    answer=RoundRecordedSerializer,
    created=RoundRecordedSerializer,
    conflict=GameConflictSerializer,
    table=True,
)
class RoundRecord(WriteView):
    """Record the next round of a game: 201 with the game and the round; 200 when the same
    Idempotency-Key stored it already (`already`: a retry, or the phone's queue sent it).

    A director (the score sheet's queue, `game_round_send`) or the game's own table link
    (the phone's queue, `table_round_record`; no tricks). `version` is the game's version
    the round was built on: another round, a correction or a close meanwhile is a 409 with
    the game now; a round the rules refuse is a 422 naming the round.
    """

    request_serializer = RoundRecordRequestSerializer

    def keyed(
        self, request: Request, key: uuid.UUID, values: dict[str, Any], **kwargs: Any
    ) -> Response:
        game = game_for_write(request, kwargs["game_id"], table=True)
        try:
            sent = _send(request, game, key, values)
        except RuleViolation as exc:
            refused(exc, current=lambda: game_state(game.pk), game=game)
            raise  # not reached: `refused` raises
        if sent.stored_already and not _same_round(sent.round, values):
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
    request=RoundCorrectRequestSerializer,
    answer=GameStateSerializer,
    conflict=GameConflictSerializer,
)
class RoundCorrect(WriteView):
    """Correct one stored round (`round_correct`, a director); the game is replayed with
    it. `version` is the round's own version: a round corrected meanwhile is a 409. The
    round as it is already changes nothing (no history row, no refresh)."""

    request_serializer = RoundCorrectRequestSerializer

    def write(self, request: Request, values: dict[str, Any], **kwargs: Any) -> Any:
        game = game_for_write(request, kwargs["game_id"], table=False)
        rnd = get_object_or_404(Round, pk=kwargs["round_id"], game=game)
        data = form_data({name: values.get(name) for name in ROUND_FIELDS})
        form = form_checked(
            RoundForm(data | {"seen": values["version"]}, game=game, correcting=True)
        )
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
    request=RoundUndoRequestSerializer,
    answer=GameStateSerializer,
    conflict=GameConflictSerializer,
    table=True,
)
class RoundUndo(WriteView):
    """Undo the last round: a director (`round_undo`), or the table link that entered it
    (`table_round_undo`). `round` is the round seen as the last one and `version` the
    game's version: a game changed meanwhile is a 409. Undoing the round that ended a game
    reopens it (a closed game stays closed): the answer's state says so."""

    request_serializer = RoundUndoRequestSerializer

    def write(self, request: Request, values: dict[str, Any], **kwargs: Any) -> Any:
        game = game_for_write(request, kwargs["game_id"], table=True)
        link = link_of(request)
        data = form_data({"round": values["round"], "seen": values["version"]})
        try:
            if link is not None:
                form = form_checked(TableUndoForm(data))
                table_round_undo(
                    token=link.token,
                    round_id=form.cleaned_data["round"],
                    seen=form.cleaned_data["seen"],
                )
            else:
                form = form_checked(UndoForm(data))
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
