"""An import's voided matches and games and its replays (issue 22), written after the
results through the services a director's page uses (`scoring.services.voids`): each
game's void, then each match's, then each replay linked to the voided match it replays.
A refusal is named where the file says it, and undoes the whole import.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from interchange.document import _Document, _Match
from interchange.errors import InterchangeError, _join, _violation
from scoring.rules import RuleViolation
from scoring.services.voids import game_void, match_replay_link, match_void


def voids_apply(doc: _Document) -> None:
    """Void what `doc` says is voided and link its replays (the matches are written:
    `_Match.instance`, `_Game.pk`). Raises InterchangeError at the first refusal."""
    matches = {
        (matchday.number, match.slug): match
        for matchday in doc.matchdays
        for match in matchday.matches
    }
    for match in matches.values():
        for game in match.games:
            if game.voided is not None and match.voided is None and game.pk is not None:
                at, reason = game.voided
                try:
                    game_void(game_id=game.pk, reason=reason, voided_at=at)
                except RuleViolation as exc:
                    raise _violation(_join(game.place, "voided"), exc) from None
    for match in matches.values():
        if match.voided is not None and match.instance is not None:
            at, reason = match.voided
            try:
                match_void(match_id=match.instance.pk, reason=reason, voided_at=at)
            except RuleViolation as exc:
                raise _violation(_join(match.place, "voided"), exc) from None
    for match in matches.values():
        if match.replay_of is not None:
            _replay_link(match, matches.get(match.replay_of))


def _replay_link(replay: _Match, original: _Match | None) -> None:
    place = _join(replay.place, "replay_of")
    if original is None or original.instance is None or replay.instance is None:
        assert replay.replay_of is not None
        number, slug = replay.replay_of
        raise InterchangeError(
            place,
            _("matchday %(number)s has no match “%(match)s” to replay")
            % {"number": number, "match": slug},
        )
    try:
        match_replay_link(match_id=original.instance.pk, replay_id=replay.instance.pk)
    except RuleViolation as exc:
        raise _violation(place, exc) from None
