"""Addresses of the app's pages as the tests open them: one definition each."""

from __future__ import annotations

from django.urls import reverse

from scoring.models import Game
from tournaments.models import Competition, Match


def manage_url(competition: Competition) -> str:
    """The director's schedule page of `competition` (`competition_manage`)."""
    return reverse("competition_manage", kwargs={"slug": competition.slug})


def matchday_url(competition: Competition, number: int = 1) -> str:
    """The director's page of matchday `number` of `competition` (`matchday_manage`)."""
    return reverse("matchday_manage", kwargs={"slug": competition.slug, "number": number})


def game_url(name: str, game: Game, **kwargs: object) -> str:
    """The address `name` of `game` (`game_sheet`, `game_detail`, `round_undo`, …);
    `kwargs` are its other arguments (`round_id`)."""
    slug = game.match.matchday.competition.slug
    return reverse(name, kwargs={"slug": slug, "game_id": game.pk, **kwargs})


def match_totals_url(match: Match) -> str:
    """The page where a director enters a match's reported totals (`match_totals`)."""
    slug = match.matchday.competition.slug
    return reverse("match_totals", kwargs={"slug": slug, "match_id": match.pk})


def without_bdi(html: str) -> str:
    """`html` without the `<bdi>` tags that isolate every name on the pages (issue 19,
    `troefclub.bidi`): the text as a reader sees it, for a test that reads a sentence."""
    return html.replace("<bdi>", "").replace("</bdi>", "")
