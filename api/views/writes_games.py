"""The API's writes of a whole game: entered totals, close, reopen, seats and first caller,
confirm, dispute, and the director's decision on a dispute.

Each view is the score sheet's (scoring/views/sheet_game.py), the table page's
(scoring/views/table.py) or the director's queue's (table_director.py) action: the same
form checks the input, the same service writes, with the same arguments.
"""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.urls import path
from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.request import Request

from api.errors import Unprocessable
from api.serializers.writes import (
    DisputeResolveSerializer,
    DisputeSerializer,
    GameConflictSerializer,
    GameStateSerializer,
    GameTotalsSerializer,
    SeatsSerializer,
    VersionSerializer,
)
from api.views.writes_common import (
    WriteView,
    game_for_write,
    game_state,
    link_of,
    refused,
)
from api.views.writes_schema import write_schema
from scoring.forms.seen import SeenForm
from scoring.forms.sheet import GameTotalsForm, SeatsForm
from scoring.forms.table import (
    DisputeResolveForm,
    TableConfirmForm,
    TableDisputeForm,
)
from scoring.models import Game
from scoring.rules import RuleViolation
from scoring.services import confirmations, games
from scoring.views.sheet import CLOSE_UNSTARTED


class GameWrite(WriteView):
    """A write of one game: `game_write` calls its service; the answer is the game now."""

    table = False  # whether the game's own table link may do it too

    def target(self, request: Request, **kwargs: Any) -> Any:
        return game_for_write(request, kwargs["game_id"], table=self.table)

    def page_form(self, request: Request, target: Any, data: dict[str, str]) -> forms.Form:
        return SeenForm(data)

    def write(self, request: Request, target: Any, form: forms.Form) -> Any:
        game = self.game_of(target)
        try:
            self.game_write(request, target, form)
        except RuleViolation as exc:
            refused(exc, current=lambda: game_state(game.pk), game=game)
        return GameStateSerializer(game_state(game.pk)).data

    def game_of(self, target: Any) -> Game:
        return cast(Game, target)

    def game_write(self, request: Request, target: Any, form: forms.Form) -> None:
        raise NotImplementedError


_GAME: dict[str, Any] = {"answer": GameStateSerializer, "conflict": GameConflictSerializer}


@write_schema(
    operation_id="game_totals_enter",
    summary="Enter a game's final totals",
    request=GameTotalsSerializer,
    **_GAME,
)
class GameTotals(GameWrite):
    """A game known only by its final totals (`GameTotalsForm`, `game_totals_enter`):
    checked for plausibility (RULES.md points); the game is over. The same totals again
    change nothing."""

    request_serializer = GameTotalsSerializer

    def page_form(self, request: Request, target: Any, data: dict[str, str]) -> forms.Form:
        return GameTotalsForm(data, game=target)

    def game_write(self, request: Request, target: Any, form: forms.Form) -> None:
        games.game_totals_enter(
            game_id=target.pk,
            total_a=form.cleaned_data["total_a"],
            total_b=form.cleaned_data["total_b"],
            seen=form.cleaned_data["seen"],
        )


@write_schema(
    operation_id="game_close",
    summary="Close a game (time limit)",
    request=VersionSerializer,
    **_GAME,
)
class GameClose(GameWrite):
    """End a game now, at a time limit (`game_close`): where the competition lets its
    director close games, and only once a round is played (`game_not_started`). A game
    closed already changes nothing."""

    request_serializer = VersionSerializer

    def game_write(self, request: Request, target: Any, form: forms.Form) -> None:
        game = target
        competition = game.match.matchday.competition
        unstarted = game.status == Game.Status.OPEN and not game.by_totals
        if competition.close_by_director_allowed and unstarted and not game.rounds.exists():
            # The score sheet's own guard (scoring/views/sheet_game.py): closing a game
            # nobody played records a 0–0 draw, a misclick, never a time limit.
            raise Unprocessable(
                {
                    "code": "game_not_started",
                    "message": str(CLOSE_UNSTARTED),
                    "params": {},
                    "place": {},
                }
            )
        games.game_close(game_id=game.pk, seen=form.cleaned_data["seen"])


@write_schema(
    operation_id="game_reopen",
    summary="Reopen a closed game, or clear its totals",
    request=VersionSerializer,
    **_GAME,
)
class GameReopen(GameWrite):
    """Undo a close, or clear entered totals (`game_reopen`). A game open already changes
    nothing."""

    request_serializer = VersionSerializer

    def game_write(self, request: Request, target: Any, form: forms.Form) -> None:
        games.game_reopen(game_id=target.pk, seen=form.cleaned_data["seen"], user=request.user)


