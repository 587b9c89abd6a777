"""The API's writes of a whole game: entered totals, close, reopen, seats and first caller,
confirm, dispute, and the director's decision on a dispute.

Each view is the score sheet's (scoring/views/sheet_game.py), the table page's
(scoring/views/table.py) or the director's queue's (table_director.py) action: the same
form checks the input, the same service writes, with the same arguments.
"""

from __future__ import annotations

from typing import Any

from django.urls import path
from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.request import Request

from api.errors import Unprocessable
from api.serializers.writes import (
    DisputeRequestSerializer,
    DisputeResolveRequestSerializer,
    GameConflictSerializer,
    GameStateSerializer,
    GameTotalsRequestSerializer,
    SeatsRequestSerializer,
    VersionRequestSerializer,
)
from api.views.writes_common import (
    WriteView,
    form_checked,
    form_data,
    game_for_write,
    game_state,
    link_of,
    refused,
    write_schema,
)
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

    def write(self, request: Request, values: dict[str, Any], **kwargs: Any) -> Any:
        game = game_for_write(request, kwargs["game_id"], table=self.table)
        try:
            self.game_write(request, game, values)
        except RuleViolation as exc:
            refused(exc, current=lambda: game_state(game.pk), game=game)
        return GameStateSerializer(game_state(game.pk)).data

    def game_write(self, request: Request, game: Game, values: dict[str, Any]) -> None:
        raise NotImplementedError


def _seen(values: dict[str, Any]) -> str:
    """The version, checked as the page's buttons check it (`SeenForm`)."""
    return str(form_checked(SeenForm(form_data({"seen": values["version"]}))).cleaned_data["seen"])


_GAME = {"answer": GameStateSerializer, "conflict": GameConflictSerializer}


@write_schema(
    operation_id="game_totals_enter",
    summary="Enter a game's final totals",
    request=GameTotalsRequestSerializer,
    **_GAME,
)
class GameTotals(GameWrite):
    """A game known only by its final totals (`game_totals_enter`): checked for
    plausibility (RULES.md points); the game is over. The same totals again change
    nothing."""

    request_serializer = GameTotalsRequestSerializer

    def game_write(self, request: Request, game: Game, values: dict[str, Any]) -> None:
        form = form_checked(
            GameTotalsForm(
                form_data(
                    {
                        "total_a": values["total_a"],
                        "total_b": values["total_b"],
                        "seen": values["version"],
                    }
                ),
                game=game,
            )
        )
        games.game_totals_enter(
            game_id=game.pk,
            total_a=form.cleaned_data["total_a"],
            total_b=form.cleaned_data["total_b"],
            seen=form.cleaned_data["seen"],
        )


@write_schema(
    operation_id="game_close",
    summary="Close a game (time limit)",
    request=VersionRequestSerializer,
    **_GAME,
)
class GameClose(GameWrite):
    """End a game now, at a time limit (`game_close`): where the competition lets its
    director close games, and only once a round is played (`game_not_started`). A game
    closed already changes nothing."""

    request_serializer = VersionRequestSerializer

    def game_write(self, request: Request, game: Game, values: dict[str, Any]) -> None:
        seen = _seen(values)
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
        games.game_close(game_id=game.pk, seen=seen)


@write_schema(
    operation_id="game_reopen",
    summary="Reopen a closed game, or clear its totals",
    request=VersionRequestSerializer,
    **_GAME,
)
class GameReopen(GameWrite):
    """Undo a close, or clear entered totals (`game_reopen`). A game open already changes
    nothing."""

    request_serializer = VersionRequestSerializer

    def game_write(self, request: Request, game: Game, values: dict[str, Any]) -> None:
        games.game_reopen(game_id=game.pk, seen=_seen(values), user=request.user)


