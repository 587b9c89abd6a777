"""Who may use a director's page: one decorator, `director_required`, on every view of a
competition's director (score sheets, schedule, matchdays, matches, queue, history, board,
printed sheets).

The decorator finds the view's object from the URL (a 404 when it is unknown, before any
access check, as the pages always did), lets in the competition's directors and staff
(`Competition.is_directed_by`), and hands the object to the view, so the view doesn't
fetch it again. Anybody else gets `denied`'s answer: the login page, or a friendly 403.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from functools import wraps
from typing import Any, Concatenate, TypeVar

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django_htmx.http import HttpResponseClientRedirect
from django_htmx.middleware import HtmxDetails

from scoring.models import Game
from tournaments.models import Competition, Match, Matchday


class HtmxHttpRequest(HttpRequest):
    """A request as `django_htmx.middleware.HtmxMiddleware` leaves it (django-htmx docs,
    "Type checking"): `request.htmx` says whether htmx sent it, and from which page."""

    htmx: HtmxDetails


def denied(request: HtmxHttpRequest, competition: Competition) -> HttpResponse | None:
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
    return render(request, "scoring/forbidden.html", {"competition": competition}, status=403)


Directed = TypeVar("Directed", Competition, Matchday, Match, Game)


def competition_of(found: Competition | Matchday | Match | Game) -> Competition:
    """The competition a director's page is about, from the object it shows (its joins,
    as the `tournaments.view_helpers` lookups make them: no query)."""
    if isinstance(found, Game):
        return found.match.matchday.competition
    if isinstance(found, Match):
        return found.matchday.competition
    if isinstance(found, Matchday):
        return found.competition
    return found


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