@write_schema(
    operation_id="game_seats_set",
    summary="Seat the players and name the first caller",
    request=SeatsSerializer,
    **_GAME,
)
class GameSeats(GameWrite):
    """Seat the four players and say who calls round 1, before round 1 (`SeatsForm`,
    `game_seats_set`). `version` is the game's `seats_version`; the seats as they are
    change nothing."""

    request_serializer = SeatsSerializer

    def page_form(self, request: Request, target: Any, data: dict[str, str]) -> forms.Form:
        return SeatsForm(data, game=target)

    def game_write(self, request: Request, target: Any, form: forms.Form) -> None:
        assert isinstance(form, SeatsForm)
        games.game_seats_set(
            game_id=target.pk,
            seats=form.seats,
            first_caller=form.first_caller_seat,
            seen=form.cleaned_data["seen"],
        )


@write_schema(
    operation_id="game_confirm",
    summary="Confirm a game's result",
    request=VersionSerializer,
    table=True,
    **_GAME,
)
class GameConfirm(GameWrite):
    """Confirm a finished game's result, so it counts where confirmation is required: a
    director (`game_confirm`, which also decides an open dispute) or the other koppel's
    table link (`table_game_confirm`). Confirmed already changes nothing."""

    request_serializer = VersionSerializer
    table = True

    def page_form(self, request: Request, target: Any, data: dict[str, str]) -> forms.Form:
        return TableConfirmForm(data) if link_of(request) is not None else SeenForm(data)

    def game_write(self, request: Request, target: Any, form: forms.Form) -> None:
        link = link_of(request)
        seen = form.cleaned_data["seen"]
        if link is None:
            confirmations.game_confirm(game_id=target.pk, user=request.user, seen=seen)
        else:
            confirmations.table_game_confirm(token=link.token, seen=seen)


@write_schema(
    operation_id="game_dispute",
    summary="Dispute a game's result (table link)",
    request=DisputeSerializer,
    table=True,
    **_GAME,
)
class GameDisputeRaise(GameWrite):
    """The other koppel disputes the result through its own table link, saying why
    (`TableDisputeForm`, `table_game_dispute`): the director decides. A director's token
    is refused (403): a director corrects or confirms instead."""

    request_serializer = DisputeSerializer
    table = True

    def target(self, request: Request, **kwargs: Any) -> Any:
        game = super().target(request, **kwargs)
        if link_of(request) is None:
            raise exceptions.PermissionDenied(
                _("Only the other koppel disputes a result, through its own table link.")
            )
        return game

    def page_form(self, request: Request, target: Any, data: dict[str, str]) -> forms.Form:
        return TableDisputeForm(data)

    def game_write(self, request: Request, target: Any, form: forms.Form) -> None:
        link = link_of(request)
        assert link is not None
        confirmations.table_game_dispute(
            token=link.token, comment=form.cleaned_data["comment"], seen=form.cleaned_data["seen"]
        )


@write_schema(
    operation_id="game_dispute_resolve",
    summary="Decide a game's dispute (director)",
    request=DisputeResolveSerializer,
    **_GAME,
)
class GameDisputeResolve(GameWrite):
    """The director decides the game's dispute (`DisputeResolveForm`,
    `game_dispute_resolve`): `accepted` (the result stands, confirmed), `corrected` (fixed
    on the sheet first, confirmed as it is now) or `rejected` (the rounds are removed; the
    table enters the game again). The same decision again changes nothing; another one on
    a decided dispute is 422 `dispute_resolved_already`; a game never disputed, 422
    `dispute_unknown`."""

    request_serializer = DisputeResolveSerializer

    def target(self, request: Request, **kwargs: Any) -> Any:
        game = super().target(request, **kwargs)
        # The open dispute, else the last one decided (the decision sent again).
        dispute = (
            game.disputes.filter(resolved_at__isnull=True).first()
            or game.disputes.order_by("-resolved_at", "-pk").first()
        )
        if dispute is None:
            raise RuleViolation("dispute_unknown")
        return game, dispute

    def game_of(self, target: Any) -> Game:
        return cast(Game, target[0])

    def page_form(self, request: Request, target: Any, data: dict[str, str]) -> forms.Form:
        return DisputeResolveForm({**data, "dispute": str(target[1].pk)})

    def game_write(self, request: Request, target: Any, form: forms.Form) -> None:
        confirmations.game_dispute_resolve(
            dispute_id=target[1].pk,
            resolution=form.cleaned_data["resolution"],
            user=request.user,
            seen=form.cleaned_data["seen"],
        )


urlpatterns = [
    path("games/<int:game_id>/totals/", GameTotals.as_view(), name="game-totals"),
    path("games/<int:game_id>/close/", GameClose.as_view(), name="game-close"),
    path("games/<int:game_id>/reopen/", GameReopen.as_view(), name="game-reopen"),
    path("games/<int:game_id>/seats/", GameSeats.as_view(), name="game-seats"),
    path("games/<int:game_id>/confirm/", GameConfirm.as_view(), name="game-confirm"),
    path("games/<int:game_id>/dispute/", GameDisputeRaise.as_view(), name="game-dispute"),
    path(
        "games/<int:game_id>/dispute/resolve/",
        GameDisputeResolve.as_view(),
        name="game-dispute-resolve",
    ),
]