@write_schema(
    operation_id="game_seats_set",
    summary="Seat the players and name the first caller",
    request=SeatsRequestSerializer,
    **_GAME,
)
class GameSeats(GameWrite):
    """Seat the four players and say who calls round 1, before round 1 (`game_seats_set`).
    `version` is the game's `seats_version`; the seats as they are change nothing."""

    request_serializer = SeatsRequestSerializer

    def game_write(self, request: Request, game: Game, values: dict[str, Any]) -> None:
        form = form_checked(
            SeatsForm(
                form_data(
                    {
                        "seat_1": values["seat_1"],
                        "seat_2": values["seat_2"],
                        "first_caller": values.get("first_caller"),
                        "seen": values["version"],
                    }
                ),
                game=game,
            )
        )
        assert isinstance(form, SeatsForm)
        games.game_seats_set(
            game_id=game.pk,
            seats=form.seats,
            first_caller=form.first_caller_seat,
            seen=form.cleaned_data["seen"],
        )


@write_schema(
    operation_id="game_confirm",
    summary="Confirm a game's result",
    request=VersionRequestSerializer,
    table=True,
    **_GAME,
)
class GameConfirm(GameWrite):
    """Confirm a finished game's result, so it counts where confirmation is required: a
    director (`game_confirm`, which also decides an open dispute) or the other koppel's
    table link (`table_game_confirm`). Confirmed already changes nothing."""

    request_serializer = VersionRequestSerializer
    table = True

    def game_write(self, request: Request, game: Game, values: dict[str, Any]) -> None:
        link = link_of(request)
        if link is None:
            confirmations.game_confirm(game_id=game.pk, user=request.user, seen=_seen(values))
            return
        form = form_checked(TableConfirmForm(form_data({"seen": values["version"]})))
        confirmations.table_game_confirm(token=link.token, seen=form.cleaned_data["seen"])


@write_schema(
    operation_id="game_dispute",
    summary="Dispute a game's result (table link)",
    request=DisputeRequestSerializer,
    table=True,
    **_GAME,
)
class GameDisputeRaise(GameWrite):
    """The other koppel disputes the result through its own table link, saying why
    (`table_game_dispute`): the director decides. A director's token is refused (403): a
    director corrects or confirms instead."""

    request_serializer = DisputeRequestSerializer
    table = True

    def game_write(self, request: Request, game: Game, values: dict[str, Any]) -> None:
        link = link_of(request)
        if link is None:
            raise exceptions.PermissionDenied(
                _("Only the other koppel disputes a result, through its own table link.")
            )
        form = form_checked(
            TableDisputeForm(form_data({"comment": values["comment"], "seen": values["version"]}))
        )
        confirmations.table_game_dispute(
            token=link.token, comment=form.cleaned_data["comment"], seen=form.cleaned_data["seen"]
        )


@write_schema(
    operation_id="game_dispute_resolve",
    summary="Decide a game's dispute (director)",
    request=DisputeResolveRequestSerializer,
    **_GAME,
)
class GameDisputeResolve(GameWrite):
    """The director decides the game's dispute (`game_dispute_resolve`): `accepted` (the
    result stands, confirmed), `corrected` (fixed on the sheet first, confirmed as it is
    now) or `rejected` (the rounds are removed; the table enters the game again). The same
    decision again changes nothing; another one on a decided dispute is 422
    `dispute_resolved_already`."""

    request_serializer = DisputeResolveRequestSerializer

    def game_write(self, request: Request, game: Game, values: dict[str, Any]) -> None:
        # The open dispute, else the last one decided (the decision sent again).
        dispute = (
            game.disputes.filter(resolved_at__isnull=True).first()
            or game.disputes.order_by("-resolved_at", "-pk").first()
        )
        if dispute is None:
            raise RuleViolation("dispute_unknown")
        form = form_checked(
            DisputeResolveForm(
                form_data(
                    {
                        "dispute": dispute.pk,
                        "resolution": values["resolution"],
                        "seen": values["version"],
                    }
                )
            )
        )
        confirmations.game_dispute_resolve(
            dispute_id=dispute.pk,
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
