"""What every API write shares: who may write (a director's API token, a table link on its
own game), the page's form as the check of the input, the service's refusals as 409/422,
the state each answer carries. Their OpenAPI description is `writes_schema`.

The writes themselves are in `writes_games`, `writes_rounds` and `writes_matches`; each
calls the one service the page calls, with the same arguments.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS
from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import exceptions, status
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import Serializer
from rest_framework.views import APIView

from api.errors import Conflict, Unprocessable, violation_body
from api.idempotency import HEADER, idempotency_key, keyed_write
from api.serializers.games import side_shown
from scoring.forms.sheet import seat_names
from scoring.models import Game, GameLink
from scoring.rules import RuleViolation
from scoring.selectors.sheet import game_detail
from scoring.services.games import game_seats_token
from scoring.tokens import game_token, match_token
from tournaments.models import Competition, Match

# The service refusals that say the thing changed since the sender read it: 409, with the
# current state to build the next try on. The rules' own refusals are 422.
CHANGED_CODES = frozenset(
    {
        "game_changed_meanwhile",
        "round_removed_meanwhile",
        "round_changed",
        "sheet_changed",
        "sheet_rounds_removed",
        "match_changed_meanwhile",
        "matchday_changed_meanwhile",
        "matchday_number_changed",
        "matchday_already_paired",
    }
)

# The words of a form's "this was not sent from its page" errors (`scoring.forms.seen`)
# for an API client: the page's ask to reload the page means nothing to a program.
_MISSING_WORDS = {
    "seen_missing": gettext_lazy(
        "Send `version`: the version of what you change, as your last read or answer gave it."
    ),
    "number_missing": gettext_lazy(
        "Send `number`: the number of the round you add, a whole number from 1."
    ),
    "round_missing": gettext_lazy(
        "Send `round_id`: the id of the round, as the game's read gives it."
    ),
    "key_missing": gettext_lazy("Send an Idempotency-Key header: a new UUID for each write."),
}

# Where a form's "this was not sent from its page" error points, in the API's words.
_MISSING_PLACES = {
    "seen_missing": "version",
    "number_missing": "number",
    "round_missing": "round",
    "key_missing": HEADER,
}


class TokenRequired(BasePermission):
    """Some token (a personal API token or a table link): without one, 401."""

    def has_permission(self, request: Request, view: Any) -> bool:
        return request.auth is not None


class FormRefused(Unprocessable):
    """400: the page's form refuses the input (its own code and words, by field)."""

    status_code = status.HTTP_400_BAD_REQUEST
    default_code = "invalid"


# ---------------------------------------------------------------- who may write


def link_of(request: Request) -> GameLink | None:
    """The table link the request came with, None for a personal API token."""
    return request.auth if isinstance(request.auth, GameLink) else None


def not_for_links(request: Request) -> None:
    """A director's write: a table link may not do it (403)."""
    if link_of(request) is not None:
        raise exceptions.PermissionDenied(
            _("A table link can only record, undo, confirm and dispute its own game's rounds.")
        )


def director_check(request: Request, competition: Competition) -> None:
    """403 unless the token's user directs `competition` (as the pages:
    `Competition.is_directed_by`, troefclub/access.py)."""
    not_for_links(request)
    if not competition.is_directed_by(request.user):
        raise exceptions.PermissionDenied(
            _("Only the directors of this competition may change its results.")
        )


def game_for_write(request: Request, game_id: int, *, table: bool) -> Game:
    """Game `game_id` (`game_detail`: with its koppels, seats and competition) for a write
    of a director, or, when `table` allows it, of the game's own table link.

    Raises PermissionDenied (403): a link of another game, a link where only a director may
    write, a user who does not direct the competition. NotFound (404): no such game.
    """
    link = link_of(request)
    if link is not None:
        if not table:
            not_for_links(request)
        if link.game_id != game_id:
            raise exceptions.PermissionDenied(_("A table link opens its own game only."))
    try:
        game = game_detail(game_id=game_id)
    except Game.DoesNotExist:
        raise Http404("no such game") from None
    if link is None:
        director_check(request, game.match.matchday.competition)
    return game


