"""Who forfeited a match, in the interchange file (issue 9, point 8; docs/interchange.md
"Matches"): a lineup's forfeit stays the lineup's through an export and an import, a file
from before `Match.forfeit_cause` ("lineup: …" reasons) keeps its meaning, a director's
forfeit is exported as before, and a cause the format doesn't know is refused."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.management.base import CommandError

from interchange import load as interchange_load
from interchange.exporter import competition_export
from interchange.importer import competition_import
from scoring.services.lineups import club_match_lineup_set
from scoring.services.matches import match_forfeit_set
from tests.interchange.documents import row_counts, run, run_import
from tests.interchange.test_import_formats import clubs_document
from tests.scoring.test_club_matches import club_match, ids
from tests.seen import match_token_now
from tournaments.models import Match

pytestmark = pytest.mark.django_db

LINEUP, DIRECTOR = Match.ForfeitCause.LINEUP, Match.ForfeitCause.DIRECTOR
PLACE = "matchday 2, match toppers-kampoe, forfeit"  # clubs_document's forfeited match


def with_forfeit(**forfeit: Any) -> dict[str, Any]:
    """clubs_document with `forfeit` as its return match's forfeit (Toppers at home)."""
    data = clubs_document()
    data["matchdays"][1]["matches"][0]["forfeit"] = forfeit
    return data


def forfeited(slug: str = "club-league") -> tuple[str, str, str]:
    """(side, reason, cause) of the return match stored for competition `slug`."""
    match = Match.objects.get(matchday__competition__slug=slug, matchday__number=2)
    return match.forfeit, match.forfeit_reason, match.forfeit_cause


def exported_forfeit(data: dict[str, Any]) -> dict[str, Any]:
    forfeit: dict[str, Any] = data["matchdays"][1]["matches"][0]["forfeit"]
    return forfeit


# ---------------------------------------------------------------- round trips


@pytest.mark.parametrize("analyze_from", [interchange_load.ANALYZE_FROM_GAMES, 0])
def test_a_lineup_forfeit_round_trips(monkeypatch, analyze_from):
    """Also with the steps of a big file (ANALYZE before the bulk writes, PostgreSQL)."""
    monkeypatch.setattr(interchange_load, "ANALYZE_FROM_GAMES", analyze_from)
    data = with_forfeit(side="home", reason="fewer than 1 koppel", cause="lineup")

    competition = competition_import(data=data)

    assert forfeited() == ("home", "fewer than 1 koppel", LINEUP)
    match = Match.objects.get(matchday__competition=competition, matchday__number=2)
    assert match.history.latest().forfeit_cause == LINEUP  # its audit record says so too
    assert competition_export(competition=competition) == data


def test_a_lineup_forfeit_round_trips_through_the_commands(tmp_path):
    data = with_forfeit(side="home", reason="fewer than 1 koppel", cause="lineup")
    run_import(tmp_path, data)

    exported = json.loads(run("export_competition", "club-league"))
    assert exported == data

    exported["competition"]["slug"] = "copy"
    run_import(tmp_path, exported)
    assert forfeited("copy") == ("home", "fewer than 1 koppel", LINEUP)


def test_the_backup_before_a_replace_keeps_the_lineups_forfeit(tmp_path):
    run_import(tmp_path, with_forfeit(side="home", reason="fewer than 1 koppel", cause="lineup"))
    backups = tmp_path / "backups"

    run_import(tmp_path, clubs_document(), "--replace", "--yes", "--backup-dir", str(backups))
    assert forfeited() == ("home", "fewer than 1 koppel", DIRECTOR)

    (backup,) = backups.iterdir()
    run_import(tmp_path, backup.read_text(encoding="utf-8"), "--replace", "--yes",
               "--backup-dir", str(backups))  # fmt: skip
    assert forfeited() == ("home", "fewer than 1 koppel", LINEUP)


