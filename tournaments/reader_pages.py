"""The reader cache (`troefclub.reader_cache`) and the competitions: a page's competition
found by its slug without a query, and every saved or deleted competition (the admin: a
name, a setting, a slug) or entry bumping its pages once committed. A club, player, koppel or
matchday saved or deleted (a name, a date) bumps `NAMES_SCOPE`, which every reader page's
key holds: such edits are rare (the admin, imports), and a renamed koppel must not wait
for `READER_CACHE_SECONDS`.

The slug's id is kept for `READER_CACHE_SECONDS`; a save or delete of a competition forgets
its slug's id on commit, so a slug given to another competition leads to that one's pages.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models.signals import post_delete, post_save

from tournaments.models import Club, Competition, Entry, Matchday, Player, Team
from troefclub.reader_cache import (
    NAMES_SCOPE,
    competition_scope,
    reader_cache_bump_on_commit,
    reader_cache_forget_id,
    reader_cache_id,
)


def competition_reader_id(slug: str) -> int | None:
    """The id of the competition with `slug` (None: none), kept in the cache. May raise
    what the cache raises (the reader cache's caller renders then)."""
    return reader_cache_id(
        "competition",
        slug,
        lambda: Competition.objects.filter(slug=slug).values_list("pk", flat=True).first(),
    )


def _competition_changed(sender: type[Competition], instance: Competition, **_: Any) -> None:
    if not settings.CACHE_URL:  # no reader cache: no callback to run
        return
    reader_cache_bump_on_commit(competition_scope(instance.pk))
    slug = instance.slug
    transaction.on_commit(lambda: reader_cache_forget_id("competition", slug))


def _entry_changed(sender: type[Entry], instance: Entry, **_: Any) -> None:
    # An entry's name, club or withdrawal: its competition's pages. Without a shared cache
    # the bump registers nothing (`reader_cache_bump_on_commit` checks CACHE_URL).
    reader_cache_bump_on_commit(competition_scope(instance.competition_id))


def _names_changed(sender: type[Any], **_: Any) -> None:
    reader_cache_bump_on_commit(NAMES_SCOPE)


def reader_pages_connect() -> None:
    """Connect the receivers (`TournamentsConfig.ready`)."""
    for model in (Club, Player, Team, Matchday):
        for signal, name in ((post_save, "save"), (post_delete, "delete")):
            signal.connect(_names_changed, sender=model, dispatch_uid=f"reader_names_{name}")
    post_save.connect(_entry_changed, sender=Entry, dispatch_uid="reader_entry_save")
    post_delete.connect(_entry_changed, sender=Entry, dispatch_uid="reader_entry_delete")
    post_save.connect(_competition_changed, sender=Competition, dispatch_uid="reader_pages_save")
    post_delete.connect(
        _competition_changed, sender=Competition, dispatch_uid="reader_pages_delete"
    )
