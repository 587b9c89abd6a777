"""The names on the stored season rankings kept current: a line stores its player's,
koppel's or club's key and name (`SeasonRankingLine.key`, `name`, `sort_name`), because
the page sorts and searches by them in the database and a line's entry is a player, a
koppel or a club by its ranking's `by` (no join can reach all three). So a rename (the
admin, an import) must move the seasons that show the old name: a saved club, player or
koppel whose stored lines no longer say its key and name marks those seasons stale and
queues their refresh (`season_rankings_refresh_on_commit`), which rewrites only the lines
that changed. A save that changes no name marks nothing (one query: the lines compared).
A player's rename renames its koppels' lines too (a koppel without a name of its own is
named after its players).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.db.models.signals import post_save

from rankings.models import SeasonRankingLine
from rankings.season_refresh import season_rankings_refresh_on_commit
from scoring.rules.seasons import SeasonBy
from tournaments.models import Club, Player, Team


def _lines(by: SeasonBy, ids: Q | list[int]) -> Any:
    entries = Q(entry__in=ids) if isinstance(ids, list) else ids
    return SeasonRankingLine.objects.filter(entries, ranking__by=by.value)


def seasons_naming_stale(*, by: SeasonBy, names: dict[int, tuple[str, str]]) -> set[str]:
    """The seasons with a stored line of an entry of `names` (id: (key, name), as
    `season_refresh._SeasonNames` gives them) ranked `by`, whose key or name is no longer
    the stored one. One query."""
    if not names:
        return set()
    stale: set[str] = set()
    rows = _lines(by, list(names)).values_list("ranking__season", "entry", "key", "name")
    for season, entry, key, name in rows.distinct():
        if names[entry] != (key, name):
            stale.add(season)
    return stale


def season_names_changed(*, instance: Club | Player | Team) -> set[str]:
    """After a save of `instance`: mark stale, and queue the refresh of, every season whose
    stored lines show an old key or name of it (or, for a player, of its koppels). Returns
    those seasons. One query for a club or koppel; for a player two, three when it is in a
    stored koppel ranking."""
    stale: set[str]
    if isinstance(instance, Club):
        stale = seasons_naming_stale(
            by=SeasonBy.CLUB, names={instance.pk: (instance.key, instance.name)}
        )
    elif isinstance(instance, Team):
        stale = seasons_naming_stale(
            by=SeasonBy.KOPPEL, names={instance.pk: (instance.key, str(instance))}
        )
    else:
        stale = seasons_naming_stale(
            by=SeasonBy.PLAYER, names={instance.pk: (instance.key, instance.name)}
        )
        koppel_ids = list(
            _lines(
                SeasonBy.KOPPEL,
                Q(
                    entry__in=Team.objects.filter(
                        Q(player_1=instance) | Q(player_2=instance)
                    ).values("pk")
                ),
            )
            .values_list("entry", flat=True)
            .distinct()
        )
        if koppel_ids:
            koppels = Team.objects.filter(pk__in=koppel_ids).select_related("player_1", "player_2")
            stale |= seasons_naming_stale(
                by=SeasonBy.KOPPEL, names={k.pk: (k.key, str(k)) for k in koppels}
            )
    for season in sorted(stale):
        season_rankings_refresh_on_commit(season=season)
    return stale


def _saved(sender: type[Any], instance: Club | Player | Team, raw: bool = False, **_: Any) -> None:
    if not raw:  # a fixture loaded as it is: no rankings to move
        season_names_changed(instance=instance)


def season_names_connect() -> None:
    """Connect the receivers (`RankingsConfig.ready`)."""
    for model in (Club, Player, Team):
        post_save.connect(_saved, sender=model, dispatch_uid=f"season_names_{model.__name__}")