def match_for_write(request: Request, match_id: int) -> Match:
    """Match `match_id` with its competition, for a write of one of its directors."""
    not_for_links(request)
    match = Match.objects.select_related("matchday__competition").filter(pk=match_id).first()
    if match is None:
        raise Http404("no such match")
    director_check(request, match.matchday.competition)
    return match


def competition_for_write(request: Request, slug: str) -> Competition:
    """Competition `slug`, for a write of one of its directors."""
    not_for_links(request)
    competition = Competition.objects.filter(slug=slug).first()
    if competition is None:
        raise Http404("no such competition")
    director_check(request, competition)
    return competition


# ---------------------------------------------------------------- input


def form_refusal(form: forms.Form, names: Mapping[str, str]) -> FormRefused:
    """The FormRefused (400) of invalid `form`, the page's own form: the code and words of
    its first error, and every error by field in the API's names (`names`: form field →
    API field; a form's "not sent from its page" errors point at the field they miss)."""
    fields: dict[str, list[str]] = {}
    first: tuple[str, forms.ValidationError] | None = None
    for name, errors in form.errors.as_data().items():
        for error in errors:
            code = error.code or "invalid"
            field = _MISSING_PLACES.get(code) if name == NON_FIELD_ERRORS else None
            field = field or names.get(name, name)
            if field == NON_FIELD_ERRORS:
                field = "non_field"
            words = _MISSING_WORDS.get(code) if name == NON_FIELD_ERRORS else None
            messages = [str(words)] if words is not None else [str(m) for m in error.messages]
            fields.setdefault(field, []).extend(messages)
            if first is None:
                first = (field, error)
    assert first is not None, "an invalid form has an error"
    field, error = first
    return FormRefused(
        {
            "code": error.code or "invalid",
            "message": fields[field][0],
            "params": {},
            "place": {} if field == "non_field" else {"field": field},
            "fields": fields,
        }
    )


# ---------------------------------------------------------------- the state answered


def round_state(rnd: Any) -> dict[str, Any]:
    return {
        "id": rnd.pk,
        "number": rnd.number,
        "result": rnd.result,
        "side": side_shown(rnd.result, rnd.side),
        "caller": rnd.caller_id,
        "tricks_a": rnd.tricks_a,
        "tricks_b": rnd.tricks_b,
        "points_a": rnd.points_a,
        "points_b": rnd.points_b,
        "version": rnd.token,
    }


def game_state(game_id: int) -> dict[str, Any]:
    """Game `game_id` as stored now (`GameStateSerializer`), with its versions: the
    `game_token` and the `game_seats_token` its forms carry. Three queries."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise Http404("no such game")
    rounds = list(game.rounds.order_by("number"))
    dispute = game.disputes.filter(resolved_at__isnull=True).first()
    return {
        "id": game.pk,
        "status": game.status,
        "by_totals": game.by_totals,
        "score_a": game.score_a,
        "score_b": game.score_b,
        "total_a": game.total_a,
        "total_b": game.total_b,
        "confirmed": game.confirmed_at is not None,
        "seats": list(game.seats),
        "first_caller": game.first_caller,
        "first_caller_player": game.seats[game.first_caller - 1] if game.first_caller else None,
        "rounds": [round_state(rnd) for rnd in rounds],
        "dispute": {"id": dispute.pk, "side": dispute.side, "comment": dispute.comment}
        if dispute is not None
        else None,
        "version": game_token(game, rounds),
        "seats_version": game_seats_token(game, rounds),
    }


def match_state(match_id: int) -> dict[str, Any]:
    """Match `match_id` as stored now (`MatchStateSerializer`), with its `match_token`."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        raise Http404("no such match")
    games = sorted(match.games.values_list("pk", flat=True))
    return {
        "id": match.pk,
        "total_home": match.total_home,
        "total_away": match.total_away,
        "forfeit": match.forfeit,
        "forfeit_reason": match.forfeit_reason,
        "games": games,
        "version": match_token(match, games),
    }