def test_a_lineup_forfeit_made_in_the_app_is_still_the_lineups_after_export_and_import():
    """The copy's forfeit goes again with a lineup that fields enough koppels."""
    match, home, away = club_match()
    club_match_lineup_set(
        match_id=match.pk,
        seen=match_token_now(match_id=match.pk),
        home_teams=ids(home),
        away_teams=ids([*away[:4], None, None]),
    )
    exported = competition_export(competition=match.matchday.competition)
    assert exported["matchdays"][0]["matches"][0]["forfeit"] == {
        "side": "away",
        "reason": "fewer than 5 koppels (away 4)",
        "cause": "lineup",
    }
    exported["competition"]["slug"] = "copy"

    copy = Match.objects.get(matchday__competition=competition_import(data=exported))

    assert (copy.forfeit, copy.forfeit_reason, copy.forfeit_cause) == (
        "away",
        "fewer than 5 koppels (away 4)",
        LINEUP,
    )
    lifted = club_match_lineup_set(
        match_id=copy.pk,
        seen=match_token_now(match_id=copy.pk),
        home_teams=ids(home),
        away_teams=ids(away),
    )
    assert (lifted.forfeit, lifted.forfeit_reason) == ("", "")


# ---------------------------------------------------------------- the director's forfeit


def test_a_directors_forfeit_is_exported_without_a_cause():
    data = clubs_document()

    competition = competition_import(data=data)

    assert forfeited() == ("home", "fewer than 1 koppel", DIRECTOR)
    exported = competition_export(competition=competition)
    assert exported_forfeit(exported) == {"side": "home", "reason": "fewer than 1 koppel"}
    assert exported == data


def test_a_files_director_cause_is_the_default_and_left_out_of_the_export():
    competition = competition_import(
        data=with_forfeit(side="home", reason="no show", cause="director")
    )

    assert forfeited() == ("home", "no show", DIRECTOR)
    exported = competition_export(competition=competition)
    assert exported_forfeit(exported) == {"side": "home", "reason": "no show"}


def test_a_directors_forfeit_worded_like_an_old_lineup_one_keeps_its_cause():
    """A director may write "lineup: …" (test_club_matches): the export then names the cause,
    or the import would read it as an old file's lineup forfeit."""
    match, _home, _away = club_match()
    match_forfeit_set(
        match_id=match.pk,
        seen=match_token_now(match_id=match.pk),
        side="away",
        reason="lineup: only three came",
    )
    exported = competition_export(competition=match.matchday.competition)
    forfeit = exported["matchdays"][0]["matches"][0]["forfeit"]
    assert forfeit == {"side": "away", "reason": "lineup: only three came", "cause": "director"}
    exported["competition"]["slug"] = "copy"

    copy = Match.objects.get(matchday__competition=competition_import(data=exported))

    assert (copy.forfeit_reason, copy.forfeit_cause) == ("lineup: only three came", DIRECTOR)


# ---------------------------------------------------------------- files from before the cause


@pytest.mark.parametrize(
    ("reason", "stored"),
    [
        ("lineup: fewer than 1 koppel", "fewer than 1 koppel"),
        ("lineup:fewer than 1 koppel", "fewer than 1 koppel"),
        ("lineup:", "lineup:"),  # only the prefix: a forfeit needs its words
    ],
)
def test_an_old_files_lineup_reason_is_read_as_the_lineups_forfeit(reason, stored):
    competition = competition_import(data=with_forfeit(side="home", reason=reason))

    assert forfeited() == ("home", stored, LINEUP)
    exported = competition_export(competition=competition)
    assert exported_forfeit(exported) == {"side": "home", "reason": stored, "cause": "lineup"}


def test_an_old_files_lineup_reason_with_a_cause_is_taken_as_the_file_says():
    competition_import(data=with_forfeit(side="home", reason="lineup: too few", cause="lineup"))

    assert forfeited() == ("home", "lineup: too few", LINEUP)


# ---------------------------------------------------------------- refused


@pytest.mark.parametrize(
    ("cause", "message"),
    [
        ("club", "“cause” must be one of “director”, “lineup”, “withdrew”, not “club”"),
        ("Lineup", "“cause” must be one of “director”, “lineup”, “withdrew”, not “Lineup”"),
        ("", "“cause” must be one of “director”, “lineup”, “withdrew”, not “”"),
        (None, "“cause” must be text, not null"),
        (1, "“cause” must be text, not a whole number"),
    ],
)
def test_a_cause_the_format_does_not_know_is_refused_with_the_place(tmp_path, cause, message):
    before = row_counts()

    with pytest.raises(CommandError) as info:
        run_import(tmp_path, with_forfeit(side="home", reason="no show", cause=cause))

    assert f"{PLACE}: {message}" in str(info.value)
    assert "Nothing was imported." in str(info.value)
    assert row_counts() == before
