"""Who may use a director's page: one decorator, `director_required`, on every view of a
competition's director (score sheets, schedule, matchdays, matches, queue, history, board,
printed sheets).

The decorator finds the view's object from the URL (a 404 when it is unknown, before any
access check, as the pages always did), lets in the competition's directors and staff
(`Competition.is_directed_by`), and hands the object to the view, so the view doesn't
fetch it again. Anybody else gets `denied`'s answer: the login page, or a friendly 403.

The core knows no model: what a page shows is a competition (it has `is_directed_by`) or
belongs to one (its `competition`: a matchday's field, a match's and a game's property).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from functools import wraps
from typing import Any, Concatenate, Protocol, TypeVar, runtime_checkable

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django_htmx.http import HttpResponseClientRedirect
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """A request as `django_htmx.middleware.HtmxMiddleware` leaves it (django-htmx docs,
    "Type checking"): `request.htmx` says whether htmx sent it, and from which page."""

    htmx: HtmxDetails


@runtime_checkable
class Directable(Protocol):
    """A competition, as far as access goes: who may direct it."""

    def is_directed_by(self, user: Any) -> bool: ...


class OfCompetition(Protocol):
    """What belongs to one competition: a matchday, a match, a game."""

    @property
    def competition(self) -> Directable: ...


def denied(request: HtmxHttpRequest, competition: Directable) -> HttpResponse | None:
    """None when the user may direct `competition`; else the login redirect or a 403 page.

    An htmx request of a logged-out director (a tap on a sheet left open) is sent to the
    login page as a whole page, back to the page it came from, with a word that nothing
    was saved: not a login form swapped into the score sheet.
    """
    if not request.user.is_authenticated:
        if request.htmx:
            if request.method == "POST":
                messages.warning(
                    request, _("Not saved: you were logged out. Log in and enter it again.")
                )
            page = request.htmx.current_url_abs_path or request.get_full_path()
            return HttpResponseClientRedirect(redirect_to_login(page).url)
        return redirect_to_login(request.get_full_path())
    if competition.is_directed_by(request.user):
        return None
    return render(request, "forbidden.html", {"competition": competition}, status=403)


Directed = TypeVar("Directed", bound=Directable | OfCompetition)


def competition_of(found: Directable | OfCompetition) -> Directable:
    """The competition a director's page is about, from the object it shows (through the
    joins its lookup made, `tournaments.lookups` and `scoring.views.common`: no query)."""
    return found if isinstance(found, Directable) else found.competition


def director_required(
    find: Callable[..., Directed], *, poll: bool = False
) -> Callable[
    [Callable[Concatenate[HtmxHttpRequest, Directed, ...], HttpResponse]],
    Callable[..., HttpResponse],
]:
    """A view of a competition's director, given what it shows.

    `find` takes the URL's keyword arguments it names (e.g. `game_for(slug, game_id)`) and
    returns the page's competition, matchday, match or game, raising Http404 when there is
    none; the view is called as `view(request, found, **the other URL arguments)`.

    `poll`: the page refreshes itself by htmx; a poll that is no longer allowed (logged
    out, director no more) reloads the whole page instead of swapping the login page in.
    """
    names = tuple(inspect.signature(find).parameters)

    def decorator(
        view: Callable[Concatenate[HtmxHttpRequest, Directed, ...], HttpResponse],
    ) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapper(request: HtmxHttpRequest, **kwargs: Any) -> HttpResponse:
            found = find(**{name: kwargs.pop(name) for name in names})
            response = denied(request, competition_of(found))
            if response is not None:
                if poll and request.htmx:
                    return HttpResponseClientRedirect(request.get_full_path())
                return response
            return view(request, found, **kwargs)

        return wrapper

    return decorator