# ---------------------------------------------------------------- refusals


def refused(exc: RuleViolation, *, current: Callable[[], Any], game: Game | None = None) -> None:
    """Raise the API's answer to a service's refusal: 409 with `current()` (the state now)
    when the thing changed meanwhile (`CHANGED_CODES`), else 422 with the rule's words
    (naming seated players when `game` has seats)."""
    message = rule_message_for(exc, game)
    if exc.code in CHANGED_CODES:
        raise Conflict(code=exc.code, message=message, current=current())
    body = violation_body(exc)
    body["message"] = message
    raise Unprocessable(body)


def rule_message_for(exc: RuleViolation, game: Game | None) -> str:
    from troefclub.rule_messages import rule_message

    return rule_message(exc, seat_names=seat_names(game) if game is not None else None)


# ---------------------------------------------------------------- the view and its schema


class WriteView(APIView):
    """An API write, in the order a page takes a post: a token is required (401 without);
    the Idempotency-Key header is read (400 without); what is written to is found (404)
    and the token's right to write it checked (403); then the input.

    The input is checked twice, so that no door accepts what another refuses: by the
    `request_serializer` (the types and ranges the schema documents) and by the page's
    own form (`page_form`), bound to the same values as the page would post them. When
    both refuse, the form's refusal is the answer (its code and words, the page's); a
    refusal is a 400 with the form's or DRF's code. Then `write` calls the one service.
    """

    permission_classes = [TokenRequired]
    request_serializer: type[Serializer] = Serializer
    # The API's field names that the page's form calls otherwise.
    form_names: Mapping[str, str] = {"version": "seen"}

    def post(self, request: Request, **kwargs: Any) -> Response:
        self.key = idempotency_key(request)
        target = self.target(request, **kwargs)
        form = self.checked(request, target)
        return self.keyed(request, target, form)

    def target(self, request: Request, **kwargs: Any) -> Any:
        """What the write changes, found and the token's right to it checked."""
        raise NotImplementedError

    def page_form(self, request: Request, target: Any, data: dict[str, str]) -> forms.Form:
        """The page's form of this write, bound to `data` (as the page posts it)."""
        raise NotImplementedError

    def form_input(self, values: Mapping[str, Any]) -> dict[str, str]:
        """`values` (the request's fields) as the page's form gets them posted: renamed
        (`form_names`), None as empty, the rest as text; fields the API has not are left
        out."""
        known = self.request_serializer().fields
        return {
            self.form_names.get(name, name): "" if value is None else str(value)
            for name, value in values.items()
            if name in known
        }

    def checked(self, request: Request, target: Any) -> forms.Form:
        """The page's form, valid, bound to the request's values (see the class)."""
        serializer = self.request_serializer(data=request.data)
        names = {form: api for api, form in self.form_names.items()}
        if not serializer.is_valid():
            if isinstance(request.data, Mapping):
                form = self.page_form(request, target, self.form_input(request.data))
                if not form.is_valid():
                    raise form_refusal(form, names)
            raise exceptions.ValidationError(serializer.errors)
        form = self.page_form(request, target, self.form_input(serializer.validated_data))
        if not form.is_valid():
            raise form_refusal(form, names)
        return form

    def keyed(self, request: Request, target: Any, form: forms.Form) -> Response:
        """The write, its answer kept under the key (`keyed_write`); a round overrides
        this (the round keeps its own key)."""
        return keyed_write(
            request, self.key, lambda: (status.HTTP_200_OK, self.write(request, target, form))
        )

    def write(self, request: Request, target: Any, form: forms.Form) -> Any:
        """Call the service with the form's cleaned data; return the answer's body."""
        raise NotImplementedError
