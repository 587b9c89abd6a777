"""Where a director lands after logging in: their competitions and tonight's matchdays."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone

from scoring.selectors.evening import directed_competitions


def director_home(request: HttpRequest) -> HttpResponse:
    """Where a director lands after logging in (`LOGIN_REDIRECT_URL`): the competitions
    they direct, each with tonight's matchday (today's, else the first with open games)
    and links to its board, its management page and its score sheets.

    Somebody who directs nothing (an admin without the permission, a player) is sent on
    to the list of competitions; an anonymous visitor to the login page.
    """
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    directed = directed_competitions(user=request.user)
    if not directed and not request.user.has_perm("tournaments.direct_every_competition"):
        return redirect("competition_list")
    # Every matchday to run tonight, each on its own card (two speelrondes may share a date);
    # the first of a competition's cards keeps the id `evening-<slug>`.
    tonight = [
        (item.competition, evening, index == 0)
        for item in directed
        for index, evening in enumerate(item.evenings)
    ]
    return render(
        request,
        "scoring/director_home.html",
        {"directed": directed, "tonight": tonight, "today": timezone.localdate()},
    )
